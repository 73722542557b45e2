#pragma once

#include "types.h"

#include <QAtomicInteger>
#include <QObject>
#include <QStringList>
#include <QThread>

#include <expected>
#include <memory>

namespace Knowledge {

class IndexDatabase;
class IndexWorker;

// The user's library of folders and its full-text index, for the GUI thread. Indexing runs on a
// worker thread (IndexWorker, with its own connection); query() reads through this object's
// connection on the caller's thread, which must be the one that made the Library. The folder
// list is the caller's to keep (settings): the index is a cache of it, and is rebuilt from it
// when its file is found damaged.
class Library : public QObject
{
    Q_OBJECT

public:
    struct Options {
        QString databasePath; // the index file; defaultDatabasePath() in the app, a temporary one in tests
        Tokenization tokenization = Tokenization::Bigram;
        qint64 maxFileBytes = 5 * 1024 * 1024;
        int maxChunkTokens = 300;
        // Searches only a question's selective terms (docs/knowledge.md); off for comparisons.
        bool selectTerms = true;
    };
    // <AppDataLocation>/knowledge/index.sqlite
    static QString defaultDatabasePath();

    explicit Library(Options options, QObject *parent = nullptr);
    ~Library() override; // stops a pass between two files and waits for it

    // The folders to index, absolute. A folder inside another listed one is dropped (its files
    // are the outer folder's); a folder no longer listed has its rows removed.
    void setFolders(const QStringList &folders);
    QStringList folders() const { return m_folders; }
    // A pass over every folder now, e.g. after changes the file watcher cannot see.
    void rescan();

    bool isReady() const { return m_reader != nullptr; }
    bool isIndexing() const { return m_indexing; }
    QString errorMessage() const { return m_error; }

    // The k best passages for `text` (BM25), from this thread; empty before ready().
    std::expected<QList<Passage>, QString> query(const QString &text, int k = 5) const;
    // What query() searches for in `text`: two texts with the same terms have the same passages
    // (punctuation, case and stop words are no terms). Pure and cheap, no index read.
    QStringList queryTerms(const QString &text) const;
    QList<FolderStatus> folderStatuses() const;
    QList<SkippedFile> skippedFiles() const;

signals:
    void ready();
    // The index file was damaged and was replaced by a new one, which is being filled now.
    void indexRebuilt(const QString &message);
    void failed(const QString &message);
    void indexingStarted();
    void progress(int done, int total);
    void indexingFinished();
    // Files, passages or skipped files changed: re-read folderStatuses(), skippedFiles(), queries.
    void contentsChanged();

private:
    void onOpened(const QString &repairMessage);

    Options m_options;
    QStringList m_folders;
    QString m_error;
    bool m_indexing = false;
    QAtomicInteger<int> m_generation = 0;
    QAtomicInteger<int> m_stop = 0;
    std::unique_ptr<IndexDatabase> m_reader;
    QThread m_thread;
    IndexWorker *m_worker = nullptr; // lives on m_thread, deleted there when it finishes
};

} // namespace Knowledge
