// The Library panel on a real index: View, Library (Ctrl+Shift+L) shows it; while a folder of
// English and Chinese notes is indexed a progress bar runs, then the folder has its file and
// passage counts, a binary file is listed with its reason, and the panel follows a folder
// removed; a damaged index is rebuilt and the panel says so.
#include "support/localproviderfixture.h"
#include "support/windowservices.h"
#include "gui/library/librarydock.h"
#include "gui/mainwindow/documenttabs.h"
#include "gui/mainwindow/mainwindow.h"
#include "knowledge/library.h"
#include "prefetch/engine.h"
#include "prefetch/strategies/debouncestrategy.h"
#include "prefetch/strategies/hoverstrategy.h"
#include "prefetch/strategies/warmupstrategy.h"
#include "prefetch/strategies/workflowstrategy.h"
#include "workspace/documents/document.h"

#include <QAction>
#include <QApplication>
#include <QDir>
#include <QFile>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QTreeWidget>

#include <memory>

class tst_LibraryDock : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void cleanup();
    void viewMenuShowsThePanel();
    void indexingShowsProgressCountsAndSkippedFiles();
    void damagedIndexIsRebuiltWithAMessage();

private:
    void makeWindow(const QString &databasePath);
    static bool write(const QString &path, const QByteArray &bytes);
    template <typename T>
    T *find(const char *name) const
    {
        auto *w = m_window->findChild<T *>(QLatin1String(name));
        if (!w)
            qWarning("no control named %s", name);
        return w;
    }

    TestSupport::LocalProviderFixture m_local{u"instant"};
    QNetworkAccessManager m_network;
    QTemporaryDir m_dir;
    std::unique_ptr<Prefetch::Stack> m_stack;
    std::unique_ptr<Knowledge::Library> m_library;
    std::unique_ptr<Gui::MainWindow> m_window;
};

void tst_LibraryDock::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);
    QVERIFY(m_dir.isValid());
    QVERIFY2(m_local.start(), qPrintable(m_local.errorString()));
}

bool tst_LibraryDock::write(const QString &path, const QByteArray &bytes)
{
    QDir().mkpath(QFileInfo(path).absolutePath());
    QFile file(path);
    return file.open(QIODevice::WriteOnly) && file.write(bytes) == bytes.size();
}

void tst_LibraryDock::makeWindow(const QString &databasePath)
{
    m_stack = m_local.makeStack(&m_network, {}, {});
    Knowledge::Library::Options options;
    options.databasePath = databasePath;
    m_library = std::make_unique<Knowledge::Library>(options);
    const Gui::Services services = TestSupport::windowServices(*m_stack, nullptr, m_library.get());
    m_window = std::make_unique<Gui::MainWindow>(services);
    m_window->show();
    QApplication::setActiveWindow(m_window.get());
    QVERIFY(QTest::qWaitForWindowActive(m_window.get()));
}

void tst_LibraryDock::cleanup()
{
    if (m_window) {
        for (Gui::Document *document : m_window->tabs()->documents())
            document->setModified(false);
    }
    m_window.reset();
    m_library.reset();
    m_stack.reset();
}

void tst_LibraryDock::viewMenuShowsThePanel()
{
    makeWindow(m_dir.filePath(QStringLiteral("menu/index.sqlite")));
    Gui::LibraryDock *dock = m_window->libraryDock();
    QVERIFY(dock);
    QVERIFY(!dock->isVisible());
    QTest::keyClick(m_window.get(), Qt::Key_L, Qt::ControlModifier | Qt::ShiftModifier);
    QTRY_VERIFY_WITH_TIMEOUT(dock->isVisible(), 2000);
    // No folders yet: the panel says where to add them, and its button asks for Settings.
    QVERIFY(find<QLabel>("librarySummary")->text().contains(QLatin1String("Settings")));
    QSignalSpy settings(m_window.get(), &Gui::MainWindow::librarySettingsRequested);
    QTest::mouseClick(find<QPushButton>("libraryEditFolders"), Qt::LeftButton);
    QCOMPARE(settings.count(), 1);
    QTest::keyClick(m_window.get(), Qt::Key_L, Qt::ControlModifier | Qt::ShiftModifier);
    QTRY_VERIFY_WITH_TIMEOUT(!dock->isVisible(), 2000);
}

void tst_LibraryDock::indexingShowsProgressCountsAndSkippedFiles()
{
    const QString notes = m_dir.filePath(QStringLiteral("notes"));
    const QString other = m_dir.filePath(QStringLiteral("其他"));
    QVERIFY(write(notes + QStringLiteral("/lighthouse.md"),
                  "# Lighthouse\n\nThe keeper climbs the tower every evening.\n\n## Lamp\n\nThe lamp burns oil.\n"));
    QVERIFY(write(notes + QStringLiteral("/茶.md"), QStringLiteral("# 茶\n\n龙井茶产于杭州西湖。\n").toUtf8()));
    QVERIFY(write(notes + QStringLiteral("/broken.txt"), QByteArray("text\0with a NUL byte", 20)));
    QVERIFY(write(other + QStringLiteral("/todo.txt"), "Buy stamps.\n"));
    makeWindow(m_dir.filePath(QStringLiteral("index/index.sqlite")));
    m_window->libraryDock()->show();
    auto *progress = find<QProgressBar>("libraryProgress");
    auto *folders = find<QTreeWidget>("libraryFolderList");
    auto *skipped = find<QTreeWidget>("librarySkipped");

    QSignalSpy started(m_library.get(), &Knowledge::Library::indexingStarted);
    QSignalSpy finished(m_library.get(), &Knowledge::Library::indexingFinished);
    bool progressShown = false;
    connect(m_library.get(), &Knowledge::Library::indexingStarted, this,
            [&] { progressShown = progressShown || progress->isVisible(); });
    connect(m_library.get(), &Knowledge::Library::progress, this,
            [&] { progressShown = progressShown || progress->isVisible(); });
    m_library->setFolders({notes, other});
    QVERIFY(finished.wait(20000));
    QVERIFY(progressShown);
    QTRY_VERIFY_WITH_TIMEOUT(!progress->isVisible(), 2000);

    QCOMPARE(folders->topLevelItemCount(), 2);
    QTreeWidgetItem *first = folders->topLevelItem(0);
    QCOMPARE(first->text(0), QDir::toNativeSeparators(notes));
    QCOMPARE(first->text(1), QStringLiteral("2")); // files
    QVERIFY(first->text(2).toInt() >= 3);          // passages: two headings in one file, one in the other
    QCOMPARE(first->text(3), QStringLiteral("1")); // skipped
    QCOMPARE(folders->topLevelItem(1)->text(1), QStringLiteral("1"));
    QVERIFY(find<QLabel>("librarySummary")->text().contains(QLatin1String("3 files, ")));

    QCOMPARE(skipped->topLevelItemCount(), 1);
    QCOMPARE(skipped->topLevelItem(0)->text(0), QDir::toNativeSeparators(notes + QStringLiteral("/broken.txt")));
    QCOMPARE(skipped->topLevelItem(0)->text(1), Knowledge::skipMessage(Knowledge::SkipReason::Binary));

    // A folder removed goes from the panel with its files.
    m_library->setFolders({other});
    QTRY_COMPARE_WITH_TIMEOUT(folders->topLevelItemCount(), 1, 10000);
    QTRY_VERIFY_WITH_TIMEOUT(find<QLabel>("librarySummary")->text().contains(QLatin1String("1 file, 1 passage.")),
                             10000);
    QTRY_VERIFY_WITH_TIMEOUT(!skipped->isVisible(), 10000);
    QCOMPARE(find<QLabel>("librarySkippedLabel")->text(), QStringLiteral("No files were skipped."));
}

void tst_LibraryDock::damagedIndexIsRebuiltWithAMessage()
{
    const QString database = m_dir.filePath(QStringLiteral("damaged/index.sqlite"));
    QVERIFY(write(database, QByteArray(8192, 'x'))); // not a database at all
    const QString notes = m_dir.filePath(QStringLiteral("damagednotes"));
    QVERIFY(write(notes + QStringLiteral("/a.md"), "# A\n\nSome words.\n"));
    makeWindow(database);
    m_window->libraryDock()->show();
    QSignalSpy finished(m_library.get(), &Knowledge::Library::indexingFinished);
    m_library->setFolders({notes});
    auto *message = find<QLabel>("libraryMessage");
    QTRY_VERIFY_WITH_TIMEOUT(message->isVisible(), 10000);
    QVERIFY(message->text().contains(QLatin1String("damaged")));
    QVERIFY(finished.count() > 0 || finished.wait(20000));
    QTRY_COMPARE_WITH_TIMEOUT(find<QTreeWidget>("libraryFolderList")->topLevelItem(0)->text(1), QStringLiteral("1"),
                              10000);
}

QTEST_MAIN(tst_LibraryDock)
#include "tst_librarydock.moc"
