#include "workspace/conversations/conversationdatabase.h"

#include "base/sqlite.h"
#include "workspace/conversations/writeaheadlog.h"

#include "base/diskspace.h"
#include "base/privatefiles.h"

#include "llm/log.h"

#include <spdlog/spdlog.h>

#include <QAtomicInteger>
#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QSqlQuery>
#include <QVariant>

namespace Gui {

using namespace Base::Sqlite;

namespace {

spdlog::logger &log()
{
    return Llm::moduleLogger("ui");
}

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
    // 7: the fast opening, the fast model that wrote an answer's first characters and how many;
    // '' and 0 for the others and for older answers.
    {QStringLiteral("ALTER TABLE messages ADD COLUMN opening_model TEXT NOT NULL DEFAULT ''"),
     QStringLiteral("ALTER TABLE messages ADD COLUMN opening_chars INTEGER NOT NULL DEFAULT 0")},
};

// The search index is not part of the versioned schema: whether it can exist depends on the
// SQLite the Qt driver was built with, not on the file. External content: the text lives once,
// in messages; triggers keep the index in step.
const QStringList SearchIndex = {
    QStringLiteral("CREATE VIRTUAL TABLE message_search USING fts5("
                   "content, content='messages', content_rowid='id', tokenize='trigram')"),
    QStringLiteral("CREATE TRIGGER message_search_insert AFTER INSERT ON messages BEGIN"
                   " INSERT INTO message_search (rowid, content) VALUES (new.id, new.content); END"),
    QStringLiteral(
        "CREATE TRIGGER message_search_delete AFTER DELETE ON messages BEGIN"
        " INSERT INTO message_search (message_search, rowid, content) VALUES ('delete', old.id, old.content); END"),
    QStringLiteral(
        "CREATE TRIGGER message_search_update AFTER UPDATE OF content ON messages BEGIN"
        " INSERT INTO message_search (message_search, rowid, content) VALUES ('delete', old.id, old.content);"
        " INSERT INTO message_search (rowid, content) VALUES (new.id, new.content); END"),
    QStringLiteral("INSERT INTO message_search (message_search) VALUES ('rebuild')"),
};
const QStringList SearchTriggers = {QStringLiteral("message_search_insert"), QStringLiteral("message_search_delete"),
                                    QStringLiteral("message_search_update")};

} // namespace

ConversationDatabase::ConversationDatabase(const QString &path, bool fullTextSearch)
    : m_path(path)
    , m_wantFullText(fullTextSearch)
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

ConversationDatabase::~ConversationDatabase()
{
    closeConnection();
}

void ConversationDatabase::closeConnection()
{
    if (m_db.isValid())
        m_db.close();
    m_db = QSqlDatabase(); // the last handle must be gone before removeDatabase()
    if (QSqlDatabase::contains(m_connection))
        QSqlDatabase::removeDatabase(m_connection);
}

bool ConversationDatabase::openFile()
{
    const QFileInfo info(m_path);
    if (!Base::PrivateFiles::makeDirectory(info.absolutePath())) {
        m_recovery = tr("Conversations cannot be saved: the folder %1 cannot be created. They are kept until "
                        "Headstart closes.")
                         .arg(QDir::toNativeSeparators(info.absolutePath()));
        return false;
    }

    // Read before SQLite touches the files: what the log held, committed, when the last writer
    // stopped. After an unclean stop the files are copied aside until SQLite has shown that it
    // reads all of it back.
    const WriteAheadLog::Inspection wal = WriteAheadLog::inspect(m_path);
    const bool written = QFileInfo(m_path).size() > 0;
    QString lostLog;
    if (wal.pendingFrames > 0) {
        const QString copies = keepCopies();
        const qint64 readable = readableLogFrames();
        if (readable >= 0 && readable < wal.pendingFrames && !copies.isEmpty()) {
            log().warn("conversation store: {} of {} committed log frames could be read back", readable,
                       wal.pendingFrames);
            lostLog = tr("Headstart was not closed properly last time, and the conversation file's log of recent "
                         "changes was %1: what was written after the last completed answer may be lost. "
                         "Everything before it is kept. The files as they were are kept in %2.")
                          .arg(!wal.logExists   ? tr("missing")
                               : wal.logShort() ? tr("cut short")
                                                : tr("damaged"),
                               QDir::toNativeSeparators(copies));
        } else {
            QDir(copies).removeRecursively(); // all of it was read back: an ordinary recovery
        }
    }

    for (int attempt = 0; attempt < 2; ++attempt) {
        // Made (or tightened) before SQLite opens it: SQLite gives its -wal and -shm the
        // database's mode, so one 0600 here covers all three. Those of an older version that
        // relied on the umask are tightened too.
        Base::PrivateFiles::makeDatabaseFile(m_path);
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
            } else if (attempt == 0 && written && q.value(0).toInt() == 0 && !hasTables()) {
                // Written before, and holding nothing: its whole content was in a log that is
                // gone. Not a new file to fill but a damaged one to keep.
                detail = tr("it holds no conversations although it had been written; its log of recent changes "
                            "is missing");
                damaged = true;
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
                    // The schema (or a migration) goes into the main file at once: a log lost
                    // before the first completed answer then loses no table.
                    checkpoint();
                    m_persistent = true;
                    if (!lostLog.isEmpty())
                        m_recovery = lostLog;
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
            if (const QString full = Base::diskFullNote(m_path); !full.isEmpty())
                m_recovery += u' ' + full;
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

QString ConversationDatabase::keepCopies() const
{
    const QString stamp = QDateTime::currentDateTime().toString(QStringLiteral("yyyyMMdd-HHmmss"));
    QString folder = m_path + QStringLiteral(".unclean-") + stamp;
    for (int n = 2; QFileInfo::exists(folder); ++n)
        folder = m_path + QStringLiteral(".unclean-%1-%2").arg(stamp).arg(n);
    if (!Base::PrivateFiles::makeDirectory(folder))
        return {};
    const QString name = QFileInfo(m_path).fileName();
    for (const char *suffix : {"", "-wal", "-shm"}) {
        const QString from = m_path + QLatin1String(suffix);
        const QString to = QDir(folder).filePath(name + QLatin1String(suffix));
        if (QFileInfo::exists(from) && QFile::copy(from, to))
            Base::PrivateFiles::restrict(to);
    }
    return folder;
}

qint64 ConversationDatabase::readableLogFrames() const
{
    // A connection of its own, closed before the real one opens: its first read makes SQLite
    // recover the log (keeping the frames whose checksums hold), and its close checkpoints them
    // into the main file, so the store then opens a file with nothing pending.
    const QString name = m_connection + QStringLiteral("-log");
    qint64 frames = -1;
    {
        QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), name);
        db.setDatabaseName(m_path);
        if (db.open()) {
            QSqlQuery q(db);
            // (busy, frames in the log, frames checkpointed)
            if (q.exec(QStringLiteral("PRAGMA wal_checkpoint(PASSIVE)")) && q.next() && q.value(0).toInt() == 0)
                frames = q.value(1).toLongLong();
        }
        db.close();
    }
    QSqlDatabase::removeDatabase(name);
    return frames;
}

bool ConversationDatabase::hasTables()
{
    QSqlQuery q(m_db);
    return q.exec(QStringLiteral("SELECT count(*) FROM sqlite_master")) && q.next() && q.value(0).toInt() > 0;
}

void ConversationDatabase::checkpoint()
{
    // TRUNCATE: the log is copied into the main file and emptied. Cheap at this size (one
    // answer's pages), and what is in the main file survives losing the log.
    QSqlQuery q(m_db);
    if (!q.exec(QStringLiteral("PRAGMA wal_checkpoint(TRUNCATE)")) || !q.next() || q.value(0).toInt() != 0)
        log().warn("conversation store: checkpoint did not complete");
}

QString ConversationDatabase::quickCheck()
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

bool ConversationDatabase::openMemory()
{
    m_db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), m_connection);
    m_db.setDatabaseName(QStringLiteral(":memory:"));
    if (!m_db.open() || configure().type() != QSqlError::NoError || migrate(0).type() != QSqlError::NoError)
        return false;
    setUpSearchIndex();
    m_persistent = false;
    return true;
}

bool ConversationDatabase::moveAside()
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

QSqlError ConversationDatabase::configure()
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

QSqlError ConversationDatabase::migrate(int from)
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
        m_lastChange = q.value(0).toLongLong();
    return {};
}

void ConversationDatabase::setUpSearchIndex()
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
            m_fullText = m_wantFullText;
            return;
        }
        for (const QString &trigger : SearchTriggers)
            q.exec(QStringLiteral("DROP TRIGGER IF EXISTS %1").arg(trigger));
        log().warn("conversation store: search index unusable here; searching without it");
        return;
    }
    if (!m_wantFullText)
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
