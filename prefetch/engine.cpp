#include "engine.h"

#include "answerfetch.h"
#include "log.h"
#include "prefetchsession.h"
#include "prompttemplate.h"
#include "answerreader.h"

#include "llm/clock.h"
#include "llm/keyring.h"


#include <algorithm>
#include <cmath>

#include <spdlog/spdlog.h>

namespace Prefetch {

namespace {

// A null scope holds everything.
bool isWithin(const QObject *object, const QObject *scope)
{
    if (!scope)
        return true;
    for (; object; object = object->parent()) {
        if (object == scope)
            return true;
    }
    return false;
}

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
    , m_budget(settings.hourlyTokenBudget)
    , m_moneyBudget(microUnits(settings.hourlyMoneyBudget))
{
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
    for (const QPointer<PrefetchSession> &s : std::as_const(m_sessions)) {
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
}

void Engine::setSettings(const Settings &settings)
{
    m_settings = settings;
    m_metrics.setSettings(settings);
    m_budget.setLimit(settings.hourlyTokenBudget);
    m_moneyBudget.setLimit(microUnits(settings.hourlyMoneyBudget));
    for (Strategy s : AllStrategies) {
        if (isEnabled(s))
            continue;
        for (const QPointer<PrefetchSession> &session : QList(m_sessions)) {
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
    connect(answer, &AnswerFetch::retrying, this, onRefused);
    connect(answer, &AnswerFetch::finished, &m_rateLimit, &RateLimitBackoff::succeeded);
    connect(answer, &AnswerFetch::featureRefused, this, [this](Llm::RefusedFeature feature, const QString &model) {
        const bool fast = m_profile.hasDistinctFastModel() && model == m_profile.fastModel && m_profile.fastEncodeOptions;
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

int Engine::foregroundInFlight() const
{
    int n = 0;
    for (const QPointer<AnswerReader> &h : m_handles) {
        if (!h || h->isDone())
            continue;
        const AnswerFetch *answer = h->answer();
        if (answer && answer->isStarted() && !answer->isDone() && !answer->isWaitingForLimit())
            ++n;
    }
    return n;
}

bool Engine::canStartForeground() const
{
    return foregroundInFlight() < m_settings.foregroundInFlight
        && providerInFlight() < std::max(1, m_profile.concurrencyLimit);
}

bool Engine::makeRoomForForeground()
{
    // Foreground never waits for a prefetch: the oldest running one gives up its slot.
    while (foregroundInFlight() < m_settings.foregroundInFlight
           && providerInFlight() >= std::max(1, m_profile.concurrencyLimit)) {
        PrefetchSession *oldest = nullptr;
        for (const QPointer<PrefetchSession> &s : std::as_const(m_sessions)) {
            if (s && s->state() == PrefetchSession::State::Streaming) {
                oldest = s;
                break;
            }
        }
        if (!oldest) {
            if (m_sides.isEmpty())
                break;
            // The classifier's question gives way too: the heuristic answers it instead.
            cancelSide(m_sides.begin().key());
            continue;
        }
        log().debug("preempting a {} prefetch for a foreground request", strategyId(oldest->strategy()));
        m_metrics.recordOutcome(oldest->strategy(), Outcome::Preempted);
        oldest->finish(PrefetchSession::State::Cancelled);
    }
    return canStartForeground();
}

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
    if (makeRoomForForeground())
        answer->start(answer->request().request.maxTokens);
    else
        m_foregroundQueue.append(answer); // the provider's limit is taken by other answers
    return handle;
}

void Engine::track(AnswerReader *handle, bool afterMiss)
{
    m_handles.removeIf([](const QPointer<AnswerReader> &h) { return !h || h->isDone(); });
    m_handles.append(handle);
    const Strategy strategy = handle->strategy();
    const LatencyKind kind = handle->isPrefetched() ? LatencyKind::Hit
        : afterMiss                                 ? LatencyKind::Miss
                                                    : LatencyKind::NoPrefetch;
    // Shown, not delivered: a view reports when it painted the first piece (see AnswerReader).
    // With a fast model apart from the main one, each answer also counts for the model it asked.
    const AnswerFetch *asked = handle->answer();
    const std::optional<bool> fastModel = asked && m_profile.hasDistinctFastModel()
        ? std::optional<bool>(asked->request().request.model == m_profile.fastModel)
        : std::nullopt;
    connect(handle, &AnswerReader::firstContentShown, this, [this, strategy, kind, fastModel](double ms) {
        m_metrics.recordPerceivedLatency(strategy, kind, ms);
        if (fastModel)
            m_metrics.recordModelAnswer(*fastModel, ms);
    });
    auto onEnd = [this, handle, strategy] {
        const AnswerFetch *answer = handle->answer();
        // What the provider bills for the answer, every part of it (estimated for a part cut
        // before its usage arrived).
        const Llm::Usage usage = answer ? answer->usage() : handle->usage();
        if (answer && answer->firstTokenNs() >= 0 && answer->startedNs() >= 0)
            m_metrics.recordTtft(strategy, msBetween(answer->startedNs(), answer->firstTokenNs()));
        const qint64 used = std::max<qint64>(0, usage.inputTokens) + std::max<qint64>(0, usage.outputTokens);
        m_metrics.recordTokens(strategy, 0, used, 0);
        m_metrics.recordCost(strategy, 0, answer ? pricesFor(answer->request().request).cost(usage)
                                                 : m_profile.prices.cost(usage), 0);
        if (usage.cacheReadTokens > 0 || usage.cacheWriteTokens > 0)
            m_metrics.recordCache(strategy, std::max<qint64>(0, usage.cacheReadTokens),
                                  std::max<qint64>(0, usage.cacheWriteTokens));
        if (answer)
            emit responseEnded(strategy, answer->request().request, usage);
        // A whole answer is kept for the next time the same request comes: finished, not cut at
        // the token limit (a continuation is another answer), not failed nor cancelled.
        if (answer && !handle->error() && handle->finishReason() == Llm::FinishReason::Stop
            && answer->request().request.continuation.isEmpty() && answer->startedNs() >= 0)
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

bool Engine::hasLiveAnswers() const
{
    return hasLiveAnswers(nullptr);
}

bool Engine::hasLiveAnswers(const QObject *scope) const
{
    return std::any_of(m_handles.cbegin(), m_handles.cend(),
                       [scope](const QPointer<AnswerReader> &h) { return h && !h->isDone() && isWithin(h, scope); });
}

// --- prefetch --------------------------------------------------------------------------------

int Engine::prefetchInFlight() const
{
    int n = 0;
    for (const QPointer<PrefetchSession> &s : m_sessions) {
        if (s && s->state() == PrefetchSession::State::Streaming)
            ++n;
    }
    return n;
}

void Engine::startSession(PrefetchSession *session, const RenderedRequest &request, int limit, int keep)
{
    AnswerFetch *answer = makeAnswer(session->strategy(), request, true);
    answer->setKeepUnlessExtended(keep);
    session->start(answer, limit);
}

bool Engine::waitsForWarmup(Strategy strategy, bool strong) const
{
    // A guess sent while the document's prompt is being warmed pays that prompt uncached beside
    // the warm-up (a provider caches a prefix once a request on it has been processed): about
    // the price of a whole answer, for a guess that is right a third of the time. After the
    // warm-up it reads the prompt at the cache price and its first token comes sooner. A strong
    // signal (a hover, a press) does not wait: its click is a fraction of a second away.
    if (strong || strategy == Strategy::Warmup)
        return false;
    for (const QPointer<PrefetchSession> &s : m_sessions) {
        if (s && s->strategy() == Strategy::Warmup && s->state() == PrefetchSession::State::Streaming)
            return true;
    }
    return false;
}

int Engine::prefetchQueued() const
{
    int n = 0;
    for (const QPointer<PrefetchSession> &s : m_sessions) {
        if (s && s->state() == PrefetchSession::State::Pending)
            ++n;
    }
    return n;
}

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
    const int keep = strategy != Strategy::Warmup && strength == SignalStrength::Weak && weakLimit < limit ? weakLimit : 0;
    const bool slotFree = prefetchInFlight() < m_settings.prefetchInFlight
        && providerInFlight() < std::max(1, m_profile.concurrencyLimit)
        && !waitsForWarmup(strategy, strength == SignalStrength::Strong);
    if (!slotFree && prefetchQueued() >= m_settings.prefetchQueue) {
        m_metrics.recordOutcome(strategy, Outcome::RejectedLane);
        return nullptr;
    }
    // What the provider bills for it if never used: its prompt and the tokens it asks for (a
    // whole answer is read up to the buffer cap, but generated to the end: the bill is the end).
    const qint64 prompt = estimatePromptTokens(request.request);
    const auto reservation = m_budget.reserve(prompt + limit);
    std::optional<quint64> money;
    const Llm::Prices &prices = pricesFor(request.request);
    if (reservation && m_moneyBudget.limit() > 0 && !prices.isFree()) {
        // As if nothing were cached: the budget errs on the side of spending less.
        money = m_moneyBudget.reserve(microUnits(prices.worstCase(prompt, limit)));
        if (!money)
            m_budget.reconcile(*reservation, 0);
    }
    if (!reservation || (m_moneyBudget.limit() > 0 && !prices.isFree() && !money)) {
        m_metrics.recordOutcome(strategy, Outcome::RejectedBudget);
        return nullptr;
    }
    auto *session = new PrefetchSession(strategy, request.request, request.fingerprint, ttl, m_settings.bufferTokens, this);
    session->m_strong = strength == SignalStrength::Strong;
    session->m_budgetReservation = *reservation;
    session->m_hasReservation = true;
    session->m_moneyReservation = money;
    m_sessions.append(session);
    m_metrics.recordAttempt(strategy);
    connect(session, &PrefetchSession::ended, this, [this, session] { onSessionEnded(session); });
    if (strategy == Strategy::Warmup) {
        // Nobody consumes a warm-up; once complete it has done its work.
        connect(session, &PrefetchSession::stateChanged, this, [this, session](PrefetchSession::State state) {
            if (state == PrefetchSession::State::Complete)
                QMetaObject::invokeMethod(this, [this, session] { onSessionEnded(session); }, Qt::QueuedConnection);
        });
    }
    if (slotFree)
        startSession(session, request, limit, keep);
    else
        m_pending.insert(session, Queued{request, limit, keep});
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
    const bool usable = session && m_sessions.contains(session)
        && (session->state() == PrefetchSession::State::Streaming || session->state() == PrefetchSession::State::Complete)
        && !request.fingerprint.isEmpty() && session->fingerprint() == request.fingerprint;
    if (!usable) {
        if (session && session->isLive()) {
            m_metrics.recordOutcome(strategy, Outcome::Miss); // the context changed under it
            session->finish(PrefetchSession::State::Cancelled);
        } else if (session) {
            // Expired or failed already (and counted then); the activation is still a miss.
            m_metrics.recordOutcome(strategy, Outcome::Miss);
        }
        return startForeground(strategy, request, activatedNs, owner, session != nullptr);
    }

    const qint64 started = session->startedNs();
    const qint64 first = session->firstTokenNs();
    const bool partial = first < 0;
    m_metrics.recordOutcome(strategy, partial ? Outcome::PartialHit : Outcome::Hit);
    // What the user did not have to wait: the head start, or the whole provider TTFT if the
    // first token was already in when they asked.
    m_metrics.recordTimeSaved(strategy, msBetween(started, partial ? activatedNs : std::min(first, activatedNs)));
    settle(session, false);
    m_sessions.removeAll(session); // before consume(): its `ended` must not settle it twice
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
    m_metrics.recordOutcome(session->strategy(), Outcome::Cancelled);
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
    const auto sessions = m_sessions;
    for (const QPointer<PrefetchSession> &s : sessions)
        cancel(s);
    cancelSideRequests();
}

void Engine::stopAll()
{
    stop(nullptr);
}

void Engine::stop(const QObject *scope)
{
    cancelAllPrefetches();
    const auto handles = m_handles;
    for (const QPointer<AnswerReader> &h : handles) {
        if (h && isWithin(h, scope))
            h->cancel();
    }
    // A queued answer whose handle was cancelled ended without starting: it must never start.
    m_foregroundQueue.removeIf([](const QPointer<AnswerFetch> &a) { return !a || a->isDone(); });
}

void Engine::onSessionEnded(PrefetchSession *session)
{
    if (!m_sessions.contains(session))
        return; // consumed: settled in consume()
    switch (session->state()) {
    case PrefetchSession::State::Expired:
        m_metrics.recordOutcome(session->strategy(), Outcome::Expired);
        break;
    case PrefetchSession::State::Failed:
        m_metrics.recordOutcome(session->strategy(), Outcome::Failed);
        break;
    default:
        break; // cancellations were counted by whoever cancelled
    }
    settle(session, true);
    m_sessions.removeAll(session);
    m_pending.remove(session);
    session->deleteLater();
    emit sessionsChanged();
    QMetaObject::invokeMethod(this, &Engine::pump, Qt::QueuedConnection);
}

void Engine::settle(PrefetchSession *session, bool wasted)
{
    // What the prefetch cost up to now: its input (as the provider reported it, or our
    // estimate when the stream was cut before usage arrived) plus every token received.
    qint64 spent = 0;
    double money = 0;
    if (session->startedNs() >= 0) {
        const AnswerFetch *answer = session->answer();
        Llm::Usage usage = answer ? answer->usage() : Llm::Usage{};
        if (usage.inputTokens < 0)
            usage.inputTokens = estimatePromptTokens(session->request());
        if (usage.outputTokens < 0)
            usage.outputTokens = session->bufferedTokens();
        spent = usage.inputTokens + usage.outputTokens;
        money = pricesFor(session->request()).cost(usage);
        if (usage.cacheReadTokens > 0 || usage.cacheWriteTokens > 0)
            m_metrics.recordCache(session->strategy(), std::max<qint64>(0, usage.cacheReadTokens),
                                  std::max<qint64>(0, usage.cacheWriteTokens));
    }
    if (session->m_hasReservation) {
        m_budget.reconcile(session->m_budgetReservation, spent);
        session->m_hasReservation = false;
    }
    if (session->m_moneyReservation) {
        m_moneyBudget.reconcile(*session->m_moneyReservation, microUnits(money));
        session->m_moneyReservation.reset();
    }
    m_metrics.recordTokens(session->strategy(), spent, 0, wasted ? spent : 0);
    // A warm-up's prefill is the one the first answer on the document would have paid without
    // it: set against the cached answers it serves, its money would read as waste. Its extra
    // cost stays in tokens; the replay benchmark compares whole bills instead.
    if (session->strategy() != Strategy::Warmup)
        m_metrics.recordCost(session->strategy(), money, 0, wasted ? money : 0);
}

void Engine::pump()
{
    while (!m_foregroundQueue.isEmpty()) {
        if (!m_foregroundQueue.constFirst()) {
            m_foregroundQueue.removeFirst();
            continue;
        }
        if (!makeRoomForForeground())
            return; // foreground first: no prefetch starts while an answer waits
        AnswerFetch *answer = m_foregroundQueue.takeFirst();
        answer->start(answer->request().request.maxTokens);
    }
    for (const QPointer<PrefetchSession> &s : QList(m_sessions)) {
        if (!s || s->state() != PrefetchSession::State::Pending)
            continue;
        if (waitsForWarmup(s->strategy(), s->isStrong()))
            continue; // until the warm-up ends, which pumps again
        if (prefetchInFlight() >= m_settings.prefetchInFlight || providerInFlight() >= std::max(1, m_profile.concurrencyLimit))
            return;
        const Queued queued = m_pending.take(s);
        startSession(s, queued.request, queued.limit, queued.keep);
    }
}

PrefetchSession *Engine::liveSession(const QByteArray &fingerprint) const
{
    if (fingerprint.isEmpty())
        return nullptr;
    for (const QPointer<PrefetchSession> &s : m_sessions) {
        if (s && s->isLive() && s->strategy() != Strategy::Warmup && s->fingerprint() == fingerprint)
            return s;
    }
    return nullptr;
}

void Engine::upgrade(PrefetchSession *session, SignalStrength strength)
{
    if (!session || !m_sessions.contains(session) || !session->isLive())
        return;
    if (strength == SignalStrength::Weak)
        return; // guessed again: it stays the guess it is, keeping its short prefix
    const int limit = speculativeLimit(strength, session->request());
    if (session->state() == PrefetchSession::State::Pending) {
        Queued &queued = m_pending[session];
        queued.limit = std::max(queued.limit, limit);
        if (strength == SignalStrength::Strong)
            queued.keep = 0;
        session->upgrade(limit, strength == SignalStrength::Strong); // not started: only its strength
        return;
    }
    session->upgrade(limit, strength == SignalStrength::Strong);
}

} // namespace Prefetch
