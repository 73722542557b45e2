#include "lanes.h"

#include "log.h"
#include "prefetch/stream/answerfetch.h"
#include "prefetch/stream/answerreader.h"
#include "prefetchsession.h"
#include "recorder.h"
#include "siderequests.h"

#include "llm/providerprofile.h"

#include <algorithm>

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

} // namespace

Lanes::Lanes(const Settings &settings, const Llm::ProviderProfile &profile, SideRequests &sides, Recorder &recorder,
             MakeAnswer makeAnswer)
    : m_settings(settings)
    , m_profile(profile)
    , m_sides(sides)
    , m_recorder(recorder)
    , m_makeAnswer(std::move(makeAnswer))
{
}

int Lanes::providerLimit() const
{
    return std::max(1, m_profile.concurrencyLimit);
}

int Lanes::providerInFlight() const
{
    return foregroundInFlight() + prefetchInFlight() + m_sides.inFlight();
}

// --- foreground ------------------------------------------------------------------------------

int Lanes::foregroundInFlight() const
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

bool Lanes::canStartForeground() const
{
    return foregroundInFlight() < m_settings.foregroundInFlight && providerInFlight() < providerLimit();
}

bool Lanes::makeRoomForForeground()
{
    // Foreground never waits for a prefetch: the oldest running one gives up its slot.
    while (foregroundInFlight() < m_settings.foregroundInFlight && providerInFlight() >= providerLimit()) {
        PrefetchSession *oldest = nullptr;
        for (const QPointer<PrefetchSession> &s : std::as_const(m_sessions)) {
            if (s && s->state() == PrefetchSession::State::Streaming) {
                oldest = s;
                break;
            }
        }
        if (!oldest) {
            if (m_sides.inFlight() == 0)
                break;
            // The classifier's question gives way too: the heuristic answers it instead.
            m_sides.cancelOne();
            continue;
        }
        log().debug("preempting a {} prefetch for a foreground request", strategyId(oldest->strategy()));
        m_recorder.guessPreempted(oldest->strategy());
        oldest->finish(PrefetchSession::State::Cancelled);
    }
    return canStartForeground();
}

void Lanes::startForeground(AnswerFetch *answer)
{
    if (makeRoomForForeground())
        answer->start(answer->request().request.maxTokens);
    else
        m_foregroundQueue.append(answer); // the provider's limit is taken by other answers
}

void Lanes::track(AnswerReader *handle)
{
    m_handles.removeIf([](const QPointer<AnswerReader> &h) { return !h || h->isDone(); });
    m_handles.append(handle);
}

bool Lanes::hasLiveAnswers(const QObject *scope) const
{
    return std::any_of(m_handles.cbegin(), m_handles.cend(),
                       [scope](const QPointer<AnswerReader> &h) { return h && !h->isDone() && isWithin(h, scope); });
}

void Lanes::stopAnswers(const QObject *scope)
{
    const auto handles = m_handles;
    for (const QPointer<AnswerReader> &h : handles) {
        if (h && isWithin(h, scope))
            h->cancel();
    }
    // A queued answer whose handle was cancelled ended without starting: it must never start.
    m_foregroundQueue.removeIf([](const QPointer<AnswerFetch> &a) { return !a || a->isDone(); });
}

// --- prefetch --------------------------------------------------------------------------------

int Lanes::prefetchInFlight() const
{
    int n = 0;
    for (const QPointer<PrefetchSession> &s : m_sessions) {
        if (s && s->state() == PrefetchSession::State::Streaming)
            ++n;
    }
    return n;
}

int Lanes::prefetchQueued() const
{
    int n = 0;
    for (const QPointer<PrefetchSession> &s : m_sessions) {
        if (s && s->state() == PrefetchSession::State::Pending)
            ++n;
    }
    return n;
}

void Lanes::add(PrefetchSession *session)
{
    m_sessions.append(session);
}

void Lanes::remove(PrefetchSession *session)
{
    m_sessions.removeAll(session);
    m_pending.remove(session);
}

bool Lanes::contains(PrefetchSession *session) const
{
    return m_sessions.contains(session);
}

QList<PrefetchSession *> Lanes::liveSessions() const
{
    QList<PrefetchSession *> out;
    for (const QPointer<PrefetchSession> &s : m_sessions) {
        if (s && s->isLive())
            out.append(s);
    }
    return out;
}

PrefetchSession *Lanes::liveSession(const QByteArray &fingerprint) const
{
    if (fingerprint.isEmpty())
        return nullptr;
    for (const QPointer<PrefetchSession> &s : m_sessions) {
        if (s && s->isLive() && s->strategy() != Strategy::Warmup && s->fingerprint() == fingerprint)
            return s;
    }
    return nullptr;
}

bool Lanes::waitsForWarmup(Strategy strategy, bool strong) const
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

bool Lanes::hasPrefetchSlot(Strategy strategy, bool strong) const
{
    return prefetchInFlight() < m_settings.prefetchInFlight && providerInFlight() < providerLimit()
           && !waitsForWarmup(strategy, strong);
}

bool Lanes::isPrefetchQueueFull() const
{
    return prefetchQueued() >= m_settings.prefetchQueue;
}

void Lanes::startSession(PrefetchSession *session, const Queued &queued)
{
    AnswerFetch *answer = m_makeAnswer(session->strategy(), queued.request);
    answer->setKeepUnlessExtended(queued.keep);
    session->start(answer, queued.limit);
}

void Lanes::pump()
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
        if (prefetchInFlight() >= m_settings.prefetchInFlight || providerInFlight() >= providerLimit())
            return;
        startSession(s, m_pending.take(s));
    }
}

QJsonObject Lanes::snapshot() const
{
    return QJsonObject{{QStringLiteral("foreground_in_flight"), foregroundInFlight()},
                       {QStringLiteral("foreground_queued"), foregroundQueued()},
                       {QStringLiteral("prefetch_in_flight"), prefetchInFlight()},
                       {QStringLiteral("prefetch_queued"), prefetchQueued()},
                       {QStringLiteral("side_in_flight"), m_sides.inFlight()}};
}

} // namespace Prefetch
