#include "chatwindow.h"

#include "gui/chat/chatdock.h"
#include "gui/chat/chatinput.h"

#include <QMainWindow>
#include <QPlainTextEdit>
#include <QTest>

namespace TestSupport {

bool showChatDock(std::unique_ptr<QMainWindow> &window, std::unique_ptr<Gui::ChatDock> &dock,
                  Prefetch::Engine *engine, Prefetch::DebounceStrategy *debounce, Gui::ConversationStore *store)
{
    dock.reset();
    if (!window) {
        window = std::make_unique<QMainWindow>();
        window->setCentralWidget(new QPlainTextEdit(window.get()));
        window->resize(1000, 800);
    }
    dock = std::make_unique<Gui::ChatDock>(engine, debounce, store, window.get());
    window->addDockWidget(Qt::RightDockWidgetArea, dock.get());
    window->show();
    dock->show(); // a dock added to a window already shown is not shown by it
    if (!QTest::qWaitForWindowExposed(window.get()))
        return false;
    window->activateWindow();
    if (!QTest::qWaitForWindowActive(window.get()))
        return false;
    dock->input()->setFocus();
    return true;
}

} // namespace TestSupport
