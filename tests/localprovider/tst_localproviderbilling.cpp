// What the local provider bills, per X-Headstart-Purpose, over real loopback sockets: a
// completed stream as its usage says, a cancelled one what was generated, an unread one up to
// max_tokens, a cancellation during prefill its input only, and a rejected request nothing.

#include "support/localprovidersuite.h"
#include "support/localproviderwire.h"

#include "localprovider/serverthread.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QNetworkReply>
#include <QNetworkRequest>
#include <QTest>

#include <memory>

using namespace LocalProvider;
using namespace TestSupport::Wire;
using namespace Qt::StringLiterals;

class tst_LocalProviderBilling : public QObject, private TestSupport::LocalProviderSuite
{
    Q_OBJECT

private Q_SLOTS:
    void billedCompletedStream();
    void billedCancelledStream();
    void billedUnreadStream();
    void billedPrefillOnlyCancellation();
    void rejectedBillsNothing_data();
    void rejectedBillsNothing();
};

void tst_LocalProviderBilling::billedCompletedStream()
{
    TestSupport::LocalProviderFixture local;
    const ServerThread &server = local.server();
    QVERIFY(local.start());
    const QByteArray body = streamBody(u"Describe a bridge over a river in winter light."_s,
                                       {{u"stream_options"_s, QJsonObject{{u"include_usage"_s, true}}}});
    const Reply marked = request(server.url(), "POST", u"v1/chat/completions"_s, body,
                                 {{"X-Headstart-Purpose", "foreground"}});
    QCOMPARE(marked.status, 200);
    // The usage at the end of the stream is what was generated: one token per content event.
    const QJsonObject usage = usageChunk(marked);
    QCOMPARE(usage[u"completion_tokens"].toInt(), marked.tokenMs.size());

    Stats s = server.stats();
    const BilledTokens foreground = s.billedByPurpose.value(u"foreground"_s);
    QCOMPARE(foreground.output, usage[u"completion_tokens"].toInteger());
    QCOMPARE(foreground.inputUncached + foreground.cacheRead, usage[u"prompt_tokens"].toInteger());
    QCOMPARE(foreground.cacheRead, usage[u"prompt_tokens_details"][u"cached_tokens"].toInteger());
    QCOMPARE(foreground.cacheWrite, 0); // an automatic cache bills no writes
    QCOMPARE(s.billed, foreground);

    // Without the header: "unmarked". Anthropic bills the cache write it reports.
    const QJsonArray system{cached(document(u"billed-anthropic"_s, 1400))};
    const Reply anthropic = request(server.url(), "POST", u"v1/messages"_s, messagesBody(system, u"Summarize."_s));
    QCOMPARE(anthropic.status, 200);
    const QJsonObject aUsage = anthropic.object()[u"usage"].toObject();
    s = server.stats();
    const BilledTokens unmarked = s.billedByPurpose.value(u"unmarked"_s);
    QVERIFY(aUsage[u"cache_creation_input_tokens"].toInt() > 1024);
    QCOMPARE(unmarked.cacheWrite, aUsage[u"cache_creation_input_tokens"].toInteger());
    QCOMPARE(unmarked.inputUncached, aUsage[u"input_tokens"].toInteger());
    QCOMPARE(unmarked.cacheRead, 0);
    QCOMPARE(unmarked.output, aUsage[u"output_tokens"].toInteger());
    BilledTokens sum = foreground;
    sum += unmarked;
    QCOMPARE(s.billed, sum);
    QCOMPARE(s.billed.output, s.tokensGenerated);

    // /stats says the same.
    const QJsonObject billed = statsJson(server.url())[u"billed"].toObject();
    QCOMPARE(billed[u"output"].toInteger(), s.billed.output);
    QCOMPARE(billed[u"input_uncached"].toInteger(), s.billed.inputUncached);
    QCOMPARE(billed[u"cache_read"].toInteger(), s.billed.cacheRead);
    QCOMPARE(billed[u"cache_write"].toInteger(), s.billed.cacheWrite);
    const QJsonObject byPurpose = billed[u"by_purpose"].toObject();
    QCOMPARE(byPurpose.keys(), (QStringList{u"foreground"_s, u"unmarked"_s}));
    QCOMPARE(byPurpose[u"foreground"][u"output"].toInteger(), foreground.output);
    QCOMPARE(byPurpose[u"unmarked"][u"cache_write"].toInteger(), unmarked.cacheWrite);
}

void tst_LocalProviderBilling::billedCancelledStream()
{
    TestSupport::LocalProviderFixture local;
    const ServerThread &server = local.server();
    QVERIFY(local.start());
    QNetworkRequest req(server.url().resolved(QUrl(u"v1/chat/completions"_s)));
    req.setHeader(QNetworkRequest::ContentTypeHeader, QByteArrayLiteral("application/json"));
    req.setRawHeader("X-Headstart-Latency", "decode=20");
    req.setRawHeader("X-Headstart-Purpose", "hover");
    std::unique_ptr<QNetworkReply> reply(
        m_nam.post(req, streamBody(u"Cancel me half way."_s, {{u"max_tokens"_s, 100}})));
    QByteArray bytes;
    connect(reply.get(), &QNetworkReply::readyRead, this, [&] { bytes += reply->readAll(); });
    const auto tokensRead = [&] {
        qsizetype n = 0;
        for (const SseEvent &e : parseSse(bytes))
            n += !contentOf(e).isNull();
        return n;
    };
    QTRY_VERIFY_WITH_TIMEOUT(tokensRead() >= 5, 10000);
    reply->abort();
    const qsizetype read = tokensRead();
    QTRY_COMPARE_WITH_TIMEOUT(server.stats().streamsCancelled, 1, 5000);
    const Stats s = server.stats();
    // Billed: what was generated until the server noticed; at least what was read, at most max_tokens.
    QVERIFY2(s.billed.output >= read && s.billed.output <= 100,
             qPrintable(u"billed %1, read %2"_s.arg(s.billed.output).arg(read)));
    QCOMPARE(s.billedByPurpose.value(u"hover"_s), s.billed);
    QVERIFY(s.billed.inputUncached > 0);
}

void tst_LocalProviderBilling::billedUnreadStream()
{
    TestSupport::LocalProviderFixture local;
    const ServerThread &server = local.server();
    QVERIFY(local.start());
    QNetworkRequest req(server.url().resolved(QUrl(u"v1/chat/completions"_s)));
    req.setHeader(QNetworkRequest::ContentTypeHeader, QByteArrayLiteral("application/json"));
    req.setRawHeader("X-Headstart-Latency", "decode=100");
    req.setRawHeader("X-Headstart-Purpose", "debounce");
    std::unique_ptr<QNetworkReply> reply(
        m_nam.post(req, streamBody(u"Nobody reads me to the end."_s, {{u"max_tokens"_s, 40}})));
    // Like a paused prefetch: read the first token, then stop reading; the reply's buffer fills
    // and TCP pushes back.
    reply->setReadBufferSize(512);
    QByteArray bytes;
    const auto tokensIn = [](const QByteArray &b) {
        qsizetype n = 0;
        for (const SseEvent &e : parseSse(b))
            n += !contentOf(e).isNull();
        return n;
    };
    bool reading = true;
    connect(reply.get(), &QNetworkReply::readyRead, this, [&] {
        if (reading)
            bytes += reply->readAll();
        reading = tokensIn(bytes) == 0;
    });
    QTRY_VERIFY_WITH_TIMEOUT(tokensIn(bytes) >= 1, 10000);
    // The provider goes on generating, and billing, to max_tokens.
    QTRY_COMPARE_WITH_TIMEOUT(server.stats().billed.output, 40, 10000);
    reply->abort();
    QTRY_COMPARE_WITH_TIMEOUT(server.stats().streamsOpen, 0, 5000);
    const qsizetype read = tokensIn(bytes);
    const Stats s = server.stats();
    QVERIFY2(read < 40, QByteArray::number(read));
    QCOMPARE(s.billed.output, 40);
    QCOMPARE(s.billedByPurpose.value(u"debounce"_s).output, 40);
}

void tst_LocalProviderBilling::billedPrefillOnlyCancellation()
{
    TestSupport::LocalProviderFixture local;
    const ServerThread &server = local.server();
    QVERIFY(local.start());
    // About 3000 prompt tokens at 1000 tokens/s: a 3 s prefill to cancel in.
    QNetworkRequest req(server.url().resolved(QUrl(u"v1/chat/completions"_s)));
    req.setHeader(QNetworkRequest::ContentTypeHeader, QByteArrayLiteral("application/json"));
    req.setRawHeader("X-Headstart-Latency", "prefill=1000");
    req.setRawHeader("X-Headstart-Purpose", "warmup");
    const QByteArray body = chatBody(u"Question?"_s, {{u"stream"_s, true}}, document(u"prefill-cancel"_s, 3000));
    std::unique_ptr<QNetworkReply> reply(m_nam.post(req, body));
    // Input is billed once prefill begins.
    QTRY_VERIFY_WITH_TIMEOUT(server.stats().billed.inputUncached > 0, 5000);
    reply->abort();
    QTRY_COMPARE_WITH_TIMEOUT(server.stats().streamsCancelled, 1, 5000);
    const Stats s = server.stats();
    QCOMPARE(s.billed.output, 0);
    QCOMPARE(s.tokensGenerated, 0);
    QVERIFY2(s.billed.inputUncached > 3000, QByteArray::number(s.billed.inputUncached));
    QCOMPARE(s.billed.inputUncached, s.promptTokens);
    QCOMPARE(s.billedByPurpose.value(u"warmup"_s), s.billed);
}

void tst_LocalProviderBilling::rejectedBillsNothing_data()
{
    QTest::addColumn<QByteArray>("header");
    QTest::addColumn<QByteArray>("value");
    QTest::addColumn<int>("status");
    QTest::addRow("fault") << QByteArray("X-Headstart-Fault") << QByteArray("status=500") << 500;
    QTest::addRow("context") << QByteArray("X-Headstart-Fault") << QByteArray("context-too-long") << 400;
    QTest::addRow("purpose upper case") << QByteArray("X-Headstart-Purpose") << QByteArray("Hover") << 400;
    QTest::addRow("purpose space") << QByteArray("X-Headstart-Purpose") << QByteArray("a b") << 400;
    QTest::addRow("purpose underscore") << QByteArray("X-Headstart-Purpose") << QByteArray("warm_up") << 400;
    QTest::addRow("purpose too long") << QByteArray("X-Headstart-Purpose") << QByteArray(33, 'a') << 400;
    QTest::addRow("purpose not ascii") << QByteArray("X-Headstart-Purpose") << QByteArray("h\xc3\xbcver") << 400;
}

void tst_LocalProviderBilling::rejectedBillsNothing()
{
    QFETCH(QByteArray, header);
    QFETCH(QByteArray, value);
    QFETCH(int, status);
    TestSupport::LocalProviderFixture local;
    const ServerThread &server = local.server();
    QVERIFY(local.start());
    const Reply r = request(server.url(), "POST", u"v1/chat/completions"_s, streamBody(u"Refuse me."_s),
                            {{header, value}});
    QCOMPARE(r.status, status);
    if (header == "X-Headstart-Purpose")
        QVERIFY(r.object()[u"error"][u"message"].toString().startsWith(u"X-Headstart-Purpose"));
    const Stats s = server.stats();
    QCOMPARE(s.requestsRejected, 1);
    QCOMPARE(s.billed, BilledTokens());
    QVERIFY(s.billedByPurpose.isEmpty());
    // Plain ones pass.
    for (const QByteArray &purpose : {QByteArray("a"), QByteArray(32, 'z'), QByteArray("trajectory-2")}) {
        QCOMPARE(request(server.url(), "POST", u"v1/chat/completions"_s, chatBody(u"Fine."_s, {{u"max_tokens"_s, 1}}),
                         {{"X-Headstart-Purpose", purpose}})
                     .status,
                 200);
        QCOMPARE(server.stats().billedByPurpose.value(QString::fromLatin1(purpose)).output, 1);
    }
}

QTEST_GUILESS_MAIN(tst_LocalProviderBilling)
#include "tst_localproviderbilling.moc"
