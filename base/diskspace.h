#pragma once

#include <QString>

namespace Base {

// Why a write may have failed that the error itself does not say: SQLite reports a full disk
// as "disk I/O error" (or, for a commit, sometimes with no text at all), and QSaveFile as the
// failed rename. One sentence naming the folder and what is free when the disk holding `path`
// has less than `threshold` bytes left, else empty. Any thread.
QString diskFullNote(const QString &path, qint64 threshold = 8 * 1024 * 1024);

} // namespace Base
