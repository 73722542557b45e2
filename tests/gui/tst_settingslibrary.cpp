// The settings dialog's Library page, driven with clicks and the real folder chooser: each
// added or removed folder is announced with the whole new settings, a folder added twice is
// said to be there already, and the folder list survives a save and a load of the settings file
// (bad entries dropped with a problem, the good ones kept).
#include "support/settingsdialogsuite.h"
#include "workspace/settings/librarysettings.h"
#include "workspace/settings/secretstore.h"
#include "workspace/settings/settingsfile.h"

#include <QApplication>
#include <QDir>
#include <QFileDialog>
#include <QLabel>
#include <QListWidget>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

#include <memory>

using Gui::AppSettings;
using Gui::SettingsDialog;
using Gui::SettingsFile;

class tst_SettingsLibrary : public QObject, private TestSupport::SettingsDialogSuite
{
    Q_OBJECT

private slots:
    void initTestCase();
    void cleanup();
    void addAndRemoveFolders();
    void cancelledChooserChangesNothing();
    void foldersSurviveSaveAndLoad();
    void badEntriesAreDroppedWithAProblem();

private:
    // The dialog on `settings`, shown on its Library page and active.
    void openLibraryPage(const AppSettings &settings);
    // Clicks Add Folder…, and answers the folder chooser it opens with `folder` (or cancels it
    // when empty).
    void chooseFolder(const QString &folder);
    QTemporaryDir m_dir;
};

void tst_SettingsLibrary::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);
    QVERIFY(m_dir.isValid());
    QVERIFY(QDir(m_dir.path()).mkpath(QStringLiteral("notes")));
    QVERIFY(QDir(m_dir.path()).mkpath(QStringLiteral("笔记")));
}

void tst_SettingsLibrary::cleanup()
{
    closeDialog();
}

void tst_SettingsLibrary::openLibraryPage(const AppSettings &settings)
{
    makeDialog(settings);
    m_dialog->showPage(SettingsDialog::Page::Library);
    QVERIFY(activate(m_dialog.get()));
}

void tst_SettingsLibrary::chooseFolder(const QString &folder)
{
    QTest::mouseClick(find<QPushButton>("libraryAdd"), Qt::LeftButton);
    // Window-modal, opened without a nested event loop: it is up when the click returns.
    auto *chooser = m_dialog->findChild<QFileDialog *>(QStringLiteral("libraryFolderChooser"));
    QVERIFY(chooser);
    QTRY_VERIFY_WITH_TIMEOUT(chooser->isVisible(), 2000);
    QCOMPARE(chooser->windowModality(), Qt::WindowModal);
    if (folder.isEmpty()) {
        chooser->reject();
    } else {
        chooser->setDirectory(folder);
        static_cast<QDialog *>(chooser)->accept(); // as its Choose button does
    }
    // Deleted on close: the next Add opens a fresh one.
    QTRY_VERIFY_WITH_TIMEOUT(!m_dialog->findChild<QFileDialog *>(QStringLiteral("libraryFolderChooser")), 2000);
}

void tst_SettingsLibrary::addAndRemoveFolders()
{
    openLibraryPage(AppSettings());
    auto *list = find<QListWidget>("libraryFolders");
    auto *remove = find<QPushButton>("libraryRemove");
    QCOMPARE(list->count(), 0);
    QVERIFY(!remove->isEnabled());

    const QString notes = QDir(m_dir.path()).filePath(QStringLiteral("notes"));
    const QString chinese = QDir(m_dir.path()).filePath(QStringLiteral("笔记"));
    chooseFolder(notes);
    QCOMPARE(m_changed->count(), 1);
    QCOMPARE(lastEmitted().libraryFolders, QStringList{notes});
    chooseFolder(chinese);
    QCOMPARE(lastEmitted().libraryFolders, (QStringList{notes, chinese}));
    QCOMPARE(list->count(), 2);
    QCOMPARE(list->item(1)->text(), QDir::toNativeSeparators(chinese));

    // The same folder again: said, not added, nothing announced.
    chooseFolder(notes);
    QCOMPARE(m_changed->count(), 2);
    QVERIFY(find<QLabel>("libraryStatus")->text().contains(QLatin1String("already")));

    // A folder inside a listed one is added, and the page says how it is indexed.
    const QString inner = QDir(notes).filePath(QStringLiteral("inner"));
    QVERIFY(QDir().mkpath(inner));
    chooseFolder(inner);
    QCOMPARE(lastEmitted().libraryFolders, (QStringList{notes, chinese, inner}));
    QVERIFY(find<QLabel>("libraryStatus")->text().contains(QLatin1String("inside")));

    // Select the first and remove it by click.
    const QRect first = list->visualItemRect(list->item(0));
    QTest::mouseClick(list->viewport(), Qt::LeftButton, {}, first.center());
    QVERIFY(remove->isEnabled());
    QTest::mouseClick(remove, Qt::LeftButton);
    QCOMPARE(lastEmitted().libraryFolders, (QStringList{chinese, inner}));
    QCOMPARE(list->count(), 2);
    QVERIFY(!remove->isEnabled()); // nothing selected any more
}

void tst_SettingsLibrary::cancelledChooserChangesNothing()
{
    AppSettings s;
    s.libraryFolders = {QDir(m_dir.path()).filePath(QStringLiteral("notes"))};
    openLibraryPage(s);
    QCOMPARE(find<QListWidget>("libraryFolders")->count(), 1);
    chooseFolder(QString());
    QCOMPARE(m_changed->count(), 0);
    QCOMPARE(find<QListWidget>("libraryFolders")->count(), 1);
}

void tst_SettingsLibrary::foldersSurviveSaveAndLoad()
{
    const QString file = QDir(m_dir.path()).filePath(QStringLiteral("roundtrip.ini"));
    AppSettings s;
    s.libraryFolders = {QDir(m_dir.path()).filePath(QStringLiteral("笔记")), QStringLiteral("/srv/missing/now")};
    {
        QSettings store(file, QSettings::IniFormat);
        SettingsFile::save(store, s);
    }
    QSettings store(file, QSettings::IniFormat);
    const SettingsFile::LoadResult loaded = SettingsFile::load(store);
    QVERIFY2(loaded.problems.isEmpty(), qPrintable(loaded.problems.join(u'\n')));
    // A folder that is not there now (a disk not mounted yet) is kept.
    QCOMPARE(loaded.settings.libraryFolders, s.libraryFolders);
    QVERIFY(loaded.settings == s);

    // An empty list leaves no key behind.
    AppSettings none;
    SettingsFile::save(store, none);
    QVERIFY(!store.contains(QStringLiteral("library/folders")));
}

void tst_SettingsLibrary::badEntriesAreDroppedWithAProblem()
{
    const QString file = QDir(m_dir.path()).filePath(QStringLiteral("bad.ini"));
    {
        QSettings store(file, QSettings::IniFormat);
        store.setValue(QStringLiteral("library/folders"),
                       QStringList{QStringLiteral("relative/notes"), QStringLiteral("/home/u/notes/"),
                                   QStringLiteral("/home/u/notes"), QString()});
    }
    QSettings store(file, QSettings::IniFormat);
    const SettingsFile::LoadResult loaded = SettingsFile::load(store);
    QCOMPARE(loaded.settings.libraryFolders, QStringList{QStringLiteral("/home/u/notes")});
    QCOMPARE(loaded.problems.size(), 1);
    QVERIFY(loaded.problems.constFirst().contains(QLatin1String("(2)")));
}

QTEST_MAIN(tst_SettingsLibrary)
#include "tst_settingslibrary.moc"
