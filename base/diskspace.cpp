#include "diskspace.h"

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>
#include <QLocale>
#include <QStorageInfo>

namespace Base {

QString diskFullNote(const QString &path, qint64 threshold)
{
    // The file may not exist (a save that failed); its folder does.
    const QFileInfo info(path);
    const QStorageInfo storage(info.exists() ? info.absoluteFilePath() : info.absolutePath());
    if (!storage.isValid() || storage.bytesAvailable() < 0 || storage.bytesAvailable() >= threshold)
        return {};
    return QCoreApplication::translate("Base::DiskSpace", "The disk that holds %1 is full (%2 free).")
        .arg(QDir::toNativeSeparators(info.absolutePath()), QLocale().formattedDataSize(storage.bytesAvailable()));
}

} // namespace Base
