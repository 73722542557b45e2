// The engine with a response cache, against the real local provider over loopback: a whole
// answer is stored and the same request is then answered from the cache without a request
// (marked as such); requestFresh (Regenerate) always asks the provider; an answer cut at the
// token limit is not stored; the switch off sends every request; the counters say so.
#include "support/localproviderfixture.h"

#include "prefetch/cache/responsecache.h"
#include "prefetch/engine.h"
#include "prefetch/stream/answerreader.h"

#include "llm/clock.h"

#include <QNetworkAccessManager>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

#include <memory>

using namespace Prefetch;

class tst_EngineCache : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase() { QVERIFY2(m_local.start(), qPrintable(m_local.errorString())); }
    void init()
    {
        QVERIFY(m_dir.isValid());
        m_cache = std::make_unique<ResponseCache>(m_dir.filePath(QStringLiteral("c%1.sqlite").arg(++m_n)));
    }
    void exactRepeatIsServedFromTheCache();
    void regenerateAsksTheProvider();
    void truncatedAnswerIsNotStored();
    void switchedOffSendsEveryRequest();
    void cachedAnswerIsNotPrefetched();

private:
    std::unique_ptr<Engine> makeEngine(Settings settings = {})
    {
        auto engine = m_local.makeEngine(&m_network, {}, settings, 16);
        engine->setResponseCache(m_cache.get());
        return engine;
    }
    Llm::ChatRequest question(int maxTokens = 2000) const
    {
        Llm::ChatRequest r;
        r.model = m_local.profile().model;
        r.messages.append({Llm::Role::User, QStringLiteral("What does a response cache keep?")});
        r.maxTokens = maxTokens;
        return r;
    }
    // Waits for the end; the answer's text, or a failure.
    QString answer(AnswerReader *stream)
    {
        QSignalSpy finished(stream, &AnswerReader::finished);
        QSignalSpy failed(stream, &AnswerReader::failed);
        if (!QTest::qWaitFor([&] { return !finished.isEmpty() || !failed.isEmpty(); }, 20000) || !failed.isEmpty())
            return QStringLiteral("<failed>");
        return stream->text();
    }

    TestSupport::LocalProviderFixture m_local{u"instant"};
    QNetworkAccessManager m_network;
    QTemporaryDir m_dir;
    std::unique_ptr<ResponseCache> m_cache;
    int m_n = 0;
};

void tst_EngineCache::exactRepeatIsServedFromTheCache()
{
    auto engine = makeEngine();
    const RenderedRequest r = engine->render(question());
    const qint64 servedBefore = m_local.stats().requestsServed;
    AnswerReader *first = engine->request(Strategy::None, r, Llm::monotonicNowNs(), this);
    const QString live = answer(first);
    QVERIFY(!live.isEmpty() && live != QStringLiteral("<failed>"));
    QVERIFY(!first->isFromCache());
    QCOMPARE(first->finishReason(), Llm::FinishReason::Stop);
    QCOMPARE(m_cache->count(), 1);
    QCOMPARE(m_local.stats().requestsServed, servedBefore + 1);

    AnswerReader *again = engine->request(Strategy::None, engine->render(question()), Llm::monotonicNowNs(), this);
    QVERIFY(again->isFromCache());
    QCOMPARE(answer(again), live);
    QCOMPARE(again->finishReason(), Llm::FinishReason::Stop);
    QVERIFY(again->perceivedLatencyMs() >= 0);
    QCOMPARE(m_local.stats().requestsServed, servedBefore + 1); // nothing was sent
    QCOMPARE(engine->cachedAnswers().counters().exactHits, 1);
    QCOMPARE(engine->cachedAnswers().counters().misses, 1);
    QVERIFY(engine->cachedAnswers().counters().savedMs >= 0);
    const QJsonObject snap = engine->snapshot().value(QStringLiteral("responseCache")).toObject();
    QCOMPARE(snap.value(QStringLiteral("exactHits")).toInt(), 1);
    QCOMPARE(snap.value(QStringLiteral("entries")).toInt(), 1);
    // A request with another parameter is another request.
    Llm::ChatRequest other = question();
    other.maxTokens = 1999; // another parameter: another fingerprint
    AnswerReader *differs = engine->request(Strategy::None, engine->render(other), Llm::monotonicNowNs(), this);
    QVERIFY(!differs->isFromCache());
    answer(differs);
    QCOMPARE(m_local.stats().requestsServed, servedBefore + 2);
}

void tst_EngineCache::regenerateAsksTheProvider()
{
    auto engine = makeEngine();
    const RenderedRequest r = engine->render(question());
    answer(engine->request(Strategy::None, r, Llm::monotonicNowNs(), this));
    QCOMPARE(m_cache->count(), 1);
    const qint64 servedBefore = m_local.stats().requestsServed;
    AnswerReader *fresh = engine->requestFresh(Strategy::None, r, Llm::monotonicNowNs(), this);
    QVERIFY(!fresh->isFromCache());
    QVERIFY(answer(fresh) != QStringLiteral("<failed>"));
    QCOMPARE(m_local.stats().requestsServed, servedBefore + 1);
    QCOMPARE(engine->cachedAnswers().counters().exactHits, 0);
    QCOMPARE(m_cache->count(), 1); // the new answer replaced the old
}

void tst_EngineCache::truncatedAnswerIsNotStored()
{
    auto engine = makeEngine();
    AnswerReader *cut = engine->request(Strategy::None, engine->render(question(2)), Llm::monotonicNowNs(), this);
    answer(cut);
    QCOMPARE(cut->finishReason(), Llm::FinishReason::Length);
    QCOMPARE(m_cache->count(), 0);
    AnswerReader *again = engine->request(Strategy::None, engine->render(question(2)), Llm::monotonicNowNs(), this);
    QVERIFY(!again->isFromCache());
    answer(again);
}

void tst_EngineCache::switchedOffSendsEveryRequest()
{
    Settings settings;
    settings.cache.enabled = false;
    auto engine = makeEngine(settings);
    const RenderedRequest r = engine->render(question());
    answer(engine->request(Strategy::None, r, Llm::monotonicNowNs(), this));
    const qint64 servedBefore = m_local.stats().requestsServed;
    AnswerReader *again = engine->request(Strategy::None, r, Llm::monotonicNowNs(), this);
    QVERIFY(!again->isFromCache());
    QVERIFY(answer(again) != QStringLiteral("<failed>"));
    QCOMPARE(m_local.stats().requestsServed, servedBefore + 1);
    QCOMPARE(engine->cachedAnswers().counters().exactHits, 0);
}

void tst_EngineCache::cachedAnswerIsNotPrefetched()
{
    auto engine = makeEngine();
    const RenderedRequest r = engine->render(question());
    QVERIFY(!engine->hasCachedAnswer(r));
    const QString live = answer(engine->request(Strategy::None, r, Llm::monotonicNowNs(), this));
    QVERIFY(!live.isEmpty() && live != QStringLiteral("<failed>"));
    QVERIFY(engine->hasCachedAnswer(r));
    const qint64 served = m_local.stats().requestsServed;
    // The click will be given the cached answer: a guess of it would only cost.
    QCOMPARE(engine->prefetch(Strategy::Debounce, r, std::chrono::seconds(30)), nullptr);
    QCOMPARE(engine->prefetchInFlight(), 0);
    QCOMPARE(m_local.stats().requestsServed, served);
    QCOMPARE(engine->cachedAnswers().counters().exactHits, 0); // asking whether it is there counts nothing
    // Switched off, the cache holds nothing to give, and the guess goes.
    Settings off;
    off.cache.enabled = false;
    engine->setSettings(off);
    QVERIFY(!engine->hasCachedAnswer(r));
    QVERIFY(engine->prefetch(Strategy::Debounce, r, std::chrono::seconds(30)) != nullptr);
    engine->cancelAllPrefetches();
}

QTEST_MAIN(tst_EngineCache)
#include "tst_enginecache.moc"
