// Markdown in the document answer pane (issue 14): code blocks highlighted in both panes (the
// formats laid over the code's text, not pixels), a Copy button per code block that puts exactly
// the code on the clipboard, reasoning folded and opened by pointer and keyboard, and Insert
// putting the answer's Markdown source, streamed from the local provider, into the document.
#include "support/localproviderfixture.h"
#include "support/windowservices.h"

#include "gui/answer/answerpane.h"
#include "gui/answer/codecopybuttons.h"
#include "gui/answer/codehighlighter.h"
#include "gui/answer/markdownview.h"
#include "gui/chat/chattranscript.h"
#include "gui/widgets/colorschemes.h"
#include "gui/mainwindow/documenttab.h"
#include "gui/mainwindow/mainwindow.h"
#include "prefetch/engine.h"
#include "prefetch/strategies/debouncestrategy.h"
#include "prefetch/strategies/hoverstrategy.h"
#include "prefetch/strategies/warmupstrategy.h"
#include "prefetch/strategies/workflowstrategy.h"

#include <QApplication>
#include <QClipboard>
#include <QNetworkAccessManager>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QScopeGuard>
#include <QScrollArea>
#include <QScrollBar>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTest>
#include <QTextBlock>
#include <QTextCursor>
#include <QTextDocument>
#include <QTextLayout>
#include <QToolButton>
#include <QWheelEvent>

#include <memory>

class tst_AnswerMarkdown : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void codeIsHighlighted_data();
    void codeIsHighlighted();
    void streamedCodeIsHighlightedLikeAWholeAnswer();
    void proseIsNotHighlighted();
    void highlightingFollowsThePalette();
    void linksFollowTheDarkScheme();
    void copyButtonCopiesTheCodeOnly_data();
    void copyButtonCopiesTheCodeOnly();
    void reasoningFoldOpensByClickAndKeyboard();
    void streamingKeepsTheScrollPosition();
    void insertPutsTheMarkdownSource();

private:
    static constexpr auto Answer = "Use this:\n\n```cpp\nint answer = 42; // the answer\nreturn \"ok\";\n```\n\nDone.";
    TestSupport::LocalProviderFixture m_local{u"instant"};
};

namespace {

QTextBlock blockStartingWith(const QTextDocument *doc, const QString &start)
{
    for (QTextBlock b = doc->begin(); b.isValid(); b = b.next()) {
        if (b.text().startsWith(start))
            return b;
    }
    return {};
}

// The highlighter's format over [start, start + length) of `block`, if one covers it exactly.
std::optional<QTextCharFormat> formatAt(const QTextBlock &block, int start, int length)
{
    for (const QTextLayout::FormatRange &r : block.layout()->formats()) {
        if (r.start <= start && r.start + r.length >= start + length)
            return r.format;
    }
    return std::nullopt;
}

QToolButton *reasoningToggle(QWidget *view)
{
    for (QToolButton *b : view->findChildren<QToolButton *>()) {
        if (b->accessibleName() == QLatin1String("Reasoning"))
            return b;
    }
    return nullptr;
}

} // namespace

void tst_AnswerMarkdown::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);
    QVERIFY2(m_local.start(), qPrintable(m_local.errorString()));
}

void tst_AnswerMarkdown::codeIsHighlighted_data()
{
    QTest::addColumn<QString>("language");
    QTest::addColumn<QString>("line");
    QTest::addColumn<QString>("token");
    QTest::addColumn<int>("kind");
    using K = Gui::CodeHighlighter::Kind;
    QTest::addRow("c++ keyword") << "cpp"
                                 << "static int x = 1;"
                                 << "static" << int(K::Keyword);
    QTest::addRow("c++ comment") << "c"
                                 << "x++; /* more */"
                                 << "/* more */" << int(K::Comment);
    QTest::addRow("c++ directive") << "cpp"
                                   << "#include <vector>"
                                   << "#include" << int(K::Keyword);
    QTest::addRow("python string") << "python"
                                   << "name = 'world'"
                                   << "'world'" << int(K::String);
    QTest::addRow("python comment") << "py"
                                    << "pass  # nothing"
                                    << "# nothing" << int(K::Comment);
    QTest::addRow("typescript keyword") << "ts"
                                        << "const n: number = 3;"
                                        << "const" << int(K::Keyword);
    QTest::addRow("javascript template") << "js"
                                         << "let s = `hi`;"
                                         << "`hi`" << int(K::String);
    QTest::addRow("json number") << "json"
                                 << "{\"a\": 12.5}"
                                 << "12.5" << int(K::Number);
    QTest::addRow("json literal") << "json"
                                  << "{\"a\": true}"
                                  << "true" << int(K::Keyword);
    QTest::addRow("shell keyword") << "bash"
                                   << "if [ -f x ]; then echo; fi"
                                   << "then" << int(K::Keyword);
    QTest::addRow("shell comment") << "sh"
                                   << "ls -l # list"
                                   << "# list" << int(K::Comment);
    QTest::addRow("unknown language string") << "fortran"
                                             << "print \"hi\""
                                             << "\"hi\"" << int(K::String);
    QTest::addRow("no language number") << ""
                                        << "value 7"
                                        << "7" << int(K::Number);
}

void tst_AnswerMarkdown::codeIsHighlighted()
{
    QFETCH(QString, language);
    QFETCH(QString, line);
    QFETCH(QString, token);
    QFETCH(int, kind);
    Gui::MarkdownView view;
    view.setMarkdown(QStringLiteral("Text.\n\n```%1\n%2\n```\n").arg(language, line));
    const QTextBlock block = blockStartingWith(view.document(), line);
    QVERIFY(block.isValid());
    const auto format = formatAt(block, int(line.indexOf(token)), int(token.size()));
    QVERIFY2(format, qPrintable(line));
    const QTextCharFormat expected = view.highlighter()->format(Gui::CodeHighlighter::Kind(kind));
    QCOMPARE(format->foreground().color(), expected.foreground().color());
}

void tst_AnswerMarkdown::streamedCodeIsHighlightedLikeAWholeAnswer()
{
    const QString answer = QString::fromLatin1(Answer);
    Gui::MarkdownView view;
    for (qsizetype i = 0; i < answer.size(); i += 5) {
        view.appendText(answer.mid(i, 5));
    }
    view.finish();
    const QTextBlock code = blockStartingWith(view.document(), QStringLiteral("int answer"));
    QVERIFY(code.isValid());
    const auto keyword = formatAt(code, 0, 3);
    const auto number = formatAt(code, 13, 2);
    const auto comment = formatAt(code, 17, 13);
    QVERIFY(keyword && number && comment);
    QCOMPARE(keyword->foreground().color(),
             view.highlighter()->format(Gui::CodeHighlighter::Kind::Keyword).foreground().color());
    QCOMPARE(number->foreground().color(),
             view.highlighter()->format(Gui::CodeHighlighter::Kind::Number).foreground().color());
    QCOMPARE(comment->foreground().color(),
             view.highlighter()->format(Gui::CodeHighlighter::Kind::Comment).foreground().color());
    // The rendered text shows no fences; the source keeps them.
    QVERIFY(!view.plainText().contains(QLatin1String("```")));
    QCOMPARE(view.markdown(), answer);
}

void tst_AnswerMarkdown::proseIsNotHighlighted()
{
    Gui::MarkdownView view;
    view.setMarkdown(QStringLiteral("if 42 \"quoted\" // not code\n\n```\nif 42\n```\n"));
    const QTextBlock prose = blockStartingWith(view.document(), QStringLiteral("if 42 \""));
    QVERIFY(prose.isValid());
    QVERIFY(prose.layout()->formats().isEmpty());
    const QTextBlock code = prose.next();
    QCOMPARE(code.text(), QStringLiteral("if 42"));
    QVERIFY(formatAt(code, 3, 2)); // the same number in a code block is
}

void tst_AnswerMarkdown::highlightingFollowsThePalette()
{
    Gui::MarkdownView view;
    view.setMarkdown(QStringLiteral("```cpp\nreturn 1;\n```\n"));
    QPalette dark = view.palette();
    dark.setColor(QPalette::Base, Qt::black);
    dark.setColor(QPalette::Window, Qt::black);
    dark.setColor(QPalette::Text, Qt::white);
    dark.setColor(QPalette::Link, QColor(120, 170, 255));
    view.setPalette(dark);
    const QTextBlock code = blockStartingWith(view.document(), QStringLiteral("return"));
    const auto keyword = formatAt(code, 0, 6);
    const auto number = formatAt(code, 7, 1);
    QVERIFY(keyword && number);
    QCOMPARE(keyword->foreground().color(), QColor(120, 170, 255));
    QVERIFY2(number->foreground().color().lightnessF() > 0.5, "a number stays readable on a dark base");
}

// Issue 41, item 7: an answer shown before the dark scheme was applied kept the light palette's
// dark blue links on the dark base. The scheme is switched as the application switches it.
void tst_AnswerMarkdown::linksFollowTheDarkScheme()
{
    const QPalette light = QApplication::palette();
    const auto restore = qScopeGuard([light] { QApplication::setPalette(light); });
    Gui::MarkdownView view;
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    view.setMarkdown(QStringLiteral("See [the guide](https://example.org/guide) for more.\n"));
    // The document's own format inside "the guide" (the character before the cursor).
    const auto linkFormat = [&view] {
        const QTextBlock block = blockStartingWith(view.document(), QStringLiteral("See"));
        QTextCursor cursor(block);
        cursor.setPosition(block.position() + 6);
        return cursor.charFormat();
    };
    QVERIFY(linkFormat().isAnchor());

    const QPalette dark = Gui::schemePalette(true, light, light);
    QVERIFY(dark.link().color() != light.link().color());
    QApplication::setPalette(dark);
    QTRY_COMPARE(view.palette().link().color(), dark.link().color());
    const QTextCharFormat after = linkFormat();
    QVERIFY(after.isAnchor());
    QCOMPARE(after.foreground().color(), dark.link().color());
    // Readable on the dark base: a lightness well apart from it.
    QVERIFY(std::abs(after.foreground().color().lightnessF() - dark.base().color().lightnessF()) > 0.4);
}

void tst_AnswerMarkdown::copyButtonCopiesTheCodeOnly_data()
{
    QTest::addColumn<bool>("inChat");
    QTest::addRow("document pane") << false;
    QTest::addRow("chat transcript") << true;
}

void tst_AnswerMarkdown::copyButtonCopiesTheCodeOnly()
{
    QFETCH(bool, inChat);
    const QString markdown = QStringLiteral("First:\n\n```python\ndef f():\n    return 'x'\n```\n\nSecond:\n\n"
                                            "```sh\necho one\necho two\n```\n");
    Gui::AnswerPane pane;
    Gui::ChatTranscript transcript;
    QWidget *top = inChat ? static_cast<QWidget *>(&transcript) : &pane;
    Gui::MarkdownView *view = inChat ? transcript.addAnswer()->view() : pane.markdownView();
    top->resize(500, 400);
    top->show();
    QVERIFY(QTest::qWaitForWindowExposed(top));
    // Streamed in, as an answer arrives.
    view->appendText(markdown);
    view->finish();
    Gui::CodeCopyButtons *copy = view->codeCopyButtons();
    QTRY_COMPARE_WITH_TIMEOUT(copy->buttons().size(), 2, 2000);
    QTRY_VERIFY_WITH_TIMEOUT(copy->buttons().at(1)->isVisible(), 2000);
    QApplication::clipboard()->clear();

    QToolButton *second = copy->buttons().at(1);
    QVERIFY(second->y() > copy->buttons().at(0)->y());
    QTest::mouseClick(second, Qt::LeftButton);
    QCOMPARE(QApplication::clipboard()->text(), QStringLiteral("echo one\necho two"));
    QCOMPARE(second->text(), QStringLiteral("Copied"));
    QTRY_COMPARE_WITH_TIMEOUT(second->text(), QStringLiteral("Copy"), 5000);

    QTest::mouseClick(copy->buttons().at(0), Qt::LeftButton);
    QCOMPARE(QApplication::clipboard()->text(), QStringLiteral("def f():\n    return 'x'"));
}

void tst_AnswerMarkdown::reasoningFoldOpensByClickAndKeyboard()
{
    Gui::AnswerPane pane;
    pane.resize(500, 400);
    pane.show();
    QVERIFY(QTest::qWaitForWindowExposed(&pane));
    Gui::MarkdownView *view = pane.markdownView();
    view->appendReasoning(QStringLiteral("First check the cache, then the key."));
    view->appendText(QStringLiteral("The answer."));
    QToolButton *toggle = reasoningToggle(view);
    QVERIFY(toggle);
    QVERIFY(toggle->isVisible());
    QCOMPARE(toggle->text(), QStringLiteral("Reasoning (7 words)"));
    auto *reasoning = view->findChild<QPlainTextEdit *>();
    QVERIFY(reasoning);
    QVERIFY(!reasoning->isVisible()); // folded by default

    QTest::mouseClick(toggle, Qt::LeftButton);
    QVERIFY(reasoning->isVisible());
    QCOMPARE(reasoning->toPlainText(), QStringLiteral("First check the cache, then the key."));
    QTest::mouseClick(toggle, Qt::LeftButton);
    QVERIFY(!reasoning->isVisible());

    // From the answer's text, Shift+Tab reaches the toggle; Space opens it.
    pane.view()->setFocus();
    QTRY_VERIFY(pane.view()->hasFocus());
    toggle->setFocus(Qt::TabFocusReason);
    QTRY_VERIFY(toggle->hasFocus());
    QTest::keyClick(toggle, Qt::Key_Space);
    QVERIFY(reasoning->isVisible());
    QVERIFY(view->isReasoningExpanded());
    QTest::keyClick(toggle, Qt::Key_Space);
    QVERIFY(!reasoning->isVisible());
    // The reasoning is not part of the answer Insert would put in a document.
    QCOMPARE(pane.text(), QStringLiteral("The answer."));
}

void tst_AnswerMarkdown::streamingKeepsTheScrollPosition()
{
    Gui::AnswerPane pane;
    pane.resize(400, 300);
    pane.show();
    QVERIFY(QTest::qWaitForWindowExposed(&pane));
    Gui::MarkdownView *view = pane.markdownView();
    auto *area = pane.findChild<QScrollArea *>();
    QVERIFY(area);
    QScrollBar *bar = area->verticalScrollBar();
    const auto paragraphs = [view](int from, int count) {
        for (int i = from; i < from + count; ++i) {
            view->appendText(QStringLiteral("Paragraph %1 says something about the cache.\n\n").arg(i));
        }
    };
    // While the end is shown, the pane follows it.
    paragraphs(0, 40);
    QTRY_VERIFY_WITH_TIMEOUT(bar->maximum() > 0, 2000);
    QTRY_COMPARE_WITH_TIMEOUT(bar->value(), bar->maximum(), 2000);
    // Scrolled up by the user (the wheel), it stays where the user put it while more arrives.
    QWheelEvent up(QPointF(50, 50), area->viewport()->mapToGlobal(QPointF(50, 50)), {}, QPoint(0, 120 * 5),
                   Qt::NoButton, Qt::NoModifier, Qt::NoScrollPhase, false);
    QApplication::sendEvent(area->viewport(), &up);
    const int kept = bar->value();
    QVERIFY(kept < bar->maximum());
    const int before = bar->maximum();
    paragraphs(40, 40);
    QTRY_VERIFY_WITH_TIMEOUT(bar->maximum() > before, 2000);
    QCOMPARE(bar->value(), kept);
}

void tst_AnswerMarkdown::insertPutsTheMarkdownSource()
{
    QNetworkAccessManager network;
    const std::unique_ptr<Prefetch::Stack> stack = m_local.makeStack(&network);
    auto window = std::make_unique<Gui::MainWindow>(TestSupport::windowServices(*stack));
    // The demo summary picks the document's sentences, emphasis and all.
    Gui::DocumentTab *tab = window->newDocument(
        QStringLiteral("The **cache** keeps the document warm. Users feel the *first token*. The end."));
    window->show();
    QVERIFY(QTest::qWaitForWindowExposed(window.get()));

    QSignalSpy ended(window->answerPane(), &Gui::AnswerPane::answerEnded);
    QTest::mouseClick(window->summarizeButton(), Qt::LeftButton);
    QVERIFY(ended.wait(15000));
    QCOMPARE(ended.takeFirst().at(0).toBool(), true);
    const QString source = window->answerPane()->text();
    QVERIFY2(source.contains(QLatin1String("**cache**")), qPrintable(source));
    // Shown rendered: bold, without the asterisks.
    Gui::MarkdownView *view = window->answerPane()->markdownView();
    QVERIFY(view->plainText().contains(QLatin1String("cache")));
    QVERIFY2(!view->plainText().contains(u'*'), qPrintable(view->plainText()));
    bool bold = false;
    for (QTextBlock b = view->document()->begin(); b.isValid(); b = b.next()) {
        for (auto it = b.begin(); !it.atEnd(); ++it) {
            if (it.fragment().text() == QLatin1String("cache"))
                bold = it.fragment().charFormat().fontWeight() >= QFont::Bold;
        }
    }
    QVERIFY(bold);

    tab->moveCursor(QTextCursor::End);
    QTest::mouseClick(window->insertButton(), Qt::LeftButton);
    QVERIFY2(tab->toPlainText().endsWith(source), qPrintable(tab->toPlainText()));
    tab->document()->setModified(false);
    window.reset();
    QVERIFY(m_local.waitForNoOpenStream(3000));
}

QTEST_MAIN(tst_AnswerMarkdown)
#include "tst_answermarkdown.moc"
