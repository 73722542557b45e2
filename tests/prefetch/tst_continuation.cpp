// Speculations bounded at the provider and continued on commit, against the real local
// provider, for each wire format: a guess asks for a prefix only, so an unused one is billed no
// more than that (where the provider cannot continue, a strong guess asks for the whole answer
// and costs it); taken over, the prefix and its continuation are the fresh answer, byte for byte;
// a provider that refuses the continuation gets the answer asked for again whole, never a broken
// one, and is not asked to continue again; a continuation that fails mid-way keeps what came;
// Stop cancels prefixes and continuations alike.
#include "support/localproviderfixture.h"

#include "prefetch/engine.h"
#include "prefetch/prefetchsession.h"
#include "prefetch/stream/answerfetch.h"
#include "prefetch/stream/answerreader.h"
#include "prefetch/stream/revealpacer.h"

#include "llm/clock.h"

#include <QElapsedTimer>
#include <QNetworkAccessManager>
#include <QSignalSpy>
#include <QTest>

#include <memory>

using namespace Prefetch;
using namespace std::chrono_literals;
using TestSupport::drain;

Q_DECLARE_METATYPE(Llm::ApiFormat)

class tst_Continuation : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void init();

    void unusedGuessIsBilledOnlyItsPrefix_data();
    void unusedGuessIsBilledOnlyItsPrefix();
    void prefixAndContinuationAreTheFreshAnswer_data();
    void prefixAndContinuationAreTheFreshAnswer();
    void refusedContinuationAsksForTheWholeAnswer();
    void continuationFailingMidwayKeepsWhatCame();
    void stopCancelsPrefixesAndContinuations();
    void moneyBudgetRefusesAGuessThatWouldPassIt();
    void bufferedTextIsRevealedAtTheProvidersPace();
    void stallIsTheLongestStillTimeInTheFirstSeconds();
    void aPrefixIsSpreadOverTheContinuationsWait();
    void theContinuationIsDueAfterTheFirstPartsWait();

private:
    Llm::ProviderProfile profile(Llm::ApiFormat format, const QByteArray &latency = {},
                                 const QByteArray &fault = {}) const;
    RenderedRequest request(Engine &engine, const QString &prompt, int maxTokens = 300) const;

    TestSupport::LocalProviderFixture m_local;
    QNetworkAccessManager m_network;
};

void tst_Continuation::initTestCase()
{
    QVERIFY2(m_local.start(), qPrintable(m_local.errorString()));
}

void tst_Continuation::init()
{
    QVERIFY(m_local.waitForNoOpenStream(2000));
}

Llm::ProviderProfile tst_Continuation::profile(Llm::ApiFormat format, const QByteArray &latency,
                                               const QByteArray &fault) const
{
    Llm::ProviderProfile p = m_local.profile(latency, fault);
    p.format = format;
    if (format == Llm::ApiFormat::AnthropicMessages)
        p.encodeOptions.continuation = Llm::ContinuationStyle::AssistantPrefill;
    return p;
}

RenderedRequest tst_Continuation::request(Engine &engine, const QString &prompt, int maxTokens) const
{
    Llm::ChatRequest r;
    r.system = QStringLiteral("You answer questions about continuations, at length.");
    r.messages = {{Llm::Role::User, prompt}};
    r.maxTokens = maxTokens;
    return engine.render(r);
}

void tst_Continuation::unusedGuessIsBilledOnlyItsPrefix_data()
{
    QTest::addColumn<bool>("continues");
    QTest::addColumn<int>("billedAtMost");
    QTest::addRow("provider that continues: the buffer's worth") << true << 40;
    QTest::addRow("provider that cannot: the whole answer") << false << 300;
}

void tst_Continuation::unusedGuessIsBilledOnlyItsPrefix()
{
    QFETCH(bool, continues);
    QFETCH(int, billedAtMost);
    Settings settings;
    settings.bufferTokens = 40;
    Llm::ProviderProfile p = profile(Llm::ApiFormat::OpenAiChat, "rtt=0,prefill=1000000,decode=4000");
    if (!continues)
        p.encodeOptions.continuation = Llm::ContinuationStyle::None;
    Engine engine(&m_network, p, settings);
    const auto before = m_local.stats().billedByPurpose.value(QStringLiteral("hover"));
    const RenderedRequest r = request(engine, QStringLiteral("A guess nobody takes: what does it cost?"));
    QPointer<PrefetchSession> session = engine.prefetch(Strategy::Hover, r, 30s);
    QVERIFY(session);
    // A provider generates what it was asked for, read or not: wait until it has.
    QTRY_VERIFY_WITH_TIMEOUT(m_local.stats().streamsCompleted > 0 && m_local.stats().streamsOpen == (continues ? 0 : 1)
                                 && m_local.stats().billedByPurpose.value(QStringLiteral("hover")).output
                                        > before.output,
                             5000);
    QTRY_VERIFY_WITH_TIMEOUT(continues ? session->isPrefix() : session->isPausedAtCap(), 5000);
    engine.cancel(session); // the pointer left
    QVERIFY(m_local.waitForNoOpenStream(2000));
    const qint64 billed = m_local.stats().billedByPurpose.value(QStringLiteral("hover")).output - before.output;
    qInfo("billed output of an unused guess: %lld tokens", qint64(billed));
    QVERIFY2(billed <= billedAtMost, qPrintable(QString::number(billed)));
    QVERIFY2(continues ? billed == 40 : billed > 40, qPrintable(QString::number(billed))); // the answer is longer
}

void tst_Continuation::prefixAndContinuationAreTheFreshAnswer_data()
{
    QTest::addColumn<Llm::ApiFormat>("format");
    QTest::addColumn<int>("prefixTokens");
    for (int n : {1, 7, 32}) {
        QTest::addRow("openai, %d tokens", n) << Llm::ApiFormat::OpenAiChat << n;
        QTest::addRow("anthropic, %d tokens", n) << Llm::ApiFormat::AnthropicMessages << n;
    }
}

void tst_Continuation::prefixAndContinuationAreTheFreshAnswer()
{
    QFETCH(Llm::ApiFormat, format);
    QFETCH(int, prefixTokens);
    Settings settings;
    settings.bufferTokens = prefixTokens;
    Engine engine(&m_network, profile(format, "rtt=0,prefill=1000000,decode=4000"), settings);
    // The local provider's answers end within 381 tokens: room for the whole of one, which ends with Stop.
    const RenderedRequest r = request(engine, QStringLiteral("Explain, in many sentences, how a prefix is continued."),
                                      400);
    QPointer<PrefetchSession> session = engine.prefetch(Strategy::Debounce, r, 30s);
    QVERIFY(session);
    QTRY_VERIFY_WITH_TIMEOUT(session->isPrefix(), 5000);
    QCOMPARE(session->bufferedTokens(), prefixTokens);
    AnswerReader *answer = engine.consume(session, r, Llm::monotonicNowNs(), this);
    QVERIFY(answer->isPrefetched());
    const QString text = drain(answer);
    QCOMPARE(text, TestSupport::freshText(&m_network, engine.profile(), r));
    QCOMPARE(answer->answer()->parts(), 2);
    QCOMPARE(answer->finishReason(), Llm::FinishReason::Stop);
    QVERIFY(engine.canContinue());
}

void tst_Continuation::refusedContinuationAsksForTheWholeAnswer()
{
    Settings settings;
    settings.bufferTokens = 12;
    Llm::ProviderProfile p = profile(Llm::ApiFormat::OpenAiChat, "rtt=0,prefill=1000000,decode=4000");
    // The continuation goes where nothing answers (a beta endpoint this model does not have).
    QUrl nowhere = m_local.server().apiUrl();
    nowhere.setPath(QStringLiteral("/no-such-beta/"));
    p.continuationBaseUrl = nowhere;
    Engine engine(&m_network, p, settings);
    const RenderedRequest r = request(engine, QStringLiteral("An answer whose continuation is refused."));
    QPointer<PrefetchSession> session = engine.prefetch(Strategy::Hover, r, 30s);
    QTRY_VERIFY_WITH_TIMEOUT(session->isPrefix(), 5000);
    AnswerReader *answer = engine.consume(session, r, Llm::monotonicNowNs(), this);
    QSignalSpy restarted(answer, &AnswerReader::restarted);
    QString shown;
    connect(answer, &AnswerReader::eventReceived, this, [&shown](const Llm::StreamEvent &e) {
        if (e.type == Llm::StreamEvent::Type::TextDelta)
            shown += e.text;
    });
    connect(answer, &AnswerReader::restarted, this, [&shown] { shown.clear(); });
    const QString text = drain(answer);
    const QString fresh = TestSupport::freshText(&m_network, engine.profile(), r);
    QCOMPARE(text, fresh);  // never a broken answer ...
    QCOMPARE(shown, fresh); // ... also as the consumer assembled it
    QCOMPARE(restarted.count(), 1);
    QVERIFY(!engine.canContinue()); // and no more prefixes on weak signals for this provider
    QCOMPARE(engine.speculativeLimit(SignalStrength::Weak, r.request), 0);
    QCOMPARE(engine.speculativeLimit(SignalStrength::Strong, r.request), r.request.maxTokens);
}

void tst_Continuation::continuationFailingMidwayKeepsWhatCame()
{
    Settings settings;
    settings.bufferTokens = 10;
    // Every request is cut after 25 tokens: the 10-token prefix gets through, its continuation not.
    Engine engine(&m_network, profile(Llm::ApiFormat::OpenAiChat, "rtt=0,prefill=1000000,decode=4000", "drop-after=25"),
                  settings);
    const RenderedRequest r = request(engine, QStringLiteral("A continuation that breaks off."));
    QPointer<PrefetchSession> session = engine.prefetch(Strategy::Hover, r, 30s);
    QTRY_VERIFY_WITH_TIMEOUT(session->isPrefix(), 5000);
    AnswerReader *answer = engine.consume(session, r, Llm::monotonicNowNs(), this);
    const QString text = drain(answer);
    QVERIFY2(text.startsWith(QLatin1String("<failed")), qPrintable(text));
    QVERIFY(answer->error());
    QCOMPARE(answer->error()->code(), Llm::Error::Code::StreamBroken);
    // What came is kept: the prefix and the 25 tokens of the continuation, the fresh answer's start.
    QVERIFY(answer->text().size() > 20);
    Engine plain(&m_network, profile(Llm::ApiFormat::OpenAiChat, "rtt=0,prefill=1000000,decode=4000"), settings);
    QVERIFY(TestSupport::freshText(&m_network, plain.profile(), r).startsWith(answer->text()));
    // At most the prefix and the 25 tokens sent before the cut; fewer when the reset reached
    // the client before it had read them all (TCP drops what is unread on a reset), which a
    // busy machine makes likely. Never fewer than the prefix it had.
    const int events = answer->answer()->contentEvents();
    QVERIFY2(events >= 10 && events <= 35, qPrintable(QString::number(events)));
}

void tst_Continuation::stopCancelsPrefixesAndContinuations()
{
    Settings settings;
    settings.bufferTokens = 8;
    Engine engine(&m_network, profile(Llm::ApiFormat::OpenAiChat, "rtt=0,prefill=1000000,decode=50"), settings);
    const RenderedRequest taken = request(engine, QStringLiteral("One answer continued slowly."));
    const RenderedRequest guessed = request(engine, QStringLiteral("Another guessed meanwhile."));
    QPointer<PrefetchSession> session = engine.prefetch(Strategy::Hover, taken, 30s);
    QTRY_VERIFY_WITH_TIMEOUT(session->isPrefix(), 5000);
    AnswerReader *answer = engine.consume(session, taken, Llm::monotonicNowNs(), this);
    QPointer<PrefetchSession> other = engine.prefetch(Strategy::Debounce, guessed, 30s);
    QVERIFY(other);
    QTRY_COMPARE_WITH_TIMEOUT(m_local.stats().streamsOpen, 2, 5000); // the continuation, and the other guess
    QSignalSpy failed(answer, &AnswerReader::failed);
    engine.stopAll();
    QCOMPARE(failed.count(), 1);
    QCOMPARE(failed.first().first().value<Llm::Error>().code(), Llm::Error::Code::Cancelled);
    QVERIFY(!other || !other->isLive());
    QTRY_COMPARE_WITH_TIMEOUT(m_local.stats().streamsOpen, 0, 200);
}

void tst_Continuation::moneyBudgetRefusesAGuessThatWouldPassIt()
{
    Settings settings;
    settings.hourlyTokenBudget = 0; // tokens unlimited: the money decides
    Llm::ProviderProfile p = profile(Llm::ApiFormat::OpenAiChat, "rtt=0,prefill=1000000,decode=4000");
    p.prices = {1.0, 1.0, 0.1, 2.0}; // per million tokens
    Engine probe(&m_network, p);
    const RenderedRequest first = request(probe, QStringLiteral("Priced guess one."));
    const double worst = p.prices.worstCase(estimatePromptTokens(first.request), settings.bufferTokens);
    settings.hourlyMoneyBudget = worst * 1.5; // room for one guess, not two
    Engine engine(&m_network, p, settings);
    QVERIFY(engine.prefetch(Strategy::Hover, request(engine, QStringLiteral("Priced guess one.")), 30s));
    QVERIFY(!engine.prefetch(Strategy::Debounce, request(engine, QStringLiteral("Priced guess two.")), 30s));
    QCOMPARE(engine.metrics().stats(Strategy::Debounce).rejectedBudget, 1);
    QVERIFY(engine.moneyBudget().used() > 0);
    engine.stopAll();
}

void tst_Continuation::bufferedTextIsRevealedAtTheProvidersPace()
{
    RevealPacer pacer;
    QString shown;
    QList<qint64> times;
    connect(&pacer, &RevealPacer::revealed, this, [&](const QString &text, bool first) {
        QCOMPARE(first, shown.isEmpty());
        shown += text;
        times.append(Llm::monotonicNowNs());
    });
    pacer.setRate(40); // a hosted model's 40 tokens/s
    QStringList pieces;
    for (int i = 0; i < 32; ++i)
        pieces << QStringLiteral(" piece%1").arg(i);
    for (const QString &p : std::as_const(pieces))
        pacer.append(p); // a prefetch's buffer, all at once
    // The first piece at once; the rest as if it were streaming, not dumped.
    QCOMPARE(shown, pieces.first());
    QVERIFY(pacer.isRevealing());
    QTRY_COMPARE_WITH_TIMEOUT(shown, pieces.join(QString()), 5000);
    // 31 pieces at 40 a second take about 775 ms; far less would be a dump, far more too slow a
    // pace. Only the order of magnitude is asserted (timers on a busy machine run late).
    const double ms = double(times.constLast() - times.constFirst()) / 1e6;
    QVERIFY2(ms > 400, qPrintable(QString::number(ms)));
    QVERIFY2(times.size() > 10, qPrintable(QString::number(times.size()))); // many small steps
    // An answer that ends shows what waits at once.
    pacer.reset();
    shown.clear();
    for (const QString &p : std::as_const(pieces))
        pacer.append(p);
    pacer.finish();
    QCOMPARE(shown, pieces.join(QString()));
    QVERIFY(!pacer.isRevealing());
}

void tst_Continuation::stallIsTheLongestStillTimeInTheFirstSeconds()
{
    RevealPacer pacer;
    pacer.append(QStringLiteral("first"));
    QElapsedTimer still;
    still.start();
    QTest::qWait(250); // the text stands still: nothing more has come
    pacer.append(QStringLiteral(" second"));
    QTRY_VERIFY_WITH_TIMEOUT(!pacer.isRevealing(), 2000);
    const double stall = pacer.stallMs();
    QVERIFY2(stall >= 240 && stall <= double(still.elapsed()) + 20, qPrintable(QString::number(stall)));
    pacer.finish();
    QCOMPARE(pacer.stallMs(), stall); // the end adds nothing
}

void tst_Continuation::aPrefixIsSpreadOverTheContinuationsWait()
{
    // DeepSeek's pace (250 tokens/s) and its wait for a first token (~1.5 s): 32 tokens shown at
    // the pace would take 0.13 s and the text would then stand still for over a second.
    RevealPacer pacer;
    QList<qint64> times;
    connect(&pacer, &RevealPacer::revealed, this, [&](const QString &, bool) { times.append(Llm::monotonicNowNs()); });
    pacer.setRate(250);
    pacer.append(QStringLiteral("first"));
    const qint64 due = Llm::monotonicNowNs() + 1'200'000'000;
    pacer.setNextDueNs(due);
    for (int i = 0; i < 31; ++i)
        pacer.append(QStringLiteral(" piece%1").arg(i));
    QTRY_VERIFY_WITH_TIMEOUT(!pacer.isRevealing(), 3000);
    const double spreadMs = double(times.constLast() - times.constFirst()) / 1e6;
    // Spread over most of the wait (a frame's rounding and a late timer aside), not dumped in
    // the 124 ms the provider's pace would take; and never later than MaxLagMs allows.
    QVERIFY2(spreadMs > 800 && spreadMs < RevealPacer::MaxLagMs + 200, qPrintable(QString::number(spreadMs)));
    QVERIFY2(pacer.stallMs() < 250, qPrintable(QString::number(pacer.stallMs())));

    // Without a wait announced, the provider's pace.
    RevealPacer paced;
    QList<qint64> pacedTimes;
    connect(&paced, &RevealPacer::revealed, this,
            [&](const QString &, bool) { pacedTimes.append(Llm::monotonicNowNs()); });
    paced.setRate(250);
    for (int i = 0; i < 32; ++i)
        paced.append(QStringLiteral(" piece%1").arg(i));
    QTRY_VERIFY_WITH_TIMEOUT(!paced.isRevealing(), 3000);
    const double pacedMs = double(pacedTimes.constLast() - pacedTimes.constFirst()) / 1e6;
    QVERIFY2(pacedMs < 500, qPrintable(QString::number(pacedMs)));
}

void tst_Continuation::theContinuationIsDueAfterTheFirstPartsWait()
{
    // A provider with a 300 ms wait to the first token: the continuation is due 300 ms after it
    // is sent, judged by the guess's own first part.
    Settings settings;
    settings.bufferTokens = 8;
    Engine engine(&m_network, profile(Llm::ApiFormat::OpenAiChat, "rtt=0,overhead=300,prefill=1000000,decode=4000"),
                  settings);
    const RenderedRequest r = request(engine, QStringLiteral("Explain, in many sentences, when a continuation is due."),
                                      400);
    QPointer<PrefetchSession> session = engine.prefetch(Strategy::Debounce, r, 30s);
    QVERIFY(session);
    QTRY_VERIFY_WITH_TIMEOUT(session->isPrefix(), 5000);
    AnswerReader *answer = engine.consume(session, r, Llm::monotonicNowNs(), this);
    QSignalSpy started(answer, &AnswerReader::continuationStarted);
    qint64 due = answer->answer()->continuationDueNs();
    if (due < 0) {
        QVERIFY(started.wait(5000));
        due = answer->answer()->continuationDueNs();
    }
    const AnswerFetch *stream = answer->answer();
    const double firstWaitMs = double(stream->firstTokenNs() - stream->startedNs()) / 1e6;
    QVERIFY2(firstWaitMs >= 280, qPrintable(QString::number(firstWaitMs)));
    const double dueInMs = double(due - Llm::monotonicNowNs()) / 1e6;
    QVERIFY2(dueInMs > 150 && dueInMs <= firstWaitMs + 1, qPrintable(QString::number(dueInMs)));
    // Once the continuation's first token is in, nothing is due any more.
    drain(answer);
    QCOMPARE(stream->continuationDueNs(), qint64(-1));
    QCOMPARE(stream->parts(), 2);
}

QTEST_GUILESS_MAIN(tst_Continuation)
#include "tst_continuation.moc"
