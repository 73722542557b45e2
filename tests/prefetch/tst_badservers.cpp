// The fault matrix's misbehaving servers (issue 11): a cross-origin redirect, a plain web
// server (a page, a 404 page), a service that does not speak HTTP, a gzip body nobody asked
// for and a server that only sends keep-alives, each for a foreground answer and for a prefetch
// in both wire formats, through the engine as the app uses it. The answer fails with what the
// server is and what to do, names the provider, is never retried (none of these is a busy
// provider), and nothing reaches another server. The stream-level details are in
// tst_providerrequestguards; docs/reliability.md has the table.
#include "support/badserver.h"
#include "support/localproviderfixture.h"

#include "llm/clock.h"
#include "prefetch/engine.h"
#include "prefetch/prefetchsession.h"
#include "prefetch/stream/answerreader.h"

#include <QNetworkAccessManager>
#include <QTest>

using namespace Prefetch;
using namespace std::chrono_literals;
using TestSupport::BadServer;

class tst_BadServers : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void misbehavingServer_data();
    void misbehavingServer();

private:
    TestSupport::LocalProviderFixture m_local; // settling the network manager
    QNetworkAccessManager m_network;
};

void tst_BadServers::initTestCase()
{
    QVERIFY2(m_local.start(), qPrintable(m_local.errorString()));
}

void tst_BadServers::misbehavingServer_data()
{
    QTest::addColumn<QString>("server");
    QTest::addColumn<bool>("anthropic");
    QTest::addColumn<bool>("prefetch");
    QTest::addColumn<Llm::Error::Code>("code");
    QTest::addColumn<QString>("fix");

    const struct {
        const char *server;
        Llm::Error::Code code;
        const char *fix;
    } cases[] = {
        {"cross-origin redirect", Llm::Error::Code::RedirectRefused, "Check the base URL"},
        {"web page", Llm::Error::Code::NotAnApi, "Check the base URL"},
        {"web 404 page", Llm::Error::Code::NotAnApi, "Check the base URL"},
        {"not http", Llm::Error::Code::NotAnApi, "Check the base URL"},
        {"gzip", Llm::Error::Code::NotAnApi, "Check the base URL"},
        {"keep-alives only", Llm::Error::Code::Timeout, "Try again"},
    };
    for (const auto &c : cases) {
        for (bool anthropic : {false, true}) {
            for (bool prefetch : {false, true}) {
                QTest::addRow("%s, %s, %s", c.server, anthropic ? "anthropic" : "openai",
                              prefetch ? "prefetch" : "foreground")
                    << QString::fromLatin1(c.server) << anthropic << prefetch << c.code << QString::fromLatin1(c.fix);
            }
        }
    }
}

void tst_BadServers::misbehavingServer()
{
    QFETCH(QString, server);
    QFETCH(bool, anthropic);
    QFETCH(bool, prefetch);
    QFETCH(Llm::Error::Code, code);
    QFETCH(QString, fix);

    BadServer other; // where a redirect points: must never hear from us
    QVERIFY(other.listen());
    other.respondWith(BadServer::response("200 OK", {{"Content-Type", "text/event-stream"}}, "data: [DONE]\n\n"));
    BadServer bad;
    QVERIFY(bad.listen());
    if (server == QLatin1String("cross-origin redirect")) {
        const QByteArray location = "http://127.0.0.1:" + QByteArray::number(other.port())
                                    + (anthropic ? "/v1/messages" : "/v1/chat/completions");
        bad.respondWith(BadServer::response("307 Temporary Redirect", {{"Location", location}}, {}));
    } else if (server == QLatin1String("web page")) {
        bad.respondWith(
            BadServer::response("200 OK", {{"Content-Type", "text/html"}},
                                "<html><head><title>Welcome to nginx!</title></head><body>It works</body></html>"));
    } else if (server == QLatin1String("web 404 page")) {
        bad.respondWith(BadServer::response("404 Not Found", {{"Content-Type", "text/html"}},
                                            "<html><head><title>404 Not Found</title></head><body>nope</body></html>"));
    } else if (server == QLatin1String("not http")) {
        bad.respondWith("SSH-2.0-OpenSSH_9.6\r\nProtocol mismatch.\r\n");
    } else if (server == QLatin1String("gzip")) {
        bad.respondWith(BadServer::response("200 OK",
                                            {{"Content-Type", "text/event-stream"}, {"Content-Encoding", "gzip"}},
                                            QByteArray::fromHex(
                                                "1f8b0800000000000003cb48cdc9c95728cf2fca49e102002d3b08af0c000000")));
    } else {
        // Headers, one keep-alive, then nothing but more keep-alives from a timer: the answer
        // never starts, and only the limit per request ends it.
        bad.respondWithDrip("HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\n\r\n: ping\n\n", ": ping\n\n", 50);
    }

    Llm::ProviderProfile profile = m_local.profile();
    profile.id = QStringLiteral("custom");
    profile.displayName = QStringLiteral("Bad server");
    profile.isLocalDemo = false;
    profile.isCloud = false;
    profile.format = anthropic ? Llm::ApiFormat::AnthropicMessages : Llm::ApiFormat::OpenAiChat;
    profile.baseUrl = bad.baseUrl();
    profile.apiKey = QStringLiteral("sk-bad-server-0123456789abcdef");
    Settings settings;
    settings.requestTimeLimit = 600ms; // the keep-alive case's end; every other case ends sooner
    settings.retry.firstDelay = 5ms;   // were anything retried, it would be at once, and counted
    settings.retry.maxDelay = 20ms;
    Engine engine(&m_network, profile, settings);
    Llm::ChatRequest request;
    request.model = profile.model;
    request.maxTokens = 16;
    request.messages.append({Llm::Role::User, QStringLiteral("Is this an API?")});
    const RenderedRequest rendered = engine.render(request);

    std::optional<Llm::Error> error;
    if (prefetch) {
        QPointer<PrefetchSession> session = engine.prefetch(Strategy::Hover, rendered, 30s);
        QVERIFY(session);
        QTRY_VERIFY_WITH_TIMEOUT(!session || !session->isLive(), 10000);
        QCOMPARE(engine.metrics().stats(Strategy::Hover).failed, 1);
    } else {
        AnswerReader *answer = engine.request(Strategy::None, rendered, Llm::monotonicNowNs(), this);
        const QString text = TestSupport::drain(answer, 10000);
        QVERIFY2(text.startsWith(QLatin1String("<failed")), qPrintable(text));
        error = answer->error();
        QVERIFY(error);
        QCOMPARE(error->code(), code);
        const QString message = error->message();
        QVERIFY2(message.contains(QLatin1String("Bad server")) && message.contains(fix), qPrintable(message));
        QVERIFY2(!message.contains(QLatin1Char('<')), qPrintable(message)); // never markup
        QVERIFY(!message.contains(QLatin1String("sk-bad")));
        QVERIFY(!answer->isPrefetched());
    }
    // Let anything still on its way arrive before counting.
    QVERIFY(m_local.settle(&m_network, 100, 5000));
    if (server == QLatin1String("not http") && !prefetch) {
        // We do not retry it, but Qt's HTTP layer sends a request again, to the same address,
        // when a connection closes before any response (it takes it for a keep-alive race):
        // 4 times in Qt 6.4, with no public switch to turn it off. A guess refuses it
        // (Llm::OneShotBody) and is asked exactly once, below.
        QVERIFY2(bad.requests().size() >= 1 && bad.requests().size() <= 4,
                 qPrintable(QString::number(bad.requests().size())));
    } else {
        QCOMPARE(bad.requests().size(), 1); // asked once: none of these is retried
    }
    QCOMPARE(other.connectionCount(), 0);
    QCOMPARE(engine.prefetchInFlight(), 0);
}

QTEST_GUILESS_MAIN(tst_BadServers)
#include "tst_badservers.moc"
