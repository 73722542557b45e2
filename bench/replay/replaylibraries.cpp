#include "replaylibraries.h"

#include "librarycorpus.h"

#include "knowledge/library.h"

#include <QCoreApplication>
#include <QEventLoop>
#include <QHash>
#include <QTemporaryDir>
#include <QTimer>

#include <cstdio>
#include <memory>

namespace Bench::ReplayLibraries {

namespace {

// Indexing 1,000 notes takes a few seconds; 10,000 about a minute on a loaded machine.
constexpr int IndexTimeoutMs = 15 * 60 * 1000;

struct Built {
    QTemporaryDir dir{QDir::tempPath() + QStringLiteral("/headstart-replay-library-XXXXXX")};
    std::unique_ptr<Knowledge::Library> library;
};

using Key = QPair<int, quint64>;

QHash<Key, Built *> &built()
{
    static QHash<Key, Built *> libraries;
    return libraries;
}

// At the application's end, before its event dispatcher goes: each Library stops its thread.
void removeAll()
{
    qDeleteAll(built());
    built().clear();
}

std::optional<QString> build(int docs, quint64 seed)
{
    const Key key{docs, seed};
    if (built().contains(key))
        return std::nullopt;
    if (built().isEmpty())
        qAddPostRoutine(removeAll);
    auto entry = std::make_unique<Built>();
    if (!entry->dir.isValid())
        return QStringLiteral("no temporary folder for the library: %1").arg(entry->dir.errorString());
    const QString folder = entry->dir.filePath(QStringLiteral("notes"));
    qint64 bytes = 0;
    LibraryCorpus(seed).write(folder, docs, ReplayLibraryPlanted, &bytes);
    Knowledge::Library::Options options;
    options.databasePath = entry->dir.filePath(QStringLiteral("index.sqlite"));
    entry->library = std::make_unique<Knowledge::Library>(options);

    QEventLoop loop;
    QString failure;
    bool finished = false;
    QObject::connect(entry->library.get(), &Knowledge::Library::indexingFinished, &loop, [&] {
        finished = true;
        loop.quit();
    });
    QObject::connect(entry->library.get(), &Knowledge::Library::failed, &loop, [&](const QString &message) {
        failure = message;
        loop.quit();
    });
    QTimer::singleShot(IndexTimeoutMs, &loop, &QEventLoop::quit);
    entry->library->setFolders({folder});
    loop.exec();
    if (!finished) {
        return QStringLiteral("the library of %1 notes (seed %2) was not indexed: %3")
            .arg(docs)
            .arg(seed)
            .arg(failure.isEmpty() ? QStringLiteral("timed out") : failure);
    }
    std::fprintf(stderr, "headstart-cli bench: library of %d notes (seed %llu, %.1f MB) indexed\n", docs,
                 static_cast<unsigned long long>(seed), double(bytes) / 1e6);
    built().insert(key, entry.release());
    return std::nullopt;
}

} // namespace

std::optional<QString> prepare(const Trace &trace)
{
    for (const TraceEvent &event : trace.events) {
        if (event.event != QLatin1String("open_library"))
            continue;
        const int docs = event.fields.value(QStringLiteral("docs")).toInt();
        const auto seed = quint64(event.fields.value(QStringLiteral("seed")).toInteger());
        if (auto error = build(docs, seed))
            return QStringLiteral("%1:%2: %3").arg(trace.name).arg(event.line).arg(*error);
    }
    return std::nullopt;
}

Knowledge::Library *find(int docs, quint64 seed)
{
    Built *entry = built().value(Key{docs, seed});
    return entry ? entry->library.get() : nullptr;
}

} // namespace Bench::ReplayLibraries
