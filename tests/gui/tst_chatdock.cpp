// The chat dock against the real local provider: a pause on a complete question prefetches its
// answer and Enter takes it over (no second request); Shift+Enter adds a line; a changed text is
// not taken over; exchanges persist and reload; an answer being streamed is stored when the dock
// closes; provider errors show inline; document mode sends the document (a large one compiled
// off the GUI thread); delete and search manage the list. Also the Markdown view: streamed
// rendering equals rendering the whole answer at once, and reasoning starts folded.
// Over 600 lines: 26 scenarios, each a test function readable on its own; what they share is
// at the top or in tests/support.
#include "support/chatdocksuite.h"
#include "support/localproviderfixture.h"
#include "gui/answer/markdownview.h"
#include "gui/chat/chatdock.h"
#include "prefetch/engine.h"
#include "prefetch/strategies/debouncestrategy.h"
#include "prefetch/stream/answerreader.h"
#include "workspace/conversations/conversationstore.h"
#include "workspace/documents/document.h"
#include "workspace/settings/money.h"

#include <QAction>
#include <QApplication>
#include <QComboBox>
#include <QElapsedTimer>
#include <QFile>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QLocale>
#include <QMainWindow>
#include <QMessageBox>
#include <QNetworkAccessManager>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QTextBlock>
#include <QTextCursor>
#include <QTextDocument>
#include <QTextList>
#include <QTextTable>
#include <QToolButton>

#include <memory>

using Gui::ChatDock;
using Gui::ConversationMode;
using Gui::ConversationStore;
using Gui::MessageState;
using Prefetch::Strategy;

namespace {

// Slow enough that an answer is still streaming when the test acts on it.
const QByteArray SlowDecode = "rtt=0,prefill=1000000,decode=30";

// Structure of a rendered document, for comparing two renderings block by block.
QString describe(const QTextDocument *doc)
{
    QStringList out;
    for (QTextBlock b = doc->firstBlock(); b.isValid(); b = b.next()) {
        const QTextBlockFormat f = b.blockFormat();
        const QTextCharFormat c = QTextCursor(b).charFormat();
        out << QStringLiteral("%1|h%2|%3|fixed%4|code%5|table%6|margin%7")
                   .arg(b.text())
                   .arg(f.headingLevel())
                   .arg(b.textList() ? b.textList()->itemText(b) + QString::number(b.textList()->format().indent())
                                     : QStringLiteral("-"))
                   .arg(c.fontFixedPitch() || c.font().fixedPitch())
                   .arg(f.nonBreakableLines())
                   .arg(QTextCursor(b).currentTable() != nullptr)
                   .arg(f.topMargin());
    }
    return out.join(u'\n');
}

} // namespace

class tst_ChatDock : public QObject, private TestSupport::ChatDockSuite
{
    Q_OBJECT

private slots:
    void initTestCase();
    void init();
    void cleanup();

    void markdownStreamsLikeOneShot_data();
    void markdownStreamsLikeOneShot();
    void markdownRendersCompletedBlocksOnly();
    void reasoningIsFolded();

    void demoEngineNoticeIsShown();
    void pauseOnACompleteQuestionPrefetchesAndEnterTakesItOver();
    void aShortFollowUpAfterAnAnswerIsGuessed();
    void anEditInsideTheDraftWaitsTheFullPause();
    void shiftEnterAddsALine();
    void changedTextAfterThePauseIsNotTakenOver();
    void exchangeIsPersistedAndReloaded();
    void answerInProgressIsStoredOnClose();
    void theDemoEnginesAnswersAreFree();
    void usageIsShownOnTheAnswerAndSurvivesARestart();
    void stopKeepsThePartialAnswer();
    void busyProviderRetryIsShownAndStopEndsIt();
    void providerErrorIsShownInline();
    void documentModeSendsTheDocument();
    void aDocumentOverTheModelsLimitIsSaidSo();
    void reopenedWithAnotherDocumentSaysWhichAndOffersIt();
    void eachMessageTellsItsTimeOnDemand();
    void largeDocumentCompilesInTheBackground();
    void newConversationShortcut();
    void deletingAConversationRemovesIt();
    void searchFiltersTheList();
    void damagedStoreIsReported();

private:
    void makeStack(const QByteArray &latency = {});
    void makeDock();
    void typeAndSend(const QString &text);
    QString lastTimingText() const;
    QString lastErrorText() const;
};

void tst_ChatDock::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);
    QVERIFY(startProvider());
}

void tst_ChatDock::init()
{
    QVERIFY(openStore());
    makeStack();
    makeDock();
}

void tst_ChatDock::cleanup()
{
    QVERIFY(closeDock());
}

void tst_ChatDock::makeStack(const QByteArray &latency)
{
    m_dock.reset();
    m_stack = m_local.makeStack(&m_network, latency);
}

void tst_ChatDock::makeDock()
{
    QVERIFY(showDock());
}

void tst_ChatDock::typeAndSend(const QString &text)
{
    QTest::keyClicks(m_dock->input(), text);
    QTest::keyClick(m_dock->input(), Qt::Key_Return);
}

QString tst_ChatDock::lastTimingText() const
{
    const auto labels = m_dock->findChildren<QLabel *>(QStringLiteral("chatTiming"));
    return labels.isEmpty() ? QString() : labels.last()->text();
}

QString tst_ChatDock::lastErrorText() const
{
    const auto labels = m_dock->findChildren<QLabel *>(QStringLiteral("chatError"));
    return labels.isEmpty() ? QString() : labels.last()->text();
}

// --- the Markdown view ----------------------------------------------------------------------------

void tst_ChatDock::markdownStreamsLikeOneShot_data()
{
    QTest::addColumn<QString>("markdown");
    QTest::addColumn<int>("chunk");
    const QList<QPair<const char *, QString>> documents = {
        {"mixed", QStringLiteral("# Title\n\nIntro with **bold** and `code`.\nSecond line.\n\n"
                                 "1. first\n2. second\n   continued\n3. third\n\n"
                                 "- a\n  - nested a1\n  - nested a2\n- b\n\n- loose c\n\n  para in c\n\n"
                                 "```python\ndef f():\n\n    return 1\n```\n"
                                 "Text right after the fence.\n## Sub\n"
                                 "| x | y |\n|---|---|\n| 1 | 2 |\n\n> quoted\n> more\n\nFinal *words*.")},
        {"table first", QStringLiteral("| a | b |\n|---|---|\n| 1 | 2 |\n\nafter")},
        {"breaks and code", QStringLiteral("- x\n- y\n\nSetext\n---\n\n***\n\n中文段落。\n\n    indented code\n\n"
                                           "    more\n\n~~~\ntilde\n~~~\n")},
        {"interruptions",
         QStringLiteral("Para\n- bullet interrupts\n- two\n\n3. three\n4. four\n\ntext\n2. not a list\n")},
        {"unclosed fence", QStringLiteral("```\nunclosed fence\n\n# not a heading")},
    };
    for (const auto &[name, text] : documents) {
        for (int chunk : {1, 3, 7, 64})
            QTest::addRow("%s, %d chars", name, chunk) << text << chunk;
    }
}

void tst_ChatDock::markdownStreamsLikeOneShot()
{
    QFETCH(QString, markdown);
    QFETCH(int, chunk);
    Gui::MarkdownView view;
    view.resize(500, 400);
    view.show();
    for (qsizetype i = 0; i < markdown.size(); i += chunk) {
        view.appendText(markdown.mid(i, chunk)); // rendered at once: the most boundaries the renderer can meet
    }
    view.finish();
    QTextDocument whole;
    whole.setMarkdown(markdown, QTextDocument::MarkdownDialectGitHub);
    QCOMPARE(describe(view.document()), describe(&whole));
    QCOMPARE(view.markdown(), markdown);
}

void tst_ChatDock::markdownRendersCompletedBlocksOnly()
{
    Gui::MarkdownView view;
    QSignalSpy shown(&view, &Gui::MarkdownView::firstTextShown);
    view.appendText(QStringLiteral("Hello **wor"));
    QCOMPARE(shown.count(), 1); // the first piece is painted at once
    QCOMPARE(view.plainText(), QStringLiteral("Hello **wor"));
    QCOMPARE(view.renderedLength(), 0);
    view.appendText(QStringLiteral("ld**\n\nNext"));
    // The first paragraph is closed and rendered; the open one stays plain until it closes.
    QCOMPARE(view.renderedLength(), QStringLiteral("Hello **world**\n\n").size());
    QCOMPARE(view.plainText(), QStringLiteral("Hello world\nNext"));
    view.appendText(QStringLiteral(" *one*"));
    QCOMPARE(view.plainText(), QStringLiteral("Hello world\nNext *one*")); // rendered when given: the caller batches
    view.finish();
    QCOMPARE(view.plainText(), QStringLiteral("Hello world\nNext one"));
    QCOMPARE(shown.count(), 1);
}

void tst_ChatDock::reasoningIsFolded()
{
    Gui::MarkdownView view;
    view.show();
    view.appendReasoning(QStringLiteral("Let me think "));
    view.appendReasoning(QStringLiteral("about it. 先想"));
    view.appendText(QStringLiteral("The answer."));
    QCOMPARE(view.reasoningWordCount(), 7); // five words and two CJK characters
    auto *toggle = view.findChild<QToolButton *>();
    QVERIFY(toggle);
    QVERIFY(toggle->isVisible());
    QCOMPARE(toggle->text(), QStringLiteral("Reasoning (7 words)"));
    auto *reasoning = view.findChild<QPlainTextEdit *>();
    QVERIFY(reasoning);
    QVERIFY(!reasoning->isVisible()); // folded
    QTest::mouseClick(toggle, Qt::LeftButton);
    QVERIFY(view.isReasoningExpanded());
    QVERIFY(reasoning->isVisible());
    QCOMPARE(reasoning->toPlainText(), QStringLiteral("Let me think about it. 先想"));
    QVERIFY(reasoning->font().pointSizeF() < view.font().pointSizeF()); // smaller
    QCOMPARE(view.plainText(), QStringLiteral("The answer."));
}

// --- the dock ---------------------------------------------------------------------------------------

void tst_ChatDock::demoEngineNoticeIsShown()
{
    const auto labels = m_dock->findChildren<QLabel *>();
    const bool shown = std::any_of(labels.cbegin(), labels.cend(), [](const QLabel *l) {
        return l->isVisible()
               && l->text() == QLatin1String("Answers come from the local demo engine, not a language model.");
    });
    QVERIFY(shown);
    QCOMPARE(m_dock->input()->accessibleName(), QStringLiteral("Message"));
    QCOMPARE(m_dock->conversationList()->accessibleName(), QStringLiteral("Conversations"));
}

void tst_ChatDock::pauseOnACompleteQuestionPrefetchesAndEnterTakesItOver()
{
    const auto before = m_local.stats();
    QSignalSpy started(m_stack->debounce(), &Prefetch::DebounceStrategy::prefetchStarted);
    QTest::keyClicks(m_dock->input(), QStringLiteral("How do I reset my password?"));
    QVERIFY(started.wait(3000));
    QTRY_COMPARE_WITH_TIMEOUT(m_local.stats().prefetchRequests, before.prefetchRequests + 1, 3000);
    QCOMPARE(m_local.stats().requestsServed, before.requestsServed + 1);

    QSignalSpy ended(m_dock.get(), &ChatDock::answerEnded);
    QSignalSpy firstToken(m_dock.get(), &ChatDock::firstTokenShown);
    QTest::keyClick(m_dock->input(), Qt::Key_Return);
    QVERIFY(m_dock->isAnswering());
    QVERIFY(m_dock->currentAnswer()->isPrefetched());
    QVERIFY(m_dock->input()->toPlainText().isEmpty());
    QVERIFY(ended.wait(15000));
    QCOMPARE(ended.first().first().toBool(), true);
    QCOMPARE(firstToken.count(), 1);

    // Taken over: the server saw the prefetch and, for an answer longer than it asked for, its
    // continuation; nothing was asked for afresh in the foreground.
    QVERIFY(m_local.stats().requestsServed <= before.requestsServed + 2);
    QCOMPARE(m_local.stats().prefetchRequests, before.prefetchRequests + 1);
    QCOMPARE(m_local.stats().billedByPurpose.value(QStringLiteral("foreground")),
             before.billedByPurpose.value(QStringLiteral("foreground")));
    const auto debounce = m_stack->engine()->metrics().stats(Strategy::Debounce);
    QCOMPARE(debounce.hits + debounce.partialHits, 1);
    QVERIFY2(lastTimingText().contains(QLatin1String("started before you sent")), qPrintable(lastTimingText()));
    // Which of the two, as the engine counted it.
    QCOMPARE(lastTimingText().contains(QLatin1String("it was ready")), debounce.hits == 1);
    QVERIFY(lastTimingText().contains(QLatin1String("First token after")));

    const auto conversations = m_store->conversations();
    QCOMPARE(conversations->size(), 1);
    QCOMPARE(conversations->first().title, QStringLiteral("How do I reset my password?"));
    const auto messages = m_store->messages(conversations->first().id);
    QCOMPARE(messages->size(), 2);
    QCOMPARE(messages->at(0).content, QStringLiteral("How do I reset my password?"));
    QCOMPARE(messages->at(1).role, Llm::Role::Assistant);
    QCOMPARE(messages->at(1).state, MessageState::Complete);
    QVERIFY(!messages->at(1).content.isEmpty());
    QVERIFY(m_dock->transcriptText().contains(QLatin1String("How do I reset my password?")));
    QCOMPARE(m_dock->conversationList()->count(), 1);

    // The next message carries the first exchange as history: a longer prompt at the server.
    const qint64 promptBefore = m_local.stats().promptTokens;
    // Typed with trailing blanks: the message is kept as it was sent, trimmed, so the history
    // of the next request repeats the bytes the provider cached for this one.
    typeAndSend(QStringLiteral("Thanks  "));
    QVERIFY(ended.wait(15000));
    QCOMPARE(m_store->messages(conversations->first().id)->size(), 4);
    QCOMPARE(m_store->messages(conversations->first().id)->at(2).content, QStringLiteral("Thanks"));
    QVERIFY(m_local.stats().promptTokens - promptBefore > Prefetch::estimateTokens(messages->at(1).content));
}

void tst_ChatDock::aShortFollowUpAfterAnAnswerIsGuessed()
{
    // The short follow-ups alone: no suggestion's guess beside them (tst_chatfollowups has those).
    Prefetch::Settings settings = m_stack->engine()->settings();
    settings.debounce.suggestFollowUps = false;
    m_stack->engine()->setSettings(settings);
    // A conversation's first message of one word is not a reply to anything: not guessed.
    QSignalSpy started(m_stack->debounce(), &Prefetch::DebounceStrategy::prefetchStarted);
    QTest::keyClicks(m_dock->input(), QStringLiteral("shorter"));
    QVERIFY(m_local.settle(&m_network, 500, 5000));
    QCOMPARE(started.count(), 0);
    m_dock->input()->clear();

    QSignalSpy ended(m_dock.get(), &ChatDock::answerEnded);
    typeAndSend(QStringLiteral("Explain what a prompt cache keeps between requests"));
    QVERIFY(ended.wait(15000));
    started.clear();

    // Right after the answer, the same word is the whole message: guessed at the pause, and
    // Enter takes the guess over.
    const auto before = m_local.stats();
    QTest::keyClicks(m_dock->input(), QStringLiteral("shorter"));
    QVERIFY(started.wait(3000));
    QCOMPARE(started.first().first().toString(), QStringLiteral("shorter"));
    QTRY_COMPARE_WITH_TIMEOUT(m_local.stats().prefetchRequests, before.prefetchRequests + 1, 3000);
    QTest::keyClick(m_dock->input(), Qt::Key_Return);
    QVERIFY(m_dock->isAnswering());
    QVERIFY(m_dock->currentAnswer()->isPrefetched());
    QVERIFY(ended.wait(15000));
    QCOMPARE(m_local.stats().billedByPurpose.value(QStringLiteral("foreground")),
             before.billedByPurpose.value(QStringLiteral("foreground")));
}

void tst_ChatDock::anEditInsideTheDraftWaitsTheFullPause()
{
    // Typed to its end, the question mark is the last key: its answer starts after the short
    // pause of a sentence's end.
    QSignalSpy started(m_stack->debounce(), &Prefetch::DebounceStrategy::prefetchStarted);
    QElapsedTimer clock;
    clock.start();
    QTest::keyClicks(m_dock->input(), QStringLiteral("How do I reset my password?"));
    QVERIFY(started.wait(3000));
    const auto &settings = m_stack->engine()->settings().debounce;
    QVERIFY(settings.sentenceEndDelay < settings.delay);
    // A word put into its middle (the caret moved back with the arrow keys): the question mark
    // was typed long before, so the full pause.
    for (int i = 0; i < 9; ++i) // before "password?"
        QTest::keyClick(m_dock->input(), Qt::Key_Left);
    clock.restart();
    QTest::keyClicks(m_dock->input(), QStringLiteral("x"));
    QCOMPARE(m_dock->input()->toPlainText(), QStringLiteral("How do I reset my xpassword?"));
    QVERIFY(started.wait(3000));
    QVERIFY2(clock.elapsed() >= settings.delay.count(), qPrintable(QString::number(clock.elapsed())));
    QCOMPARE(started.last().first().toString(), QStringLiteral("How do I reset my xpassword?"));
}

void tst_ChatDock::shiftEnterAddsALine()
{
    const auto served = m_local.stats().requestsServed;
    QTest::keyClicks(m_dock->input(), QStringLiteral("line one"));
    QTest::keyClick(m_dock->input(), Qt::Key_Return, Qt::ShiftModifier);
    QTest::keyClicks(m_dock->input(), QStringLiteral("line two"));
    QCOMPARE(m_dock->input()->toPlainText(), QStringLiteral("line one\nline two"));
    QVERIFY(!m_dock->isAnswering());
    QCOMPARE(m_local.stats().requestsServed, served);
    QVERIFY(m_store->conversations()->isEmpty());
    // Esc is not the input's: it reaches the window (its Stop action) untouched.
    QTest::keyClick(m_dock->input(), Qt::Key_Escape);
    QCOMPARE(m_dock->input()->toPlainText(), QStringLiteral("line one\nline two"));
}

void tst_ChatDock::changedTextAfterThePauseIsNotTakenOver()
{
    const auto before = m_local.stats();
    QSignalSpy started(m_stack->debounce(), &Prefetch::DebounceStrategy::prefetchStarted);
    QTest::keyClicks(m_dock->input(), QStringLiteral("What is the capital of France?"));
    QVERIFY(started.wait(3000));
    QTRY_COMPARE_WITH_TIMEOUT(m_local.stats().prefetchRequests, before.prefetchRequests + 1, 3000);

    m_dock->input()->selectAll();
    QSignalSpy ended(m_dock.get(), &ChatDock::answerEnded);
    typeAndSend(QStringLiteral("What is the capital of Spain?"));
    QVERIFY(!m_dock->currentAnswer()->isPrefetched());
    QVERIFY(ended.wait(15000));
    QCOMPARE(ended.first().first().toBool(), true);
    QCOMPARE(m_local.stats().requestsServed, before.requestsServed + 2);
    const auto debounce = m_stack->engine()->metrics().stats(Strategy::Debounce);
    QCOMPARE(debounce.hits + debounce.partialHits, 0);
    QCOMPARE(debounce.cancelled + debounce.misses, 1);
    QVERIFY(!lastTimingText().contains(QLatin1String("started before you sent")));
    const auto messages = m_store->messages(m_dock->currentConversationId());
    QCOMPARE(messages->at(0).content, QStringLiteral("What is the capital of Spain?"));
}

void tst_ChatDock::exchangeIsPersistedAndReloaded()
{
    QSignalSpy ended(m_dock.get(), &ChatDock::answerEnded);
    typeAndSend(QStringLiteral("Explain prefetching in one paragraph."));
    QVERIFY(ended.wait(15000));
    const qint64 id = m_dock->currentConversationId();
    QVERIFY(id > 0);
    const QString answer = m_store->messages(id)->at(1).content;
    QVERIFY(!answer.isEmpty());
    m_dock->setMode(ConversationMode::Document);

    // A new store and dock on the same file, as after a restart.
    m_dock.reset();
    m_store.reset();
    m_store = std::make_unique<ConversationStore>(dbPath());
    makeDock();
    QCOMPARE(m_dock->conversationList()->count(), 1);
    QCOMPARE(m_dock->currentConversationId(), id);
    QCOMPARE(m_dock->mode(), ConversationMode::Document);
    QCOMPARE(m_dock->modeSelector()->currentData().toInt(), int(ConversationMode::Document));
    const QString transcript = m_dock->transcriptText();
    QVERIFY(transcript.contains(QLatin1String("Explain prefetching in one paragraph.")));
    // Rendered from Markdown: compare the words, not the markup.
    const QString firstWords = answer.simplified().section(u' ', 0, 2).remove(u'*').remove(u'#').trimmed();
    QVERIFY2(transcript.contains(firstWords), qPrintable(firstWords));
}

void tst_ChatDock::theDemoEnginesAnswersAreFree()
{
    // The demo engine is priced as DeepSeek for the metrics; what its answer says is that it
    // cost nothing, as the user guide says.
    QVERIFY(m_stack->engine()->profile().isLocalDemo);
    QVERIFY(m_stack->engine()->profile().prices.input > 0);
    QSignalSpy ended(m_dock.get(), &ChatDock::answerEnded);
    typeAndSend(QStringLiteral("What does the demo engine cost?"));
    QVERIFY(ended.wait(15000));
    const auto messages = m_store->messages(m_dock->currentConversationId());
    QCOMPARE(messages->size(), 2);
    QCOMPARE(messages->at(1).usage.cost, 0.0);
    QLabel *usage = nullptr;
    for (QLabel *label : m_dock->findChildren<QLabel *>(QStringLiteral("chatUsage")))
        usage = label->isVisible() ? label : usage;
    QVERIFY(usage);
    QVERIFY2(usage->text().endsWith(QLatin1String("free")), qPrintable(usage->text()));
    QVERIFY(!usage->text().contains(u'$'));
}

void tst_ChatDock::usageIsShownOnTheAnswerAndSurvivesARestart()
{
    // A priced profile, as a hosted provider's (the demo engine's answers are free), with a
    // decode slow enough to measure a rate.
    Llm::ProviderProfile profile = m_local.profile("rtt=0,decode=400");
    profile.isLocalDemo = false;
    profile.prices.input = 3;
    profile.prices.cacheWrite = 3.75;
    profile.prices.cacheRead = 0.3;
    profile.prices.output = 15;
    m_dock.reset();
    m_stack = std::make_unique<Prefetch::Stack>(&m_network, profile);
    makeDock();

    QSignalSpy ended(m_dock.get(), &ChatDock::answerEnded);
    typeAndSend(QStringLiteral("Explain prompt caching in two paragraphs, please."));
    QVERIFY(ended.wait(15000));
    typeAndSend(QStringLiteral("And how long does a cached prefix live?"));
    QVERIFY(ended.wait(15000));
    const qint64 id = m_dock->currentConversationId();
    const auto messages = m_store->messages(id);
    QCOMPARE(messages->size(), 4);
    QVERIFY(messages->at(0).usage.isEmpty()); // a question has none
    const Gui::MessageUsage first = messages->at(1).usage;
    const Gui::MessageUsage second = messages->at(3).usage;
    QVERIFY(first.tokens.inputTokens > 0);
    QVERIFY(first.tokens.outputTokens > 0);
    QVERIFY(first.firstTokenMs >= 0);
    QVERIFY2(first.tokensPerSecond > 0, qPrintable(QString::number(first.tokensPerSecond)));
    QCOMPARE(first.currency, QStringLiteral("USD"));
    QCOMPARE(first.cost, profile.prices.cost(first.tokens));
    QVERIFY(first.cost > 0);
    // The second question's prompt starts with the first exchange: the provider's prefix
    // cache served part of it, and it is billed at the cache-read price.
    QVERIFY2(second.tokens.cacheReadTokens > 0, qPrintable(QString::number(second.tokens.cacheReadTokens)));
    QCOMPARE(second.cost, profile.prices.cost(second.tokens));

    auto usageLabels = [this] {
        QList<QLabel *> shown;
        for (QLabel *label : m_dock->findChildren<QLabel *>(QStringLiteral("chatUsage")))
            if (label->isVisible())
                shown << label;
        return shown;
    };
    QList<QLabel *> labels = usageLabels();
    QCOMPARE(labels.size(), 2);
    const QString line = labels.last()->text();
    QCOMPARE(line, Gui::usageLine(second));
    QVERIFY(line.contains(QLocale().toString(second.tokens.outputTokens)));
    QVERIFY(line.contains(Gui::formatMoney(second.cost, QStringLiteral("USD"))));
    QVERIFY(labels.last()->toolTip().contains(QLocale().toString(second.tokens.cacheReadTokens)));

    // A new store and dock on the same file, as after a restart: the same lines.
    m_dock.reset();
    m_store.reset();
    m_store = std::make_unique<ConversationStore>(dbPath());
    makeDock();
    QCOMPARE(m_dock->currentConversationId(), id);
    labels = usageLabels();
    QCOMPARE(labels.size(), 2);
    QCOMPARE(labels.first()->text(), Gui::usageLine(first));
    QCOMPARE(labels.last()->text(), line);
}

void tst_ChatDock::answerInProgressIsStoredOnClose()
{
    makeStack(SlowDecode);
    makeDock();
    typeAndSend(QStringLiteral("Write a long story about caches."));
    QVERIFY(m_dock->isAnswering());
    QTRY_VERIFY_WITH_TIMEOUT(m_dock->currentAnswer()->text().size() > 20, 5000);
    const QString arrived = m_dock->currentAnswer()->text();
    const qint64 id = m_dock->currentConversationId();
    m_dock.reset(); // the app closes mid-answer
    const auto messages = m_store->messages(id);
    QCOMPARE(messages->size(), 2);
    QCOMPARE(messages->at(1).state, MessageState::Partial);
    QCOMPARE(messages->at(1).content, arrived);
    QVERIFY(m_local.waitForNoOpenStream(2000)); // and the stream is closed
}

void tst_ChatDock::busyProviderRetryIsShownAndStopEndsIt()
{
    // A long back-off, so that the wait is seen and stopped; nothing waits it out.
    Prefetch::Settings settings;
    settings.retry.firstDelay = std::chrono::seconds(20);
    settings.retry.maxDelay = std::chrono::seconds(20);
    settings.retry.jitter = 0;
    m_dock.reset();
    m_stack = std::make_unique<Prefetch::Stack>(&m_network, m_local.profile({}, "status=429"), settings);
    makeDock();
    typeAndSend(QStringLiteral("Are you busy?"));
    QTRY_VERIFY2_WITH_TIMEOUT(m_dock->statusText().contains(QLatin1String("retrying in 20 s")),
                              qPrintable(m_dock->statusText()), 10000);
    QVERIFY2(m_dock->statusText().contains(m_stack->engine()->profile().displayName
                                           + QLatin1String(" is busy (rate limited)")),
             qPrintable(m_dock->statusText()));
    QVERIFY(m_dock->statusText().contains(QLatin1String("attempt 1 of 3")));
    QVERIFY(m_dock->isAnswering());
    QVERIFY(m_dock->stopButton()->isEnabled());
    const qint64 served = m_local.stats().requestsServed;
    QTest::mouseClick(m_dock->stopButton(), Qt::LeftButton);
    QVERIFY(!m_dock->isAnswering());
    QVERIFY(!m_dock->stopButton()->isEnabled());
    QVERIFY(m_local.settle(&m_network, 200, 5000));
    QCOMPARE(m_local.stats().requestsServed, served); // the retry never left
}

void tst_ChatDock::stopKeepsThePartialAnswer()
{
    makeStack(SlowDecode);
    makeDock();
    QSignalSpy ended(m_dock.get(), &ChatDock::answerEnded);
    typeAndSend(QStringLiteral("Write a long story about caches."));
    QTRY_VERIFY_WITH_TIMEOUT(m_dock->currentAnswer() && !m_dock->currentAnswer()->text().isEmpty(), 5000);
    QVERIFY(m_dock->stopButton()->isEnabled());
    QTest::mouseClick(m_dock->stopButton(), Qt::LeftButton);
    QCOMPARE(ended.count(), 1);
    QCOMPARE(ended.first().first().toBool(), false);
    QVERIFY(!m_dock->isAnswering());
    const auto messages = m_store->messages(m_dock->currentConversationId());
    QCOMPARE(messages->at(1).state, MessageState::Partial);
    QVERIFY(!messages->at(1).content.isEmpty());
    QVERIFY(lastErrorText().isEmpty()
            || !m_dock->findChildren<QLabel *>(QStringLiteral("chatError")).last()->isVisible());
    const auto statuses = m_dock->findChildren<QLabel *>(QStringLiteral("chatStatus"));
    QVERIFY(!statuses.isEmpty());
    QCOMPARE(statuses.last()->text(), QStringLiteral("Stopped."));
    QVERIFY(!m_dock->stopButton()->isEnabled());
}

void tst_ChatDock::providerErrorIsShownInline()
{
    Llm::ProviderProfile broken = m_stack->engine()->profile();
    broken.model = QStringLiteral("no-such-model");
    m_stack->engine()->setProfile(broken);
    m_dock->profileChanged();
    QSignalSpy ended(m_dock.get(), &ChatDock::answerEnded);
    // Not small talk: that would go to the fast model, which is still there.
    typeAndSend(QStringLiteral("Tell me a story about the sea"));
    QVERIFY(ended.wait(5000));
    QCOMPARE(ended.first().first().toBool(), false);
    QVERIFY2(lastErrorText().contains(QLatin1String("model")), qPrintable(lastErrorText()));
    QVERIFY(m_dock->findChildren<QLabel *>(QStringLiteral("chatError")).last()->isVisible());
    QVERIFY(m_dock->transcriptText().contains(lastErrorText()));
    const auto messages = m_store->messages(m_dock->currentConversationId());
    QCOMPARE(messages->at(1).state, MessageState::Failed);
    QCOMPARE(messages->at(1).error, lastErrorText());

    // Still usable: fix the provider and ask again in the same conversation.
    m_stack->engine()->setProfile(m_local.profile());
    m_dock->profileChanged();
    QVERIFY(m_dock->input()->isEnabled());
    QVERIFY(!m_dock->input()->isReadOnly());
    ended.clear();
    typeAndSend(QStringLiteral("Hello again"));
    QVERIFY(ended.wait(15000));
    QCOMPARE(ended.first().first().toBool(), true);
    QCOMPARE(m_store->messages(m_dock->currentConversationId())->size(), 4);
}

void tst_ChatDock::documentModeSendsTheDocument()
{
    QString document;
    for (int i = 0; i < 200; ++i)
        document += QStringLiteral("Sentence %1 of the document the user is writing about caches. ").arg(i);
    Gui::Document open;
    open.setText(document);
    m_dock->setDocument(&open);
    QSignalSpy ended(m_dock.get(), &ChatDock::answerEnded);

    m_dock->setMode(ConversationMode::FreeChat);
    qint64 before = m_local.stats().promptTokens;
    typeAndSend(QStringLiteral("Summarize it in one line."));
    QVERIFY(ended.wait(15000));
    const qint64 freeTokens = m_local.stats().promptTokens - before;

    m_dock->newConversation();
    m_dock->setMode(ConversationMode::Document);
    QCOMPARE(m_store->conversation(m_dock->currentConversationId())->mode, ConversationMode::Document);
    before = m_local.stats().promptTokens;
    ended.clear();
    typeAndSend(QStringLiteral("Summarize it in one line."));
    QVERIFY(ended.wait(15000));
    QCOMPARE(ended.first().first().toBool(), true);
    const qint64 documentTokens = m_local.stats().promptTokens - before;
    QVERIFY2(documentTokens > freeTokens + Prefetch::estimateTokens(document) / 2,
             qPrintable(QStringLiteral("%1 vs %2").arg(documentTokens).arg(freeTokens)));
}

void tst_ChatDock::aDocumentOverTheModelsLimitIsSaidSo()
{
    // A model with a 1,500-token context and a document of about 3,000.
    makeStack("rtt=0,context=1500");
    makeDock();
    QString text;
    for (int i = 0; i < 200; ++i)
        text += QStringLiteral("Sentence %1 of a document longer than the model takes. ").arg(i);
    Gui::Document open;
    open.setText(text);
    m_dock->setDocument(&open);
    m_dock->setMode(ConversationMode::Document);
    auto *context = m_dock->findChild<QLabel *>(QStringLiteral("chatContext"));
    QVERIFY(context);
    QTRY_VERIFY2(context->text().contains(QLatin1String("goes with each message")), qPrintable(context->text()));

    // Asked about it, the provider refuses it as too long: the answer says so, and the line
    // above the input says what to do instead.
    QSignalSpy ended(m_dock.get(), &ChatDock::answerEnded);
    typeAndSend(QStringLiteral("Summarize it in one line."));
    QVERIFY(ended.wait(15000));
    QCOMPARE(ended.first().first().toBool(), false);
    QVERIFY(m_stack->engine()->refusedPromptTokens({}));
    QTRY_VERIFY2(context->text().contains(QLatin1String("is longer than")), qPrintable(context->text()));
    QVERIFY(context->text().contains(QLatin1String("Explain Selection")));
    QVERIFY(context->text().contains(QStringLiteral("About my library")));
    m_dock->setDocument(nullptr);
}

void tst_ChatDock::reopenedWithAnotherDocumentSaysWhichAndOffersIt()
{
    QTemporaryDir dir;
    auto write = [&dir](const char *name, const QString &text) {
        QFile f(dir.filePath(QLatin1String(name)));
        if (!f.open(QIODevice::WriteOnly))
            return QString();
        f.write(text.toUtf8());
        return f.fileName();
    };
    const QString reportPath = write("report.md", QStringLiteral("The quarterly report about prompt caches."));
    const QString notesPath = write("notes.md", QStringLiteral("Notes about something else entirely."));
    Gui::Document report;
    QVERIFY(!report.load(reportPath));
    m_dock->setDocument(&report);
    m_dock->setMode(ConversationMode::Document);
    QSignalSpy ended(m_dock.get(), &ChatDock::answerEnded);
    typeAndSend(QStringLiteral("What is this report about?"));
    QVERIFY(ended.wait(15000));
    auto *context = m_dock->findChild<QLabel *>(QStringLiteral("chatContext"));
    QVERIFY(context);
    QVERIFY2(context->text().contains(QLatin1String("report.md")), qPrintable(context->text()));
    QVERIFY(!context->text().contains(QLatin1String("href")));

    // "After a restart": a new dock opens the last conversation with notes.md in front.
    Gui::Document notes;
    QVERIFY(!notes.load(notesPath));
    makeDock();
    m_dock->setDocument(&notes);
    context = m_dock->findChild<QLabel *>(QStringLiteral("chatContext"));
    QCOMPARE(m_dock->currentConversationId(), m_store->conversations()->first().id);
    // It says which document goes (notes.md) and which one the conversation was about.
    QVERIFY2(context->text().contains(QLatin1String("notes.md"))
                 && context->text().contains(QLatin1String("report.md")),
             qPrintable(context->text()));
    // Its link, from the keyboard: Tab onto it, Enter.
    QSignalSpy open(m_dock.get(), &ChatDock::openDocumentRequested);
    context->setFocus(Qt::TabFocusReason);
    QTRY_VERIFY(context->hasFocus());
    QTest::keyClick(context, Qt::Key_Tab); // onto the label's link (QLabel walks its links first)
    QTest::keyClick(context, Qt::Key_Return);
    QCOMPARE(open.count(), 1);
    QCOMPARE(open.first().first().toString(), reportPath);
    m_dock->setDocument(nullptr);
}

void tst_ChatDock::eachMessageTellsItsTimeOnDemand()
{
    QSignalSpy ended(m_dock.get(), &ChatDock::answerEnded);
    typeAndSend(QStringLiteral("When was this asked?"));
    QVERIFY(ended.wait(15000));
    const auto stored = m_store->messages(m_dock->currentConversationId());
    QVERIFY(stored && stored->size() == 2);
    // Reopened, as after a restart: "You" and "Assistant" carry the stored times as tooltips.
    makeDock();
    QList<QLabel *> senders = m_dock->findChildren<QLabel *>(QStringLiteral("chatSender"));
    QCOMPARE(senders.size(), 2);
    for (int i = 0; i < 2; ++i) {
        QCOMPARE(senders.at(i)->toolTip(),
                 QLocale().toString(stored->at(i).created.toLocalTime(), QLocale::LongFormat));
    }
    QVERIFY(senders.at(0)->text() == QLatin1String("You") && senders.at(1)->text() == QLatin1String("Assistant"));
}

void tst_ChatDock::largeDocumentCompilesInTheBackground()
{
    QString document;
    while (document.size() < Gui::Document::LargeDocumentChars + 10'000)
        document += QStringLiteral("A long document line that keeps going on about prompt caches and prefetching. ");
    Gui::Document open;
    open.setText(document);
    m_dock->setDocument(&open);
    QSignalSpy ended(m_dock.get(), &ChatDock::answerEnded);
    m_dock->setMode(ConversationMode::Document);
    const qint64 before = m_local.stats().promptTokens;
    typeAndSend(QStringLiteral("What is this document about?"));
    // The compile's result comes back through the event loop, which has not run yet: the
    // message waits for it instead of blocking.
    QCOMPARE(m_dock->statusText(), QStringLiteral("Preparing the document…"));
    QVERIFY(m_dock->input()->isReadOnly());
    QVERIFY(!m_dock->isAnswering());
    QVERIFY(ended.wait(30000));
    QCOMPARE(ended.first().first().toBool(), true);
    QVERIFY(m_local.stats().promptTokens - before > 30'000);
    QVERIFY(!m_dock->input()->isReadOnly());
}

void tst_ChatDock::newConversationShortcut()
{
    QCOMPARE(m_dock->newConversationAction()->shortcut(), QKeySequence(QStringLiteral("Ctrl+Shift+N")));
    QCOMPARE(m_dock->renameConversationAction()->shortcut(), QKeySequence(Qt::Key_F2));
    QCOMPARE(m_dock->deleteConversationAction()->shortcut(), QKeySequence(QKeySequence::Delete));
    QSignalSpy ended(m_dock.get(), &ChatDock::answerEnded);
    typeAndSend(QStringLiteral("First conversation"));
    QVERIFY(ended.wait(15000));
    const qint64 first = m_dock->currentConversationId();
    QTest::keyClick(m_dock->input(), Qt::Key_N, Qt::ControlModifier | Qt::ShiftModifier);
    QTRY_VERIFY_WITH_TIMEOUT(m_dock->currentConversationId() != first, 1000);
    QCOMPARE(m_dock->conversationList()->count(), 2);
    QVERIFY(!m_dock->transcriptText().contains(QLatin1String("First conversation")));
    // Pressing it again on the empty one does not pile up empty conversations.
    m_dock->newConversationAction()->trigger();
    QCOMPARE(m_dock->conversationList()->count(), 2);
    // Its first message names it.
    typeAndSend(QStringLiteral("Second one"));
    QVERIFY(ended.wait(15000));
    QCOMPARE(m_store->conversation(m_dock->currentConversationId())->title, QStringLiteral("Second one"));
}

void tst_ChatDock::deletingAConversationRemovesIt()
{
    const qint64 alpha = *m_store->create(QStringLiteral("Alpha"));
    QVERIFY(m_store->appendMessage(alpha, Llm::Role::User, QStringLiteral("hello")));
    const qint64 beta = *m_store->create(QStringLiteral("Beta"));
    makeDock();
    QListWidget *list = m_dock->conversationList();
    QCOMPARE(list->count(), 2);
    list->setCurrentRow(1); // Alpha (older)
    QCOMPARE(m_dock->currentConversationId(), alpha);

    // Cancelled: nothing happens.
    list->setFocus();
    QTest::keyClick(list, Qt::Key_Delete);
    QMessageBox *box = nullptr;
    QTRY_VERIFY_WITH_TIMEOUT((box = m_dock->findChild<QMessageBox *>()) && box->isVisible(), 2000);
    box->button(QMessageBox::Cancel)->click();
    QTRY_VERIFY_WITH_TIMEOUT(!m_dock->findChild<QMessageBox *>(), 2000);
    QCOMPARE(list->count(), 2);

    m_dock->deleteConversationAction()->trigger();
    QTRY_VERIFY_WITH_TIMEOUT((box = m_dock->findChild<QMessageBox *>()) && box->isVisible(), 2000);
    QAbstractButton *remove = nullptr;
    for (QAbstractButton *b : box->buttons()) {
        if (box->buttonRole(b) == QMessageBox::DestructiveRole)
            remove = b;
    }
    QVERIFY(remove);
    remove->click();
    QTRY_COMPARE_WITH_TIMEOUT(list->count(), 1, 2000);
    QCOMPARE(list->item(0)->text(), QStringLiteral("Beta"));
    QVERIFY(!m_store->conversation(alpha));
    QVERIFY(m_store->messages(alpha)->isEmpty());
    QCOMPARE(m_dock->currentConversationId(), beta);
}

void tst_ChatDock::searchFiltersTheList()
{
    const qint64 alpha = *m_store->create(QStringLiteral("Alpha"));
    QVERIFY(m_store->appendMessage(alpha, Llm::Role::User, QStringLiteral("the quick brown fox")));
    const qint64 beta = *m_store->create(QStringLiteral("Beta"));
    QVERIFY(m_store->appendMessage(beta, Llm::Role::User, QStringLiteral("lorem ipsum")));
    makeDock();
    QListWidget *list = m_dock->conversationList();
    QCOMPARE(list->count(), 2);
    QTest::keyClicks(m_dock->searchField(), QStringLiteral("FOX"));
    QTRY_COMPARE_WITH_TIMEOUT(list->count(), 1, 2000);
    QCOMPARE(list->item(0)->text(), QStringLiteral("Alpha"));
    m_dock->searchField()->clear();
    QTRY_COMPARE_WITH_TIMEOUT(list->count(), 2, 2000);
    QTest::keyClicks(m_dock->searchField(), QStringLiteral("bet"));
    QTRY_COMPARE_WITH_TIMEOUT(list->count(), 1, 2000);
    QCOMPARE(list->item(0)->text(), QStringLiteral("Beta"));
    QTest::keyClicks(m_dock->searchField(), QStringLiteral("xyz"));
    QTRY_COMPARE_WITH_TIMEOUT(list->count(), 0, 2000);
}

void tst_ChatDock::damagedStoreIsReported()
{
    m_dock.reset();
    m_store.reset();
    {
        QFile junk(dbPath());
        QVERIFY(junk.open(QIODevice::WriteOnly | QIODevice::Truncate));
        junk.write(QByteArray(4096, 'x'));
    }
    m_store = std::make_unique<ConversationStore>(dbPath());
    makeDock();
    const auto labels = m_dock->findChildren<QLabel *>();
    const bool shown = std::any_of(labels.cbegin(), labels.cend(), [this](const QLabel *l) {
        return l->isVisible() && l->text() == m_store->recoveryMessage();
    });
    QVERIFY(shown);
    QSignalSpy ended(m_dock.get(), &ChatDock::answerEnded);
    typeAndSend(QStringLiteral("Still works?"));
    QVERIFY(ended.wait(15000));
    QCOMPARE(m_store->conversations()->size(), 1);
}

QTEST_MAIN(tst_ChatDock)
#include "tst_chatdock.moc"
