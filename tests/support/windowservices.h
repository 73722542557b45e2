#pragma once

#include "gui/mainwindow/mainwindow.h"
#include "prefetch/stack.h"

namespace TestSupport {

// What a main window works with, from an engine stack as the app gives it (app/application.cpp):
// the engine and the four strategies; the chat's store and the Library panel where the suite
// has them; the Speculator only with `earlySignals` (the window then forwards the pointer, the
// focus and the selections to it, as in the app; without it they guess nothing). Header-only:
// for the suites that link the UI, which headstart_testsupport does not.
inline Gui::Services windowServices(const Prefetch::Stack &stack, Gui::ConversationStore *conversations = nullptr,
                                    Knowledge::Library *library = nullptr, bool earlySignals = false)
{
    return Gui::Services{stack.engine(),
                         stack.hover(),
                         stack.debounce(),
                         stack.workflow(),
                         stack.warmup(),
                         conversations,
                         earlySignals ? stack.speculator() : nullptr,
                         library};
}

} // namespace TestSupport
