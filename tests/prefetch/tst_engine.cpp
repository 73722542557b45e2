// The engine's registry, lanes, budget and metrics against the real local provider: Stop
// closes every stream at the server within 200 ms; the prefetch lane runs 2, queues 5 and
// rejects the rest; a foreground request preempts the oldest prefetch at the provider's limit;
// the hourly budget refuses and reconciles; a strategy over its extra-cost ceiling pauses; prices
// edited while a prefetch streams price its bill without stopping it.
#include "support/localproviderfixture.h"

#include "prefetch/engine.h"
#include "prefetch/prefetchsession.h"
#include "prefetch/ratelimitbackoff.h"
#include "prefetch/stream/answerreader.h"

#include "llm/clock.h"

#include <QJsonArray>
#include <QNetworkAccessManager>
#include <QSignalSpy>
#include <QTest>

#include <memory>

using namespace Prefetch;
using namespace std::chrono_literals;

class tst_Engine : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void init();
    void stopAllClosesEveryServerStream();
    void prefetchLaneRunsTwoQueuesFiveRejectsTheRest();
    void queuedPrefetchStartsWhenASlotFrees();
    void foregroundPreemptsOldestPrefetch();
    void budgetRefusesAndReconciles();
    void refusedRequestsCostNothing();
    void timeLimitEndsAStalledAnswer();
    void newPricesApplyWithoutStoppingAnything();
    void disabledStrategyDoesNothing();
    void requestWithoutFingerprintIsNeverSpeculatedOnNorMatched();
    void nothingIsSpeculatedBeforeTheKeyIsKnown();
    void aRateLimitHoldsGuessesBackButNeverTheUser();
    void rateLimitBackoffDoublesUntilARequestGoesThrough();
    void wastefulStrategyDegradesAndStopsPrefetching();
    void snapshotDescribesEverything();

private:
    std::unique_ptr<Engine> makeEngine(Settings settings = {}, int concurrencyLimit = 16);
    Llm::ChatRequest request(int n, int maxTokens = 200) const;

    TestSupport::LocalProviderFixture m_local{u"instant", [](LocalProvider::ServerConfig &c) {
                                                  c.profile.decodeTokensPerSec = 40; // streams stay open for seconds
                                              }};
    QNetworkAccessManager m_network;
};

void tst_Engine::initTestCase()
{
    QVERIFY2(m_local.start(), qPrintable(m_local.errorString()));
}

void tst_Engine::init()
{
    QVERIFY(m_local.waitForNoOpenStream(2000));
}

std::unique_ptr<Engine> tst_Engine::makeEngine(Settings settings, int concurrencyLimit)
{
    return m_local.makeEngine(&m_network, {}, settings, concurrencyLimit);
}

Llm::ChatRequest tst_Engine::request(int n, int maxTokens) const
{
    Llm::ChatRequest r;
    r.model = m_local.profile().model;
    r.messages.append({Llm::Role::User, QStringLiteral("Request number %1 about lanes and budgets.").arg(n)});
    r.maxTokens = maxTokens;
    return r;
}

void tst_Engine::stopAllClosesEveryServerStream()
{
    auto engine = makeEngine();
    const auto before = m_local.stats();
    QList<QPointer<PrefetchSession>> sessions;
    for (int i = 0; i < 2; ++i) {
        const Llm::ChatRequest r = request(i);
        sessions << engine->prefetch(Strategy::Hover, engine->render(r), 30s);
    }
    AnswerReader *answer = engine->request(Strategy::None, engine->render(request(99)), Llm::monotonicNowNs(), this);
    QSignalSpy failed(answer, &AnswerReader::failed);
    QTRY_COMPARE_WITH_TIMEOUT(m_local.stats().streamsOpen, 3, 3000);
    // The two prefetches carried the marker a gateway can use; the answer did not.
    QCOMPARE(m_local.stats().prefetchRequests, before.prefetchRequests + 2);
    QCOMPARE(m_local.stats().requestsServed, before.requestsServed + 3);

    engine->stopAll();
    QCOMPARE(failed.count(), 1);
    QCOMPARE(failed.first().first().value<Llm::Error>().code(), Llm::Error::Code::Cancelled);
    // The provider has no open stream within 200 ms of Stop.
    QTRY_COMPARE_WITH_TIMEOUT(m_local.stats().streamsOpen, 0, 200);
    QVERIFY(engine->liveSessions().isEmpty());
    QCOMPARE(engine->metrics().stats(Strategy::Hover).cancelled, 2);
}

void tst_Engine::prefetchLaneRunsTwoQueuesFiveRejectsTheRest()
{
    auto engine = makeEngine();
    int accepted = 0;
    for (int i = 0; i < 8; ++i) {
        const Llm::ChatRequest r = request(i);
        if (engine->prefetch(Strategy::Debounce, engine->render(r), 30s))
            ++accepted;
    }
    QCOMPARE(accepted, 7);
    QCOMPARE(engine->prefetchInFlight(), 2);
    QCOMPARE(engine->prefetchQueued(), 5);
    QCOMPARE(engine->metrics().stats(Strategy::Debounce).rejectedLane, 1);
    QCOMPARE(engine->metrics().stats(Strategy::Debounce).attempts, 7);
    QTRY_COMPARE_WITH_TIMEOUT(m_local.stats().streamsOpen, 2, 2000);
    engine->cancelAllPrefetches();
}

void tst_Engine::queuedPrefetchStartsWhenASlotFrees()
{
    auto engine = makeEngine();
    QList<QPointer<PrefetchSession>> sessions;
    for (int i = 0; i < 3; ++i) {
        const Llm::ChatRequest r = request(100 + i);
        sessions << engine->prefetch(Strategy::Hover, engine->render(r), 30s);
    }
    QCOMPARE(sessions.at(2)->state(), PrefetchSession::State::Pending);
    engine->cancel(sessions.at(0));
    QTRY_COMPARE_WITH_TIMEOUT(sessions.at(2)->state(), PrefetchSession::State::Streaming, 1000);
    QCOMPARE(engine->prefetchInFlight(), 2);
    engine->cancelAllPrefetches();
}

void tst_Engine::foregroundPreemptsOldestPrefetch()
{
    auto engine = makeEngine({}, 2); // the provider takes two streams at once
    const Llm::ChatRequest a = request(200);
    const Llm::ChatRequest b = request(201);
    QPointer<PrefetchSession> oldest = engine->prefetch(Strategy::Hover, engine->render(a), 30s);
    QPointer<PrefetchSession> newer = engine->prefetch(Strategy::Hover, engine->render(b), 30s);
    QTRY_COMPARE_WITH_TIMEOUT(m_local.stats().streamsOpen, 2, 2000);

    AnswerReader *answer = engine->request(Strategy::None, engine->render(request(202, 10)), Llm::monotonicNowNs(),
                                           this);
    // Started at once, not queued behind the prefetches.
    QVERIFY(answer->answer() && answer->answer()->isStarted());
    QVERIFY(!oldest || oldest->state() == PrefetchSession::State::Cancelled);
    QVERIFY(newer && newer->state() == PrefetchSession::State::Streaming);
    QCOMPARE(engine->metrics().stats(Strategy::Hover).preempted, 1);
    QVERIFY(engine->foregroundInFlight() + engine->prefetchInFlight() <= 2);
    QSignalSpy finished(answer, &AnswerReader::finished);
    QVERIFY(finished.wait(5000));
    engine->cancelAllPrefetches();
}

void tst_Engine::budgetRefusesAndReconciles()
{
    Settings settings;
    settings.hourlyTokenBudget = 400;
    settings.bufferTokens = 200;
    auto engine = makeEngine(settings);
    // Estimate: ~15 prompt tokens + min(200, 200) buffered = ~215, so one fits and two do not.
    const Llm::ChatRequest first = request(300);
    QPointer<PrefetchSession> s1 = engine->prefetch(Strategy::Hover, engine->render(first), 30s);
    QVERIFY(s1);
    const qint64 reserved = engine->budget().used();
    QVERIFY(reserved > 200);
    const Llm::ChatRequest second = request(301);
    QVERIFY(!engine->prefetch(Strategy::Hover, engine->render(second), 30s));
    QCOMPARE(engine->metrics().stats(Strategy::Hover).rejectedBudget, 1);

    // Cancelled after a few tokens: it costs its input plus what it received, far below the estimate.
    QTRY_VERIFY_WITH_TIMEOUT(s1->bufferedTokens() >= 3, 3000);
    engine->cancel(s1);
    const qint64 afterCancel = engine->budget().used();
    QVERIFY2(afterCancel < reserved && afterCancel > 10, qPrintable(QString::number(afterCancel)));
    QCOMPARE(engine->metrics().stats(Strategy::Hover).tokensWasted, afterCancel);
    // Now there is room again.
    QVERIFY(engine->prefetch(Strategy::Hover, engine->render(second), 30s));
    engine->cancelAllPrefetches();
}

void tst_Engine::refusedRequestsCostNothing()
{
    // A provider bills nothing for a request it refused by its status (401, 429, 500...) or that
    // never reached an API: the reservation is given back whole, and no waste is counted. A
    // stream broken mid-way was processed: it costs its input and what came.
    for (const QByteArray fault : {"status=401", "status=500", "status=429", "drop-after=3"}) {
        Settings settings;
        settings.hourlyTokenBudget = 100'000;
        Llm::ProviderProfile p = m_local.profile({}, fault);
        Engine engine(&m_network, p, settings);
        QPointer<PrefetchSession> s = engine.prefetch(Strategy::Hover, engine.render(request(700)), 30s);
        QVERIFY(s);
        QVERIFY(engine.budget().used() > 0); // reserved
        QTRY_VERIFY_WITH_TIMEOUT(!s || !s->isLive(), 5000);
        QTRY_COMPARE_WITH_TIMEOUT(engine.budget().outstanding(), 0, 5000);
        const bool refused = fault.startsWith("status=");
        QVERIFY2((engine.budget().used() == 0) == refused, qPrintable(QString::number(engine.budget().used())));
        QVERIFY2((engine.metrics().stats(Strategy::Hover).tokensWasted == 0) == refused, fault.constData());
    }
}

void tst_Engine::timeLimitEndsAStalledAnswer()
{
    // The setting reaches every request: an answer that stops coming (here a 20 s stall after
    // two tokens, well inside the idle timeout) ends at the limit, a timeout with its text kept.
    Settings settings;
    settings.requestTimeLimit = 400ms;
    Engine engine(&m_network, m_local.profile({}, "stall=20000@2"), settings);
    AnswerReader *answer = engine.request(Strategy::None, engine.render(request(800)), Llm::monotonicNowNs(), this);
    const QString text = TestSupport::drain(answer, 10000);
    QVERIFY2(text.startsWith(QLatin1String("<failed")), qPrintable(text));
    QCOMPARE(answer->error()->code(), Llm::Error::Code::Timeout);
    QVERIFY(!answer->text().isEmpty());
    QVERIFY(m_local.waitForNoOpenStream(5000));
}

void tst_Engine::newPricesApplyWithoutStoppingAnything()
{
    auto engine = makeEngine();
    QPointer<PrefetchSession> session = engine->prefetch(Strategy::Hover, engine->render(request(400)), 30s);
    QVERIFY(session);
    QTRY_VERIFY_WITH_TIMEOUT(session->bufferedTokens() >= 3, 3000);

    // One price for every kind of token, so the bill is exactly tokens × price.
    Llm::Prices prices;
    prices.input = prices.cacheWrite = prices.cacheRead = prices.output = 1000;
    engine->setPrices(prices);
    QCOMPARE(session->state(), PrefetchSession::State::Streaming);
    QCOMPARE(engine->profile().prices, prices);
    QCOMPARE(engine->profile().model, m_local.profile().model); // the rest of the profile is unchanged
    Llm::Usage usage;
    usage.inputTokens = 1'000'000;
    usage.cacheReadTokens = 500'000;
    usage.outputTokens = 250'000;
    QCOMPARE(engine->cost(usage), 1250.0); // 1.25 M tokens at 1000 a million

    engine->cancel(session);
    const StrategyStats st = engine->metrics().stats(Strategy::Hover);
    QVERIFY(st.tokensWasted > 0);
    QCOMPARE(st.costWasted, double(st.tokensWasted) * 1000 / 1e6);
}

void tst_Engine::disabledStrategyDoesNothing()
{
    Settings settings;
    settings.hover.enabled = false;
    auto engine = makeEngine(settings);
    const auto served = m_local.stats().requestsServed;
    const Llm::ChatRequest r = request(400);
    QVERIFY(!engine->prefetch(Strategy::Hover, engine->render(r), 30s));
    QCOMPARE(engine->metrics().stats(Strategy::Hover).attempts, 0);
    QVERIFY(m_local.settle(&m_network, 0, 5000));
    QCOMPARE(m_local.stats().requestsServed, served);

    // Switching a strategy off cancels its live sessions.
    Settings on;
    auto engine2 = makeEngine(on);
    QPointer<PrefetchSession> s = engine2->prefetch(Strategy::Debounce, engine2->render(r), 30s);
    QVERIFY(s);
    on.debounce.enabled = false;
    engine2->setSettings(on);
    QVERIFY(!s || !s->isLive());
}

void tst_Engine::nothingIsSpeculatedBeforeTheKeyIsKnown()
{
    // At start the app gives the engine the chosen profile before the keychain has answered:
    // the document's warm-up must wait for the key instead of earning a 401 (issue 11, defect 4).
    // A hosted API that needs a key waits until it has one; any other profile until the key
    // store has answered, whatever it said.
    for (bool hosted : {true, false}) {
        Llm::ProviderProfile p = m_local.profile();
        p.isCloud = true;
        p.requiresApiKey = hosted;
        p.apiKey.clear();
        Engine engine(&m_network, p, {});
        engine.awaitKey();
        const auto before = m_local.stats();
        const RenderedRequest r = engine.render(request(500));
        QVERIFY(!engine.hasKey());
        QVERIFY(!engine.prefetch(Strategy::Warmup, r, 30s));
        QVERIFY(!engine.prefetch(Strategy::Hover, r, 30s, SignalStrength::Strong));
        QVERIFY(m_local.settle(&m_network, 0, 5000));
        QCOMPARE(m_local.stats().requestsServed + m_local.stats().requestsRejected,
                 before.requestsServed + before.requestsRejected);

        // The key store answers: with no key, a hosted API still gets nothing; with one (or
        // for an endpoint that takes none) the same warm-up goes out.
        engine.setProfile(p);
        QCOMPARE(engine.hasKey(), !hosted);
        if (hosted) {
            QVERIFY(!engine.prefetch(Strategy::Warmup, engine.render(request(500)), 30s));
            p.apiKey = QStringLiteral("sk-known-now");
            engine.setProfile(p);
            QVERIFY(engine.hasKey());
        }
        QPointer<PrefetchSession> warm = engine.prefetch(Strategy::Warmup, engine.render(request(500)), 30s);
        QVERIFY(warm);
        QTRY_VERIFY_WITH_TIMEOUT(m_local.stats().requestsServed > before.requestsServed, 10000);
        engine.stopAll();
    }
}

void tst_Engine::aRateLimitHoldsGuessesBackButNeverTheUser()
{
    // Issue 37: a 429 backs speculation off for that provider, never the user's request. The
    // limit counts every request in the last minute, so this test has a server of its own.
    TestSupport::LocalProviderFixture limited(u"instant", [](LocalProvider::ServerConfig &c) {
        c.profile = c.profile.withOverrides(u"rpm=2").value();
    });
    QVERIFY2(limited.start(), qPrintable(limited.errorString()));
    auto engine = limited.makeEngine(&m_network);
    QSignalSpy suspensions(engine.get(), &Engine::suspensionsChanged);
    for (int n : {700, 701}) {
        QPointer<PrefetchSession> guess = engine->prefetch(Strategy::Hover, engine->render(request(n, 5)), 30s);
        QVERIFY(guess);
        QTRY_VERIFY_WITH_TIMEOUT(!guess || guess->state() == PrefetchSession::State::Complete, 10000);
    }
    QVERIFY(!engine->isSpeculationSuspended());

    // The third request within the minute is refused with a Retry-After.
    QPointer<PrefetchSession> third = engine->prefetch(Strategy::Hover, engine->render(request(702, 5)), 30s);
    QVERIFY(third);
    QTRY_VERIFY_WITH_TIMEOUT(engine->speculationSuspensions().testFlag(Engine::Suspension::RateLimited), 10000);
    QCOMPARE(suspensions.count(), 1);
    QVERIFY(!third || !third->isLive()); // the guess that met the limit does not wait on it
    const auto remaining = engine->rateLimitBackoff().remaining();
    QVERIFY2(remaining > 0ms && remaining <= 60s, qPrintable(QString::number(remaining.count())));

    // No guess goes out while it holds, and none is counted as attempted.
    const auto before = limited.stats();
    const int attempts = engine->metrics().stats(Strategy::Debounce).attempts;
    QVERIFY(!engine->prefetch(Strategy::Debounce, engine->render(request(703, 5)), 30s));
    QVERIFY(limited.settle(&m_network, 0, 5000));
    QCOMPARE(limited.stats().requestsServed + limited.stats().requestsRejected,
             before.requestsServed + before.requestsRejected);
    QCOMPARE(engine->metrics().stats(Strategy::Debounce).attempts, attempts);

    // The user's request is sent all the same (and meets the provider's answer itself).
    AnswerReader *answer = engine->request(Strategy::None, engine->render(request(704, 5)), Llm::monotonicNowNs(),
                                           this);
    QVERIFY(answer);
    QTRY_VERIFY_WITH_TIMEOUT(limited.stats().requestsServed + limited.stats().requestsRejected
                                 > before.requestsServed + before.requestsRejected,
                             10000);
    engine->stopAll();

    // Another provider (or key) is not under this one's limit.
    engine->setProfile(limited.profile());
    QVERIFY(!engine->isSpeculationSuspended());
    QCOMPARE(engine->rateLimitBackoff().remaining(), 0ms);
}

void tst_Engine::rateLimitBackoffDoublesUntilARequestGoesThrough()
{
    RateLimitBackoff backoff;
    QSignalSpy active(&backoff, &RateLimitBackoff::activeChanged);
    backoff.rateLimited(std::nullopt);
    QCOMPARE(active.count(), 1);
    QVERIFY(backoff.isActive());
    QVERIFY(backoff.remaining() > 14s && backoff.remaining() <= RateLimitBackoff::First);
    backoff.rateLimited(std::nullopt); // a second 429 without Retry-After: twice as long
    QVERIFY(backoff.remaining() > 29s && backoff.remaining() <= 30s);
    QCOMPARE(active.count(), 1); // still the same back-off
    backoff.rateLimited(5s);     // an earlier end does not shorten it
    QVERIFY(backoff.remaining() > 29s);
    for (int i = 0; i < 6; ++i)
        backoff.rateLimited(std::nullopt);
    QVERIFY(backoff.remaining() > 299s && backoff.remaining() <= RateLimitBackoff::Longest);

    backoff.clear();
    QVERIFY(!backoff.isActive());
    QCOMPARE(active.count(), 2);
    QCOMPARE(active.last().first().toBool(), false);
    // A request that goes through starts the next one from the first step again.
    backoff.rateLimited(std::nullopt);
    backoff.rateLimited(std::nullopt);
    backoff.succeeded();
    backoff.clear();
    backoff.rateLimited(std::nullopt);
    QVERIFY(backoff.remaining() <= RateLimitBackoff::First);
    // The provider's Retry-After is taken as it is.
    backoff.clear();
    backoff.rateLimited(2s);
    QVERIFY(backoff.remaining() <= 2s);
    QVERIFY(active.wait(5000));
    QVERIFY(!backoff.isActive());
}

void tst_Engine::requestWithoutFingerprintIsNeverSpeculatedOnNorMatched()
{
    auto engine = makeEngine();
    const auto served = m_local.stats().requestsServed;
    // Built without a compiled prompt, nothing says what it answers: never a prefetch.
    RenderedRequest unknown;
    unknown.request = request(1);
    QVERIFY(!engine->prefetch(Strategy::Hover, unknown, 30s));
    RenderedRequest bodyOnly = engine->render(request(1));
    bodyOnly.fingerprint.clear();
    QVERIFY(!engine->prefetch(Strategy::Hover, bodyOnly, 30s));
    QCOMPARE(engine->metrics().stats(Strategy::Hover).attempts, 0);
    QCOMPARE(m_local.stats().requestsServed, served);

    // Asking with an unknown fingerprint never takes a session over, even for the same bytes.
    const RenderedRequest known = engine->render(request(2, 10));
    QPointer<PrefetchSession> session = engine->prefetch(Strategy::Hover, known, 30s);
    QVERIFY(session);
    RenderedRequest asked = known;
    asked.fingerprint.clear();
    AnswerReader *answer = engine->consume(session, asked, Llm::monotonicNowNs(), this);
    QVERIFY(!answer->isPrefetched());
    QVERIFY(!session || !session->isLive());
    QCOMPARE(engine->metrics().stats(Strategy::Hover).misses, 1);
    QTRY_VERIFY_WITH_TIMEOUT(answer->isDone(), 10000);
    QVERIFY(!answer->error());
    QVERIFY(!answer->text().isEmpty());
}

void tst_Engine::wastefulStrategyDegradesAndStopsPrefetching()
{
    auto engine = makeEngine();
    QSignalSpy degraded(&engine->metrics(), &Metrics::degradedChanged);
    // Every hover prefetch is abandoned after a few tokens; the clicks that follow are misses.
    for (int i = 0; i < 20 && degraded.isEmpty(); ++i) {
        const Llm::ChatRequest guess = request(500 + i, 30);
        QPointer<PrefetchSession> s = engine->prefetch(Strategy::Hover, engine->render(guess), 30s);
        QVERIFY(s);
        QTRY_VERIFY_WITH_TIMEOUT(!s || s->bufferedTokens() >= 2, 3000);
        const Llm::ChatRequest asked = request(600 + i, 1);
        AnswerReader *answer = engine->consume(s, engine->render(asked), Llm::monotonicNowNs(), this);
        QSignalSpy done(answer, &AnswerReader::finished);
        QVERIFY(done.wait(5000));
    }
    QVERIFY(!degraded.isEmpty());
    QCOMPARE(degraded.last().at(0).value<Strategy>(), Strategy::Hover);
    QCOMPARE(degraded.last().at(1).toBool(), true);
    QVERIFY(engine->metrics().isDegraded(Strategy::Hover));
    QVERIFY(!engine->metrics().stats(Strategy::Hover).degradedReason.isEmpty());
    const Llm::ChatRequest next = request(700);
    QVERIFY(!engine->prefetch(Strategy::Hover, engine->render(next), 30s));
    // Other strategies are not affected.
    QPointer<PrefetchSession> other = engine->prefetch(Strategy::Workflow, engine->render(next), 30s);
    QVERIFY(other);
    engine->cancelAllPrefetches();

    // While paused, the clicks still happen and their answers count as used: the extra cost
    // falls, and below the resume level the strategy comes back on its own.
    for (int i = 0; i < 60 && engine->metrics().isDegraded(Strategy::Hover); ++i) {
        AnswerReader *answer = engine->request(Strategy::Hover, engine->render(request(800 + i, 300)),
                                               Llm::monotonicNowNs(), this);
        QSignalSpy done(answer, &AnswerReader::finished);
        QVERIFY(done.wait(15000));
    }
    QVERIFY(!engine->metrics().isDegraded(Strategy::Hover));
    QCOMPARE(degraded.last().at(1).toBool(), false);
    QVERIFY(engine->metrics().stats(Strategy::Hover).extraCost() < 0.40);
    QVERIFY(engine->prefetch(Strategy::Hover, engine->render(next), 30s));
    engine->cancelAllPrefetches();
}

void tst_Engine::snapshotDescribesEverything()
{
    auto engine = makeEngine();
    const Llm::ChatRequest r = request(800);
    engine->prefetch(Strategy::Workflow, engine->render(r), 30s);
    const QJsonObject snap = engine->snapshot();
    QCOMPARE(snap.value(QLatin1String("provider")).toString(), QStringLiteral("local"));
    QCOMPARE(snap.value(QLatin1String("lanes")).toObject().value(QLatin1String("prefetch_in_flight")).toInt(), 1);
    QCOMPARE(snap.value(QLatin1String("sessions")).toArray().size(), 1);
    QVERIFY(snap.value(QLatin1String("budget")).toObject().value(QLatin1String("used")).toInteger() > 0);
    QVERIFY(snap.value(QLatin1String("metrics")).isObject());
    engine->cancelAllPrefetches();
}

QTEST_GUILESS_MAIN(tst_Engine)
#include "tst_engine.moc"
