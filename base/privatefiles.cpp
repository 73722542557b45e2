#include "privatefiles.h"

#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QFileInfo>

namespace Base::PrivateFiles {

namespace {

constexpr QFileDevice::Permissions OwnerFile = QFileDevice::ReadOwner | QFileDevice::WriteOwner;
constexpr QFileDevice::Permissions OwnerFolder = OwnerFile | QFileDevice::ExeOwner;
// Qt reports the owner's bits twice (Owner, and User for the current user when it is the
// owner); only the Owner bits are set on the file.
constexpr QFileDevice::Permissions OwnerBits = QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner;

// The group's and others' permissions taken away, the owner's left as they are.
bool ownerOnly(const QString &path)
{
    const QFileDevice::Permissions now = QFile::permissions(path);
    const QFileDevice::Permissions tightened = now & OwnerBits;
    return (now & ~(OwnerBits | QFileDevice::ReadUser | QFileDevice::WriteUser | QFileDevice::ExeUser)) == 0
           || QFile::setPermissions(path, tightened);
}

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
        if (!QDir().mkdir(folder, OwnerFolder) && !QFileInfo(folder).isDir())
            return false;
    }
    if (!QFileInfo(path).isDir())
        return false;
    ownerOnly(path);
    return true;
}

bool makeFile(const QString &path)
{
    if (!QFileInfo::exists(path)) {
        QFile file(path);
        // NewOnly: if another process made it meanwhile, only its mode is changed below. The
        // mode is given to open(2): there is no moment at which the file is readable by others.
        if (!file.open(QIODevice::WriteOnly | QIODevice::NewOnly, OwnerFile) && !QFileInfo::exists(path))
            return false;
    }
    return restrict(path);
}

bool restrict(const QString &path)
{
    return QFileInfo::exists(path) && ownerOnly(path);
}

bool makeDatabaseFile(const QString &path)
{
    if (!makeFile(path))
        return false;
    for (const char *suffix : {"-wal", "-shm", "-journal"})
        restrict(path + QLatin1String(suffix));
    return true;
}

void tighten(const QString &directory)
{
    const QFileInfo root(directory);
    if (!root.isDir() || root.isSymLink())
        return;
    ownerOnly(directory);
    QDirIterator it(directory, QDir::AllEntries | QDir::Hidden | QDir::System | QDir::NoDotAndDotDot,
                    QDirIterator::Subdirectories);
    while (it.hasNext()) {
        const QFileInfo info = it.nextFileInfo();
        if (info.isSymLink())
            continue; // a link's target is not ours to change
        ownerOnly(info.filePath());
    }
}

} // namespace Base::PrivateFiles
