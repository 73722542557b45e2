// The faults the local provider injects and the limits it enforces, over real loopback
// sockets: error statuses in both formats, a dropped connection, a stall, a malformed event, an
// error event mid-stream, a context too long, the stream limit, the API key, and a client's
// abort counted as cancelled.

#include "support/localprovidersuite.h"
#include "support/localproviderwire.h"
#include "support/rawclient.h"

#include "localprovider/serverthread.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QNetworkReply>
#include <QNetworkRequest>
#include <QSignalSpy>
#include <QTest>

#include <memory>

using namespace LocalProvider;
using namespace TestSupport::Wire;
using namespace Qt::StringLiterals;

class tst_LocalProviderFaults : public QObject, private TestSupport::LocalProviderSuite
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();

    void statusFaults_data();
    void statusFaults();
    void dropAfter();
    void stall();
    void malformedAt();
    void errorAt_data();
    void errorAt();
    void contextTooLong_data();
    void contextTooLong();
    void maxStreams();
    void apiKey();
    void clientAbortIsCancelled();
};

void tst_LocalProviderFaults::initTestCase()
{
    QVERIFY2(m_local.start(), qPrintable(m_local.errorString()));
}

void tst_LocalProviderFaults::statusFaults_data()
{
    QTest::addColumn<QString>("path");
    QTest::addColumn<QByteArray>("fault");
    QTest::addColumn<int>("status");
    QTest::addColumn<QString>("type");
    QTest::addColumn<QByteArray>("retryAfter");
    for (int status : {401, 403, 404, 500, 503}) {
        QTest::addRow("openai %d", status) << u"v1/chat/completions"_s << "status=" + QByteArray::number(status)
                                           << status << QString() << QByteArray();
    }
    QTest::addRow("openai 429") << u"v1/chat/completions"_s << QByteArray("status=429,retry-after=7") << 429
                                << QString() << QByteArray("7");
    QTest::addRow("anthropic 401") << u"v1/messages"_s << QByteArray("status=401") << 401 << u"authentication_error"_s
                                   << QByteArray();
    QTest::addRow("anthropic 403") << u"v1/messages"_s << QByteArray("status=403") << 403 << u"permission_error"_s
                                   << QByteArray();
    QTest::addRow("anthropic 404") << u"v1/messages"_s << QByteArray("status=404") << 404 << u"not_found_error"_s
                                   << QByteArray();
    QTest::addRow("anthropic 429") << u"v1/messages"_s << QByteArray("status=429,retry-after=7") << 429
                                   << u"rate_limit_error"_s << QByteArray("7");
    QTest::addRow("anthropic 500") << u"v1/messages"_s << QByteArray("status=500") << 500 << u"api_error"_s
                                   << QByteArray();
    QTest::addRow("anthropic 503") << u"v1/messages"_s << QByteArray("status=503") << 503 << u"overloaded_error"_s
                                   << QByteArray();
}

void tst_LocalProviderFaults::statusFaults()
{
    QFETCH(QString, path);
    QFETCH(QByteArray, fault);
    QFETCH(int, status);
    QFETCH(QString, type);
    QFETCH(QByteArray, retryAfter);
    const QByteArray body = path.endsWith(u"messages") ? messagesBody({}, u"hi"_s, {{u"stream"_s, true}})
                                                       : streamBody(u"hi"_s);
    const Reply r = post(path, body, {{"X-Headstart-Fault", fault}});
    QCOMPARE(r.status, status);
    QCOMPARE(r.headers.value("retry-after"), retryAfter);
    const QJsonObject o = r.object();
    if (type.isEmpty()) {
        QVERIFY(!o[u"error"][u"message"].toString().isEmpty());
        QVERIFY(o[u"error"][u"type"].isString());
        QVERIFY(o[u"error"].toObject().contains(u"code"));
    } else {
        QCOMPARE(o[u"type"].toString(), u"error"_s);
        QCOMPARE(o[u"error"][u"type"].toString(), type);
    }
}

void tst_LocalProviderFaults::dropAfter()
{
    // On the wire: three token events, then the connection ends without the last chunk.
    RawClient client(m_local.server().url());
    QVERIFY(client.waitConnected());
    client.socket().write(
        httpPost("/v1/chat/completions", streamBody(u"Dropping soon."_s), "X-Headstart-Fault: drop-after=3\r\n"));
    const QByteArray raw = client.readUntilClosed();
    QVERIFY2(raw.startsWith("HTTP/1.1 200"), raw.left(40).constData());
    QCOMPARE(raw.count("\"delta\":{\"content\""), 3);
    QVERIFY(!raw.contains("[DONE]"));
    QVERIFY(!raw.endsWith("0\r\n\r\n"));

    // Through QNetworkAccessManager the same three tokens arrive. (Qt 6.4 sometimes reports such a
    // truncated chunked reply as finished without error: clients must look for the end event.)
    const Reply r = post(u"v1/chat/completions"_s, streamBody(u"Dropping soon."_s),
                         {{"X-Headstart-Fault", "drop-after=3"}});
    QCOMPARE(r.tokenMs.size(), 3);
    QVERIFY(!r.body.contains("[DONE]"));
    QVERIFY(!r.body.contains("finish_reason\":\"stop"));
}

void tst_LocalProviderFaults::stall()
{
    const Reply r = post(u"v1/chat/completions"_s, streamBody(u"Stalling a little."_s, {{u"max_tokens"_s, 6}}),
                         {{"X-Headstart-Fault", "stall=250@2"}});
    QCOMPARE(r.tokenMs.size(), 6);
    QVERIFY2(r.tokenMs[2] - r.tokenMs[1] >= 200, qPrintable(u"gap %1 ms"_s.arg(r.tokenMs[2] - r.tokenMs[1])));
    QVERIFY(r.body.endsWith("data: [DONE]\n\n"));
}

void tst_LocalProviderFaults::malformedAt()
{
    const Reply r = post(u"v1/chat/completions"_s, streamBody(u"Malformed in the middle."_s, {{u"max_tokens"_s, 6}}),
                         {{"X-Headstart-Fault", "malformed-at=2"}});
    int contentBefore = -1;
    int invalid = 0;
    int content = 0;
    for (const SseEvent &e : r.events()) {
        if (e.data == "[DONE]")
            continue;
        QJsonParseError error;
        QJsonDocument::fromJson(e.data, &error);
        if (error.error != QJsonParseError::NoError) {
            ++invalid;
            contentBefore = content;
        } else if (!contentOf(e).isNull()) {
            ++content;
        }
    }
    QCOMPARE(invalid, 1);
    QCOMPARE(contentBefore, 2);
    QCOMPARE(content, 6);
    QVERIFY(r.body.endsWith("data: [DONE]\n\n"));
}

void tst_LocalProviderFaults::errorAt_data()
{
    QTest::addColumn<bool>("anthropic");
    QTest::addRow("openai") << false;
    QTest::addRow("anthropic") << true;
}

void tst_LocalProviderFaults::errorAt()
{
    QFETCH(bool, anthropic);
    const Headers fault{{"X-Headstart-Fault", "error-at=2"}};
    const Reply r = anthropic ? post(u"v1/messages"_s, messagesBody({}, u"Fail soon."_s, {{u"stream"_s, true}}), fault)
                              : post(u"v1/chat/completions"_s, streamBody(u"Fail soon."_s), fault);
    QCOMPARE(r.status, 200);
    QCOMPARE(r.error, QNetworkReply::NoError); // the stream ends cleanly, with an error event
    QCOMPARE(r.tokenMs.size(), 2);
    const SseEvent last = r.events().last();
    if (anthropic) {
        QCOMPARE(last.event, QByteArray("error"));
        QCOMPARE(json(last.data)[u"error"][u"type"].toString(), u"overloaded_error"_s);
        QVERIFY(!r.body.contains("message_stop"));
    } else {
        QCOMPARE(json(last.data)[u"error"][u"type"].toString(), u"server_error"_s);
        QVERIFY(!r.body.contains("[DONE]"));
    }
}

void tst_LocalProviderFaults::contextTooLong_data()
{
    QTest::addColumn<bool>("anthropic");
    QTest::addColumn<QByteArray>("header");
    QTest::addColumn<QByteArray>("value");
    QTest::addRow("openai fault") << false << QByteArray("X-Headstart-Fault") << QByteArray("context-too-long");
    QTest::addRow("anthropic fault") << true << QByteArray("X-Headstart-Fault") << QByteArray("context-too-long");
    QTest::addRow("openai real") << false << QByteArray("X-Headstart-Latency") << QByteArray("context=40");
    QTest::addRow("anthropic real") << true << QByteArray("X-Headstart-Latency") << QByteArray("context=40");
}

void tst_LocalProviderFaults::contextTooLong()
{
    QFETCH(bool, anthropic);
    QFETCH(QByteArray, header);
    QFETCH(QByteArray, value);
    const QString prompt = document(u"context"_s, 30);
    const Headers headers{{header, value}};
    if (anthropic) {
        const Reply r = post(u"v1/messages"_s, messagesBody({}, prompt, {{u"max_tokens"_s, 16}}), headers);
        QCOMPARE(r.status, 400);
        QCOMPARE(r.object()[u"error"][u"type"].toString(), u"invalid_request_error"_s);
        const QString message = r.object()[u"error"][u"message"].toString();
        QVERIFY2(message.startsWith(u"prompt is too long: "), qPrintable(message));
        QVERIFY(message.endsWith(u" maximum"));
    } else {
        const Reply r = post(u"v1/chat/completions"_s, chatBody(prompt, {{u"max_tokens"_s, 16}}), headers);
        QCOMPARE(r.status, 400);
        QCOMPARE(r.object()[u"error"][u"code"].toString(), u"context_length_exceeded"_s);
    }
}

void tst_LocalProviderFaults::maxStreams()
{
    TestSupport::LocalProviderFixture local(u"instant", [](ServerConfig &c) {
        c.profile.decodeTokensPerSec = 20;
        c.maxConcurrentStreams = 1;
    });
    const ServerThread &server = local.server();
    QVERIFY(local.start());
    QNetworkRequest req(server.url().resolved(QUrl(u"v1/chat/completions"_s)));
    req.setHeader(QNetworkRequest::ContentTypeHeader, QByteArrayLiteral("application/json"));
    std::unique_ptr<QNetworkReply> open(m_nam.post(req, streamBody(u"Slow stream."_s)));
    QSignalSpy firstBytes(open.get(), &QNetworkReply::readyRead);
    QVERIFY(firstBytes.wait(5000));
    QCOMPARE(server.stats().streamsOpen, 1);

    const Reply refused = request(server.url(), "POST", u"v1/chat/completions"_s, streamBody(u"Second."_s));
    QCOMPARE(refused.status, 429);
    QCOMPARE(refused.headers.value("retry-after"), QByteArray("1"));
    QCOMPARE(server.stats().requestsRejected, 1);
    // Non-streaming requests are not streams.
    QCOMPARE(request(server.url(), "POST", u"v1/chat/completions"_s, chatBody(u"Third."_s),
                     {{"X-Headstart-Latency", "decode=0"}})
                 .status,
             200);

    open->abort();
    QTRY_COMPARE_WITH_TIMEOUT(server.stats().streamsOpen, 0, 5000);
    QCOMPARE(request(server.url(), "POST", u"v1/chat/completions"_s,
                     streamBody(u"Now it fits."_s, {{u"max_tokens"_s, 2}}))
                 .status,
             200);
}

void tst_LocalProviderFaults::apiKey()
{
    TestSupport::LocalProviderFixture local(u"instant", [](ServerConfig &c) { c.apiKey = u"sk-test-123"_s; });
    const ServerThread &server = local.server();
    QVERIFY(local.start());
    const auto chat = [&](const Headers &headers) {
        return request(server.url(), "POST", u"v1/chat/completions"_s, chatBody(u"Key check."_s), headers);
    };
    const Reply none = chat({});
    QCOMPARE(none.status, 401);
    QCOMPARE(none.object()[u"error"][u"code"].toString(), u"invalid_api_key"_s);
    QCOMPARE(chat({{"Authorization", "Bearer wrong"}}).status, 401);
    QCOMPARE(chat({{"Authorization", "Bearer sk-test-123"}}).status, 200);
    QCOMPARE(chat({{"x-api-key", "sk-test-123"}}).status, 200);
    const Reply anthropic = request(server.url(), "POST", u"v1/messages"_s, messagesBody({}, u"Key?"_s));
    QCOMPARE(anthropic.status, 401);
    QCOMPARE(anthropic.object()[u"error"][u"type"].toString(), u"authentication_error"_s);
    QCOMPARE(request(server.url(), "GET", u"health"_s).status, 200);
    QCOMPARE(server.stats().requestsRejected, 3);
}

void tst_LocalProviderFaults::clientAbortIsCancelled()
{
    TestSupport::LocalProviderFixture local;
    const ServerThread &server = local.server();
    QVERIFY(local.start());
    QNetworkRequest req(server.url().resolved(QUrl(u"v1/chat/completions"_s)));
    req.setHeader(QNetworkRequest::ContentTypeHeader, QByteArrayLiteral("application/json"));
    req.setRawHeader("X-Headstart-Latency", "decode=20");
    std::unique_ptr<QNetworkReply> reply(m_nam.post(req, streamBody(u"Abort me."_s)));
    QSignalSpy data(reply.get(), &QNetworkReply::readyRead);
    QVERIFY(data.wait(5000));
    QTRY_COMPARE_WITH_TIMEOUT(server.stats().streamsOpen, 1, 5000);
    reply->abort();
    QTRY_COMPARE_WITH_TIMEOUT(server.stats().streamsCancelled, 1, 5000);
    QCOMPARE(server.stats().streamsOpen, 0);
    QCOMPARE(server.stats().streamsCompleted, 0);

    QCOMPARE(request(server.url(), "POST", u"v1/chat/completions"_s, streamBody(u"Complete me."_s)).status, 200);
    const QJsonObject stats = statsJson(server.url());
    QCOMPARE(stats[u"streams_cancelled"].toInteger(), 1);
    QCOMPARE(stats[u"streams_completed"].toInteger(), 1);
    QCOMPARE(stats[u"streams_open"].toInteger(), 0);
    QCOMPARE(stats[u"requests_served"].toInteger(), 2);
    QCOMPARE(stats[u"requests_rejected"].toInteger(), 0);
    QVERIFY(stats[u"tokens_generated"].toInteger() > 1);
    QVERIFY(stats[u"prompt_tokens"].toInteger() > 1);
    QCOMPARE(stats[u"cache_hit_tokens"].toInteger(), 0);
}

QTEST_GUILESS_MAIN(tst_LocalProviderFaults)
#include "tst_localproviderfaults.moc"
