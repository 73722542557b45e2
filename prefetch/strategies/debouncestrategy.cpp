#include "debouncestrategy.h"

#include "classifier.h"
#include "prefetch/engine.h"
#include "prefetch/prefetchsession.h"
#include "prefetch/stream/answerreader.h"

#include "llm/providerprofile.h"

#include <utility>

namespace Prefetch {

DebounceStrategy::DebounceStrategy(Engine *engine, std::shared_ptr<CompletenessClassifier> classifier, QObject *parent)
    : QObject(parent)
    , m_engine(engine)
    , m_classifier(std::move(classifier))
{
    m_timer.setSingleShot(true);
    m_timer.setTimerType(Qt::PreciseTimer); // the pause length is the behaviour: a coarse timer fires up to 5 % early
    connect(&m_timer, &QTimer::timeout, this, &DebounceStrategy::onPause);
}

void DebounceStrategy::setBuilder(Builder builder, const QObject *owner, Warmer warmer)
{
    cancelSession();
    m_builder = std::move(builder);
    m_builderOwner = m_builder ? owner : nullptr;
    m_warmer = m_builder ? std::move(warmer) : Warmer();
    m_context = {};
    // A warm-up in flight goes on: its prompt is billed already, and the cache it fills may
    // still serve (the same passages asked about in the next turn). It is no longer counted.
    m_warmAwaitsSend = false;
}

bool DebounceStrategy::isPrefetching() const
{
    return m_session && m_session->isLive();
}

void DebounceStrategy::textChanged(const QString &draft, bool caretAtEnd)
{
    ++m_generation;
    m_pending = draft;
    m_pendingAtEnd = caretAtEnd;
    // Typing on after a pause: the answer being prefetched is for a draft that no longer is.
    // A suggested follow-up stays while the user types it.
    if (m_session && normalizeDraft(draft) != normalizeDraft(m_draft) && !suggestionContinues(draft))
        cancelSession();
    if (!m_engine->isEnabled(Strategy::Debounce) || !m_builder) {
        m_timer.stop();
        return;
    }
    startPause(draft);
}

void DebounceStrategy::startPause(const QString &draft)
{
    const Settings::Debounce &settings = m_engine->settings().debounce;
    const bool justEnded = m_pendingAtEnd && endsSentence(draft);
    m_timer.start(justEnded ? std::min(settings.sentenceEndDelay, settings.delay) : settings.delay);
}

void DebounceStrategy::compositionChanged(const QString &preedit)
{
    if (!preedit.isEmpty()) {
        m_composing = true;
        ++m_generation; // a classifier's answer about the draft before is about to be stale
        m_timer.stop();
        if (m_session && !m_suggested)
            cancelSession();
        return;
    }
    if (!std::exchange(m_composing, false))
        return;
    // Committed (the commit's textChanged() has started the pause already) or cancelled (the
    // draft is as it was, and the pause starts now).
    if (!m_timer.isActive() && m_builder && m_engine->isEnabled(Strategy::Debounce))
        startPause(m_pending);
}

void DebounceStrategy::onPause()
{
    if (m_composing)
        return; // still typing, in the input method
    const Settings::Debounce &s = m_engine->settings().debounce;
    const QString draft = m_pending;
    // With shortFollowUps off the conversation says nothing: the draft is judged alone.
    const DraftContext context = s.shortFollowUps ? m_context : DraftContext{};
    const qsizetype chars = draft.trimmed().size();
    if (chars < s.minChars && !(context.afterAnswer && chars >= 2))
        return;
    if (m_session && normalizeDraft(draft) == normalizeDraft(m_draft))
        return; // already answering this one
    if (suggestionContinues(draft))
        return; // the suggestion being typed: its answer is on its way
    // The small-model classifier is a request too: while speculation is suspended (the app is
    // closing, the connection is metered) it would only cost what the pause is meant to save.
    if (m_engine->isSpeculationSuspended())
        return;
    const quint64 generation = m_generation;
    m_classifier->classify(draft, context, this, [this, draft, generation](double confidence) {
        if (generation == m_generation)
            onClassified(draft, confidence);
    });
}

void DebounceStrategy::onClassified(const QString &draft, double confidence)
{
    if (!m_builder)
        return;
    // A draft still being written gets its context warmed; a finished-looking one its answer,
    // which carries the same context: warming it beside would pay its prefill twice (the two
    // are read at once, neither from the other's cache).
    if (confidence < m_engine->settings().debounce.minConfidence) {
        warmContext(draft);
        return;
    }
    cancelSession();
    const RenderedRequest prepared = m_builder(draft.trimmed());
    m_session = m_engine->prefetch(Strategy::Debounce, prepared, m_engine->settings().debounce.ttl);
    if (!m_session)
        return;
    m_draft = draft;
    emit prefetchStarted(draft, confidence);
}

void DebounceStrategy::draftCompleted(const QString &draft)
{
    if (!m_engine->isEnabled(Strategy::Debounce) || !m_builder || m_composing || draft.trimmed().isEmpty())
        return;
    if (m_engine->isSpeculationSuspended())
        return;
    m_timer.stop(); // the pause would only ask again what is known now
    ++m_generation; // and a classifier's answer about the draft before it is stale
    m_pending = draft;
    m_pendingAtEnd = true;
    if (m_session && isPrefetching() && normalizeDraft(draft) == normalizeDraft(m_draft))
        return; // already answering it (a suggestion, typed and completed)
    onClassified(draft, 1.0);
}

void DebounceStrategy::suggest(const QString &text)
{
    const QString suggestion = text.trimmed();
    if (suggestion.isEmpty() || !m_builder || !m_context.afterAnswer || !m_pending.trimmed().isEmpty())
        return;
    if (!m_engine->isEnabled(Strategy::Debounce) || m_engine->isSpeculationSuspended())
        return;
    if (m_session && m_session->isLive() && normalizeDraft(m_draft) == normalizeDraft(suggestion))
        return; // already guessed
    cancelSession();
    // Weak: the user has pressed no key yet. Nothing but the answer's first words is asked for,
    // and only where the provider can continue them; a click or the same message typed streams
    // the rest.
    m_session = m_engine->prefetch(Strategy::Debounce, m_builder(suggestion), m_engine->settings().debounce.followUpTtl,
                                   SignalStrength::Weak);
    if (!m_session)
        return;
    m_draft = suggestion;
    m_suggested = true;
}

bool DebounceStrategy::suggestionContinues(const QString &draft) const
{
    // Not once it has ended (Stop, its time to live): the draft is then judged as any other.
    return m_suggested && isPrefetching() && normalizeDraft(m_draft).startsWith(normalizeDraft(draft));
}

AnswerReader *DebounceStrategy::send(const QString &text, qint64 activatedNs, QObject *owner,
                                     ResponseCache::Lookup *nearDraft)
{
    m_timer.stop();
    ++m_generation;
    m_pending.clear(); // sent: no draft is being written until the next key
    m_pendingAtEnd = true;
    m_composing = false;
    const bool warmed = countWarmContext(text);
    // The answer a context warm-up served is what its cost is set against, as a document's
    // warm-up is set against the answers on the document (WarmupStrategy): without it, every
    // warm-up of passages would read as waste and pause the warm-up strategy after 20 of them.
    const auto credit = [this, warmed](AnswerReader *handle) {
        if (warmed && handle && !handle->isFromCache()) {
            connect(handle, &AnswerReader::finished, this,
                    [this, handle] { m_engine->recorder().warmedAnswerEnded(handle->usage()); });
        }
        return handle;
    };
    const RenderedRequest asked = m_builder ? m_builder(text.trimmed()) : RenderedRequest{};
    QPointer<PrefetchSession> session = m_session;
    const QString draft = m_draft;
    m_session = nullptr;
    m_draft.clear();
    m_suggested = false;
    if (AnswerReader *cached = m_engine->answerFromCache(Strategy::Debounce, asked, activatedNs, owner, nearDraft)) {
        if (session)
            m_engine->cancel(session);
        return cached;
    }
    if (!session)
        return credit(m_engine->requestLive(Strategy::Debounce, asked, activatedNs, owner));

    const double threshold = m_engine->settings().debounce.similarityThreshold;
    const QString sent = normalizeDraft(text);
    const QString guessed = normalizeDraft(draft);
    const bool same = sent == guessed || (threshold > 0 && draftSimilarity(sent, guessed) >= threshold);
    if (same && session) {
        // The same message in other words (spacing, a final "?"): the draft's answer is the
        // answer, provided the conversation around it is still the one it was made for.
        // Rendered again only when the words differ: the request is the costliest part of
        // Enter (in library mode it runs a retrieval query).
        const RenderedRequest forDraft = draft.trimmed() == text.trimmed() ? asked : m_builder(draft.trimmed());
        if (!forDraft.fingerprint.isEmpty() && forDraft.fingerprint == session->fingerprint())
            return credit(m_engine->consume(session, forDraft, activatedNs, owner));
    }
    return credit(m_engine->consume(session, asked, activatedNs, owner));
}

void DebounceStrategy::warmContext(const QString &draft)
{
    if (!m_warmer || !m_engine->settings().debounce.warmContext)
        return;
    // Anthropic caches only up to a request's cache_control breakpoints, and the message has none
    // after its passages: a warm-up would write a cache entry the answer never reads.
    if (m_engine->profile().format == Llm::ApiFormat::AnthropicMessages)
        return;
    // One at a time: it shares the prefetch lane with the answer a complete draft starts, and
    // a newer draft's context would be sent beside a warm-up still being read.
    if (m_warmSession && m_warmSession->isLive())
        return;
    const RenderedRequest warm = m_warmer(draft.trimmed());
    if (warm.fingerprint.isEmpty() || warm.fingerprint == m_warmedFingerprint)
        return; // nothing to warm, or warmed at an earlier pause
    if (warm.estimatedPromptTokens < m_engine->profile().minCacheableTokens)
        return;
    // A warm-up lives as long as it takes to send; its effect lives in the provider's cache.
    m_warmSession = m_engine->prefetch(Strategy::Warmup, warm, std::chrono::minutes(2));
    if (!m_warmSession)
        return; // warm-up off, the budget or the lane refused it
    m_warmedFingerprint = warm.fingerprint;
    m_warmAwaitsSend = true;
}

bool DebounceStrategy::countWarmContext(const QString &sent)
{
    if (!m_warmAwaitsSend || !m_warmer)
        return false;
    m_warmAwaitsSend = false;
    // A hit when the message went with the context warmed last (its passages: the terms of the
    // draft then and of the message now found the same ones), a miss when it went with another.
    const bool same = m_warmer(sent.trimmed()).fingerprint == m_warmedFingerprint;
    m_engine->recorder().contextWarmupUsed(same);
    return same;
}

void DebounceStrategy::cancelSession()
{
    if (m_session)
        m_engine->cancel(m_session);
    m_session = nullptr;
    m_draft.clear();
    m_suggested = false;
}

} // namespace Prefetch
