#pragma once

#include <QString>
#include <QStringList>
#include <QtGlobal>

#include <expected>
#include <optional>

namespace LocalProvider {

// Timing and prompt-cache parameters of the simulated provider. A rate <= 0 or infinite means
// "no delay"; slotCount <= 0 means unlimited.
struct LatencyProfile {
    QString name;
    int rttMs = 0; // network round trip; headers go out after rtt, first token after rtt + queue + overhead + prefill
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

    // --- What a profile named after a provider imitates (docs/localprovider.md, "Provider
    // profiles", gives every number's source or says it is an assumption). The defaults are
    // those of the older profiles: no spread, free cached tokens, no limits.

    // The spread of the service time: each request's overhead is the profile's times a draw
    // from a lognormal distribution with median 1 and this sigma, fitted to published
    // percentiles: the larger of ln(P95 / P50) / 1.645 and ln(P99 / P50) / 2.326 of the
    // overhead, so that neither tail is kinder than measured. 0: every request the same. The draws are
    // seeded (jitterSeed and the request's serial), so a run repeats.
    double overheadSigma = 0;
    quint64 jitterSeed = 1;
    // A cached prompt still takes time: its tokens are read at this rate (0: no time at all).
    double cachedTokensPerSec = 0;
    // Prompts shorter than this are never cached (OpenAI: 1,024 tokens; Anthropic: per model).
    // 0: the old rules (none for the automatic cache, 1,024 or 2,048 at breakpoints).
    int cacheMinimumTokens = 0;
    // DeepSeek's disk cache: only a prefix persisted as a unit hits: the end of an earlier
    // request's input or output, or a prefix two requests were seen to share (persisted then,
    // for the third). Not every block of a seen prompt.
    bool cacheUnitsOnly = false;
    // An entry is usable this long after it was written ("Cache construction takes seconds").
    int cacheBuildMs = 0;
    // The OpenAI format reports and bills cache writes (`prompt_tokens_details.cache_write_tokens`,
    // GPT-5.6 and later); otherwise a write is billed as input.
    bool reportsCacheWrites = false;
    // A continuation (an assistant prefill, prefix or partial message) is refused with a 400, as
    // Claude 4.6 and later refuse a prefill.
    bool refusesContinuation = false;
    // The model thinks before it answers (thinkTokens of reasoning) unless the request turns
    // thinking off, as DeepSeek V4, Claude 5 and GPT-6 do.
    bool thinksByDefault = false;
    // Rate limits per minute (0: none); past them a 429 with Retry-After.
    int requestsPerMinute = 0;
    int inputTokensPerMinute = 0;
    // What a stream the client closed is billed: the tokens generated, those and a few more
    // (the provider noticing late), or everything up to max_tokens (generation went on).
    enum class CancelBilling { Generated, GeneratedPlus, MaxTokens };
    CancelBilling cancelBilling = CancelBilling::Generated;
    int cancelExtraTokens = 0; // GeneratedPlus

    // "hosted", "hosted-fast", "hosted-slow", "hosted-long-doc", "local-gpu", "instant", and the
    // providers': "deepseek", "openai", "anthropic", "qwen".
    static std::optional<LatencyProfile> byName(QStringView name);
    static QStringList names();

    // The factor of request `serial`'s overhead: a draw from the lognormal of overheadSigma,
    // the same for the same seed and serial; 1 without a spread.
    double overheadFactor(quint64 serial) const;

    // How the same service answers with its small model (headstart-local-small): hosted small
    // models reach their first token in about 0.6 of the time of their larger siblings and
    // decode about 1.7 times as fast (docs/localprovider.md, "The small model", gives the
    // published measurements). The round trip is the network's and stays.
    LatencyProfile forSmallModel() const;

    // This profile with "key=value" pairs applied, comma-separated, any subset of
    // rtt, overhead (ms), prefill, decode (tokens/s; 0 or inf = no delay), slots, context (tokens),
    // ttl (cache seconds), block (cache block tokens), think (the reasoning model's tokens),
    // build (ms until a cache entry is usable), rpm, tpm (limits per minute; 0: none), sigma
    // (the overhead's spread).
    // The error names the bad pair.
    std::expected<LatencyProfile, QString> withOverrides(QStringView spec) const;
};

} // namespace LocalProvider
