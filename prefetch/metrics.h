#pragma once

#include "settings.h"
#include "sidestats.h"
#include "strategy.h"

#include <QJsonObject>
#include <QList>
#include <QObject>
#include <QString>
#include <QTimer>

#include <array>

namespace Prefetch {

// How a prefetch ended (or why it never started: the two Rejected outcomes).
enum class Outcome { Hit, PartialHit, Miss, Cancelled, Expired, Failed, Preempted, RejectedBudget, RejectedLane };

// Which perceived-latency series a sample belongs to: the user activated something and a
// prefetch was taken over (Hit), one existed but could not be used (Miss), or none was tried.
enum class LatencyKind { Hit, Miss, NoPrefetch };

// Milliseconds, nearest-rank over the rolling window; -1 when the series is empty.
struct Percentiles {
    qsizetype count = 0;
    double p50 = -1;
    double p95 = -1;
};
// p50 and p95 of `samples` (any order), nearest rank.
Percentiles percentiles(QList<double> samples);

// One perceived latency with its series and when it was recorded (Llm::monotonicNowNs()), for
// a chart with a time axis.
struct LatencySample {
    double ms = 0;
    LatencyKind kind = LatencyKind::NoPrefetch;
    qint64 atNs = 0;
    bool operator==(const LatencySample &) const = default;
};

struct StrategyStats {
    qint64 attempts = 0; // prefetches started (rejected ones are not attempts)
    qint64 hits = 0, partialHits = 0, misses = 0, cancelled = 0, expired = 0, failed = 0, preempted = 0;
    qint64 rejectedBudget = 0, rejectedLane = 0;
    qint64 tokensPrefetched = 0, tokensUsed = 0, tokensWasted = 0, cacheReadTokens = 0, cacheWriteTokens = 0;
    // The same in money, as the provider bills them (its price table, cache reads and writes at
    // their own prices), in its currency. All zero for a free provider.
    double costPrefetched = 0, costUsed = 0, costWasted = 0;
    double timeSavedMs = 0; // summed
    // Answers shown to the user (perceived latencies recorded), cumulative, by series: taken
    // over from this strategy's prefetch, started afresh after its wrong guess, or started with
    // nothing prefetched although this strategy asked for them. Each answer is in exactly one.
    qint64 answersHit = 0, answersMiss = 0, answersNoPrefetch = 0;

    // (hits + partialHits) / attempts; 0 when no attempts.
    double hitRate() const;
    // What was wasted per unit used: in money where the provider has prices (a cached prompt
    // read costs a tenth of an uncached one at some providers, and tokens would overstate a
    // guess on a warm document), in tokens where it is free. Never NaN or infinite: 0 when
    // nothing was wasted, and waste with nothing used yet is divided by one unit (see
    // extraCostUnbounded()).
    double extraCost() const;
    double extraCostTokens() const;
    double extraCostMoney() const;
    bool isPriced() const { return costPrefetched > 0 || costUsed > 0; }
    // Waste and nothing used: the ratio has no finite value; extraCost() is a stand-in.
    bool extraCostUnbounded() const
    {
        return isPriced() ? costUsed == 0 && costWasted > 0 : tokensUsed == 0 && tokensWasted > 0;
    }

    bool alarm = false; // hit rate under the floor after >= minAttemptsForAlarm attempts
    QString alarmReason;
    bool degraded = false; // extra cost over the ceiling: the strategy is paused
    QString degradedReason;
    // Past the hit-rate floor or the extra-cost ceiling, but with fewer than
    // minAttemptsForAlarm attempts: no alarm or pause yet, and the reason says why.
    bool tooFewAttempts = false;
    QString tooFewAttemptsReason;
};

// Fast/slow routing's own line: the answers asked of the profile's fast model and of its main
// model (only where the two differ), their perceived first-token latency over the rolling
// window, and how often an answer of the fast model was asked of the main model again.
struct RoutingStats {
    qint64 fastAnswers = 0, mainAnswers = 0;
    qint64 reasked = 0;
    Percentiles fast, main;
};

// Live counters, latency percentiles and the two alarms of PREFETCH.md rule 1, per strategy.
// The record*() functions are what one outcome changes; the app calls them from one place, the
// engine's Recorder (recorder.h), which says what each thing that happened counts as. The metrics
// panel reads stats()/snapshot() on `changed`.
//
// Rolling windows: each latency series (per strategy and kind, TTFT per strategy, and the
// recent-samples chart series) keeps the last settings.latencyWindow samples in a ring buffer.
// Counters are cumulative until reset().
//
// Alarm: on when hitRate() < hitRateFloor once attempts >= minAttemptsForAlarm; off when it is
// back at or above the floor. Degraded: evaluated only once attempts >= minAttemptsForAlarm (one
// early wasted hover must not pause a strategy), on when extraCost() > extraCostCeiling, off
// when extraCost() < extraCostResume (a resume level above the ceiling is taken as the ceiling,
// so the state cannot flap). A paused strategy records nothing new, so it only resumes through
// fresh numbers: the engine letting a probe through, new settings, or reset()/resetStrategy().
// Strategy::None has counters and latency series but no alarms. Below minAttemptsForAlarm, numbers
// past either line set tooFewAttempts with a reason instead.
//
// Reasons are user-facing translated sentences with the numbers in them. While an alarm or
// pause is on, stats() carries the reason with the current numbers; the signal carries the
// numbers at the change. Switching off by numbers gives a "back above"/"resumed" sentence,
// switching off for lack of data (reset, a higher minimum) an empty reason.
//
// GUI thread only (it owns a QTimer and emits to widgets); not thread-safe.
class Metrics : public QObject
{
    Q_OBJECT

public:
    explicit Metrics(const Settings &settings = {}, QObject *parent = nullptr);

    // Applies new thresholds, window size and signal interval; re-evaluates the alarms at once.
    void setSettings(const Settings &settings);
    const Settings &settings() const { return m_settings; }

    void recordAttempt(Strategy s);
    void recordOutcome(Strategy s, Outcome o);
    void recordTokens(Strategy s, qint64 prefetched, qint64 used, qint64 wasted); // any may be 0
    void recordCost(Strategy s, double prefetched, double used, double wasted);   // money; any may be 0
    void recordCache(Strategy s, qint64 readTokens, qint64 writeTokens);
    // Activation -> first event delivered to the consumer.
    void recordPerceivedLatency(Strategy s, LatencyKind kind, double ms);
    // Provider time to first token.
    void recordTtft(Strategy s, double ms);
    void recordTimeSaved(Strategy s, double ms);
    // How a side request of the engine's own ended (Engine::startSideRequest). For the
    // classifier: one of its counters' kinds (see ClassifierStats). For the acknowledgement:
    // Answered and Truncated had the line (counted as shown by recordAcknowledgementShown()),
    // Fallback was too late or unusable.
    using SideEnd = Prefetch::SideEnd;
    void recordClassifier(SideEnd ended, qint64 inputTokens = 0, qint64 outputTokens = 0, double cost = 0);
    ClassifierStats classifier() const { return m_classifier; }
    // The acknowledgement's line: how each request ended and what it cost; its
    // line shown `afterMs` after the message was sent; the answer's first text `leadMs` after it.
    void recordAcknowledgement(SideEnd ended, qint64 inputTokens = 0, qint64 outputTokens = 0, double cost = 0);
    void recordAcknowledgementShown(double afterMs);
    void recordAcknowledgementLead(double leadMs);
    AcknowledgementStats acknowledgement() const { return m_acknowledgement; }
    // An answer shown, of the fast model or the main one (see RoutingStats); `perceivedMs` as
    // for recordPerceivedLatency().
    void recordModelAnswer(bool fastModel, double perceivedMs);
    // The user asked the main model for an answer the fast model gave.
    void recordReask();
    RoutingStats routing() const;

    StrategyStats stats(Strategy s) const;
    Percentiles perceived(Strategy s, LatencyKind kind) const;
    // Across strategies, Strategy::None included.
    Percentiles perceivedAll(LatencyKind kind) const;
    // The answers one strategy had a prefetch for: its Hit and Miss series together.
    Percentiles perceivedPrefetched(Strategy s) const;
    // Answers shown of one series across strategies, cumulative until reset() (not windowed).
    qint64 answersAll(LatencyKind kind) const;
    Percentiles ttft(Strategy s) const;
    // Across strategies, Strategy::None included: how long the provider takes to a first token
    // lately, whoever asked.
    Percentiles ttftAll() const;
    // The last n perceived-latency samples of any kind and strategy, oldest first (for a chart);
    // at most settings.latencyWindow.
    QList<double> recentPerceived(qsizetype n) const;
    // The same samples with their series and time.
    QList<LatencySample> recentSamples(qsizetype n) const;
    bool isDegraded(Strategy s) const;

    // Everything above, machine-readable; the keys are listed in docs/prefetch.md, "Metrics".
    QJsonObject snapshot() const;

    // Clears everything; alarms and pauses that were on are reported off.
    void reset();
    // Clears one strategy's counters and series (e.g. "resume now" after a pause); its alarm
    // and pause are reported off.
    void resetStrategy(Strategy s);

    // The user-facing name used in reasons, e.g. "Hover prefetch" (translated).
    static QString strategyName(Strategy s);

signals:
    // Coalesced: at most once per settings.metricsSignalInterval, and once after the last change.
    void changed();
    void alarmChanged(Prefetch::Strategy s, bool on, const QString &reason);
    void degradedChanged(Prefetch::Strategy s, bool degraded, const QString &reason);

private:
    // Fixed-capacity ring of the newest samples (instantiated for double and LatencySample).
    template <typename T>
    class Ring
    {
    public:
        void setCapacity(qsizetype capacity);
        void add(const T &value);
        void clear();
        qsizetype size() const { return m_values.size(); }
        QList<T> values() const; // oldest first
        void appendTo(QList<T> &out) const;

    private:
        QList<T> m_values;
        qsizetype m_capacity = 1;
        qsizetype m_next = 0; // where the next sample goes once full
    };
    using Window = Ring<double>;

    static constexpr int StrategyCount = int(Strategy::None) + 1; // Strategy::None included
    static constexpr int LatencyKindCount = 3;

    struct Slot {
        StrategyStats stats;
        std::array<Window, LatencyKindCount> perceived;
        Window ttft;
    };

    Slot &slot(Strategy s);
    const Slot &slot(Strategy s) const;
    static void clear(Slot &slot);
    void evaluate(Strategy s);
    void touch();
    void applyWindow();
    static QString percent(double ratio);

    Settings m_settings;
    std::array<Slot, StrategyCount> m_slots;
    Ring<LatencySample> m_recent; // the newest samples of any series and strategy
    ClassifierStats m_classifier;
    AcknowledgementStats m_acknowledgement;
    RoutingStats m_routing; // counters; the percentiles come from the windows
    Window m_fastLatency, m_mainLatency;
    QTimer m_signalTimer;
};

} // namespace Prefetch
