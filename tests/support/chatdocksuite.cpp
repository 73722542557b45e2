#include "chatdocksuite.h"

#include "gui/chat/chatdock.h"
#include "gui/chat/chatinput.h"
#include "prefetch/stack.h"
#include "workspace/conversations/conversationstore.h"

#include <QMainWindow>
#include <QPlainTextEdit>
#include <QTemporaryDir>
#include <QTest>

namespace TestSupport {

ChatDockSuite::ChatDockSuite() = default;

ChatDockSuite::~ChatDockSuite() = default;

bool ChatDockSuite::startProvider()
{
    if (m_local.start())
        return true;
    qWarning("the local provider did not start: %s", qPrintable(m_local.errorString()));
    return false;
}

bool ChatDockSuite::openStore()
{
    m_dir = std::make_unique<QTemporaryDir>();
    if (!m_dir->isValid())
        return false;
    m_store = std::make_unique<Gui::ConversationStore>(dbPath());
    return true;
}

bool ChatDockSuite::showDock()
{
    m_dock.reset();
    if (!m_window) {
        m_window = std::make_unique<QMainWindow>();
        m_window->setCentralWidget(new QPlainTextEdit(m_window.get()));
        m_window->resize(1000, 800);
    }
    m_dock = std::make_unique<Gui::ChatDock>(m_stack->engine(), m_stack->debounce(), m_store.get(), m_window.get());
    m_window->addDockWidget(Qt::RightDockWidgetArea, m_dock.get());
    m_window->show();
    m_dock->show(); // a dock added to a window already shown is not shown by it
    if (!QTest::qWaitForWindowExposed(m_window.get()))
        return false;
    m_window->activateWindow();
    if (!QTest::qWaitForWindowActive(m_window.get()))
        return false;
    m_dock->input()->setFocus();
    return true;
}

bool ChatDockSuite::closeDock(int timeoutMs)
{
    m_dock.reset();
    m_window.reset();
    m_stack.reset();
    m_store.reset();
    return m_local.waitForNoOpenStream(timeoutMs);
}

QString ChatDockSuite::dbPath() const
{
    return m_dir->filePath(QStringLiteral("conversations.sqlite"));
}

} // namespace TestSupport
