// Files a document must not be (issue 36): a pipe with no writer (open() itself used to block
// the window forever), a device that never ends (/dev/zero grew memory past 3 GB), a file over
// the size limit, and lines so long that laying them out froze the window for minutes (1 MB of
// hex took 26 s on every key press: QTextLayout breaks a line with no word boundary in time
// that grows with its square). Such lines are now wrapped anywhere; beyond a million
// characters the file is refused with a message that says what to do.
#include "base/processmemory.h"
#include "gui/mainwindow/documenttab.h"
#include "gui/mainwindow/documenttabs.h"
#include "workspace/documents/document.h"

#include <QApplication>
#include <QClipboard>
#include <QDir>
#include <QFile>
#include <QRandomGenerator>
#include <QSignalSpy>
#include <QStringDecoder>
#include <QStringEncoder>
#include <QTemporaryDir>
#include <QTest>

#include <csignal>
#include <sys/resource.h>
#include <sys/stat.h>

namespace {

// Hex digits: not one place where a line may break between words.
QByteArray unbreakable(qsizetype length)
{
    QByteArray out(length, '0');
    QRandomGenerator random(7);
    for (char &c : out)
        c = "0123456789abcdef"[random.bounded(16)];
    return out;
}

} // namespace

class tst_DocumentFiles : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void pipeWithoutWriterIsRefusedAtOnce();
    void deviceIsRefusedWithoutReadingIt();
    void fileOverTheLimitIsRefused();
    void sampleCompiledIntoTheProgramOpens();
    void longUnbreakableLineWrapsAnywhere();
    void lineOverTheLimitIsRefusedWithWhatToDo();
    void pastingALongLineSwitchesTheWrapAndSaysSo();
    void failedSaveSaysWhyAndKeepsTheFile();
    void legacyEncodedTextOpensAndIsSavedBackInIt_data();
    void legacyEncodedTextOpensAndIsSavedBackInIt();

private:
    QString write(const QString &name, const QByteArray &bytes);

    QTemporaryDir m_dir;
};

void tst_DocumentFiles::initTestCase()
{
    QVERIFY(m_dir.isValid());
}

QString tst_DocumentFiles::write(const QString &name, const QByteArray &bytes)
{
    const QString path = m_dir.filePath(name);
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly) || file.write(bytes) != bytes.size())
        return {};
    return path;
}

void tst_DocumentFiles::pipeWithoutWriterIsRefusedAtOnce()
{
    const QString path = m_dir.filePath(QStringLiteral("notes.md"));
    QCOMPARE(::mkfifo(QFile::encodeName(path).constData(), 0600), 0);
    Gui::Document document;
    // Before: open() waited for a writer that never came, on the GUI thread.
    const std::optional<QString> error = document.load(path);
    QVERIFY(error);
    QVERIFY2(error->contains(QLatin1String("not a regular file")), qPrintable(*error));
    QVERIFY(document.filePath().isEmpty());
    QCOMPARE(document.characterCount(), 0);
}

void tst_DocumentFiles::deviceIsRefusedWithoutReadingIt()
{
    const qint64 before = Base::processStatusKb("VmRSS");
    Gui::Document document;
    const std::optional<QString> error = document.load(QStringLiteral("/dev/zero"));
    QVERIFY(error);
    QVERIFY2(error->contains(QLatin1String("not a regular file")), qPrintable(*error));
    // Before: read until the 32 MB limit was passed, and further (size() says 0).
    QVERIFY(Base::processStatusKb("VmRSS") - before < 8 * 1024);
}

void tst_DocumentFiles::fileOverTheLimitIsRefused()
{
    const QString path = write(QStringLiteral("big.md"), QByteArray(Gui::Document::MaxDocumentBytes + 1, 'a'));
    QVERIFY(!path.isEmpty());
    Gui::Document document;
    const std::optional<QString> error = document.load(path);
    QVERIFY(error);
    QVERIFY2(error->contains(QLatin1String("32 MB")), qPrintable(*error));
    QCOMPARE(document.characterCount(), 0);
}

void tst_DocumentFiles::sampleCompiledIntoTheProgramOpens()
{
    // The welcome document is a Qt resource, not a file on disk: it opens as before.
    Gui::Document document;
    QCOMPARE(document.load(QStringLiteral(":/samples/welcome.md")), std::nullopt);
    QVERIFY(document.characterCount() > 100);
}

void tst_DocumentFiles::longUnbreakableLineWrapsAnywhere()
{
    // 200,000 characters: about 1 s to lay out, and again on every key press, at word
    // boundaries; milliseconds anywhere.
    const QByteArray hex = unbreakable(200'000);
    const QString path = write(QStringLiteral("blob.md"), "# Data\n\n" + hex);
    auto *document = new Gui::Document;
    Gui::DocumentTab tab(document);
    document->setParent(&tab);
    tab.resize(640, 480);
    tab.show();
    QVERIFY(QTest::qWaitForWindowExposed(&tab));
    QCOMPARE(tab.wordWrapMode(), QTextOption::WrapAtWordBoundaryOrAnywhere);
    QSignalSpy longLines(document, &Gui::Document::longLinesChanged);
    QCOMPARE(document->load(path), std::nullopt);
    QCOMPARE(longLines.count(), 1);
    QVERIFY(document->hasLongLines());
    QCOMPARE(tab.wordWrapMode(), QTextOption::WrapAnywhere);
    // The user goes to the end of the long line and types there.
    tab.setFocus();
    QTest::keyClick(&tab, Qt::Key_End, Qt::ControlModifier);
    QTest::keyClicks(&tab, QStringLiteral("zz"));
    QVERIFY(document->text().endsWith(QString::fromLatin1(hex) + QLatin1String("zz")));
    // A document of ordinary lines keeps wrapping between words.
    const QString prose = write(QStringLiteral("prose.md"), "A short line.\nAnother one.\n");
    QCOMPARE(document->load(prose), std::nullopt);
    QVERIFY(!document->hasLongLines());
    QCOMPARE(tab.wordWrapMode(), QTextOption::WrapAtWordBoundaryOrAnywhere);
}

void tst_DocumentFiles::lineOverTheLimitIsRefusedWithWhatToDo()
{
    const QString path = write(QStringLiteral("minified.json"),
                               "{\"a\":1}\n" + unbreakable(Gui::Document::MaxLineChars + 1) + "\n");
    Gui::Document document;
    const std::optional<QString> error = document.load(path);
    QVERIFY(error);
    QVERIFY2(error->contains(QLatin1String("Line 2")) && error->contains(QLatin1String("minified"))
                 && error->contains(QLatin1String("line breaks")),
             qPrintable(*error));
    QCOMPARE(document.characterCount(), 0);
}

void tst_DocumentFiles::pastingALongLineSwitchesTheWrapAndSaysSo()
{
    Gui::DocumentTabs tabs;
    QSignalSpy messages(&tabs, &Gui::DocumentTabs::statusMessage);
    Gui::DocumentTab *tab = tabs.newDocument(QStringLiteral("Some notes.\n"));
    tabs.resize(640, 480);
    tabs.show();
    QVERIFY(QTest::qWaitForWindowExposed(&tabs));
    QCOMPARE(tab->wordWrapMode(), QTextOption::WrapAtWordBoundaryOrAnywhere);
    QApplication::clipboard()->setText(QString::fromLatin1(unbreakable(50'000)));
    tab->setFocus();
    QTest::keyClick(tab, Qt::Key_End, Qt::ControlModifier);
    QTest::keyClick(tab, Qt::Key_V, Qt::ControlModifier);
    QCOMPARE(tab->model()->characterCount(), 12 + 50'000);
    QCOMPARE(tab->wordWrapMode(), QTextOption::WrapAnywhere);
    QCOMPARE(messages.count(), 1);
    QVERIFY2(messages.first().first().toString().contains(QLatin1String("wrap anywhere")),
             qPrintable(messages.first().first().toString()));
}

void tst_DocumentFiles::failedSaveSaysWhyAndKeepsTheFile()
{
    // A write that fails half-way (here: past a file-size limit; a full disk fails the same
    // way): before, the write's result was not looked at.
    const QString path = write(QStringLiteral("kept.md"), "The version on disk.\n");
    Gui::Document document;
    QCOMPARE(document.load(path), std::nullopt);
    document.setText(QString(256 * 1024, u'x'));
    struct rlimit before = {};
    QCOMPARE(::getrlimit(RLIMIT_FSIZE, &before), 0);
    const struct rlimit small = {64 * 1024, before.rlim_max};
    std::signal(SIGXFSZ, SIG_IGN); // a write past the limit fails with EFBIG instead of ending the process
    QCOMPARE(::setrlimit(RLIMIT_FSIZE, &small), 0);
    const std::optional<QString> error = document.saveTo(path);
    ::setrlimit(RLIMIT_FSIZE, &before);
    std::signal(SIGXFSZ, SIG_DFL);
    QVERIFY(error);
    QVERIFY2(error->startsWith(QLatin1String("Cannot save"))
                 && error->size() > QStringLiteral("Cannot save %1: ").arg(path).size(),
             qPrintable(*error));
    QVERIFY(document.isModified());
    QFile file(path);
    QVERIFY(file.open(QIODevice::ReadOnly));
    QCOMPARE(file.readAll(), QByteArray("The version on disk.\n"));
    QCOMPARE(QDir(m_dir.path()).entryList({QStringLiteral("kept.md.*")}, QDir::Files | QDir::Hidden), QStringList());
}

void tst_DocumentFiles::legacyEncodedTextOpensAndIsSavedBackInIt_data()
{
    QTest::addColumn<QByteArray>("encoding");
    QTest::addColumn<QByteArray>("bom");
    QTest::newRow("GB18030, as Chinese Windows tools write") << QByteArray("GB18030") << QByteArray();
    QTest::newRow("UTF-16LE with its BOM") << QByteArray("UTF-16LE") << QByteArray("\xff\xfe", 2);
}

void tst_DocumentFiles::legacyEncodedTextOpensAndIsSavedBackInIt()
{
    QFETCH(QByteArray, encoding);
    QFETCH(QByteArray, bom);
    const QString chinese = QStringLiteral("# 提示缓存\n\n第一个词元越早出现，回答就显得越快。\n");
    QStringEncoder encoder(encoding.constData());
    const QByteArray onDisk = bom + encoder.encode(chinese);
    QVERIFY(!encoder.hasError());
    QVERIFY(onDisk != chinese.toUtf8());
    const QString path = write(QStringLiteral("legacy-%1.md").arg(QString::fromLatin1(encoding)), onDisk);

    // Opened as a user opens it: the text as written, and the status bar says how it is kept.
    Gui::DocumentTabs tabs;
    QSignalSpy said(&tabs, &Gui::DocumentTabs::statusMessage);
    QVERIFY(tabs.openFile(path));
    Gui::DocumentTab *tab = tabs.currentTab();
    QCOMPARE(tab->toPlainText(), chinese);
    QCOMPARE(tab->model()->encoding(), encoding);
    QVERIFY(!said.isEmpty());
    QVERIFY2(said.last().first().toString().contains(QString::fromLatin1(encoding)),
             qPrintable(said.last().first().toString()));

    // Typed at the end and saved: the file is in its own encoding still, with the new words.
    tabs.show();
    QVERIFY(QTest::qWaitForWindowExposed(&tabs));
    tab->setFocus();
    QTest::keyClick(tab, Qt::Key_End, Qt::ControlModifier);
    QTest::keyClicks(tab, QStringLiteral(" Edited."));
    bool saved = false;
    tabs.save(tab, false, [&saved](bool ok) { saved = ok; });
    QVERIFY(saved);
    QFile file(path);
    QVERIFY(file.open(QIODevice::ReadOnly));
    const QByteArray bytes = file.readAll();
    QVERIFY(bytes.startsWith(bom));
    QStringDecoder decoder(encoding.constData());
    const QString back = decoder.decode(bytes.sliced(bom.size()));
    QVERIFY(!decoder.hasError());
    QCOMPARE(back, chinese + QStringLiteral(" Edited."));
    QVERIFY(!bytes.contains(QStringLiteral("提示").toUtf8())); // not written as UTF-8
}

QTEST_MAIN(tst_DocumentFiles)
#include "tst_documentfiles.moc"
