#pragma once

#include "workspace/conversations/conversationrecords.h"

#include <QString>
#include <QVariant>

class QSqlQuery;

// How conversations and messages map to the rows of the conversation store: the columns read
// back, the statements that write them and the values bound to those, in order. A text column is
// never bound as NULL (they are NOT NULL), and what a message says is stored without any
// credential this process sent, should a server have echoed one (Llm::Secrets).
namespace Gui::ConversationRows {

// "SELECT <a conversation's columns> FROM conversations c ", for a WHERE or ORDER BY to follow.
const QString &selectConversations();
ConversationInfo readConversation(const QSqlQuery &q);

// "SELECT <a message's columns> FROM messages ", for a WHERE to follow.
const QString &selectMessages();
StoredMessage readMessage(const QSqlQuery &q);

// A new conversation with `info`'s title, document, mode and assistant, created and changed at
// `nowMs`.
const QString &insertConversation();
void bindConversation(QSqlQuery &q, const ConversationInfo &info, qint64 nowMs);

// One message row: appended by the chat, or one of an imported conversation's.
const QString &insertMessage();
void bindMessage(QSqlQuery &q, qint64 conversationId, const StoredMessage &m, qint64 createdMs);

// An answer as it stands now (text, reasoning, state, error and usage), by its id.
const QString &updateAnswer();
void bindAnswer(QSqlQuery &q, qint64 messageId, const QString &content, const QString &reasoning, MessageState state,
                const QString &error, const MessageUsage &usage);

// A text column's value: a null QString as ''.
QVariant text(const QString &value);

} // namespace Gui::ConversationRows
