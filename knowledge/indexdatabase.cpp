#include "indexdatabase.h"

#include "log.h"
#include "searchterms.h"

#include "base/privatefiles.h"
#include "base/sqlite.h"

#include <spdlog/spdlog.h>

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QSqlError>
#include <QSqlQuery>
#include <QVariant>

namespace Knowledge {

namespace {

using Base::Sqlite::errorDetail;
// A damaged index is replaced, not kept: it is a cache of the user's folders.
using Base::Sqlite::isDamaged;
using Base::Sqlite::Transaction;

constexpr int SchemaVersion = 2; // 2: chunks.page

const char *modeName(Tokenization mode)
{
    return mode == Tokenization::Trigram ? "trigram" : "bigram";
}

QStringList schema(Tokenization mode)
{
    return {
        QStringLiteral("CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)"),
        QStringLiteral("CREATE TABLE folders (id INTEGER PRIMARY KEY, path TEXT NOT NULL UNIQUE)"),
        QStringLiteral("CREATE TABLE files ("
                       " id INTEGER PRIMARY KEY,"
                       " folder_id INTEGER NOT NULL REFERENCES folders (id) ON DELETE CASCADE,"
                       " path TEXT NOT NULL UNIQUE,"
                       " size INTEGER NOT NULL,"
                       " mtime INTEGER NOT NULL,"
                       " hash TEXT NOT NULL DEFAULT '',"
                       " status TEXT NOT NULL,"
                       " encoding TEXT NOT NULL DEFAULT '',"
                       " chunk_count INTEGER NOT NULL DEFAULT 0)"),
        QStringLiteral("CREATE INDEX files_folder ON files (folder_id)"),
        QStringLiteral("CREATE TABLE chunks ("
                       " id INTEGER PRIMARY KEY,"
                       " file_id INTEGER NOT NULL REFERENCES files (id) ON DELETE CASCADE,"
                       " heading TEXT NOT NULL,"
                       " start_pos INTEGER NOT NULL,"
                       " end_pos INTEGER NOT NULL,"
                       " page INTEGER NOT NULL DEFAULT 0,"
                       " text TEXT NOT NULL)"),
        QStringLiteral("CREATE INDEX chunks_file ON chunks (file_id)"),
        // Contentless: the text lives once, in chunks; what FTS5 indexes is indexedText() of it,
        // which for Bigram is not the text itself.
        QStringLiteral("CREATE VIRTUAL TABLE chunk_fts USING fts5(heading, body, content='', tokenize='%1')")
            .arg(tokenizerSpec(mode)),
        QStringLiteral("INSERT INTO meta (key, value) VALUES ('tokenization', '%1')")
            .arg(QLatin1String(modeName(mode))),
        QStringLiteral("PRAGMA user_version = %1").arg(SchemaVersion),
    };
}

bool exec(QSqlQuery &q)
{
    if (q.exec())
        return true;
    log().warn("index: {}", errorDetail(q.lastError()).toStdString());
    return false;
}

void removeIndexFiles(const QString &path)
{
    for (const char *suffix : {"", "-wal", "-shm", "-journal"})
        QFile::remove(path + QLatin1String(suffix));
}

struct Opened {
    bool ok = false;
    bool damaged = false;
    bool stale = false; // another schema version or tokenization: discard and rebuild
    QString detail;
};

// Checks and prepares an open connection; the writer creates the schema.
Opened prepare(QSqlDatabase &db, Tokenization mode, IndexDatabase::Role role)
{
    QSqlQuery q(db);
    // SQLite opens any file lazily; the first read tells a database from junk.
    if (!q.exec(QStringLiteral("PRAGMA user_version")) || !q.next())
        return {false, isDamaged(q.lastError()), false, errorDetail(q.lastError())};
    const int version = q.value(0).toInt();
    q.finish();
    if (role == IndexDatabase::Role::Reader)
        return {true, false, false, {}};

    if (!q.exec(QStringLiteral("PRAGMA quick_check")) || !q.next())
        return {false, true, false, errorDetail(q.lastError())};
    if (const QString check = q.value(0).toString(); check != QLatin1String("ok"))
        return {false, true, false, check};
    q.finish();
    for (const char *pragma :
         {"PRAGMA journal_mode = WAL", "PRAGMA synchronous = NORMAL", "PRAGMA foreign_keys = ON"}) {
        if (!q.exec(QLatin1String(pragma)))
            return {false, isDamaged(q.lastError()), false, errorDetail(q.lastError())};
    }
    if (version == 0) {
        Transaction t(db);
        for (const QString &statement : schema(mode)) {
            if (!q.exec(statement))
                return {false, isDamaged(q.lastError()), false, errorDetail(q.lastError())};
        }
        if (!t.commit())
            return {false, false, false, errorDetail(db.lastError())};
        return {true, false, false, {}};
    }
    if (version != SchemaVersion)
        return {false, false, true, {}};
    if (!q.exec(QStringLiteral("SELECT value FROM meta WHERE key = 'tokenization'")) || !q.next())
        return {false, isDamaged(q.lastError()), true, errorDetail(q.lastError())};
    if (q.value(0).toString() != QLatin1String(modeName(mode)))
        return {false, false, true, {}};
    return {true, false, false, {}};
}

} // namespace

IndexDatabase::IndexDatabase(QSqlDatabase db, Tokenization mode)
    : m_db(std::move(db))
    , m_connection(m_db.connectionName())
    , m_mode(mode)
{
}

IndexDatabase::~IndexDatabase()
{
    m_db.close();
    m_db = QSqlDatabase();
    QSqlDatabase::removeDatabase(m_connection);
}

std::expected<std::unique_ptr<IndexDatabase>, QString> IndexDatabase::open(const QString &path,
                                                                           const QString &connection, Tokenization mode,
                                                                           Role role, QString *repairMessage)
{
    if (!Base::PrivateFiles::makeDirectory(QFileInfo(path).absolutePath()))
        return std::unexpected(
            QCoreApplication::translate("Knowledge::IndexDatabase",
                                        "The knowledge index cannot be created: the folder %1 cannot be made.")
                .arg(QDir::toNativeSeparators(QFileInfo(path).absolutePath())));
    for (int attempt = 0; attempt < 2; ++attempt) {
        Opened opened;
        {
            // The passages of the user's documents: private from the first byte.
            if (role == Role::Writer)
                Base::PrivateFiles::makeDatabaseFile(path);
            QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), connection);
            db.setDatabaseName(path);
            // The reader waits for the writer's commit instead of failing at once.
            db.setConnectOptions(QStringLiteral("QSQLITE_BUSY_TIMEOUT=5000"));
            if (!db.open())
                opened = {false, isDamaged(db.lastError()), false, errorDetail(db.lastError())};
            else
                opened = prepare(db, mode, role);
            if (opened.ok) {
                // Per connection, in temp: the vocabulary that search() weighs terms by.
                QSqlQuery vocab(db);
                if (!vocab.exec(QStringLiteral("CREATE VIRTUAL TABLE IF NOT EXISTS temp.chunk_vocab"
                                               " USING fts5vocab(main, chunk_fts, 'row')")))
                    log().warn("index: no vocabulary table: {}", errorDetail(vocab.lastError()).toStdString());
                return std::unique_ptr<IndexDatabase>(new IndexDatabase(db, mode));
            }
            db.close();
        }
        QSqlDatabase::removeDatabase(connection);
        if (role == Role::Reader || attempt > 0 || !(opened.damaged || opened.stale))
            return std::unexpected(
                QCoreApplication::translate("Knowledge::IndexDatabase", "The knowledge index %1 cannot be opened: %2")
                    .arg(QDir::toNativeSeparators(path),
                         opened.detail.isEmpty()
                             ? QCoreApplication::translate("Knowledge::IndexDatabase", "unknown error")
                             : opened.detail));
        removeIndexFiles(path);
        if (opened.damaged) {
            log().warn("index: damaged file replaced ({})", opened.detail.toStdString());
            if (repairMessage)
                *repairMessage = QCoreApplication::translate(
                                     "Knowledge::IndexDatabase",
                                     "The knowledge index was damaged (%1). It was replaced by a new one and your "
                                     "folders are being indexed again.")
                                     .arg(opened.detail.isEmpty()
                                              ? QCoreApplication::translate("Knowledge::IndexDatabase", "unreadable")
                                              : opened.detail);
        } else {
            log().info("index: built for another version or tokenization; starting afresh");
        }
    }
    return std::unexpected(
        QCoreApplication::translate("Knowledge::IndexDatabase", "The knowledge index cannot be opened."));
}

qint64 IndexDatabase::ensureFolder(const QString &folder)
{
    QSqlQuery q(m_db);
    q.prepare(QStringLiteral("INSERT INTO folders (path) VALUES (?) ON CONFLICT (path) DO NOTHING"));
    q.addBindValue(folder);
    if (!exec(q))
        return 0;
    q.prepare(QStringLiteral("SELECT id FROM folders WHERE path = ?"));
    q.addBindValue(folder);
    if (!exec(q) || !q.next())
        return 0;
    return q.value(0).toLongLong();
}

QStringList IndexDatabase::folders() const
{
    QSqlQuery q(m_db);
    QStringList out;
    if (q.exec(QStringLiteral("SELECT path FROM folders ORDER BY path"))) {
        while (q.next())
            out.append(q.value(0).toString());
    }
    return out;
}

bool IndexDatabase::removeFolder(const QString &folder)
{
    Transaction t(m_db);
    QSqlQuery q(m_db);
    q.prepare(QStringLiteral("SELECT f.id FROM files f JOIN folders d ON d.id = f.folder_id WHERE d.path = ?"));
    q.addBindValue(folder);
    if (!t.isActive() || !exec(q))
        return false;
    QList<qint64> ids;
    while (q.next())
        ids.append(q.value(0).toLongLong());
    for (qint64 id : std::as_const(ids)) {
        if (!deleteChunks(id))
            return false;
    }
    q.prepare(QStringLiteral("DELETE FROM folders WHERE path = ?")); // files follow (ON DELETE CASCADE)
    q.addBindValue(folder);
    return exec(q) && t.commit();
}

QHash<QString, IndexDatabase::FileRow> IndexDatabase::fileRows(qint64 folderId) const
{
    QHash<QString, FileRow> rows;
    QSqlQuery q(m_db);
    q.setForwardOnly(true);
    q.prepare(QStringLiteral("SELECT path, id, size, mtime, hash, status FROM files WHERE folder_id = ?"));
    q.addBindValue(folderId);
    if (!exec(q))
        return rows;
    while (q.next()) {
        rows.insert(q.value(0).toString(), {q.value(1).toLongLong(), q.value(2).toLongLong(), q.value(3).toLongLong(),
                                            q.value(4).toByteArray(), q.value(5).toString()});
    }
    return rows;
}

bool IndexDatabase::deleteChunks(qint64 fileId)
{
    QSqlQuery select(m_db);
    select.setForwardOnly(true);
    select.prepare(QStringLiteral("SELECT id, heading, text FROM chunks WHERE file_id = ?"));
    select.addBindValue(fileId);
    if (!exec(select))
        return false;
    // A contentless FTS5 row is deleted by giving FTS5 the very terms it indexed.
    QSqlQuery remove(m_db);
    remove.prepare(
        QStringLiteral("INSERT INTO chunk_fts (chunk_fts, rowid, heading, body) VALUES ('delete', ?, ?, ?)"));
    while (select.next()) {
        remove.bindValue(0, select.value(0));
        remove.bindValue(1, indexedText(select.value(1).toString(), m_mode));
        remove.bindValue(2, indexedText(select.value(2).toString(), m_mode));
        if (!exec(remove))
            return false;
    }
    QSqlQuery q(m_db);
    q.prepare(QStringLiteral("DELETE FROM chunks WHERE file_id = ?"));
    q.addBindValue(fileId);
    return exec(q);
}

qint64 IndexDatabase::upsertFile(qint64 folderId, const QString &path, qint64 size, qint64 mtime,
                                 const QByteArray &hash, const QString &status, const QByteArray &encoding)
{
    QSqlQuery q(m_db);
    q.prepare(QStringLiteral("INSERT INTO files (folder_id, path, size, mtime, hash, status, encoding)"
                             " VALUES (?, ?, ?, ?, ?, ?, ?)"
                             " ON CONFLICT (path) DO UPDATE SET folder_id = excluded.folder_id, size = excluded.size,"
                             " mtime = excluded.mtime, hash = excluded.hash, status = excluded.status,"
                             " encoding = excluded.encoding, chunk_count = 0"
                             " RETURNING id"));
    q.addBindValue(folderId);
    q.addBindValue(path);
    q.addBindValue(size);
    q.addBindValue(mtime);
    // Bound as '' not NULL: the columns are NOT NULL and a skipped file has neither.
    q.addBindValue(QString::fromLatin1(hash.isNull() ? QByteArray("") : hash));
    q.addBindValue(status);
    q.addBindValue(QString::fromLatin1(encoding.isNull() ? QByteArray("") : encoding));
    if (!exec(q) || !q.next())
        return 0;
    const qint64 id = q.value(0).toLongLong();
    q.finish();
    return id;
}

bool IndexDatabase::writeFile(qint64 folderId, const QString &path, qint64 size, qint64 mtime, const QByteArray &hash,
                              const QByteArray &encoding, const QList<ChunkText> &chunks)
{
    Transaction t(m_db);
    if (!t.isActive())
        return false;
    const qint64 id = upsertFile(folderId, path, size, mtime, hash, QStringLiteral("indexed"), encoding);
    if (id == 0 || !deleteChunks(id))
        return false;
    QSqlQuery insert(m_db);
    insert.prepare(QStringLiteral(
        "INSERT INTO chunks (file_id, heading, start_pos, end_pos, page, text) VALUES (?, ?, ?, ?, ?, ?) RETURNING id"));
    QSqlQuery fts(m_db);
    fts.prepare(QStringLiteral("INSERT INTO chunk_fts (rowid, heading, body) VALUES (?, ?, ?)"));
    for (const ChunkText &c : chunks) {
        insert.bindValue(0, id);
        insert.bindValue(1, c.chunk.headingTrail.isNull() ? QStringLiteral("") : c.chunk.headingTrail); // NOT NULL
        insert.bindValue(2, qint64(c.chunk.start));
        insert.bindValue(3, qint64(c.chunk.end));
        insert.bindValue(4, c.chunk.page);
        insert.bindValue(5, c.text);
        if (!exec(insert) || !insert.next())
            return false;
        const qint64 chunkId = insert.value(0).toLongLong();
        insert.finish();
        fts.bindValue(0, chunkId);
        fts.bindValue(1, indexedText(c.chunk.headingTrail, m_mode));
        fts.bindValue(2, indexedText(c.text, m_mode));
        if (!exec(fts))
            return false;
    }
    QSqlQuery count(m_db);
    count.prepare(QStringLiteral("UPDATE files SET chunk_count = ? WHERE id = ?"));
    count.addBindValue(qint64(chunks.size()));
    count.addBindValue(id);
    return exec(count) && t.commit();
}

bool IndexDatabase::writeSkipped(qint64 folderId, const QString &path, qint64 size, qint64 mtime, SkipReason reason)
{
    Transaction t(m_db);
    if (!t.isActive())
        return false;
    const qint64 id = upsertFile(folderId, path, size, mtime, {}, QString::fromLatin1(skipReasonName(reason)), {});
    return id != 0 && deleteChunks(id) && t.commit();
}

bool IndexDatabase::touchFile(qint64 fileId, qint64 mtime)
{
    QSqlQuery q(m_db);
    q.prepare(QStringLiteral("UPDATE files SET mtime = ? WHERE id = ?"));
    q.addBindValue(mtime);
    q.addBindValue(fileId);
    return exec(q);
}

bool IndexDatabase::removeFile(qint64 fileId)
{
    Transaction t(m_db);
    if (!t.isActive() || !deleteChunks(fileId))
        return false;
    QSqlQuery q(m_db);
    q.prepare(QStringLiteral("DELETE FROM files WHERE id = ?"));
    q.addBindValue(fileId);
    return exec(q) && t.commit();
}

void IndexDatabase::optimize()
{
    QSqlQuery q(m_db);
    q.prepare(QStringLiteral("INSERT INTO chunk_fts (chunk_fts) VALUES ('optimize')"));
    exec(q);
    // Moves the WAL into the file, so its size is the index's size and readers start from it.
    q.prepare(QStringLiteral("PRAGMA wal_checkpoint(TRUNCATE)"));
    exec(q);
}

QStringList IndexDatabase::selectiveTerms(const QStringList &terms) const
{
    if (terms.isEmpty())
        return terms;
    QSqlQuery q(m_db);
    q.setForwardOnly(true);
    if (m_chunkCount < 0) {
        if (!q.exec(QStringLiteral("SELECT count(*) FROM chunks")) || !q.next())
            return terms;
        m_chunkCount = q.value(0).toLongLong();
    }
    // How many passages hold each term, from the index's own vocabulary. The index holds what
    // the tokenizer made of a word, and porter's stem of an English word is nearly always one of
    // its prefixes ("calibration" → "calibr"): a word not there as is takes the frequency of its
    // longest prefix that is.
    QStringList lookups;
    for (const QString &term : terms) {
        lookups.append(term);
        if (m_mode == Tokenization::Bigram && term.at(0).unicode() < 0x80) {
            for (qsizetype n = term.size() - 1; n >= 3; --n)
                lookups.append(term.first(n));
        }
    }
    QStringList placeholders;
    for (qsizetype i = 0; i < lookups.size(); ++i)
        placeholders.append(QStringLiteral("?"));
    q.prepare(QStringLiteral("SELECT term, doc FROM temp.chunk_vocab WHERE term IN (%1)").arg(placeholders.join(u',')));
    for (const QString &term : std::as_const(lookups))
        q.addBindValue(term);
    if (!exec(q))
        return terms;
    QHash<QString, qint64> vocabulary;
    while (q.next())
        vocabulary.insert(q.value(0).toString(), q.value(1).toLongLong());
    QHash<QString, qint64> frequency;
    for (const QString &term : terms) {
        for (qsizetype n = term.size(); n >= 1; --n) {
            const auto it = vocabulary.constFind(term.first(n));
            if (it != vocabulary.cend()) {
                frequency.insert(term, *it);
                break;
            }
            if (m_mode != Tokenization::Bigram || term.at(0).unicode() >= 0x80 || n <= 3)
                break;
        }
    }

    struct Ranked {
        QString term;
        qint64 frequency;
    };
    QList<Ranked> ranked;
    for (const QString &term : terms) {
        const auto it = frequency.constFind(term);
        if (it != frequency.cend())
            ranked.append({term, *it});
        else if (term.at(0).unicode() < 0x2e80 && !(m_mode == Tokenization::Trigram && term.size() == 3))
            ranked.append({term, 0}); // a word the index may hold in another form
        // A term the index does not have cannot match: left out.
    }
    std::stable_sort(ranked.begin(), ranked.end(),
                     [](const Ranked &a, const Ranked &b) { return a.frequency < b.frequency; });
    // A term in more than one passage in twenty adds almost nothing to BM25 (its IDF is near
    // zero) but makes FTS5 score every passage that has it: the price of a query is the length
    // of its terms' posting lists. The two rarest terms stay whatever their frequency, so a
    // question of common words still finds something.
    const qint64 common = std::max<qint64>(MinCommonFrequency, m_chunkCount / 20);
    QStringList out;
    for (const Ranked &r : std::as_const(ranked)) {
        if (out.size() >= MaxQueryTerms || (out.size() >= 2 && r.frequency > common))
            break;
        out.append(r.term);
    }
    return out;
}

std::expected<QList<Passage>, QString> IndexDatabase::search(const QString &question, int k) const
{
    const QStringList terms = queryTerms(question, m_mode);
    const QString match = matchExpression(m_selectTerms ? selectiveTerms(terms) : terms);
    if (match.isEmpty() || k <= 0)
        return QList<Passage>{};
    QSqlQuery q(m_db);
    q.setForwardOnly(true);
    // The ranked ids first (FTS5 sorts by BM25 with a LIMIT cheaply), then their rows. BM25's
    // weights: a heading term counts one and a half times a body term.
    q.prepare(QStringLiteral("SELECT f.path, c.heading, c.start_pos, c.end_pos, c.text, r.score, c.page FROM"
                             " (SELECT rowid, bm25(chunk_fts, 1.5, 1.0) AS score FROM chunk_fts"
                             "  WHERE chunk_fts MATCH ? ORDER BY score LIMIT ?) r"
                             " JOIN chunks c ON c.id = r.rowid JOIN files f ON f.id = c.file_id ORDER BY r.score"));
    q.addBindValue(match);
    q.addBindValue(k);
    if (!q.exec())
        return std::unexpected(
            QCoreApplication::translate("Knowledge::IndexDatabase", "The knowledge index cannot be searched: %1")
                .arg(errorDetail(q.lastError())));
    QList<Passage> out;
    while (q.next()) {
        out.append({q.value(0).toString(), q.value(1).toString(), qsizetype(q.value(2).toLongLong()),
                    qsizetype(q.value(3).toLongLong()), q.value(4).toString(), q.value(6).toInt(),
                    -q.value(5).toDouble()});
    }
    return out;
}

QList<FolderStatus> IndexDatabase::folderStatuses() const
{
    QList<FolderStatus> out;
    QSqlQuery q(m_db);
    if (!q.exec(
            QStringLiteral("SELECT d.path, COALESCE(SUM(f.status = 'indexed'), 0),"
                           " COALESCE(SUM(f.chunk_count), 0), COALESCE(SUM(f.status <> 'indexed'), 0)"
                           " FROM folders d LEFT JOIN files f ON f.folder_id = d.id GROUP BY d.id ORDER BY d.path")))
        return out;
    while (q.next())
        out.append({q.value(0).toString(), q.value(1).toInt(), q.value(2).toInt(), q.value(3).toInt()});
    return out;
}

QList<SkippedFile> IndexDatabase::skippedFiles() const
{
    QList<SkippedFile> out;
    QSqlQuery q(m_db);
    if (!q.exec(QStringLiteral("SELECT path, status FROM files WHERE status <> 'indexed' ORDER BY path")))
        return out;
    while (q.next()) {
        SkippedFile s{q.value(0).toString(), SkipReason::Unreadable};
        skipReasonFromName(q.value(1).toString(), &s.reason);
        out.append(s);
    }
    return out;
}

} // namespace Knowledge
