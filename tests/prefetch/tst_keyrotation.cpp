// Several API keys for one provider (Llm::KeyRing): the ring on its own, with explicit times,
// then through the engine against the local provider, where one key of several is past its rate
// limit (ServerConfig::keyFaults answers its requests with a 429): the answer comes at once on
// the next key, later requests stay on it, and the prefetch key never joins the ring.

#include "support/localproviderfixture.h"

#include "prefetch/engine.h"
#include "prefetch/prefetchsession.h"
#include "prefetch/stream/answerreader.h"

#include "llm/clock.h"
#include "llm/keyring.h"

#include <QNetworkAccessManager>
#include <QPointer>
#include <QSignalSpy>
#include <QTest>

#include <memory>

using namespace Prefetch;
using namespace std::chrono_literals;
using Llm::KeyRing;

namespace {

const QString KeyA = QStringLiteral("sk-rotation-a-0123456789abcdef");
const QString KeyB = QStringLiteral("sk-rotation-b-0123456789abcdef");
const QString KeyC = QStringLiteral("sk-rotation-c-0123456789abcdef");
const QString PrefetchKey = QStringLiteral("sk-rotation-prefetch-0123456789");

LocalProvider::FaultSpec rateLimit(int retryAfterSec)
{
    LocalProvider::FaultSpec spec;
    spec.status = 429;
    spec.retryAfterSec = retryAfterSec;
    return spec;
}

Llm::ProviderProfile threeKeys()
{
    Llm::ProviderProfile p;
    p.id = QStringLiteral("rotation-test");
    p.apiKey = KeyA;
    p.moreApiKeys = {KeyB, QStringLiteral(" "), KeyA, KeyC}; // blanks and repeats do not count
    return p;
}

Settings noBackOffRetries()
{
    Settings s;
    s.retry.maxRetries = 0; // a back-off retry would hide whether the key switch happened
    return s;
}

Llm::ChatRequest question()
{
    Llm::ChatRequest r;
    r.system = QStringLiteral("You answer briefly.");
    r.messages = {{Llm::Role::User, QStringLiteral("Which key answered?")}};
    r.maxTokens = 24;
    return r;
}

} // namespace

class tst_KeyRotation : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void init();
    void theRingSkipsARestingKeyUntilItsRestEnds();
    void everyKeyRestingGivesTheOneThatWakesFirst();
    void aSingleKeyKeepsNoState();
    void aRateLimitedKeyGivesWayToTheNextAtOnce();
    void whenEveryKeyIsLimitedTheUserReadsTheProvidersWait();
    void thePrefetchKeyIsNotPartOfTheRing();

private:
    Llm::ProviderProfile keyedProfile() const;

    // A is past its rate limit; B and C work. The prefetch key is accepted too.
    TestSupport::LocalProviderFixture m_local{u"instant", [](LocalProvider::ServerConfig &c) {
                                                  c.apiKey = KeyA;
                                                  c.moreApiKeys = {KeyB, KeyC, PrefetchKey};
                                                  c.keyFaults.insert(KeyA, rateLimit(20));
                                              }};
    QNetworkAccessManager m_network;
};

void tst_KeyRotation::initTestCase()
{
    QVERIFY2(m_local.start(), qPrintable(m_local.errorString()));
}

void tst_KeyRotation::init()
{
    KeyRing::instance().reset();
    QVERIFY(m_local.waitForNoOpenStream(5000));
}

Llm::ProviderProfile tst_KeyRotation::keyedProfile() const
{
    Llm::ProviderProfile p = m_local.profile();
    p.apiKey = KeyA;
    p.moreApiKeys = {KeyB, KeyC};
    return p;
}

void tst_KeyRotation::theRingSkipsARestingKeyUntilItsRestEnds()
{
    const Llm::ProviderProfile p = threeKeys();
    QCOMPARE(KeyRing::keysOf(p), (QStringList{KeyA, KeyB, KeyC}));
    KeyRing &ring = KeyRing::instance();
    const auto t0 = KeyRing::Clock::now();
    QCOMPARE(ring.current(p, t0), KeyA);
    QCOMPARE(ring.current(p, t0 + 1s), KeyA); // it stays on a key that works

    QVERIFY(ring.rateLimited(p, KeyA, 30s, t0 + 2s));
    QCOMPARE(ring.current(p, t0 + 3s), KeyB);
    QCOMPARE(KeyRing::describe(p, KeyB), QStringLiteral("key 2 of 3"));
    // B is refused without a Retry-After: it rests the default minute, C takes over.
    QVERIFY(ring.rateLimited(p, KeyB, std::nullopt, t0 + 4s));
    QCOMPARE(ring.current(p, t0 + 5s), KeyC);
    QVERIFY(!ring.rateLimited(p, KeyC, 5s, t0 + 6s)); // A and B still rest: none free now
    // C was the last in use: once its rest is over (t0 + 11 s) it is taken again, though A's
    // ended too (t0 + 32 s); B still rests.
    QCOMPARE(ring.current(p, t0 + 40s), KeyC);
    QVERIFY(ring.rateLimited(p, KeyC, 5s, t0 + 41s)); // A is free now
    QCOMPARE(ring.current(p, t0 + 42s), KeyA);

    // New keys are a new ring: nothing rests.
    Llm::ProviderProfile changed = p;
    changed.moreApiKeys = {KeyC};
    QCOMPARE(ring.current(changed, t0 + 41s), KeyA);
}

void tst_KeyRotation::everyKeyRestingGivesTheOneThatWakesFirst()
{
    Llm::ProviderProfile p = threeKeys();
    p.moreApiKeys = {KeyB};
    KeyRing &ring = KeyRing::instance();
    const auto t0 = KeyRing::Clock::now();
    QVERIFY(ring.rateLimited(p, KeyA, 50s, t0));
    QVERIFY(!ring.rateLimited(p, KeyB, 10s, t0)); // no other key free now
    QCOMPARE(ring.current(p, t0 + 1s), KeyB);     // B's rest ends first
    QCOMPARE(ring.current(p, t0 + 11s), KeyB);
}

void tst_KeyRotation::aSingleKeyKeepsNoState()
{
    Llm::ProviderProfile p = threeKeys();
    p.moreApiKeys = {KeyA, QString()};
    KeyRing &ring = KeyRing::instance();
    QVERIFY(!ring.rateLimited(p, KeyA, 30s));
    QCOMPARE(ring.current(p), KeyA);
    QVERIFY(KeyRing::describe(p, KeyA).isEmpty());
    p.apiKey.clear();
    p.moreApiKeys.clear();
    QVERIFY(ring.current(p).isEmpty());
}

void tst_KeyRotation::aRateLimitedKeyGivesWayToTheNextAtOnce()
{
    Engine engine(&m_network, keyedProfile(), noBackOffRetries());
    const LocalProvider::Stats before = m_local.stats();
    std::unique_ptr<AnswerReader> first(
        engine.request(Strategy::None, engine.render(question()), Llm::monotonicNowNs(), nullptr));
    QSignalSpy retrying(first.get(), &AnswerReader::retrying);
    const QString text = TestSupport::drain(first.get());
    QVERIFY2(!text.startsWith(u'<'), qPrintable(text));
    QVERIFY(!text.isEmpty());
    QCOMPARE(retrying.size(), 0); // not a back-off: the user waited one round trip more, no more
    LocalProvider::Stats after = m_local.stats();
    QCOMPARE(after.requestsServed - before.requestsServed, 2);
    QCOMPARE(after.requestsRejected - before.requestsRejected, 1);

    // The next answer goes straight to B.
    std::unique_ptr<AnswerReader> second(
        engine.request(Strategy::None, engine.render(question()), Llm::monotonicNowNs(), nullptr));
    QVERIFY(!TestSupport::drain(second.get()).startsWith(u'<'));
    const LocalProvider::Stats later = m_local.stats();
    QCOMPARE(later.requestsServed - after.requestsServed, 1);
    QCOMPARE(later.requestsRejected, after.requestsRejected);
    QCOMPARE(KeyRing::instance().current(engine.profile()), KeyB);
}

void tst_KeyRotation::whenEveryKeyIsLimitedTheUserReadsTheProvidersWait()
{
    // Only A and a second key that is past its limit too: both are tried once, then the
    // provider's own error, with its wait, is what the user reads.
    TestSupport::LocalProviderFixture limited(u"instant", [](LocalProvider::ServerConfig &c) {
        c.apiKey = KeyA;
        c.moreApiKeys = {KeyB};
        c.keyFaults.insert(KeyA, rateLimit(20));
        c.keyFaults.insert(KeyB, rateLimit(40));
    });
    QVERIFY2(limited.start(), qPrintable(limited.errorString()));
    Llm::ProviderProfile p = limited.profile();
    p.apiKey = KeyA;
    p.moreApiKeys = {KeyB};
    Engine engine(&m_network, p, noBackOffRetries());
    std::unique_ptr<AnswerReader> handle(
        engine.request(Strategy::None, engine.render(question()), Llm::monotonicNowNs(), nullptr));
    QSignalSpy failed(handle.get(), &AnswerReader::failed);
    QVERIFY(failed.wait(10000));
    const auto error = qvariant_cast<Llm::Error>(failed.at(0).at(0));
    QCOMPARE(error.code(), Llm::Error::Code::RateLimited);
    QCOMPARE(error.retryAfter(), std::optional<std::chrono::seconds>(40s));
    QCOMPARE(limited.stats().requestsRejected, 2);
    // Neither key is reported, whatever the message says.
    QVERIFY2(error.message().contains(QStringLiteral("40 s")), qPrintable(error.message()));
    QVERIFY(!error.message().contains(KeyA) && !error.message().contains(KeyB));
    QVERIFY(!error.detail().contains(KeyA) && !error.detail().contains(KeyB));
}

void tst_KeyRotation::thePrefetchKeyIsNotPartOfTheRing()
{
    // A prefetch sends its own key, which is not rate-limited: it is served first time, and
    // the ring, never asked, still starts at A for the answer that follows.
    Llm::ProviderProfile p = keyedProfile();
    p.prefetchApiKey = PrefetchKey;
    Engine engine(&m_network, p, noBackOffRetries());
    const LocalProvider::Stats before = m_local.stats();
    QPointer<PrefetchSession> session = engine.prefetch(Strategy::Hover, engine.render(question()), 30s,
                                                        SignalStrength::Strong);
    QVERIFY(session);
    QTRY_VERIFY_WITH_TIMEOUT(m_local.stats().prefetchRequests - before.prefetchRequests == 1, 10000);
    engine.stopAll();
    QVERIFY(m_local.settle(&m_network, 50, 5000));
    QCOMPARE(m_local.stats().requestsRejected, before.requestsRejected);
    QCOMPARE(KeyRing::instance().current(engine.profile()), KeyA);
}

QTEST_GUILESS_MAIN(tst_KeyRotation)
#include "tst_keyrotation.moc"
