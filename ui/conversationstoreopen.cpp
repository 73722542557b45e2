#include "conversationstore.h"

#include "conversationstore_p.h"
#include "privatefiles.h"

#include "llm/log.h"

#include <spdlog/spdlog.h>

#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QSqlQuery>
#include <QVariant>

// Opening the file: checking it (PRAGMA quick_check), moving a damaged one aside, migrating
// the schema and setting up the search index. The queries are in conversationstore.cpp.

namespace Gui {

using namespace StoreDetail;

namespace {

spdlog::logger &log() { return Llm::moduleLogger("ui"); }

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
    // 2: each answer's usage (MessageUsage); -1 is "not known", which is what older answers get.
    {QStringLiteral("ALTER TABLE messages ADD COLUMN input_tokens INTEGER NOT NULL DEFAULT -1"),
     QStringLiteral("ALTER TABLE messages ADD COLUMN cache_read_tokens INTEGER NOT NULL DEFAULT -1"),
     QStringLiteral("ALTER TABLE messages ADD COLUMN cache_write_tokens INTEGER NOT NULL DEFAULT -1"),
     QStringLiteral("ALTER TABLE messages ADD COLUMN output_tokens INTEGER NOT NULL DEFAULT -1"),
     QStringLiteral("ALTER TABLE messages ADD COLUMN reasoning_tokens INTEGER NOT NULL DEFAULT -1"),
     QStringLiteral("ALTER TABLE messages ADD COLUMN first_token_ms REAL NOT NULL DEFAULT -1"),
     QStringLiteral("ALTER TABLE messages ADD COLUMN tokens_per_second REAL NOT NULL DEFAULT -1"),
     QStringLiteral("ALTER TABLE messages ADD COLUMN cost REAL NOT NULL DEFAULT -1"),
     QStringLiteral("ALTER TABLE messages ADD COLUMN currency TEXT NOT NULL DEFAULT ''")},
    // 3: a library answer's citations (storedcitations.h: a JSON array of passages' path, heading,
    // offsets and page); '' for every other message and for answers older than this.
    {QStringLiteral("ALTER TABLE messages ADD COLUMN citations TEXT NOT NULL DEFAULT ''")},
    // 4: the files attached to a question (attachments.h: a JSON array of name and text, the text
    // as it was sent); '' for every other message and for questions older than this.
    {QStringLiteral("ALTER TABLE messages ADD COLUMN attachments TEXT NOT NULL DEFAULT ''")},
    // 5: a conversation's assistant (ui/assistants.h: its stable id); older ones had none, which
    // is what General is.
    {QStringLiteral("ALTER TABLE conversations ADD COLUMN assistant TEXT NOT NULL DEFAULT 'general'")},
    // 6: the model that gave an answer (fast/slow routing asks two); '' for questions and for
    // answers older than this.
    {QStringLiteral("ALTER TABLE messages ADD COLUMN model TEXT NOT NULL DEFAULT ''")},
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

bool ConversationStore::openFile()
{
    const QFileInfo info(m_path);
    if (!PrivateFiles::makeDirectory(info.absolutePath())) {
        m_recovery = tr("Conversations cannot be saved: the folder %1 cannot be created. They are kept until "
                        "Headstart closes.")
                         .arg(QDir::toNativeSeparators(info.absolutePath()));
        return false;
    }

    for (int attempt = 0; attempt < 2; ++attempt) {
        // Made (or tightened) before SQLite opens it: SQLite gives its -wal and -shm the
        // database's mode, so one 0600 here covers all three. Those of an older version that
        // relied on the umask are tightened too.
        PrivateFiles::makeFile(m_path);
        for (const char *suffix : {"-wal", "-shm", "-journal"})
            PrivateFiles::restrict(m_path + QLatin1String(suffix));
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
            } else if (const QString check = quickCheck(); !check.isEmpty()) {
                // The header reads, but pages behind it do not: reads would silently return
                // part of the rows and writes would go on into the damage.
                detail = check;
                damaged = true;
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
        m_recovery = tr("The conversation file was damaged (%1). It was moved, not deleted, to %2 and a new one "
                        "was started. What can still be read from it can be exported: File, Export Damaged "
                        "Conversations.")
                         .arg(detail.isEmpty() ? tr("unreadable") : detail, QDir::toNativeSeparators(m_movedAside));
    }
    return false;
}

QString ConversationStore::quickCheck()
{
    QSqlQuery q(m_db);
    q.setForwardOnly(true);
    // quick_check reads every page of every table and index (not the index/row agreement
    // integrity_check adds): about 0.4 s for a 73 MB file (2,000 conversations of 10 long
    // messages), once at start (docs/reliability.md).
    if (!q.exec(QStringLiteral("PRAGMA quick_check")))
        return errorDetail(q.lastError());
    QStringList problems;
    while (q.next() && problems.size() < 3)
        problems << q.value(0).toString();
    if (q.lastError().isValid())
        problems << errorDetail(q.lastError());
    if (problems == QStringList{QStringLiteral("ok")})
        return {};
    log().warn("conversation store: quick_check found {} problem(s)", problems.size());
    return problems.isEmpty() ? tr("the integrity check gave no answer") : problems.join(QLatin1String("; "));
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

} // namespace Gui
