#pragma once

#include "billestimate.h"
#include "metrics.h"
#include "prefetchsession.h"
#include "strategy.h"

#include "llm/llmtypes.h"

#include <optional>

namespace Prefetch {

class AnswerReader;

// What a side request of the engine is for (Engine::startSideRequest()): each has its own line
// in Metrics.
enum class SidePurpose { Classifier, Acknowledgement };

// The one place an outcome is recorded. The engine's parts, the strategies and the chat say here
// what happened — a guess started, refused, taken over, missed, cancelled, preempted, expired or
// failed, what it cost; an answer shown, ended, asked again; a side request's end; a warm-up
// used — and this says what it counts as in Metrics (which counters, which series, whose
// tokens and money). Metrics keeps the numbers, the windows and the alarms; nothing else in
// the app records into it. Owned by the Engine (Engine::recorder()); GUI thread.
class Recorder
{
public:
    explicit Recorder(Metrics &metrics);

    // --- guesses (prefetch sessions) ---------------------------------------------------------
    // Not started: the lane and its queue were full (Outcome::RejectedLane) or the budget
    // refused (Outcome::RejectedBudget).
    void guessRefused(Strategy strategy, Outcome why);
    void guessStarted(Strategy strategy);
    // The user asked for what it guesses: a hit, partial when its first token was not in yet;
    // `savedMs` is what the user did not have to wait.
    void guessTakenOver(Strategy strategy, bool partial, double savedMs);
    // The user asked for something else, or for it after it had ended.
    void guessMissed(Strategy strategy);
    // The guess was wrong (the pointer left, the draft changed), or Stop.
    void guessCancelled(Strategy strategy);
    // A foreground answer needed its slot.
    void guessPreempted(Strategy strategy);
    // It ended on its own in `state`: Expired and Failed count, the others were counted by
    // whoever ended it.
    void guessEnded(Strategy strategy, PrefetchSession::State state);
    // What it cost until it was settled (`billed`: input and output, cache reads and writes,
    // estimated where the provider did not say; `money` at its model's prices), as wasted when
    // it was never used. `request` is what it asked.
    void guessBilled(Strategy strategy, const Llm::ChatRequest &request, const Llm::Usage &billed, double money,
                     bool wasted);

    // --- answers the user saw ----------------------------------------------------------------
    // Its first content shown `perceivedMs` after the activation; `fastModel` where the profile
    // has a fast model apart from the main one (which of the two answered).
    void answerShown(Strategy strategy, LatencyKind kind, double perceivedMs, std::optional<bool> fastModel = {});
    // It ended, billed `usage` (every part of it) at `money`: used by `strategy`.
    void answerEnded(Strategy strategy, const AnswerReader *handle, const Llm::Usage &usage, double money);
    // The user asked the main model again for an answer the fast model gave.
    void answerReasked();

    // --- the engine's side requests ----------------------------------------------------------
    // How one ended (Refused: never sent) and what it was billed.
    void sideEnded(SidePurpose purpose, Metrics::SideEnd end, qint64 inputTokens = 0, qint64 outputTokens = 0,
                   double cost = 0);
    // The acknowledgement's line shown `afterMs` after the message was sent; the answer's first
    // text `leadMs` after the line.
    void acknowledgementShown(double afterMs);
    void acknowledgementLead(double leadMs);

    // --- warm-ups ----------------------------------------------------------------------------
    // An answer on a warmed document or passages ended: what the warm-up's cost is set against.
    void warmedAnswerEnded(const Llm::Usage &usage);
    // The first answer after a document's warm-up: a hit when it read its prompt from the
    // provider's cache, a miss when it read none of it (nothing when the provider did not say).
    void warmupUsed(const Llm::Usage &usage);
    // A message was sent after its passages were warmed: with those passages (`same`), a hit.
    void contextWarmupUsed(bool same);

    // --- the bill ----------------------------------------------------------------------------
    // Everything billed against the user's answers priced as if nothing had been sent early:
    // what the early signals keep their guesses within (Speculator::decide()).
    BillEstimate &bill() { return m_bill; }
    const BillEstimate &bill() const { return m_bill; }

private:
    Metrics &m_metrics;
    BillEstimate m_bill;
};

} // namespace Prefetch
