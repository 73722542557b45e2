#include "workspace/conversations/conversationstore.h"

#include "base/sqlite.h"
#include "workspace/conversations/storedcitations.h"

#include "base/diskspace.h"
#include "llm/log.h"
#include "llm/secrets.h"

#include <spdlog/spdlog.h>

#include <QAtomicInteger>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QSet>
#include <QSqlError>
#include <QSqlQuery>
#include <QVariant>

#include <algorithm>
#include <optional>

namespace Gui {

using namespace Base::Sqlite;

QString roleName(Llm::Role role)
{
    switch (role) {
    case Llm::Role::System: return QStringLiteral("system");
    case Llm::Role::User: return QStringLiteral("user");
    case Llm::Role::Assistant: return QStringLiteral("assistant");
    }
    return QStringLiteral("user");
}

Llm::Role roleFromName(const QString &name)
{
    if (name == QLatin1String("assistant"))
        return Llm::Role::Assistant;
    if (name == QLatin1String("system"))
        return Llm::Role::System;
    return Llm::Role::User;
}

QString stateName(MessageState state)
{
    switch (state) {
    case MessageState::Complete: return QStringLiteral("complete");
    case MessageState::Partial: return QStringLiteral("partial");
    case MessageState::Failed: return QStringLiteral("failed");
    }
    return QStringLiteral("complete");
}

MessageState stateFromName(const QString &name)
{
    if (name == QLatin1String("partial"))
        return MessageState::Partial;
    if (name == QLatin1String("failed"))
        return MessageState::Failed;
    return MessageState::Complete;
}

QString modeName(ConversationMode mode)
{
    switch (mode) {
    case ConversationMode::Document: return QStringLiteral("document");
    case ConversationMode::Library: return QStringLiteral("library");
    case ConversationMode::FreeChat: break;
    }
    return QStringLiteral("free");
}

ConversationMode modeFromName(const QString &name)
{
    if (name == QLatin1String("library"))
        return ConversationMode::Library;
    return name == QLatin1String("document") ? ConversationMode::Document : ConversationMode::FreeChat;
}


namespace {

spdlog::logger &log() { return Llm::moduleLogger("ui"); }

// The trigram tokenizer needs three characters to index anything.
constexpr qsizetype TrigramLength = 3;

// LIKE treats % and _ as wildcards; with ESCAPE '\' these three characters are literal.
QString likeEscaped(const QString &text)
{
    QString out;
    out.reserve(text.size() + 8);
    for (const QChar c : text) {
        if (c == u'\\' || c == u'%' || c == u'_')
            out += u'\\';
        out += c;
    }
    return out;
}

// An FTS5 phrase: inside double quotes everything is literal except '"', written twice.
QString ftsPhrase(QString text)
{
    return u'"' + text.replace(u'"', QStringLiteral("\"\"")) + u'"';
}

// A null QString binds as SQL NULL; the text columns are NOT NULL.
QVariant text(const QString &value)
{
    return value.isNull() ? QVariant(QStringLiteral("")) : QVariant(value);
}

// What a message says, as it is stored (and exported): without any credential this process
// sent, should a server have echoed one into an answer or an error (Llm::Secrets).
QVariant messageText(const QString &value)
{
    return text(Llm::Secrets::redact(value));
}

qsizetype codePoints(const QString &text)
{
    qsizetype n = 0;
    for (const QChar c : text)
        n += c.isLowSurrogate() ? 0 : 1;
    return n;
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

// The usage columns, in MessageUsage's order, for SELECT and for "column = ?" lists.
const QString UsageColumns = QStringLiteral("input_tokens, cache_read_tokens, cache_write_tokens, output_tokens, "
                                            "reasoning_tokens, first_token_ms, tokens_per_second, cost, currency, model");

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
}

// One message row: appended by the chat, or one of an imported conversation's.
const QString InsertMessage =
    QStringLiteral("INSERT INTO messages (conversation_id, role, content, reasoning, state, error, created_at, ")
    + UsageColumns
    + QStringLiteral(", citations, attachments) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)");

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
    return u;
}

const QString ConversationColumns = QStringLiteral(
    "SELECT c.id, c.title, c.document_path, c.mode, c.updated_at, "
    "(SELECT count(*) FROM messages m WHERE m.conversation_id = c.id), c.assistant FROM conversations c ");

} // namespace

ConversationStore::ConversationStore(const QString &path, QObject *parent)
    : ConversationStore(path, Options{}, parent)
{
}

ConversationStore::ConversationStore(const QString &path, Options options, QObject *parent)
    : QObject(parent)
    , m_path(path)
    , m_options(options)
{
    static QAtomicInteger<quint64> counter;
    m_connection = QStringLiteral("headstart-conversations-%1").arg(counter.fetchAndAddRelaxed(1) + 1);

    if (openFile())
        return;
    closeConnection();
    if (!openMemory()) {
        // Not even an in-memory database: the SQLite driver is missing. Every call then
        // reports the failure; the chat itself still works.
        log().error("conversation store: no SQLite driver available");
    }
}

ConversationStore::~ConversationStore()
{
    closeConnection();
}

void ConversationStore::closeConnection()
{
    if (m_db.isValid())
        m_db.close();
    m_db = QSqlDatabase(); // the last handle must be gone before removeDatabase()
    if (QSqlDatabase::contains(m_connection))
        QSqlDatabase::removeDatabase(m_connection);
}

qint64 ConversationStore::nextStamp()
{
    m_lastStamp = std::max(QDateTime::currentMSecsSinceEpoch(), m_lastStamp + 1);
    return m_lastStamp;
}

QString ConversationStore::failure(const QString &what, const QString &detail) const
{
    QString text = tr("%1: %2").arg(what, detail.isEmpty() ? tr("unknown database error") : detail);
    if (const QString full = Base::diskFullNote(m_path); !full.isEmpty())
        text += u' ' + full;
    return text;
}

QString ConversationStore::damagedDetail() const
{
    return tr("the conversation file is damaged, so nothing more is written into it; when Headstart starts "
              "again it is moved aside and a new one started");
}

QString ConversationStore::readFailed(const QString &what, const QSqlError &error) const
{
    noteDamage(error);
    log().error("conversation store: read failed ({})", errorDetail(error).toStdString());
    return failure(what, m_damaged ? damagedDetail() : errorDetail(error));
}

void ConversationStore::noteDamage(const QSqlError &error) const
{
    if (!isDamaged(error) || m_damaged || !m_persistent)
        return;
    // Found while open (the file was changed under us, or the disk failed): writing on would
    // build on pages that no longer hold what they should. The next start moves it aside.
    m_damaged = true;
    log().error("conversation store: the file became damaged while open; writes stop");
}

template <typename T>
StoreResult<T> ConversationStore::writeFailed(const QString &what, const QSqlError &error)
{
    noteDamage(error);
    return writeFailed<T>(what, m_damaged ? damagedDetail() : errorDetail(error));
}

template <typename T>
StoreResult<T> ConversationStore::writeFailed(const QString &what, const QString &detail)
{
    const QString message = failure(what, detail);
    log().error("conversation store: write failed ({})", detail.toStdString());
    emit errorOccurred(message);
    return std::unexpected(message);
}
// For the queries kept in other files (conversationstoreassistant.cpp, conversationstoreremove.cpp).
template StoreResult<void> ConversationStore::writeFailed<void>(const QString &, const QSqlError &);
template StoreResult<void> ConversationStore::writeFailed<void>(const QString &, const QString &);
template StoreResult<int> ConversationStore::writeFailed<int>(const QString &, const QSqlError &);
template StoreResult<int> ConversationStore::writeFailed<int>(const QString &, const QString &);

StoreResult<QList<ConversationInfo>> ConversationStore::conversations(const QString &search) const
{
    const QString needle = search.trimmed();
    QSqlQuery q(m_db);
    q.setForwardOnly(true);

    std::optional<QSet<qint64>> matching;
    if (!needle.isEmpty()) {
        matching.emplace();
        if (m_fullText && codePoints(needle) >= TrigramLength) {
            q.prepare(QStringLiteral("SELECT DISTINCT m.conversation_id FROM message_search s"
                                     " JOIN messages m ON m.id = s.rowid WHERE message_search MATCH ?"));
            q.addBindValue(ftsPhrase(needle));
        } else {
            // SQLite's LIKE folds ASCII only; the lower- and upper-case forms of the needle
            // cover the common non-ASCII cases (a single-case word such as "über").
            QStringList variants{needle, needle.toLower(), needle.toUpper()};
            variants.removeDuplicates();
            QStringList conditions;
            for (qsizetype i = 0; i < variants.size(); ++i)
                conditions << QStringLiteral("content LIKE ? ESCAPE '\\'");
            q.prepare(QStringLiteral("SELECT DISTINCT conversation_id FROM messages WHERE ") +
                      conditions.join(QStringLiteral(" OR ")));
            for (const QString &v : std::as_const(variants))
                q.addBindValue(u'%' + likeEscaped(v) + u'%');
        }
        if (!q.exec())
            return std::unexpected(readFailed(tr("Could not search the conversations"), q.lastError()));
        while (q.next())
            matching->insert(q.value(0).toLongLong());
        // next() is false at the end and on an error alike: a damaged page must not read as
        // "no more rows".
        if (q.lastError().isValid())
            return std::unexpected(readFailed(tr("Could not search the conversations"), q.lastError()));
        q.finish();
    }

    if (!q.exec(ConversationColumns + QStringLiteral("ORDER BY c.updated_at DESC, c.id DESC")))
        return std::unexpected(readFailed(tr("Could not read the conversations"), q.lastError()));
    QList<ConversationInfo> out;
    while (q.next()) {
        ConversationInfo c = readConversation(q);
        // Titles are matched here rather than in SQL: QString folds case for every script.
        if (!matching || matching->contains(c.id) || c.title.contains(needle, Qt::CaseInsensitive))
            out.append(std::move(c));
    }
    if (q.lastError().isValid())
        return std::unexpected(readFailed(tr("Could not read the conversations"), q.lastError()));
    return out;
}

StoreResult<ConversationInfo> ConversationStore::conversation(qint64 id) const
{
    QSqlQuery q(m_db);
    q.prepare(ConversationColumns + QStringLiteral("WHERE c.id = ?"));
    q.addBindValue(id);
    if (!q.exec())
        return std::unexpected(readFailed(tr("Could not read the conversation"), q.lastError()));
    if (!q.next()) {
        if (q.lastError().isValid())
            return std::unexpected(readFailed(tr("Could not read the conversation"), q.lastError()));
        return std::unexpected(tr("The conversation no longer exists."));
    }
    return readConversation(q);
}

StoreResult<qint64> ConversationStore::create(const QString &title, const QString &documentPath, ConversationMode mode,
                                              const QString &assistantId)
{
    if (m_damaged)
        return writeFailed<qint64>(tr("Could not create the conversation"), damagedDetail());
    const qint64 now = nextStamp();
    QSqlQuery q(m_db);
    q.prepare(QStringLiteral("INSERT INTO conversations (title, document_path, mode, assistant, created_at, updated_at)"
                             " VALUES (?, ?, ?, ?, ?, ?)"));
    q.addBindValue(text(title));
    q.addBindValue(text(documentPath));
    q.addBindValue(modeName(mode));
    q.addBindValue(text(assistantId));
    q.addBindValue(now);
    q.addBindValue(now);
    if (!q.exec())
        return writeFailed<qint64>(tr("Could not create the conversation"), q.lastError());
    emit conversationsChanged();
    return q.lastInsertId().toLongLong();
}

StoreResult<void> ConversationStore::rename(qint64 id, const QString &title)
{
    if (m_damaged)
        return writeFailed<void>(tr("Could not rename the conversation"), damagedDetail());
    QSqlQuery q(m_db);
    q.prepare(QStringLiteral("UPDATE conversations SET title = ? WHERE id = ?"));
    q.addBindValue(text(title));
    q.addBindValue(id);
    if (!q.exec())
        return writeFailed<void>(tr("Could not rename the conversation"), q.lastError());
    if (q.numRowsAffected() != 1)
        return std::unexpected(tr("The conversation no longer exists."));
    emit conversationsChanged();
    return {};
}

StoreResult<void> ConversationStore::setMode(qint64 id, ConversationMode mode)
{
    if (m_damaged)
        return writeFailed<void>(tr("Could not save the conversation mode"), damagedDetail());
    QSqlQuery q(m_db);
    q.prepare(QStringLiteral("UPDATE conversations SET mode = ? WHERE id = ?"));
    q.addBindValue(modeName(mode));
    q.addBindValue(id);
    if (!q.exec())
        return writeFailed<void>(tr("Could not save the conversation mode"), q.lastError());
    if (q.numRowsAffected() != 1)
        return std::unexpected(tr("The conversation no longer exists."));
    emit conversationsChanged();
    return {};
}

StoreResult<QList<StoredMessage>> ConversationStore::messages(qint64 conversationId) const
{
    QSqlQuery q(m_db);
    q.setForwardOnly(true);
    q.prepare(QStringLiteral("SELECT id, conversation_id, role, content, reasoning, state, error, created_at, ")
              + UsageColumns
              + QStringLiteral(", citations, attachments FROM messages WHERE conversation_id = ? ORDER BY id"));
    q.addBindValue(conversationId);
    if (!q.exec())
        return std::unexpected(readFailed(tr("Could not read the messages"), q.lastError()));
    QList<StoredMessage> out;
    while (q.next()) {
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
        m.citations = citationsFromJson(q.value(18).toString());
        m.attachments = attachmentsFromJson(q.value(19).toString());
        out.append(std::move(m));
    }
    if (q.lastError().isValid())
        return std::unexpected(readFailed(tr("Could not read the messages"), q.lastError()));
    return out;
}

StoreResult<qint64> ConversationStore::appendMessage(qint64 conversationId, Llm::Role role, const QString &content,
                                                     const QString &reasoning, MessageState state,
                                                     const QString &error, const MessageUsage &usage)
{
    return appendMessage(conversationId, {0, 0, role, content, reasoning, state, error, {}, usage, {}, {}});
}

StoreResult<qint64> ConversationStore::appendMessage(qint64 conversationId, const StoredMessage &m)
{
    const QString what = tr("Could not save the message");
    if (m_damaged)
        return writeFailed<qint64>(what, damagedDetail());
    const qint64 now = nextStamp();
    Transaction transaction(m_db);
    if (!transaction.isActive())
        return writeFailed<qint64>(what, m_db.lastError());
    QSqlQuery q(m_db);
    q.prepare(QStringLiteral("UPDATE conversations SET updated_at = ? WHERE id = ?"));
    q.addBindValue(now);
    q.addBindValue(conversationId);
    if (!q.exec())
        return writeFailed<qint64>(what, q.lastError());
    if (q.numRowsAffected() != 1)
        return std::unexpected(tr("The conversation no longer exists."));
    q.prepare(InsertMessage);
    bindMessage(q, conversationId, m, now);
    if (!q.exec())
        return writeFailed<qint64>(what, q.lastError());
    const qint64 id = q.lastInsertId().toLongLong();
    if (!transaction.commit())
        return writeFailed<qint64>(what, m_db.lastError());
    emit conversationsChanged(); // its order and message count in the list
    return id;
}

StoreResult<qint64> ConversationStore::insertConversation(const ConversationInfo &info,
                                                         const QList<StoredMessage> &messages)
{
    const QString what = tr("Could not import the conversation");
    if (m_damaged)
        return writeFailed<qint64>(what, damagedDetail());
    const qint64 now = nextStamp();
    Transaction transaction(m_db);
    if (!transaction.isActive())
        return writeFailed<qint64>(what, m_db.lastError());
    QSqlQuery q(m_db);
    q.prepare(QStringLiteral("INSERT INTO conversations (title, document_path, mode, assistant, created_at, updated_at)"
                             " VALUES (?, ?, ?, ?, ?, ?)"));
    q.addBindValue(text(info.title));
    q.addBindValue(text(info.documentPath));
    q.addBindValue(modeName(info.mode));
    q.addBindValue(text(info.assistantId));
    q.addBindValue(now);
    q.addBindValue(now);
    if (!q.exec())
        return writeFailed<qint64>(what, q.lastError());
    const qint64 id = q.lastInsertId().toLongLong();
    q.prepare(InsertMessage);
    for (const StoredMessage &m : messages) {
        bindMessage(q, id, m, m.created.isValid() ? m.created.toMSecsSinceEpoch() : now);
        if (!q.exec())
            return writeFailed<qint64>(what, q.lastError()); // rolled back: nothing of it stays
    }
    if (!transaction.commit())
        return writeFailed<qint64>(what, m_db.lastError());
    emit conversationsChanged();
    return id;
}

StoreResult<void> ConversationStore::updateMessage(qint64 messageId, const QString &content, const QString &reasoning,
                                                   MessageState state, const QString &error,
                                                   const MessageUsage &usage)
{
    const QString what = tr("Could not save the answer");
    if (m_damaged)
        return writeFailed<void>(what, damagedDetail());
    const qint64 now = nextStamp();
    Transaction transaction(m_db);
    if (!transaction.isActive())
        return writeFailed<void>(what, m_db.lastError());
    QSqlQuery q(m_db);
    q.prepare(QStringLiteral("UPDATE messages SET content = ?, reasoning = ?, state = ?, error = ?, ")
              + QString(UsageColumns).replace(QStringLiteral(","), QStringLiteral(" = ?,")) + QStringLiteral(" = ? WHERE id = ?"));
    q.addBindValue(messageText(content));
    q.addBindValue(messageText(reasoning));
    q.addBindValue(stateName(state));
    q.addBindValue(messageText(error));
    bindUsage(q, usage);
    q.addBindValue(messageId);
    if (!q.exec())
        return writeFailed<void>(what, q.lastError());
    if (q.numRowsAffected() != 1)
        return std::unexpected(tr("The message no longer exists."));
    q.prepare(QStringLiteral("UPDATE conversations SET updated_at = ?"
                             " WHERE id = (SELECT conversation_id FROM messages WHERE id = ?)"));
    q.addBindValue(now);
    q.addBindValue(messageId);
    if (!q.exec())
        return writeFailed<void>(what, q.lastError());
    if (!transaction.commit())
        return writeFailed<void>(what, m_db.lastError());
    // An answer that has ended goes into the main file: a crash, a kill or a lost log later
    // loses nothing up to here.
    if (state != MessageState::Partial && m_persistent)
        checkpoint();
    return {};
}

StoreResult<void> ConversationStore::setCitations(qint64 messageId, const QList<Knowledge::Passage> &passages)
{
    const QString what = tr("Could not save the answer's sources");
    if (m_damaged)
        return writeFailed<void>(what, damagedDetail());
    QSqlQuery q(m_db);
    q.prepare(QStringLiteral("UPDATE messages SET citations = ? WHERE id = ?"));
    q.addBindValue(citationsToJson(passages));
    q.addBindValue(messageId);
    if (!q.exec())
        return writeFailed<void>(what, q.lastError());
    if (q.numRowsAffected() != 1)
        return std::unexpected(tr("The message no longer exists."));
    return {};
}

} // namespace Gui
