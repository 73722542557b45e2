// The knowledge library on real folders and a real SQLite index in a temporary directory, under
// both tokenizations: English and Chinese questions (one file in GB18030) find the passage that
// answers them, with its heading trail and offsets; a PDF's passages carry their page; binary, huge, undecodable, damaged and
// encrypted PDF files are listed as skipped with reasons and counted per folder; an edit and a delete seen by the file
// watcher update the index; removing a folder removes its rows; a damaged index file (junk, or
// pages damaged behind an intact header) is replaced with a message and filled again; an
// indexing process killed with SIGKILL mid-pass leaves an index that opens undamaged and is
// completed by the next pass.
#include "support/expectederror.h"
#include "knowledge/library.h"

#include "support/minimalpdf.h"

#include <QDir>
#include <QFile>
#include <QProcess>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QStringEncoder>
#include <QTemporaryDir>
#include <QTest>

#include <sys/stat.h>

#include <algorithm>
#include <memory>

using namespace Knowledge;

namespace {

constexpr int IndexTimeoutMs = 20000;

bool writeBytes(const QString &path, const QByteArray &bytes)
{
    QFile f(path);
    return f.open(QIODevice::WriteOnly | QIODevice::Truncate) && f.write(bytes) == bytes.size();
}

bool writeText(const QString &path, const QString &text)
{
    return writeBytes(path, text.toUtf8());
}

// Overwrites `pages` 4 KiB pages in the middle of the file, leaving its header alone.
bool damageMiddle(const QString &path, int pages)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadWrite) || f.size() < 8 * 4096)
        return false;
    const qint64 middle = (f.size() / 4096 / 2) * 4096;
    f.seek(middle);
    return f.write(QByteArray(pages * 4096, '\xa5')) == pages * 4096;
}

QString filler(int paragraphs, const QString &topic)
{
    QString s;
    for (int i = 0; i < paragraphs; ++i)
        s += QStringLiteral("This paragraph %1 talks about %2 in general terms, with ordinary words that many "
                            "passages share.\n\n")
                 .arg(i)
                 .arg(topic);
    return s;
}

const QString ManualText = QStringLiteral("# Garden manual\n\nAn introduction to the garden.\n\n## Watering\n\n")
                           + filler(6, QStringLiteral("plants"))
                           + QStringLiteral("## Pumps\n\nThe calibration code of the Vantor relay is 4471-QZ.\n\n")
                           + filler(6, QStringLiteral("pumps"));

const QString ChineseText = QStringLiteral(
    "# 项目手册\n\n这是一个普通的段落，介绍了项目的背景和目标。\n\n## 人员\n\n项目代号星河七号的负责人是王立新。\n\n"
    "## 预算\n\n预算由财务部门每季度审核一次。\n");

// GB18030, as a Windows tool in a Chinese locale writes it.
const QString LegacyChineseText = QStringLiteral("会议记录\n\n青松水库的年度维修费用是三百二十万元。\n");

} // namespace

class tst_KnowledgeIndex : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void init();
    void cleanup();

    void englishAndChineseQuestionsFindTheirPassage_data();
    void englishAndChineseQuestionsFindTheirPassage();
    void skippedFilesHaveReasonsAndCounts();
    void pdfPassagesHaveTheirPage();
    void editAndDeleteAreSeenByTheWatcher();
    void unchangedFilesSurviveReopening();
    void indexIsPrivateFromTheStart();
    void removingAFolderRemovesItsRows();
    void damagedIndexIsRebuilt_data();
    void damagedIndexIsRebuilt();
    void survivesKillDuringIndexing();

private:
    std::unique_ptr<Library> makeLibrary(Tokenization mode = Tokenization::Bigram);
    bool indexFolders(Library &library, const QStringList &folders);
    QString dbPath() const { return m_data->filePath(QStringLiteral("index/knowledge.sqlite")); }
    QString docs() const { return m_docs->path(); }

    std::unique_ptr<QTemporaryDir> m_data;
    std::unique_ptr<QTemporaryDir> m_docs;
};

void tst_KnowledgeIndex::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);
}

void tst_KnowledgeIndex::init()
{
    m_data = std::make_unique<QTemporaryDir>();
    m_docs = std::make_unique<QTemporaryDir>();
    QVERIFY(m_data->isValid() && m_docs->isValid());
    QVERIFY(QDir().mkpath(docs() + QStringLiteral("/sub")));
    QVERIFY(writeText(docs() + QStringLiteral("/manual.md"), ManualText));
    QVERIFY(writeText(docs() + QStringLiteral("/sub/项目.md"), ChineseText));
    QStringEncoder gb("GB18030");
    QVERIFY(writeBytes(docs() + QStringLiteral("/sub/legacy.txt"), gb.encode(LegacyChineseText)));
}

void tst_KnowledgeIndex::cleanup()
{
    m_docs.reset();
    m_data.reset();
}

std::unique_ptr<Library> tst_KnowledgeIndex::makeLibrary(Tokenization mode)
{
    Library::Options options;
    options.databasePath = dbPath();
    options.tokenization = mode;
    options.maxFileBytes = 64 * 1024;
    return std::make_unique<Library>(options);
}

bool tst_KnowledgeIndex::indexFolders(Library &library, const QStringList &folders)
{
    QSignalSpy finished(&library, &Library::indexingFinished);
    library.setFolders(folders);
    return finished.wait(IndexTimeoutMs) && library.isReady();
}

void tst_KnowledgeIndex::indexIsPrivateFromTheStart()
{
    // It holds passages of the user's documents. Before issue 36, SQLite made it (and its
    // folder) with the umask's 0644 and 0755 on the first run.
    const mode_t before = ::umask(022);
    auto library = makeLibrary();
    const bool indexed = indexFolders(*library, {docs()});
    ::umask(before);
    QVERIFY(indexed);
    const auto modeOf = [](const QString &path) {
        struct stat st {
        };
        return ::stat(QFile::encodeName(path).constData(), &st) == 0 ? int(st.st_mode & 0777) : -1;
    };
    QCOMPARE(modeOf(dbPath()), 0600);
    QCOMPARE(modeOf(QFileInfo(dbPath()).absolutePath()), 0700);
    for (const char *suffix : {"-wal", "-shm"}) {
        if (QFileInfo::exists(dbPath() + QLatin1String(suffix)))
            QCOMPARE(modeOf(dbPath() + QLatin1String(suffix)), 0600);
    }
}

void tst_KnowledgeIndex::englishAndChineseQuestionsFindTheirPassage_data()
{
    QTest::addColumn<int>("mode");
    QTest::addRow("bigram") << int(Tokenization::Bigram);
    QTest::addRow("trigram") << int(Tokenization::Trigram);
}

void tst_KnowledgeIndex::englishAndChineseQuestionsFindTheirPassage()
{
    QFETCH(int, mode);
    auto library = makeLibrary(Tokenization(mode));
    QSignalSpy progress(library.get(), &Library::progress);
    QVERIFY(indexFolders(*library, {docs()}));
    QVERIFY(!progress.isEmpty());
    QCOMPARE(progress.last().at(0).toInt(), 3);
    QCOMPARE(progress.last().at(1).toInt(), 3);

    const auto english = library->query(QStringLiteral("What is the calibration code of the Vantor relay?"), 5);
    QVERIFY2(english.has_value(), TestSupport::errorOf(english).constData());
    QVERIFY(!english->isEmpty());
    const Passage &top = english->first();
    QCOMPARE(top.path, QDir(docs()).filePath(QStringLiteral("manual.md")));
    QCOMPARE(top.headingTrail, QStringLiteral("Garden manual > Pumps"));
    QVERIFY(top.text.contains(QStringLiteral("4471-QZ")));
    QCOMPARE(ManualText.mid(top.start, top.end - top.start), top.text);
    QVERIFY(top.score > 0);
    for (qsizetype i = 1; i < english->size(); ++i)
        QVERIFY(english->at(i - 1).score >= english->at(i).score);

    const auto chinese = library->query(QStringLiteral("星河七号的负责人是谁？"), 5);
    QVERIFY2(chinese.has_value(), TestSupport::errorOf(chinese).constData());
    QVERIFY(!chinese->isEmpty());
    QCOMPARE(chinese->first().path, QDir(docs()).filePath(QStringLiteral("sub/项目.md")));
    QCOMPARE(chinese->first().headingTrail, QStringLiteral("项目手册 > 人员"));
    QVERIFY(chinese->first().text.contains(QStringLiteral("王立新")));

    const auto legacy = library->query(QStringLiteral("青松水库的维修费用是多少"), 5);
    QVERIFY2(legacy.has_value(), TestSupport::errorOf(legacy).constData());
    QVERIFY(!legacy->isEmpty());
    QCOMPARE(legacy->first().path, QDir(docs()).filePath(QStringLiteral("sub/legacy.txt")));
    QVERIFY(legacy->first().text.contains(QStringLiteral("三百二十万元")));

    // A question with nothing to search for is no error, just nothing.
    const auto nothing = library->query(QStringLiteral("what is it?"), 5);
    QVERIFY(nothing.has_value());
    QVERIFY(nothing->isEmpty());
    QVERIFY(library->query(QStringLiteral("\"unbalanced quote"), 5).has_value());
}

void tst_KnowledgeIndex::skippedFilesHaveReasonsAndCounts()
{
    QVERIFY(writeBytes(docs() + QStringLiteral("/image.txt"), QByteArray("GIF89a\0\0\x01\x02", 10)));
    QVERIFY(writeBytes(docs() + QStringLiteral("/sub/huge.log"), QByteArray(65 * 1024, 'x')));
    QVERIFY(writeBytes(docs() + QStringLiteral("/sub/odd.txt"), QByteArray("caf\xff\xfe text")));
    QVERIFY(writeBytes(docs() + QStringLiteral("/paper.pdf"), TestSupport::damagedPdf()));
    QVERIFY(writeBytes(docs() + QStringLiteral("/sub/locked.pdf"),
                       TestSupport::minimalPdf({QStringLiteral("Hidden plans")}, TestSupport::PdfKind::Encrypted)));
    QVERIFY(writeBytes(docs() + QStringLiteral("/photo.jpg"), QByteArray("\xff\xd8\xff")));
    QVERIFY(writeText(docs() + QStringLiteral("/.hidden.md"), QStringLiteral("# Hidden\n")));

    auto library = makeLibrary();
    QVERIFY(indexFolders(*library, {docs()}));
    const QList<SkippedFile> skipped = library->skippedFiles();
    QHash<QString, SkipReason> reasons;
    for (const SkippedFile &s : skipped) {
        reasons.insert(QDir(docs()).relativeFilePath(s.path), s.reason);
        QVERIFY(!s.message().isEmpty());
    }
    QCOMPARE(reasons.size(), 5); // the photo and the hidden file are not library files at all
    QCOMPARE(reasons.value(QStringLiteral("image.txt")), SkipReason::Binary);
    QCOMPARE(reasons.value(QStringLiteral("sub/huge.log")), SkipReason::TooLarge);
    QCOMPARE(reasons.value(QStringLiteral("sub/odd.txt")), SkipReason::BadEncoding);
    QCOMPARE(reasons.value(QStringLiteral("paper.pdf")), SkipReason::Damaged);
    QCOMPARE(reasons.value(QStringLiteral("sub/locked.pdf")), SkipReason::Encrypted);

    const QList<FolderStatus> folders = library->folderStatuses();
    QCOMPARE(folders.size(), 1);
    QCOMPARE(folders[0].path, QDir::cleanPath(docs()));
    QCOMPARE(folders[0].files, 3);
    QCOMPARE(folders[0].skipped, 5);
    QVERIFY(folders[0].chunks >= 6);
    QVERIFY(library->query(QStringLiteral("Hidden"), 5)->isEmpty());
}

void tst_KnowledgeIndex::pdfPassagesHaveTheirPage()
{
    const QString pdf = docs() + QStringLiteral("/sub/harbour.pdf");
    QVERIFY(writeBytes(pdf, TestSupport::minimalPdf({QStringLiteral("Harbour report\nShips came and went."),
                                                     QStringLiteral("Finances\nThe quay crane costs 90 guilders.")})));
    auto library = makeLibrary();
    QVERIFY(indexFolders(*library, {docs()}));
    const auto found = library->query(QStringLiteral("how much does the quay crane cost?"), 5);
    QVERIFY(found && !found->isEmpty());
    const Passage top = found->first();
    QCOMPARE(top.path, pdf);
    QCOMPARE(top.page, 2);
    QVERIFY2(top.text.simplified().contains(QStringLiteral("The quay crane costs 90 guilders.")), qPrintable(top.text));
    QVERIFY(top.start > 0 && top.end > top.start);
    // Text files have no page.
    const auto text = library->query(QStringLiteral("calibration code of the Vantor relay"), 1);
    QVERIFY(text && !text->isEmpty());
    QVERIFY(!text->first().path.endsWith(QLatin1String(".pdf")));
    QCOMPARE(text->first().page, 0);
    QVERIFY(std::ranges::none_of(library->skippedFiles(), [&](const SkippedFile &s) { return s.path == pdf; }));
}

void tst_KnowledgeIndex::editAndDeleteAreSeenByTheWatcher()
{
    auto library = makeLibrary();
    QVERIFY(indexFolders(*library, {docs()}));
    const QString manual = docs() + QStringLiteral("/manual.md");
    const auto findsIn = [&](const QString &question, const QString &path) {
        const auto result = library->query(question, 5);
        return result && !result->isEmpty() && result->first().path == path;
    };
    QVERIFY(findsIn(QStringLiteral("Vantor relay calibration"), manual));

    QVERIFY(writeText(manual, QStringLiteral("# Garden manual\n\n## Pumps\n\nThe Orlix valve opens at dawn.\n")));
    QTRY_VERIFY_WITH_TIMEOUT(findsIn(QStringLiteral("When does the Orlix valve open?"), manual), IndexTimeoutMs);
    QVERIFY(library->query(QStringLiteral("Vantor relay calibration"), 5)->isEmpty());

    // A new file in a subfolder, then a delete.
    const QString added = docs() + QStringLiteral("/sub/new.txt");
    QVERIFY(writeText(added, QStringLiteral("The Quenby archive lists every harvest.\n")));
    QTRY_VERIFY_WITH_TIMEOUT(findsIn(QStringLiteral("Quenby archive"), added), IndexTimeoutMs);
    QVERIFY(QFile::remove(manual));
    QTRY_VERIFY_WITH_TIMEOUT(library->query(QStringLiteral("Orlix valve"), 5)->isEmpty(), IndexTimeoutMs);
    QTRY_COMPARE_WITH_TIMEOUT(library->folderStatuses().value(0).files, 3, IndexTimeoutMs);
}

void tst_KnowledgeIndex::unchangedFilesSurviveReopening()
{
    {
        auto library = makeLibrary();
        QVERIFY(indexFolders(*library, {docs()}));
    }
    auto library = makeLibrary();
    QSignalSpy changed(library.get(), &Library::contentsChanged);
    QVERIFY(indexFolders(*library, {docs()}));
    QCOMPARE(changed.size(), 0); // nothing was rewritten
    QVERIFY(!library->query(QStringLiteral("Vantor relay"), 5)->isEmpty());
    QCOMPARE(library->folderStatuses().value(0).files, 3);
}

void tst_KnowledgeIndex::removingAFolderRemovesItsRows()
{
    QTemporaryDir other;
    QVERIFY(writeText(other.filePath(QStringLiteral("other.md")), QStringLiteral("The Zephyr ledger is blue.\n")));
    auto library = makeLibrary();
    // A folder inside another is the outer one's.
    QVERIFY(indexFolders(*library, {docs(), other.path(), docs() + QStringLiteral("/sub")}));
    QCOMPARE(library->folders().size(), 2);
    QCOMPARE(library->folderStatuses().size(), 2);
    QVERIFY(!library->query(QStringLiteral("Zephyr ledger"), 5)->isEmpty());

    QVERIFY(indexFolders(*library, {other.path()}));
    QCOMPARE(library->folderStatuses().size(), 1);
    QVERIFY(library->query(QStringLiteral("Vantor relay"), 5)->isEmpty());
    QVERIFY(library->query(QStringLiteral("星河七号"), 5)->isEmpty());
    QVERIFY(!library->query(QStringLiteral("Zephyr ledger"), 5)->isEmpty());
}

void tst_KnowledgeIndex::damagedIndexIsRebuilt_data()
{
    QTest::addColumn<bool>("junk");
    QTest::addRow("junk file") << true;
    QTest::addRow("damaged pages") << false;
}

void tst_KnowledgeIndex::damagedIndexIsRebuilt()
{
    QFETCH(bool, junk);
    // Enough text for pages to damage behind the header.
    for (int i = 0; i < 40; ++i)
        QVERIFY(writeText(docs() + QStringLiteral("/bulk%1.md").arg(i), filler(20, QStringLiteral("bulk %1").arg(i))));
    {
        auto library = makeLibrary();
        QVERIFY(indexFolders(*library, {docs()}));
    }
    if (junk)
        QVERIFY(writeBytes(dbPath(), QByteArray(8192, 'j')));
    else
        QVERIFY(damageMiddle(dbPath(), 4));

    auto library = makeLibrary();
    QSignalSpy rebuilt(library.get(), &Library::indexRebuilt);
    QSignalSpy failed(library.get(), &Library::failed);
    QVERIFY(indexFolders(*library, {docs()}));
    QCOMPARE(rebuilt.size(), 1);
    QVERIFY(rebuilt.first().first().toString().contains(QLatin1String("damaged")));
    QCOMPARE(failed.size(), 0);
    QVERIFY(!library->query(QStringLiteral("Vantor relay calibration"), 5)->isEmpty());
    QCOMPARE(library->folderStatuses().value(0).files, 43);
}

void tst_KnowledgeIndex::survivesKillDuringIndexing()
{
    constexpr int Files = 1500;
    for (int i = 0; i < Files; ++i)
        QVERIFY(writeText(docs() + QStringLiteral("/many%1.md").arg(i),
                          QStringLiteral("# Note %1\n\nThe marker word kestrel%1 is here.\n\n").arg(i)
                              + filler(8, QStringLiteral("note %1").arg(i))));
    const int total = Files + 3;

    QProcess child;
    child.setProcessChannelMode(QProcess::ForwardedErrorChannel);
    child.start(QStringLiteral(HEADSTART_KNOWLEDGE_CHILD), {dbPath(), docs()});
    QVERIFY(child.waitForStarted(10000));
    // Killed once it is well into the pass, with files written and files to go.
    int done = 0;
    QTRY_VERIFY_WITH_TIMEOUT(([&] {
                                 while (child.canReadLine()) {
                                     const QList<QByteArray> parts = child.readLine().trimmed().split(' ');
                                     if (parts.size() == 3)
                                         done = parts[1].toInt();
                                 }
                                 return done >= 50 || child.state() != QProcess::Running;
                             }()),
                             IndexTimeoutMs);
    QCOMPARE(child.state(), QProcess::Running);
    child.kill(); // SIGKILL
    QVERIFY(child.waitForFinished(10000));
    QVERIFY2(done < total, "the pass finished before the kill; make it longer");

    auto library = makeLibrary();
    QSignalSpy rebuilt(library.get(), &Library::indexRebuilt);
    QSignalSpy failed(library.get(), &Library::failed);
    QVERIFY(indexFolders(*library, {docs()}));
    QCOMPARE(rebuilt.size(), 0); // not damaged: WAL and a transaction per file
    QCOMPARE(failed.size(), 0);
    QCOMPARE(library->folderStatuses().value(0).files, total);
    for (int i : {0, Files / 2, Files - 1}) {
        const auto found = library->query(QStringLiteral("kestrel%1").arg(i), 5);
        QVERIFY(found && !found->isEmpty());
        QCOMPARE(found->first().path, docs() + QStringLiteral("/many%1.md").arg(i));
    }
}

QTEST_GUILESS_MAIN(tst_KnowledgeIndex)
#include "tst_knowledgeindex.moc"
