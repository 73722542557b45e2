#include "prefixcache.h"

#include "prompt.h"

namespace LocalProvider {

namespace {
// Anthropic looks for earlier cache entries at about 20 content-block boundaries before each breakpoint.
constexpr int LookbackBoundaries = 20;
}

PrefixCache::PrefixCache(int capacityBlocks)
    : m_capacity(qMax(1, capacityBlocks))
{
}

bool PrefixCache::touch(quint64 key, qint64 nowMs, qint64 ttlMs)
{
    const auto it = m_entries.find(key);
    if (it == m_entries.end())
        return false;
    if (it->second.expiresMs <= nowMs) {
        erase(it);
        return false;
    }
    it->second.expiresMs = nowMs + ttlMs;
    m_lru.splice(m_lru.begin(), m_lru, it->second.lru);
    return true;
}

void PrefixCache::insert(quint64 key, int weight, qint64 nowMs, qint64 ttlMs)
{
    if (ttlMs <= 0)
        return;
    if (touch(key, nowMs, ttlMs))
        return;
    m_lru.push_front(key);
    m_entries.emplace(key, Entry{nowMs + ttlMs, weight, m_lru.begin()});
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

void PrefixCache::insertBreakpoints(const Prompt &prompt, int minimumTokens, int afterTokens, qint64 nowMs, qint64 ttlMs)
{
    for (const Prompt::Boundary &b : prompt.boundaries()) {
        if (b.breakpoint && b.tokens >= minimumTokens && b.tokens > afterTokens)
            insert(b.key, (b.tokens + prompt.blockTokens() - 1) / prompt.blockTokens(), nowMs, ttlMs);
    }
}

} // namespace LocalProvider
