#include "indexworker.h"

#include "chunker.h"
#include "filereader.h"
#include "log.h"
#include "pdfreader.h"

#include <spdlog/spdlog.h>

#include <QDateTime>
#include <QDir>
#include <QDirIterator>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QFileSystemWatcher>

namespace Knowledge {

namespace {

// Heavy folders that hold generated files, not documents; hidden ones (.git) are left out too.
bool isSkippedDirectory(const QString &name)
{
    return name == QLatin1String("node_modules") || name == QLatin1String("__pycache__");
}

struct Listing {
    QStringList files;
    QStringList directories;
};

Listing list(const QString &folder)
{
    Listing out;
    out.directories.append(folder);
    QStringList pending{folder};
    // Breadth first by hand: QDirIterator cannot prune a subtree it has started into. Symbolic
    // links are not followed, so a link loop cannot run forever.
    while (!pending.isEmpty()) {
        const QString dir = pending.takeFirst();
        QDirIterator it(dir, QDir::Files | QDir::Dirs | QDir::NoDotAndDotDot | QDir::NoSymLinks);
        while (it.hasNext()) {
            const QString path = it.next();
            const QFileInfo info = it.fileInfo();
            if (info.isDir()) {
                if (!isSkippedDirectory(info.fileName())) {
                    pending.append(path);
                    out.directories.append(path);
                }
            } else if (fileTypeOf(path)) {
                out.files.append(path);
            }
        }
    }
    out.files.sort();
    return out;
}

qint64 mtimeOf(const QFileInfo &info)
{
    return info.lastModified().toMSecsSinceEpoch();
}

} // namespace

IndexWorker::IndexWorker(Options options, const QAtomicInteger<int> *generation, const QAtomicInteger<int> *stop)
    : m_options(std::move(options))
    , m_generation(generation)
    , m_stop(stop)
    , m_quiet(this)
{
    m_quiet.setSingleShot(true);
    m_quiet.setInterval(300);
    connect(&m_quiet, &QTimer::timeout, this, [this] {
        QStringList folders;
        for (const QString &f : std::as_const(m_folders))
            if (m_changedFolders.contains(f))
                folders.append(f);
        m_changedFolders.clear();
        runPass(folders);
    });
}

IndexWorker::~IndexWorker() = default;

void IndexWorker::open()
{
    QString repair;
    auto db = IndexDatabase::open(m_options.databasePath,
                                  QStringLiteral("knowledge-writer-%1").arg(quintptr(this), 0, 16),
                                  m_options.tokenization, IndexDatabase::Role::Writer, &repair);
    if (!db) {
        log().error("index cannot be opened");
        emit openFailed(db.error());
        return;
    }
    m_db = std::move(*db);
    m_watcher = new QFileSystemWatcher(this);
    connect(m_watcher, &QFileSystemWatcher::directoryChanged, this, &IndexWorker::onPathChanged);
    connect(m_watcher, &QFileSystemWatcher::fileChanged, this, &IndexWorker::onPathChanged);
    emit opened(repair);
}

void IndexWorker::setFolders(const QStringList &folders, int generation)
{
    if (!m_db || generation != m_generation->loadAcquire())
        return; // a later call is queued behind this one and says what the folders are
    m_folders = folders;
    bool removed = false;
    for (const QString &known : m_db->folders()) {
        if (!folders.contains(known)) {
            m_db->removeFolder(known);
            removed = true;
        }
    }
    if (removed)
        emit contentsChanged();
    runPass(m_folders);
}

void IndexWorker::rescan()
{
    if (m_db)
        runPass(m_folders);
}

bool IndexWorker::interrupted(int generation) const
{
    return m_stop->loadRelaxed() != 0 || m_generation->loadAcquire() != generation;
}

void IndexWorker::runPass(const QStringList &folders)
{
    if (!m_db || folders.isEmpty())
        return;
    const int generation = m_generation->loadAcquire();
    emit passStarted();
    QElapsedTimer timer;
    timer.start();

    QList<Work> work;
    int total = 0;
    QStringList watch;
    for (const QString &folder : folders) {
        const qint64 id = m_db->ensureFolder(folder);
        if (id == 0)
            continue;
        Listing listing = list(folder);
        total += int(listing.files.size());
        watch += listing.directories;
        work.append({id, std::move(listing.files), m_db->fileRows(id)});
    }
    watchPaths(watch, work);

    int done = 0;
    int written = 0;
    QElapsedTimer sinceChange;
    sinceChange.start();
    QElapsedTimer sinceProgress;
    sinceProgress.start();
    emit progress(0, total);
    for (Work &w : work) {
        for (const QString &path : std::as_const(w.files)) {
            if (interrupted(generation)) {
                emit passFinished();
                return;
            }
            const auto row = w.rows.constFind(path);
            const IndexDatabase::FileRow *known = row == w.rows.cend() ? nullptr : &row.value();
            const QFileInfo info(path);
            // A file that could not be read is tried again: a permission fixed with chmod moves
            // neither its size nor its mtime.
            const bool retry = known
                               && (known->status == QLatin1String(skipReasonName(SkipReason::Unreadable))
                                   || known->status == QLatin1String(skipReasonName(SkipReason::Vanished)));
            if (!known || retry || known->size != info.size() || known->mtime != mtimeOf(info)) {
                if (indexFile(w.folderId, path, known))
                    ++written;
            }
            if (row != w.rows.cend())
                w.rows.erase(row);
            // At most ten reports a second: the GUI repaints a bar, not ten thousand times.
            if (++done == total || sinceProgress.elapsed() >= 100) {
                emit progress(done, total);
                sinceProgress.restart();
            }
            if (written > 0 && sinceChange.elapsed() > 500) {
                emit contentsChanged();
                sinceChange.restart();
            }
        }
        // What the index has and the folder no longer does.
        for (auto it = w.rows.cbegin(); it != w.rows.cend(); ++it) {
            m_db->removeFile(it->id);
            ++written;
        }
    }
    if (written > 200)
        m_db->optimize();
    log().info("index: pass over {} files, {} written, {} ms", total, written, timer.elapsed());
    if (written > 0)
        emit contentsChanged();
    emit passFinished();
}

bool IndexWorker::indexFile(qint64 folderId, const QString &path, const IndexDatabase::FileRow *row)
{
    const QFileInfo info(path);
    const qint64 mtime = mtimeOf(info);
    if (fileTypeOf(path) == FileType::Pdf) {
        auto pdf = readPdfFile(path, DefaultMaxPdfBytes, m_options.maxFileBytes);
        if (!pdf)
            return writeSkipped(folderId, path, info.size(), mtime, pdf.error(), row);
        if (row && row->hash == pdf->hash && row->status == QLatin1String("indexed")) {
            m_db->touchFile(row->id, mtime);
            return false;
        }
        const QString text = joinPages(pdf->pages);
        QList<IndexDatabase::ChunkText> chunks;
        for (const Chunk &c : chunkPages(pdf->pages, m_options.maxChunkTokens))
            chunks.append({c, text.sliced(c.start, c.end - c.start)});
        return m_db->writeFile(folderId, path, pdf->size, mtime, pdf->hash, "PDF", chunks);
    }
    auto read = readTextFile(path, m_options.maxFileBytes);
    if (!read)
        return writeSkipped(folderId, path, info.size(), mtime, read.error(), row);
    if (row && row->hash == read->hash && row->status == QLatin1String("indexed")) {
        m_db->touchFile(row->id, mtime); // touched, not changed
        return false;
    }
    QList<IndexDatabase::ChunkText> chunks;
    for (const Chunk &c : chunkText(read->text, textKindOf(path), m_options.maxChunkTokens))
        chunks.append({c, read->text.sliced(c.start, c.end - c.start)});
    return m_db->writeFile(folderId, path, read->size, mtime, read->hash, read->encoding, chunks);
}

bool IndexWorker::writeSkipped(qint64 folderId, const QString &path, qint64 size, qint64 mtime, SkipReason reason,
                               const IndexDatabase::FileRow *row)
{
    // Still skipped for the same reason: nothing to write, nothing changed.
    if (row && row->status == QLatin1String(skipReasonName(reason)) && row->size == size && row->mtime == mtime)
        return false;
    return m_db->writeSkipped(folderId, path, size, mtime, reason);
}

void IndexWorker::watchPaths(const QStringList &directories, const QList<Work> &work)
{
    // Directories report files created, deleted and renamed into place (how most editors save);
    // only a watch on the file itself reports a write in place. Files are watched up to a cap,
    // so a huge library does not use up the user's inotify watches, which other programs share.
    QSet<QString> wanted(directories.cbegin(), directories.cend());
    for (const Work &w : work) {
        for (const QString &file : w.files) {
            if (wanted.size() >= MaxWatches)
                break;
            wanted.insert(file);
        }
    }
    QStringList gone;
    for (const QString &path : std::as_const(m_watched))
        if (!wanted.contains(path))
            gone.append(path);
    QStringList added;
    for (const QString &path : std::as_const(wanted))
        if (!m_watched.contains(path))
            added.append(path);
    if (!gone.isEmpty())
        m_watcher->removePaths(gone);
    const QStringList failed = added.isEmpty() ? QStringList() : m_watcher->addPaths(added);
    if (!failed.isEmpty() && !m_watchLimitLogged) {
        // Changes there go unseen until the next pass; the next pass is any other change or rescan().
        log().warn("index: {} paths cannot be watched (inotify limit?)", failed.size());
        m_watchLimitLogged = true;
    }
    m_watched = wanted;
    for (const QString &path : failed)
        m_watched.remove(path);
}

void IndexWorker::onPathChanged(const QString &path)
{
    for (const QString &folder : std::as_const(m_folders)) {
        if (path == folder || path.startsWith(folder + u'/'))
            m_changedFolders.insert(folder);
    }
    m_quiet.start();
}

} // namespace Knowledge
