#include "prefixcache.h"

#include "prompt.h"

namespace LocalProvider {

namespace {
// Anthropic looks for earlier cache entries at about 20 content-block boundaries before each breakpoint.
constexpr int LookbackBoundaries = 20;
} // namespace

PrefixCache::PrefixCache(int capacityBlocks)
    : m_capacity(qMax(1, capacityBlocks))
{
}

bool PrefixCache::touch(quint64 key, qint64 nowMs, qint64 ttlMs, bool unitOnly)
{
    const auto it = m_entries.find(key);
    if (it == m_entries.end())
        return false;
    if (it->second.expiresMs <= nowMs) {
        erase(it);
        return false;
    }
    if (it->second.availableMs > nowMs || (unitOnly && !it->second.unit))
        return false;
    it->second.expiresMs = nowMs + ttlMs;
    m_lru.splice(m_lru.begin(), m_lru, it->second.lru);
    return true;
}

void PrefixCache::insert(quint64 key, int weight, qint64 nowMs, qint64 ttlMs, bool unit, qint64 availableMs)
{
    if (ttlMs <= 0)
        return;
    if (const auto it = m_entries.find(key); it != m_entries.end() && it->second.expiresMs > nowMs) {
        it->second.expiresMs = nowMs + ttlMs;
        m_lru.splice(m_lru.begin(), m_lru, it->second.lru);
        if (unit && !it->second.unit) { // a seen block persisted as a unit from now on
            it->second.unit = true;
            it->second.availableMs = availableMs;
        }
        return;
    } else if (it != m_entries.end()) {
        erase(it);
    }
    m_lru.push_front(key);
    m_entries.emplace(key, Entry{nowMs + ttlMs, weight, m_lru.begin(), unit, availableMs});
    m_weight += weight;
    while (m_weight > m_capacity && m_lru.size() > 1)
        erase(m_entries.find(m_lru.back()));
}

void PrefixCache::erase(std::unordered_map<quint64, Entry>::iterator it)
{
    m_weight -= it->second.weight;
    m_lru.erase(it->second.lru);
    m_entries.erase(it);
}

int PrefixCache::lookupBlocks(const Prompt &prompt, qint64 nowMs, qint64 ttlMs)
{
    int blocks = 0;
    for (quint64 key : prompt.blockKeys()) {
        if (!touch(key, nowMs, ttlMs))
            break;
        ++blocks;
    }
    return blocks * prompt.blockTokens();
}

void PrefixCache::insertBlocks(const Prompt &prompt, qint64 nowMs, qint64 ttlMs)
{
    insertBlockKeys(prompt.blockKeys(), nowMs, ttlMs);
}

void PrefixCache::insertBlockKeys(const QList<quint64> &keys, qint64 nowMs, qint64 ttlMs)
{
    for (quint64 key : keys)
        insert(key, 1, nowMs, ttlMs);
}

int PrefixCache::lookupUnits(const Prompt &prompt, qint64 nowMs, qint64 ttlMs, int buildMs)
{
    const QList<Prompt::Boundary> &bounds = prompt.boundaries();
    const auto weight = [&prompt](int tokens) { return (tokens + prompt.blockTokens() - 1) / prompt.blockTokens(); };
    // The longest persisted unit the prompt starts with.
    int hit = 0;
    for (qsizetype i = bounds.size(); i > 0; --i) {
        if (touch(bounds[i - 1].key, nowMs, ttlMs, true)) {
            hit = bounds[i - 1].tokens;
            break;
        }
    }
    // The longest boundary seen before (a unit or not): a prefix shared with an earlier request.
    for (qsizetype i = bounds.size(); i > 0; --i) {
        const auto it = m_entries.find(bounds[i - 1].key);
        if (it == m_entries.end() || it->second.expiresMs <= nowMs)
            continue;
        if (bounds[i - 1].tokens > hit)
            insert(bounds[i - 1].key, weight(bounds[i - 1].tokens), nowMs, ttlMs, true, nowMs + buildMs);
        break;
    }
    for (const Prompt::Boundary &b : bounds)
        insert(b.key, weight(b.tokens), nowMs, ttlMs);
    return hit;
}

void PrefixCache::insertUnit(quint64 key, int tokens, int blockTokens, qint64 nowMs, qint64 ttlMs, int buildMs)
{
    insert(key, (tokens + blockTokens - 1) / qMax(1, blockTokens), nowMs, ttlMs, true, nowMs + buildMs);
}

PrefixCache::BreakpointResult PrefixCache::lookupBreakpoints(const Prompt &prompt, int minimumTokens, qint64 nowMs,
                                                             qint64 ttlMs)
{
    BreakpointResult result;
    const QList<Prompt::Boundary> &bounds = prompt.boundaries();
    // Only the best hit is refreshed: that is the entry this request actually reads.
    qsizetype best = -1;
    for (qsizetype i = 0; i < bounds.size(); ++i) {
        if (!bounds[i].breakpoint)
            continue;
        for (qsizetype j = i; j >= 0 && j >= i - LookbackBoundaries; --j) {
            if (bounds[j].tokens < minimumTokens || (best >= 0 && bounds[j].tokens <= bounds[best].tokens))
                break;
            const auto it = m_entries.find(bounds[j].key);
            if (it != m_entries.end() && it->second.expiresMs > nowMs) {
                best = j;
                break;
            }
        }
    }
    if (best >= 0) {
        touch(bounds[best].key, nowMs, ttlMs);
        result.readTokens = bounds[best].tokens;
    }
    for (const Prompt::Boundary &b : bounds) {
        if (b.breakpoint && b.tokens >= minimumTokens && b.tokens > result.readTokens)
            result.creationTokens = b.tokens - result.readTokens;
    }
    return result;
}

void PrefixCache::insertBreakpoints(const Prompt &prompt, int minimumTokens, int afterTokens, qint64 nowMs,
                                    qint64 ttlMs)
{
    for (const Prompt::Boundary &b : prompt.boundaries()) {
        if (b.breakpoint && b.tokens >= minimumTokens && b.tokens > afterTokens)
            insert(b.key, (b.tokens + prompt.blockTokens() - 1) / prompt.blockTokens(), nowMs, ttlMs);
    }
}

} // namespace LocalProvider
