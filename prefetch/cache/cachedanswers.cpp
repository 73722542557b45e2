#include "cachedanswers.h"

#include <QCryptographicHash>

namespace Prefetch {

ResponseCache::Scope CachedAnswers::scope(const QString &providerId, const Llm::ChatRequest &request)
{
    return {providerId, request.model};
}

QByteArray CachedAnswers::contextKey(const Llm::ChatRequest &request)
{
    QCryptographicHash h(QCryptographicHash::Sha256);
    auto add = [&h](const QString &s) {
        const QByteArray utf8 = s.toUtf8();
        const qint64 n = utf8.size();
        h.addData(QByteArrayView(reinterpret_cast<const char *>(&n), sizeof n)); // no ambiguity between fields
        h.addData(utf8);
    };
    add(request.model);
    add(request.system);
    qsizetype last = request.messages.size() - 1;
    while (last >= 0 && request.messages.at(last).role != Llm::Role::User)
        --last;
    for (qsizetype i = 0; i < last; ++i) {
        add(QString::number(int(request.messages.at(i).role)));
        add(request.messages.at(i).content);
    }
    return h.result();
}

QString CachedAnswers::lastQuestion(const Llm::ChatRequest &request)
{
    for (qsizetype i = request.messages.size() - 1; i >= 0; --i) {
        if (request.messages.at(i).role == Llm::Role::User)
            return request.messages.at(i).content;
    }
    return {};
}

ResponseCache::Lookup CachedAnswers::exact(const QString &providerId, const Llm::ChatRequest &request,
                                           const QByteArray &fingerprint)
{
    if (!m_cache)
        return {};
    ResponseCache::Lookup out = m_cache->lookupExact(scope(providerId, request), fingerprint);
    if (out.decision == ResponseCache::Decision::Serve) {
        ++m_counters.exactHits;
        m_counters.savedMs += out.savedMs;
        m_cache->recordOutcome(out.id, true);
    } else {
        ++m_counters.misses;
    }
    return out;
}

ResponseCache::Lookup CachedAnswers::near(const QString &providerId, const Llm::ChatRequest &request)
{
    if (!m_cache)
        return {};
    ResponseCache::Lookup out = m_cache->lookupNear(scope(providerId, request), contextKey(request),
                                                    lastQuestion(request));
    switch (out.decision) {
    case ResponseCache::Decision::Serve:
        ++m_counters.nearServed;
        m_counters.savedMs += out.savedMs;
        m_cache->recordOutcome(out.id, true); // served like an exact hit: counted as one
        break;
    case ResponseCache::Decision::Draft: ++m_counters.nearDrafts; break;
    case ResponseCache::Decision::Miss: break; // exact() counted it
    }
    return out;
}

void CachedAnswers::settleDraft(qint64 id, const QString &draft, const QString &live)
{
    // "The same" by the matcher's own measure: a live answer worded a little differently still
    // says what the draft said; one that is not near it replaced the draft.
    const bool held = MinHash::similarity(MinHash::signature(draft), MinHash::signature(live)) >= ResponseCache::Serve;
    if (!held)
        ++m_counters.draftsReplaced;
    if (m_cache)
        m_cache->recordOutcome(id, held);
}

void CachedAnswers::store(const QString &providerId, const Llm::ChatRequest &request, const QByteArray &fingerprint,
                          const QString &answer, qint64 latencyMs)
{
    if (!m_cache || fingerprint.isEmpty() || answer.isEmpty())
        return;
    m_cache->store(scope(providerId, request),
                   {fingerprint, contextKey(request), lastQuestion(request), answer, latencyMs});
    ++m_counters.stored;
}

QJsonObject CachedAnswers::snapshot() const
{
    return {
        {QStringLiteral("enabled"), m_cache != nullptr},
        {QStringLiteral("exactHits"), m_counters.exactHits},
        {QStringLiteral("nearDrafts"), m_counters.nearDrafts},
        {QStringLiteral("nearServed"), m_counters.nearServed},
        {QStringLiteral("draftsReplaced"), m_counters.draftsReplaced},
        {QStringLiteral("servedRegenerated"), m_counters.servedRegenerated},
        {QStringLiteral("misses"), m_counters.misses},
        {QStringLiteral("stored"), m_counters.stored},
        {QStringLiteral("savedMs"), m_counters.savedMs},
        {QStringLiteral("entries"), m_cache ? m_cache->count() : 0},
    };
}

} // namespace Prefetch
