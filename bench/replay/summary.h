#pragma once

#include "replayer.h"

#include <QImage>
#include <QList>
#include <QMap>
#include <QString>

#include <functional>

namespace Bench {

struct Report;
struct RunFigures;

// Many runs of one profile × mode × settings variant taken together (the traces of every kind
// and several seeds): the figures issue 10's targets are stated in. Latencies are pooled over
// every activation; cost is what the provider billed, against the same traces with prefetch off.
struct Pooled {
    QString preset;
    Mode mode = Mode::Off;
    QString variant;
    CacheUse cacheUse = CacheUse::On; // the frontier is drawn at the app's cache setting
    QList<qint64> seeds;
    int runs = 0;
    int activations = 0, full = 0, partial = 0, fresh = 0, stopped = 0,
        cached = 0; // cached: the response cache answered
    double p50 = -1, p95 = -1, stallP95 = -1;
    QMap<QString, double> kindP50; // per trace kind
    QList<double> seedP50;         // each seed's pooled p50, in seed order
    double cost = 0, offCost = 0;  // billed money: these runs, and their traces with prefetch off
    double maxLateMs = 0;
    // Billed money of the runs' guesses and whole answers, by purpose (a strategy id or
    // "foreground"), and the engine's counters summed over the runs.
    QMap<QString, double> costByPurpose;
    QMap<Prefetch::Strategy, Prefetch::StrategyStats> stats;

    double extraMoney() const { return offCost > 0 ? cost / offCost - 1 : -1; }
    double kind(const QString &name) const { return kindP50.value(name, -1); }
};

// Seeds above 1 are held out: the strategies were tuned on seed 1 (the committed traces), so
// the targets are judged on the others.
bool isHeldOut(const RunFigures &run);
bool hasHeldOutRuns(const Report &report);

// The runs `accept` lets through, grouped by profile × mode × variant, in the report's order.
QList<Pooled> pool(const Report &report, const std::function<bool(const RunFigures &)> &accept);

// The markdown sections of a multi-seed run: issue 10's targets (seeds 2–6 pooled, seed 1
// beside), every profile × mode × variant pooled, the trace kinds, the strategies and the
// latency/cost frontier. Empty when the report has no run with a seed.
QString summaryMarkdown(const Report &report, const QStringList &chartFiles);

// The latency/cost frontier: pooled p50 (and p95) against extra cost in money, one point per
// settings variant of `mode` on `preset`, labelled with its variant. Needs a QGuiApplication.
// The settings variants of `preset` with every strategy on and the response cache on, from
// `pooled`: one profile's latency/cost frontier (the defaults and the variants beside them).
QList<Pooled> frontierOf(const QList<Pooled> &pooled, const QString &preset);
QImage frontierChart(const QList<Pooled> &variants, const QString &title);
// The file of a profile's frontier chart: frontier.png for hosted (the first one there was),
// frontier-<profile>.png for the others.
QString frontierChartFile(const QString &preset);

} // namespace Bench
