#pragma once

#include "chunker.h"
#include "types.h"

#include <QHash>
#include <QSqlDatabase>
#include <QString>
#include <QStringList>

#include <expected>
#include <memory>

namespace Knowledge {

// One connection to the index file (SQLite, WAL): folders, files with their size, mtime, hash
// and status, chunks, and a contentless FTS5 table over the chunks ranked by BM25. A connection
// belongs to the thread that opened it: the indexer's worker writes through one, the library
// reads through another on the GUI thread; WAL lets the reader run while the writer commits.
// Each file is written in one transaction, so a kill -9 leaves every file either as it was or
// as it is now.
class IndexDatabase
{
public:
    enum class Role {
        Writer, // checks the file, replaces a damaged one, creates the schema
        Reader, // opens what the writer prepared
    };

    // `repairMessage` is set (translated) when a damaged file was replaced by an empty index, or
    // an index of another tokenization or schema was discarded. The error is translated too.
    static std::expected<std::unique_ptr<IndexDatabase>, QString> open(const QString &path, const QString &connection,
                                                                       Tokenization mode, Role role,
                                                                       QString *repairMessage = nullptr);
    ~IndexDatabase();
    IndexDatabase(const IndexDatabase &) = delete;
    IndexDatabase &operator=(const IndexDatabase &) = delete;

    Tokenization tokenization() const { return m_mode; }

    // What the index knows of a file, for the size/mtime/hash comparison.
    struct FileRow {
        qint64 id = 0;
        qint64 size = 0;
        qint64 mtime = 0;
        QByteArray hash;
        QString status; // "indexed" or a skipReasonName()
    };

    // Writer side. Each returns false (and logs) when SQLite fails; nothing half-written stays.
    qint64 ensureFolder(const QString &folder); // its id, 0 on failure
    QStringList folders() const;
    bool removeFolder(const QString &folder);
    QHash<QString, FileRow> fileRows(qint64 folderId) const;
    struct ChunkText {
        Chunk chunk;
        QString text;
    };
    bool writeFile(qint64 folderId, const QString &path, qint64 size, qint64 mtime, const QByteArray &hash,
                   const QByteArray &encoding, const QList<ChunkText> &chunks);
    bool writeSkipped(qint64 folderId, const QString &path, qint64 size, qint64 mtime, SkipReason reason);
    bool touchFile(qint64 fileId, qint64 mtime); // same bytes, new mtime
    bool removeFile(qint64 fileId);
    // Merges the FTS5 segments into one after a large batch: faster queries, a smaller file.
    void optimize();

    // Reader side.
    std::expected<QList<Passage>, QString> search(const QString &question, int k) const;
    QList<FolderStatus> folderStatuses() const;
    QList<SkippedFile> skippedFiles() const;
    // The passage count search() weighs term frequencies against is read again on next use.
    void forgetStatistics() { m_chunkCount = -1; }
    // Off: every term of the question is searched (the benchmark's comparison).
    void setSelectTerms(bool on) { m_selectTerms = on; }

private:
    static constexpr qsizetype MaxQueryTerms = 12;
    static constexpr qint64 MinCommonFrequency = 200;

    // The terms worth asking FTS5 for, rarest first (see the .cpp).
    QStringList selectiveTerms(const QStringList &terms) const;
    IndexDatabase(QSqlDatabase db, Tokenization mode);
    bool deleteChunks(qint64 fileId);
    qint64 upsertFile(qint64 folderId, const QString &path, qint64 size, qint64 mtime, const QByteArray &hash,
                      const QString &status, const QByteArray &encoding);

    QSqlDatabase m_db;
    QString m_connection;
    Tokenization m_mode;
    mutable qint64 m_chunkCount = -1;
    bool m_selectTerms = true;
};

} // namespace Knowledge
