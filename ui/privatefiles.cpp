#include "privatefiles.h"

#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QFileInfo>

namespace Gui::PrivateFiles {

namespace {

constexpr QFileDevice::Permissions OwnerFile = QFileDevice::ReadOwner | QFileDevice::WriteOwner;
constexpr QFileDevice::Permissions OwnerFolder = OwnerFile | QFileDevice::ExeOwner;

} // namespace

bool makeDirectory(const QString &path)
{
    if (path.isEmpty())
        return false;
    // Walk up to the first folder that exists, then create downwards, so that every folder
    // made here (not only the last) gets its mode; folders that existed keep theirs, except
    // `path` itself.
    QStringList missing;
    for (QFileInfo info(QDir::cleanPath(QFileInfo(path).absoluteFilePath())); !info.exists();
         info = QFileInfo(info.absolutePath())) {
        missing.prepend(info.absoluteFilePath());
        if (info.isRoot())
            break;
    }
    for (const QString &folder : std::as_const(missing)) {
        if (!QDir().mkdir(folder) && !QFileInfo(folder).isDir())
            return false;
        QFile::setPermissions(folder, OwnerFolder);
    }
    if (!QFileInfo(path).isDir())
        return false;
    QFile::setPermissions(path, OwnerFolder);
    return true;
}

bool makeFile(const QString &path)
{
    if (!QFileInfo::exists(path)) {
        QFile file(path);
        // NewOnly: if another process made it meanwhile, only its mode is changed below.
        if (!file.open(QIODevice::WriteOnly | QIODevice::NewOnly) && !QFileInfo::exists(path))
            return false;
    }
    return restrict(path);
}

bool restrict(const QString &path)
{
    return QFileInfo::exists(path) && QFile::setPermissions(path, OwnerFile);
}

void tighten(const QString &directory)
{
    const QFileInfo root(directory);
    if (!root.isDir() || root.isSymLink())
        return;
    QFile::setPermissions(directory, OwnerFolder);
    QDirIterator it(directory, QDir::AllEntries | QDir::Hidden | QDir::System | QDir::NoDotAndDotDot,
                    QDirIterator::Subdirectories);
    while (it.hasNext()) {
        const QFileInfo info = it.nextFileInfo();
        if (info.isSymLink())
            continue; // a link's target is not ours to change
        QFile::setPermissions(info.filePath(), info.isDir() ? OwnerFolder : OwnerFile);
    }
}

} // namespace Gui::PrivateFiles
