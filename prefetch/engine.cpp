#include "engine.h"

#include "log.h"
#include "prefetchsession.h"
#include "prompttemplate.h"
#include "responsestream.h"

#include "llm/clock.h"

#include <QJsonArray>

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
    , m_budget(settings.hourlyTokenBudget)
{
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
}

void Engine::setSettings(const Settings &settings)
{
    m_settings = settings;
    m_metrics.setSettings(settings);
    m_budget.setLimit(settings.hourlyTokenBudget);
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

Llm::LlmStream *Engine::makeStream(const Llm::ChatRequest &request, const QByteArray &body, bool prefetch)
{
    Llm::StreamOptions options;
    options.prefetch = prefetch;
    options.encodedBody = body;
    // A prefetch paused at its buffer cap holds its unread bytes: keep that small (about 40
    // SSE events), the kernel's socket buffer and TCP flow control hold the rest.
    if (prefetch)
        options.readBufferBytes = 8 * 1024;
    Llm::ChatRequest r = request;
    if (r.model.isEmpty())
        r.model = m_profile.model;
    return new Llm::LlmStream(m_network, m_profile, std::move(r), std::move(options));
}

// --- foreground ------------------------------------------------------------------------------

int Engine::foregroundInFlight() const
{
    int n = 0;
    for (const QPointer<ResponseStream> &h : m_handles) {
        if (h && !h->isDone() && h->stream() && h->stream()->state() != Llm::LlmStream::State::Idle
            && !h->stream()->isDone())
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
        if (!oldest)
            break;
        log().debug("preempting a {} prefetch for a foreground request", strategyId(oldest->strategy()));
        m_metrics.recordOutcome(oldest->strategy(), Outcome::Preempted);
        oldest->finish(PrefetchSession::State::Cancelled);
    }
    return canStartForeground();
}

ResponseStream *Engine::request(Strategy origin, const RenderedRequest &request, qint64 activatedNs, QObject *owner)
{
    return startForeground(origin, makeStream(request.request, request.body, false), activatedNs, owner, false);
}

ResponseStream *Engine::startForeground(Strategy strategy, Llm::LlmStream *stream, qint64 activatedNs, QObject *owner,
                                        bool afterMiss)
{
    auto *handle = new ResponseStream(strategy, ResponseStream::Origin::Fresh, stream, {}, activatedNs, owner);
    track(handle, afterMiss);
    if (makeRoomForForeground())
        stream->start();
    else
        m_foregroundQueue.append(stream); // the provider's limit is taken by other answers
    return handle;
}

void Engine::track(ResponseStream *handle, bool afterMiss)
{
    m_handles.removeIf([](const QPointer<ResponseStream> &h) { return !h || h->isDone(); });
    m_handles.append(handle);
    const Strategy strategy = handle->strategy();
    const LatencyKind kind = handle->isPrefetched() ? LatencyKind::Hit
        : afterMiss                                 ? LatencyKind::Miss
                                                    : LatencyKind::NoPrefetch;
    // Shown, not delivered: a view reports when it painted the first piece (see ResponseStream).
    connect(handle, &ResponseStream::firstContentShown, this,
            [this, strategy, kind](double ms) { m_metrics.recordPerceivedLatency(strategy, kind, ms); });
    auto onEnd = [this, handle, strategy] {
        const Llm::Usage usage = handle->usage();
        if (const Llm::LlmStream *s = handle->stream()) {
            const auto &t = s->timestamps();
            if (t.firstToken >= 0 && t.started >= 0)
                m_metrics.recordTtft(strategy, msBetween(t.started, t.firstToken));
        }
        qint64 used = 0;
        if (usage.inputTokens >= 0 || usage.outputTokens >= 0)
            used = std::max<qint64>(0, usage.inputTokens) + std::max<qint64>(0, usage.outputTokens);
        else if (const Llm::LlmStream *s = handle->stream())
            used = estimatePromptTokens(s->request()) + handle->eventsDelivered();
        m_metrics.recordTokens(strategy, 0, used, 0);
        if (usage.cacheReadTokens > 0 || usage.cacheWriteTokens > 0)
            m_metrics.recordCache(strategy, std::max<qint64>(0, usage.cacheReadTokens),
                                  std::max<qint64>(0, usage.cacheWriteTokens));
        if (const Llm::LlmStream *s = handle->stream())
            emit responseEnded(strategy, s->request(), usage);
        // The slot is free: queued answers and prefetches may go.
        QMetaObject::invokeMethod(this, &Engine::pump, Qt::QueuedConnection);
    };
    connect(handle, &ResponseStream::finished, this, onEnd);
    connect(handle, &ResponseStream::failed, this, onEnd);
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

int Engine::prefetchQueued() const
{
    int n = 0;
    for (const QPointer<PrefetchSession> &s : m_sessions) {
        if (s && s->state() == PrefetchSession::State::Pending)
            ++n;
    }
    return n;
}

PrefetchSession *Engine::prefetch(Strategy strategy, const RenderedRequest &request, std::chrono::milliseconds ttl)
{
    if (!isEnabled(strategy) || m_metrics.isDegraded(strategy))
        return nullptr;
    if (request.fingerprint.isEmpty() || request.body.isEmpty()) {
        log().debug("not prefetching a {} request without a fingerprint or body", strategyId(strategy));
        return nullptr;
    }
    const bool slotFree = prefetchInFlight() < m_settings.prefetchInFlight
        && providerInFlight() < std::max(1, m_profile.concurrencyLimit);
    if (!slotFree && prefetchQueued() >= m_settings.prefetchQueue) {
        m_metrics.recordOutcome(strategy, Outcome::RejectedLane);
        return nullptr;
    }
    // Warm-ups ask for one token; other prefetches are read up to the buffer cap before the
    // user takes them over, which is what they can cost if never used.
    const qint64 estimate = estimatePromptTokens(request.request)
        + std::min<qint64>(request.request.maxTokens, m_settings.bufferTokens);
    const auto reservation = m_budget.reserve(estimate);
    if (!reservation) {
        m_metrics.recordOutcome(strategy, Outcome::RejectedBudget);
        return nullptr;
    }
    auto *session = new PrefetchSession(strategy, request.request, request.fingerprint, ttl, m_settings.bufferTokens, this);
    session->m_budgetReservation = *reservation;
    session->m_hasReservation = true;
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
        session->start(makeStream(request.request, request.body, true));
    else
        m_pendingBodies.insert(session, request.body);
    emit sessionsChanged();
    return session;
}

ResponseStream *Engine::consume(PrefetchSession *session, const RenderedRequest &request, qint64 activatedNs,
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
        return startForeground(strategy, makeStream(request.request, request.body, false), activatedNs, owner,
                               session != nullptr);
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
    ResponseStream *handle = session->consume(activatedNs, owner);
    track(handle, false);
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

void Engine::cancelAllPrefetches()
{
    const auto sessions = m_sessions;
    for (const QPointer<PrefetchSession> &s : sessions)
        cancel(s);
}

void Engine::stopAll()
{
    cancelAllPrefetches();
    m_foregroundQueue.clear(); // their handles are cancelled below; the streams never started
    const auto handles = m_handles;
    for (const QPointer<ResponseStream> &h : handles) {
        if (h)
            h->cancel();
    }
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
    m_pendingBodies.remove(session);
    session->deleteLater();
    emit sessionsChanged();
    QMetaObject::invokeMethod(this, &Engine::pump, Qt::QueuedConnection);
}

void Engine::settle(PrefetchSession *session, bool wasted)
{
    // What the prefetch cost up to now: its input (as the provider reported it, or our
    // estimate when the stream was cut before usage arrived) plus every token received.
    qint64 spent = 0;
    if (session->startedNs() >= 0) {
        const Llm::LlmStream *stream = session->stream();
        const Llm::Usage usage = stream ? stream->usage() : Llm::Usage{};
        const qint64 input = usage.inputTokens >= 0 ? usage.inputTokens : estimatePromptTokens(session->request());
        const qint64 output = usage.outputTokens >= 0 ? usage.outputTokens : session->bufferedTokens();
        spent = input + output;
        if (usage.cacheReadTokens > 0 || usage.cacheWriteTokens > 0)
            m_metrics.recordCache(session->strategy(), std::max<qint64>(0, usage.cacheReadTokens),
                                  std::max<qint64>(0, usage.cacheWriteTokens));
    }
    if (session->m_hasReservation) {
        m_budget.reconcile(session->m_budgetReservation, spent);
        session->m_hasReservation = false;
    }
    m_metrics.recordTokens(session->strategy(), spent, 0, wasted ? spent : 0);
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
        m_foregroundQueue.takeFirst()->start();
    }
    for (const QPointer<PrefetchSession> &s : QList(m_sessions)) {
        if (!s || s->state() != PrefetchSession::State::Pending)
            continue;
        if (prefetchInFlight() >= m_settings.prefetchInFlight || providerInFlight() >= std::max(1, m_profile.concurrencyLimit))
            return;
        s->start(makeStream(s->request(), m_pendingBodies.take(s), true));
    }
}

QList<PrefetchSession *> Engine::liveSessions() const
{
    QList<PrefetchSession *> out;
    for (const QPointer<PrefetchSession> &s : m_sessions) {
        if (s && s->isLive())
            out.append(s);
    }
    return out;
}

QJsonObject Engine::snapshot() const
{
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
        {QStringLiteral("provider"), m_profile.id},
        {QStringLiteral("metrics"), m_metrics.snapshot()},
        {QStringLiteral("lanes"), QJsonObject{{QStringLiteral("foreground_in_flight"), foregroundInFlight()},
                                              {QStringLiteral("foreground_queued"), int(m_foregroundQueue.size())},
                                              {QStringLiteral("prefetch_in_flight"), prefetchInFlight()},
                                              {QStringLiteral("prefetch_queued"), prefetchQueued()}}},
        {QStringLiteral("budget"), QJsonObject{{QStringLiteral("limit"), m_budget.limit()},
                                               {QStringLiteral("used"), m_budget.used()},
                                               {QStringLiteral("remaining"), m_budget.remaining()}}},
        {QStringLiteral("sessions"), sessions},
    };
}

} // namespace Prefetch
