#include "library.h"

#include "indexdatabase.h"
#include "indexworker.h"
#include "searchterms.h"

#include <QDir>
#include <QStandardPaths>

namespace Knowledge {

namespace {

QStringList withoutNested(QStringList folders)
{
    for (QString &f : folders)
        f = QDir::cleanPath(QDir(f).absolutePath());
    folders.sort();
    folders.removeDuplicates();
    QStringList out;
    for (const QString &f : std::as_const(folders)) {
        // Sorted, so a folder's parent, if listed, is already in out.
        if (out.isEmpty() || !(f == out.last() || f.startsWith(out.last() + u'/')))
            out.append(f);
    }
    return out;
}

} // namespace

QString Library::defaultDatabasePath()
{
    return QStandardPaths::writableLocation(QStandardPaths::AppDataLocation)
           + QStringLiteral("/knowledge/index.sqlite");
}

Library::Library(Options options, QObject *parent)
    : QObject(parent)
    , m_options(std::move(options))
{
    m_thread.setObjectName(QStringLiteral("knowledge-indexer"));
    m_worker = new IndexWorker({m_options.databasePath, m_options.tokenization, m_options.maxFileBytes,
                                m_options.maxChunkTokens},
                               &m_generation, &m_stop);
    m_worker->moveToThread(&m_thread);
    connect(&m_thread, &QThread::finished, m_worker, &QObject::deleteLater);
    connect(m_worker, &IndexWorker::opened, this, &Library::onOpened);
    connect(m_worker, &IndexWorker::openFailed, this, [this](const QString &message) {
        m_error = message;
        emit failed(message);
    });
    connect(m_worker, &IndexWorker::passStarted, this, [this] {
        m_indexing = true;
        emit indexingStarted();
    });
    connect(m_worker, &IndexWorker::progress, this, &Library::progress);
    connect(m_worker, &IndexWorker::passFinished, this, [this] {
        m_indexing = false;
        emit indexingFinished();
    });
    connect(m_worker, &IndexWorker::contentsChanged, this, [this] {
        if (m_reader)
            m_reader->forgetStatistics();
        emit contentsChanged();
    });
    m_thread.start();
    QMetaObject::invokeMethod(m_worker, &IndexWorker::open);
}

Library::~Library()
{
    m_stop.storeRelaxed(1);
    m_thread.quit();
    m_thread.wait();
}

void Library::onOpened(const QString &repairMessage)
{
    auto reader = IndexDatabase::open(m_options.databasePath,
                                      QStringLiteral("knowledge-reader-%1").arg(quintptr(this), 0, 16),
                                      m_options.tokenization, IndexDatabase::Role::Reader);
    if (!reader) {
        m_error = reader.error();
        emit failed(m_error);
        return;
    }
    m_reader = std::move(*reader);
    m_reader->setSelectTerms(m_options.selectTerms);
    if (!repairMessage.isEmpty())
        emit indexRebuilt(repairMessage);
    emit ready();
}

void Library::setFolders(const QStringList &folders)
{
    m_folders = withoutNested(folders);
    const int generation = m_generation.fetchAndAddOrdered(1) + 1;
    QMetaObject::invokeMethod(m_worker, [worker = m_worker, list = m_folders, generation] {
        worker->setFolders(list, generation);
    });
}

void Library::rescan()
{
    QMetaObject::invokeMethod(m_worker, &IndexWorker::rescan);
}

std::expected<QList<Passage>, QString> Library::query(const QString &text, int k) const
{
    if (!m_reader)
        return QList<Passage>{};
    return m_reader->search(text, k);
}

QStringList Library::queryTerms(const QString &text) const
{
    return Knowledge::queryTerms(text, m_options.tokenization);
}

QList<FolderStatus> Library::folderStatuses() const
{
    return m_reader ? m_reader->folderStatuses() : QList<FolderStatus>{};
}

QList<SkippedFile> Library::skippedFiles() const
{
    return m_reader ? m_reader->skippedFiles() : QList<SkippedFile>{};
}

} // namespace Knowledge
