#pragma once

#include "prefetch/prompts/prompttemplate.h"
#include "settings.h"
#include "strategy.h"

#include <QHash>
#include <QJsonObject>
#include <QList>
#include <QPointer>

#include <functional>

namespace Llm {
struct ProviderProfile;
}

namespace Prefetch {

class AnswerFetch;
class AnswerReader;
class PrefetchSession;
class Recorder;
class SideRequests;

// The provider's slots: the foreground lane (the answers the user asked for, and those waiting
// for a slot), the prefetch lane (the guesses, running and queued) and the side requests, all
// under the provider's concurrency limit. Foreground never waits for a prefetch: the oldest
// running guess is preempted (counted) for it, and a side request gives way too. pump() starts
// what waits when a slot frees up, foreground first. One of the engine's parts (Engine is the
// façade and decides what is admitted); GUI thread.
class Lanes
{
public:
    // What a queued guess will ask for when its slot comes.
    struct Queued {
        RenderedRequest request;
        int limit = 0;
        int keep = 0; // AnswerFetch::setKeepUnlessExtended
    };
    // Makes the answer a guess streams into (Engine: the provider's, wired to the engine).
    using MakeAnswer = std::function<AnswerFetch *(Strategy strategy, const RenderedRequest &request)>;

    // `settings` and `profile` are the engine's (the limits change with them).
    Lanes(const Settings &settings, const Llm::ProviderProfile &profile, SideRequests &sides, Recorder &recorder,
          MakeAnswer makeAnswer);

    // --- foreground
    int foregroundInFlight() const;
    int foregroundQueued() const { return int(m_foregroundQueue.size()); }
    // Starts `answer` now when there is a slot (preempting guesses for it), else queues it.
    void startForeground(AnswerFetch *answer);
    // A foreground answer handed to its reader: counted until it ends.
    void track(AnswerReader *handle);
    // Answers owned by `scope` or by an object inside it (null: any) not ended yet.
    bool hasLiveAnswers(const QObject *scope) const;
    // Cancels those; a queued answer whose reader was cancelled never starts.
    void stopAnswers(const QObject *scope);

    // --- prefetch
    int prefetchInFlight() const;
    int prefetchQueued() const;
    // A new guess, oldest last.
    void add(PrefetchSession *session);
    // A guess settled: it no longer holds or waits for a slot.
    void remove(PrefetchSession *session);
    bool contains(PrefetchSession *session) const;
    // Every guess not removed yet, oldest first (some may be gone: null).
    QList<QPointer<PrefetchSession>> sessions() const { return m_sessions; }
    QList<PrefetchSession *> liveSessions() const;
    // A live guess (not a warm-up) answering exactly `fingerprint`, or null.
    PrefetchSession *liveSession(const QByteArray &fingerprint) const;
    // A guess of `strategy` (a strong signal's or not) may start now.
    bool hasPrefetchSlot(Strategy strategy, bool strong) const;
    bool isPrefetchQueueFull() const;
    // Sends `session`'s request now, or keeps it until a slot frees up.
    void startSession(PrefetchSession *session, const Queued &queued);
    void queue(PrefetchSession *session, const Queued &queued) { m_pending.insert(session, queued); }
    // What a queued guess will ask for (it exists: the session is queued).
    Queued &queued(PrefetchSession *session) { return m_pending[session]; }
    // A weak guess waits in the queue while a warm-up streams (see the definition).
    bool waitsForWarmup(Strategy strategy, bool strong) const;

    // Every answer, guess and side request in flight to the provider.
    int providerInFlight() const;
    // Starts what waits while there are slots: foreground answers first, then the guesses.
    void pump();
    // The slots, machine-readable (Engine::snapshot()'s "lanes").
    QJsonObject snapshot() const;

private:
    int providerLimit() const;
    bool canStartForeground() const;
    bool makeRoomForForeground();

    const Settings &m_settings;
    const Llm::ProviderProfile &m_profile;
    SideRequests &m_sides;
    Recorder &m_recorder;
    MakeAnswer m_makeAnswer;
    QList<QPointer<PrefetchSession>> m_sessions;    // live sessions, oldest first
    QHash<PrefetchSession *, Queued> m_pending;     // queued sessions' requests
    QList<QPointer<AnswerReader>> m_handles;        // foreground answers not ended yet
    QList<QPointer<AnswerFetch>> m_foregroundQueue; // waiting for a foreground slot
};

} // namespace Prefetch
