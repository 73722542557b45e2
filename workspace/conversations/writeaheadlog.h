#pragma once

#include <QString>

namespace Gui {

// What a SQLite database in WAL mode held, uncheckpointed, when its last writer stopped: read
// from its wal-index (the "-shm" file) before SQLite opens it, so that commits lost with a
// missing or damaged "-wal" file can be noticed instead of silently forgotten
// (docs/reliability.md, "Damaged files and crashes").
//
// SQLite deletes both files when the last connection closes cleanly. After a crash, a kill or a
// power cut they stay: the wal-index's header says how many frames of the log were committed
// (mxFrame, https://www.sqlite.org/walformat.html, "The WAL-Index Header"). When SQLite then
// recovers the log it keeps only the frames that still check out; fewer than that header said
// means committed writes were lost. Pure file reading; any thread.
class WriteAheadLog
{
public:
    struct Inspection {
        // Committed frames the log held at the last write; 0 when nothing was pending (a clean
        // close, a checkpoint since, or no readable wal-index).
        qint64 pendingFrames = 0;
        bool logExists = false;
        qint64 logBytes = 0;
        int pageSize = 0;
        // The log is shorter than those frames need: it was cut.
        bool logShort() const;
    };

    // `database` is the main file's path; its "-wal" and "-shm" sit beside it.
    static Inspection inspect(const QString &database);
};

} // namespace Gui
