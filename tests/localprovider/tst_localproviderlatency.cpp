// The local provider's latency and cache model over real loopback sockets: its latency
// profiles and their first-token times, Anthropic's events with cache breakpoints (and their
// limits), the automatic prefix cache shortening the first token and expiring, slots queueing
// requests, and the time the first token was written.

#include "support/localprovidersuite.h"
#include "support/localproviderwire.h"

#include "localprovider/serverthread.h"

#include <QElapsedTimer>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QNetworkReply>
#include <QNetworkRequest>
#include <QTest>

#include <chrono>
#include <memory>

using namespace LocalProvider;
using namespace TestSupport::Wire;
using namespace Qt::StringLiterals;

class tst_LocalProviderLatency : public QObject, private TestSupport::LocalProviderSuite
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();

    void anthropicEventsAndCache();
    void anthropicBreakpointLimits();
    void prefixCacheShortensTtft();
    void cacheEntriesExpire();
    void slotsQueueRequests();
    void firstTokenWrittenTime();
    void hostedProfiles();
};

void tst_LocalProviderLatency::initTestCase()
{
    QVERIFY2(m_local.start(), qPrintable(m_local.errorString()));
    QVERIFY(LatencyProfile::names().contains(u"hosted-long-doc"_s));
    const LatencyProfile hosted = LatencyProfile::byName(u"hosted").value();
    QCOMPARE(hosted.rttMs, 150);
    QCOMPARE(hosted.slotCount, 64);
    QCOMPARE(ServerConfig().profile.name, u"hosted"_s);
}

void tst_LocalProviderLatency::anthropicEventsAndCache()
{
    const QString doc = document(u"anthropic-cache"_s, 1400);
    const QJsonArray system{cached(doc)};
    const QJsonObject streamLong{{u"stream"_s, true}, {u"max_tokens"_s, 1000}};
    const Reply first = post(u"v1/messages"_s, messagesBody(system, u"Summarize the document."_s, streamLong),
                             {{"anthropic-version", "2023-06-01"}});
    QCOMPARE(first.status, 200);
    QList<QByteArray> types;
    for (const SseEvent &e : first.events()) {
        if (types.isEmpty() || types.last() != e.event)
            types << e.event;
        QCOMPARE(json(e.data)[u"type"].toString().toUtf8(), e.event);
    }
    QCOMPARE(types, (QList<QByteArray>{"message_start", "content_block_start", "ping", "content_block_delta",
                                       "content_block_stop", "message_delta", "message_stop"}));

    const auto startUsage = [](const Reply &r) {
        return json(r.events().first().data)[u"message"][u"usage"].toObject();
    };
    const QJsonObject u1 = startUsage(first);
    QCOMPARE(u1[u"output_tokens"].toInt(), 1);
    QCOMPARE(u1[u"cache_read_input_tokens"].toInt(), 0);
    const int created = u1[u"cache_creation_input_tokens"].toInt();
    QVERIFY2(created > 1024, QByteArray::number(created));
    const int total = u1[u"input_tokens"].toInt() + created;
    QVERIFY(u1[u"input_tokens"].toInt() > 0); // the user message after the breakpoint

    const QJsonObject delta = json(first.events().at(first.events().size() - 2).data);
    QCOMPARE(delta[u"delta"][u"stop_reason"].toString(), u"end_turn"_s);
    QCOMPARE(delta[u"usage"][u"output_tokens"].toInt(), first.tokenMs.size());

    const Reply second = post(u"v1/messages"_s, messagesBody(system, u"Summarize the document."_s, streamLong));
    const QJsonObject u2 = startUsage(second);
    QCOMPARE(u2[u"cache_read_input_tokens"].toInt(), created);
    QCOMPARE(u2[u"cache_creation_input_tokens"].toInt(), 0);
    QCOMPARE(u2[u"input_tokens"].toInt() + u2[u"cache_read_input_tokens"].toInt(), total);

    // Non-streaming carries the same usage fields.
    const Reply plain = post(u"v1/messages"_s, messagesBody(system, u"Another question?"_s, {{u"max_tokens"_s, 1000}}));
    QCOMPARE(plain.object()[u"type"].toString(), u"message"_s);
    QCOMPARE(plain.object()[u"usage"][u"cache_read_input_tokens"].toInt(), created);
    QCOMPARE(plain.object()[u"stop_reason"].toString(), u"end_turn"_s);
}

void tst_LocalProviderLatency::anthropicBreakpointLimits()
{
    // Below 1024 tokens nothing is cached, breakpoint or not.
    const QJsonArray shortSystem{cached(document(u"short-prefix"_s, 300))};
    for (int i = 0; i < 2; ++i) {
        const QJsonObject usage =
            post(u"v1/messages"_s, messagesBody(shortSystem, u"Hi"_s)).object()[u"usage"].toObject();
        QCOMPARE(usage[u"cache_creation_input_tokens"].toInt(), 0);
        QCOMPARE(usage[u"cache_read_input_tokens"].toInt(), 0);
    }
    // Without a breakpoint nothing is cached either.
    const QString doc = document(u"no-breakpoint"_s, 1500);
    for (int i = 0; i < 2; ++i) {
        const QJsonObject usage = post(u"v1/messages"_s, messagesBody(doc, u"Hi"_s)).object()[u"usage"].toObject();
        QCOMPARE(usage[u"cache_read_input_tokens"].toInt(), 0);
    }
    // At most four breakpoints.
    QJsonArray five;
    for (int i = 0; i < 5; ++i)
        five.append(cached(u"part %1"_s.arg(i)));
    const Reply r = post(u"v1/messages"_s, messagesBody(five, u"Hi"_s));
    QCOMPARE(r.status, 400);
    QVERIFY(r.object()[u"error"][u"message"].toString().contains(u"4"));
}

void tst_LocalProviderLatency::prefixCacheShortensTtft()
{
    // 3000+ prompt tokens at 8000 tokens/s: an uncached prefill of about 400 ms.
    const Headers slowPrefill{{"X-Headstart-Latency", "prefill=8000,decode=1000"}};
    const QString doc = document(u"ttft-doc"_s, 3000);
    const QJsonObject usage{{u"stream_options"_s, QJsonObject{{u"include_usage"_s, true}}},
                            {u"stream"_s, true},
                            {u"max_tokens"_s, 3}};
    const Reply cold = post(u"v1/chat/completions"_s, chatBody(u"First question?"_s, usage, doc), slowPrefill);
    const Reply warm = post(u"v1/chat/completions"_s, chatBody(u"A different second question?"_s, usage, doc),
                            slowPrefill);

    const QJsonObject coldUsage = usageChunk(cold);
    const QJsonObject warmUsage = usageChunk(warm);
    QCOMPARE(coldUsage[u"prompt_tokens_details"][u"cached_tokens"].toInt(), 0);
    const int hit = warmUsage[u"prompt_tokens_details"][u"cached_tokens"].toInt();
    QVERIFY2(hit >= 2900, QByteArray::number(hit));
    QCOMPARE(hit % 64, 0);
    QVERIFY(hit < warmUsage[u"prompt_tokens"].toInt());
    QCOMPARE(warmUsage[u"prompt_cache_hit_tokens"].toInt(), hit);
    QVERIFY2(warm.ttftMs() * 2 < cold.ttftMs(),
             qPrintable(u"cold %1 ms, warm %2 ms"_s.arg(cold.ttftMs()).arg(warm.ttftMs())));
    QVERIFY(cold.ttftMs() >= 300); // the prefill is a lower bound
}

void tst_LocalProviderLatency::cacheEntriesExpire()
{
    const Headers shortTtl{{"X-Headstart-Latency", "ttl=1"}};
    const QString doc = document(u"ttl-doc"_s, 400);
    const QByteArray body = chatBody(u"Question?"_s, {}, doc);
    const auto cachedTokens = [](const Reply &r) {
        return r.object()[u"usage"][u"prompt_tokens_details"][u"cached_tokens"].toInt();
    };
    QCOMPARE(cachedTokens(post(u"v1/chat/completions"_s, body, shortTtl)), 0);
    QVERIFY(cachedTokens(post(u"v1/chat/completions"_s, body, shortTtl)) > 0);
    // The entries live one second after their last hit; waiting is the point of this test.
    QElapsedTimer sinceHit;
    sinceHit.start();
    QTRY_VERIFY_WITH_TIMEOUT(sinceHit.hasExpired(1200), 5000);
    QCOMPARE(cachedTokens(post(u"v1/chat/completions"_s, body, shortTtl)), 0);
}

void tst_LocalProviderLatency::slotsQueueRequests()
{
    // One slot: whichever request the server takes second gets its first token only after the
    // other one's last.
    QNetworkRequest req(m_local.server().url().resolved(QUrl(u"v1/chat/completions"_s)));
    req.setHeader(QNetworkRequest::ContentTypeHeader, QByteArrayLiteral("application/json"));
    req.setRawHeader("X-Headstart-Latency", "slots=1,decode=200");
    const QByteArray body = streamBody(u"Queue test about bridges."_s, {{u"max_tokens"_s, 20}});
    QElapsedTimer timer;
    timer.start();
    struct Track {
        std::unique_ptr<QNetworkReply> reply;
        QByteArray bytes;
        qint64 firstTokenMs = -1;
        qint64 finishedMs = -1;
    };
    Track tracks[2];
    for (Track &t : tracks) {
        t.reply.reset(m_nam.post(req, body));
        connect(t.reply.get(), &QNetworkReply::readyRead, this, [&t, &timer] {
            t.bytes += t.reply->readAll();
            if (t.firstTokenMs < 0 && t.bytes.contains("\"delta\":{\"content\""))
                t.firstTokenMs = timer.elapsed();
        });
        connect(t.reply.get(), &QNetworkReply::finished, this, [&t, &timer] { t.finishedMs = timer.elapsed(); });
    }
    QTRY_VERIFY_WITH_TIMEOUT(tracks[0].finishedMs >= 0 && tracks[1].finishedMs >= 0, 10000);
    const Track &early = tracks[0].firstTokenMs <= tracks[1].firstTokenMs ? tracks[0] : tracks[1];
    const Track &late = &early == &tracks[0] ? tracks[1] : tracks[0];
    QVERIFY(early.firstTokenMs >= 0 && late.firstTokenMs >= 0);
    // 20 tokens at 200/s: about 100 ms that the second one waits out.
    QVERIFY2(late.firstTokenMs + 5 >= early.finishedMs,
             qPrintable(
                 u"first done at %1 ms, second's first token at %2 ms"_s.arg(early.finishedMs).arg(late.firstTokenMs)));
}

void tst_LocalProviderLatency::firstTokenWrittenTime()
{
    const auto before = std::chrono::steady_clock::now().time_since_epoch();
    const Reply r = post(u"v1/chat/completions"_s, streamBody(u"Timing probe."_s), {{"X-Request-Id", "probe-42"}});
    QCOMPARE(r.headers.value("x-request-id"), QByteArray("probe-42"));
    const qint64 written = m_local.server().firstTokenWrittenNs("probe-42");
    QVERIFY(written >= std::chrono::duration_cast<std::chrono::nanoseconds>(before).count());
    QVERIFY(written
            <= std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch())
                   .count());
    QCOMPARE(m_local.server().firstTokenWrittenNs("never-sent"), -1);
}

void tst_LocalProviderLatency::hostedProfiles()
{
    const QStringList names = LatencyProfile::names();
    for (const QString &name :
         {u"hosted"_s, u"hosted-fast"_s, u"hosted-slow"_s, u"hosted-long-doc"_s, u"local-gpu"_s, u"instant"_s}) {
        QVERIFY2(names.contains(name), qPrintable(name));
        QCOMPARE(LatencyProfile::byName(name).value().name, name);
    }
    // The profile table's short-prompt first-token figures: rtt + overhead (+ a few ms of prefill).
    const auto firstToken = [](const QString &name) {
        const LatencyProfile p = LatencyProfile::byName(name).value();
        return p.rttMs + p.overheadMs;
    };
    QCOMPARE(firstToken(u"hosted"_s), 700);
    QCOMPARE(firstToken(u"hosted-fast"_s), 300);
    QCOMPARE(firstToken(u"hosted-slow"_s), 1700);
    QCOMPARE(LatencyProfile::byName(u"hosted-fast").value().prefillTokensPerSec, 20000.0);
    QCOMPARE(LatencyProfile::byName(u"hosted-fast").value().decodeTokensPerSec, 80.0);
    QCOMPARE(LatencyProfile::byName(u"hosted-slow").value().prefillTokensPerSec, 10000.0);

    // And over the wire: no sooner than the model says, the fast one before the slow one.
    const auto ttft = [&](const QByteArray &profile) {
        return post(u"v1/chat/completions"_s,
                    streamBody(u"Profile probe %1."_s.arg(QString::fromLatin1(profile)), {{u"max_tokens"_s, 2}}),
                    {{"X-Headstart-Profile", profile}})
            .ttftMs();
    };
    const qint64 fast = ttft("hosted-fast");
    const qint64 slow = ttft("hosted-slow");
    QVERIFY2(fast >= 300 && slow >= 1700 && fast < slow, qPrintable(u"fast %1 ms, slow %2 ms"_s.arg(fast).arg(slow)));
}

QTEST_GUILESS_MAIN(tst_LocalProviderLatency)
#include "tst_localproviderlatency.moc"
