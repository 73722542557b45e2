#pragma once

#include <QList>
#include <QtGlobal>

#include <list>
#include <unordered_map>

namespace LocalProvider {

class Prompt;

// The simulated KV cache: prefix keys with a TTL (refreshed on every hit) and LRU eviction
// beyond a capacity counted in blocks. Server thread only.
class PrefixCache
{
public:
    explicit PrefixCache(int capacityBlocks);

    // OpenAI-style automatic caching: the number of leading full blocks present, in tokens.
    int lookupBlocks(const Prompt &prompt, qint64 nowMs, qint64 ttlMs);
    void insertBlocks(const Prompt &prompt, qint64 nowMs, qint64 ttlMs);
    // Block keys computed elsewhere (Prompt::blockKeysWithAnswer), one block each.
    void insertBlockKeys(const QList<quint64> &keys, qint64 nowMs, qint64 ttlMs);

    // DeepSeek-style caching of persisted prefix units (LatencyProfile::cacheUnitsOnly): only a
    // prefix that was persisted whole hits. A prompt's candidates are its boundaries (the end
    // of each message part); the hit is the longest that is a unit available at `nowMs`. A
    // boundary this prompt shares with one seen before, longer than that hit, is persisted as
    // a unit for the requests after it (DeepSeek: "the system will detect that the two
    // requests share a common prefix A, and persist A"), `buildMs` later; the prompt's
    // boundaries are recorded as seen. Returns the tokens read.
    int lookupUnits(const Prompt &prompt, qint64 nowMs, qint64 ttlMs, int buildMs);
    // The end of an input or an output (`key`, `tokens` long) persisted as a unit, usable
    // `buildMs` on.
    void insertUnit(quint64 key, int tokens, int blockTokens, qint64 nowMs, qint64 ttlMs, int buildMs);

    // Anthropic-style caching at cache_control breakpoints.
    struct BreakpointResult {
        int readTokens = 0;     // the longest cached prefix found at or shortly before a breakpoint
        int creationTokens = 0; // tokens from there to the last breakpoint that will be written
    };
    BreakpointResult lookupBreakpoints(const Prompt &prompt, int minimumTokens, qint64 nowMs, qint64 ttlMs);
    void insertBreakpoints(const Prompt &prompt, int minimumTokens, int afterTokens, qint64 nowMs, qint64 ttlMs);

    qint64 sizeBlocks() const { return m_weight; }

private:
    struct Entry {
        qint64 expiresMs;
        int weight;
        std::list<quint64>::iterator lru;
        bool unit = false;      // a persisted unit (cacheUnitsOnly); else a block or breakpoint
        qint64 availableMs = 0; // usable from then on (an entry takes time to build)
    };

    // Present, unexpired and usable at `nowMs` (a unit, when `unitOnly`): refreshed.
    bool touch(quint64 key, qint64 nowMs, qint64 ttlMs, bool unitOnly = false);
    void insert(quint64 key, int weight, qint64 nowMs, qint64 ttlMs, bool unit = false, qint64 availableMs = 0);
    void erase(std::unordered_map<quint64, Entry>::iterator it);

    std::unordered_map<quint64, Entry> m_entries;
    std::list<quint64> m_lru; // most recently used first
    qint64 m_weight = 0;
    qint64 m_capacity;
};

} // namespace LocalProvider
