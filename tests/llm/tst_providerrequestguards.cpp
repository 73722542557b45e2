// ProviderRequest against servers that misbehave, each a real loopback server (BadServer): what it
// refuses to do with the key and the text (follow a redirect elsewhere, send plain http:// off
// the machine), how it names what is not an API, and the limits that stop a server from holding
// a request (keep-alives, an endless stream, huge headers). docs/transport.md, "What it refuses
// to do", gives the rules.
#include "support/badserver.h"
#include "support/localproviderfixture.h"

#include "llm/providerprofile.h"
#include "llm/providerrequest.h"

#include <QNetworkAccessManager>
#include <QNetworkProxy>
#include <QSignalSpy>
#include <QTcpSocket>
#include <QTest>

#include <memory>

using namespace Llm;
using namespace std::chrono_literals;

class tst_ProviderRequestGuards : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void crossOriginRedirectIsRefused();
    void redirectToIpv6IsNamedWithBrackets();
    void sameOriginRedirectReportsFinalStatus();
    void tooManyRedirectsAreRefused();
    void insecureHttpIsRefusedBeforeAnyIo();
    void insecureHttpAllowedByTheProfile();
    void hostedApiWithoutKeyIsNotAsked();
    void loopbackHosts_data();
    void loopbackHosts();
    void notAnApi_data();
    void notAnApi();
    void eventStreamLabelledPlainTextIsRead();
    void wrongBasePathIsNotAnApi();
    void keepAlivesAreNotProgress_data();
    void keepAlivesAreNotProgress();
    void keepAlivesAfterTheFirstTokenAreNotProgress();
    void overallLimitEndsAnEndlessStream();
    void echoedKeysAreRedacted_data();
    void echoedKeysAreRedacted();
    void hugeHeadersAreRefused();

private:
    std::unique_ptr<ProviderRequest> makeStream(const ChatRequest &request, StreamOptions options,
                                                ProviderProfile profile);
    ChatRequest shortRequest(const QString &prompt) const;
    bool runToEnd(ProviderRequest &stream, int timeoutMs = 15000);
    // A profile for a BadServer (OpenAI format, the local provider's model).
    ProviderProfile badProfile(const TestSupport::BadServer &server) const;

    TestSupport::LocalProviderFixture m_local; // the wrong-path test, and settling the manager
    QNetworkAccessManager m_network;
};

void tst_ProviderRequestGuards::initTestCase()
{
    QVERIFY2(m_local.start(), qPrintable(m_local.errorString()));
}

ChatRequest tst_ProviderRequestGuards::shortRequest(const QString &prompt) const
{
    ChatRequest r;
    r.model = m_local.profile().model;
    r.messages.append({Role::User, prompt});
    r.maxTokens = 16;
    return r;
}

std::unique_ptr<ProviderRequest> tst_ProviderRequestGuards::makeStream(const ChatRequest &request,
                                                                       StreamOptions options, ProviderProfile profile)
{
    return std::make_unique<ProviderRequest>(&m_network, std::move(profile), request, std::move(options));
}

bool tst_ProviderRequestGuards::runToEnd(ProviderRequest &stream, int timeoutMs)
{
    QSignalSpy finished(&stream, &ProviderRequest::finished);
    QSignalSpy failed(&stream, &ProviderRequest::failed);
    if (stream.state() == ProviderRequest::State::Idle)
        stream.start();
    return QTest::qWaitFor([&] { return finished.count() + failed.count() > 0; }, timeoutMs);
}

ProviderProfile tst_ProviderRequestGuards::badProfile(const TestSupport::BadServer &server) const
{
    ProviderProfile profile = m_local.profile();
    profile.id = QStringLiteral("custom");
    profile.displayName = QStringLiteral("Bad server");
    profile.baseUrl = server.baseUrl();
    profile.apiKey = QStringLiteral("sk-secret-0123456789abcdef0123456789");
    return profile;
}

namespace {

const QByteArray StreamHead = "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nConnection: close\r\n\r\n";

const QByteArray SseOk = "data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"Hi\"}}]}\n\n"
                         "data: {\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"stop\"}]}\n\n"
                         "data: [DONE]\n\n";

QByteArray sseResponse(const QByteArray &body = SseOk)
{
    return TestSupport::BadServer::response("200 OK", {{"Content-Type", "text/event-stream"}}, body);
}

} // namespace

void tst_ProviderRequestGuards::crossOriginRedirectIsRefused()
{
    TestSupport::BadServer other;
    QVERIFY(other.listen());
    other.respondWith(sseResponse());
    TestSupport::BadServer first;
    QVERIFY(first.listen());
    const QByteArray location = "http://127.0.0.1:" + QByteArray::number(other.port()) + "/v1/chat/completions";
    first.respondWith(TestSupport::BadServer::response("307 Temporary Redirect", {{"Location", location}}, {}));

    auto stream = makeStream(shortRequest(QStringLiteral("The key must not follow a redirect.")), {},
                             badProfile(first));
    QVERIFY(runToEnd(*stream));
    QVERIFY(stream->error());
    QCOMPARE(stream->error()->code(), Error::Code::RedirectRefused);
    const QString message = stream->error()->message();
    QVERIFY2(message.contains(QStringLiteral(":%1").arg(first.port())), qPrintable(message));
    QVERIFY2(message.contains(QStringLiteral(":%1").arg(other.port())), qPrintable(message));
    QVERIFY(!message.contains(QLatin1String("sk-secret")));
    QCOMPARE(first.requests().size(), 1);
    QCOMPARE(first.requests().first().header("Authorization"),
             QByteArray("Bearer sk-secret-0123456789abcdef0123456789"));
    // Let anything Qt might still send arrive before asserting that nothing did.
    QVERIFY(m_local.settle(&m_network, 30, 5000));
    QCOMPARE(other.connectionCount(), 0);
    QVERIFY(other.requests().isEmpty());
}

void tst_ProviderRequestGuards::redirectToIpv6IsNamedWithBrackets()
{
    TestSupport::BadServer first;
    QVERIFY(first.listen());
    first.respondWith(TestSupport::BadServer::response("307 Temporary Redirect",
                                                       {{"Location", "http://[::1]:8443/v1/chat/completions"}}, {}));
    auto stream = makeStream(shortRequest(QStringLiteral("Where to?")), {}, badProfile(first));
    QVERIFY(runToEnd(*stream));
    QVERIFY(stream->error());
    QCOMPARE(stream->error()->code(), Error::Code::RedirectRefused);
    // Before: "http://::1:8443", where the address's colons and the port's run together.
    const QString message = stream->error()->message();
    QVERIFY2(message.contains(QLatin1String("to http://[::1]:8443")), qPrintable(message));
}

void tst_ProviderRequestGuards::sameOriginRedirectReportsFinalStatus()
{
    TestSupport::BadServer server;
    QVERIFY(server.listen());
    server.setResponder([](QTcpSocket *socket, const TestSupport::BadServer::Request &request) {
        if (request.target.endsWith("/chat/completions"))
            socket->write(TestSupport::BadServer::response("307 Temporary Redirect", {{"Location", "/v2/chat"}}, {}));
        else
            socket->write(
                TestSupport::BadServer::response("429 Too Many Requests",
                                                 {{"Content-Type", "application/json"}, {"Retry-After", "7"}},
                                                 R"({"error":{"message":"Rate limit reached","type":"requests"}})"));
        socket->disconnectFromHost();
    });
    auto stream = makeStream(shortRequest(QStringLiteral("Redirected to a rate limit.")), {}, badProfile(server));
    QSignalSpy headers(stream.get(), &ProviderRequest::headersReceived);
    QVERIFY(runToEnd(*stream));
    QVERIFY(stream->error());
    QCOMPARE(stream->error()->code(), Error::Code::RateLimited);
    QCOMPARE(stream->httpStatus(), 429);
    QVERIFY(stream->error()->retryAfter());
    QCOMPARE(stream->error()->retryAfter()->count(), 7);
    QCOMPARE(headers.count(), 1);
    QCOMPARE(headers.first().first().toInt(), 429);
    QCOMPARE(server.requests().size(), 2);
    QCOMPARE(server.requests().last().target, QByteArray("/v2/chat"));
    // The same origin gets the request again, key and body included.
    QCOMPARE(server.requests().last().body, server.requests().first().body);
}

void tst_ProviderRequestGuards::tooManyRedirectsAreRefused()
{
    TestSupport::BadServer server;
    QVERIFY(server.listen());
    int hops = 0;
    server.setResponder([&hops](QTcpSocket *socket, const TestSupport::BadServer::Request &) {
        const QByteArray next = "/v1/hop" + QByteArray::number(++hops);
        socket->write(TestSupport::BadServer::response("307 Temporary Redirect", {{"Location", next}}, {}));
        socket->disconnectFromHost();
    });
    StreamOptions options;
    options.maxRedirects = 2;
    auto stream = makeStream(shortRequest(QStringLiteral("Round and round.")), options, badProfile(server));
    QVERIFY(runToEnd(*stream));
    QVERIFY(stream->error());
    QVERIFY2(stream->error()->code() == Error::Code::RedirectRefused, qPrintable(stream->error()->message()));
    QCOMPARE(server.requests().size(), 3); // the first and two redirects followed
}

void tst_ProviderRequestGuards::insecureHttpIsRefusedBeforeAnyIo()
{
    // Every request of this manager goes to a loopback proxy, so even a request that should
    // not have been sent never leaves the machine: the proxy counts it.
    TestSupport::BadServer proxy;
    QVERIFY(proxy.listen());
    proxy.respondWith(sseResponse());
    QNetworkAccessManager network;
    network.setProxy(QNetworkProxy(QNetworkProxy::HttpProxy, QStringLiteral("127.0.0.1"), proxy.port()));
    ProviderProfile profile = badProfile(proxy);
    profile.baseUrl = QUrl(QStringLiteral("http://192.0.2.10/v1")); // TEST-NET-1: nobody's
    ProviderRequest stream(&network, profile, shortRequest(QStringLiteral("Plain text over the network?")));
    QSignalSpy failed(&stream, &ProviderRequest::failed);
    stream.start();
    QCOMPARE(failed.count(), 0); // from the event loop, like every pre-I/O failure
    QVERIFY(failed.wait(5000));
    QCOMPARE(stream.error()->code(), Error::Code::InsecureHttp);
    QVERIFY2(stream.error()->message().contains(QLatin1String("192.0.2.10")), qPrintable(stream.error()->message()));
    QVERIFY(!stream.error()->message().contains(QLatin1String("sk-secret")));
    QCOMPARE(proxy.connectionCount(), 0);
}

void tst_ProviderRequestGuards::hostedApiWithoutKeyIsNotAsked()
{
    // A hosted API reads the text and answers 401: without a key nothing is sent, and the user
    // is told what is missing, not that a key was rejected.
    TestSupport::BadServer server;
    QVERIFY(server.listen());
    server.respondWith(sseResponse());
    ProviderProfile profile = badProfile(server);
    profile.requiresApiKey = true;
    profile.apiKey.clear();
    profile.displayName = QStringLiteral("DeepSeek");
    for (bool prefetch : {false, true}) {
        StreamOptions options;
        options.prefetch = prefetch;
        auto stream = makeStream(shortRequest(QStringLiteral("Sent without a key?")), options, profile);
        QSignalSpy failed(stream.get(), &ProviderRequest::failed);
        stream->start();
        QVERIFY(failed.wait(5000));
        QCOMPARE(stream->error()->code(), Error::Code::MissingKey);
        QCOMPARE(stream->error()->message(),
                 QStringLiteral("DeepSeek needs an API key. Add it in Settings, Providers."));
    }
    // A prefetch key alone lets prefetches go, and only them.
    profile.prefetchApiKey = QStringLiteral("sk-prefetch-only");
    StreamOptions speculative;
    speculative.prefetch = true;
    auto prefetch = makeStream(shortRequest(QStringLiteral("A guess with its own key.")), speculative, profile);
    QVERIFY(runToEnd(*prefetch));
    QVERIFY(!prefetch->error());
    QCOMPARE(server.connectionCount(), 1);
}

void tst_ProviderRequestGuards::insecureHttpAllowedByTheProfile()
{
    TestSupport::BadServer proxy;
    QVERIFY(proxy.listen());
    proxy.respondWith(sseResponse());
    QNetworkAccessManager network;
    network.setProxy(QNetworkProxy(QNetworkProxy::HttpProxy, QStringLiteral("127.0.0.1"), proxy.port()));
    ProviderProfile profile = badProfile(proxy);
    profile.baseUrl = QUrl(QStringLiteral("http://192.0.2.10/v1"));
    profile.allowInsecureHttp = true;
    ProviderRequest stream(&network, profile, shortRequest(QStringLiteral("Plain text, as the user allowed.")));
    QVERIFY(runToEnd(stream));
    QVERIFY2(!stream.error(), stream.error() ? qPrintable(stream.error()->message()) : "");
    QCOMPARE(stream.text(), QStringLiteral("Hi"));
    QCOMPARE(proxy.requests().size(), 1);
    QCOMPARE(proxy.requests().first().target, QByteArray("http://192.0.2.10/v1/chat/completions"));
}

void tst_ProviderRequestGuards::loopbackHosts_data()
{
    QTest::addColumn<QString>("url");
    QTest::addColumn<bool>("insecure");
    QTest::addRow("localhost") << "http://localhost:11434/v1" << false;
    QTest::addRow("LOCALHOST") << "http://LOCALHOST/v1" << false;
    QTest::addRow("127.0.0.1") << "http://127.0.0.1:8080/v1" << false;
    QTest::addRow("127.8.9.10") << "http://127.8.9.10/v1" << false;
    QTest::addRow("::1") << "http://[::1]:8080/v1" << false;
    QTest::addRow("https remote") << "https://api.example.com/v1" << false;
    QTest::addRow("lan") << "http://192.168.1.20:8080/v1" << true;
    QTest::addRow("remote name") << "http://api.example.com/v1" << true;
    QTest::addRow("localhost lookalike") << "http://localhost.example.com/v1" << true;
    QTest::addRow("127 in a name") << "http://127.0.0.1.nip.io/v1" << true;
    QTest::addRow("ipv6 remote") << "http://[2001:db8::1]/v1" << true;
}

void tst_ProviderRequestGuards::loopbackHosts()
{
    QFETCH(QString, url);
    QFETCH(bool, insecure);
    QCOMPARE(isInsecureRemote(QUrl(url)), insecure);
}

void tst_ProviderRequestGuards::notAnApi_data()
{
    QTest::addColumn<QByteArray>("raw");
    QTest::addColumn<QString>("mentions");

    QTest::addRow("html 200") << TestSupport::BadServer::response(
        "200 OK", {{"Content-Type", "text/html; charset=utf-8"}},
        "<!DOCTYPE html><html><head><title>Welcome to nginx!</title></head><body><h1>It works</h1></body></html>")
                              << "text/html";
    QTest::addRow("html 404")
        << TestSupport::BadServer::response("404 Not Found", {{"Content-Type", "text/html"}},
                                            "<html><head><title>404 Not Found</title></head><body>nope</body></html>")
        << "404";
    QTest::addRow("html 405") << TestSupport::BadServer::response("405 Method Not Allowed",
                                                                  {{"Content-Type", "text/html"}},
                                                                  "<html><body><p>POST not allowed</p></body></html>")
                              << "405";
    QTest::addRow("json 404 no model") << TestSupport::BadServer::response("404 Not Found",
                                                                           {{"Content-Type", "application/json"}},
                                                                           R"({"detail":"Not Found"})")
                                       << "404";
    QTest::addRow("plain text 200") << TestSupport::BadServer::response("200 OK", {{"Content-Type", "text/plain"}},
                                                                        "Hello from a file server.\n")
                                    << "text/plain";
    QTest::addRow("not http") << QByteArray("SSH-2.0-OpenSSH_9.6\r\nProtocol mismatch.\r\n") << "HTTP";
    QTest::addRow("not http, open") << QByteArray("SSH-2.0-OpenSSH_9.6\r\n") << "HTTP";
    QTest::addRow("gzip") << TestSupport::BadServer::response(
        "200 OK", {{"Content-Type", "text/event-stream"}, {"Content-Encoding", "gzip"}},
        QByteArray::fromHex("1f8b0800000000000003cb48cdc9c95728cf2fca49e102002d3b08af0c000000"))
                          << "gzip";
}

void tst_ProviderRequestGuards::notAnApi()
{
    QFETCH(QByteArray, raw);
    QFETCH(QString, mentions);
    TestSupport::BadServer server;
    QVERIFY(server.listen());
    if (QByteArray(QTest::currentDataTag()).endsWith("open")) // writes and waits, as an SSH server does
        server.setResponder([raw](QTcpSocket *socket, const TestSupport::BadServer::Request &) { socket->write(raw); });
    else
        server.respondWith(raw);
    auto stream = makeStream(shortRequest(QStringLiteral("Is this an API?")), {}, badProfile(server));
    QVERIFY(runToEnd(*stream));
    QVERIFY(stream->error());
    const QString message = stream->error()->message();
    QVERIFY2(stream->error()->code() == Error::Code::NotAnApi,
             qPrintable(QString::fromLatin1(stream->error()->codeName()) + QLatin1String(": ") + message));
    QVERIFY2(message.contains(QLatin1String("OpenAI-compatible")), qPrintable(message));
    QVERIFY2(message.contains(QLatin1String("base URL")), qPrintable(message));
    QVERIFY2(message.contains(mentions), qPrintable(message));
    QVERIFY2(!message.contains(QLatin1Char('<')), qPrintable(message)); // never raw HTML

    ProviderProfile anthropic = badProfile(server);
    anthropic.format = ApiFormat::AnthropicMessages;
    auto second = makeStream(shortRequest(QStringLiteral("Is this an API?")), {}, anthropic);
    QVERIFY(runToEnd(*second));
    QVERIFY(second->error());
    QCOMPARE(second->error()->code(), Error::Code::NotAnApi);
    QVERIFY2(second->error()->message().contains(QLatin1String("Anthropic")), qPrintable(second->error()->message()));
}

void tst_ProviderRequestGuards::eventStreamLabelledPlainTextIsRead()
{
    // Some gateways send a real event stream as text/plain: it is read, not refused.
    TestSupport::BadServer server;
    QVERIFY(server.listen());
    server.respondWith(TestSupport::BadServer::response("200 OK", {{"Content-Type", "text/plain"}}, SseOk));
    auto stream = makeStream(shortRequest(QStringLiteral("Mislabelled.")), {}, badProfile(server));
    QVERIFY(runToEnd(*stream));
    QVERIFY2(!stream->error(), stream->error() ? qPrintable(stream->error()->message()) : "");
    QCOMPARE(stream->text(), QStringLiteral("Hi"));
}

void tst_ProviderRequestGuards::wrongBasePathIsNotAnApi()
{
    ProviderProfile profile = m_local.profile();
    profile.baseUrl.setPath(QStringLiteral("/api/v9"));
    auto stream = makeStream(shortRequest(QStringLiteral("Wrong path.")), {}, profile);
    QVERIFY(runToEnd(*stream));
    QVERIFY(stream->error());
    QVERIFY2(stream->error()->code() == Error::Code::NotAnApi, qPrintable(stream->error()->message()));
    QCOMPARE(stream->httpStatus(), 404);
    QVERIFY2(!stream->error()->message().contains(QLatin1String("requested model")),
             qPrintable(stream->error()->message()));
    QVERIFY2(stream->error()->message().contains(QLatin1String("base URL")), qPrintable(stream->error()->message()));
}

void tst_ProviderRequestGuards::keepAlivesAreNotProgress_data()
{
    QTest::addColumn<bool>("anthropic");
    QTest::addColumn<QByteArray>("ping");
    QTest::addRow("sse comment") << false << QByteArray(": ping\n\n");
    QTest::addRow("anthropic ping event") << true << QByteArray("event: ping\ndata: {\"type\": \"ping\"}\n\n");
}

void tst_ProviderRequestGuards::keepAlivesAreNotProgress()
{
    QFETCH(bool, anthropic);
    QFETCH(QByteArray, ping);
    TestSupport::BadServer server;
    QVERIFY(server.listen());
    server.respondWithDrip(StreamHead, ping, 20);
    StreamOptions options;
    options.firstByteTimeout = 400ms;
    options.idleTimeout = 400ms;
    ProviderProfile profile = badProfile(server);
    if (anthropic)
        profile.format = ApiFormat::AnthropicMessages;
    auto stream = makeStream(shortRequest(QStringLiteral("Ping, ping, ping.")), options, profile);
    QVERIFY(runToEnd(*stream, 10000));
    QVERIFY(stream->error());
    QCOMPARE(stream->error()->code(), Error::Code::Timeout);
    QVERIFY2(stream->error()->message().contains(QLatin1String("keep-alive")), qPrintable(stream->error()->message()));
    QVERIFY(stream->bytesReceived() > qint64(ping.size())); // the pings did arrive, and did not count
    QCOMPARE(stream->eventCount(), 0);
}

void tst_ProviderRequestGuards::keepAlivesAfterTheFirstTokenAreNotProgress()
{
    // One word of answer, then comments every 20 ms: before issue 36 every read restarted the
    // idle timeout, so only the ten-minute limit per request ended it.
    TestSupport::BadServer server;
    QVERIFY(server.listen());
    const QByteArray head = StreamHead + "data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"Hello\"}}]}\n\n";
    const QByteArray drip = ": ping\n\ndata: {\"choices\":[{\"index\":0,\"delta\":{}}]}\n\n";
    server.respondWithDrip(head, drip, 20);
    StreamOptions options;
    options.idleTimeout = 400ms;
    auto stream = makeStream(shortRequest(QStringLiteral("Say hello, then nothing.")), options, badProfile(server));
    QVERIFY(runToEnd(*stream, 10000));
    QVERIFY(stream->error());
    QCOMPARE(stream->error()->code(), Error::Code::Timeout);
    QVERIFY2(stream->error()->message().contains(QLatin1String("no data for 0.4 s")),
             qPrintable(stream->error()->message()));
    QCOMPARE(stream->text(), QStringLiteral("Hello")); // what came is kept
    // The keep-alives did arrive (several; how many in 0.4 s depends on how busy the machine is).
    QVERIFY2(stream->bytesReceived() >= head.size() + 3 * drip.size(),
             qPrintable(QString::number(stream->bytesReceived())));
}

void tst_ProviderRequestGuards::echoedKeysAreRedacted_data()
{
    QTest::addColumn<QString>("key");
    // Shapes of custom gateways' keys that look nothing like sk-…: the exact value is what is
    // removed, whatever it looks like.
    QTest::addRow("dotted") << QStringLiteral("gw.tenant7.Zq3");
    QTest::addRow("base64") << QStringLiteral("dGVzdDpzZWNyZXQ=");
    QTest::addRow("short") << QStringLiteral("k9x2");
}

void tst_ProviderRequestGuards::echoedKeysAreRedacted()
{
    QFETCH(QString, key);
    TestSupport::BadServer server;
    QVERIFY(server.listen());
    // A gateway that repeats what it was sent, in the body and in an in-stream error.
    server.setResponder([](QTcpSocket *socket, const TestSupport::BadServer::Request &request) {
        const QByteArray sent = request.header("Authorization").mid(7);
        socket->write(TestSupport::BadServer::response("401 Unauthorized", {{"Content-Type", "application/json"}},
                                                       "{\"error\":{\"message\":\"Key '" + sent
                                                           + "' is not valid for gateway token "
                                                           + request.header("X-Gateway") + "\",\"type\":\"auth\"}}"));
        socket->disconnectFromHost();
    });
    ProviderProfile profile = badProfile(server);
    profile.apiKey = key;
    profile.extraHeaders = {{"X-Gateway", "tok." + key.toUtf8()}};
    auto stream = makeStream(shortRequest(QStringLiteral("Who am I?")), {}, profile);
    QVERIFY(runToEnd(*stream));
    QVERIFY(stream->error());
    QCOMPARE(stream->error()->code(), Error::Code::BadKey);
    const QString message = stream->error()->message();
    QVERIFY2(message.contains(QLatin1String("is not valid")), qPrintable(message)); // the detail is there
    QVERIFY2(!message.contains(key), qPrintable(message));
    QVERIFY2(message.contains(QLatin1String("[redacted]")), qPrintable(message));
}

void tst_ProviderRequestGuards::overallLimitEndsAnEndlessStream()
{
    TestSupport::BadServer server;
    QVERIFY(server.listen());
    server.respondWithDrip(StreamHead, "data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"more \"}}]}\n\n", 20);
    StreamOptions options;
    options.overallTimeout = 500ms;
    auto stream = makeStream(shortRequest(QStringLiteral("Never stop.")), options, badProfile(server));
    QVERIFY(runToEnd(*stream, 10000));
    QVERIFY(stream->error());
    QCOMPARE(stream->error()->code(), Error::Code::Timeout);
    QVERIFY2(stream->error()->message().contains(QLatin1String("in all")), qPrintable(stream->error()->message()));
    QVERIFY(stream->text().startsWith(QLatin1String("more "))); // what came is kept
}

void tst_ProviderRequestGuards::hugeHeadersAreRefused()
{
    TestSupport::BadServer server;
    QVERIFY(server.listen());
    QList<QPair<QByteArray, QByteArray>> headers{{"Content-Type", "text/event-stream"}};
    for (int i = 0; i < 200; ++i)
        headers.append({"X-Pad-" + QByteArray::number(i), QByteArray(500, 'x')}); // ~100 KiB
    server.respondWith(TestSupport::BadServer::response("200 OK", headers, SseOk));
    const auto expectRefused = [&](const char *what) {
        auto stream = makeStream(shortRequest(QStringLiteral("Heavy headers.")), {}, badProfile(server));
        QVERIFY(runToEnd(*stream));
        QVERIFY2(stream->error(), what);
        QCOMPARE(stream->error()->code(), Error::Code::MalformedStream);
        QVERIFY2(stream->error()->message().contains(QLatin1String("headers")), qPrintable(stream->error()->message()));
        QVERIFY(stream->text().isEmpty());
    };
    // 200 fields: more than Qt's parser takes, which then drops them all.
    expectRefused("200 fields of 500 bytes");
    // 80 fields of 1 KiB: Qt takes them, our 64 KiB cap does not.
    headers.resize(1);
    for (int i = 0; i < 80; ++i)
        headers.append({"X-Pad-" + QByteArray::number(i), QByteArray(1024, 'y')});
    server.respondWith(TestSupport::BadServer::response("200 OK", headers, SseOk));
    expectRefused("80 fields of 1 KiB");
    if (QTest::currentTestFailed())
        return;

    // Under the cap the same server is fine.
    headers.resize(11);
    server.respondWith(TestSupport::BadServer::response("200 OK", headers, SseOk));
    auto small = makeStream(shortRequest(QStringLiteral("Light headers.")), {}, badProfile(server));
    QVERIFY(runToEnd(*small));
    QVERIFY2(!small->error(), small->error() ? qPrintable(small->error()->message()) : "");
}

QTEST_GUILESS_MAIN(tst_ProviderRequestGuards)
#include "tst_providerrequestguards.moc"
