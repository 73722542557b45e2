// The knowledge base's pure parts: chunking Markdown, plain text and long Chinese text (heading
// trails, offsets, the token limit, fenced code); reading files (UTF-8 with and without BOM,
// UTF-16 with BOM, GB18030; binary, too large, not decodable, unreadable and vanished files
// skipped with a translated reason); PDFs written by hand read page by page through Poppler
// (encrypted, damaged and textless ones skipped with their reasons), chunked per page with page
// numbers; the index terms of both tokenizations.
#include "knowledge/chunker.h"
#include "knowledge/filereader.h"
#include "knowledge/pdfreader.h"
#include "knowledge/searchterms.h"

#include "support/minimalpdf.h"

#include "prefetch/prompts/prompttemplate.h"

#include <QDir>
#include <QFile>
#include <QStringEncoder>
#include <QTemporaryDir>
#include <QTest>

using namespace Knowledge;

namespace {

bool writeBytes(const QString &path, const QByteArray &bytes)
{
    QFile f(path);
    return f.open(QIODevice::WriteOnly) && f.write(bytes) == bytes.size();
}

QString repeatSentences(const QString &sentence, int count)
{
    QString s;
    for (int i = 0; i < count; ++i)
        s += sentence.arg(i);
    return s;
}

} // namespace

class tst_Knowledge : public QObject
{
    Q_OBJECT

private slots:
    void markdownHeadingTrailsAndOffsets();
    void fencedCodeIsNotAHeading();
    void chunksStayWithinTheTokenLimit_data();
    void chunksStayWithinTheTokenLimit();
    void smallParagraphsArePacked();
    void readsEncodings_data();
    void readsEncodings();
    void skipsWithReasons_data();
    void skipsWithReasons();
    void unreadableAndVanished();
    void fileTypes();
    void readsPdfPages();
    void skipsPdfsWithReasons_data();
    void skipsPdfsWithReasons();
    void chunksPdfPages();
    void bigramIndexText();
    void queryTerms_data();
    void queryTerms();
};

void tst_Knowledge::markdownHeadingTrailsAndOffsets()
{
    const QString text = QStringLiteral("Preface line.\n\n# Intro\n\nWelcome.\n\n## Setup\n\nInstall it.\n\n"
                                        "Then run it.\n\n## Use\n\nType.\n\n# Reference ##\n\nAll options.\n");
    const QList<Chunk> chunks = chunkText(text, TextKind::Markdown);
    QCOMPARE(chunks.size(), 5);
    const QStringList trails{QString(), QStringLiteral("Intro"), QStringLiteral("Intro > Setup"),
                             QStringLiteral("Intro > Use"), QStringLiteral("Reference")};
    const QStringList starts{QStringLiteral("Preface"), QStringLiteral("# Intro"), QStringLiteral("## Setup"),
                             QStringLiteral("## Use"), QStringLiteral("# Reference")};
    for (int i = 0; i < chunks.size(); ++i) {
        QCOMPARE(chunks[i].headingTrail, trails[i]);
        const QString passage = text.mid(chunks[i].start, chunks[i].end - chunks[i].start);
        QVERIFY2(passage.startsWith(starts[i]), qPrintable(passage));
        QVERIFY(!passage.endsWith(u'\n'));
        if (i > 0)
            QVERIFY(chunks[i].start >= chunks[i - 1].end);
    }
    // Both paragraphs of Setup are one passage: together they are far under the limit.
    QVERIFY(text.mid(chunks[2].start, chunks[2].end - chunks[2].start).endsWith(QStringLiteral("Then run it.")));
}

void tst_Knowledge::fencedCodeIsNotAHeading()
{
    const QString text = QStringLiteral("# Build\n\n```sh\n# not a heading\n\nmake\n```\n\n# Next\n\nx\n");
    const QList<Chunk> chunks = chunkText(text, TextKind::Markdown);
    QCOMPARE(chunks.size(), 2);
    QCOMPARE(chunks[0].headingTrail, QStringLiteral("Build"));
    QVERIFY(text.mid(chunks[0].start, chunks[0].end - chunks[0].start).contains(QStringLiteral("make\n```")));
    QCOMPARE(chunks[1].headingTrail, QStringLiteral("Next"));
    // In source, '#' lines are comments: no trail at all.
    for (const Chunk &c : chunkText(text, TextKind::Source))
        QVERIFY(c.headingTrail.isEmpty());
}

void tst_Knowledge::chunksStayWithinTheTokenLimit_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<int>("maxTokens");
    QTest::addRow("english paragraphs") << repeatSentences(QStringLiteral("Sentence %1 says a few words. "), 400)
                                        << 100;
    QTest::addRow("chinese without spaces") << repeatSentences(QStringLiteral("第%1句话讲了一件事情。"), 300) << 80;
    QTest::addRow("one huge word") << QString(5000, u'x') << 50;
    QTest::addRow("han without punctuation") << QString(3000, QChar(0x5b57)) << 120;
}

void tst_Knowledge::chunksStayWithinTheTokenLimit()
{
    QFETCH(QString, text);
    QFETCH(int, maxTokens);
    const QList<Chunk> chunks = chunkText(text, TextKind::PlainText, maxTokens);
    QVERIFY(chunks.size() > 1);
    qsizetype covered = 0;
    for (int i = 0; i < chunks.size(); ++i) {
        const QStringView passage = QStringView(text).sliced(chunks[i].start, chunks[i].end - chunks[i].start);
        QVERIFY2(Prefetch::estimateTokens(passage) <= maxTokens, qPrintable(QString::number(i)));
        QVERIFY(chunks[i].start >= covered); // in order, no overlap
        covered = chunks[i].end;
    }
    // Nothing but whitespace is left out.
    QCOMPARE(chunks.first().start, 0);
    QCOMPARE(QStringView(text).sliced(chunks.last().end).trimmed().size(), 0);
    // Passages are near the limit, not a sentence each.
    QVERIFY(chunks.size() <= 2 * (Prefetch::estimateTokens(text) / maxTokens + 1));
}

void tst_Knowledge::smallParagraphsArePacked()
{
    QString text;
    for (int i = 0; i < 30; ++i)
        text += QStringLiteral("Paragraph %1 has some words in it.\n\n").arg(i);
    const QList<Chunk> chunks = chunkText(text, TextKind::PlainText, 60);
    QVERIFY(chunks.size() >= 5);
    QVERIFY(chunks.size() < 15);
}

void tst_Knowledge::readsEncodings_data()
{
    const QString chinese = QStringLiteral("项目代号星河七号的负责人是王立新。\nHeadstart notes.\n");
    QTest::addColumn<QByteArray>("bytes");
    QTest::addColumn<QString>("text");
    QTest::addColumn<QByteArray>("encoding");
    QTest::addRow("utf-8") << chinese.toUtf8() << chinese << QByteArray("UTF-8");
    QTest::addRow("utf-8 with bom") << QByteArray("\xef\xbb\xbf") + chinese.toUtf8() << chinese << QByteArray("UTF-8");
    QStringEncoder le(QStringEncoder::Utf16LE);
    QStringEncoder be(QStringEncoder::Utf16BE);
    QTest::addRow("utf-16le bom") << QByteArray("\xff\xfe") + QByteArray(le.encode(chinese)) << chinese
                                  << QByteArray("UTF-16LE");
    QTest::addRow("utf-16be bom") << QByteArray("\xfe\xff") + QByteArray(be.encode(chinese)) << chinese
                                  << QByteArray("UTF-16BE");
    QStringEncoder gb("GB18030");
    QVERIFY(gb.isValid());
    QTest::addRow("gb18030") << QByteArray(gb.encode(chinese)) << chinese << QByteArray("GB18030");
}

void tst_Knowledge::readsEncodings()
{
    QFETCH(QByteArray, bytes);
    QFETCH(QString, text);
    QFETCH(QByteArray, encoding);
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("note.txt"));
    QVERIFY(writeBytes(path, bytes));
    const auto read = readTextFile(path, DefaultMaxFileBytes);
    QVERIFY(read.has_value());
    QCOMPARE(read->text, text);
    QCOMPARE(read->encoding, encoding);
    QCOMPARE(read->size, bytes.size());
    QCOMPARE(read->hash.size(), 40);
}

void tst_Knowledge::skipsWithReasons_data()
{
    QTest::addColumn<QByteArray>("bytes");
    QTest::addColumn<qint64>("limit");
    QTest::addColumn<int>("reason");
    QTest::addRow("nul byte") << QByteArray("text\0more text", 14) << DefaultMaxFileBytes << int(SkipReason::Binary);
    QTest::addRow("control characters") << QByteArray("\x01\x02\x03\x04 abc\x05\x06\x07\x08") << DefaultMaxFileBytes
                                        << int(SkipReason::Binary);
    QTest::addRow("over the limit") << QByteArray(2001, 'a') << qint64(2000) << int(SkipReason::TooLarge);
    // 0xFF starts no sequence in UTF-8 or GB18030.
    QTest::addRow("undecodable") << QByteArray("caf\xff\xff text") << DefaultMaxFileBytes
                                 << int(SkipReason::BadEncoding);
    QTest::addRow("utf-16 with a lone surrogate")
        << QByteArray("\xff\xfe\x00\xd8\x41\x00", 6) << DefaultMaxFileBytes << int(SkipReason::BadEncoding);
}

void tst_Knowledge::skipsWithReasons()
{
    QFETCH(QByteArray, bytes);
    QFETCH(qint64, limit);
    QFETCH(int, reason);
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("file.txt"));
    QVERIFY(writeBytes(path, bytes));
    const auto read = readTextFile(path, limit);
    QVERIFY(!read.has_value());
    QCOMPARE(int(read.error()), reason);
    QVERIFY(!skipMessage(read.error()).isEmpty());
    SkipReason back;
    QVERIFY(skipReasonFromName(QString::fromLatin1(skipReasonName(read.error())), &back));
    QCOMPARE(back, read.error());
    // Exactly at the limit is fine.
    if (read.error() == SkipReason::TooLarge)
        QVERIFY(readTextFile(path, bytes.size()).has_value());
}

void tst_Knowledge::unreadableAndVanished()
{
    QTemporaryDir dir;
    // A directory under a file's name cannot be opened as one (chmod would not stop root).
    const QString directory = dir.filePath(QStringLiteral("notes.md"));
    QVERIFY(QDir().mkpath(directory));
    QCOMPARE(readTextFile(directory, DefaultMaxFileBytes).error(), SkipReason::Unreadable);
    QCOMPARE(readTextFile(dir.filePath(QStringLiteral("gone.md")), DefaultMaxFileBytes).error(), SkipReason::Vanished);
    QVERIFY(skipMessage(SkipReason::Vanished) != skipMessage(SkipReason::Unreadable));
}

void tst_Knowledge::fileTypes()
{
    QCOMPARE(fileTypeOf(QStringLiteral("/a/b.MD")), FileType::Text);
    QCOMPARE(textKindOf(QStringLiteral("/a/b.MD")), TextKind::Markdown);
    QCOMPARE(textKindOf(QStringLiteral("/a/b.cpp")), TextKind::Source);
    QCOMPARE(textKindOf(QStringLiteral("/a/b.txt")), TextKind::PlainText);
    QCOMPARE(fileTypeOf(QStringLiteral("/a/Makefile")), FileType::Text);
    QCOMPARE(fileTypeOf(QStringLiteral("/a/report.pdf")), FileType::Pdf);
    QVERIFY(!fileTypeOf(QStringLiteral("/a/photo.jpg")));
    QVERIFY(!fileTypeOf(QStringLiteral("/a/archive.tar.gz")));
}

void tst_Knowledge::readsPdfPages()
{
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("report.pdf"));
    const QByteArray bytes = TestSupport::minimalPdf(
        {QStringLiteral("Quarterly report\nThe lighthouse keeper logs (every) storm."),
         QStringLiteral("Appendix\nThe harbour budget is 42 crowns.")});
    QVERIFY(writeBytes(path, bytes));
    const auto read = readPdfFile(path, DefaultMaxPdfBytes, DefaultMaxFileBytes);
    QVERIFY2(read.has_value(), read ? "" : skipReasonName(read.error()));
    QCOMPARE(read->pages.size(), 2);
    QVERIFY2(read->pages[0].simplified().contains(QStringLiteral("The lighthouse keeper logs (every) storm.")),
             qPrintable(read->pages[0]));
    QVERIFY(!read->pages[0].contains(QStringLiteral("harbour")));
    QVERIFY2(read->pages[1].simplified().contains(QStringLiteral("The harbour budget is 42 crowns.")),
             qPrintable(read->pages[1]));
    QCOMPARE(read->size, bytes.size());
    QCOMPARE(read->hash.size(), 40);
    // The text limit counts too: two short pages over a limit of a few bytes.
    QCOMPARE(readPdfFile(path, DefaultMaxPdfBytes, 16).error(), SkipReason::TooLarge);
    QCOMPARE(readPdfFile(path, bytes.size() - 1, DefaultMaxFileBytes).error(), SkipReason::TooLarge);
}

void tst_Knowledge::skipsPdfsWithReasons_data()
{
    QTest::addColumn<QByteArray>("bytes");
    QTest::addColumn<int>("reason");
    QTest::addRow("encrypted") << TestSupport::minimalPdf({QStringLiteral("Secret plans")},
                                                          TestSupport::PdfKind::Encrypted)
                               << int(SkipReason::Encrypted);
    QTest::addRow("damaged") << TestSupport::damagedPdf() << int(SkipReason::Damaged);
    QTest::addRow("not a pdf at all") << QByteArray("just some text, named .pdf") << int(SkipReason::Damaged);
    QTest::addRow("pages without text") << TestSupport::minimalPdf({QString(), QString()}) << int(SkipReason::NoText);
}

void tst_Knowledge::skipsPdfsWithReasons()
{
    QFETCH(QByteArray, bytes);
    QFETCH(int, reason);
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("file.pdf"));
    QVERIFY(writeBytes(path, bytes));
    const auto read = readPdfFile(path, DefaultMaxPdfBytes, DefaultMaxFileBytes);
    QVERIFY(!read.has_value());
    QCOMPARE(int(read.error()), reason);
    QVERIFY(!skipMessage(read.error()).isEmpty());
    SkipReason back;
    QVERIFY(skipReasonFromName(QString::fromLatin1(skipReasonName(read.error())), &back));
    QCOMPARE(back, read.error());
    QCOMPARE(readPdfFile(dir.filePath(QStringLiteral("gone.pdf")), DefaultMaxPdfBytes, DefaultMaxFileBytes).error(),
             SkipReason::Vanished);
}

void tst_Knowledge::chunksPdfPages()
{
    const QStringList pages{repeatSentences(QStringLiteral("Sentence %1 of the first page is here. "), 40),
                            QStringLiteral("Only one line on page two."), QString(), QStringLiteral("Page four.")};
    const QString joined = joinPages(pages);
    const QList<Chunk> chunks = chunkPages(pages, 60);
    QVERIFY(chunks.size() >= 4);
    int lastPage = 0;
    for (const Chunk &c : chunks) {
        QVERIFY(c.page >= lastPage);
        lastPage = c.page;
        // Never across a page: the passage is inside its page's text in the joined text.
        const QString text = joined.sliced(c.start, c.end - c.start);
        QVERIFY2(pages.at(c.page - 1).contains(text), qPrintable(text));
        QVERIFY(!text.contains(QStringLiteral("\n\n")));
    }
    QCOMPARE(chunks.last().page, 4);
    QCOMPARE(joined.sliced(chunks.last().start, chunks.last().end - chunks.last().start), QStringLiteral("Page four."));
    QVERIFY(std::none_of(chunks.cbegin(), chunks.cend(), [](const Chunk &c) { return c.page == 3; }));
}

void tst_Knowledge::bigramIndexText()
{
    QCOMPARE(indexedText(QStringLiteral("Qt 知识库 ok"), Tokenization::Bigram).simplified(),
             QStringLiteral("Qt 知识 识库 ok"));
    QCOMPARE(indexedText(QStringLiteral("一"), Tokenization::Bigram).simplified(), QStringLiteral("一"));
    QCOMPARE(indexedText(QStringLiteral("知识库"), Tokenization::Trigram), QStringLiteral("知识库"));
    // Punctuation ends a run: no pair spans it.
    QVERIFY(!indexedText(QStringLiteral("知识。库存"), Tokenization::Bigram).contains(QStringLiteral("识库")));
}

void tst_Knowledge::queryTerms_data()
{
    QTest::addColumn<QString>("question");
    QTest::addColumn<int>("mode");
    QTest::addColumn<QStringList>("terms");
    QTest::addRow("english bigram") << QStringLiteral("What is the calibration code of the Vantor relay?")
                                    << int(Tokenization::Bigram)
                                    << QStringList{QStringLiteral("calibration"), QStringLiteral("code"),
                                                   QStringLiteral("vantor"), QStringLiteral("relay")};
    QTest::addRow("english trigram drops short words")
        << QStringLiteral("Is the QZ code 4471?") << int(Tokenization::Trigram)
        << QStringList{QStringLiteral("code"), QStringLiteral("4471")};
    QTest::addRow("chinese bigram") << QStringLiteral("星河的负责人是谁？") << int(Tokenization::Bigram)
                                    << QStringList{QStringLiteral("星河"), QStringLiteral("河的"),
                                                   QStringLiteral("的负"), QStringLiteral("负责"),
                                                   QStringLiteral("责人"), QStringLiteral("人是")};
    QTest::addRow("chinese trigram") << QStringLiteral("星河的负责人") << int(Tokenization::Trigram)
                                     << QStringList{QStringLiteral("星河的"), QStringLiteral("河的负"),
                                                    QStringLiteral("的负责"), QStringLiteral("负责人")};
    QTest::addRow("two han characters cannot be a trigram")
        << QStringLiteral("星河") << int(Tokenization::Trigram) << QStringList{};
    QTest::addRow("only stop words") << QStringLiteral("what is it?") << int(Tokenization::Bigram) << QStringList{};
}

void tst_Knowledge::queryTerms()
{
    QFETCH(QString, question);
    QFETCH(int, mode);
    QFETCH(QStringList, terms);
    QCOMPARE(Knowledge::queryTerms(question, Tokenization(mode)), terms);
    QCOMPARE(matchExpression(terms).isEmpty(), terms.isEmpty());
    if (!terms.isEmpty())
        QCOMPARE(matchExpression(terms).count(QStringLiteral(" OR ")), terms.size() - 1);
}

QTEST_GUILESS_MAIN(tst_Knowledge)
#include "tst_knowledge.moc"
