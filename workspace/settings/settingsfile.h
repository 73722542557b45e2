#pragma once

#include "workspace/settings/appsettings.h"

#include <QCoreApplication>
#include <QString>
#include <QStringList>

class QSettings;

namespace Gui {

// The settings file: AppSettings read from it and written to it, what is done when it is
// damaged (the lines QSettings skips named, the file copied aside before it is written again),
// and the recent files, which it keeps beside the value. The parts of the value read and write
// their own groups (ProviderOverrides, PrefetchParameters, UserEndpoints, the assistants', the
// proxy's, the library's and the learned refusals'); this reads the rest and puts them together.
class SettingsFile
{
    // The strings stay in AppSettings' translation context, where the catalogue has them.
    Q_DECLARE_TR_FUNCTIONS(Gui::AppSettings)

public:
    struct LoadResult;

    // Reads and validates every key, value by value. A bad value (wrong type, out of range,
    // unknown provider) is reset to its default with one user-readable problem each. Lines
    // QSettings cannot parse are skipped with one problem naming them, every value that still
    // reads is kept, and the file as it was is copied to "<file>.damaged-N" (a new N for new
    // damage; the last KeptDamagedCopies are kept). Never fails.
    static LoadResult load(QSettings &settings);
    // Writes every key of `value` and removes those equal to their default; leaves other keys
    // of `settings` alone. Syncs; the caller may check settings.status().
    static void save(QSettings &settings, const AppSettings &value);

    // Copies `path` to "<path>.damaged-N", owner-only, and returns that name; empty when it
    // cannot. A copy of the same bytes is not made twice (the newest copy is returned), and of
    // the numbered copies only the newest KeptDamagedCopies stay.
    static QString keepDamagedCopy(const QString &path);
    static constexpr int KeptDamagedCopies = 3;
    // The lines of the INI file `path` that QSettings skips, as "line N "text"" for messages.
    static QStringList unreadableLines(const QString &path);

    // The files opened last, newest first, at most MaxRecentFiles absolute paths. Kept apart
    // from the value: the window adds to it whenever a file is opened, the dialog never
    // touches it. A damaged entry is dropped, never reported.
    static constexpr qsizetype MaxRecentFiles = 10;
    static QStringList recentFiles(QSettings &settings);
    static void addRecentFile(QSettings &settings, const QString &path);

    // The files that were open when Headstart last quit (or the session ended), in tab order,
    // reopened at the next start that names no file; absolute paths only, at most
    // MaxSessionFiles, a damaged entry dropped. Kept apart from the value, as the recent files.
    static constexpr qsizetype MaxSessionFiles = 50;
    static QStringList sessionFiles(QSettings &settings);
    static void setSessionFiles(QSettings &settings, const QStringList &paths);
};

struct SettingsFile::LoadResult {
    AppSettings settings;
    QStringList problems; // translated, one sentence each, for a message box or the log
    // Lines could not be read: the file should be written again (save()) once the problems
    // are shown, so that the next start does not find, and copy, the same damage.
    bool damaged = false;
};

} // namespace Gui
