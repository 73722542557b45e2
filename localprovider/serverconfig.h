#pragma once

#include "faultspec.h"
#include "latencyprofile.h"

#include <QByteArray>
#include <QHash>
#include <QList>
#include <QMap>
#include <QString>
#include <QStringList>
#include <QtGlobal>

namespace LocalProvider {

struct ServerConfig {
    LatencyProfile profile = LatencyProfile::byName(u"hosted").value();
    QString fault;                // a fault spec applied to every request (X-Headstart-Fault syntax), empty = none
    int maxConcurrentStreams = 0; // > 0: refuse streams beyond N open ones with 429 (+ Retry-After: 1)
    QString apiKey;          // non-empty: requests must carry it (Authorization: Bearer K or x-api-key: K) else 401
    QStringList moreApiKeys; // also accepted where apiKey is set: an account with several keys
    // The faults every request with this key gets (e.g. a 429 on a key past its rate limit), on
    // top of the others; by accepted key.
    QHash<QString, FaultSpec> keyFaults;
    // Tests: every generation request is kept as it arrived (ServerThread::receivedRequests()),
    // so a test can compare what two clients sent byte for byte. Off by default: bodies are large
    // and a server that runs for hours must not keep them.
    bool keepRequests = false;
};

// A generation request as it arrived (ServerConfig::keepRequests): its path, the headers that
// say what it is, and its body untouched.
struct ReceivedRequest {
    QByteArray path;       // "/v1/chat/completions", "/v1/messages", ...
    QByteArray purpose;    // X-Headstart-Purpose as sent; empty when there was none
    bool prefetch = false; // `X-Prefetch: 1`
    QByteArray body;

    friend bool operator==(const ReceivedRequest &, const ReceivedRequest &) = default;
};

// The requests kept, oldest first. At most MaxCount requests or MaxBytes of bodies are kept;
// later ones are only counted in `notKept`, so a test can tell that the list is not whole.
struct ReceivedRequests {
    static constexpr qsizetype MaxCount = 10'000;
    static constexpr qint64 MaxBytes = 256LL * 1024 * 1024;
    QList<ReceivedRequest> requests;
    qint64 bytes = 0; // of the kept bodies
    qint64 notKept = 0;
};

// Tokens as a hosted provider would bill them: what the model computed, not what the client read.
struct BilledTokens {
    qint64 inputUncached = 0; // prompt tokens neither read from nor written to the cache
    qint64 cacheRead = 0;
    qint64 cacheWrite = 0; // Anthropic cache_creation_input_tokens; OpenAI-style caches bill no writes
    qint64 output = 0;     // tokens generated, whether the client read them or not

    BilledTokens &operator+=(const BilledTokens &o)
    {
        inputUncached += o.inputUncached;
        cacheRead += o.cacheRead;
        cacheWrite += o.cacheWrite;
        output += o.output;
        return *this;
    }
    friend bool operator==(const BilledTokens &, const BilledTokens &) = default;
};

// Counters since the server started; docs/localprovider.md defines each one.
struct Stats {
    qint64 requestsServed = 0;
    qint64 prefetchRequests = 0; // of those, marked `X-Prefetch: 1`
    qint64 streamsOpen = 0;
    qint64 streamsCancelled = 0;
    qint64 streamsCompleted = 0;
    qint64 requestsRejected = 0;
    qint64 tokensGenerated = 0;
    qint64 promptTokens = 0;
    qint64 cacheHitTokens = 0;
    qint64 floodBytes = 0; // written by flood= faults
    BilledTokens billed;
    // The same, split by the request's X-Headstart-Purpose ("unmarked" without one).
    QMap<QString, BilledTokens> billedByPurpose;
    // And by the request's model (only the provider's own models get this far).
    QMap<QString, BilledTokens> billedByModel;
};

} // namespace LocalProvider
