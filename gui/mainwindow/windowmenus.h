#pragma once

#include <QList>
#include <QObject>
#include <QString>

class QAction;

namespace Gui {

class ConversationStore;
class MainWindow;

// The window's menu bar (File, Edit, AI, View, Help) and its toolbar, built from what the window
// shows and does: its documents, docks and actions. `answerActions` (Insert, Replace, Copy,
// Regenerate) go in the AI menu under the document actions; File offers to export damaged
// conversations when `conversations` moved some aside at start.
class WindowMenus : public QObject
{
    Q_OBJECT

public:
    WindowMenus(MainWindow *window, const QList<QAction *> &answerActions, const ConversationStore *conversations);

    // The folder Help, Open Log Folder opens; empty disables it.
    void setLogDirectory(const QString &directory);

private:
    QString m_logDirectory;
    QAction *m_openLogFolder = nullptr;
};

} // namespace Gui
