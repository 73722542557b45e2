#pragma once

#include "responsecache.h"

#include "llm/llmtypes.h"

#include <QJsonObject>

namespace Prefetch {

// What the engine does with a ResponseCache: the key of a request (its scope and context), and
// what was decided, counted for the metrics panel. The cache itself is the app's (beside the
// conversations, cleared with the history); this only borrows it. GUI thread.
class CachedAnswers
{
public:
    struct Counters {
        qint64 exactHits = 0;
        qint64 nearDrafts = 0;
        qint64 nearServed = 0;
        qint64 draftsReplaced = 0;    // the live answer said something else
        qint64 servedRegenerated = 0; // similar answers served that the user asked for again
        qint64 misses = 0;
        qint64 stored = 0;
        qint64 savedMs = 0; // what the served answers took when they were live
    };

    void setCache(ResponseCache *cache) { m_cache = cache; }
    ResponseCache *cache() const { return m_cache; }

    static ResponseCache::Scope scope(const QString &providerId, const Llm::ChatRequest &request);
    // The request without its last user message, hashed: questions are near only on the same
    // context (the same document and conversation so far, the same system prompt and model).
    static QByteArray contextKey(const Llm::ChatRequest &request);
    static QString lastQuestion(const Llm::ChatRequest &request);

    // The cached answer to exactly this request, or a miss; counted.
    ResponseCache::Lookup exact(const QString &providerId, const Llm::ChatRequest &request,
                                const QByteArray &fingerprint);
    // A near-duplicate chat question's earlier answer (serve or draft), or a miss; counted, but
    // for a miss: it is asked after exact() missed, which counted the request's miss already.
    ResponseCache::Lookup near(const QString &providerId, const Llm::ChatRequest &request);
    // The live answer that followed a draft of entry `id`: held when it says the same.
    void settleDraft(qint64 id, const QString &draft, const QString &live);
    // A near-duplicate's answer served (counted as a hit then) that the user regenerated: it did
    // not answer their question after all.
    void rejectServed(qint64 id)
    {
        ++m_counters.servedRegenerated;
        if (m_cache)
            m_cache->retractHit(id);
    }
    // A completed answer (finished, not cut at the token limit, not failed) to keep.
    void store(const QString &providerId, const Llm::ChatRequest &request, const QByteArray &fingerprint,
               const QString &answer, qint64 latencyMs);

    // Whether exact() would serve this request (nothing counted or logged).
    bool contains(const QString &providerId, const Llm::ChatRequest &request, const QByteArray &fingerprint) const
    {
        return m_cache && m_cache->contains(scope(providerId, request), fingerprint);
    }
    const Counters &counters() const { return m_counters; }
    // The metrics panel's Reset statistics: the counters and the decision log start again; the
    // answers kept stay.
    void resetCounters()
    {
        m_counters = {};
        if (m_cache)
            m_cache->clearDecisionLog();
    }
    QJsonObject snapshot() const;

private:
    ResponseCache *m_cache = nullptr;
    Counters m_counters;
};

} // namespace Prefetch
