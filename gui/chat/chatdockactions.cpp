#include "gui/chat/chatdockactions.h"

#include "gui/chat/chatdock.h"

#include "llm/clock.h"

#include <QAction>
#include <QApplication>
#include <QClipboard>
#include <QFrame>
#include <QHBoxLayout>
#include <QLabel>
#include <QMessageBox>
#include <QPushButton>
#include <QTextCursor>
#include <QToolButton>

#include <utility>

namespace Gui {

ChatDockActions::ChatDockActions(ChatDock *dock, std::function<void(const QString &)> status,
                                 std::function<void()> changed)
    : QObject(dock)
    , m_dock(dock)
    , m_status(std::move(status))
    , m_changed(std::move(changed))
{
    // Anywhere in the chat (the input included): the dock is where the answer is.
    m_regenerateAction = new QAction(tr("Regenerate Answer"), dock);
    m_regenerateAction->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_R));
    m_regenerateAction->setShortcutContext(Qt::WidgetWithChildrenShortcut);
    connect(m_regenerateAction, &QAction::triggered, this, [this] { regenerate(Llm::monotonicNowNs()); });
    dock->addAction(m_regenerateAction);
    m_clearHistoryAction = new QAction(tr("Clear &History…"), dock);
    m_clearHistoryAction->setObjectName(QStringLiteral("clearHistoryAction"));
    m_clearHistoryAction->setToolTip(tr("Delete every conversation and the answers remembered for repeated questions"));
    connect(m_clearHistoryAction, &QAction::triggered, this, &ChatDockActions::confirmClearHistory);
}

void ChatDockActions::confirmClearHistory()
{
    ChatSession *session = m_dock->session();
    if (session->isAnswering() || session->isPreparing()) {
        m_status(tr("An answer is still coming: wait for it, or stop it first (Esc)."));
        return;
    }
    // Window-modal and asynchronous, as Delete Conversation: no nested event loop.
    auto *box = new QMessageBox(QMessageBox::Warning, tr("Clear History"),
                                tr("Delete every conversation and all their messages, in every window? The answers "
                                   "remembered for repeated questions are forgotten too. This cannot be undone."),
                                QMessageBox::NoButton, m_dock);
    box->setObjectName(QStringLiteral("clearHistoryBox"));
    QPushButton *clear = box->addButton(tr("Clear History"), QMessageBox::DestructiveRole);
    box->addButton(QMessageBox::Cancel);
    box->setDefaultButton(QMessageBox::Cancel);
    box->setAttribute(Qt::WA_DeleteOnClose);
    connect(box, &QMessageBox::finished, this, [this, session, box, clear] {
        if (box->clickedButton() != clear)
            return;
        // Asked while the dialog was open: an answer that started meanwhile is not cut off.
        if (session->clearHistory())
            m_status(tr("History cleared."));
        else if (session->isAnswering())
            m_status(tr("An answer is still coming: wait for it, or stop it first (Esc)."));
    });
    box->open();
}

void ChatDockActions::regenerate(qint64 activatedNs, bool mainModel)
{
    ChatSession *session = m_dock->session();
    switch (session->regenerate(activatedNs, mainModel)) {
    case ChatSession::SendResult::Sent:
    case ChatSession::SendResult::Preparing:
    case ChatSession::SendResult::Empty: break;
    case ChatSession::SendResult::Busy:
        if (session->isAnswering())
            m_status(tr("An answer is still coming: wait for it, or stop it first (Esc)."));
        break;
    case ChatSession::SendResult::Unavailable: m_status(tr("Chat is not available: no provider is set up.")); break;
    }
}

void ChatDockActions::onMessageAction(MessageAction action, qsizetype index)
{
    ChatSession *session = m_dock->session();
    switch (action) {
    case MessageAction::Copy: copyAnswer(index); break;
    case MessageAction::Regenerate: regenerate(Llm::monotonicNowNs()); break;
    case MessageAction::AskMainModel: regenerate(Llm::monotonicNowNs(), true); break;
    case MessageAction::Edit:
        if (!session->isAnswering() && index < session->messages().size()) {
            m_draftBeforeEdit = m_dock->input()->toPlainText();
            m_attachmentsBeforeEdit = session->attachments();
            session->beginEdit(index);
        }
        break;
    case MessageAction::Delete: confirmDelete(index); break;
    }
}

void ChatDockActions::copyAnswer(qsizetype index)
{
    // The Markdown as it arrived: code fences, lists and links survive a paste elsewhere.
    const QString text = m_dock->transcript()->answerMarkdown(index);
    if (text.isEmpty())
        return;
    QApplication::clipboard()->setText(text);
    // Copying shows nothing by itself; say that it happened and how much.
    m_status(tr("Answer copied to the clipboard (%n character(s))", nullptr, int(text.size())));
}

void ChatDockActions::confirmDelete(qsizetype index)
{
    ChatSession *session = m_dock->session();
    const QList<StoredMessage> &messages = session->messages();
    if (index < 0 || index >= messages.size())
        return;
    const StoredMessage message = messages.at(index);
    const qint64 conversation = session->conversationId();
    // Window-modal and asynchronous, like deleting a conversation: no nested event loop.
    auto *box = new QMessageBox(QMessageBox::Question, tr("Delete Message"),
                                message.role == Llm::Role::User
                                    ? tr("Delete your message? Its answer stays. This cannot be undone.")
                                    : tr("Delete this answer? This cannot be undone."),
                                QMessageBox::NoButton, m_dock);
    QPushButton *remove = box->addButton(tr("Delete"), QMessageBox::DestructiveRole);
    box->addButton(QMessageBox::Cancel);
    box->setDefaultButton(QMessageBox::Cancel);
    box->setAttribute(Qt::WA_DeleteOnClose);
    connect(box, &QMessageBox::finished, this, [this, session, box, remove, index, message, conversation] {
        if (box->clickedButton() != remove)
            return;
        // Still the message that was asked about (nothing else changes while the box is up,
        // but another window may have deleted the conversation).
        const QList<StoredMessage> &now = session->messages();
        if (session->conversationId() != conversation || index >= now.size() || now.at(index).id != message.id
            || now.at(index).content != message.content)
            return;
        if (session->deleteMessage(index))
            m_status(tr("Message deleted."));
    });
    box->open();
}

void ChatDockActions::onEditChanged(qsizetype index)
{
    ChatSession *session = m_dock->session();
    m_editNotice->setVisible(index >= 0);
    if (index >= 0) {
        // The question as it was sent: its files too, which sending it again sends again.
        session->setAttachments(session->messages().at(index).attachments);
        m_dock->input()->setPlainText(session->messages().at(index).content);
        m_dock->input()->moveCursor(QTextCursor::End);
        m_dock->input()->setFocus();
    } else {
        m_draftBeforeEdit.clear();
        m_attachmentsBeforeEdit.clear();
    }
    m_changed();
}

QWidget *ChatDockActions::createEditNotice(QWidget *parent)
{
    ChatSession *session = m_dock->session();
    auto *notice = new QFrame(parent);
    notice->setFrameShape(QFrame::StyledPanel);
    notice->setObjectName(QStringLiteral("chatEditNotice"));
    QLabel *text = mutedLabel(tr("Editing an earlier message: sending it replaces it and deletes every message "
                                 "after it."),
                              notice);
    auto *cancel = new QToolButton(notice);
    cancel->setObjectName(QStringLiteral("chatCancelEdit"));
    cancel->setText(tr("Cancel Edit"));
    cancel->setAutoRaise(true);
    connect(cancel, &QToolButton::clicked, this, [this, session] {
        const QString draft = std::exchange(m_draftBeforeEdit, {}); // before editChanged clears it
        const QList<Attachment> attachments = std::exchange(m_attachmentsBeforeEdit, {});
        session->cancelEdit();
        session->setAttachments(attachments);
        m_dock->input()->setPlainText(draft);
        m_dock->input()->setFocus();
    });
    auto *layout = new QHBoxLayout(notice);
    layout->addWidget(text, 1);
    layout->addWidget(cancel, 0, Qt::AlignTop);
    notice->hide();
    m_editNotice = notice;
    return notice;
}

} // namespace Gui
