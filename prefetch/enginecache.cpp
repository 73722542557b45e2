// Engine's answers from the response cache: an exact repeat is served from what was stored,
// nothing sent (engine.cpp stores whole answers as they end); a chat question near one answered
// is served, or drafted while the live answer comes.
#include "engine.h"

#include "eventbuffer.h"
#include "answerreader.h"

namespace Prefetch {

bool Engine::hasCachedAnswer(const RenderedRequest &request) const
{
    return m_settings.cache.enabled && !request.body.isEmpty()
        && m_cached.contains(m_profile.id, request.request, request.fingerprint);
}

AnswerReader *Engine::answerFromCache(Strategy origin, const RenderedRequest &request, qint64 activatedNs,
                                        QObject *owner, ResponseCache::Lookup *draft)
{
    if (draft)
        *draft = {};
    if (!m_settings.cache.enabled || !m_cached.cache() || request.fingerprint.isEmpty() || request.body.isEmpty())
        return nullptr;
    const ResponseCache::Lookup hit = m_cached.exact(m_profile.id, request.request, request.fingerprint);
    if (hit.decision == ResponseCache::Decision::Serve)
        return cachedStream(origin, hit.answer, activatedNs, owner);
    if (!draft || !m_settings.cache.nearDuplicates)
        return nullptr;
    const ResponseCache::Lookup near = m_cached.near(m_profile.id, request.request);
    if (near.decision != ResponseCache::Decision::Miss)
        *draft = near; // the caller marks a served one as a similar question's answer
    if (near.decision == ResponseCache::Decision::Serve)
        return cachedStream(origin, near.answer, activatedNs, owner);
    return nullptr;
}

AnswerReader *Engine::cachedStream(Strategy strategy, const QString &answer, qint64 activatedNs, QObject *owner)
{
    // The answer as the provider would stream it, in one piece, then a normal stop.
    EventBuffer events;
    Llm::StreamEvent text;
    text.type = Llm::StreamEvent::Type::TextDelta;
    text.text = answer;
    events.append(text);
    Llm::StreamEvent finish;
    finish.type = Llm::StreamEvent::Type::Finish;
    finish.text = QStringLiteral("stop");
    events.append(finish);
    auto *handle = new AnswerReader(strategy, AnswerReader::Origin::Cached, nullptr, std::move(events),
                                      activatedNs, owner);
    // Perceived latency of what the user saw, as for any answer; nothing was sent or billed.
    connect(handle, &AnswerReader::firstContentShown, this,
            [this, strategy](double ms) { m_metrics.recordPerceivedLatency(strategy, LatencyKind::NoPrefetch, ms); });
    return handle;
}

} // namespace Prefetch
