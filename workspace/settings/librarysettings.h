#pragma once

#include <QStringList>

class QSettings;

namespace Gui {

// The library's part of the settings file, for SettingsFile::load() and save(): the key
// "library/folders", a list of absolute folder paths. The index (knowledge/) is a cache of this
// list; the list is what the user chose and survives a damaged index.
// A relative or empty entry, or a repeated one, is dropped with one translated problem; a folder
// that is missing now is kept (a disk not mounted yet), the index lists it with nothing in it.
QStringList loadLibraryFolders(QSettings &settings, QStringList &problems);
void saveLibraryFolders(QSettings &settings, const QStringList &folders);

// `path` as the list keeps it: absolute, cleaned, without a trailing separator.
QString normalizedLibraryFolder(const QString &path);

} // namespace Gui
