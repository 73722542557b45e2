#pragma once

#include <QCoreApplication>
#include <QObject>
#include <QString>
#include <QStringList>

class QAction;
class QLabel;
class QTimer;
class QToolButton;
class QWidget;

namespace Gui {

class AttachmentChips;
class ChatDock;

// The files attached to the chat dock's message being written: the paperclip beside the input
// and its shortcut (Ctrl+Shift+A, a file dialog), files dropped onto or pasted into the input,
// the chips above it with their ✕, and the line that says why files were refused. The session
// keeps the list and sends it; reading and checking a file is attachments.cpp.
//
// No Q_OBJECT: its strings stay in the dock's translation context (Gui::ChatDock), where the
// catalogue has them. GUI thread; a child of the dock, which it reaches through its public
// accessors. Made where the dock lays out its input, after the input: its widgets take their
// places in the tab order there.
class ChatDockAttachments : public QObject
{
    Q_DECLARE_TR_FUNCTIONS(Gui::ChatDock)

public:
    ChatDockAttachments(ChatDock *dock, QWidget *panel);

    // ChatDock::attachFiles(): all of `paths` or none; false, with the reason shown, when refused.
    bool attachFiles(const QStringList &paths);
    // The reason shown for the last refusal; empty when none is shown.
    QString problem() const;
    // A sentence under the chips about the files; empty hides it. It goes by itself after
    // twice ChatDock::NoticeLifetime (a refusal is read, then it is in the way).
    void showProblem(const QString &text);
    // Off while a sent message waits for the document: it goes with the files it was sent with.
    void setEnabled(bool enabled);

    AttachmentChips *chips() const { return m_chips; }
    QLabel *problemLabel() const { return m_problem; }
    QAction *attachAction() const { return m_attachAction; }
    QToolButton *attachButton() const { return m_attachButton; }

private:
    void choose();
    void remove(qsizetype index, bool byKeyboard);
    void onAttachmentsChanged();

    ChatDock *m_dock;
    AttachmentChips *m_chips = nullptr;
    QLabel *m_problem = nullptr;
    QTimer *m_problemExpiry = nullptr; // child: the reason goes after 2 × ChatDock::NoticeLifetime
    QToolButton *m_attachButton = nullptr;
    QAction *m_attachAction = nullptr;
    QString m_folder; // where the attach dialog opens: the folder of the last file attached
};

} // namespace Gui
