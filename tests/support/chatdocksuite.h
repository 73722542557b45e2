#pragma once

#include "support/localproviderfixture.h"

#include <QNetworkAccessManager>
#include <QString>

#include <memory>

class QMainWindow;
class QTemporaryDir;

namespace Gui {
class ChatDock;
class ConversationStore;
} // namespace Gui
namespace Prefetch {
class Stack;
} // namespace Prefetch

namespace TestSupport {

// What the chat dock's suites share, as a base of the suite (not a QObject, so it needs no moc):
// the local provider on loopback, the conversations in a throwaway folder, the engine stack the
// suite makes (m_stack), and the chat as a person meets it. Call startProvider() in
// initTestCase(), openStore() in init() and closeDock() in cleanup().
class ChatDockSuite
{
protected:
    ChatDockSuite();
    ~ChatDockSuite();

    // False (with the reason in the log) when the local provider did not start.
    bool startProvider();
    // A fresh folder and an empty ConversationStore in it; false when the folder was not made.
    bool openStore();
    // A ChatDock over m_stack and m_store, docked on the right of a main window with an editor in
    // the middle, the window shown and active, the focus in the chat's input. The window is made
    // once and kept; the dock is replaced (as after a restart, on the same store). False when the
    // window was not exposed or not activated in time.
    bool showDock();
    // Drops the dock, the window, the stack and the store, in that order, and waits until the
    // provider has no stream open; false when one is still open after `timeoutMs`.
    bool closeDock(int timeoutMs = 2000);
    // The conversations' database file.
    QString dbPath() const;

    LocalProviderFixture m_local;
    QNetworkAccessManager m_network;
    std::unique_ptr<QTemporaryDir> m_dir;
    std::unique_ptr<Gui::ConversationStore> m_store;
    std::unique_ptr<Prefetch::Stack> m_stack;
    std::unique_ptr<QMainWindow> m_window; // hosts the dock as the app does
    std::unique_ptr<Gui::ChatDock> m_dock;
};

} // namespace TestSupport
