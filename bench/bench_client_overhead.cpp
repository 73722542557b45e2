// Client overhead to first token: from the local provider writing the first token's event to
// the socket, to ProviderRequest emitting that token. Also split into the transport part (write to
// our first read of the bytes) and our part (read to emit: SSE parse, JSON decode, signal).
// Requests run one after another against the in-process local provider (own thread, loopback,
// "instant" latency profile), so the figures are the client's, not the model's.
// A baseline in the same run: a bare QTcpSocket on the same event loop that writes the request
// by hand and scans the raw bytes for the first content delta: the floor any Qt client on this
// event loop could reach, with no HTTP thread, no SSE parsing and no JSON decoding.
#include "support/localproviderfixture.h"
#include "percentile.h"

#include "llm/clock.h"
#include "llm/providerprofile.h"
#include "llm/providerrequest.h"

#include <QCoreApplication>
#include <QNetworkAccessManager>
#include <QTcpSocket>

#include <algorithm>
#include <cstdio>
#include <functional>
#include <memory>
#include <vector>

using Bench::percentile;

namespace {

struct Sample {
    double totalUs;     // server write -> eventReceived emitted
    double transportUs; // server write -> ProviderRequest read the bytes holding the token
    double clientUs;    // those bytes read -> first token emitted
};

} // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    const int requests = argc > 1 ? std::atoi(argv[1]) : 500;
    const int warmup = 20;

    TestSupport::LocalProviderFixture local;
    if (!local.start()) {
        std::fprintf(stderr, "local provider failed: %s\n", qPrintable(local.errorString()));
        return 1;
    }
    const LocalProvider::ServerThread &server = local.server();
    const Llm::ProviderProfile profile = local.profile();

    QNetworkAccessManager network;
    std::vector<Sample> samples;
    int index = 0;
    int failures = 0;

    std::function<void()> next = [&] {
        if (index == requests + warmup) {
            QCoreApplication::quit();
            return;
        }
        Llm::ChatRequest request;
        request.model = profile.model;
        request.messages.append(
            {Llm::Role::User, QStringLiteral("Measure the client overhead of request %1 please.").arg(index)});
        request.maxTokens = 8;
        Llm::StreamOptions options;
        options.requestId = "bench-" + QByteArray::number(index);
        options.extraHeaders.emplaceBack("X-Headstart-Latency", "decode=100");
        auto *stream = new Llm::ProviderRequest(&network, profile, request, options);
        auto firstEmit = std::make_shared<qint64>(-1);
        QObject::connect(stream, &Llm::ProviderRequest::eventReceived, stream, [firstEmit](const Llm::StreamEvent &e) {
            if (*firstEmit < 0 && e.type == Llm::StreamEvent::Type::TextDelta)
                *firstEmit = Llm::monotonicNowNs();
        });
        auto done = [&, stream, firstEmit](bool ok) {
            const qint64 written = server.firstTokenWrittenNs(stream->requestId());
            if (!ok || written < 0 || *firstEmit < 0) {
                ++failures;
            } else if (index >= warmup) {
                samples.push_back({double(*firstEmit - written) / 1e3,
                                   double(stream->timestamps().firstTokenRead - written) / 1e3,
                                   double(*firstEmit - stream->timestamps().firstTokenRead) / 1e3});
            }
            stream->deleteLater();
            ++index;
            QMetaObject::invokeMethod(&app, next, Qt::QueuedConnection);
        };
        QObject::connect(stream, &Llm::ProviderRequest::finished, stream, [done] { done(true); });
        QObject::connect(stream, &Llm::ProviderRequest::failed, stream, [done](const Llm::Error &) { done(false); });
        stream->start();
    };
    QMetaObject::invokeMethod(&app, next, Qt::QueuedConnection);
    QCoreApplication::exec();

    // Baseline: a raw socket on the same event loop, one connection per request like the
    // first request of a QNAM connection pool.
    std::vector<double> raw;
    int rawIndex = 0;
    std::function<void()> nextRaw = [&] {
        if (rawIndex == requests + warmup) {
            QCoreApplication::quit();
            return;
        }
        const QByteArray id = "raw-" + QByteArray::number(rawIndex);
        const QByteArray body =
            R"({"model":"headstart-local","messages":[{"role":"user","content":"Measure the raw baseline of request )"
            + QByteArray::number(rawIndex) + R"( please."}],"stream":true,"max_tokens":8})";
        auto *socket = new QTcpSocket;
        auto received = std::make_shared<QByteArray>();
        QObject::connect(socket, &QTcpSocket::connected, socket, [socket, id, body] {
            socket->write("POST /v1/chat/completions HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                          "X-Headstart-Latency: decode=100\r\nX-Request-Id: "
                          + id + "\r\nContent-Length: " + QByteArray::number(body.size()) + "\r\n\r\n" + body);
        });
        QObject::connect(socket, &QTcpSocket::readyRead, socket, [&, socket, received, id] {
            *received += socket->readAll();
            const qsizetype at = received->indexOf(R"("delta":{"content":")");
            if (at < 0 || at + 20 >= received->size() || received->at(at + 20) == '"')
                return;
            const qint64 seen = Llm::monotonicNowNs();
            const qint64 written = server.firstTokenWrittenNs(id);
            if (written > 0 && rawIndex >= warmup)
                raw.push_back(double(seen - written) / 1e3);
            socket->disconnect();
            socket->abort();
            socket->deleteLater();
            ++rawIndex;
            QMetaObject::invokeMethod(&app, nextRaw, Qt::QueuedConnection);
        });
        socket->connectToHost(server.url().host(), quint16(server.url().port()));
    };
    QMetaObject::invokeMethod(&app, nextRaw, Qt::QueuedConnection);
    QCoreApplication::exec();

    if (samples.empty()) {
        std::fprintf(stderr, "no samples (%d failures)\n", failures);
        return 1;
    }
    auto column = [&](double Sample::*field) {
        std::vector<double> v;
        for (const Sample &s : samples)
            v.push_back(s.*field);
        return v;
    };
    std::printf("client overhead to first token, %zu requests (%d warm-up, %d failed)\n", samples.size(), warmup,
                failures);
    std::printf("%-44s %10s %10s\n", "", "median", "p95");
    std::printf("%-44s %8.1f us %8.1f us\n", "server write -> ProviderRequest emits first token",
                percentile(column(&Sample::totalUs), 0.5), percentile(column(&Sample::totalUs), 0.95));
    std::printf("%-44s %8.1f us %8.1f us\n", "  of which: write -> its bytes read",
                percentile(column(&Sample::transportUs), 0.5), percentile(column(&Sample::transportUs), 0.95));
    std::printf("%-44s %8.1f us %8.1f us\n", "  of which: bytes read -> token emitted",
                percentile(column(&Sample::clientUs), 0.5), percentile(column(&Sample::clientUs), 0.95));
    if (!raw.empty()) {
        std::printf("%-44s %8.1f us %8.1f us\n", "baseline: raw QTcpSocket, same event loop", percentile(raw, 0.5),
                    percentile(raw, 0.95));
        std::printf("%-44s %8.2f\n", "ratio ProviderRequest / raw socket (median)",
                    percentile(column(&Sample::totalUs), 0.5) / percentile(raw, 0.5));
    }
    return failures == 0 ? 0 : 1;
}
