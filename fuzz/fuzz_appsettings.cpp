// The settings loader over an INI file written from the input, as a damaged or hand-edited
// headstart.conf would be. Invariants: load never fails; what it returns is a fixed point,
// i.e. saving it and loading that again gives the same settings and no problems (a value that
// passed validation must survive its own round trip).

#include "fuzzsupport.h"

#include "workspace/settings/settingsfile.h"

#include <QCoreApplication>
#include <QFile>
#include <QFileInfo>
#include <QSettings>
#include <QTemporaryDir>

namespace {

QTemporaryDir *dir = nullptr;
quint64 counter = 0;

// A new name each run: QSettings caches parsed files by path and only rereads one whose size or
// timestamp changed, which thousands of writes a second would defeat.
QString freshPath()
{
    return dir->filePath(QStringLiteral("s%1.ini").arg(++counter));
}

} // namespace

extern "C" int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    static QCoreApplication app(*argc, *argv);
    // In memory when the system offers it: QSettings writes through QSaveFile, and at a few
    // thousand files a second a disk-backed temp dir is the bottleneck.
    dir = QFileInfo(QStringLiteral("/dev/shm")).isWritable()
              ? new QTemporaryDir(QStringLiteral("/dev/shm/headstart-fuzz-XXXXXX"))
              : new QTemporaryDir;
    FUZZ_CHECK(dir->isValid());
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    const QString in = freshPath();
    {
        QFile file(in);
        FUZZ_CHECK(file.open(QIODevice::WriteOnly));
        FUZZ_CHECK(file.write(reinterpret_cast<const char *>(data), qint64(size)) == qint64(size));
    }
    Gui::SettingsFile::LoadResult first;
    {
        QSettings settings(in, QSettings::IniFormat);
        first = Gui::SettingsFile::load(settings);
    }
    const QString out = freshPath();
    {
        QSettings settings(out, QSettings::IniFormat);
        Gui::SettingsFile::save(settings, first.settings);
        FUZZ_CHECK(settings.status() == QSettings::NoError);
    }
    {
        QSettings settings(out, QSettings::IniFormat);
        const Gui::SettingsFile::LoadResult again = Gui::SettingsFile::load(settings);
        if (!again.problems.isEmpty())
            std::fprintf(stderr, "problem on reload: %s\n", qPrintable(again.problems.join(QLatin1Char('\n'))));
        FUZZ_CHECK(again.problems.isEmpty());
        FUZZ_CHECK(again.settings == first.settings);
    }
    QFile::remove(in);
    QFile::remove(out);
    return 0;
}
