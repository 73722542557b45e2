// Client overhead to first token: from the local provider writing the first token's event to
// the socket, to LlmStream emitting that token. Also split into the transport part (write to
// our first read of the bytes) and our part (read to emit: SSE parse, JSON decode, signal).
// Requests run one after another against the in-process local provider (own thread, loopback,
// "instant" latency profile), so the figures are the client's, not the model's.
#include "llm/clock.h"
#include "llm/llmstream.h"
#include "llm/providerprofile.h"
#include "localprovider/serverthread.h"

#include <QCoreApplication>
#include <QNetworkAccessManager>

#include <algorithm>
#include <cstdio>
#include <functional>
#include <memory>
#include <vector>

namespace {

struct Sample {
    double totalUs;     // server write -> eventReceived emitted
    double transportUs; // server write -> LlmStream read the bytes holding the token
    double clientUs;    // those bytes read -> first token emitted
};

double percentile(std::vector<double> v, double p)
{
    std::sort(v.begin(), v.end());
    const auto index = size_t(p * double(v.size() - 1) + 0.5);
    return v[std::min(index, v.size() - 1)];
}

} // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    const int requests = argc > 1 ? std::atoi(argv[1]) : 500;
    const int warmup = 20;

    LocalProvider::ServerConfig config;
    config.profile = *LocalProvider::LatencyProfile::byName(u"instant");
    LocalProvider::ServerThread server(config);
    if (!server.start()) {
        std::fprintf(stderr, "local provider failed: %s\n", qPrintable(server.errorString()));
        return 1;
    }
    Llm::ProviderProfile profile = Llm::builtinProfile(u"local");
    profile.baseUrl = server.url().resolved(QUrl(QStringLiteral("v1")));

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
        request.messages.append({Llm::Role::User, QStringLiteral("Measure the client overhead of request %1 please.").arg(index)});
        request.maxTokens = 8;
        Llm::StreamOptions options;
        options.requestId = "bench-" + QByteArray::number(index);
        auto *stream = new Llm::LlmStream(&network, profile, request, options);
        auto firstEmit = std::make_shared<qint64>(-1);
        QObject::connect(stream, &Llm::LlmStream::eventReceived, stream, [firstEmit](const Llm::StreamEvent &e) {
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
        QObject::connect(stream, &Llm::LlmStream::finished, stream, [done] { done(true); });
        QObject::connect(stream, &Llm::LlmStream::failed, stream, [done](const Llm::Error &) { done(false); });
        stream->start();
    };
    QMetaObject::invokeMethod(&app, next, Qt::QueuedConnection);
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
    std::printf("client overhead to first token, %zu requests (%d warm-up, %d failed)\n", samples.size(), warmup, failures);
    std::printf("%-44s %10s %10s\n", "", "median", "p95");
    std::printf("%-44s %8.1f us %8.1f us\n", "server write -> LlmStream emits first token", percentile(column(&Sample::totalUs), 0.5),
                percentile(column(&Sample::totalUs), 0.95));
    std::printf("%-44s %8.1f us %8.1f us\n", "  of which: write -> its bytes read", percentile(column(&Sample::transportUs), 0.5),
                percentile(column(&Sample::transportUs), 0.95));
    std::printf("%-44s %8.1f us %8.1f us\n", "  of which: bytes read -> token emitted", percentile(column(&Sample::clientUs), 0.5),
                percentile(column(&Sample::clientUs), 0.95));
    return failures == 0 ? 0 : 1;
}
