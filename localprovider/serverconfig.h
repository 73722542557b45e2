#pragma once

#include "faultspec.h"
#include "latencyprofile.h"

#include <QHash>
#include <QMap>
#include <QString>
#include <QStringList>
#include <QtGlobal>

namespace LocalProvider {

struct ServerConfig {
    LatencyProfile profile = LatencyProfile::byName(u"hosted").value();
    QString fault;                // a fault spec applied to every request (X-Headstart-Fault syntax), empty = none
    int maxConcurrentStreams = 0; // > 0: refuse streams beyond N open ones with 429 (+ Retry-After: 1)
    QString apiKey;               // non-empty: requests must carry it (Authorization: Bearer K or x-api-key: K) else 401
    QStringList moreApiKeys;      // also accepted where apiKey is set: an account with several keys
    // The faults every request with this key gets (e.g. a 429 on a key past its rate limit), on
    // top of the others; by accepted key.
    QHash<QString, FaultSpec> keyFaults;
};

// Tokens as a hosted provider would bill them: what the model computed, not what the client read.
struct BilledTokens {
    qint64 inputUncached = 0; // prompt tokens neither read from nor written to the cache
    qint64 cacheRead = 0;
    qint64 cacheWrite = 0;    // Anthropic cache_creation_input_tokens; OpenAI-style caches bill no writes
    qint64 output = 0;        // tokens generated, whether the client read them or not

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
    BilledTokens billed;
    // The same, split by the request's X-Headstart-Purpose ("unmarked" without one).
    QMap<QString, BilledTokens> billedByPurpose;
    // And by the request's model (only the provider's own models get this far).
    QMap<QString, BilledTokens> billedByModel;
};

} // namespace LocalProvider
