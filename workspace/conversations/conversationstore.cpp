#include "workspace/conversations/conversationstore.h"

#include "workspace/conversations/conversationrows.h"
#include "workspace/conversations/storedcitations.h"

#include "base/diskspace.h"
#include "base/sqlite.h"
#include "llm/log.h"

#include <spdlog/spdlog.h>

#include <QSet>
#include <QSqlError>
#include <QSqlQuery>
#include <QVariant>

#include <algorithm>
#include <optional>

namespace Gui {

using namespace Base::Sqlite;

namespace {

spdlog::logger &log()
{
    return Llm::moduleLogger("ui");
}

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

qsizetype codePoints(const QString &text)
{
    qsizetype n = 0;
    for (const QChar c : text)
        n += c.isLowSurrogate() ? 0 : 1;
    return n;
}

} // namespace

ConversationStore::ConversationStore(const QString &path, QObject *parent)
    : ConversationStore(path, Options{}, parent)
{
}

ConversationStore::ConversationStore(const QString &path, Options options, QObject *parent)
    : QObject(parent)
    , m_database(path, options.fullTextSearch)
    , m_lastStamp(m_database.lastChange())
{
}

ConversationStore::~ConversationStore() = default;

qint64 ConversationStore::nextStamp()
{
    m_lastStamp = std::max(QDateTime::currentMSecsSinceEpoch(), m_lastStamp + 1);
    return m_lastStamp;
}

QString ConversationStore::failure(const QString &what, const QString &detail) const
{
    QString text = tr("%1: %2").arg(what, detail.isEmpty() ? tr("unknown database error") : detail);
    if (const QString full = Base::diskFullNote(path()); !full.isEmpty())
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
    if (!isDamaged(error) || m_damaged || !isPersistent())
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

StoreResult<QList<ConversationInfo>> ConversationStore::conversations(const QString &search) const
{
    const QString needle = search.trimmed();
    QSqlQuery q(db());
    q.setForwardOnly(true);

    std::optional<QSet<qint64>> matching;
    if (!needle.isEmpty()) {
        matching.emplace();
        if (hasFullTextSearch() && codePoints(needle) >= TrigramLength) {
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
            q.prepare(QStringLiteral("SELECT DISTINCT conversation_id FROM messages WHERE ")
                      + conditions.join(QStringLiteral(" OR ")));
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

    if (!q.exec(ConversationRows::selectConversations() + QStringLiteral("ORDER BY c.updated_at DESC, c.id DESC")))
        return std::unexpected(readFailed(tr("Could not read the conversations"), q.lastError()));
    QList<ConversationInfo> out;
    while (q.next()) {
        ConversationInfo c = ConversationRows::readConversation(q);
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
    QSqlQuery q(db());
    q.prepare(ConversationRows::selectConversations() + QStringLiteral("WHERE c.id = ?"));
    q.addBindValue(id);
    if (!q.exec())
        return std::unexpected(readFailed(tr("Could not read the conversation"), q.lastError()));
    if (!q.next()) {
        if (q.lastError().isValid())
            return std::unexpected(readFailed(tr("Could not read the conversation"), q.lastError()));
        return std::unexpected(tr("The conversation no longer exists."));
    }
    return ConversationRows::readConversation(q);
}

StoreResult<qint64> ConversationStore::create(const QString &title, const QString &documentPath, ConversationMode mode,
                                              const QString &assistantId)
{
    if (m_damaged)
        return writeFailed<qint64>(tr("Could not create the conversation"), damagedDetail());
    const qint64 now = nextStamp();
    QSqlQuery q(db());
    q.prepare(ConversationRows::insertConversation());
    ConversationInfo info;
    info.title = title;
    info.documentPath = documentPath;
    info.mode = mode;
    info.assistantId = assistantId;
    ConversationRows::bindConversation(q, info, now);
    if (!q.exec())
        return writeFailed<qint64>(tr("Could not create the conversation"), q.lastError());
    emit conversationsChanged();
    return q.lastInsertId().toLongLong();
}

StoreResult<void> ConversationStore::rename(qint64 id, const QString &title)
{
    if (m_damaged)
        return writeFailed<void>(tr("Could not rename the conversation"), damagedDetail());
    QSqlQuery q(db());
    q.prepare(QStringLiteral("UPDATE conversations SET title = ? WHERE id = ?"));
    q.addBindValue(ConversationRows::text(title));
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
    QSqlQuery q(db());
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

StoreResult<void> ConversationStore::setAssistant(qint64 id, const QString &assistantId)
{
    const QString what = tr("Could not save the conversation's assistant");
    if (m_damaged)
        return writeFailed<void>(what, damagedDetail());
    QSqlQuery q(db());
    q.prepare(QStringLiteral("UPDATE conversations SET assistant = ? WHERE id = ?"));
    q.addBindValue(ConversationRows::text(assistantId));
    q.addBindValue(id);
    if (!q.exec())
        return writeFailed<void>(what, q.lastError());
    if (q.numRowsAffected() != 1)
        return std::unexpected(tr("The conversation no longer exists."));
    emit conversationsChanged();
    return {};
}

StoreResult<QList<StoredMessage>> ConversationStore::messages(qint64 conversationId) const
{
    QSqlQuery q(db());
    q.setForwardOnly(true);
    q.prepare(ConversationRows::selectMessages() + QStringLiteral("WHERE conversation_id = ? ORDER BY id"));
    q.addBindValue(conversationId);
    if (!q.exec())
        return std::unexpected(readFailed(tr("Could not read the messages"), q.lastError()));
    QList<StoredMessage> out;
    while (q.next())
        out.append(ConversationRows::readMessage(q));
    if (q.lastError().isValid())
        return std::unexpected(readFailed(tr("Could not read the messages"), q.lastError()));
    return out;
}

StoreResult<QStringList> ConversationStore::recentReplies(int limit) const
{
    // Messages alternate, so a question with an earlier message in its conversation follows an
    // answer. The index on (conversation_id, id) finds that earlier message.
    return recentUserMessages(QStringLiteral(" AND EXISTS (SELECT 1 FROM messages p"
                                             " WHERE p.conversation_id = m.conversation_id AND p.id < m.id)"),
                              limit);
}

StoreResult<QStringList> ConversationStore::recentQuestions(int limit) const
{
    return recentUserMessages({}, limit);
}

StoreResult<QStringList> ConversationStore::recentUserMessages(const QString &condition, int limit) const
{
    QSqlQuery q(db());
    q.setForwardOnly(true);
    q.prepare(QStringLiteral("SELECT m.content FROM messages m WHERE m.role = ?") + condition
              + QStringLiteral(" ORDER BY m.id DESC LIMIT ?"));
    q.addBindValue(roleName(Llm::Role::User));
    q.addBindValue(limit);
    if (!q.exec())
        return std::unexpected(readFailed(tr("Could not read the messages"), q.lastError()));
    QStringList out;
    while (q.next())
        out.append(q.value(0).toString());
    if (q.lastError().isValid())
        return std::unexpected(readFailed(tr("Could not read the messages"), q.lastError()));
    return out;
}

StoreResult<qint64> ConversationStore::appendMessage(qint64 conversationId, Llm::Role role, const QString &content,
                                                     const QString &reasoning, MessageState state, const QString &error,
                                                     const MessageUsage &usage)
{
    return appendMessage(conversationId, {0, 0, role, content, reasoning, state, error, {}, usage, {}, {}});
}

StoreResult<qint64> ConversationStore::appendMessage(qint64 conversationId, const StoredMessage &m)
{
    const QString what = tr("Could not save the message");
    if (m_damaged)
        return writeFailed<qint64>(what, damagedDetail());
    const qint64 now = nextStamp();
    Transaction transaction(db());
    if (!transaction.isActive())
        return writeFailed<qint64>(what, db().lastError());
    QSqlQuery q(db());
    q.prepare(QStringLiteral("UPDATE conversations SET updated_at = ? WHERE id = ?"));
    q.addBindValue(now);
    q.addBindValue(conversationId);
    if (!q.exec())
        return writeFailed<qint64>(what, q.lastError());
    if (q.numRowsAffected() != 1)
        return std::unexpected(tr("The conversation no longer exists."));
    q.prepare(ConversationRows::insertMessage());
    ConversationRows::bindMessage(q, conversationId, m, now);
    if (!q.exec())
        return writeFailed<qint64>(what, q.lastError());
    const qint64 id = q.lastInsertId().toLongLong();
    if (!transaction.commit())
        return writeFailed<qint64>(what, db().lastError());
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
    Transaction transaction(db());
    if (!transaction.isActive())
        return writeFailed<qint64>(what, db().lastError());
    QSqlQuery q(db());
    q.prepare(ConversationRows::insertConversation());
    ConversationRows::bindConversation(q, info, now);
    if (!q.exec())
        return writeFailed<qint64>(what, q.lastError());
    const qint64 id = q.lastInsertId().toLongLong();
    q.prepare(ConversationRows::insertMessage());
    for (const StoredMessage &m : messages) {
        ConversationRows::bindMessage(q, id, m, m.created.isValid() ? m.created.toMSecsSinceEpoch() : now);
        if (!q.exec())
            return writeFailed<qint64>(what, q.lastError()); // rolled back: nothing of it stays
    }
    if (!transaction.commit())
        return writeFailed<qint64>(what, db().lastError());
    emit conversationsChanged();
    return id;
}

StoreResult<void> ConversationStore::updateMessage(qint64 messageId, const QString &content, const QString &reasoning,
                                                   MessageState state, const QString &error, const MessageUsage &usage)
{
    const QString what = tr("Could not save the answer");
    if (m_damaged)
        return writeFailed<void>(what, damagedDetail());
    const qint64 now = nextStamp();
    Transaction transaction(db());
    if (!transaction.isActive())
        return writeFailed<void>(what, db().lastError());
    QSqlQuery q(db());
    q.prepare(ConversationRows::updateAnswer());
    ConversationRows::bindAnswer(q, messageId, content, reasoning, state, error, usage);
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
        return writeFailed<void>(what, db().lastError());
    // An answer that has ended goes into the main file: a crash, a kill or a lost log later
    // loses nothing up to here.
    if (state != MessageState::Partial && isPersistent())
        m_database.checkpoint();
    return {};
}

StoreResult<void> ConversationStore::setCitations(qint64 messageId, const QList<Knowledge::Passage> &passages)
{
    const QString what = tr("Could not save the answer's sources");
    if (m_damaged)
        return writeFailed<void>(what, damagedDetail());
    QSqlQuery q(db());
    q.prepare(QStringLiteral("UPDATE messages SET citations = ? WHERE id = ?"));
    q.addBindValue(citationsToJson(passages));
    q.addBindValue(messageId);
    if (!q.exec())
        return writeFailed<void>(what, q.lastError());
    if (q.numRowsAffected() != 1)
        return std::unexpected(tr("The message no longer exists."));
    return {};
}

StoreResult<void> ConversationStore::remove(qint64 id)
{
    const QString what = tr("Could not delete the conversation");
    if (m_damaged)
        return writeFailed<void>(what, damagedDetail());
    Transaction transaction(db());
    if (!transaction.isActive())
        return writeFailed<void>(what, db().lastError());
    QSqlQuery q(db());
    q.prepare(QStringLiteral("DELETE FROM messages WHERE conversation_id = ?"));
    q.addBindValue(id);
    if (!q.exec())
        return writeFailed<void>(what, q.lastError());
    q.prepare(QStringLiteral("DELETE FROM conversations WHERE id = ?"));
    q.addBindValue(id);
    if (!q.exec())
        return writeFailed<void>(what, q.lastError());
    if (q.numRowsAffected() != 1)
        return std::unexpected(tr("The conversation no longer exists."));
    if (!transaction.commit())
        return writeFailed<void>(what, db().lastError());
    emit conversationsChanged();
    return {};
}

StoreResult<int> ConversationStore::removeAll()
{
    const QString what = tr("Could not clear the history");
    if (m_damaged)
        return writeFailed<int>(what, damagedDetail());
    Transaction transaction(db());
    if (!transaction.isActive())
        return writeFailed<int>(what, db().lastError());
    QSqlQuery q(db());
    // The messages first: the search index's trigger removes each one's text with it.
    if (!q.exec(QStringLiteral("DELETE FROM messages")))
        return writeFailed<int>(what, q.lastError());
    if (!q.exec(QStringLiteral("DELETE FROM conversations")))
        return writeFailed<int>(what, q.lastError());
    const int removed = q.numRowsAffected();
    if (!transaction.commit())
        return writeFailed<int>(what, db().lastError());
    emit historyCleared();
    emit conversationsChanged();
    return removed;
}

StoreResult<void> ConversationStore::removeMessages(qint64 conversationId, const QList<qint64> &messageIds)
{
    const QString what = tr("Could not delete the message");
    if (m_damaged)
        return writeFailed<void>(what, damagedDetail());
    const qint64 now = nextStamp();
    Transaction transaction(db());
    if (!transaction.isActive())
        return writeFailed<void>(what, db().lastError());
    QSqlQuery q(db());
    q.prepare(QStringLiteral("DELETE FROM messages WHERE id = ? AND conversation_id = ?"));
    for (const qint64 id : messageIds) {
        q.addBindValue(id);
        q.addBindValue(conversationId);
        if (!q.exec())
            return writeFailed<void>(what, q.lastError());
        if (q.numRowsAffected() != 1)
            return std::unexpected(tr("The message no longer exists.")); // rolled back: all stay
    }
    q.prepare(QStringLiteral("UPDATE conversations SET updated_at = ? WHERE id = ?"));
    q.addBindValue(now);
    q.addBindValue(conversationId);
    if (!q.exec())
        return writeFailed<void>(what, q.lastError());
    if (!transaction.commit())
        return writeFailed<void>(what, db().lastError());
    emit conversationsChanged(); // its message count in the list
    return {};
}

} // namespace Gui
