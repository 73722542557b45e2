// Takeover cost and session memory.
//
// 1. consume() of a session paused at its 200-token buffer cap: time until the consumer gets
//    the first buffered event, and until it has all 200 (the replay), median and p95.
// 2. Memory per session at the cap: the event buffer itself, and the whole heap a live session
//    costs (stream, reply, socket buffers, buffer) measured with mallinfo2 for 100 sessions.
// Runs against the in-process local provider (own thread, loopback). Its answers are 60-300
// tokens long by the prompt's hash; prompts whose answer ends before the cap are skipped.
#include "support/localproviderfixture.h"
#include "percentile.h"

#include "llm/clock.h"
#include "prefetch/engine.h"
#include "prefetch/prefetchsession.h"
#include "prefetch/stream/answerreader.h"

#include <QCoreApplication>
#include <QJsonDocument>
#include <QNetworkAccessManager>
#include <QTest>

#include <malloc.h>

#include <algorithm>
#include <cstdio>
#include <memory>
#include <vector>

using namespace Prefetch;
using namespace std::chrono_literals;

using Bench::percentile;

namespace {

Llm::ChatRequest longRequest(int n)
{
    Llm::ChatRequest r;
    r.model = QStringLiteral("headstart-local");
    r.messages.append({Llm::Role::User, QStringLiteral("Write at length, answer %1, about buffers, caps and the "
                                                       "cost of taking a stream over mid-flight.")
                                            .arg(n)});
    r.maxTokens = 1000;
    r.seed = n;
    return r;
}

qint64 heapInUse()
{
    return qint64(mallinfo2().uordblks);
}

} // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    const int runs = argc > 1 ? std::atoi(argv[1]) : 200;

    // Reach the cap quickly.
    TestSupport::LocalProviderFixture local(u"instant", [](LocalProvider::ServerConfig &c) {
        c.profile.decodeTokensPerSec = 5000;
    });
    if (!local.start()) {
        std::fprintf(stderr, "local provider failed: %s\n", qPrintable(local.errorString()));
        return 1;
    }
    Llm::ProviderProfile profile = local.profile();
    profile.concurrencyLimit = 1000;
    // Measured as on a provider that cannot continue an answer (OpenAI's chat completions): a
    // hover prefetch asks for the whole answer and pauses at the buffer cap with its connection
    // open, which is both the takeover to time and the most a session holds. Where the profile
    // continues, a prefetch asks for the buffer's worth and ends there (no connection, less heap).
    profile.encodeOptions.continuation = Llm::ContinuationStyle::None;

    // A benchmark cancels what it measures: no budget, and no pausing the strategy for waste.
    Settings unlimited;
    unlimited.hourlyTokenBudget = 0;
    unlimited.hourlyMoneyBudget = 0; // the money budget too: 100 sessions on the hosted prices pass $1
    unlimited.extraCostCeiling = unlimited.extraCostResume = 1e9;

    // --- 1. takeover cost ---
    {
        QNetworkAccessManager network;
        Engine engine(&network, profile, unlimited);
        std::vector<double> toFirst, toAll;
        qsizetype buffered = 0;
        for (int i = 0, seed = 0; i < runs; ++seed) {
            const Prefetch::RenderedRequest r = engine.render(longRequest(seed));
            QPointer<PrefetchSession> s = engine.prefetch(Strategy::Hover, r, 60s);
            if (!s
                || !QTest::qWaitFor(
                    [&] { return !s || s->isPausedAtCap() || s->state() == PrefetchSession::State::Complete; }, 5000)) {
                std::fprintf(stderr, "session %d neither reached the cap nor completed: %s\n", seed,
                             QJsonDocument(engine.snapshot()).toJson().constData());
                return 1;
            }
            if (!s->isPausedAtCap()) {
                engine.cancel(s); // a short answer: it never reaches the cap
                continue;
            }
            ++i;
            buffered = s->bufferedTokens();
            qint64 first = -1, all = -1;
            qsizetype seen = 0;
            const qint64 start = Llm::monotonicNowNs();
            AnswerReader *handle = engine.consume(s, r, start, &app);
            QObject::connect(handle, &AnswerReader::eventReceived, handle, [&](const Llm::StreamEvent &) {
                const qint64 now = Llm::monotonicNowNs();
                if (first < 0)
                    first = now;
                if (++seen == buffered)
                    all = now;
            });
            if (!QTest::qWaitFor([&] { return all >= 0; }, 5000)) {
                std::fprintf(stderr, "takeover %d did not deliver its buffer\n", i);
                return 1;
            }
            toFirst.push_back(double(first - start) / 1e3);
            toAll.push_back(double(all - start) / 1e3);
            handle->cancel();
            handle->deleteLater();
        }
        std::printf("takeover of a session paused at its cap (%lld buffered events), %d runs\n",
                    static_cast<long long>(buffered), runs);
        std::printf("  %-44s %9s %9s\n", "", "median", "p95");
        std::printf("  %-44s %7.1f us %7.1f us\n", "consume() -> first buffered event delivered",
                    percentile(toFirst, 0.5), percentile(toFirst, 0.95));
        std::printf("  %-44s %7.1f us %7.1f us\n", "consume() -> all buffered events delivered", percentile(toAll, 0.5),
                    percentile(toAll, 0.95));
    }

    // --- 2. memory at the cap ---
    {
        // Cancelled streams closed at the provider and their objects deleted, so the heap
        // figures below do not count them.
        auto settleCancelled = [&local] {
            const bool closed = local.waitForNoOpenStream(10000);
            QCoreApplication::sendPostedEvents(nullptr, QEvent::DeferredDelete);
            if (!closed)
                std::fprintf(stderr, "cancelled streams are still open at the provider\n");
            return closed;
        };
        // Qt opens at most 6 connections per host and network manager, so 100 live streams
        // need 17 managers; each gets its own engine with room for its sessions.
        constexpr int Sessions = 100;
        constexpr int PerManager = 6;
        Settings settings = unlimited;
        settings.prefetchInFlight = PerManager;
        std::vector<std::unique_ptr<QNetworkAccessManager>> managers;
        std::vector<std::unique_ptr<Engine>> engines;
        for (int i = 0; i < (Sessions + PerManager - 1) / PerManager; ++i) {
            managers.push_back(std::make_unique<QNetworkAccessManager>());
            engines.push_back(std::make_unique<Engine>(managers.back().get(), profile, settings));
        }
        // One session per manager first, so connection setup is not counted below.
        QList<QPointer<PrefetchSession>> sessions;
        for (int i = 0; i < Sessions; ++i) {
            const Llm::ChatRequest r = longRequest(10'000 + i);
            Engine &engine = *engines[size_t(i / PerManager)];
            sessions << engine.prefetch(Strategy::Hover, engine.render(r), 120s);
            if (i % PerManager == 0) {
                const QPointer<PrefetchSession> &s = sessions.last();
                (void)QTest::qWaitFor(
                    [&] { return !s || s->isPausedAtCap() || s->state() == PrefetchSession::State::Complete; }, 5000);
            }
        }
        for (auto &e : engines)
            e->cancelAllPrefetches();
        if (!settleCancelled())
            return 1;
        sessions.clear();

        // Seeds whose answers run past the cap, found by the takeover runs' rule.
        std::vector<int> longSeeds;
        {
            QNetworkAccessManager network;
            Engine probe(&network, profile, settings);
            for (int seed = 20'000; int(longSeeds.size()) < Sessions; ++seed) {
                const Llm::ChatRequest r = longRequest(seed);
                QPointer<PrefetchSession> s = probe.prefetch(Strategy::Hover, probe.render(r), 60s);
                if (QTest::qWaitFor(
                        [&] { return !s || s->isPausedAtCap() || s->state() == PrefetchSession::State::Complete; },
                        5000)
                    && s && s->isPausedAtCap())
                    longSeeds.push_back(seed);
                probe.cancelAllPrefetches();
            }
            if (!settleCancelled())
                return 1;
        }
        malloc_trim(0);
        const qint64 before = heapInUse();
        for (int i = 0; i < Sessions; ++i) {
            const Llm::ChatRequest r = longRequest(longSeeds[size_t(i)]);
            Engine &engine = *engines[size_t(i / PerManager)];
            sessions << engine.prefetch(Strategy::Hover, engine.render(r), 120s);
        }
        const bool allAtCap = QTest::qWaitFor(
            [&] {
                return std::all_of(sessions.cbegin(), sessions.cend(),
                                   [](const auto &s) { return s && s->isPausedAtCap(); });
            },
            30000);
        const qint64 after = heapInUse();
        qint64 bufferBytes = 0;
        qint64 tokens = 0;
        for (const auto &s : sessions) {
            bufferBytes += s ? s->bufferMemoryBytes() : 0;
            tokens += s ? s->bufferedTokens() : 0;
        }
        std::printf("\nmemory of %d live sessions paused at the cap (%s, %.0f tokens each on average)\n", Sessions,
                    allAtCap ? "all at the cap" : "NOT all at the cap", double(tokens) / Sessions);
        std::printf("  %-44s %7.1f KiB per session\n", "event buffer (EventBuffer::memoryBytes)",
                    double(bufferBytes) / Sessions / 1024.0);
        std::printf("  %-44s %7.1f KiB per session (%.1f MiB for %d)\n", "whole heap (mallinfo2, stream+reply+buffer)",
                    double(after - before) / Sessions / 1024.0, double(after - before) / (1024.0 * 1024.0), Sessions);
        for (auto &e : engines)
            e->cancelAllPrefetches();
        sessions.clear();
        if (!settleCancelled())
            return 1;

        // Side by side: the same number of plain requests, open but still waiting for their
        // first byte, on the same managers: what an in-flight request costs in Qt before any
        // data is buffered.
        Llm::ProviderProfile waiting = profile;
        waiting.extraHeaders.emplaceBack("X-Headstart-Latency", "rtt=60000");
        std::vector<std::unique_ptr<Llm::ProviderRequest>> streams;
        malloc_trim(0);
        const qint64 idleBefore = heapInUse();
        for (int i = 0; i < Sessions; ++i) {
            Llm::StreamOptions options;
            options.prefetch = true;
            options.readBufferBytes = 8 * 1024;
            streams.push_back(std::make_unique<Llm::ProviderRequest>(managers[size_t(i / PerManager)].get(), waiting,
                                                                     longRequest(30'000 + i), options));
            streams.back()->start();
        }
        const bool allSent = QTest::qWaitFor(
            [&] {
                return std::all_of(streams.cbegin(), streams.cend(),
                                   [](const auto &s) { return s->timestamps().requestSent >= 0; });
            },
            10000);
        const qint64 idleAfter = heapInUse();
        std::printf("  %-44s %7.1f KiB per request%s\n", "same managers, open requests with no data yet",
                    double(idleAfter - idleBefore) / Sessions / 1024.0, allSent ? "" : " (not all sent)");
        std::printf("  %-44s %7.1f KiB per session\n", "difference: what buffering at the cap adds",
                    double((after - before) - (idleAfter - idleBefore)) / Sessions / 1024.0);
        streams.clear();
    }
    return 0;
}
