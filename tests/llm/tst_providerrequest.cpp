// ProviderRequest against the real local provider over loopback: incremental delivery, cancel,
// pause/resume, timeouts and every fault the provider can inject, each surfacing as its
// error class with the partial text kept.
#include "support/localproviderfixture.h"

#include "llm/providerprofile.h"
#include "llm/providerrequest.h"

#include <QNetworkAccessManager>
#include <QSignalSpy>
#include <QTcpServer>
#include <QTest>

#include <memory>

using namespace Llm;
using namespace std::chrono_literals;

class tst_ProviderRequest : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void completesWithTextAndUsage();
    void deliversIncrementally();
    void sameRequestSameText();
    void cancelClosesServerStream();
    void cancelIsIdempotentAndSilentAfterFinish();
    void pauseStopsDeliveryAndResumeCompletes();
    void faults_data();
    void faults();
    void unknownModel();
    void badKeyIsNotEchoed();
    void refusedBeyondConcurrencyLimit();
    void networkUnreachable();
    void idleTimeoutKeepsPartialText();
    void anthropicStreamReportsCacheWriteThenRead();
    void prefixCacheHitShortensTtft();
    void invalidBaseUrlFailsAsynchronously();

private:
    std::unique_ptr<ProviderRequest> makeStream(const ChatRequest &request, StreamOptions options = {},
                                                ProviderProfile profile = {});
    ChatRequest shortRequest(const QString &prompt, int maxTokens = 24) const;
    // Runs the stream to its terminal signal; returns false on a timeout.
    bool runToEnd(ProviderRequest &stream, int timeoutMs = 15000);

    TestSupport::LocalProviderFixture m_local;
    QNetworkAccessManager m_network;
};

void tst_ProviderRequest::initTestCase()
{
    QVERIFY2(m_local.start(), qPrintable(m_local.errorString()));
}

ChatRequest tst_ProviderRequest::shortRequest(const QString &prompt, int maxTokens) const
{
    ChatRequest r;
    r.model = m_local.profile().model;
    r.system = QStringLiteral("You are a test.");
    r.messages.append({Role::User, prompt});
    r.maxTokens = maxTokens;
    return r;
}

std::unique_ptr<ProviderRequest> tst_ProviderRequest::makeStream(const ChatRequest &request, StreamOptions options,
                                                                 ProviderProfile profile)
{
    return std::make_unique<ProviderRequest>(&m_network, profile.id.isEmpty() ? m_local.profile() : profile, request,
                                             std::move(options));
}

bool tst_ProviderRequest::runToEnd(ProviderRequest &stream, int timeoutMs)
{
    QSignalSpy finished(&stream, &ProviderRequest::finished);
    QSignalSpy failed(&stream, &ProviderRequest::failed);
    if (stream.state() == ProviderRequest::State::Idle)
        stream.start();
    return QTest::qWaitFor([&] { return finished.count() + failed.count() > 0; }, timeoutMs);
}

void tst_ProviderRequest::completesWithTextAndUsage()
{
    auto stream = makeStream(shortRequest(QStringLiteral("Tell me about the streaming tests of a client.")));
    QSignalSpy events(stream.get(), &ProviderRequest::eventReceived);
    QSignalSpy finished(stream.get(), &ProviderRequest::finished);
    QSignalSpy failed(stream.get(), &ProviderRequest::failed);
    QVERIFY(runToEnd(*stream));
    QCOMPARE(failed.count(), 0);
    QCOMPARE(finished.count(), 1);
    QVERIFY(!stream->text().isEmpty());
    QVERIFY(stream->finishReason() == QLatin1String("stop") || stream->finishReason() == QLatin1String("length"));
    QVERIFY(stream->usage().inputTokens > 0);
    QVERIFY(stream->usage().outputTokens > 0);
    QVERIFY(stream->usage().outputTokens <= 24);
    QCOMPARE(stream->httpStatus(), 200);
    const auto &t = stream->timestamps();
    QVERIFY(t.started > 0 && t.headers >= t.started && t.firstByte >= t.headers);
    QVERIFY(t.firstToken >= t.firstByte && t.finished >= t.firstToken);
    // Exactly one terminal signal, even after the event loop ran on and the network manager
    // answered another request.
    QVERIFY(m_local.settle(&m_network, 50, 5000));
    QCOMPARE(finished.count() + failed.count(), 1);
}

void tst_ProviderRequest::deliversIncrementally()
{
    // 30 tokens at 100 tokens/s: the server needs ~300 ms to generate them all.
    StreamOptions options;
    options.extraHeaders.emplaceBack("X-Headstart-Latency", "rtt=0,prefill=1000000,decode=100");
    auto stream = makeStream(shortRequest(QStringLiteral("Write a long answer about incremental delivery of text."),
                                          30),
                             options);
    bool checkedAtFirstToken = false;
    qint64 openWhenFirstToken = -1;
    connect(stream.get(), &ProviderRequest::eventReceived, this, [&](const StreamEvent &e) {
        if (checkedAtFirstToken || e.type != StreamEvent::Type::TextDelta)
            return;
        checkedAtFirstToken = true;
        openWhenFirstToken = m_local.stats().streamsOpen;
    });
    QVERIFY(runToEnd(*stream));
    QVERIFY(!stream->error());
    QVERIFY(checkedAtFirstToken);
    // The first token reached us while the server was still generating the rest.
    QCOMPARE(openWhenFirstToken, 1);
    QCOMPARE(stream->usage().outputTokens, 30);
    const auto &t = stream->timestamps();
    QVERIFY2(t.finished - t.firstToken > (t.firstToken - t.started),
             "the stream should take longer after the first token than before it");
}

void tst_ProviderRequest::sameRequestSameText()
{
    const ChatRequest request = shortRequest(QStringLiteral("Determinism is what makes takeover testable."), 40);
    auto a = makeStream(request);
    auto b = makeStream(request);
    QVERIFY(runToEnd(*a));
    QVERIFY(runToEnd(*b));
    QVERIFY(!a->text().isEmpty());
    QCOMPARE(a->text(), b->text());
    auto c = makeStream(shortRequest(QStringLiteral("A different prompt gives a different answer entirely."), 40));
    QVERIFY(runToEnd(*c));
    QVERIFY(c->text() != a->text());
}

void tst_ProviderRequest::cancelClosesServerStream()
{
    const auto before = m_local.stats();
    StreamOptions options;
    options.extraHeaders.emplaceBack("X-Headstart-Latency", "rtt=0,prefill=1000000,decode=20");
    auto stream = makeStream(shortRequest(QStringLiteral("A slow answer that will be cancelled."), 200), options);
    QSignalSpy failed(stream.get(), &ProviderRequest::failed);
    QSignalSpy finished(stream.get(), &ProviderRequest::finished);
    QSignalSpy events(stream.get(), &ProviderRequest::eventReceived);
    stream->start();
    QTRY_VERIFY_WITH_TIMEOUT(!stream->text().isEmpty(), 5000);
    QTRY_COMPARE_WITH_TIMEOUT(m_local.stats().streamsOpen, 1, 2000);
    const QString partial = stream->text();

    stream->cancel();
    QCOMPARE(failed.count(), 1);
    QCOMPARE(failed.first().first().value<Error>().code(), Error::Code::Cancelled);
    QCOMPARE(stream->state(), ProviderRequest::State::Failed);
    QCOMPARE(stream->text(), partial);
    // The provider sees the connection closed: no stream open, one more cancelled.
    QTRY_COMPARE_WITH_TIMEOUT(m_local.stats().streamsOpen, 0, 200);
    QTRY_COMPARE_WITH_TIMEOUT(m_local.stats().streamsCancelled, before.streamsCancelled + 1, 200);
    const auto eventsAtCancel = events.count();
    QVERIFY(m_local.settle(&m_network, 100, 5000));
    QCOMPARE(events.count(), eventsAtCancel);
    QCOMPARE(finished.count(), 0);
    QCOMPARE(failed.count(), 1);
}

void tst_ProviderRequest::cancelIsIdempotentAndSilentAfterFinish()
{
    auto stream = makeStream(shortRequest(QStringLiteral("Short and finished.")));
    QSignalSpy failed(stream.get(), &ProviderRequest::failed);
    QSignalSpy finished(stream.get(), &ProviderRequest::finished);
    QVERIFY(runToEnd(*stream));
    QCOMPARE(finished.count(), 1);
    stream->cancel();
    stream->cancel();
    QCOMPARE(failed.count(), 0);
    QCOMPARE(stream->state(), ProviderRequest::State::Finished);

    auto running = makeStream(shortRequest(QStringLiteral("Cancelled twice.")));
    QSignalSpy failed2(running.get(), &ProviderRequest::failed);
    running->start();
    running->cancel();
    running->cancel();
    QCOMPARE(failed2.count(), 1);
}

void tst_ProviderRequest::pauseStopsDeliveryAndResumeCompletes()
{
    const ChatRequest request = shortRequest(QStringLiteral("Pause me after the first token, then resume me."), 40);
    StreamOptions options;
    options.extraHeaders.emplaceBack("X-Headstart-Latency", "rtt=0,prefill=1000000,decode=400");
    auto stream = makeStream(request, options);
    QSignalSpy events(stream.get(), &ProviderRequest::eventReceived);
    // Once: when the first read held fewer than three events (a busy machine), the next text
    // delta after the resume would pause the stream again, for good.
    bool pausedOnce = false;
    connect(stream.get(), &ProviderRequest::eventReceived, this, [&](const StreamEvent &e) {
        if (e.type == StreamEvent::Type::TextDelta && !pausedOnce && events.count() <= 3) {
            pausedOnce = true;
            stream->setPaused(true);
        }
    });
    const qint64 completed = m_local.stats().streamsCompleted;
    stream->start();
    QTRY_VERIFY_WITH_TIMEOUT(stream->isPaused(), 5000);
    const auto atPause = events.count();
    // The server goes on generating (40 tokens in ~100 ms) and writes the whole answer, but
    // nothing is read or delivered.
    QTRY_COMPARE_WITH_TIMEOUT(m_local.stats().streamsCompleted, completed + 1, 5000);
    QCOMPARE(events.count(), atPause);
    QVERIFY(!stream->isDone());

    stream->setPaused(false);
    QVERIFY(runToEnd(*stream));
    QVERIFY2(!stream->error(), stream->error() ? qPrintable(stream->error()->message()) : "");
    auto reference = makeStream(request);
    QVERIFY(runToEnd(*reference));
    QCOMPARE(stream->text(), reference->text());
}

void tst_ProviderRequest::faults_data()
{
    QTest::addColumn<QByteArray>("fault");
    QTest::addColumn<Error::Code>("code");
    QTest::addColumn<int>("status");
    QTest::addColumn<bool>("keepsPartialText");

    QTest::addRow("401") << QByteArray("status=401") << Error::Code::BadKey << 401 << false;
    QTest::addRow("403") << QByteArray("status=403") << Error::Code::BadKey << 403 << false;
    QTest::addRow("404") << QByteArray("status=404") << Error::Code::UnknownModel << 404 << false;
    QTest::addRow("429") << QByteArray("status=429,retry-after=7") << Error::Code::RateLimited << 429 << false;
    QTest::addRow("500") << QByteArray("status=500") << Error::Code::ServerError << 500 << false;
    QTest::addRow("503") << QByteArray("status=503") << Error::Code::ServerError << 503 << false;
    QTest::addRow("context") << QByteArray("context-too-long") << Error::Code::ContextTooLong << 400 << false;
    QTest::addRow("drop") << QByteArray("drop-after=5") << Error::Code::StreamBroken << 200 << true;
    QTest::addRow("error-event") << QByteArray("error-at=4") << Error::Code::ProviderError << 200 << true;
    QTest::addRow("malformed") << QByteArray("malformed-at=4") << Error::Code::MalformedStream << 200 << true;
}

void tst_ProviderRequest::faults()
{
    QFETCH(QByteArray, fault);
    QFETCH(Error::Code, code);
    QFETCH(int, status);
    QFETCH(bool, keepsPartialText);

    StreamOptions options;
    options.extraHeaders.emplaceBack("X-Headstart-Fault", fault);
    auto stream =
        makeStream(shortRequest(QStringLiteral("Fault injection for %1 please.").arg(QString::fromLatin1(fault)), 60),
                   options);
    QSignalSpy failed(stream.get(), &ProviderRequest::failed);
    QSignalSpy finished(stream.get(), &ProviderRequest::finished);
    QVERIFY(runToEnd(*stream));
    QCOMPARE(finished.count(), 0);
    QCOMPARE(failed.count(), 1);
    const Error error = failed.first().first().value<Error>();
    QCOMPARE(error.code(), code);
    QCOMPARE(stream->httpStatus(), status);
    QVERIFY2(error.message().contains(m_local.profile().displayName), qPrintable(error.message()));
    if (code == Error::Code::RateLimited) {
        QVERIFY(error.retryAfter().has_value());
        QCOMPARE(error.retryAfter()->count(), 7);
    }
    if (keepsPartialText)
        QVERIFY2(!stream->text().isEmpty(), "the text received before the failure must be kept");
    QVERIFY(m_local.settle(&m_network, 30, 5000));
    QCOMPARE(failed.count(), 1);
    QCOMPARE(finished.count(), 0);
}

void tst_ProviderRequest::unknownModel()
{
    ChatRequest request = shortRequest(QStringLiteral("Which model?"));
    request.model = QStringLiteral("no-such-model");
    auto stream = makeStream(request);
    QVERIFY(runToEnd(*stream));
    QVERIFY(stream->error());
    QCOMPARE(stream->error()->code(), Error::Code::UnknownModel);
}

void tst_ProviderRequest::badKeyIsNotEchoed()
{
    TestSupport::LocalProviderFixture keyed(u"instant", [](LocalProvider::ServerConfig &c) {
        c.apiKey = QStringLiteral("sk-right-key-0123456789abcdef0123456789");
    });
    QVERIFY(keyed.start());
    ProviderProfile profile = keyed.profile();
    profile.apiKey = QStringLiteral("sk-wrong-key-9876543210fedcba9876543210");

    auto wrong = makeStream(shortRequest(QStringLiteral("Let me in.")), {}, profile);
    QVERIFY(runToEnd(*wrong));
    QVERIFY(wrong->error());
    QCOMPARE(wrong->error()->code(), Error::Code::BadKey);
    QVERIFY(!wrong->error()->message().contains(profile.apiKey));
    QVERIFY(!wrong->error()->message().contains(QLatin1String("9876543210fedcba")));

    profile.apiKey = keyed.config().apiKey;
    auto right = makeStream(shortRequest(QStringLiteral("Let me in.")), {}, profile);
    QVERIFY(runToEnd(*right));
    QVERIFY2(!right->error(), right->error() ? qPrintable(right->error()->message()) : "");

    // A prefetch uses the prefetch key when there is one.
    profile.apiKey = QStringLiteral("sk-wrong");
    profile.prefetchApiKey = keyed.config().apiKey;
    StreamOptions prefetch;
    prefetch.prefetch = true;
    auto speculative = makeStream(shortRequest(QStringLiteral("Let me in early.")), prefetch, profile);
    QVERIFY(runToEnd(*speculative));
    QVERIFY(!speculative->error());
}

void tst_ProviderRequest::refusedBeyondConcurrencyLimit()
{
    TestSupport::LocalProviderFixture limited(u"instant",
                                              [](LocalProvider::ServerConfig &c) { c.maxConcurrentStreams = 1; });
    QVERIFY(limited.start());
    const ProviderProfile profile = limited.profile();

    StreamOptions slow;
    slow.extraHeaders.emplaceBack("X-Headstart-Latency", "rtt=0,prefill=1000000,decode=20");
    auto first = makeStream(shortRequest(QStringLiteral("I hold the only slot."), 100), slow, profile);
    first->start();
    QTRY_VERIFY_WITH_TIMEOUT(!first->text().isEmpty(), 5000);
    auto second = makeStream(shortRequest(QStringLiteral("I am one too many.")), {}, profile);
    QVERIFY(runToEnd(*second));
    QVERIFY(second->error());
    QCOMPARE(second->error()->code(), Error::Code::RateLimited);
    first->cancel();
}

void tst_ProviderRequest::networkUnreachable()
{
    quint16 port = 0;
    {
        QTcpServer probe;
        QVERIFY(probe.listen(QHostAddress::LocalHost));
        port = probe.serverPort();
    } // closed again: nothing listens on the port now
    ProviderProfile profile = m_local.profile();
    profile.baseUrl = QUrl(QStringLiteral("http://127.0.0.1:%1/v1").arg(port));
    auto stream = makeStream(shortRequest(QStringLiteral("Anyone there?")), {}, profile);
    QVERIFY(runToEnd(*stream));
    QVERIFY(stream->error());
    QCOMPARE(stream->error()->code(), Error::Code::NetworkUnreachable);
    QVERIFY(stream->error()->message().contains(profile.displayName));
}

void tst_ProviderRequest::idleTimeoutKeepsPartialText()
{
    StreamOptions options;
    options.idleTimeout = 300ms;
    options.extraHeaders.emplaceBack("X-Headstart-Fault", "stall=5000@3");
    auto stream = makeStream(shortRequest(QStringLiteral("Stall in the middle of the answer."), 40), options);
    QVERIFY(runToEnd(*stream, 5000));
    QVERIFY(stream->error());
    QCOMPARE(stream->error()->code(), Error::Code::Timeout);
    QVERIFY(!stream->text().isEmpty());
    // The timeout aborted the connection, so the server's stream closed too.
    QTRY_COMPARE_WITH_TIMEOUT(m_local.stats().streamsOpen, 0, 1000);
}

void tst_ProviderRequest::anthropicStreamReportsCacheWriteThenRead()
{
    ProviderProfile profile = builtinProfile(u"anthropic");
    profile.baseUrl = m_local.profile().baseUrl;
    profile.model = m_local.profile().model;
    profile.displayName = QStringLiteral("Anthropic (local)");
    profile.apiKey = QStringLiteral("sk-ant-local"); // Anthropic needs one; the local provider takes any
    ChatRequest request = shortRequest(QStringLiteral("Summarize the document."), 16);
    QString document;
    for (int i = 0; i < 400; ++i)
        document += QStringLiteral("Sentence %1 of a long document that the provider should cache. ").arg(i);
    request.messages.prepend({Role::User, document});
    request.staticMessageCount = 1;

    auto first = makeStream(request, {}, profile);
    QVERIFY(runToEnd(*first));
    QVERIFY2(!first->error(), first->error() ? qPrintable(first->error()->message()) : "");
    QVERIFY(!first->text().isEmpty());
    QVERIFY(first->usage().cacheWriteTokens > 1000);

    request.messages.last().content = QStringLiteral("Explain the document.");
    auto second = makeStream(request, {}, profile);
    QVERIFY(runToEnd(*second));
    QVERIFY(!second->error());
    QCOMPARE(second->usage().cacheReadTokens, first->usage().cacheWriteTokens);
    QVERIFY(second->usage().inputTokens > second->usage().cacheReadTokens);
}

void tst_ProviderRequest::prefixCacheHitShortensTtft()
{
    // ~5,000 prompt tokens at 10,000 tokens/s: ~500 ms uncached, a few ms cached.
    StreamOptions options;
    options.extraHeaders.emplaceBack("X-Headstart-Latency", "rtt=0,prefill=10000,decode=1000");
    QString document;
    for (int i = 0; i < 1000; ++i)
        document += QStringLiteral("Paragraph %1 talks about caches and prefixes. ").arg(i);
    ChatRequest request = shortRequest(QStringLiteral("Summarize it."), 8);
    request.messages.prepend({Role::User, document});
    request.staticMessageCount = 1;

    auto cold = makeStream(request, options);
    QVERIFY(runToEnd(*cold));
    QVERIFY(!cold->error());
    request.messages.last().content = QStringLiteral("Now list its key points.");
    auto warm = makeStream(request, options);
    QVERIFY(runToEnd(*warm));
    QVERIFY(!warm->error());

    QCOMPARE(cold->usage().cacheReadTokens, 0);
    QVERIFY(warm->usage().cacheReadTokens > 4000);
    const auto ttft = [](const ProviderRequest &s) { return s.timestamps().firstToken - s.timestamps().started; };
    QVERIFY2(ttft(*warm) * 3 < ttft(*cold), qPrintable(QStringLiteral("cold %1 ms, warm %2 ms")
                                                           .arg(double(ttft(*cold)) / 1e6)
                                                           .arg(double(ttft(*warm)) / 1e6)));
}

void tst_ProviderRequest::invalidBaseUrlFailsAsynchronously()
{
    ProviderProfile profile = builtinProfile(u"custom");
    auto stream = makeStream(shortRequest(QStringLiteral("Where to?")), {}, profile);
    QSignalSpy failed(stream.get(), &ProviderRequest::failed);
    stream->start();
    QCOMPARE(failed.count(), 0); // never from inside start()
    QTRY_COMPARE_WITH_TIMEOUT(failed.count(), 1, 1000);
    QCOMPARE(stream->error()->code(), Error::Code::InvalidRequest);
}

QTEST_GUILESS_MAIN(tst_ProviderRequest)
#include "tst_providerrequest.moc"
