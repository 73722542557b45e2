#include "metrics.h"

#include "llm/clock.h"

#include <QCoreApplication>
#include <QJsonArray>
#include <QLocale>
#include <QStringList>

#include <algorithm>
#include <cmath>

namespace Prefetch {

namespace {

int indexOf(Strategy s)
{
    return int(s);
}

int indexOf(LatencyKind k)
{
    return int(k);
}

const char *kindId(LatencyKind k)
{
    switch (k) {
    case LatencyKind::Hit: return "hit";
    case LatencyKind::Miss: return "miss";
    case LatencyKind::NoPrefetch: return "noPrefetch";
    }
    return "noPrefetch";
}

constexpr LatencyKind AllKinds[] = {LatencyKind::Hit, LatencyKind::Miss, LatencyKind::NoPrefetch};
constexpr Strategy AllSlots[] = {Strategy::Warmup,     Strategy::Hover,     Strategy::Debounce, Strategy::Workflow,
                                 Strategy::Trajectory, Strategy::Selection, Strategy::Keyboard, Strategy::Reading,
                                 Strategy::Habits,     Strategy::None};

QJsonObject toJson(const Percentiles &p)
{
    return QJsonObject{{QStringLiteral("count"), double(p.count)},
                       {QStringLiteral("p50"), p.p50},
                       {QStringLiteral("p95"), p.p95}};
}

} // namespace

double StrategyStats::hitRate() const
{
    return attempts > 0 ? double(hits + partialHits) / double(attempts) : 0.0;
}

double StrategyStats::extraCostTokens() const
{
    return double(tokensWasted) / double(std::max<qint64>(tokensUsed, 1));
}

double StrategyStats::extraCostMoney() const
{
    if (costWasted <= 0)
        return 0;
    // Waste with nothing used yet: divided by what one token of output would cost, roughly a
    // unit as small as the token stand-in.
    return costWasted / std::max(costUsed, 1e-6);
}

double StrategyStats::extraCost() const
{
    return isPriced() ? extraCostMoney() : extraCostTokens();
}

// ---- Window ----------------------------------------------------------------------------------

template <typename T>
void Metrics::Ring<T>::setCapacity(qsizetype capacity)
{
    capacity = std::max<qsizetype>(1, capacity);
    if (capacity == m_capacity)
        return;
    QList<T> kept = values();
    if (kept.size() > capacity)
        kept = kept.last(capacity);
    m_values = std::move(kept);
    m_capacity = capacity;
    m_next = 0; // oldest first again; m_next only matters once full
}

template <typename T>
void Metrics::Ring<T>::add(const T &value)
{
    if (m_values.size() < m_capacity) {
        m_values.append(value);
        return;
    }
    m_values[m_next] = value;
    m_next = (m_next + 1) % m_capacity;
}

template <typename T>
void Metrics::Ring<T>::clear()
{
    m_values.clear();
    m_next = 0;
}

template <typename T>
QList<T> Metrics::Ring<T>::values() const
{
    QList<T> out;
    out.reserve(m_values.size());
    appendTo(out);
    return out;
}

template <typename T>
void Metrics::Ring<T>::appendTo(QList<T> &out) const
{
    // Once full, the oldest sample sits where the next one will go.
    for (qsizetype i = m_next; i < m_values.size(); ++i)
        out.append(m_values.at(i));
    for (qsizetype i = 0; i < m_next; ++i)
        out.append(m_values.at(i));
}

template class Metrics::Ring<double>;
template class Metrics::Ring<LatencySample>;

// ---- Metrics ---------------------------------------------------------------------------------

Metrics::Metrics(const Settings &settings, QObject *parent)
    : QObject(parent)
    , m_settings(settings)
{
    m_signalTimer.setSingleShot(true);
    connect(&m_signalTimer, &QTimer::timeout, this, &Metrics::changed);
    applyWindow();
}

void Metrics::setSettings(const Settings &settings)
{
    m_settings = settings;
    applyWindow();
    for (Strategy s : AllStrategies)
        evaluate(s);
    touch();
}

void Metrics::applyWindow()
{
    m_signalTimer.setInterval(m_settings.metricsSignalInterval);
    const qsizetype capacity = std::max(1, m_settings.latencyWindow);
    for (Slot &slot : m_slots) {
        for (Window &w : slot.perceived)
            w.setCapacity(capacity);
        slot.ttft.setCapacity(capacity);
    }
    m_recent.setCapacity(capacity);
    m_fastLatency.setCapacity(capacity);
    m_mainLatency.setCapacity(capacity);
}

Metrics::Slot &Metrics::slot(Strategy s)
{
    return m_slots[size_t(indexOf(s))];
}

const Metrics::Slot &Metrics::slot(Strategy s) const
{
    return m_slots[size_t(indexOf(s))];
}

void Metrics::touch()
{
    // A single-shot timer that is not restarted while running: a burst of records (a stream
    // delivering tokens) yields one `changed` per interval, and the last change is always
    // followed by one.
    if (!m_signalTimer.isActive())
        m_signalTimer.start();
}

void Metrics::recordAttempt(Strategy s)
{
    ++slot(s).stats.attempts;
    evaluate(s);
    touch();
}

void Metrics::recordOutcome(Strategy s, Outcome o)
{
    StrategyStats &st = slot(s).stats;
    switch (o) {
    case Outcome::Hit: ++st.hits; break;
    case Outcome::PartialHit: ++st.partialHits; break;
    case Outcome::Miss: ++st.misses; break;
    case Outcome::Cancelled: ++st.cancelled; break;
    case Outcome::Expired: ++st.expired; break;
    case Outcome::Failed: ++st.failed; break;
    case Outcome::Preempted: ++st.preempted; break;
    case Outcome::RejectedBudget: ++st.rejectedBudget; break;
    case Outcome::RejectedLane: ++st.rejectedLane; break;
    }
    evaluate(s);
    touch();
}

void Metrics::recordTokens(Strategy s, qint64 prefetched, qint64 used, qint64 wasted)
{
    StrategyStats &st = slot(s).stats;
    st.tokensPrefetched += std::max<qint64>(0, prefetched);
    st.tokensUsed += std::max<qint64>(0, used);
    st.tokensWasted += std::max<qint64>(0, wasted);
    evaluate(s);
    touch();
}

void Metrics::recordCost(Strategy s, double prefetched, double used, double wasted)
{
    StrategyStats &st = slot(s).stats;
    st.costPrefetched += std::max(0.0, prefetched);
    st.costUsed += std::max(0.0, used);
    st.costWasted += std::max(0.0, wasted);
    evaluate(s);
    touch();
}

void Metrics::recordCache(Strategy s, qint64 readTokens, qint64 writeTokens)
{
    StrategyStats &st = slot(s).stats;
    st.cacheReadTokens += std::max<qint64>(0, readTokens);
    st.cacheWriteTokens += std::max<qint64>(0, writeTokens);
    touch();
}

void Metrics::recordPerceivedLatency(Strategy s, LatencyKind kind, double ms)
{
    if (!std::isfinite(ms))
        return;
    Slot &sl = slot(s);
    sl.perceived[size_t(indexOf(kind))].add(ms);
    switch (kind) {
    case LatencyKind::Hit: ++sl.stats.answersHit; break;
    case LatencyKind::Miss: ++sl.stats.answersMiss; break;
    case LatencyKind::NoPrefetch: ++sl.stats.answersNoPrefetch; break;
    }
    m_recent.add({ms, kind, Llm::monotonicNowNs()});
    touch();
}

void Metrics::recordTtft(Strategy s, double ms)
{
    if (!std::isfinite(ms))
        return;
    slot(s).ttft.add(ms);
    touch();
}

void Metrics::recordTimeSaved(Strategy s, double ms)
{
    if (!std::isfinite(ms))
        return;
    slot(s).stats.timeSavedMs += ms;
    touch();
}

void Metrics::recordModelAnswer(bool fastModel, double perceivedMs)
{
    if (!std::isfinite(perceivedMs) || perceivedMs < 0)
        return;
    ++(fastModel ? m_routing.fastAnswers : m_routing.mainAnswers);
    (fastModel ? m_fastLatency : m_mainLatency).add(perceivedMs);
    touch();
}

void Metrics::recordReask()
{
    ++m_routing.reasked;
    touch();
}

RoutingStats Metrics::routing() const
{
    RoutingStats out = m_routing;
    out.fast = percentiles(m_fastLatency.values());
    out.main = percentiles(m_mainLatency.values());
    return out;
}

StrategyStats Metrics::stats(Strategy s) const
{
    return slot(s).stats;
}

Percentiles percentiles(QList<double> samples)
{
    Percentiles p;
    p.count = samples.size();
    if (samples.isEmpty())
        return p;
    std::sort(samples.begin(), samples.end());
    // Nearest rank: the smallest sample with at least q % of the samples at or below it,
    // rank ceil(q·N/100), in integers so that 95 % of 20 is exactly rank 19.
    const auto rank = [&](qsizetype q) {
        const qsizetype r = (q * p.count + 99) / 100;
        return samples.at(std::clamp<qsizetype>(r, 1, p.count) - 1);
    };
    p.p50 = rank(50);
    p.p95 = rank(95);
    return p;
}

Percentiles Metrics::perceived(Strategy s, LatencyKind kind) const
{
    return percentiles(slot(s).perceived[size_t(indexOf(kind))].values());
}

Percentiles Metrics::perceivedAll(LatencyKind kind) const
{
    QList<double> all;
    for (const Slot &sl : m_slots)
        sl.perceived[size_t(indexOf(kind))].appendTo(all);
    return percentiles(std::move(all));
}

Percentiles Metrics::ttft(Strategy s) const
{
    return percentiles(slot(s).ttft.values());
}

Percentiles Metrics::ttftAll() const
{
    QList<double> all;
    for (const Slot &sl : m_slots)
        sl.ttft.appendTo(all);
    return percentiles(std::move(all));
}

Percentiles Metrics::perceivedPrefetched(Strategy s) const
{
    QList<double> both;
    slot(s).perceived[size_t(indexOf(LatencyKind::Hit))].appendTo(both);
    slot(s).perceived[size_t(indexOf(LatencyKind::Miss))].appendTo(both);
    return percentiles(std::move(both));
}

qint64 Metrics::answersAll(LatencyKind kind) const
{
    qint64 n = 0;
    for (const Slot &sl : m_slots) {
        switch (kind) {
        case LatencyKind::Hit: n += sl.stats.answersHit; break;
        case LatencyKind::Miss: n += sl.stats.answersMiss; break;
        case LatencyKind::NoPrefetch: n += sl.stats.answersNoPrefetch; break;
        }
    }
    return n;
}

QList<LatencySample> Metrics::recentSamples(qsizetype n) const
{
    const QList<LatencySample> all = m_recent.values();
    n = std::clamp<qsizetype>(n, 0, all.size());
    return all.last(n);
}

QList<double> Metrics::recentPerceived(qsizetype n) const
{
    QList<double> out;
    for (const LatencySample &sample : recentSamples(n))
        out.append(sample.ms);
    return out;
}

bool Metrics::isDegraded(Strategy s) const
{
    return slot(s).stats.degraded;
}

QString Metrics::strategyName(Strategy s)
{
    switch (s) {
    case Strategy::Warmup: return QCoreApplication::translate("Prefetch::Metrics", "Context warm-up");
    case Strategy::Hover: return QCoreApplication::translate("Prefetch::Metrics", "Hover prefetch");
    case Strategy::Debounce: return QCoreApplication::translate("Prefetch::Metrics", "Typing prefetch");
    case Strategy::Workflow: return QCoreApplication::translate("Prefetch::Metrics", "Workflow prefetch");
    case Strategy::Trajectory: return QCoreApplication::translate("Prefetch::Metrics", "Pointer trajectory");
    case Strategy::Selection: return QCoreApplication::translate("Prefetch::Metrics", "Finished selection");
    case Strategy::Keyboard: return QCoreApplication::translate("Prefetch::Metrics", "Keyboard focus and shortcuts");
    case Strategy::Reading: return QCoreApplication::translate("Prefetch::Metrics", "Opened document");
    case Strategy::Habits: return QCoreApplication::translate("Prefetch::Metrics", "Your habits");
    case Strategy::None: return QCoreApplication::translate("Prefetch::Metrics", "No prefetch");
    }
    return QCoreApplication::translate("Prefetch::Metrics", "No prefetch");
}

QString Metrics::percent(double ratio)
{
    // Whole percents where that is exact enough, one decimal otherwise, so that 50.4 % is not
    // shown as "50 % is above 50 %". The layout of the sign is the translator's ("62 %", "62%").
    const double value = std::round(ratio * 1000.0) / 10.0;
    const QLocale locale;
    const QString number = value == std::round(value) ? locale.toString(qint64(value)) : locale.toString(value, 'f', 1);
    return QCoreApplication::translate("Prefetch::Metrics", "%1 %", "a percentage").arg(number);
}

void Metrics::evaluate(Strategy s)
{
    if (s == Strategy::None)
        return;
    StrategyStats &st = slot(s).stats;
    // Below the minimum there is nothing to judge: a few early misses must not raise an alarm
    // or pause a strategy.
    const bool enough = st.attempts >= std::max(1, m_settings.minAttemptsForAlarm);
    const QString name = strategyName(s);
    const QLocale locale;

    // Hit-rate alarm.
    const double rate = st.hitRate();
    const double floor = m_settings.hitRateFloor;
    const bool alarm = enough && rate < floor;
    st.alarmReason = alarm ? QCoreApplication::translate("Prefetch::Metrics",
                                                         "%1 alarm: hit rate %2 is below %3 after %4 attempts.")
                                 .arg(name, percent(rate), percent(floor), locale.toString(st.attempts))
                           : QString();

    // Extra-cost pause, with hysteresis.
    const double cost = st.extraCost();
    const double ceiling = m_settings.extraCostCeiling;
    const double resume = std::min(m_settings.extraCostResume, ceiling);
    bool degraded = st.degraded;
    if (!enough)
        degraded = false;
    else if (!degraded && cost > ceiling)
        degraded = true;
    else if (degraded && cost < resume)
        degraded = false;
    if (!degraded) {
        st.degradedReason.clear();
    } else if (st.extraCostUnbounded()) {
        st.degradedReason = QCoreApplication::translate(
                                "Prefetch::Metrics",
                                "%1 paused: %2 tokens were wasted and none used yet; it resumes when extra cost is "
                                "below %3.")
                                .arg(name, locale.toString(st.tokensWasted), percent(resume));
    } else {
        st.degradedReason = QCoreApplication::translate("Prefetch::Metrics",
                                                        "%1 paused: extra cost %2 is above %3; it resumes below %4.")
                                .arg(name, percent(cost), percent(ceiling), percent(resume));
    }

    // Past a line with too few attempts to judge: not an alarm, but the panel says why the
    // strategy still shows as active. No attempts at all says nothing (a rate of 0 of 0).
    const qint64 minimum = std::max(1, m_settings.minAttemptsForAlarm);
    QStringList early;
    if (!enough && st.attempts > 0 && rate < floor)
        early << QCoreApplication::translate("Prefetch::Metrics",
                                             "%1: hit rate %2 is below %3, but the alarm waits for %4 attempts "
                                             "(%5 so far).")
                     .arg(name, percent(rate), percent(floor), locale.toString(minimum), locale.toString(st.attempts));
    if (!enough && st.attempts > 0 && cost > ceiling)
        early << QCoreApplication::translate("Prefetch::Metrics",
                                             "%1: extra cost %2 is above %3, but the pause waits for %4 attempts "
                                             "(%5 so far).")
                     .arg(name, percent(cost), percent(ceiling), locale.toString(minimum),
                          locale.toString(st.attempts));
    st.tooFewAttempts = !early.isEmpty();
    st.tooFewAttemptsReason = early.join(QLatin1Char(' '));

    // Both states are stored before either signal goes out, so a receiver sees them consistent.
    const bool alarmChanges = alarm != st.alarm;
    const bool degradedChanges = degraded != st.degraded;
    st.alarm = alarm;
    st.degraded = degraded;
    if (alarmChanges) {
        const QString reason = alarm || !enough ? st.alarmReason
                                                : QCoreApplication::translate("Prefetch::Metrics",
                                                                              "%1: hit rate %2 is back at or above %3.")
                                                      .arg(name, percent(rate), percent(floor));
        emit alarmChanged(s, alarm, reason);
    }
    if (degradedChanges) {
        const QString reason = degraded || !enough
                                   ? st.degradedReason
                                   : QCoreApplication::translate("Prefetch::Metrics",
                                                                 "%1 resumed: extra cost %2 is below %3.")
                                         .arg(name, percent(cost), percent(resume));
        emit degradedChanged(s, degraded, reason);
    }
}

QJsonObject Metrics::snapshot() const
{
    const RoutingStats routed = routing(); // percentiles sort the windows: once
    QJsonObject strategies;
    for (Strategy s : AllSlots) {
        const Slot &sl = slot(s);
        const StrategyStats &st = sl.stats;
        QJsonObject perceivedObj;
        for (LatencyKind k : AllKinds)
            perceivedObj.insert(QLatin1String(kindId(k)), toJson(perceived(s, k)));
        const QJsonObject o{
            {QStringLiteral("attempts"), double(st.attempts)},
            {QStringLiteral("hits"), double(st.hits)},
            {QStringLiteral("partialHits"), double(st.partialHits)},
            {QStringLiteral("misses"), double(st.misses)},
            {QStringLiteral("cancelled"), double(st.cancelled)},
            {QStringLiteral("expired"), double(st.expired)},
            {QStringLiteral("failed"), double(st.failed)},
            {QStringLiteral("preempted"), double(st.preempted)},
            {QStringLiteral("rejectedBudget"), double(st.rejectedBudget)},
            {QStringLiteral("rejectedLane"), double(st.rejectedLane)},
            {QStringLiteral("tokensPrefetched"), double(st.tokensPrefetched)},
            {QStringLiteral("tokensUsed"), double(st.tokensUsed)},
            {QStringLiteral("tokensWasted"), double(st.tokensWasted)},
            {QStringLiteral("cacheReadTokens"), double(st.cacheReadTokens)},
            {QStringLiteral("cacheWriteTokens"), double(st.cacheWriteTokens)},
            {QStringLiteral("costPrefetched"), st.costPrefetched},
            {QStringLiteral("costUsed"), st.costUsed},
            {QStringLiteral("costWasted"), st.costWasted},
            {QStringLiteral("timeSavedMs"), st.timeSavedMs},
            {QStringLiteral("hitRate"), st.hitRate()},
            {QStringLiteral("extraCost"), st.extraCost()},
            {QStringLiteral("extraCostTokens"), st.extraCostTokens()},
            {QStringLiteral("extraCostMoney"), st.extraCostMoney()},
            {QStringLiteral("extraCostUnbounded"), st.extraCostUnbounded()},
            {QStringLiteral("alarm"), st.alarm},
            {QStringLiteral("alarmReason"), st.alarmReason},
            {QStringLiteral("degraded"), st.degraded},
            {QStringLiteral("degradedReason"), st.degradedReason},
            {QStringLiteral("tooFewAttempts"), st.tooFewAttempts},
            {QStringLiteral("tooFewAttemptsReason"), st.tooFewAttemptsReason},
            {QStringLiteral("answers"), QJsonObject{{QStringLiteral("hit"), double(st.answersHit)},
                                                    {QStringLiteral("miss"), double(st.answersMiss)},
                                                    {QStringLiteral("noPrefetch"), double(st.answersNoPrefetch)}}},
            {QStringLiteral("perceived"), perceivedObj},
            {QStringLiteral("ttft"), toJson(ttft(s))},
        };
        strategies.insert(QLatin1String(strategyId(s)), o);
    }
    QJsonObject all;
    QJsonObject answers;
    for (LatencyKind k : AllKinds) {
        all.insert(QLatin1String(kindId(k)), toJson(perceivedAll(k)));
        answers.insert(QLatin1String(kindId(k)), double(answersAll(k)));
    }
    QJsonArray recent;
    for (const LatencySample &sample : m_recent.values())
        recent.append(sample.ms);
    return QJsonObject{
        {QStringLiteral("strategies"), strategies},
        {QStringLiteral("perceivedAll"), all},
        {QStringLiteral("answersAll"), answers},
        {QStringLiteral("recentPerceived"), recent},
        {QStringLiteral("latencyWindow"), double(std::max(1, m_settings.latencyWindow))},
        {QStringLiteral("classifier"), toJson(m_classifier)},
        {QStringLiteral("acknowledgement"), toJson(m_acknowledgement)},
        {QStringLiteral("routing"), QJsonObject{{QStringLiteral("fastAnswers"), double(routed.fastAnswers)},
                                                {QStringLiteral("mainAnswers"), double(routed.mainAnswers)},
                                                {QStringLiteral("reasked"), double(routed.reasked)},
                                                {QStringLiteral("fast"), toJson(routed.fast)},
                                                {QStringLiteral("main"), toJson(routed.main)}}},
    };
}

void Metrics::clear(Slot &sl)
{
    // The flags survive so that evaluate() sees them go off and reports it.
    const bool alarm = sl.stats.alarm;
    const bool degraded = sl.stats.degraded;
    sl.stats = StrategyStats();
    sl.stats.alarm = alarm;
    sl.stats.degraded = degraded;
    for (Window &w : sl.perceived)
        w.clear();
    sl.ttft.clear();
}

void Metrics::resetStrategy(Strategy s)
{
    clear(slot(s));
    evaluate(s); // with no attempts both switch off, reported with an empty reason
    touch();
}

void Metrics::reset()
{
    for (Slot &sl : m_slots)
        clear(sl);
    m_recent.clear();
    m_classifier = ClassifierStats();
    m_acknowledgement = AcknowledgementStats();
    m_routing = RoutingStats();
    m_fastLatency.clear();
    m_mainLatency.clear();
    for (Strategy s : AllStrategies)
        evaluate(s);
    touch();
}

void Metrics::recordClassifier(SideEnd ended, qint64 inputTokens, qint64 outputTokens, double cost)
{
    m_classifier.record(ended, inputTokens, outputTokens, cost);
    touch();
}

void Metrics::recordAcknowledgement(SideEnd ended, qint64 inputTokens, qint64 outputTokens, double cost)
{
    m_acknowledgement.record(ended, inputTokens, outputTokens, cost);
    touch();
}

void Metrics::recordAcknowledgementShown(double afterMs)
{
    m_acknowledgement.recordShown(afterMs);
    touch();
}

void Metrics::recordAcknowledgementLead(double leadMs)
{
    m_acknowledgement.recordLead(leadMs);
    touch();
}

} // namespace Prefetch
