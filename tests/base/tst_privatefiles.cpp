// Files private to the user (Base::PrivateFiles) under the usual umask 022: made owner-only from
// their first byte, and tightened without ever being loosened: a folder or file the user made
// read-only stays read-only (issue 36: a 0500 data folder was set back to 0700 at every start).
// The stores that use it are checked with their own files: the response cache here, the
// conversations in tst_conversationstore, the library's index in tst_knowledgeindex and every
// file the app makes in tst_killrecovery.
#include "base/privatefiles.h"
#include "prefetch/cache/responsecache.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include <sys/stat.h>

namespace {

int modeOf(const QString &path)
{
    struct stat st {
    };
    return ::stat(QFile::encodeName(path).constData(), &st) == 0 ? int(st.st_mode & 0777) : -1;
}

bool makeWithMode(const QString &path, int mode, bool folder)
{
    if (folder ? !QDir().mkdir(path) : !QFile(path).open(QIODevice::WriteOnly))
        return false;
    return ::chmod(QFile::encodeName(path).constData(), mode_t(mode)) == 0;
}

} // namespace

class tst_PrivateFiles : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void cleanupTestCase();
    void madeOwnerOnly();
    void tighteningOnlyTakesAway_data();
    void tighteningOnlyTakesAway();
    void responseCacheIsPrivateFromTheStart();

private:
    QTemporaryDir m_dir;
    mode_t m_umask = 022;
};

void tst_PrivateFiles::initTestCase()
{
    QVERIFY(m_dir.isValid());
    m_umask = ::umask(022);
}

void tst_PrivateFiles::cleanupTestCase()
{
    ::umask(m_umask);
}

void tst_PrivateFiles::madeOwnerOnly()
{
    const QString nested = m_dir.filePath(QStringLiteral("a/b/c"));
    QVERIFY(Base::PrivateFiles::makeDirectory(nested));
    for (const char *folder : {"a", "a/b", "a/b/c"})
        QCOMPARE(modeOf(m_dir.filePath(QLatin1String(folder))), 0700);
    const QString file = QDir(nested).filePath(QStringLiteral("store.sqlite"));
    QVERIFY(Base::PrivateFiles::makeFile(file));
    QCOMPARE(modeOf(file), 0600);
}

void tst_PrivateFiles::tighteningOnlyTakesAway_data()
{
    QTest::addColumn<bool>("folder");
    QTest::addColumn<int>("before");
    QTest::addColumn<int>("after");
    QTest::addRow("world-readable folder") << true << 0755 << 0700;
    QTest::addRow("read-only folder") << true << 0500 << 0500;
    QTest::addRow("group-writable folder") << true << 0770 << 0700;
    QTest::addRow("world-readable file") << false << 0644 << 0600;
    QTest::addRow("read-only file") << false << 0444 << 0400;
    QTest::addRow("owner-only file") << false << 0600 << 0600;
}

void tst_PrivateFiles::tighteningOnlyTakesAway()
{
    QFETCH(bool, folder);
    QFETCH(int, before);
    QFETCH(int, after);
    const QString root = m_dir.filePath(QStringLiteral("tighten-%1").arg(QTest::currentDataTag()).replace(u' ', u'-'));
    QVERIFY(QDir().mkdir(root));
    const QString path = QDir(root).filePath(QStringLiteral("item"));
    QVERIFY(makeWithMode(path, before, folder));
    Base::PrivateFiles::tighten(root);
    QCOMPARE(modeOf(path), after);
    QCOMPARE(modeOf(root), 0700);
    if (folder) {
        QVERIFY(Base::PrivateFiles::makeDirectory(path)); // what the app does to its data folder at start
        QCOMPARE(modeOf(path), after);
    } else {
        QVERIFY(Base::PrivateFiles::restrict(path));
        QCOMPARE(modeOf(path), after);
    }
    ::chmod(QFile::encodeName(path).constData(), 0700); // for the temporary folder's removal
}

void tst_PrivateFiles::responseCacheIsPrivateFromTheStart()
{
    // Before issue 36 SQLite made it with the umask's 0644 on the first run.
    const QString path = m_dir.filePath(QStringLiteral("responses.sqlite"));
    Prefetch::ResponseCache cache(path);
    QVERIFY(cache.isPersistent());
    QCOMPARE(modeOf(path), 0600);
}

QTEST_GUILESS_MAIN(tst_PrivateFiles)
#include "tst_privatefiles.moc"
