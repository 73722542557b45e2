#include "debouncestrategy.h"

#include "classifier.h"
#include "engine.h"
#include "prefetchsession.h"

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

void DebounceStrategy::setBuilder(Builder builder, const QObject *owner)
{
    cancelSession();
    m_builder = std::move(builder);
    m_builderOwner = m_builder ? owner : nullptr;
}

bool DebounceStrategy::isPrefetching() const
{
    return m_session && m_session->isLive();
}

void DebounceStrategy::textChanged(const QString &draft)
{
    ++m_generation;
    m_pending = draft;
    // Typing on after a pause: the answer being prefetched is for a draft that no longer is.
    if (m_session && normalizeDraft(draft) != normalizeDraft(m_draft))
        cancelSession();
    if (!m_engine->isEnabled(Strategy::Debounce) || !m_builder) {
        m_timer.stop();
        return;
    }
    const Settings::Debounce &settings = m_engine->settings().debounce;
    m_timer.start(endsSentence(draft) ? std::min(settings.sentenceEndDelay, settings.delay) : settings.delay);
}

void DebounceStrategy::onPause()
{
    const Settings::Debounce &s = m_engine->settings().debounce;
    const QString draft = m_pending;
    if (draft.trimmed().size() < s.minChars)
        return;
    if (m_session && normalizeDraft(draft) == normalizeDraft(m_draft))
        return; // already answering this one
    // The small-model classifier is a request too: while speculation is suspended (the app is
    // closing, the connection is metered) it would only cost what the pause is meant to save.
    if (m_engine->isSpeculationSuspended())
        return;
    const quint64 generation = m_generation;
    m_classifier->classify(draft, this, [this, draft, generation](double confidence) {
        if (generation == m_generation)
            onClassified(draft, confidence);
    });
}

void DebounceStrategy::onClassified(const QString &draft, double confidence)
{
    if (confidence < m_engine->settings().debounce.minConfidence || !m_builder)
        return;
    cancelSession();
    const RenderedRequest prepared = m_builder(draft.trimmed());
    m_session = m_engine->prefetch(Strategy::Debounce, prepared, m_engine->settings().debounce.ttl);
    if (!m_session)
        return;
    m_draft = draft;
    emit prefetchStarted(draft, confidence);
}

ResponseStream *DebounceStrategy::send(const QString &text, qint64 activatedNs, QObject *owner)
{
    m_timer.stop();
    ++m_generation;
    const RenderedRequest asked = m_builder ? m_builder(text.trimmed()) : RenderedRequest{};
    QPointer<PrefetchSession> session = m_session;
    const QString draft = m_draft;
    m_session = nullptr;
    m_draft.clear();
    if (!session)
        return m_engine->request(Strategy::Debounce, asked, activatedNs, owner);

    const double threshold = m_engine->settings().debounce.similarityThreshold;
    const QString sent = normalizeDraft(text);
    const QString guessed = normalizeDraft(draft);
    const bool same = sent == guessed || (threshold > 0 && draftSimilarity(sent, guessed) >= threshold);
    if (same && session) {
        // The same message in other words (spacing, a final "?"): the draft's answer is the
        // answer, provided the conversation around it is still the one it was made for.
        const RenderedRequest forDraft = m_builder(draft.trimmed());
        if (!forDraft.fingerprint.isEmpty() && forDraft.fingerprint == session->fingerprint())
            return m_engine->consume(session, forDraft, activatedNs, owner);
    }
    return m_engine->consume(session, asked, activatedNs, owner);
}

void DebounceStrategy::cancelSession()
{
    if (m_session)
        m_engine->cancel(m_session);
    m_session = nullptr;
    m_draft.clear();
}

} // namespace Prefetch
