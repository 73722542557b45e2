#include "engine.h"

#include "log.h"
#include "prefetch/prompts/prompttemplate.h"
#include "prefetch/stream/answerfetch.h"
#include "prefetch/stream/answerreader.h"
#include "prefetch/stream/eventbuffer.h"
#include "prefetchsession.h"

#include "llm/clock.h"
#include "llm/keyring.h"

#include <QJsonArray>

#include <algorithm>
#include <cmath>

#include <spdlog/spdlog.h>

namespace Prefetch {

namespace {

double msBetween(qint64 fromNs, qint64 toNs)
{
    return double(toNs - fromNs) / 1e6;
}

} // namespace

Engine::Engine(QNetworkAccessManager *network, Llm::ProviderProfile profile, Settings settings, QObject *parent)
    : QObject(parent)
    , m_network(network)
    , m_profile(std::move(profile))
    , m_settings(settings)
    , m_metrics(settings)
    , m_recorder(m_metrics)
    , m_accounting(m_recorder, settings)
    , m_sides(network, m_profile, m_accounting, m_recorder)
    , m_lanes(m_settings, m_profile, m_sides, m_recorder,
              [this](Strategy strategy, const RenderedRequest &request) { return makeAnswer(strategy, request, true); })
{
    m_recorder.bill().setProfile(m_profile);
    m_recorder.bill().setBound(m_settings.extraCostResume);
    connect(&m_rateLimit, &RateLimitBackoff::activeChanged, this, [this](bool active) {
        if (active)
            log().info("{} is rate-limiting: no guesses for {} s (the user's requests still go)",
                       m_profile.id.toStdString(), qint64(m_rateLimit.remaining().count() / 1000));
        setSpeculationSuspended(Suspension::RateLimited, active);
    });
}

Engine::~Engine()
{
    // Sessions and their streams are children; destroying them closes the connections. Only
    // make sure no session reports back into a half-destroyed engine.
    for (const QPointer<PrefetchSession> &s : m_lanes.sessions()) {
        if (s)
            disconnect(s, nullptr, this, nullptr);
    }
}

void Engine::setProfile(Llm::ProviderProfile profile)
{
    stopAll();
    m_profile = std::move(profile);
    m_keyKnown = true;
    m_rateLimit.clear(); // another provider's limit, or the same one's with another key
    m_tooLong.clear();
    m_recorder.bill().setProfile(m_profile); // other prices and cache rules: counted afresh
}

void Engine::setSettings(const Settings &settings)
{
    m_settings = settings;
    m_metrics.setSettings(settings);
    m_accounting.setSettings(settings);
    m_recorder.bill().setBound(settings.extraCostResume);
    for (Strategy s : AllStrategies) {
        if (isEnabled(s))
            continue;
        for (const QPointer<PrefetchSession> &session : m_lanes.sessions()) {
            if (session && session->strategy() == s)
                cancel(session);
        }
    }
    pump();
}

bool Engine::isEnabled(Strategy strategy) const
{
    switch (strategy) {
    case Strategy::Warmup: return m_settings.warmup.enabled;
    case Strategy::Hover: return m_settings.hover.enabled;
    case Strategy::Debounce: return m_settings.debounce.enabled;
    case Strategy::Workflow: return m_settings.workflow.enabled;
    case Strategy::Trajectory: return m_settings.trajectory.enabled;
    case Strategy::Selection: return m_settings.selection.enabled;
    case Strategy::Keyboard: return m_settings.keyboard.enabled;
    case Strategy::Reading: return m_settings.reading.enabled;
    case Strategy::Habits: return m_settings.habits.enabled;
    case Strategy::None: return false;
    }
    return false;
}

RenderedRequest Engine::render(const Llm::ChatRequest &request) const
{
    Llm::ChatRequest r = request;
    if (r.model.isEmpty())
        r.model = m_profile.model;
    if (auto rendered = renderRequest(m_profile, r))
        return *rendered;
    RenderedRequest unencoded;
    unencoded.request = std::move(r);
    return unencoded;
}

AnswerFetch *Engine::makeAnswer(Strategy strategy, const RenderedRequest &request, bool speculative)
{
    auto *answer = new AnswerFetch(m_network, m_profile, request, speculative);
    // Only while it is wanted: a prefetch is never retried (AnswerFetch checks), but one the
    // user takes over before its first token is.
    answer->setRetryPolicy(m_settings.retry);
    answer->setIdleTimeout(m_settings.streamIdleTimeout);
    answer->setTimeLimit(m_settings.requestTimeLimit);
    answer->setPurpose(speculative || strategy == Strategy::Warmup ? QByteArray(strategyId(strategy))
                                                                   : QByteArrayLiteral("foreground"));
    connect(answer, &AnswerFetch::continuationRefused, this, [this] {
        if (m_continuationRefused)
            return;
        log().warn("{} refused to continue an answer: speculating on strong signals only, with whole answers",
                   m_profile.id.toStdString());
        m_continuationRefused = true;
        emit featureRefused(Llm::RefusedFeature::Continuation, m_profile.model);
    });
    // A 429, final or retried after a wait: the account's limit is full, and a guess now would
    // take a place the user's next request needs. Another key of the ring that was free is
    // not a 429 here (AnswerFetch switched without one).
    const auto onRefused = [this](const Llm::Error &error) {
        if (error.code() == Llm::Error::Code::RateLimited)
            m_rateLimit.rateLimited(error.retryAfter());
    };
    connect(answer, &AnswerFetch::failed, this, onRefused);
    // Too long for the model: a guess as long would only be uploaded and refused again.
    connect(answer, &AnswerFetch::failed, this, [this, model = request.request.model,
                                                 tokens = estimatePromptTokens(request.request)](const Llm::Error &error) {
        if (error.code() != Llm::Error::Code::ContextTooLong)
            return;
        const auto known = m_tooLong.constFind(model);
        if (known != m_tooLong.cend() && *known <= tokens)
            return;
        m_tooLong.insert(model, tokens);
        log().warn("{} refused a prompt of about {} tokens as too long for {}: nothing as long is sent early",
                   m_profile.id.toStdString(), tokens, model.toStdString());
        emit promptTooLong(model, tokens);
    });
    connect(answer, &AnswerFetch::retrying, this, onRefused);
    connect(answer, &AnswerFetch::finished, &m_rateLimit, &RateLimitBackoff::succeeded);
    connect(answer, &AnswerFetch::featureRefused, this, [this](Llm::RefusedFeature feature, const QString &model) {
        const bool fast = m_profile.hasDistinctFastModel() && model == m_profile.fastModel
                          && m_profile.fastEncodeOptions;
        Llm::withoutFeature(fast ? *m_profile.fastEncodeOptions : m_profile.encodeOptions, feature);
        emit featureRefused(feature, model);
    });
    return answer;
}

bool Engine::hasKey() const
{
    return m_keyKnown && (!m_profile.needsApiKey() || !Llm::KeyRing::keysOf(m_profile).isEmpty());
}

bool Engine::canContinue() const
{
    return m_profile.canContinue() && !m_continuationRefused;
}

std::optional<qint64> Engine::refusedPromptTokens(const QString &model) const
{
    const auto known = m_tooLong.constFind(model.isEmpty() ? m_profile.model : model);
    return known == m_tooLong.cend() ? std::nullopt : std::optional(*known);
}

int Engine::speculativeLimit(SignalStrength strength, const Llm::ChatRequest &request) const
{
    const int whole = std::max(1, request.maxTokens);
    const bool continues = canContinue() && request.choiceCount == 1;
    if (strength == SignalStrength::Weak)
        return continues ? std::min(whole, std::max(1, m_settings.speculation.prefixTokens)) : 0;
    // A strong signal: the buffer's worth, continued at the click. Without a continuation the
    // whole answer, bounded by cancel-on-miss and the TTL.
    return continues ? std::min(whole, std::max(1, m_settings.bufferTokens)) : whole;
}

// --- foreground ------------------------------------------------------------------------------

AnswerReader *Engine::request(Strategy origin, const RenderedRequest &request, qint64 activatedNs, QObject *owner)
{
    if (AnswerReader *cached = answerFromCache(origin, request, activatedNs, owner))
        return cached;
    return requestLive(origin, request, activatedNs, owner);
}

AnswerReader *Engine::requestLive(Strategy origin, const RenderedRequest &request, qint64 activatedNs, QObject *owner)
{
    // Another strategy may be guessing this very answer (a prefix on a weak signal): take it.
    PrefetchSession *guessed = liveSession(request.fingerprint);
    if (guessed && guessed->state() != PrefetchSession::State::Pending)
        return consume(guessed, request, activatedNs, owner, origin);
    return startForeground(origin, request, activatedNs, owner, false);
}

AnswerReader *Engine::requestFresh(Strategy origin, const RenderedRequest &request, qint64 activatedNs, QObject *owner)
{
    return startForeground(origin, request, activatedNs, owner, false);
}

AnswerReader *Engine::startForeground(Strategy strategy, const RenderedRequest &request, qint64 activatedNs,
                                      QObject *owner, bool afterMiss)
{
    AnswerFetch *answer = makeAnswer(strategy, request, false);
    auto *handle = new AnswerReader(strategy, AnswerReader::Origin::Fresh, answer, {}, activatedNs, owner);
    track(handle, afterMiss);
    m_lanes.startForeground(answer);
    return handle;
}

void Engine::track(AnswerReader *handle, bool afterMiss)
{
    m_lanes.track(handle);
    const Strategy strategy = handle->strategy();
    const LatencyKind kind = handle->isPrefetched() ? LatencyKind::Hit
                             : afterMiss            ? LatencyKind::Miss
                                                    : LatencyKind::NoPrefetch;
    // Shown, not delivered: a view reports when it painted the first piece (see AnswerReader).
    // With a fast model apart from the main one, each answer also counts for the model it asked.
    const AnswerFetch *asked = handle->answer();
    const std::optional<bool> fastModel = asked && m_profile.hasDistinctFastModel() ? std::optional<bool>(
                                              asked->request().request.model == m_profile.fastModel)
                                                                                    : std::nullopt;
    connect(handle, &AnswerReader::firstContentShown, this,
            [this, strategy, kind, fastModel](double ms) { m_recorder.answerShown(strategy, kind, ms, fastModel); });
    auto onEnd = [this, handle, strategy] {
        const AnswerFetch *answer = handle->answer();
        // What the provider bills for the answer, every part of it (estimated for a part cut
        // before its usage arrived).
        const Llm::Usage usage = answer ? answer->usage() : handle->usage();
        m_recorder.answerEnded(strategy, handle, usage,
                               answer ? answer->costOf(usage, m_profile) : m_profile.prices.cost(usage));
        if (answer)
            emit responseEnded(strategy, answer->request().request, usage);
        // A whole answer is kept for the next time the same request comes: finished, not cut at
        // the token limit (a continuation is another answer), not failed nor cancelled.
        // Not one the fast model began: served again, its opening would pass for the main model's.
        if (answer && !handle->error() && handle->finishReason() == Llm::FinishReason::Stop
            && answer->request().request.continuation.isEmpty() && answer->startedNs() >= 0
            && answer->openingModel().isEmpty())
            // What it took from when it was asked (a guess may have waited long for its click):
            // the time a later hit saves.
            m_cached.store(m_profile.id, answer->request().request, answer->request().fingerprint, handle->text(),
                           msBetween(std::max(answer->startedNs(), handle->activatedNs()), Llm::monotonicNowNs()));
        // The slot is free: queued answers and prefetches may go.
        QMetaObject::invokeMethod(this, &Engine::pump, Qt::QueuedConnection);
        emit answersChanged();
    };
    connect(handle, &AnswerReader::finished, this, onEnd);
    connect(handle, &AnswerReader::failed, this, onEnd);
    // An owner may delete an answer that never ended; queued, so the pointer is null by then.
    connect(handle, &QObject::destroyed, this, &Engine::answersChanged, Qt::QueuedConnection);
    emit answersChanged();
}

// --- prefetch --------------------------------------------------------------------------------

PrefetchSession *Engine::prefetch(Strategy strategy, const RenderedRequest &request, std::chrono::milliseconds ttl,
                                  SignalStrength strength)
{
    if (!isEnabled(strategy) || m_metrics.isDegraded(strategy) || isSpeculationSuspended())
        return nullptr;
    if (request.fingerprint.isEmpty() || request.body.isEmpty()) {
        log().debug("not prefetching a {} request without a fingerprint or body", strategyId(strategy));
        return nullptr;
    }
    // A provider that needs a key before its key is known (the keychain answers after the
    // window opens, or there is none): a guess would only earn a 401 (docs/prefetch.md).
    if (!hasKey()) {
        log().debug("not prefetching a {} request: no API key for {} yet", strategyId(strategy),
                    m_profile.id.toStdString());
        return nullptr;
    }
    // The answer is in the response cache: the click will be given it, nothing to guess.
    if (hasCachedAnswer(request))
        return nullptr;
    // The provider said a prompt this long does not fit the model.
    const qint64 prompt = estimatePromptTokens(request.request);
    if (const auto refused = refusedPromptTokens(request.request.model); refused && prompt >= *refused) {
        log().debug("not prefetching a {} request of about {} tokens: {} refused {} as too long",
                    strategyId(strategy), prompt, m_profile.id.toStdString(), *refused);
        return nullptr;
    }
    // The same answer guessed already (by a weaker signal): this signal makes it likelier.
    if (PrefetchSession *guessed = liveSession(request.fingerprint)) {
        upgrade(guessed, strength);
        return guessed;
    }
    // A warm-up asks for its one token, whatever the signal.
    const int weakLimit = speculativeLimit(SignalStrength::Weak, request.request);
    if (strategy != Strategy::Warmup && strength == SignalStrength::Weak && weakLimit <= 0)
        return nullptr; // a weak signal, and the provider cannot continue a prefix
    // A weak guess asks for what a strong signal would (the buffer's worth) and keeps only its
    // short prefix unless the hover, the focus or the click comes while it streams: then it
    // flows on with no continuation to wait for (a click before a short prefix's end otherwise
    // waits a continuation's whole time to first token: ~0.7 s on hosted, the replay's stall).
    // What it asks bounds its cost at the provider; what it keeps is what a provider that stops
    // on a closed connection bills (docs/providers.md).
    const int limit = strategy == Strategy::Warmup ? std::max(1, request.request.maxTokens)
                                                   : speculativeLimit(SignalStrength::Strong, request.request);
    const int keep = strategy != Strategy::Warmup && strength == SignalStrength::Weak && weakLimit < limit ? weakLimit
                                                                                                           : 0;
    const bool strong = strength == SignalStrength::Strong;
    const bool slotFree = m_lanes.hasPrefetchSlot(strategy, strong);
    if (!slotFree && m_lanes.isPrefetchQueueFull()) {
        m_recorder.guessRefused(strategy, Outcome::RejectedLane);
        return nullptr;
    }
    // What the provider bills for it if never used: its prompt and the tokens it asks for (a
    // whole answer is read up to the buffer cap, but generated to the end: the bill is the end).
    const Llm::Prices &prices = pricesFor(request.request);
    const auto reservation = m_accounting.reserve(prompt + limit, prices, prices.worstCase(prompt, limit));
    if (!reservation) {
        m_recorder.guessRefused(strategy, Outcome::RejectedBudget);
        return nullptr;
    }
    auto *session = new PrefetchSession(strategy, request.request, request.fingerprint, ttl, m_settings.bufferTokens,
                                        strong, this);
    m_accounting.hold(session, *reservation);
    m_lanes.add(session);
    m_recorder.guessStarted(strategy);
    connect(session, &PrefetchSession::ended, this, [this, session] { onSessionEnded(session); });
    if (strategy == Strategy::Warmup) {
        // Nobody consumes a warm-up; once complete it has done its work.
        connect(session, &PrefetchSession::stateChanged, this, [this, session](PrefetchSession::State state) {
            if (state == PrefetchSession::State::Complete)
                QMetaObject::invokeMethod(
                    this, [this, session] { onSessionEnded(session); }, Qt::QueuedConnection);
        });
    }
    if (slotFree)
        m_lanes.startSession(session, Lanes::Queued{request, limit, keep});
    else
        m_lanes.queue(session, Lanes::Queued{request, limit, keep});
    emit sessionsChanged();
    return session;
}

AnswerReader *Engine::consume(PrefetchSession *session, const RenderedRequest &request, qint64 activatedNs,
                              QObject *owner, Strategy strategy)
{
    if (session)
        strategy = session->strategy();
    // An empty fingerprint says nothing about what was asked: it matches nothing, not even
    // another empty one (a session never has one; see prefetch()).
    const bool usable = session && m_lanes.contains(session)
                        && (session->state() == PrefetchSession::State::Streaming
                            || session->state() == PrefetchSession::State::Complete)
                        && !request.fingerprint.isEmpty() && session->fingerprint() == request.fingerprint;
    if (!usable) {
        if (session && session->isLive()) {
            m_recorder.guessMissed(strategy); // the context changed under it
            session->finish(PrefetchSession::State::Cancelled);
        } else if (session) {
            // Expired or failed already (and counted then); the activation is still a miss.
            m_recorder.guessMissed(strategy);
        }
        return startForeground(strategy, request, activatedNs, owner, session != nullptr);
    }

    const qint64 started = session->startedNs();
    const qint64 first = session->firstTokenNs();
    const bool partial = first < 0;
    // What the user did not have to wait: the head start, or the whole provider TTFT if the
    // first token was already in when they asked.
    m_recorder.guessTakenOver(strategy, partial,
                              msBetween(started, partial ? activatedNs : std::min(first, activatedNs)));
    settle(session, false);
    m_lanes.remove(session); // before consume(): its `ended` must not settle it twice
    AnswerReader *handle = session->consume(activatedNs, owner);
    track(handle, false);
    // The user asked: the rest of the answer comes now (a prefix's continuation).
    if (AnswerFetch *answer = const_cast<AnswerFetch *>(handle->answer()))
        answer->extend(answer->request().request.maxTokens, false);
    session->deleteLater();
    emit sessionsChanged();
    return handle;
}

void Engine::cancel(PrefetchSession *session)
{
    if (!session || !session->isLive())
        return;
    m_recorder.guessCancelled(session->strategy());
    session->finish(PrefetchSession::State::Cancelled);
}

void Engine::setSpeculationSuspended(Suspension reason, bool suspended)
{
    const bool was = isSpeculationSuspended();
    const Suspensions before = m_suspensions;
    m_suspensions.setFlag(reason, suspended);
    if (!was && isSpeculationSuspended())
        cancelAllPrefetches();
    if (m_suspensions != before)
        emit suspensionsChanged();
}

void Engine::cancelAllPrefetches()
{
    for (const QPointer<PrefetchSession> &s : m_lanes.sessions())
        cancel(s);
    m_sides.cancelAll();
}

void Engine::stopAll()
{
    stop(nullptr);
}

void Engine::stop(const QObject *scope)
{
    cancelAllPrefetches();
    m_lanes.stopAnswers(scope);
}

void Engine::onSessionEnded(PrefetchSession *session)
{
    if (!m_lanes.contains(session))
        return; // consumed: settled in consume()
    m_recorder.guessEnded(session->strategy(), session->state());
    settle(session, true);
    m_lanes.remove(session);
    session->deleteLater();
    emit sessionsChanged();
    QMetaObject::invokeMethod(this, &Engine::pump, Qt::QueuedConnection);
}

void Engine::settle(PrefetchSession *session, bool wasted)
{
    m_accounting.settle(session, m_profile, wasted);
}

void Engine::upgrade(PrefetchSession *session, SignalStrength strength)
{
    if (!session || !m_lanes.contains(session) || !session->isLive())
        return;
    if (strength == SignalStrength::Weak)
        return; // guessed again: it stays the guess it is, keeping its short prefix
    const int limit = speculativeLimit(strength, session->request());
    if (session->state() == PrefetchSession::State::Pending) {
        Lanes::Queued &queued = m_lanes.queued(session);
        queued.limit = std::max(queued.limit, limit);
        if (strength == SignalStrength::Strong)
            queued.keep = 0;
        session->upgrade(limit, strength == SignalStrength::Strong); // not started: only its strength
        return;
    }
    session->upgrade(limit, strength == SignalStrength::Strong);
}

// --- side requests ---------------------------------------------------------------------------

Llm::ProviderRequest *Engine::startSideRequest(const Llm::ChatRequest &request, QObject *context, SidePurpose purpose)
{
    if (isSpeculationSuspended() || !hasKey())
        return nullptr;
    // Never queued: by the time a slot frees up the typing pause it was asked for is over.
    if (m_lanes.providerInFlight() >= std::max(1, m_profile.concurrencyLimit)) {
        m_sides.refuse(purpose);
        return nullptr;
    }
    return m_sides.start(request, context, purpose);
}

void Engine::endSideRequest(Llm::ProviderRequest *stream, Metrics::SideEnd end)
{
    if (m_sides.end(stream, end))
        pump(); // its slot is free
}

// --- the response cache ----------------------------------------------------------------------
// An exact repeat is served from what was stored, nothing sent (track() stores whole answers as
// they end); a chat question near one answered is served, or drafted while the live answer comes.

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
    auto *handle = new AnswerReader(strategy, AnswerReader::Origin::Cached, nullptr, std::move(events), activatedNs,
                                    owner);
    // Perceived latency of what the user saw, as for any answer; nothing was sent or billed.
    connect(handle, &AnswerReader::firstContentShown, this,
            [this, strategy](double ms) { m_recorder.answerShown(strategy, LatencyKind::NoPrefetch, ms); });
    return handle;
}

// --- what it reports -------------------------------------------------------------------------

namespace {

QJsonObject billSnapshot(const BillEstimate &bill)
{
    return QJsonObject{{QStringLiteral("billed"), bill.billed()},
                       {QStringLiteral("without"), bill.without()},
                       {QStringLiteral("extraShare"), bill.extraShare()},
                       {QStringLiteral("answers"), bill.answers()},
                       {QStringLiteral("over"), bill.isOver()}};
}

} // namespace

QJsonObject Engine::snapshot() const
{
    // The keys: docs/prefetch.md, "Snapshot keys".
    QJsonArray sessions;
    for (PrefetchSession *s : liveSessions()) {
        sessions.append(QJsonObject{
            {QStringLiteral("strategy"), QString::fromLatin1(strategyId(s->strategy()))},
            {QStringLiteral("state"), QString::fromLatin1(PrefetchSession::stateName(s->state()))},
            {QStringLiteral("buffered_tokens"), qint64(s->bufferedTokens())},
            {QStringLiteral("paused_at_cap"), s->isPausedAtCap()},
        });
    }
    return QJsonObject{
        {QStringLiteral("provider"), m_profile.id},    {QStringLiteral("metrics"), m_metrics.snapshot()},
        {QStringLiteral("lanes"), m_lanes.snapshot()}, {QStringLiteral("budget"), m_accounting.snapshot()},
        {QStringLiteral("sessions"), sessions},        {QStringLiteral("responseCache"), m_cached.snapshot()},
        {QStringLiteral("bill"), billSnapshot(m_recorder.bill())},
    };
}

} // namespace Prefetch
