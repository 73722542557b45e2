#include "gui/chat/chatdock.h"

#include "gui/chat/chattranscript.h"

#include "llm/clock.h"

#include <QApplication>
#include <QClipboard>
#include <QHBoxLayout>
#include <QLabel>
#include <QMessageBox>
#include <QPushButton>
#include <QTextCursor>
#include <QToolButton>

#include <utility>

// ChatDock, the buttons on the messages: copy an answer, regenerate the last one, edit a
// question and send it again, delete a message. The session does the work; this is the asking,
// the clipboard and what the dock says. The rest of the dock is in chatdock.cpp.

namespace Gui {

void ChatDock::confirmClearHistory()
{
    if (m_session->isAnswering() || m_session->isPreparing()) {
        setStatus(tr("An answer is still coming: wait for it, or stop it first (Esc)."));
        return;
    }
    // Window-modal and asynchronous, as Delete Conversation: no nested event loop.
    auto *box = new QMessageBox(QMessageBox::Warning, tr("Clear History"),
                                tr("Delete every conversation and all their messages, in every window? The answers "
                                   "remembered for repeated questions are forgotten too. This cannot be undone."),
                                QMessageBox::NoButton, this);
    box->setObjectName(QStringLiteral("clearHistoryBox"));
    QPushButton *clear = box->addButton(tr("Clear History"), QMessageBox::DestructiveRole);
    box->addButton(QMessageBox::Cancel);
    box->setDefaultButton(QMessageBox::Cancel);
    box->setAttribute(Qt::WA_DeleteOnClose);
    connect(box, &QMessageBox::finished, this, [this, box, clear] {
        if (box->clickedButton() != clear)
            return;
        // Asked while the dialog was open: an answer that started meanwhile is not cut off.
        if (m_session->clearHistory())
            setStatus(tr("History cleared."));
        else if (m_session->isAnswering())
            setStatus(tr("An answer is still coming: wait for it, or stop it first (Esc)."));
    });
    box->open();
}

void ChatDock::regenerate(qint64 activatedNs, bool mainModel)
{
    switch (m_session->regenerate(activatedNs, mainModel)) {
    case ChatSession::SendResult::Sent:
    case ChatSession::SendResult::Preparing:
    case ChatSession::SendResult::Empty:
        break;
    case ChatSession::SendResult::Busy:
        if (m_session->isAnswering())
            setStatus(tr("An answer is still coming: wait for it, or stop it first (Esc)."));
        break;
    case ChatSession::SendResult::Unavailable:
        setStatus(tr("Chat is not available: no provider is set up."));
        break;
    }
}

void ChatDock::onMessageAction(MessageAction action, qsizetype index)
{
    switch (action) {
    case MessageAction::Copy:
        copyAnswer(index);
        break;
    case MessageAction::Regenerate:
        regenerate(Llm::monotonicNowNs());
        break;
    case MessageAction::AskMainModel:
        regenerate(Llm::monotonicNowNs(), true);
        break;
    case MessageAction::Edit:
        if (!m_session->isAnswering() && index < m_session->messages().size()) {
            m_draftBeforeEdit = m_input->toPlainText();
            m_attachmentsBeforeEdit = m_session->attachments();
            m_session->beginEdit(index);
        }
        break;
    case MessageAction::Delete:
        confirmDelete(index);
        break;
    }
}

void ChatDock::copyAnswer(qsizetype index)
{
    // The Markdown as it arrived: code fences, lists and links survive a paste elsewhere.
    const QString text = m_transcript->answerMarkdown(index);
    if (text.isEmpty())
        return;
    QApplication::clipboard()->setText(text);
    // Copying shows nothing by itself; say that it happened and how much.
    setStatus(tr("Answer copied to the clipboard (%n character(s))", nullptr, int(text.size())));
}

void ChatDock::confirmDelete(qsizetype index)
{
    const QList<StoredMessage> &messages = m_session->messages();
    if (index < 0 || index >= messages.size())
        return;
    const StoredMessage message = messages.at(index);
    const qint64 conversation = m_session->conversationId();
    // Window-modal and asynchronous, like deleting a conversation: no nested event loop.
    auto *box = new QMessageBox(QMessageBox::Question, tr("Delete Message"),
                                message.role == Llm::Role::User
                                    ? tr("Delete your message? Its answer stays. This cannot be undone.")
                                    : tr("Delete this answer? This cannot be undone."),
                                QMessageBox::NoButton, this);
    QPushButton *remove = box->addButton(tr("Delete"), QMessageBox::DestructiveRole);
    box->addButton(QMessageBox::Cancel);
    box->setDefaultButton(QMessageBox::Cancel);
    box->setAttribute(Qt::WA_DeleteOnClose);
    connect(box, &QMessageBox::finished, this, [this, box, remove, index, message, conversation] {
        if (box->clickedButton() != remove)
            return;
        // Still the message that was asked about (nothing else changes while the box is up,
        // but another window may have deleted the conversation).
        const QList<StoredMessage> &now = m_session->messages();
        if (m_session->conversationId() != conversation || index >= now.size() || now.at(index).id != message.id
            || now.at(index).content != message.content)
            return;
        if (m_session->deleteMessage(index))
            setStatus(tr("Message deleted."));
    });
    box->open();
}

void ChatDock::onEditChanged(qsizetype index)
{
    m_editNotice->setVisible(index >= 0);
    if (index >= 0) {
        // The question as it was sent: its files too, which sending it again sends again.
        m_session->setAttachments(m_session->messages().at(index).attachments);
        m_input->setPlainText(m_session->messages().at(index).content);
        m_input->moveCursor(QTextCursor::End);
        m_input->setFocus();
    } else {
        m_draftBeforeEdit.clear();
        m_attachmentsBeforeEdit.clear();
    }
    updateButtons();
}


QWidget *ChatDock::createEditNotice(QWidget *parent)
{
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
    connect(cancel, &QToolButton::clicked, this, [this] {
        const QString draft = std::exchange(m_draftBeforeEdit, {}); // before editChanged clears it
        const QList<Attachment> attachments = std::exchange(m_attachmentsBeforeEdit, {});
        m_session->cancelEdit();
        m_session->setAttachments(attachments);
        m_input->setPlainText(draft);
        m_input->setFocus();
    });
    auto *layout = new QHBoxLayout(notice);
    layout->addWidget(text, 1);
    layout->addWidget(cancel, 0, Qt::AlignTop);
    notice->hide();
    return notice;
}

} // namespace Gui
