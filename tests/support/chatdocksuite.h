#pragma once

#include <memory>

class QMainWindow;

namespace Gui {
class ChatDock;
class ConversationStore;
} // namespace Gui
namespace Prefetch {
class DebounceStrategy;
class Engine;
} // namespace Prefetch

namespace TestSupport {

// The chat as a person meets it, for the chat dock's suites: a ChatDock docked on the right of
// a main window with an editor in the middle, the window shown and active, the focus in the
// chat's input. `window` is made when empty and kept otherwise; `dock` is replaced (as after a
// restart, on the same store). False when the window was not exposed or not activated in time.
bool showChatDock(std::unique_ptr<QMainWindow> &window, std::unique_ptr<Gui::ChatDock> &dock,
                  Prefetch::Engine *engine, Prefetch::DebounceStrategy *debounce, Gui::ConversationStore *store);

} // namespace TestSupport
