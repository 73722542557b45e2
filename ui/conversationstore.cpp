#include "conversationstore.h"

#include "llm/log.h"

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

namespace {

spdlog::logger &log() { return Llm::moduleLogger("ui"); }

// SQLite primary result codes that mean "this file is not (or no longer) a database we can
// read": the only ones for which moving the file aside is the right repair. Anything else
// (locked, read-only, out of disk) leaves the file alone.
constexpr int SqliteCorrupt = 11;
constexpr int SqliteNotADb = 26;

// The trigram tokenizer needs three characters to index anything.
constexpr qsizetype TrigramLength = 3;

QString errorDetail(const QSqlError &error)
{
    const QString db = error.databaseText().trimmed();
    return db.isEmpty() ? error.text().trimmed() : db;
}

int primaryCode(const QSqlError &error)
{
    bool ok = false;
    const int code = error.nativeErrorCode().toInt(&ok);
    return ok ? code & 0xff : -1; // extended codes carry the primary one in the low byte
}

bool isDamaged(const QSqlError &error)
{
    const int code = primaryCode(error);
    return code == SqliteCorrupt || code == SqliteNotADb;
}

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
    return mode == ConversationMode::Document ? QStringLiteral("document") : QStringLiteral("free");
}

ConversationMode modeFromName(const QString &name)
{
    return name == QLatin1String("document") ? ConversationMode::Document : ConversationMode::FreeChat;
}

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

qsizetype codePoints(const QString &text)
{
    qsizetype n = 0;
    for (const QChar c : text)
        n += c.isLowSurrogate() ? 0 : 1;
    return n;
}

// Rolled back unless committed: every early return leaves the file as it was.
class Transaction
{
public:
    explicit Transaction(QSqlDatabase &db)
        : m_db(db)
        , m_active(db.transaction())
    {
    }
    ~Transaction()
    {
        if (m_active)
            m_db.rollback();
    }
    Transaction(const Transaction &) = delete;
    Transaction &operator=(const Transaction &) = delete;

    bool isActive() const { return m_active; }
    bool commit()
    {
        m_active = false;
        return m_db.commit();
    }

private:
    QSqlDatabase &m_db;
    bool m_active;
};

ConversationInfo readConversation(const QSqlQuery &q)
{
    ConversationInfo c;
    c.id = q.value(0).toLongLong();
    c.title = q.value(1).toString();
    c.documentPath = q.value(2).toString();
    c.mode = modeFromName(q.value(3).toString());
    c.updated = QDateTime::fromMSecsSinceEpoch(q.value(4).toLongLong(), Qt::UTC);
    c.messageCount = q.value(5).toInt();
    return c;
}

const QString ConversationColumns = QStringLiteral(
    "SELECT c.id, c.title, c.document_path, c.mode, c.updated_at, "
    "(SELECT count(*) FROM messages m WHERE m.conversation_id = c.id) FROM conversations c ");

// Version n of the schema is reached by running Migrations[n - 1] on version n - 1, in one
// transaction with the version bump. Append steps; never edit one that has shipped.
const QStringList Migrations[] = {
    // 1: conversations and messages.
    {QStringLiteral("CREATE TABLE conversations ("
                    " id INTEGER PRIMARY KEY,"
                    " title TEXT NOT NULL,"
                    " document_path TEXT NOT NULL DEFAULT '',"
                    " mode TEXT NOT NULL DEFAULT 'free',"
                    " created_at INTEGER NOT NULL,"
                    " updated_at INTEGER NOT NULL)"),
     QStringLiteral("CREATE INDEX conversations_updated ON conversations (updated_at DESC, id DESC)"),
     QStringLiteral("CREATE TABLE messages ("
                    " id INTEGER PRIMARY KEY,"
                    " conversation_id INTEGER NOT NULL REFERENCES conversations (id) ON DELETE CASCADE,"
                    " role TEXT NOT NULL,"
                    " content TEXT NOT NULL DEFAULT '',"
                    " reasoning TEXT NOT NULL DEFAULT '',"
                    " state TEXT NOT NULL DEFAULT 'complete',"
                    " error TEXT NOT NULL DEFAULT '',"
                    " created_at INTEGER NOT NULL)"),
     QStringLiteral("CREATE INDEX messages_conversation ON messages (conversation_id, id)")},
};

// The search index is not part of the versioned schema: whether it can exist depends on the
// SQLite the Qt driver was built with, not on the file. External content: the text lives once,
// in messages; triggers keep the index in step.
const QStringList SearchIndex = {
    QStringLiteral("CREATE VIRTUAL TABLE message_search USING fts5("
                   "content, content='messages', content_rowid='id', tokenize='trigram')"),
    QStringLiteral("CREATE TRIGGER message_search_insert AFTER INSERT ON messages BEGIN"
                   " INSERT INTO message_search (rowid, content) VALUES (new.id, new.content); END"),
    QStringLiteral("CREATE TRIGGER message_search_delete AFTER DELETE ON messages BEGIN"
                   " INSERT INTO message_search (message_search, rowid, content) VALUES ('delete', old.id, old.content); END"),
    QStringLiteral("CREATE TRIGGER message_search_update AFTER UPDATE OF content ON messages BEGIN"
                   " INSERT INTO message_search (message_search, rowid, content) VALUES ('delete', old.id, old.content);"
                   " INSERT INTO message_search (rowid, content) VALUES (new.id, new.content); END"),
    QStringLiteral("INSERT INTO message_search (message_search) VALUES ('rebuild')"),
};
const QStringList SearchTriggers = {QStringLiteral("message_search_insert"), QStringLiteral("message_search_delete"),
                                    QStringLiteral("message_search_update")};

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

bool ConversationStore::openFile()
{
    const QFileInfo info(m_path);
    if (!QDir().mkpath(info.absolutePath())) {
        m_recovery = tr("Conversations cannot be saved: the folder %1 cannot be created. They are kept until "
                        "Headstart closes.")
                         .arg(QDir::toNativeSeparators(info.absolutePath()));
        return false;
    }

    for (int attempt = 0; attempt < 2; ++attempt) {
        m_db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), m_connection);
        m_db.setDatabaseName(m_path);
        QString detail;
        bool damaged = false;
        if (!m_db.open()) {
            detail = errorDetail(m_db.lastError());
            damaged = isDamaged(m_db.lastError());
        } else {
            // SQLite opens any file lazily; the first read is what tells a database from junk.
            QSqlQuery q(m_db);
            if (!q.exec(QStringLiteral("PRAGMA user_version")) || !q.next()) {
                detail = errorDetail(q.lastError());
                damaged = isDamaged(q.lastError());
            } else {
                const int version = q.value(0).toInt();
                q.finish();
                if (version > SchemaVersion) {
                    // A newer Headstart wrote it: leave it untouched for that version.
                    m_recovery = tr("%1 was written by a newer version of Headstart and is left untouched. "
                                    "Conversations are kept until Headstart closes.")
                                     .arg(QDir::toNativeSeparators(m_path));
                    return false;
                }
                QSqlError error = configure();
                if (error.type() == QSqlError::NoError)
                    error = migrate(version);
                if (error.type() == QSqlError::NoError) {
                    setUpSearchIndex();
                    m_persistent = true;
                    log().info("conversation store opened (schema {}, full-text search {})", SchemaVersion,
                               m_fullText ? "on" : "off");
                    return true;
                }
                detail = errorDetail(error);
                damaged = isDamaged(error);
            }
        }
        closeConnection();
        if (!damaged || attempt > 0) {
            m_recovery = tr("Conversations cannot be saved: %1 They are kept until Headstart closes.")
                             .arg(detail.isEmpty() ? tr("the file cannot be opened.") : detail + u'.');
            return false;
        }
        if (!moveAside()) {
            m_recovery = tr("The conversation file %1 is damaged and cannot be moved aside. Conversations are kept "
                            "until Headstart closes.")
                             .arg(QDir::toNativeSeparators(m_path));
            return false;
        }
        log().warn("conversation store: damaged file moved aside");
        m_recovery = tr("The conversation file was damaged; it was moved to %1 and a new one was started.")
                         .arg(QDir::toNativeSeparators(m_movedAside));
    }
    return false;
}

bool ConversationStore::openMemory()
{
    m_db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), m_connection);
    m_db.setDatabaseName(QStringLiteral(":memory:"));
    if (!m_db.open() || configure().type() != QSqlError::NoError || migrate(0).type() != QSqlError::NoError)
        return false;
    setUpSearchIndex();
    m_persistent = false;
    return true;
}

bool ConversationStore::moveAside()
{
    const QString stamp = QDateTime::currentDateTime().toString(QStringLiteral("yyyyMMdd-HHmmss"));
    QString target = m_path + QStringLiteral(".broken-") + stamp;
    for (int n = 2; QFileInfo::exists(target); ++n)
        target = m_path + QStringLiteral(".broken-%1-%2").arg(stamp).arg(n);
    if (!QFile::rename(m_path, target))
        return false;
    // A journal next to a damaged file belongs to it; left behind, SQLite would replay it into
    // the fresh database.
    for (const char *suffix : {"-wal", "-shm", "-journal"}) {
        const QString side = m_path + QLatin1String(suffix);
        if (QFileInfo::exists(side) && !QFile::rename(side, target + QLatin1String(suffix)))
            QFile::remove(side);
    }
    m_movedAside = target;
    return true;
}

QSqlError ConversationStore::configure()
{
    QSqlQuery q(m_db);
    // WAL with synchronous=NORMAL: a commit does not wait for fsync, so checkpointing a streamed
    // answer never stalls the GUI thread; a power cut can lose the last commits, not the file.
    // busy_timeout is short: a second Headstart on the same file must not freeze this one.
    for (const char *pragma : {"PRAGMA foreign_keys = ON", "PRAGMA journal_mode = WAL", "PRAGMA synchronous = NORMAL",
                               "PRAGMA busy_timeout = 250"}) {
        if (!q.exec(QLatin1String(pragma)))
            return q.lastError();
        q.finish();
    }
    return {};
}

QSqlError ConversationStore::migrate(int from)
{
    for (int version = from + 1; version <= SchemaVersion; ++version) {
        Transaction transaction(m_db);
        if (!transaction.isActive())
            return m_db.lastError();
        QSqlQuery q(m_db);
        for (const QString &statement : Migrations[version - 1]) {
            if (!q.exec(statement)) {
                log().error("conversation store: migration to schema {} failed", version);
                return q.lastError();
            }
        }
        if (!q.exec(QStringLiteral("PRAGMA user_version = %1").arg(version)))
            return q.lastError();
        if (!transaction.commit())
            return m_db.lastError();
    }
    QSqlQuery q(m_db);
    if (!q.exec(QStringLiteral("SELECT max(updated_at) FROM conversations")))
        return q.lastError();
    if (q.next())
        m_lastStamp = q.value(0).toLongLong();
    return {};
}

void ConversationStore::setUpSearchIndex()
{
    m_fullText = false;
    QSqlQuery q(m_db);
    bool exists = false;
    if (q.exec(QStringLiteral("SELECT count(*) FROM sqlite_master WHERE name = 'message_search'")) && q.next())
        exists = q.value(0).toInt() > 0;
    q.finish();

    if (exists) {
        // Made by a build with FTS5; this one may lack it, and then its triggers would fail
        // every write to messages. Without the module the index is dropped for good.
        if (q.exec(QStringLiteral("SELECT count(*) FROM message_search WHERE rowid = 0"))) {
            q.finish();
            m_fullText = m_options.fullTextSearch;
            return;
        }
        for (const QString &trigger : SearchTriggers)
            q.exec(QStringLiteral("DROP TRIGGER IF EXISTS %1").arg(trigger));
        log().warn("conversation store: search index unusable here; searching without it");
        return;
    }
    if (!m_options.fullTextSearch)
        return;
    Transaction transaction(m_db);
    if (!transaction.isActive())
        return;
    for (const QString &statement : SearchIndex) {
        if (!q.exec(statement))
            return; // no FTS5 or no trigram tokenizer (SQLite < 3.34): LIKE it is
    }
    m_fullText = transaction.commit();
}

qint64 ConversationStore::nextStamp()
{
    m_lastStamp = std::max(QDateTime::currentMSecsSinceEpoch(), m_lastStamp + 1);
    return m_lastStamp;
}

QString ConversationStore::failure(const QString &what, const QString &detail) const
{
    return tr("%1: %2").arg(what, detail.isEmpty() ? tr("unknown database error") : detail);
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
            return std::unexpected(failure(tr("Could not search the conversations"), errorDetail(q.lastError())));
        while (q.next())
            matching->insert(q.value(0).toLongLong());
        q.finish();
    }

    if (!q.exec(ConversationColumns + QStringLiteral("ORDER BY c.updated_at DESC, c.id DESC")))
        return std::unexpected(failure(tr("Could not read the conversations"), errorDetail(q.lastError())));
    QList<ConversationInfo> out;
    while (q.next()) {
        ConversationInfo c = readConversation(q);
        // Titles are matched here rather than in SQL: QString folds case for every script.
        if (!matching || matching->contains(c.id) || c.title.contains(needle, Qt::CaseInsensitive))
            out.append(std::move(c));
    }
    return out;
}

StoreResult<ConversationInfo> ConversationStore::conversation(qint64 id) const
{
    QSqlQuery q(m_db);
    q.prepare(ConversationColumns + QStringLiteral("WHERE c.id = ?"));
    q.addBindValue(id);
    if (!q.exec())
        return std::unexpected(failure(tr("Could not read the conversation"), errorDetail(q.lastError())));
    if (!q.next())
        return std::unexpected(tr("The conversation no longer exists."));
    return readConversation(q);
}

StoreResult<qint64> ConversationStore::create(const QString &title, const QString &documentPath, ConversationMode mode)
{
    const qint64 now = nextStamp();
    QSqlQuery q(m_db);
    q.prepare(QStringLiteral("INSERT INTO conversations (title, document_path, mode, created_at, updated_at)"
                             " VALUES (?, ?, ?, ?, ?)"));
    q.addBindValue(text(title));
    q.addBindValue(text(documentPath));
    q.addBindValue(modeName(mode));
    q.addBindValue(now);
    q.addBindValue(now);
    if (!q.exec())
        return writeFailed<qint64>(tr("Could not create the conversation"), errorDetail(q.lastError()));
    return q.lastInsertId().toLongLong();
}

StoreResult<void> ConversationStore::rename(qint64 id, const QString &title)
{
    QSqlQuery q(m_db);
    q.prepare(QStringLiteral("UPDATE conversations SET title = ? WHERE id = ?"));
    q.addBindValue(text(title));
    q.addBindValue(id);
    if (!q.exec())
        return writeFailed<void>(tr("Could not rename the conversation"), errorDetail(q.lastError()));
    if (q.numRowsAffected() != 1)
        return std::unexpected(tr("The conversation no longer exists."));
    return {};
}

StoreResult<void> ConversationStore::setMode(qint64 id, ConversationMode mode)
{
    QSqlQuery q(m_db);
    q.prepare(QStringLiteral("UPDATE conversations SET mode = ? WHERE id = ?"));
    q.addBindValue(modeName(mode));
    q.addBindValue(id);
    if (!q.exec())
        return writeFailed<void>(tr("Could not save the conversation mode"), errorDetail(q.lastError()));
    if (q.numRowsAffected() != 1)
        return std::unexpected(tr("The conversation no longer exists."));
    return {};
}

StoreResult<void> ConversationStore::remove(qint64 id)
{
    const QString what = tr("Could not delete the conversation");
    Transaction transaction(m_db);
    if (!transaction.isActive())
        return writeFailed<void>(what, errorDetail(m_db.lastError()));
    QSqlQuery q(m_db);
    q.prepare(QStringLiteral("DELETE FROM messages WHERE conversation_id = ?"));
    q.addBindValue(id);
    if (!q.exec())
        return writeFailed<void>(what, errorDetail(q.lastError()));
    q.prepare(QStringLiteral("DELETE FROM conversations WHERE id = ?"));
    q.addBindValue(id);
    if (!q.exec())
        return writeFailed<void>(what, errorDetail(q.lastError()));
    if (q.numRowsAffected() != 1)
        return std::unexpected(tr("The conversation no longer exists."));
    if (!transaction.commit())
        return writeFailed<void>(what, errorDetail(m_db.lastError()));
    return {};
}

StoreResult<QList<StoredMessage>> ConversationStore::messages(qint64 conversationId) const
{
    QSqlQuery q(m_db);
    q.setForwardOnly(true);
    q.prepare(QStringLiteral("SELECT id, conversation_id, role, content, reasoning, state, error, created_at"
                             " FROM messages WHERE conversation_id = ? ORDER BY id"));
    q.addBindValue(conversationId);
    if (!q.exec())
        return std::unexpected(failure(tr("Could not read the messages"), errorDetail(q.lastError())));
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
        out.append(std::move(m));
    }
    return out;
}

StoreResult<qint64> ConversationStore::appendMessage(qint64 conversationId, Llm::Role role, const QString &content,
                                                     const QString &reasoning, MessageState state,
                                                     const QString &error)
{
    const QString what = tr("Could not save the message");
    const qint64 now = nextStamp();
    Transaction transaction(m_db);
    if (!transaction.isActive())
        return writeFailed<qint64>(what, errorDetail(m_db.lastError()));
    QSqlQuery q(m_db);
    q.prepare(QStringLiteral("UPDATE conversations SET updated_at = ? WHERE id = ?"));
    q.addBindValue(now);
    q.addBindValue(conversationId);
    if (!q.exec())
        return writeFailed<qint64>(what, errorDetail(q.lastError()));
    if (q.numRowsAffected() != 1)
        return std::unexpected(tr("The conversation no longer exists."));
    q.prepare(QStringLiteral("INSERT INTO messages (conversation_id, role, content, reasoning, state, error, created_at)"
                             " VALUES (?, ?, ?, ?, ?, ?, ?)"));
    q.addBindValue(conversationId);
    q.addBindValue(roleName(role));
    q.addBindValue(text(content));
    q.addBindValue(text(reasoning));
    q.addBindValue(stateName(state));
    q.addBindValue(text(error));
    q.addBindValue(now);
    if (!q.exec())
        return writeFailed<qint64>(what, errorDetail(q.lastError()));
    const qint64 id = q.lastInsertId().toLongLong();
    if (!transaction.commit())
        return writeFailed<qint64>(what, errorDetail(m_db.lastError()));
    return id;
}

StoreResult<void> ConversationStore::updateMessage(qint64 messageId, const QString &content, const QString &reasoning,
                                                   MessageState state, const QString &error)
{
    const QString what = tr("Could not save the answer");
    const qint64 now = nextStamp();
    Transaction transaction(m_db);
    if (!transaction.isActive())
        return writeFailed<void>(what, errorDetail(m_db.lastError()));
    QSqlQuery q(m_db);
    q.prepare(QStringLiteral("UPDATE messages SET content = ?, reasoning = ?, state = ?, error = ? WHERE id = ?"));
    q.addBindValue(text(content));
    q.addBindValue(text(reasoning));
    q.addBindValue(stateName(state));
    q.addBindValue(text(error));
    q.addBindValue(messageId);
    if (!q.exec())
        return writeFailed<void>(what, errorDetail(q.lastError()));
    if (q.numRowsAffected() != 1)
        return std::unexpected(tr("The message no longer exists."));
    q.prepare(QStringLiteral("UPDATE conversations SET updated_at = ?"
                             " WHERE id = (SELECT conversation_id FROM messages WHERE id = ?)"));
    q.addBindValue(now);
    q.addBindValue(messageId);
    if (!q.exec())
        return writeFailed<void>(what, errorDetail(q.lastError()));
    if (!transaction.commit())
        return writeFailed<void>(what, errorDetail(m_db.lastError()));
    return {};
}

} // namespace Gui
