// Base::MarkdownBlocks, the scanner that tells a streaming Markdown answer's complete blocks from
// its open tail: where paragraphs, headings, fences (``` and ~~~, closed or not), lists (nested,
// lazy, with code inside), indented code, quotes and tables end; CJK text, CRLF and a lone CR;
// and the scanner's promise: the same block ends for every way of splitting the same text into
// pieces (in two at every offset, one character at a time, in random pieces), each at the
// start of a line, in increasing order, never past what was fed.
#include "base/markdownblocks.h"

#include <QRandomGenerator>
#include <QTest>

using Base::MarkdownBlocks;

namespace {

struct Scan {
    QList<qsizetype> ends;
    bool inOpenFence = false; // before finish()
    qsizetype boundary = 0;   // before finish()
};

// Feeds `text` in pieces of `sizes` (the rest in one piece), checking at every step what holds
// for any split (a test fails otherwise): ends increase, each within what was fed and right after
// an LF, the last one is boundary().
Scan scan(const QString &text, const QList<qsizetype> &sizes = {})
{
    MarkdownBlocks blocks;
    Scan s;
    qsizetype pos = 0;
    auto check = [&](const QList<qsizetype> &ends) {
        for (qsizetype end : ends) {
            const qsizetype previous = s.ends.isEmpty() ? 0 : s.ends.constLast();
            if (end <= previous || end > blocks.size() || text.at(end - 1) != u'\n') {
                const QByteArray why =
                    QStringLiteral("end %1 after %2, %3 fed").arg(end).arg(previous).arg(blocks.size()).toUtf8();
                QTest::qFail(why.constData(), __FILE__, __LINE__);
            }
            s.ends.append(end);
        }
        if (blocks.boundary() != (s.ends.isEmpty() ? 0 : s.ends.constLast()))
            QTest::qFail("boundary() is not the last end", __FILE__, __LINE__);
        if (blocks.size() != pos)
            QTest::qFail("size() is not what was fed", __FILE__, __LINE__);
    };
    for (qsizetype size : sizes) {
        size = qMin(size, text.size() - pos);
        const QList<qsizetype> ends = blocks.feed(QStringView(text).mid(pos, size));
        pos += size;
        check(ends);
    }
    const QList<qsizetype> ends = blocks.feed(QStringView(text).mid(pos));
    pos = text.size();
    check(ends);
    s.inOpenFence = blocks.inOpenFence();
    s.boundary = blocks.boundary();
    return s;
}

// The complete blocks of `text` (fed at once, not finished), as the text of each.
QStringList complete(const QString &text)
{
    const Scan s = scan(text);
    QStringList out;
    qsizetype from = 0;
    for (qsizetype end : s.ends) {
        out << text.mid(from, end - from);
        from = end;
    }
    return out;
}

// What is left open after the complete blocks.
QString tail(const QString &text)
{
    return text.mid(scan(text).boundary);
}

// Texts that exercise every rule, for the split tests.
QStringList corpus()
{
    return {
        QStringLiteral("# Title\n\nA paragraph\nover two lines.\n\n## Part\nText right under it.\n"),
        QStringLiteral(
            "Intro:\n\n```cpp\nint x = 1;\n\nreturn x;\n```\nAfter the code.\n\n~~~\n```\nstill code\n~~~\n"),
        QStringLiteral("Unclosed:\n````python\nprint(1)\n```\nstill in it\n"),
        QStringLiteral("- one\n- two\n  continued\n- three\n\n  more of three\n\nAfter.\n"),
        QStringLiteral(
            "1. first\n   - nested a\n   - nested b\n2. second\n\n   ```\n   - not an item\n   ```\n3. third\n# H\n"),
        QStringLiteral("Text\n2. not a list\n1. a list\n* bullet\nlazy\n> quote\n"),
        QStringLiteral("| a | b |\n|---|---|\n| 1 | 2 |\n| 3 | 4 |\n\nAfter the table.\n"),
        QStringLiteral("    indented code\n\n    more code\nnot yet a paragraph\n\nA paragraph.\n"),
        QStringLiteral(
            "你好，世界。这是第一段。\n\n# 标题\n- 项目一\n- 项目二 😀\n\n１. 全角数字不是列表\n\n𠀀𠀁 supplementary Han.\n"),
        QStringLiteral("One\r\nline\r\n\r\n```\r\ncode\r\n```\r\n- a\r\n- b\r\n\r\nEnd\r\n"),
        QStringLiteral("Lone\rCR\r\rtext\r"),
        QStringLiteral("\n\n\t\n  \n- \n-\n+ x\n1) y\n12345678901. z\n#\n####### seven\n#hash\n> \n```a`b\n"),
    };
}

} // namespace

class tst_MarkdownBlocks : public QObject
{
    Q_OBJECT

private slots:
    void nothingBeforeALineEnds();
    void paragraphsEndAtABlankLine();
    void headingsEndAtTheirLine();
    void backtickFencesEndWhenClosed();
    void tildeFencesAndLongerFences();
    void unclosedFenceStaysOpenUntilFinish();
    void notAFence();
    void listItemsEndWhenTheNextStarts();
    void nestedListsStayWithTheItem();
    void fenceInAListItem();
    void onlyABulletOrOneInterruptsAParagraph();
    void lazyContinuationStaysWithTheItem();
    void listEndsAtAHeadingOrAfterABlankLine();
    void indentedCode();
    void quotesAndTablesEndAtABlankLine();
    void cjkText();
    void crlfIsOneLineEnd();
    void loneCrIsNoLineEnd();
    void finishCompletesTheTail();
    void resetStartsAfresh();
    void sameEndsInTwoPiecesAtEveryOffset();
    void sameEndsOneCharacterAtATime();
    void sameEndsInRandomPieces();
};

void tst_MarkdownBlocks::nothingBeforeALineEnds()
{
    MarkdownBlocks blocks;
    QVERIFY(blocks.feed(u"# A heading still arriving").isEmpty());
    QCOMPARE(blocks.boundary(), 0);
    QCOMPARE(blocks.size(), 26);
    QCOMPARE(blocks.feed(u"\n"), QList<qsizetype>{27});
    QCOMPARE(blocks.boundary(), 27);
    QCOMPARE(blocks.feed(u"\n"), QList<qsizetype>{28}); // a blank line is nothing to wait for
    QVERIFY(blocks.feed(u"Text").isEmpty());
    QVERIFY(blocks.feed(QStringView()).isEmpty());
    QCOMPARE(blocks.size(), 32);
    QCOMPARE(blocks.boundary(), 28);
}

void tst_MarkdownBlocks::paragraphsEndAtABlankLine()
{
    const QString text = QStringLiteral("One,\nstill one.\n\nTwo.\n");
    QCOMPARE(complete(text), QStringList{QStringLiteral("One,\nstill one.\n\n")});
    QCOMPARE(tail(text), QStringLiteral("Two.\n"));
    // A line of spaces and tabs is blank too.
    QCOMPARE(complete(QStringLiteral("One.\n \t \nTwo.")), QStringList{QStringLiteral("One.\n \t \n")});
    // Blank lines at the start are nothing to wait for.
    QCOMPARE(complete(QStringLiteral("\n\nText")), (QStringList{QStringLiteral("\n"), QStringLiteral("\n")}));
}

void tst_MarkdownBlocks::headingsEndAtTheirLine()
{
    // A heading is complete at its line end, and it ends the paragraph above it with it.
    const QString text = QStringLiteral("# A\nText\n## B\nMore");
    QCOMPARE(complete(text), (QStringList{QStringLiteral("# A\n"), QStringLiteral("Text\n## B\n")}));
    QCOMPARE(complete(QStringLiteral("###### Six\n")), QStringList{QStringLiteral("###### Six\n")});
    QCOMPARE(complete(QStringLiteral("#\n")), QStringList{QStringLiteral("#\n")}); // empty, still a heading
    QCOMPARE(complete(QStringLiteral("   ### Indented three\n")),
             QStringList{QStringLiteral("   ### Indented three\n")});
    // Not headings: seven #, no space after them, indented four (code).
    QVERIFY(complete(QStringLiteral("####### Seven\n")).isEmpty());
    QVERIFY(complete(QStringLiteral("#hashtag\n")).isEmpty());
    QVERIFY(complete(QStringLiteral("    # code\n")).isEmpty());
}

void tst_MarkdownBlocks::backtickFencesEndWhenClosed()
{
    const QString text = QStringLiteral("Intro.\n```cpp\nint x;\n\n# not a heading\n- not an item\n```\nAfter");
    // The fence interrupts the paragraph before it, which is complete then; the blank line, the
    // "heading" and the "item" inside are code.
    QCOMPARE(complete(text), (QStringList{QStringLiteral("Intro.\n"),
                                          QStringLiteral("```cpp\nint x;\n\n# not a heading\n- not an item\n```\n")}));
    QCOMPARE(tail(text), QStringLiteral("After"));
    QVERIFY(!scan(text).inOpenFence);
    // A closing fence may be indented up to three spaces and followed by spaces.
    QCOMPARE(complete(QStringLiteral("```\ncode\n   ```  \n")).size(), 1);
    // ... not four, and not with text after it.
    QVERIFY(complete(QStringLiteral("```\ncode\n    ```\n")).isEmpty());
    QVERIFY(complete(QStringLiteral("```\ncode\n``` x\n")).isEmpty());
}

void tst_MarkdownBlocks::tildeFencesAndLongerFences()
{
    // Backticks do not close a tilde fence, nor a shorter fence a longer one.
    QCOMPARE(complete(QStringLiteral("~~~\n```\nstill code\n~~~\n")),
             QStringList{QStringLiteral("~~~\n```\nstill code\n~~~\n")});
    QVERIFY(scan(QStringLiteral("~~~\n```\n")).inOpenFence);
    QCOMPARE(complete(QStringLiteral("````\n```\n`````\n")), QStringList{QStringLiteral("````\n```\n`````\n")});
    QVERIFY(complete(QStringLiteral("````\n```\n")).isEmpty());
    // A tilde fence's info string may hold backticks.
    QCOMPARE(complete(QStringLiteral("~~~ a`b\nx\n~~~\n")).size(), 1);
}

void tst_MarkdownBlocks::unclosedFenceStaysOpenUntilFinish()
{
    const QString text = QStringLiteral("Intro:\n```python\nprint(1)\n\nprint(2)\n");
    const Scan s = scan(text);
    QCOMPARE(s.ends, QList<qsizetype>{7}); // the paragraph before it
    QVERIFY(s.inOpenFence);                // the tail is code: a view shows it in fixed pitch

    MarkdownBlocks blocks;
    (void)blocks.feed(text);
    QCOMPARE(blocks.finish(), QList<qsizetype>{text.size()});
    QCOMPARE(blocks.boundary(), text.size());
    QVERIFY(!blocks.inOpenFence());
}

void tst_MarkdownBlocks::notAFence()
{
    // Two backticks, a backtick in a backtick fence's info string (inline code), four spaces.
    QCOMPARE(complete(QStringLiteral("``\nx\n\n")).size(), 1);
    QVERIFY(!scan(QStringLiteral("``\n")).inOpenFence);
    QVERIFY(!scan(QStringLiteral("```a`b\n")).inOpenFence);
    QVERIFY(!scan(QStringLiteral("    ```\n")).inOpenFence);
}

void tst_MarkdownBlocks::listItemsEndWhenTheNextStarts()
{
    const QString text = QStringLiteral("- one\n- two\n- three\n\nAfter.\n");
    QCOMPARE(complete(text),
             (QStringList{QStringLiteral("- one\n"), QStringLiteral("- two\n"), QStringLiteral("- three\n\n")}));
    QCOMPARE(tail(text), QStringLiteral("After.\n"));
    // Ordered, with either delimiter; * and + bullets.
    QCOMPARE(complete(QStringLiteral("1. a\n2. b\n3) c\n")).size(), 2);
    QCOMPARE(complete(QStringLiteral("* a\n+ b\n")).size(), 1);
    // A blank line between items: the list goes on (loose), the item before is complete.
    QCOMPARE(complete(QStringLiteral("- a\n\n- b\n")), QStringList{QStringLiteral("- a\n\n")});
    // An item's second paragraph, indented to its text, stays with it.
    QVERIFY(complete(QStringLiteral("- a\n\n  more of a\n")).isEmpty());
    // Not markers: no space after them, a number of ten digits, a decimal.
    QVERIFY(complete(QStringLiteral("Text\n-x\n1234567890. y\n1.5 z\n")).isEmpty());
}

void tst_MarkdownBlocks::nestedListsStayWithTheItem()
{
    const QString text = QStringLiteral("1. one\n   - a\n   - b\n     - deeper\n2. two\n");
    QCOMPARE(complete(text), QStringList{QStringLiteral("1. one\n   - a\n   - b\n     - deeper\n")});
    QCOMPARE(tail(text), QStringLiteral("2. two\n"));
    // Indented by a tab, the nested list is inside the item too.
    QCOMPARE(complete(QStringLiteral("- one\n\t- a\n- two\n")), QStringList{QStringLiteral("- one\n\t- a\n")});
}

void tst_MarkdownBlocks::fenceInAListItem()
{
    const QString text = QStringLiteral("- item\n\n  ```\n  - not an item\n\n  ```\n- next\n");
    QCOMPARE(complete(text), QStringList{QStringLiteral("- item\n\n  ```\n  - not an item\n\n  ```\n")});
    // Inside an item the fence is the item's: the tail is not shown as top-level code.
    QVERIFY(!scan(QStringLiteral("- item\n  ```\n  code\n")).inOpenFence);
}

void tst_MarkdownBlocks::onlyABulletOrOneInterruptsAParagraph()
{
    QVERIFY(complete(QStringLiteral("Text\n2. not a list\n\n")).size() == 1);
    QCOMPARE(complete(QStringLiteral("Text\n2. not a list\n\n")).first(), QStringLiteral("Text\n2. not a list\n\n"));
    QCOMPARE(complete(QStringLiteral("Text\n1. a list\n")), QStringList{QStringLiteral("Text\n")});
    QCOMPARE(complete(QStringLiteral("Text\n- a list\n")), QStringList{QStringLiteral("Text\n")});
    // After a blank line any number starts a list.
    QCOMPARE(complete(QStringLiteral("Text\n\n7. seven\n8. eight\n")),
             (QStringList{QStringLiteral("Text\n\n"), QStringLiteral("7. seven\n")}));
}

void tst_MarkdownBlocks::lazyContinuationStaysWithTheItem()
{
    QCOMPARE(complete(QStringLiteral("- item\ncontinued lazily\n- next\n")),
             QStringList{QStringLiteral("- item\ncontinued lazily\n")});
}

void tst_MarkdownBlocks::listEndsAtAHeadingOrAfterABlankLine()
{
    QCOMPARE(complete(QStringLiteral("- a\n# H\n")), (QStringList{QStringLiteral("- a\n"), QStringLiteral("# H\n")}));
    QCOMPARE(complete(QStringLiteral("- a\n> quote\n")), QStringList{QStringLiteral("- a\n")});
    QCOMPARE(complete(QStringLiteral("- a\n```\n")), QStringList{QStringLiteral("- a\n")});
    QCOMPARE(complete(QStringLiteral("- a\n\nParagraph\n")), QStringList{QStringLiteral("- a\n\n")});
}

void tst_MarkdownBlocks::indentedCode()
{
    // Blank lines inside do not end it; a line after a blank one that is not indented does.
    QCOMPARE(complete(QStringLiteral("    code\n\n    more\n\nText\n")),
             QStringList{QStringLiteral("    code\n\n    more\n\n")});
    // A paragraph line right after it, without a blank line, is kept with it (waiting).
    QVERIFY(complete(QStringLiteral("    code\nText\n\n")).isEmpty());
    QCOMPARE(complete(QStringLiteral("\tcode\n\nText\n")), QStringList{QStringLiteral("\tcode\n\n")});
}

void tst_MarkdownBlocks::quotesAndTablesEndAtABlankLine()
{
    QCOMPARE(complete(QStringLiteral("> quote\n> more\n\nAfter")), QStringList{QStringLiteral("> quote\n> more\n\n")});
    // A table is complete only at the blank line after it: every row may still come.
    const QString table = QStringLiteral("| a | b |\n|---|---|\n| 1 | 2 |\n");
    QVERIFY(complete(table).isEmpty());
    QCOMPARE(complete(table + QStringLiteral("\nAfter")), QStringList{table + QStringLiteral("\n")});
    // ... or at a heading, which ends it and is complete with it.
    QCOMPARE(complete(table + QStringLiteral("# Next\n")), QStringList{table + QStringLiteral("# Next\n")});
}

void tst_MarkdownBlocks::cjkText()
{
    const QString text = QStringLiteral(
        "你好，世界。\n\n# 标题\n- 项目一\n- 项目二 😀\n\n１. 全角数字\n－ 全角减号\n\n𠀀𠀁\n");
    QCOMPARE(complete(text),
             (QStringList{QStringLiteral("你好，世界。\n\n"), QStringLiteral("# 标题\n"), QStringLiteral("- 项目一\n"),
                          QStringLiteral("- 项目二 😀\n\n"), QStringLiteral("１. 全角数字\n－ 全角减号\n\n")}));
    // Offsets are UTF-16 code units: a supplementary character counts two.
    QCOMPARE(scan(QStringLiteral("𠀀\n\n")).ends, QList<qsizetype>{4});
}

void tst_MarkdownBlocks::crlfIsOneLineEnd()
{
    const QString text = QStringLiteral("One\r\n\r\n```\r\ncode\r\n```\r\n- a\r\n- b\r\n");
    QCOMPARE(complete(text), (QStringList{QStringLiteral("One\r\n\r\n"), QStringLiteral("```\r\ncode\r\n```\r\n"),
                                          QStringLiteral("- a\r\n")}));
    // The CR and the LF in different pieces: the same.
    MarkdownBlocks blocks;
    QVERIFY(blocks.feed(u"# H\r").isEmpty());
    QCOMPARE(blocks.feed(u"\n"), QList<qsizetype>{5});
}

void tst_MarkdownBlocks::loneCrIsNoLineEnd()
{
    // Models send LF or CRLF; a CR alone is waited past, never taken for a line end too early.
    QVERIFY(complete(QStringLiteral("One\r\rTwo\r# H\r")).isEmpty());
    MarkdownBlocks blocks;
    (void)blocks.feed(u"One\r\rTwo");
    QCOMPARE(blocks.finish(), QList<qsizetype>{8});
}

void tst_MarkdownBlocks::finishCompletesTheTail()
{
    MarkdownBlocks blocks;
    (void)blocks.feed(u"Para.\n\nOpen");
    QCOMPARE(blocks.boundary(), 7);
    QVERIFY(!blocks.isFinished());
    QCOMPARE(blocks.finish(), QList<qsizetype>{11});
    QVERIFY(blocks.isFinished());
    QVERIFY(blocks.finish().isEmpty());
    QVERIFY(blocks.feed(u"\n\nmore\n\n").isEmpty()); // after the end, nothing
    QCOMPARE(blocks.size(), 11);
    // Ended on a boundary: nothing to add.
    MarkdownBlocks ended;
    (void)ended.feed(u"Para.\n\n");
    QVERIFY(ended.finish().isEmpty());
    QCOMPARE(ended.boundary(), 7);
    // Nothing fed: nothing.
    QVERIFY(MarkdownBlocks().finish().isEmpty());
}

void tst_MarkdownBlocks::resetStartsAfresh()
{
    MarkdownBlocks blocks;
    (void)blocks.feed(u"```\ncode\n");
    QVERIFY(blocks.inOpenFence());
    (void)blocks.finish();
    blocks.reset();
    QCOMPARE(blocks.size(), 0);
    QCOMPARE(blocks.boundary(), 0);
    QVERIFY(!blocks.inOpenFence());
    QVERIFY(!blocks.isFinished());
    QCOMPARE(blocks.feed(u"Para.\n\n"), QList<qsizetype>{7});
}

void tst_MarkdownBlocks::sameEndsInTwoPiecesAtEveryOffset()
{
    for (const QString &text : corpus()) {
        const Scan whole = scan(text);
        for (qsizetype at = 0; at <= text.size(); ++at) {
            const Scan split = scan(text, {at});
            QVERIFY2(split.ends == whole.ends && split.inOpenFence == whole.inOpenFence,
                     qPrintable(QStringLiteral("split at %1 of %2").arg(at).arg(text.left(40))));
        }
    }
}

void tst_MarkdownBlocks::sameEndsOneCharacterAtATime()
{
    for (const QString &text : corpus()) {
        const Scan whole = scan(text);
        QVERIFY(!whole.ends.isEmpty() || text.startsWith(QLatin1String("Lone")));
        const Scan single = scan(text, QList<qsizetype>(text.size(), 1));
        QCOMPARE(single.ends, whole.ends);
        QCOMPARE(single.inOpenFence, whole.inOpenFence);
    }
}

void tst_MarkdownBlocks::sameEndsInRandomPieces()
{
    QRandomGenerator random(38); // fixed: a failure repeats
    QString all;
    for (const QString &text : corpus())
        all += text;
    const Scan whole = scan(all);
    for (int round = 0; round < 200; ++round) {
        QList<qsizetype> sizes;
        for (qsizetype left = all.size(); left > 0;) {
            const qsizetype size = qMin(left, qsizetype(random.bounded(1, 24)));
            sizes << size;
            left -= size;
        }
        const Scan pieces = scan(all, sizes);
        QCOMPARE(pieces.ends, whole.ends);
        QCOMPARE(pieces.inOpenFence, whole.inOpenFence);
    }
}

QTEST_APPLESS_MAIN(tst_MarkdownBlocks)
#include "tst_markdownblocks.moc"
