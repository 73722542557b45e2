#pragma once

#include "gui/chat/chattranscript.h"
#include "workspace/conversations/attachments.h"

#include <QCoreApplication>
#include <QList>
#include <QObject>
#include <QString>

#include <functional>

class QAction;
class QWidget;

namespace Gui {

class ChatDock;

// What the chat dock does with its messages and its history: the buttons on the messages (copy
// an answer, regenerate the last one, edit a question and send it again, delete a message,
// asked first), Regenerate Answer (Ctrl+Shift+R anywhere in the dock) and Clear History (asked
// first, window-modal). The session does the work; this is the asking, the clipboard, the
// notice over the input while a question is edited, and what the dock says.
//
// No Q_OBJECT: its strings stay in the dock's translation context (Gui::ChatDock), where the
// catalogue has them. GUI thread; a child of the dock, which it reaches through its public
// accessors, and tells what to say through `status`.
class ChatDockActions : public QObject
{
    Q_DECLARE_TR_FUNCTIONS(Gui::ChatDock)

public:
    // `changed()`: what may be done now changed (an edit began or ended); the dock updates its
    // buttons.
    ChatDockActions(ChatDock *dock, std::function<void(const QString &)> status, std::function<void()> changed);

    // "Editing an earlier message …" with Cancel Edit, shown over the input while a question is
    // edited; made where the dock lays it out.
    QWidget *createEditNotice(QWidget *parent);
    // The dock's Regenerate Answer (added to it, so its shortcut works in the whole dock) and
    // Clear History (for the window's menu).
    QAction *regenerateAction() const { return m_regenerateAction; }
    QAction *clearHistoryAction() const { return m_clearHistoryAction; }

    // ChatDock::regenerate(): the last answer again, of the main model with `mainModel`.
    void regenerate(qint64 activatedNs, bool mainModel = false);
    // A message's button (ChatTranscript::actionRequested).
    void onMessageAction(MessageAction action, qsizetype index);
    // The session began or ended editing the question at `index` (-1: ended).
    void onEditChanged(qsizetype index);

private:
    void confirmClearHistory();
    void copyAnswer(qsizetype index);
    void confirmDelete(qsizetype index);

    ChatDock *m_dock;
    std::function<void(const QString &)> m_status;
    std::function<void()> m_changed;
    QAction *m_regenerateAction = nullptr;
    QAction *m_clearHistoryAction = nullptr;
    QWidget *m_editNotice = nullptr;
    QString m_draftBeforeEdit;                 // the input's text when Edit was clicked, back on Cancel
    QList<Attachment> m_attachmentsBeforeEdit; // the draft's attachments then, back on Cancel too
};

} // namespace Gui
