#include "recorder.h"

#include "prefetch/stream/answerfetch.h"
#include "prefetch/stream/answerreader.h"

#include "llm/clock.h"

#include <algorithm>

namespace Prefetch {

namespace {

qint64 tokensOf(const Llm::Usage &usage)
{
    return std::max<qint64>(0, usage.inputTokens) + std::max<qint64>(0, usage.outputTokens);
}

void recordCacheOf(Metrics &metrics, Strategy strategy, const Llm::Usage &usage)
{
    if (usage.cacheReadTokens > 0 || usage.cacheWriteTokens > 0)
        metrics.recordCache(strategy, std::max<qint64>(0, usage.cacheReadTokens),
                            std::max<qint64>(0, usage.cacheWriteTokens));
}

} // namespace

Recorder::Recorder(Metrics &metrics)
    : m_metrics(metrics)
{
}

// --- guesses ---------------------------------------------------------------------------------

void Recorder::guessRefused(Strategy strategy, Outcome why)
{
    m_metrics.recordOutcome(strategy, why);
}

void Recorder::guessStarted(Strategy strategy)
{
    m_metrics.recordAttempt(strategy);
}

void Recorder::guessTakenOver(Strategy strategy, bool partial, double savedMs)
{
    m_metrics.recordOutcome(strategy, partial ? Outcome::PartialHit : Outcome::Hit);
    m_metrics.recordTimeSaved(strategy, savedMs);
}

void Recorder::guessMissed(Strategy strategy)
{
    m_metrics.recordOutcome(strategy, Outcome::Miss);
}

void Recorder::guessCancelled(Strategy strategy)
{
    m_metrics.recordOutcome(strategy, Outcome::Cancelled);
}

void Recorder::guessPreempted(Strategy strategy)
{
    m_metrics.recordOutcome(strategy, Outcome::Preempted);
}

void Recorder::guessEnded(Strategy strategy, PrefetchSession::State state)
{
    switch (state) {
    case PrefetchSession::State::Expired: m_metrics.recordOutcome(strategy, Outcome::Expired); break;
    case PrefetchSession::State::Failed: m_metrics.recordOutcome(strategy, Outcome::Failed); break;
    default: break; // cancellations were counted by whoever cancelled
    }
}

void Recorder::guessBilled(Strategy strategy, const Llm::ChatRequest &request, const Llm::Usage &billed, double money,
                           bool wasted)
{
    // Taken over, it is part of the answer's bill (answerEnded()).
    if (wasted)
        m_bill.billedAside(billed, money, &request, Llm::monotonicNowNs() / 1'000'000);
    recordCacheOf(m_metrics, strategy, billed);
    const qint64 spent = tokensOf(billed);
    m_metrics.recordTokens(strategy, spent, 0, wasted ? spent : 0);
    // A warm-up's prefill is the one the first answer on the document would have paid without
    // it: set against the cached answers it serves, its money would read as waste. Its extra
    // cost stays in tokens; the replay benchmark compares whole bills instead.
    if (strategy != Strategy::Warmup)
        m_metrics.recordCost(strategy, money, 0, wasted ? money : 0);
}

// --- answers ---------------------------------------------------------------------------------

void Recorder::answerShown(Strategy strategy, LatencyKind kind, double perceivedMs, std::optional<bool> fastModel)
{
    m_metrics.recordPerceivedLatency(strategy, kind, perceivedMs);
    if (fastModel)
        m_metrics.recordModelAnswer(*fastModel, perceivedMs);
}

void Recorder::answerEnded(Strategy strategy, const AnswerReader *handle, const Llm::Usage &usage, double money)
{
    // The provider's time to first token, of the answer's first request.
    const AnswerFetch *answer = handle->answer();
    if (answer && answer->firstTokenNs() >= 0 && answer->startedNs() >= 0)
        m_metrics.recordTtft(strategy, double(answer->firstTokenNs() - answer->startedNs()) / 1e6);
    m_metrics.recordTokens(strategy, 0, tokensOf(usage), 0);
    m_metrics.recordCost(strategy, 0, money, 0);
    recordCacheOf(m_metrics, strategy, usage);
    m_bill.answerEnded(answer, usage, money, Llm::monotonicNowNs() / 1'000'000);
}

void Recorder::answerReasked()
{
    m_metrics.recordReask();
}

// --- side requests ---------------------------------------------------------------------------

void Recorder::sideEnded(SidePurpose purpose, Metrics::SideEnd end, qint64 inputTokens, qint64 outputTokens,
                         double cost)
{
    Llm::Usage billed;
    billed.inputTokens = inputTokens;
    billed.outputTokens = outputTokens;
    m_bill.billedAside(billed, cost);
    if (purpose == SidePurpose::Classifier)
        m_metrics.recordClassifier(end, inputTokens, outputTokens, cost);
    else
        m_metrics.recordAcknowledgement(end, inputTokens, outputTokens, cost);
}

void Recorder::acknowledgementShown(double afterMs)
{
    m_metrics.recordAcknowledgementShown(afterMs);
}

void Recorder::acknowledgementLead(double leadMs)
{
    m_metrics.recordAcknowledgementLead(leadMs);
}

// --- warm-ups --------------------------------------------------------------------------------

void Recorder::warmedAnswerEnded(const Llm::Usage &usage)
{
    m_metrics.recordTokens(Strategy::Warmup, 0, tokensOf(usage), 0);
}

void Recorder::warmupUsed(const Llm::Usage &usage)
{
    if (usage.cacheReadTokens > 0) {
        m_metrics.recordOutcome(Strategy::Warmup, Outcome::Hit);
        m_metrics.recordCache(Strategy::Warmup, usage.cacheReadTokens, 0);
    } else if (usage.cacheReadTokens == 0) {
        m_metrics.recordOutcome(Strategy::Warmup, Outcome::Miss);
    }
}

void Recorder::contextWarmupUsed(bool same)
{
    m_metrics.recordOutcome(Strategy::Warmup, same ? Outcome::Hit : Outcome::Miss);
}

} // namespace Prefetch
