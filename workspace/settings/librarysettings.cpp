#include "workspace/settings/librarysettings.h"

#include <QCoreApplication>
#include <QDir>
#include <QSettings>

namespace Gui {

namespace {
const QString FoldersKey = QStringLiteral("library/folders");
} // namespace

QString normalizedLibraryFolder(const QString &path)
{
    return QDir::cleanPath(QDir(path).absolutePath());
}

QStringList loadLibraryFolders(QSettings &settings, QStringList &problems)
{
    if (!settings.contains(FoldersKey))
        return {};
    const QVariant value = settings.value(FoldersKey);
    // An INI file gives a list of one as a plain string.
    const QVariantList entries = value.typeId() == QMetaType::QString ? QVariantList{value} : value.toList();
    QStringList out;
    int dropped = 0;
    for (const QVariant &entry : entries) {
        const QString path = entry.typeId() == QMetaType::QString ? entry.toString() : QString();
        if (path.isEmpty() || !QDir::isAbsolutePath(path)) {
            ++dropped;
            continue;
        }
        const QString folder = normalizedLibraryFolder(path);
        if (!out.contains(folder))
            out << folder;
    }
    if (dropped > 0)
        problems << QCoreApplication::translate("Gui::AppSettings",
                                                "Library folders in the settings file that were not absolute paths "
                                                "were dropped (%1); the other folders are kept.")
                        .arg(dropped);
    return out;
}

void saveLibraryFolders(QSettings &settings, const QStringList &folders)
{
    if (folders.isEmpty())
        settings.remove(FoldersKey);
    else
        settings.setValue(FoldersKey, folders);
}

} // namespace Gui
