#pragma once

#include "latencyprofile.h"

#include <QString>
#include <QtGlobal>

namespace LocalProvider {

struct ServerConfig {
    LatencyProfile profile = LatencyProfile::byName(u"hosted").value();
    QString fault;                // a fault spec applied to every request (X-Headstart-Fault syntax), empty = none
    int maxConcurrentStreams = 0; // > 0: refuse streams beyond N open ones with 429 (+ Retry-After: 1)
    QString apiKey;               // non-empty: requests must carry it (Authorization: Bearer K or x-api-key: K) else 401
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
};

} // namespace LocalProvider
