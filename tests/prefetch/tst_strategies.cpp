// The four strategies driven through the same calls the UI makes, against the real local
// provider: each one's trigger and consume path, a taken-over answer equal to a fresh one, and
// a warm-up making the next real request report cache hits and a shorter TTFT.
// Over 600 lines: 28 scenarios, each a test function readable on its own; what they share is
// at the top or in tests/support.
#include "support/localproviderfixture.h"

#include "prefetch/engine.h"
#include "prefetch/prefetchsession.h"
#include "prefetch/prompts/actionprompts.h"
#include "prefetch/strategies/classifier.h"
#include "prefetch/strategies/debouncestrategy.h"
#include "prefetch/strategies/hoverstrategy.h"
#include "prefetch/strategies/modelclassifier.h"
#include "prefetch/strategies/warmupstrategy.h"
#include "prefetch/strategies/workflowstrategy.h"
#include "prefetch/stream/answerreader.h"

#include "llm/clock.h"

#include <QElapsedTimer>
#include <QNetworkAccessManager>
#include <QSignalSpy>
#include <QTest>

#include <memory>

using namespace Prefetch;
using namespace std::chrono_literals;
using TestSupport::drain;

class tst_Strategies : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void init();
    void cleanup();

    void hoverStartsAfterTheDelay();
    void hoverLeaveBeforeDelaySendsNothing();
    void hoverLeaveCancelsAtTheServer();
    void hoverClickTakesOverAndFeelsFaster();
    void pressStartsWithoutWaiting();
    void clickWithoutHoverIsNoPrefetch();
    void hoverOffDoesNothing();

    void debouncePrefetchesCompleteDraftAndSendTakesOver();
    void debounceSendRendersTheMessageOnce();
    void debounceIgnoresShortAndIncompleteDrafts();
    void debounceGuessesAShortFollowUpAfterAnAnswer();
    void debounceGuessesASuggestedFollowUpUntilAnotherIsTyped();
    void debounceWaitsLessAfterASentenceEnd();
    void debounceWaitsWhileAnInputMethodComposes();
    void debounceStartsACompletedDraftAtOnce();
    void debounceTypingOnCancels();
    void debounceDifferentSendIsAMiss();
    void debouncePauseWarmsTheContextBeforeTheDraft();

    void modelClassifierAsksTheFastModelAndClosesAtTheNumber();
    void modelClassifierFallsBackWhenTheFastModelFails();
    void modelClassifierGivesUpAtItsTimeout();
    void stopCancelsTheClassifiersQuestion();
    void suspendedDebounceAsksNoClassifierAndSendStillAnswers();

    void workflowPrefetchesNextStep();
    void workflowOtherFormDataIsAMiss();

    void warmupMakesTheNextRequestHitTheCache();
    void warmupSkipsSmallDocuments();
    void warmupRenewalStopsWhenTheDocumentIsLeftAlone();
    void warmupFollowsTheProvidersCacheLifetime();

private:
    std::unique_ptr<Engine> makeEngine(const QByteArray &latency, Settings settings = {});
    CompiledPrompt compileDocument(const QString &document) const;
    HoverStrategy::Builder summarize(const CompiledPrompt &doc) const;
    DebounceStrategy::Builder chat() const;
    QString freshText(const RenderedRequest &r);

    TestSupport::LocalProviderFixture m_local;
    QNetworkAccessManager m_network;
    std::unique_ptr<Engine> m_engine;
    QString m_document;
};

void tst_Strategies::initTestCase()
{
    QVERIFY2(m_local.start(), qPrintable(m_local.errorString()));
    m_document = QStringLiteral("Prefetching starts answers before the user commits. Warm caches shorten the "
                                "first token. Wrong guesses cost tokens and are cancelled quickly.");
}

void tst_Strategies::init()
{
    QVERIFY(m_local.waitForNoOpenStream(2000));
}

void tst_Strategies::cleanup()
{
    m_engine.reset();
}

std::unique_ptr<Engine> tst_Strategies::makeEngine(const QByteArray &latency, Settings settings)
{
    return m_local.makeEngine(&m_network, latency, settings);
}

CompiledPrompt tst_Strategies::compileDocument(const QString &document) const
{
    auto compiled = documentTemplate().compile(m_engine ? m_engine->profile() : m_local.profile(),
                                               documentValues(document));
    return compiled ? *compiled : CompiledPrompt();
}

HoverStrategy::Builder tst_Strategies::summarize(const CompiledPrompt &doc) const
{
    return [doc] {
        GenerationParams params;
        params.maxTokens = 40;
        return *renderAction(doc, DocumentAction::Summarize, {}, {}, params);
    };
}

DebounceStrategy::Builder tst_Strategies::chat() const
{
    const CompiledPrompt compiled = *chatTemplate(false).compile(m_engine->profile(), {});
    return [compiled](const QString &text) {
        GenerationParams params;
        params.maxTokens = 40;
        return *compiled.render({{QStringLiteral("message"), text}}, params);
    };
}

QString tst_Strategies::freshText(const RenderedRequest &r)
{
    return TestSupport::freshText(&m_network, m_local.profile(), r);
}

// --- hover -----------------------------------------------------------------------------------

void tst_Strategies::hoverStartsAfterTheDelay()
{
    m_engine = makeEngine({});
    HoverStrategy hover(m_engine.get());
    QSignalSpy started(&hover, &HoverStrategy::prefetchStarted);
    QElapsedTimer clock;
    clock.start();
    hover.pointerEntered(Prefetch::DocumentAction::Summarize, summarize(compileDocument(m_document)));
    QVERIFY(!hover.isPrefetching(Prefetch::DocumentAction::Summarize));
    QVERIFY(started.wait(2000));
    QVERIFY(clock.elapsed() >= 150); // precise timers never fire early
    QVERIFY(hover.isPrefetching(Prefetch::DocumentAction::Summarize));
    QCOMPARE(m_engine->metrics().stats(Strategy::Hover).attempts, 1);
}

void tst_Strategies::hoverLeaveBeforeDelaySendsNothing()
{
    m_engine = makeEngine({});
    HoverStrategy hover(m_engine.get());
    const auto served = m_local.stats().requestsServed;
    hover.pointerEntered(Prefetch::DocumentAction::Summarize, summarize(compileDocument(m_document)));
    hover.pointerLeft(Prefetch::DocumentAction::Summarize);
    QVERIFY(m_local.settle(&m_network, 300, 5000)); // well past the 150 ms hover delay
    QCOMPARE(m_local.stats().requestsServed, served);
    QCOMPARE(m_engine->metrics().stats(Strategy::Hover).attempts, 0);
}

void tst_Strategies::hoverLeaveCancelsAtTheServer()
{
    m_engine = makeEngine("rtt=0,prefill=1000000,decode=30");
    HoverStrategy hover(m_engine.get());
    QSignalSpy ready(&hover, &HoverStrategy::readyChanged);
    const auto cancelled = m_local.stats().streamsCancelled;
    hover.pointerEntered(Prefetch::DocumentAction::Summarize, summarize(compileDocument(m_document)));
    QTRY_VERIFY_WITH_TIMEOUT(hover.isReady(Prefetch::DocumentAction::Summarize), 3000);
    QCOMPARE(ready.last().at(1).toBool(), true);
    hover.pointerLeft(Prefetch::DocumentAction::Summarize);
    QCOMPARE(ready.last().at(1).toBool(), false);
    QTRY_COMPARE_WITH_TIMEOUT(m_local.stats().streamsOpen, 0, 200);
    QCOMPARE(m_local.stats().streamsCancelled, cancelled + 1);
    QCOMPARE(m_engine->metrics().stats(Strategy::Hover).cancelled, 1);
}

void tst_Strategies::hoverClickTakesOverAndFeelsFaster()
{
    // 300 ms to the first token, as a hosted model on a short prompt.
    m_engine = makeEngine("rtt=300,prefill=1000000,decode=400");
    HoverStrategy hover(m_engine.get());
    const CompiledPrompt doc = compileDocument(m_document);

    // A click with no hover before it.
    AnswerReader *cold = hover.activate(Prefetch::DocumentAction::Summarize, summarize(doc), Llm::monotonicNowNs(),
                                        this);
    const QString coldText = drain(cold);

    hover.pointerEntered(Prefetch::DocumentAction::Summarize, summarize(doc));
    QTRY_VERIFY_WITH_TIMEOUT(hover.isReady(Prefetch::DocumentAction::Summarize), 3000);
    AnswerReader *warm = hover.activate(Prefetch::DocumentAction::Summarize, summarize(doc), Llm::monotonicNowNs(),
                                        this);
    QVERIFY(warm->isPrefetched());
    // Leaving the button after the click must not cancel the answer being read.
    hover.pointerLeft(Prefetch::DocumentAction::Summarize);
    QCOMPARE(drain(warm), coldText);
    QVERIFY2(warm->perceivedLatencyMs() * 5 < cold->perceivedLatencyMs(),
             qPrintable(QStringLiteral("hit %1 ms, no prefetch %2 ms")
                            .arg(warm->perceivedLatencyMs())
                            .arg(cold->perceivedLatencyMs())));
    QCOMPARE(m_engine->metrics().stats(Strategy::Hover).hits, 1);
    QCOMPARE(m_engine->metrics().perceivedAll(LatencyKind::NoPrefetch).count, 1);
}

void tst_Strategies::pressStartsWithoutWaiting()
{
    m_engine = makeEngine({});
    HoverStrategy hover(m_engine.get());
    hover.pressed(Prefetch::DocumentAction::Summarize, summarize(compileDocument(m_document)));
    QVERIFY(hover.isPrefetching(Prefetch::DocumentAction::Summarize)); // at once, no 150 ms delay
    AnswerReader *answer = hover.activate(Prefetch::DocumentAction::Summarize, summarize(compileDocument(m_document)),
                                          Llm::monotonicNowNs(), this);
    QVERIFY(answer->isPrefetched());
    QVERIFY(!drain(answer).isEmpty());
}

void tst_Strategies::clickWithoutHoverIsNoPrefetch()
{
    m_engine = makeEngine({});
    HoverStrategy hover(m_engine.get());
    AnswerReader *answer = hover.activate(Prefetch::DocumentAction::Summarize, summarize(compileDocument(m_document)),
                                          Llm::monotonicNowNs(), this);
    QVERIFY(!answer->isPrefetched());
    QVERIFY(!drain(answer).isEmpty());
    QCOMPARE(m_engine->metrics().stats(Strategy::Hover).attempts, 0);
    QCOMPARE(m_engine->metrics().stats(Strategy::Hover).misses, 0);
}

void tst_Strategies::hoverOffDoesNothing()
{
    Settings settings;
    settings.hover.enabled = false;
    m_engine = makeEngine({}, settings);
    HoverStrategy hover(m_engine.get());
    const auto served = m_local.stats().requestsServed;
    hover.pointerEntered(Prefetch::DocumentAction::Summarize, summarize(compileDocument(m_document)));
    hover.pressed(Prefetch::DocumentAction::Summarize, summarize(compileDocument(m_document)));
    QVERIFY(m_local.settle(&m_network, 300, 5000)); // well past the 150 ms hover delay
    QCOMPARE(m_local.stats().requestsServed, served);
}

// --- debounce --------------------------------------------------------------------------------

void tst_Strategies::debouncePrefetchesCompleteDraftAndSendTakesOver()
{
    m_engine = makeEngine({});
    DebounceStrategy debounce(m_engine.get(), std::make_shared<HeuristicClassifier>());
    debounce.setBuilder(chat());
    QSignalSpy started(&debounce, &DebounceStrategy::prefetchStarted);
    QElapsedTimer clock;
    clock.start();
    // Typing, key by key; the pause comes after the question mark (the shorter sentence-end pause).
    const QString draft = QStringLiteral("How do I reset my password?");
    for (qsizetype i = 1; i <= draft.size(); ++i)
        debounce.textChanged(draft.left(i));
    QVERIFY(started.wait(3000));
    QVERIFY(clock.elapsed() >= m_engine->settings().debounce.sentenceEndDelay.count());
    QVERIFY(started.first().at(1).toDouble() >= 0.72);
    QVERIFY(debounce.isPrefetching());

    // Sent without the question mark and with extra spaces: the same message.
    AnswerReader *answer = debounce.send(QStringLiteral("  How do I reset   my password "), Llm::monotonicNowNs(),
                                         this);
    QVERIFY(answer->isPrefetched());
    QCOMPARE(drain(answer), freshText(chat()(draft)));
    QCOMPARE(m_engine->metrics().stats(Strategy::Debounce).hits
                 + m_engine->metrics().stats(Strategy::Debounce).partialHits,
             1);
}

void tst_Strategies::debounceSendRendersTheMessageOnce()
{
    // Enter renders the message once when it is the draft that was guessed (in library mode a
    // render runs a retrieval query), and once more only when the words differ.
    m_engine = makeEngine({});
    DebounceStrategy debounce(m_engine.get(), std::make_shared<HeuristicClassifier>());
    int renders = 0;
    const DebounceStrategy::Builder render = chat();
    debounce.setBuilder([&renders, render](const QString &text) {
        ++renders;
        return render(text);
    });
    QSignalSpy started(&debounce, &DebounceStrategy::prefetchStarted);
    const QString draft = QStringLiteral("What does the cache keep between sessions?");
    debounce.textChanged(draft);
    QVERIFY(started.wait(3000));

    renders = 0;
    AnswerReader *answer = debounce.send(draft, Llm::monotonicNowNs(), this);
    QVERIFY(answer->isPrefetched());
    QCOMPARE(renders, 1);
    drain(answer);

    // The same message in other words: the draft's request is rendered too, to compare.
    debounce.textChanged(draft);
    QVERIFY(started.wait(3000));
    renders = 0;
    answer = debounce.send(QStringLiteral("What does the cache keep between sessions"), Llm::monotonicNowNs(), this);
    QVERIFY(answer->isPrefetched());
    QCOMPARE(renders, 2);
    drain(answer);
}

void tst_Strategies::debounceWaitsLessAfterASentenceEnd()
{
    Settings settings;
    settings.debounce.delay = 1500ms;
    settings.debounce.sentenceEndDelay = 50ms;
    m_engine = makeEngine({}, settings);
    DebounceStrategy debounce(m_engine.get(), std::make_shared<HeuristicClassifier>());
    debounce.setBuilder(chat());
    QSignalSpy started(&debounce, &DebounceStrategy::prefetchStarted);

    // Complete-looking but open-ended: the full pause.
    QElapsedTimer clock;
    clock.start();
    debounce.textChanged(QStringLiteral("Explain the difference between TCP and UDP"));
    QVERIFY(started.wait(5000));
    QVERIFY2(clock.elapsed() >= 1500, qPrintable(QString::number(clock.elapsed())));

    // The same request ended with a full stop: Enter is near, so the short pause.
    clock.restart();
    debounce.textChanged(QStringLiteral("Explain the difference between TCP and UDP in two lines."));
    QVERIFY(started.wait(1400));
    QVERIFY(clock.elapsed() < 1500);
    QCOMPARE(started.size(), 2);

    // A word put into the middle of it afterwards: its full stop was typed long before, so the
    // full pause again (the user may go on editing there).
    clock.restart();
    debounce.textChanged(QStringLiteral("Explain the difference between TCP and UDP briefly in two lines."), false);
    QVERIFY(started.wait(5000));
    QVERIFY2(clock.elapsed() >= 1500, qPrintable(QString::number(clock.elapsed())));
    QCOMPARE(started.size(), 3);
}

void tst_Strategies::debounceIgnoresShortAndIncompleteDrafts()
{
    m_engine = makeEngine({});
    DebounceStrategy debounce(m_engine.get(), std::make_shared<HeuristicClassifier>());
    debounce.setBuilder(chat());
    const auto served = m_local.stats().requestsServed;
    // Each draft is left for longer than the 350 ms typing pause.
    debounce.textChanged(QStringLiteral("Hi there")); // under 10 characters
    QVERIFY(m_local.settle(&m_network, 500, 5000));
    debounce.textChanged(QStringLiteral("Can you tell me about the")); // trails off
    QVERIFY(m_local.settle(&m_network, 500, 5000));
    QVERIFY(!debounce.isPrefetching());
    QCOMPARE(m_local.stats().requestsServed, served);
}

void tst_Strategies::debounceGuessesAShortFollowUpAfterAnAnswer()
{
    m_engine = makeEngine({});
    DebounceStrategy debounce(m_engine.get(), std::make_shared<HeuristicClassifier>());
    QSignalSpy started(&debounce, &DebounceStrategy::prefetchStarted);
    const QString followUp = QStringLiteral("shorter"); // 7 characters, under minChars

    // Without an answer before it (a conversation's first message), it is never considered.
    debounce.setBuilder(chat());
    const auto served = m_local.stats().requestsServed;
    debounce.textChanged(followUp);
    QVERIFY(m_local.settle(&m_network, 500, 5000));
    QCOMPARE(started.count(), 0);
    QCOMPARE(m_local.stats().requestsServed, served);

    // Right after an answer, it is the whole message: guessed at the pause, taken over at Enter.
    debounce.setDraftContext({.afterAnswer = true});
    debounce.textChanged(followUp);
    QVERIFY(started.wait(3000));
    QCOMPARE(started.first().first().toString(), followUp);
    AnswerReader *answer = debounce.send(followUp, Llm::monotonicNowNs(), this);
    QVERIFY(answer->isPrefetched());
    drain(answer);

    // A new builder (another conversation, or the answer's end) starts without the context.
    debounce.setBuilder(chat());
    started.clear();
    debounce.textChanged(followUp);
    QVERIFY(m_local.settle(&m_network, 500, 5000));
    QCOMPARE(started.count(), 0);

    // Switched off in the settings, the minimum length applies after an answer too.
    Settings off = m_engine->settings();
    off.debounce.shortFollowUps = false;
    m_engine->setSettings(off);
    debounce.setDraftContext({.afterAnswer = true});
    debounce.textChanged(QStringLiteral("why?"));
    QVERIFY(m_local.settle(&m_network, 500, 5000));
    QCOMPARE(started.count(), 0);
    // ... and a reply long enough is judged alone, as any draft: "make it shorter" reads as
    // unfinished without the answer before it.
    debounce.textChanged(QStringLiteral("make it shorter"));
    QVERIFY(m_local.settle(&m_network, 500, 5000));
    QCOMPARE(started.count(), 0);
}

void tst_Strategies::debounceGuessesASuggestedFollowUpUntilAnotherIsTyped()
{
    m_engine = makeEngine("rtt=0,prefill=1000000,decode=30");
    DebounceStrategy debounce(m_engine.get(), std::make_shared<HeuristicClassifier>());
    const QString suggestion = QStringLiteral("Give an example.");

    // Not before an answer (a conversation's first message), nor while a draft is typed.
    debounce.setBuilder(chat());
    debounce.suggest(suggestion);
    QVERIFY(!debounce.isPrefetching());
    debounce.setDraftContext({.afterAnswer = true});
    debounce.textChanged(QStringLiteral("So"));
    debounce.suggest(suggestion);
    QVERIFY(!debounce.isPrefetching());
    debounce.textChanged({});

    // After an answer, with nothing typed: guessed at once, a weak signal (a prefix).
    debounce.suggest(suggestion);
    QVERIFY(debounce.isPrefetching());
    QCOMPARE(debounce.suggestedFollowUp(), suggestion);
    QTRY_COMPARE_WITH_TIMEOUT(m_local.stats().streamsOpen, 1, 2000);
    // Typing its beginning keeps it, through the typing pause too.
    debounce.textChanged(QStringLiteral("Give an"));
    QVERIFY(debounce.isPrefetching());
    QVERIFY(m_local.settle(&m_network, 500, 5000));
    QCOMPARE(debounce.suggestedFollowUp(), suggestion);
    // Sending it (in other spacing and punctuation) takes the guess over.
    AnswerReader *answer = debounce.send(QStringLiteral("Give  an example"), Llm::monotonicNowNs(), this);
    QVERIFY(answer->isPrefetched());
    drain(answer);
    QCOMPARE(m_engine->metrics().stats(Strategy::Debounce).hits, 1);

    // Typing something else drops it: its answer is for a message that is not being written.
    debounce.setBuilder(chat());
    debounce.setDraftContext({.afterAnswer = true});
    debounce.suggest(suggestion);
    QVERIFY(debounce.isPrefetching());
    debounce.textChanged(QStringLiteral("Gr"));
    QVERIFY(!debounce.isPrefetching());
    QVERIFY(debounce.suggestedFollowUp().isEmpty());
    QTRY_COMPARE_WITH_TIMEOUT(m_local.stats().streamsOpen, 0, 2000);

    // With the strategy off, nothing is guessed.
    debounce.textChanged({});
    Settings off = m_engine->settings();
    off.debounce.enabled = false;
    m_engine->setSettings(off);
    debounce.suggest(suggestion);
    QVERIFY(!debounce.isPrefetching());
}

void tst_Strategies::debounceWaitsWhileAnInputMethodComposes()
{
    m_engine = makeEngine("rtt=0,prefill=1000000,decode=30");
    DebounceStrategy debounce(m_engine.get(), std::make_shared<HeuristicClassifier>());
    debounce.setBuilder(chat());
    QSignalSpy started(&debounce, &DebounceStrategy::prefetchStarted);
    const QString question = QStringLiteral("这篇文档的主要观点是什么？");

    // Committed text that looks finished, then the pinyin of more: no pause is taken while the
    // input method composes, however long.
    debounce.textChanged(question);
    debounce.compositionChanged(QStringLiteral("zh"));
    QVERIFY(m_local.settle(&m_network, 600, 5000));
    QCOMPARE(started.count(), 0);
    // Cancelled (Esc in the input method): the draft is as it was, and its pause runs now.
    debounce.compositionChanged({});
    QVERIFY(started.wait(3000));
    QCOMPARE(started.first().first().toString(), question);

    // Composing after the guess started: the user is writing on, the guess goes.
    QVERIFY(debounce.isPrefetching());
    debounce.compositionChanged(QStringLiteral("q"));
    QVERIFY(!debounce.isPrefetching());
    QTRY_COMPARE_WITH_TIMEOUT(m_local.stats().streamsOpen, 0, 2000);
    // Committed: the commit's text change starts the pause, the end of composing lets it run.
    started.clear();
    const QString longer = question.chopped(1) + QStringLiteral("请简短回答？");
    debounce.textChanged(longer);
    debounce.compositionChanged({});
    QVERIFY(started.wait(3000));
    QCOMPARE(started.first().first().toString(), longer);
}

void tst_Strategies::debounceStartsACompletedDraftAtOnce()
{
    m_engine = makeEngine("rtt=0,prefill=1000000,decode=30");
    DebounceStrategy debounce(m_engine.get(), std::make_shared<HeuristicClassifier>());
    debounce.setBuilder(chat());
    QSignalSpy started(&debounce, &DebounceStrategy::prefetchStarted);
    // A message sent before, completed from its beginning (Tab): no pause, no classifier, and
    // no sentence end needed.
    const QString message = QStringLiteral("translate it into French and keep the tone");
    debounce.textChanged(QStringLiteral("tra"));
    debounce.textChanged(message);
    debounce.draftCompleted(message);
    QCOMPARE(started.count(), 1);
    QCOMPARE(started.first().first().toString(), message);
    QCOMPARE(started.first().at(1).toDouble(), 1.0);
    QVERIFY(debounce.isPrefetching());
    // The pause the text change started does not ask again.
    QVERIFY(m_local.settle(&m_network, 500, 5000));
    QCOMPARE(started.count(), 1);
    AnswerReader *answer = debounce.send(message, Llm::monotonicNowNs(), this);
    QVERIFY(answer->isPrefetched());
    QCOMPARE(drain(answer), freshText(chat()(message)));

    // Not while an input method composes (the user is still typing), nor with the strategy off.
    started.clear();
    debounce.textChanged(message);
    debounce.compositionChanged(QStringLiteral("zh"));
    debounce.draftCompleted(message);
    QCOMPARE(started.count(), 0);
    debounce.compositionChanged({});
    debounce.textChanged({});
    Settings off = m_engine->settings();
    off.debounce.enabled = false;
    m_engine->setSettings(off);
    debounce.textChanged(message);
    debounce.draftCompleted(message);
    QCOMPARE(started.count(), 0);
    QVERIFY(!debounce.isPrefetching());
}

void tst_Strategies::debounceTypingOnCancels()
{
    m_engine = makeEngine("rtt=0,prefill=1000000,decode=30");
    DebounceStrategy debounce(m_engine.get(), std::make_shared<HeuristicClassifier>());
    debounce.setBuilder(chat());
    QSignalSpy started(&debounce, &DebounceStrategy::prefetchStarted);
    debounce.textChanged(QStringLiteral("Summarize the document in three bullet points."));
    QVERIFY(started.wait(3000));
    QTRY_COMPARE_WITH_TIMEOUT(m_local.stats().streamsOpen, 1, 2000);
    // An edit after the pause: that answer is for a message that no longer exists.
    debounce.textChanged(QStringLiteral("Summarize the document in three bullet points for a"));
    QVERIFY(!debounce.isPrefetching());
    QTRY_COMPARE_WITH_TIMEOUT(m_local.stats().streamsOpen, 0, 200);
    QCOMPARE(m_engine->metrics().stats(Strategy::Debounce).cancelled, 1);
}

void tst_Strategies::debounceDifferentSendIsAMiss()
{
    m_engine = makeEngine({});
    DebounceStrategy debounce(m_engine.get(), std::make_shared<HeuristicClassifier>());
    debounce.setBuilder(chat());
    QSignalSpy started(&debounce, &DebounceStrategy::prefetchStarted);
    debounce.textChanged(QStringLiteral("What is the capital of France?"));
    QVERIFY(started.wait(3000));
    AnswerReader *answer = debounce.send(QStringLiteral("What is the capital of Spain?"), Llm::monotonicNowNs(), this);
    QVERIFY(!answer->isPrefetched());
    QCOMPARE(drain(answer), freshText(chat()(QStringLiteral("What is the capital of Spain?"))));
    QCOMPARE(m_engine->metrics().stats(Strategy::Debounce).misses, 1);
}

void tst_Strategies::debouncePauseWarmsTheContextBeforeTheDraft()
{
    // ~3,000 tokens before the question (a library question's passages) at 10,000 prefill
    // tokens/s: what the warm-up at a pause leaves in the provider's cache for the answer.
    Llm::Usage usage;
    StrategyStats stats;
    auto ask = [&](bool warmContext, const QString &topic) {
        Settings settings;
        settings.debounce.warmContext = warmContext;
        m_engine = makeEngine("rtt=0,prefill=10000,decode=1000", settings);
        const CompiledPrompt compiled = *chatTemplate(false).compile(m_engine->profile(), {});
        QString context;
        for (int i = 0; i < 500; ++i)
            context += QStringLiteral("Passage %1 says one more thing about %2. ").arg(i).arg(topic);
        context += QStringLiteral("\n\nQuestion: ");
        DebounceStrategy debounce(m_engine.get(), std::make_shared<HeuristicClassifier>());
        int warmed = 0;
        debounce.setBuilder(
            [compiled, context](const QString &text) {
                GenerationParams params;
                params.maxTokens = 8;
                return *compiled.render({{QStringLiteral("message"), context + text}}, params);
            },
            nullptr,
            [compiled, context, &warmed](const QString &) {
                ++warmed;
                return renderChatWarmup(compiled, {}, context);
            });
        // A draft that trails off: nothing is answered early, but at the pause its context
        // goes ahead; at the next pause it is warm already and is not sent again.
        const auto pause = [&](const QString &draft, int warmedAfter) {
            debounce.textChanged(draft);
            if (warmContext)
                QTRY_COMPARE_WITH_TIMEOUT(warmed, warmedAfter, 3000);
            QVERIFY(m_local.settle(&m_network, 500, 5000)); // past the 350 ms pause
            // The warm-up's answer (3,000 tokens of prefill) may still be on its way on busy cores.
            QTRY_COMPARE_WITH_TIMEOUT(m_engine->prefetchInFlight(), 0, 5000);
        };
        pause(QStringLiteral("Can you tell me about the"), 1);
        pause(QStringLiteral("Can you tell me about the %1 and").arg(topic), 2);
        QVERIFY(!debounce.isPrefetching());
        AnswerReader *answer = debounce.send(QStringLiteral("Can you tell me about the %1?").arg(topic),
                                             Llm::monotonicNowNs(), this);
        QVERIFY(!answer->isPrefetched());
        drain(answer);
        usage = answer->usage();
        stats = m_engine->metrics().stats(Strategy::Warmup);
    };

    ask(true, QStringLiteral("tides"));
    if (QTest::currentTestFailed())
        return;
    QCOMPARE(stats.attempts, 1);
    QCOMPARE(stats.hits, 1);
    QVERIFY2(usage.cacheReadTokens > 2500, qPrintable(QString::number(usage.cacheReadTokens)));
    // The answer it served is what its cost is set against: without it, every warm-up of
    // passages reads as waste and the warm-up strategy pauses itself.
    QCOMPARE(stats.tokensUsed, usage.inputTokens + usage.outputTokens);

    // Switched off (another topic, so nothing of the first run's cache applies): no warm-up,
    // and the answer reads at most the shared system prompt from the cache.
    ask(false, QStringLiteral("storms"));
    if (QTest::currentTestFailed())
        return;
    QCOMPARE(stats.attempts, 0);
    QVERIFY2(usage.cacheReadTokens < 200, qPrintable(QString::number(usage.cacheReadTokens)));
}

void tst_Strategies::modelClassifierAsksTheFastModelAndClosesAtTheNumber()
{
    // The local engine's small model answers {"confidence": 0.1, "reason": "..."} for a draft
    // that ends on "the", a token every 50 ms: the classifier has its number after a few
    // tokens and closes the stream, so the provider stops generating the reason.
    m_engine = makeEngine("decode=20");
    QCOMPARE(m_engine->profile().quickModel(), QStringLiteral("headstart-local-small"));
    ModelClassifier classifier(m_engine.get(), 10s);
    const LocalProvider::Stats before = m_local.stats();
    const QString draft = QStringLiteral("Can you tell me about the");
    QVERIFY(heuristicCompleteness(draft) != 0.1); // the answer below is the model's
    double answer = -1;
    classifier.classify(draft, {}, this, [&](double c) { answer = c; });
    QCOMPARE(answer, -1.0); // never from inside classify()
    QTRY_VERIFY_WITH_TIMEOUT(answer >= 0, 15000);
    QCOMPARE(answer, 0.1);

    const ClassifierStats line = m_engine->metrics().classifier();
    QCOMPARE(line.requests, 1);
    QCOMPARE(line.truncated, 1);
    QVERIFY(line.inputTokens > 0);
    QVERIFY(line.cost > 0); // at the fast model's prices
    QCOMPARE(m_engine->budget().outstanding(), 0);
    QVERIFY(m_engine->budget().used() > 0);
    QTRY_COMPARE_WITH_TIMEOUT(m_local.stats().streamsCancelled, before.streamsCancelled + 1, 5000);
    const qint64 generated = m_local.stats().billedByPurpose.value(QStringLiteral("classifier")).output;
    QVERIFY2(generated > 0 && generated < ModelClassifier::buildRequest({}, draft).maxTokens,
             qPrintable(QString::number(generated)));
}

void tst_Strategies::modelClassifierFallsBackWhenTheFastModelFails()
{
    // A fast model the provider does not serve: its 404 shows the question named it, and the
    // heuristic answers.
    Llm::ProviderProfile profile = m_local.profile();
    profile.fastModel = QStringLiteral("no-such-model");
    Engine engine(&m_network, profile);
    ModelClassifier classifier(&engine, 10s);
    const auto rejected = m_local.stats().requestsRejected;
    const QString draft = QStringLiteral("Can you tell me about the");
    double answer = -1;
    classifier.classify(draft, {}, this, [&](double c) { answer = c; });
    QTRY_VERIFY_WITH_TIMEOUT(answer >= 0, 15000);
    QCOMPARE(answer, heuristicCompleteness(draft));
    QCOMPARE(m_local.stats().requestsRejected, rejected + 1);
    QCOMPARE(engine.metrics().classifier().fallbacks, 1);
    QCOMPARE(engine.budget().outstanding(), 0);
}

void tst_Strategies::modelClassifierGivesUpAtItsTimeout()
{
    Engine engine(&m_network, m_local.profile("rtt=2000"));
    ModelClassifier classifier(&engine, 100ms);
    const QString draft = QStringLiteral("How do I reset my password?");
    double answer = -1;
    QElapsedTimer clock;
    clock.start();
    classifier.classify(draft, {}, this, [&](double c) { answer = c; });
    QTRY_VERIFY_WITH_TIMEOUT(answer >= 0, 3000);
    QVERIFY(clock.elapsed() < 1500);
    QCOMPARE(answer, heuristicCompleteness(draft));
    QCOMPARE(engine.metrics().classifier().fallbacks, 1);
    QCOMPARE(engine.sideRequestsInFlight(), 0);
    QTRY_COMPARE_WITH_TIMEOUT(m_local.stats().streamsOpen, 0, 1000);
}

void tst_Strategies::stopCancelsTheClassifiersQuestion()
{
    // Stop means nothing more is spent: the classifier's question is closed with the prefetches,
    // and the heuristic answers the pause.
    Engine engine(&m_network, m_local.profile("rtt=2000"));
    ModelClassifier classifier(&engine, 10s);
    const QString draft = QStringLiteral("How do I reset my password?");
    double answer = -1;
    classifier.classify(draft, {}, this, [&](double c) { answer = c; });
    QCOMPARE(engine.sideRequestsInFlight(), 1);
    engine.stopAll();
    QCOMPARE(engine.sideRequestsInFlight(), 0);
    QTRY_VERIFY_WITH_TIMEOUT(answer >= 0, 1000);
    QCOMPARE(answer, heuristicCompleteness(draft));
    QCOMPARE(engine.metrics().classifier().cancelled, 1);
    QCOMPARE(engine.budget().outstanding(), 0);
}

void tst_Strategies::suspendedDebounceAsksNoClassifierAndSendStillAnswers()
{
    // While speculation is suspended (the app closing, a metered connection) a typing pause asks
    // the small model nothing: that request is speculation too. Sending still answers.
    m_engine = makeEngine({});
    auto classifier = std::make_shared<ModelClassifier>(m_engine.get(), 10s);
    DebounceStrategy debounce(m_engine.get(), classifier);
    debounce.setBuilder(chat());
    m_engine->setSpeculationSuspended(Engine::Suspension::Etiquette, true);
    // What an earlier test sent has reached the server before the count is taken.
    QVERIFY(m_local.settle(&m_network, 0, 5000));
    const auto served = m_local.stats().requestsServed;
    const QString draft = QStringLiteral("How do I reset my password?");
    for (qsizetype i = 1; i <= draft.size(); ++i)
        debounce.textChanged(draft.left(i));
    QVERIFY(m_local.settle(&m_network, 1000, 5000)); // well past the typing pause
    QCOMPARE(m_local.stats().requestsServed, served);
    QVERIFY(!debounce.isPrefetching());
    QCOMPARE(m_engine->budget().used(), 0);

    AnswerReader *answer = debounce.send(draft, Llm::monotonicNowNs(), this);
    QVERIFY(!answer->isPrefetched());
    QCOMPARE(drain(answer), freshText(chat()(draft)));
    QCOMPARE(m_local.stats().requestsServed, served + 2); // the answer, and freshText's own

    // Resumed: the next pause asks the model again.
    m_engine->setSpeculationSuspended(Engine::Suspension::Etiquette, false);
    const auto resumed = m_local.stats().requestsServed;
    debounce.textChanged(draft + QStringLiteral(" Please"));
    QTRY_VERIFY_WITH_TIMEOUT(m_local.stats().requestsServed > resumed, 10000);
    m_engine->stopAll();
}

// --- workflow --------------------------------------------------------------------------------

namespace {
RenderedRequest stepRequest(const Llm::ProviderProfile &profile, int step, const QVariantMap &data)
{
    const CompiledPrompt wizard =
        *workflowStepTemplate().compile(profile, {{QStringLiteral("system"),
                                                   QStringLiteral("You help write a new document step by step.")}});
    GenerationParams params;
    params.maxTokens = 40;
    const QString prompt = QStringLiteral("Step %1. Topic: %2. Audience: %3.")
                               .arg(step)
                               .arg(data.value(QStringLiteral("topic")).toString(),
                                    data.value(QStringLiteral("audience")).toString());
    return *wizard.render({{QStringLiteral("prompt"), prompt}}, params);
}
} // namespace

void tst_Strategies::workflowPrefetchesNextStep()
{
    m_engine = makeEngine("rtt=300,prefill=1000000,decode=400");
    WorkflowStrategy workflow(m_engine.get());
    const QVariantMap data{{QStringLiteral("topic"), QStringLiteral("prompt caching")},
                           {QStringLiteral("audience"), QStringLiteral("engineers")}};
    workflow.stepCompleted(1, data, stepRequest(m_engine->profile(), 2, data));
    QVERIFY(workflow.isPrefetching(2));
    auto complete = [this] {
        const auto live = m_engine->liveSessions();
        return live.size() == 1 && live.first()->state() == PrefetchSession::State::Complete;
    };
    QTRY_VERIFY_WITH_TIMEOUT(complete(), 5000); // the whole answer is buffered
    AnswerReader *answer = workflow.activate(2, data, stepRequest(m_engine->profile(), 2, data), Llm::monotonicNowNs(),
                                             this);
    QVERIFY(answer->isPrefetched());
    QCOMPARE(drain(answer), freshText(stepRequest(m_engine->profile(), 2, data)));
    // Shown at once: far under the 300 ms the provider takes to start.
    QVERIFY2(answer->perceivedLatencyMs() < 100, qPrintable(QString::number(answer->perceivedLatencyMs())));
    QCOMPARE(m_engine->metrics().stats(Strategy::Workflow).hits, 1);
}

void tst_Strategies::workflowOtherFormDataIsAMiss()
{
    m_engine = makeEngine({});
    WorkflowStrategy workflow(m_engine.get());
    QVariantMap data{{QStringLiteral("topic"), QStringLiteral("prompt caching")},
                     {QStringLiteral("audience"), QStringLiteral("engineers")}};
    workflow.stepCompleted(1, data, stepRequest(m_engine->profile(), 2, data));
    QVERIFY(workflow.stepKey(2, data) != workflow.stepKey(3, data));
    data[QStringLiteral("audience")] = QStringLiteral("managers"); // went back and changed a field
    AnswerReader *answer = workflow.activate(2, data, stepRequest(m_engine->profile(), 2, data), Llm::monotonicNowNs(),
                                             this);
    QVERIFY(!answer->isPrefetched());
    QCOMPARE(drain(answer), freshText(stepRequest(m_engine->profile(), 2, data)));
    QCOMPARE(m_engine->metrics().stats(Strategy::Workflow).misses, 1);
}

// --- warm-up ---------------------------------------------------------------------------------

void tst_Strategies::warmupMakesTheNextRequestHitTheCache()
{
    // ~5,000-token documents at 10,000 prefill tokens/s: ~500 ms cold.
    m_engine = makeEngine("rtt=0,prefill=10000,decode=1000");
    WarmupStrategy warmup(m_engine.get());
    auto longDocument = [](const QString &topic) {
        QString text;
        for (int i = 0; i < 900; ++i)
            text += QStringLiteral("Paragraph %1 on %2 explains one more detail. ").arg(i).arg(topic);
        return text;
    };
    const CompiledPrompt warmed = compileDocument(longDocument(QStringLiteral("caches")));
    const CompiledPrompt cold = compileDocument(longDocument(QStringLiteral("lanes")));
    QVERIFY(warmed.estimatedPrefixTokens() > 4000);

    QSignalSpy done(&warmup, &WarmupStrategy::warmed);
    warmup.documentOpened(QStringLiteral("doc-1"), warmed);
    QVERIFY(done.wait(5000));

    GenerationParams params;
    params.maxTokens = 8;
    const RenderedRequest onWarm = *renderAction(warmed, DocumentAction::Summarize, {}, {}, params);
    const RenderedRequest onCold = *renderAction(cold, DocumentAction::Summarize, {}, {}, params);
    AnswerReader *a = m_engine->request(Strategy::None, onWarm, Llm::monotonicNowNs(), this);
    drain(a);
    AnswerReader *b = m_engine->request(Strategy::None, onCold, Llm::monotonicNowNs(), this);
    drain(b);

    QVERIFY(a->usage().cacheReadTokens > 4000);
    QVERIFY(b->usage().cacheReadTokens < 200); // at most the shared system prompt
    QVERIFY2(a->perceivedLatencyMs() * 3 < b->perceivedLatencyMs(),
             qPrintable(
                 QStringLiteral("warm %1 ms, cold %2 ms").arg(a->perceivedLatencyMs()).arg(b->perceivedLatencyMs())));
    const StrategyStats stats = m_engine->metrics().stats(Strategy::Warmup);
    QCOMPARE(stats.attempts, 1);
    QCOMPARE(stats.hits, 1);
    QVERIFY(stats.cacheReadTokens > 4000);
    // Its cost is set against the answer it served: one warm-up per answer on a 5k-token
    // document costs about as much as that answer's prompt.
    QVERIFY(stats.tokensUsed > 4000);
    QVERIFY(stats.extraCost() < 1.5);
    // The cache it keeps warm serves every later answer on the document too: each is set
    // against the same warm-up, which stays one attempt and one hit.
    AnswerReader *again = m_engine->request(Strategy::None, onWarm, Llm::monotonicNowNs(), this);
    drain(again);
    const StrategyStats later = m_engine->metrics().stats(Strategy::Warmup);
    QCOMPARE(later.attempts, 1);
    QCOMPARE(later.hits, 1);
    QVERIFY(later.tokensUsed > stats.tokensUsed + 4000);
    QCOMPARE(later.tokensWasted, stats.tokensWasted);
    QVERIFY(later.extraCost() < stats.extraCost() * 0.6);

    // Switching back to the tab soon after sends nothing new.
    const auto served = m_local.stats().requestsServed;
    warmup.documentOpened(QStringLiteral("doc-1"), warmed);
    QVERIFY(m_local.settle(&m_network, 0, 5000));
    QCOMPARE(m_local.stats().requestsServed, served);
}

void tst_Strategies::warmupSkipsSmallDocuments()
{
    m_engine = makeEngine({});
    WarmupStrategy warmup(m_engine.get());
    QSignalSpy skipped(&warmup, &WarmupStrategy::skipped);
    const auto served = m_local.stats().requestsServed;
    warmup.documentOpened(QStringLiteral("tiny"), compileDocument(QStringLiteral("A short note.")));
    QCOMPARE(skipped.count(), 1);
    QVERIFY(skipped.first().at(1).toString().contains(QLatin1String("tokens")));
    QVERIFY(m_local.settle(&m_network, 0, 5000));
    QCOMPARE(m_local.stats().requestsServed, served);
}

void tst_Strategies::warmupRenewalStopsWhenTheDocumentIsLeftAlone()
{
    // Renewed every 150 ms while in use; left alone for a second, renewals stop until the
    // document is opened again. The provider counts the warm-ups it served.
    m_engine = makeEngine("rtt=0,prefill=200000,decode=1000");
    Prefetch::Settings settings = m_engine->settings();
    settings.warmup.interval = std::chrono::milliseconds(150);
    settings.warmup.idleLimit = std::chrono::milliseconds(1000);
    m_engine->setSettings(settings);
    WarmupStrategy warmup(m_engine.get());
    QString text;
    for (int i = 0; i < 900; ++i)
        text += QStringLiteral("Paragraph %1 on caches explains one more detail. ").arg(i);
    const CompiledPrompt prompt = compileDocument(text);
    QSignalSpy warmed(&warmup, &WarmupStrategy::warmed);
    warmup.documentOpened(QStringLiteral("doc-1"), prompt);
    QVERIFY(warmup.isRenewing(QStringLiteral("doc-1")));
    QTRY_VERIFY_WITH_TIMEOUT(warmed.count() >= 2, 5000); // the first warm-up and a renewal
    // Left alone: the renewal after the idle limit is not sent, and none after it.
    QTRY_VERIFY_WITH_TIMEOUT(!warmup.isRenewing(QStringLiteral("doc-1")), 10000);
    QVERIFY(m_local.settle(&m_network, 0, 5000));
    const auto served = m_local.stats().requestsServed;
    const int renewals = warmed.count();
    // Back to it: warmed again (its cache may have lapsed) and renewed again.
    warmup.documentOpened(QStringLiteral("doc-1"), prompt);
    QVERIFY(warmup.isRenewing(QStringLiteral("doc-1")));
    QTRY_VERIFY_WITH_TIMEOUT(warmed.count() >= renewals + 1, 5000);
    QVERIFY(m_local.stats().requestsServed > served);
}

void tst_Strategies::warmupFollowsTheProvidersCacheLifetime()
{
    // Anthropic keeps a cache five minutes (an hour on request): the ten-minute default
    // renewal would let it lapse between two renewals.
    Llm::ProviderProfile anthropic = Llm::builtinProfile(u"anthropic");
    QCOMPARE(anthropic.cacheLifetime(), std::chrono::seconds(300));
    anthropic.encodeOptions.longCacheLifetime = true;
    QCOMPARE(anthropic.cacheLifetime(), std::chrono::seconds(3600));
    // The automatic caches publish no fixed lifetime: the setting alone decides.
    QCOMPARE(Llm::builtinProfile(u"deepseek").cacheLifetime(), std::chrono::seconds(0));
    QCOMPARE(Llm::builtinProfile(u"openai").cacheLifetime(), std::chrono::seconds(0));
}

QTEST_GUILESS_MAIN(tst_Strategies)
#include "tst_strategies.moc"
