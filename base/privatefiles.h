#pragma once

#include <QString>

namespace Base {

// Everything Headstart writes about the user (conversations, unsaved text, settings, logs) is
// for the user alone: folders 0700, files 0600. Set explicitly, because the usual umask (022)
// makes new files readable by every local account. POSIX modes; elsewhere these are no-ops
// that report success.
namespace PrivateFiles {

// Tightening only ever takes permissions away: whatever the group and others may do goes, what
// the owner may do stays as it is. A folder the user made read-only (0500) stays 0500.

// Creates `path` and its missing parents; each folder it creates is 0700 from the start, and
// `path` itself, if it existed, is tightened. False when the folder cannot be created.
bool makeDirectory(const QString &path);
// Creates the empty file `path` 0600 from its first byte (open(2) with that mode) unless it
// exists, and tightens it if it does: a file that exists before SQLite or QSaveFile opens it
// keeps that mode. False when the file cannot be created or changed.
bool makeFile(const QString &path);
// Tightens an existing file; false if it does not exist or cannot be changed.
bool restrict(const QString &path);
// A SQLite database at `path` private from its first byte: the main file made (makeFile), and
// its -wal, -shm and -journal tightened where they exist (SQLite gives new ones the main
// file's mode). For every store: conversations, the response cache, the library's index.
bool makeDatabaseFile(const QString &path);
// Tightens what an earlier version left readable: `directory` and every folder and file below
// it. Symbolic links are not followed. Missing folders are fine.
void tighten(const QString &directory);

} // namespace PrivateFiles

} // namespace Base
