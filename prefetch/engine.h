#pragma once

#include "accounting.h"
#include "budget.h"
#include "lanes.h"
#include "metrics.h"
#include "prefetch/cache/cachedanswers.h"
#include "prefetch/prompts/prompttemplate.h"
#include "ratelimitbackoff.h"
#include "recorder.h"
#include "settings.h"
#include "siderequests.h"
#include "strategy.h"

#include "llm/providerprofile.h"
#include "llm/refusal.h"

#include <QHash>
#include <QJsonObject>
#include <QList>
#include <QObject>

#include <optional>

class QNetworkAccessManager;

namespace Llm {
class ProviderRequest;
}

namespace Prefetch {

class AnswerFetch;
class PrefetchSession;
class AnswerReader;

// The prefetch engine: starts answers early and hands them over when the user asks.
//
// It keeps the registry of live prefetch sessions (Stop cancels them all), schedules requests
// in two lanes per provider (foreground never waits for prefetch: when the provider's
// concurrency limit would be passed, the oldest running prefetch is preempted), charges
// prefetches to an hourly token budget, and records every outcome in Metrics (through its
// Recorder).
// GUI thread only. Owns its sessions; AnswerReaders belong to the owner the caller names.
//
// A façade over its parts, each with one job: Lanes (the slots, preemption, what waits),
// SideRequests (the quick model's requests of its own), Accounting (the budgets, and what each
// guess cost), Recorder (what each outcome counts as in Metrics). The engine itself holds what
// the provider is (its profile, key, refusals, rate limit and the suspensions), admits guesses
// and hands them over, and serves the response cache's answers.
class Engine : public QObject
{
    Q_OBJECT

public:
    Engine(QNetworkAccessManager *network, Llm::ProviderProfile profile, Settings settings = {},
           QObject *parent = nullptr);
    ~Engine() override;

    const Llm::ProviderProfile &profile() const { return m_profile; }
    // Cancels everything in flight: a session is only valid for the provider it was made for.
    void setProfile(Llm::ProviderProfile profile);
    // New prices for the same provider (edited in Settings): what is billed from now on is
    // priced with them; nothing in flight is cancelled, and what was recorded stays as it was.
    // The fast model's too, when given.
    void setPrices(const Llm::Prices &prices, const std::optional<Llm::Prices> &fastPrices = std::nullopt)
    {
        m_profile.prices = prices;
        if (fastPrices)
            m_profile.fastPrices = *fastPrices;
    }
    // New timeouts for the same provider: requests started from now on use them; those in
    // flight keep theirs (a timeout is not part of what a prefetch is for, ProviderTarget).
    void setTimeouts(const Llm::Timeouts &timeouts) { m_profile.timeouts = timeouts; }
    const Settings &settings() const { return m_settings; }
    void setSettings(const Settings &settings);
    bool isEnabled(Strategy strategy) const;

    Metrics &metrics() { return m_metrics; }
    const Metrics &metrics() const { return m_metrics; }
    // Where the strategies, the acknowledgement and the chat say what happened (Recorder).
    Recorder &recorder() { return m_recorder; }
    TokenBudget &budget() { return m_accounting.budget(); }
    // The money budget, in millionths of the provider's currency (see Settings::hourlyMoneyBudget).
    TokenBudget &moneyBudget() { return m_accounting.moneyBudget(); }
    // What `usage` is billed at this engine's provider, by its main model.
    double cost(const Llm::Usage &usage) const { return m_profile.prices.cost(usage); }
    // The prices `request` is billed at: its model's (the fast model's, or the main one's).
    const Llm::Prices &pricesFor(const Llm::ChatRequest &request) const { return m_profile.pricesFor(request.model); }

    // `request` encoded for this engine's provider, with its fingerprint (the model filled in
    // when empty): for callers without a compiled prompt (CLI, benchmarks, tests). A request
    // that cannot be encoded comes back with an empty body and fingerprint; sent, it fails
    // with the encoder's error.
    RenderedRequest render(const Llm::ChatRequest &request) const;

    // The response cache the app keeps beside the conversations (not owned; null: none).
    // request() gives its exact answers while Settings::cache is on; requestFresh() never.
    void setResponseCache(ResponseCache *cache) { m_cached.setCache(cache); }
    CachedAnswers &cachedAnswers() { return m_cached; }
    const CachedAnswers &cachedAnswers() const { return m_cached; }

    // A fresh foreground answer for an activation with no prefetch to take over. `origin` is
    // the strategy whose activation point this is (Strategy::None for none): its tokens count
    // as used there, which is what lets a paused strategy's extra cost fall again. An empty
    // body is encoded by the stream itself.
    AnswerReader *request(Strategy origin, const RenderedRequest &request, qint64 activatedNs, QObject *owner);
    // A new answer the user asked for as such (the chat's Regenerate): always its own request
    // in the foreground lane, never a live session of the same fingerprint taken over, whatever
    // strategy guessed it, never the response cache's answer. Prefetch sessions are left as they are.
    AnswerReader *requestFresh(Strategy origin, const RenderedRequest &request, qint64 activatedNs, QObject *owner);
    // The response cache's answer to `request` while Settings::cache is on: an exact repeat's or,
    // with `draft` given and cache.nearDuplicates on, a near-duplicate chat question's when it is
    // sure enough to serve, as a Cached stream (nothing sent); null otherwise. A near lookup that
    // served or drafted comes back in `draft`: a Draft the caller shows while the live answer
    // comes, then settles it (CachedAnswers::settleDraft).
    AnswerReader *answerFromCache(Strategy origin, const RenderedRequest &request, qint64 activatedNs, QObject *owner,
                                  ResponseCache::Lookup *draft = nullptr);
    // request() once the response cache has been asked (answerFromCache()): a live answer.
    AnswerReader *requestLive(Strategy origin, const RenderedRequest &request, qint64 activatedNs, QObject *owner);
    // The response cache would give this request's answer: a guess of it is not worth sending.
    bool hasCachedAnswer(const RenderedRequest &request) const;

    // Starts a speculative request, or returns nullptr when the strategy is off or paused, the
    // budget would be passed or the prefetch lane and its queue are full (counted as rejected).
    // A request without a fingerprint or a body is never speculated on: nothing could tell
    // later whether it still answers what the user asks (not counted; nothing was attempted).
    // Strategies may key a session differently from the request (a wizard step and its form
    // data); the engine only compares the fingerprints.
    // A weak signal's guess is a short prefix, and only where the provider can continue one
    // (see speculativeLimit()). The same answer guessed already is upgraded instead, and
    // returned: it is one request, counted once, for the strategy that started it.
    PrefetchSession *prefetch(Strategy strategy, const RenderedRequest &request, std::chrono::milliseconds ttl,
                              SignalStrength strength = SignalStrength::Strong);

    // A small request of the engine's own to the provider's quick model (ProviderProfile::
    // quickModel()): the completeness classifier's question, or the instant acknowledgement's
    // line. Nobody reads it as an answer, so it goes now, in a free slot, or not at all: null
    // while speculation is suspended or the key is unknown (not counted), and when no slot is
    // free or the budget refuses (counted as refused). It is charged to the prefetch budgets at its model's prices and recorded on its
    // `purpose`'s own line (Metrics::classifier(), Metrics::acknowledgement()): both are extra
    // spending the user did not ask for. Stop, every suspension and a foreground answer that
    // needs its slot cancel it. The stream is a child of `context`, sent with X-Prefetch and
    // X-Headstart-Purpose "classifier" or "acknowledgement"; the caller ends it with
    // endSideRequest() exactly once (the engine settles it on its own if the stream is
    // destroyed first). SideRequests does the work.
    using SidePurpose = SideRequests::Purpose;
    Llm::ProviderRequest *startSideRequest(const Llm::ChatRequest &request, QObject *context,
                                           SidePurpose purpose = SidePurpose::Classifier);
    // How the caller saw it end: Answered (the stream ended with what it needed), Truncated (it
    // had what it needed and the rest was not worth paying for: the stream is closed now),
    // Fallback (nothing usable: closed now). A stream the engine cancelled counts as Cancelled
    // whatever is said here.
    void endSideRequest(Llm::ProviderRequest *stream, Metrics::SideEnd end);
    int sideRequestsInFlight() const { return m_sides.inFlight(); }

    // A live session answering exactly `fingerprint` (any strategy's), or null.
    PrefetchSession *liveSession(const QByteArray &fingerprint) const { return m_lanes.liveSession(fingerprint); }
    // Another signal for the answer `session` guesses: it may grow to what a guess of that
    // strength asks for (a strong one starts the continuation now, so at the click it is
    // already flowing).
    void upgrade(PrefetchSession *session, SignalStrength strength);
    // How many tokens a guess asks the provider for: a prefix where the provider can continue
    // an answer (Settings::speculation.prefixTokens for a weak signal, Settings::bufferTokens
    // for a strong one), the whole answer on a strong signal where it cannot, and 0 (no guess)
    // for a weak signal there.
    int speculativeLimit(SignalStrength strength, const Llm::ChatRequest &request) const;
    // False while the key store has not answered for this profile (awaitKey()), or the profile
    // needs an API key it does not have: nothing is speculated on then. setProfile() with what
    // the key store answered ends the wait.
    bool hasKey() const;
    // The profile's key is being read (the keychain answers after the window opens): no guess
    // goes out until setProfile() brings the key, or the news that there is none.
    void awaitKey() { m_keyKnown = false; }
    // Why speculation is suspended. Each holder sets and clears only its own reason, so one
    // ending (the Save questions answered "Cancel") never resumes what another still holds
    // (the laptop is on battery saver).
    enum class Suspension : quint8 {
        Closing = 0x1,     // the app is closing, its Save questions up
        Etiquette = 0x2,   // the desktop asks to save power or data (System::SpeculationEtiquette)
        RateLimited = 0x4, // the provider answered 429: rateLimitBackoff() says until when
    };
    Q_DECLARE_FLAGS(Suspensions, Suspension)
    // While any reason holds nothing is prefetched, warmed or classified for a guess; what the
    // user asks for still goes. The first reason cancels every prefetch in flight: a guess
    // streaming on over a metered connection is what the pause is for.
    void setSpeculationSuspended(Suspension reason, bool suspended);
    Suspensions speculationSuspensions() const { return m_suspensions; }
    bool isSpeculationSuspended() const { return m_suspensions != Suspensions(); }
    // Holds Suspension::RateLimited after a 429 to any request of this engine, a guess's or the
    // user's (the user's own requests are never held back by it: only speculation waits).
    const RateLimitBackoff &rateLimitBackoff() const { return m_rateLimit; }
    // The provider can continue an answer from its beginning (and has not refused to).
    bool canContinue() const;
    // The smallest prompt (estimatePromptTokens()) the provider refused as too long for `model`
    // (Llm::Error::Code::ContextTooLong), if it did: nothing speculative that long is sent to
    // it again, so a document over the model's limit is not uploaded and refused at every
    // switch to its tab. The user's own requests still go, and say why they fail. Forgotten
    // with a new profile (another endpoint may take more).
    std::optional<qint64> refusedPromptTokens(const QString &model) const;

    // The user asked for `request`. Takes `session` over when it is live and its fingerprint
    // equals the request's, which is never empty (a hit, partial when the first token is not
    // in yet); otherwise cancels it and starts `request` fresh (a miss). A failed prefetch
    // never reaches the user. Never null.
    AnswerReader *consume(PrefetchSession *session, const RenderedRequest &request, qint64 activatedNs, QObject *owner,
                          Strategy strategy = Strategy::None);

    // The guess was wrong (the pointer left, the draft changed): counted as cancelled.
    void cancel(PrefetchSession *session);
    // Every prefetch session; within a few ms the provider sees their connections closed.
    void cancelAllPrefetches();
    // Stop: every prefetch and every foreground answer.
    void stopAll();
    // A window's Stop: every prefetch (they are cheap to make again, and Stop means nothing more
    // is spent) and the foreground answers owned by `scope` or by an object inside it; another
    // window's answers go on.
    void stop(const QObject *scope);

    QList<PrefetchSession *> liveSessions() const { return m_lanes.liveSessions(); }
    // A foreground answer (a document action's, the chat's, the wizard's) is streaming or queued:
    // what Stop would stop besides the prefetches.
    bool hasLiveAnswers() const { return m_lanes.hasLiveAnswers(nullptr); }
    // Only those owned by `scope` or by an object inside it (what stop(scope) would stop).
    bool hasLiveAnswers(const QObject *scope) const { return m_lanes.hasLiveAnswers(scope); }
    int foregroundInFlight() const { return m_lanes.foregroundInFlight(); }
    int prefetchInFlight() const { return m_lanes.prefetchInFlight(); }
    int prefetchQueued() const { return m_lanes.prefetchQueued(); }
    // A weak guess waits in the queue while a warm-up streams (see the definition).
    bool waitsForWarmup(Strategy strategy, bool strong) const { return m_lanes.waitsForWarmup(strategy, strong); }
    // Metrics, lanes, budget and live sessions, machine-readable (CLI, tests).
    QJsonObject snapshot() const;

signals:
    // A response the user saw ended; warm-up uses it to check that the cache was hit.
    void responseEnded(Prefetch::Strategy origin, const Llm::ChatRequest &request, const Llm::Usage &usage);
    void sessionsChanged();
    // A foreground answer started or ended (hasLiveAnswers() may have changed).
    void answersChanged();
    // The provider refused a feature of requests to `model` (Llm::RefusedFeature): the profile
    // no longer sends it, and the app keeps it for the next start.
    void featureRefused(Llm::RefusedFeature feature, const QString &model);
    // speculationSuspensions() changed.
    void suspensionsChanged();
    // The provider refused a prompt of `promptTokens` as too long for `model`
    // (refusedPromptTokens() may have changed).
    void promptTooLong(const QString &model, qint64 promptTokens);

private:
    AnswerFetch *makeAnswer(Strategy strategy, const RenderedRequest &request, bool speculative);
    AnswerReader *startForeground(Strategy strategy, const RenderedRequest &request, qint64 activatedNs, QObject *owner,
                                  bool afterMiss);
    void track(AnswerReader *handle, bool afterMiss);
    AnswerReader *cachedStream(Strategy strategy, const QString &answer, qint64 activatedNs, QObject *owner);
    void pump() { m_lanes.pump(); }
    void onSessionEnded(PrefetchSession *session);
    void settle(PrefetchSession *session, bool wasted);

    QNetworkAccessManager *m_network;
    Llm::ProviderProfile m_profile;
    Settings m_settings;
    Metrics m_metrics;
    Recorder m_recorder;
    CachedAnswers m_cached;
    // The parts read m_profile and m_settings, and go before them.
    Accounting m_accounting;
    SideRequests m_sides;
    Lanes m_lanes;
    // The provider refused a continuation: speculate as on a provider that cannot continue.
    bool m_continuationRefused = false;
    QHash<QString, qint64> m_tooLong; // refusedPromptTokens(), by model
    bool m_keyKnown = true;
    Suspensions m_suspensions;
    RateLimitBackoff m_rateLimit;
};

} // namespace Prefetch

Q_DECLARE_OPERATORS_FOR_FLAGS(Prefetch::Engine::Suspensions)
