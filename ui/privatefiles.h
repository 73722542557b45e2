#pragma once

#include <QString>

namespace Gui {

// Everything Headstart writes about the user (conversations, unsaved text, settings, logs) is
// for the user alone: folders 0700, files 0600. Set explicitly, because the usual umask (022)
// makes new files readable by every local account. POSIX modes; elsewhere these are no-ops
// that report success.
namespace PrivateFiles {

// Creates `path` and its missing parents; each folder it creates, and `path` itself, is 0700.
// False when the folder cannot be created.
bool makeDirectory(const QString &path);
// Creates the empty file `path` (0600) unless it exists, and makes it 0600 if it does: a file
// that exists before SQLite or QSaveFile opens it keeps that mode (SQLite also gives its -wal
// and -shm the database's mode). False when the file cannot be created or changed.
bool makeFile(const QString &path);
// 0600 on an existing file; false if it does not exist or cannot be changed.
bool restrict(const QString &path);
// Tightens what an earlier version left readable: `directory` and every folder below it 0700,
// every file 0600. Symbolic links are not followed. Missing folders are fine.
void tighten(const QString &directory);

} // namespace PrivateFiles

} // namespace Gui
