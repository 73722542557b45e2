#include "workspace/conversations/conversationrows.h"

#include "workspace/conversations/storedcitations.h"

#include "llm/secrets.h"

#include <QSqlQuery>

namespace Gui::ConversationRows {

namespace {

// What a message says, as it is stored (and exported): without any credential this process
// sent, should a server have echoed one into an answer or an error (Llm::Secrets).
QVariant messageText(const QString &value)
{
    return text(Llm::Secrets::redact(value));
}

// The usage columns, in MessageUsage's order, for SELECT and for "column = ?" lists.
const QString UsageColumns = QStringLiteral(
    "input_tokens, cache_read_tokens, cache_write_tokens, output_tokens, "
    "reasoning_tokens, first_token_ms, tokens_per_second, cost, currency, model, opening_model, opening_chars");

// How many UsageColumns there are, and the column after them in selectMessages() (they begin at 8).
constexpr int UsageCount = 12;
constexpr int UsageEnd = 8 + UsageCount;

void bindUsage(QSqlQuery &q, const MessageUsage &u)
{
    q.addBindValue(u.tokens.inputTokens);
    q.addBindValue(u.tokens.cacheReadTokens);
    q.addBindValue(u.tokens.cacheWriteTokens);
    q.addBindValue(u.tokens.outputTokens);
    q.addBindValue(u.tokens.reasoningTokens);
    q.addBindValue(u.firstTokenMs);
    q.addBindValue(u.tokensPerSecond);
    q.addBindValue(u.cost);
    q.addBindValue(text(u.currency));
    q.addBindValue(text(u.model));
    q.addBindValue(text(u.openingModel));
    q.addBindValue(u.openingChars);
}

MessageUsage readUsage(const QSqlQuery &q, int first)
{
    MessageUsage u;
    u.tokens.inputTokens = q.value(first).toLongLong();
    u.tokens.cacheReadTokens = q.value(first + 1).toLongLong();
    u.tokens.cacheWriteTokens = q.value(first + 2).toLongLong();
    u.tokens.outputTokens = q.value(first + 3).toLongLong();
    u.tokens.reasoningTokens = q.value(first + 4).toLongLong();
    u.firstTokenMs = q.value(first + 5).toDouble();
    u.tokensPerSecond = q.value(first + 6).toDouble();
    u.cost = q.value(first + 7).toDouble();
    u.currency = q.value(first + 8).toString();
    u.model = q.value(first + 9).toString();
    u.openingModel = q.value(first + 10).toString();
    u.openingChars = q.value(first + 11).toLongLong();
    return u;
}

} // namespace

QVariant text(const QString &value)
{
    return value.isNull() ? QVariant(QStringLiteral("")) : QVariant(value);
}

const QString &selectConversations()
{
    static const QString statement = QStringLiteral(
        "SELECT c.id, c.title, c.document_path, c.mode, c.updated_at, "
        "(SELECT count(*) FROM messages m WHERE m.conversation_id = c.id), c.assistant FROM conversations c ");
    return statement;
}

ConversationInfo readConversation(const QSqlQuery &q)
{
    ConversationInfo c;
    c.id = q.value(0).toLongLong();
    c.title = q.value(1).toString();
    c.documentPath = q.value(2).toString();
    c.mode = modeFromName(q.value(3).toString());
    c.updated = QDateTime::fromMSecsSinceEpoch(q.value(4).toLongLong(), Qt::UTC);
    c.messageCount = q.value(5).toInt();
    c.assistantId = q.value(6).toString();
    return c;
}

const QString &selectMessages()
{
    static const QString statement =
        QStringLiteral("SELECT id, conversation_id, role, content, reasoning, state, error, created_at, ")
        + UsageColumns + QStringLiteral(", citations, attachments FROM messages ");
    return statement;
}

StoredMessage readMessage(const QSqlQuery &q)
{
    StoredMessage m;
    m.id = q.value(0).toLongLong();
    m.conversationId = q.value(1).toLongLong();
    m.role = roleFromName(q.value(2).toString());
    m.content = q.value(3).toString();
    m.reasoning = q.value(4).toString();
    m.state = stateFromName(q.value(5).toString());
    m.error = q.value(6).toString();
    m.created = QDateTime::fromMSecsSinceEpoch(q.value(7).toLongLong(), Qt::UTC);
    m.usage = readUsage(q, 8);
    m.citations = citationsFromJson(q.value(UsageEnd).toString());
    m.attachments = attachmentsFromJson(q.value(UsageEnd + 1).toString());
    return m;
}

const QString &insertConversation()
{
    static const QString statement = QStringLiteral(
        "INSERT INTO conversations (title, document_path, mode, assistant, created_at, updated_at)"
        " VALUES (?, ?, ?, ?, ?, ?)");
    return statement;
}

void bindConversation(QSqlQuery &q, const ConversationInfo &info, qint64 nowMs)
{
    q.addBindValue(text(info.title));
    q.addBindValue(text(info.documentPath));
    q.addBindValue(modeName(info.mode));
    q.addBindValue(text(info.assistantId));
    q.addBindValue(nowMs);
    q.addBindValue(nowMs);
}

const QString &insertMessage()
{
    static const QString statement =
        QStringLiteral("INSERT INTO messages (conversation_id, role, content, reasoning, state, error, created_at, ")
        + UsageColumns
        + QStringLiteral(", citations, attachments) VALUES (")
        // The seven columns before the usage, the usage's and the two after it.
        + QStringList(7 + UsageCount + 2, QStringLiteral("?")).join(QStringLiteral(", ")) + QLatin1Char(')');
    return statement;
}

void bindMessage(QSqlQuery &q, qint64 conversationId, const StoredMessage &m, qint64 createdMs)
{
    q.addBindValue(conversationId);
    q.addBindValue(roleName(m.role));
    q.addBindValue(messageText(m.content));
    q.addBindValue(messageText(m.reasoning));
    q.addBindValue(stateName(m.state));
    q.addBindValue(messageText(m.error));
    q.addBindValue(createdMs);
    bindUsage(q, m.usage);
    q.addBindValue(citationsToJson(m.citations));
    q.addBindValue(attachmentsToJson(m.attachments));
}

const QString &updateAnswer()
{
    static const QString statement = QStringLiteral(
                                         "UPDATE messages SET content = ?, reasoning = ?, state = ?, error = ?, ")
                                     + QString(UsageColumns).replace(QStringLiteral(","), QStringLiteral(" = ?,"))
                                     + QStringLiteral(" = ? WHERE id = ?");
    return statement;
}

void bindAnswer(QSqlQuery &q, qint64 messageId, const QString &content, const QString &reasoning, MessageState state,
                const QString &error, const MessageUsage &usage)
{
    q.addBindValue(messageText(content));
    q.addBindValue(messageText(reasoning));
    q.addBindValue(stateName(state));
    q.addBindValue(messageText(error));
    bindUsage(q, usage);
    q.addBindValue(messageId);
}

} // namespace Gui::ConversationRows
