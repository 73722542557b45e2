#pragma once

#include <QString>
#include <QStringList>

#include <expected>
#include <optional>

namespace LocalProvider {

// Timing and prompt-cache parameters of the simulated provider. A rate <= 0 or infinite means
// "no delay"; slotCount <= 0 means unlimited.
struct LatencyProfile {
    QString name;
    int rttMs = 0;                  // network round trip; headers go out after rtt, first token after rtt + queue + overhead + prefill
    // Time a hosted service spends before any prefill: admission, routing, scheduling. It is
    // why hosted APIs take most of a second to the first token even on a short, cached prompt.
    int overheadMs = 0;
    double prefillTokensPerSec = 0; // prefill time = uncached prompt tokens / this
    double decodeTokensPerSec = 0;  // one output token every 1/this seconds
    // Concurrent generations; more requests wait in a queue. Not called `slots`: that is a Qt
    // keyword macro, and `profile.slots` would not compile wherever Qt keywords are on.
    int slotCount = 0;
    int cacheBlockTokens = 64;
    int cacheTtlSec = 300;
    int cacheCapacityBlocks = 16384; // LRU beyond this
    int contextTokens = 128000;      // prompt + max_tokens beyond this -> "context too long"
    // What the reasoning model (headstart-local-reasoner) thinks before it answers, in tokens
    // decoded at decodeTokensPerSec: 300 is a short think, 7.5 s on `hosted` (docs/localprovider.md,
    // "The reasoning model").
    int thinkTokens = 300;

    // "hosted", "hosted-fast", "hosted-slow", "hosted-long-doc", "local-gpu", "instant".
    static std::optional<LatencyProfile> byName(QStringView name);
    static QStringList names();

    // How the same service answers with its small model (headstart-local-small): hosted small
    // models reach their first token in about 0.6 of the time of their larger siblings and
    // decode about 1.7 times as fast (docs/localprovider.md, "The small model", gives the
    // published measurements). The round trip is the network's and stays.
    LatencyProfile forSmallModel() const;

    // This profile with "key=value" pairs applied, comma-separated, any subset of
    // rtt, overhead (ms), prefill, decode (tokens/s; 0 or inf = no delay), slots, context (tokens),
    // ttl (cache seconds), block (cache block tokens), think (the reasoning model's tokens).
    // The error names the bad pair.
    std::expected<LatencyProfile, QString> withOverrides(QStringView spec) const;
};

} // namespace LocalProvider
