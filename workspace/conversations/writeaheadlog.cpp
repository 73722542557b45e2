#include "workspace/conversations/writeaheadlog.h"

#include <QFile>
#include <QFileInfo>

#include <cstring>

namespace Gui {

namespace {

// The wal-index header, twice at the start of the -shm file, in the writer's byte order (it is
// shared memory, never moved between machines).
struct IndexHeader {
    quint32 version;
    quint32 unused;
    quint32 change;
    quint8 isInit;
    quint8 bigEndianChecksum;
    quint16 pageSize; // 1 means 65536
    quint32 maxFrame;
    quint32 pages;
    quint32 frameChecksum[2];
    quint32 salt[2];
    quint32 checksum[2];
};
static_assert(sizeof(IndexHeader) == 48);

constexpr qint64 LogHeaderBytes = 32;
constexpr qint64 FrameHeaderBytes = 24;

} // namespace

bool WriteAheadLog::Inspection::logShort() const
{
    return pendingFrames > 0 && logBytes < LogHeaderBytes + pendingFrames * (FrameHeaderBytes + pageSize);
}

WriteAheadLog::Inspection WriteAheadLog::inspect(const QString &database)
{
    Inspection out;
    const QFileInfo log(database + QStringLiteral("-wal"));
    out.logExists = log.exists();
    out.logBytes = out.logExists ? log.size() : 0;
    QFile index(database + QStringLiteral("-shm"));
    if (!index.open(QIODevice::ReadOnly))
        return out;
    const QByteArray head = index.read(2 * qint64(sizeof(IndexHeader)));
    if (head.size() < 2 * qsizetype(sizeof(IndexHeader)))
        return out;
    // The two copies differ only while a writer is changing them: then neither is to be trusted.
    if (std::memcmp(head.constData(), head.constData() + sizeof(IndexHeader), sizeof(IndexHeader)) != 0)
        return out;
    IndexHeader header;
    std::memcpy(&header, head.constData(), sizeof(header));
    if (!header.isInit || header.version != 3007000)
        return out;
    out.pageSize = header.pageSize == 1 ? 65536 : header.pageSize;
    if (out.pageSize < 512)
        return out;
    out.pendingFrames = header.maxFrame;
    return out;
}

} // namespace Gui
