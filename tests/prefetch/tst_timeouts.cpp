// Per-profile timeouts (Llm::ProviderProfile::timeouts) against the local provider on loopback:
// a first event that comes later than the profile allows fails with the timeout error, one
// the profile waits for arrives; the engine's requests and the connection test use the
// profile's timeouts too.
#include "support/localproviderfixture.h"

#include "llm/clock.h"
#include "llm/providerprofile.h"
#include "llm/providerrequest.h"
#include "prefetch/connectiontest.h"
#include "prefetch/engine.h"
#include "prefetch/stream/answerreader.h"

#include <QNetworkAccessManager>
#include <QSignalSpy>
#include <QTest>

using namespace Llm;
using namespace std::chrono_literals;

// The local provider sends its first event after rtt + overhead + prefill: 1.2 s here, with the
// response headers at once, so only the first-byte timeout can end the wait.
static const QByteArray SlowFirstEvent = "rtt=0,overhead=1200,prefill=1000000,decode=1000";

class tst_Timeouts : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void shortFirstByteTimeoutFails();
    void longerFirstByteTimeoutSucceeds();
    void streamOptionsStillOverrideTheProfile();
    void engineRequestsUseTheProfileTimeouts();
    void connectionTestUsesTheProfileTimeouts();

private:
    ChatRequest request(const QString &prompt) const;
    ProviderProfile slowProfile(std::chrono::milliseconds firstByte) const;

    TestSupport::LocalProviderFixture m_local;
    QNetworkAccessManager m_network;
};

void tst_Timeouts::initTestCase()
{
    QVERIFY2(m_local.start(), qPrintable(m_local.errorString()));
}

ChatRequest tst_Timeouts::request(const QString &prompt) const
{
    ChatRequest r;
    r.model = m_local.profile().model;
    r.messages.append({Role::User, prompt});
    r.maxTokens = 8;
    return r;
}

ProviderProfile tst_Timeouts::slowProfile(std::chrono::milliseconds firstByte) const
{
    ProviderProfile profile = m_local.profile(SlowFirstEvent);
    profile.timeouts.firstByte = firstByte;
    return profile;
}

void tst_Timeouts::shortFirstByteTimeoutFails()
{
    ProviderRequest stream(&m_network, slowProfile(300ms),
                           request(QStringLiteral("A prompt that takes long to read.")));
    QSignalSpy failed(&stream, &ProviderRequest::failed);
    QSignalSpy finished(&stream, &ProviderRequest::finished);
    stream.start();
    QVERIFY(failed.wait(5000));
    QCOMPARE(finished.count(), 0);
    const Error error = stream.error().value();
    QCOMPARE(error.code(), Error::Code::Timeout);
    QVERIFY2(error.message().contains(QLatin1String("did not answer in time")), qPrintable(error.message()));
    QVERIFY2(error.message().contains(QLatin1String("Settings, Providers")), qPrintable(error.message()));
    QVERIFY2(error.detail().contains(QLatin1String("0.3 s")), qPrintable(error.detail()));
    // The timeout closed the connection: the server's stream ends too.
    QTRY_COMPARE_WITH_TIMEOUT(m_local.stats().streamsOpen, 0, 3000);
}

void tst_Timeouts::longerFirstByteTimeoutSucceeds()
{
    ProviderRequest stream(&m_network, slowProfile(10s), request(QStringLiteral("A prompt that takes long to read.")));
    QSignalSpy failed(&stream, &ProviderRequest::failed);
    QSignalSpy finished(&stream, &ProviderRequest::finished);
    stream.start();
    QVERIFY(finished.wait(10000));
    QCOMPARE(failed.count(), 0);
    QVERIFY(!stream.text().isEmpty());
    // It did wait past the short timeout: the first token came after the provider's 1.2 s.
    const auto &t = stream.timestamps();
    QVERIFY2(t.firstToken - t.started >= 1'000'000'000, qPrintable(QString::number(t.firstToken - t.started)));
}

void tst_Timeouts::streamOptionsStillOverrideTheProfile()
{
    // A caller that sets a timeout of its own (a test, the CLI) wins over the profile.
    StreamOptions options;
    options.firstByteTimeout = 300ms;
    ProviderRequest stream(&m_network, slowProfile(10s), request(QStringLiteral("Overridden.")), options);
    QSignalSpy failed(&stream, &ProviderRequest::failed);
    stream.start();
    QVERIFY(failed.wait(5000));
    QCOMPARE(stream.error()->code(), Error::Code::Timeout);
}

void tst_Timeouts::engineRequestsUseTheProfileTimeouts()
{
    const QString prompt = QStringLiteral("The engine's answer to a slow provider.");
    const QString failed = TestSupport::freshText(&m_network, slowProfile(300ms), request(prompt), 5000);
    QVERIFY2(failed.startsWith(QLatin1String("<failed:")) && failed.contains(QLatin1String("did not answer in time")),
             qPrintable(failed));

    // Changed on a running engine (Settings): the next request waits as long as they say now.
    Prefetch::Engine engine(&m_network, slowProfile(300ms));
    Timeouts patient = engine.profile().timeouts;
    patient.firstByte = 10s;
    engine.setTimeouts(patient);
    const std::unique_ptr<Prefetch::AnswerReader> handle(
        engine.request(Prefetch::Strategy::None, engine.render(request(prompt)), Llm::monotonicNowNs(), nullptr));
    const QString text = TestSupport::drain(handle.get(), 10000);
    QVERIFY2(!text.startsWith(QLatin1Char('<')), qPrintable(text));
    QVERIFY(!text.isEmpty());
}

void tst_Timeouts::connectionTestUsesTheProfileTimeouts()
{
    Prefetch::ConnectionTest test(&m_network);
    QSignalSpy finished(&test, &Prefetch::ConnectionTest::finished);
    QSignalSpy failed(&test, &Prefetch::ConnectionTest::failed);
    test.start(slowProfile(300ms));
    QVERIFY(failed.wait(5000));
    QCOMPARE(failed.first().first().value<Error>().code(), Error::Code::Timeout);

    test.start(slowProfile(10s));
    QVERIFY(finished.wait(10000));
    QCOMPARE(failed.count(), 1);
}

QTEST_GUILESS_MAIN(tst_Timeouts)
#include "tst_timeouts.moc"
