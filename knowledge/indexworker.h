#pragma once

#include "indexdatabase.h"
#include "types.h"

#include <QAtomicInteger>
#include <QObject>
#include <QSet>
#include <QStringList>
#include <QTimer>

#include <memory>

class QFileSystemWatcher;

namespace Knowledge {

// The indexer: lives on Library's worker thread with its own connection to the index. A pass
// lists every folder's files, then for each compares size and mtime with the index, reads and
// hashes the changed ones, and writes each file in its own transaction. A QFileSystemWatcher on
// the folders' directories starts a pass of the folder that changed, after a short quiet time.
// Only Library constructs it; its slots are called through queued connections.
class IndexWorker : public QObject
{
    Q_OBJECT

public:
    struct Options {
        QString databasePath;
        Tokenization tokenization = Tokenization::Bigram;
        qint64 maxFileBytes = 0;
        int maxChunkTokens = 0;
    };
    // `generation` is Library's count of setFolders() calls: a pass stops between two files when
    // it moves, so a removed folder is not indexed to the end first. `stop` ends a pass likewise.
    IndexWorker(Options options, const QAtomicInteger<int> *generation, const QAtomicInteger<int> *stop);
    ~IndexWorker() override;

    void open();
    void setFolders(const QStringList &folders, int generation);
    void rescan();

signals:
    void opened(const QString &repairMessage);
    void openFailed(const QString &message);
    void passStarted();
    void progress(int done, int total);
    void passFinished();
    void contentsChanged();

private:
    struct Work {
        qint64 folderId;
        QStringList files;
        QHash<QString, IndexDatabase::FileRow> rows;
    };
    static constexpr qsizetype MaxWatches = 20000;

    void runPass(const QStringList &folders);
    bool interrupted(int generation) const;
    // True when the index changed (passages or a skip reason written).
    bool indexFile(qint64 folderId, const QString &path, const IndexDatabase::FileRow *row);
    bool writeSkipped(qint64 folderId, const QString &path, qint64 size, qint64 mtime, SkipReason reason,
                      const IndexDatabase::FileRow *row);
    void watchPaths(const QStringList &directories, const QList<Work> &work);
    void onPathChanged(const QString &path);

    Options m_options;
    const QAtomicInteger<int> *m_generation;
    const QAtomicInteger<int> *m_stop;
    std::unique_ptr<IndexDatabase> m_db;
    QStringList m_folders;
    QFileSystemWatcher *m_watcher = nullptr; // child, made on the worker thread in open()
    QTimer m_quiet;                          // coalesces a burst of directory changes into one pass
    QSet<QString> m_changedFolders;
    QSet<QString> m_watched;
    bool m_watchLimitLogged = false;
};

} // namespace Knowledge
