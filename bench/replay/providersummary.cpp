#include "providersummary.h"

#include "report.h"
#include "summary.h"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace Bench {

namespace {

// The class of a run: each generated trace kind is one (a writer's clicks, a chat, the wizard).
QString classOf(const RunResult &run)
{
    return run.samples.isEmpty() ? QString() : run.samples.constFirst().kind;
}

QString className(const QString &kind)
{
    if (kind == u"action")
        return QStringLiteral("document actions");
    return kind;
}

// One provider × class × mode × response-cache setting, pooled over the held-out seeds.
struct ClassFigures {
    int activations = 0;
    QList<double> latencies, stalls;
    double cost = 0, offCost = 0;

    bool isEmpty() const { return activations == 0; }
    double p50() const { return Prefetch::percentiles(latencies).p50; }
    double p95() const { return Prefetch::percentiles(latencies).p95; }
    double mean() const
    {
        return latencies.isEmpty() ? -1 : std::accumulate(latencies.cbegin(), latencies.cend(), 0.0) / latencies.size();
    }
    double within(double ms) const
    {
        if (activations == 0)
            return -1;
        return double(std::count_if(latencies.cbegin(), latencies.cend(), [ms](double v) { return v <= ms; }))
               / activations;
    }
    double stallP95() const { return Prefetch::percentiles(stalls).p95; }
    double extra() const { return offCost > 0 ? cost / offCost - 1 : -1; }
};

ClassFigures figures(const Report &report, const QString &preset, const QString &kind, Mode mode, CacheUse cache)
{
    ClassFigures out;
    for (const RunFigures &f : report.runs) {
        const RunResult &r = *f.run;
        // The defaults but for the response cache's own setting.
        if (!isHeldOut(f) || r.preset != preset || r.mode != mode || r.cacheUse != cache || !r.prefetchVariant.isEmpty()
            || classOf(r) != kind)
            continue;
        for (const Sample &s : r.samples) {
            ++out.activations;
            if (s.perceivedMs >= 0)
                out.latencies.append(s.perceivedMs);
            if (s.stallMs >= 0)
                out.stalls.append(s.stallMs);
        }
        out.cost += r.billing.cost();
        if (const RunFigures *off = report.offFor(f))
            out.offCost += off->run->billing.cost();
    }
    return out;
}

QString ms(double value)
{
    return value < 0 ? QStringLiteral("–") : QString::number(value, 'f', 0);
}

QString share(double ratio)
{
    return ratio < 0 ? QStringLiteral("–") : QStringLiteral("%1 %").arg(ratio * 100, 0, 'f', 0);
}

QString signedShare(double ratio)
{
    return ratio <= -1 ? QStringLiteral("–")
                       : QStringLiteral("%1%2 %").arg(ratio >= 0 ? "+" : "").arg(ratio * 100, 0, 'f', 0);
}

// "1611 → 215 (−87 %)": the p50 before and after, and how much of the wait went (or came).
// Below a millisecond on both sides there is no wait to compare.
QString gain(const ClassFigures &from, const ClassFigures &to)
{
    if (from.isEmpty() || to.isEmpty())
        return QStringLiteral("–");
    const double a = from.p50(), b = to.p50();
    const QString figures = QStringLiteral("%1 → %2").arg(ms(a), ms(b));
    if (a < 1 && b < 1)
        return figures;
    const double change = a > 0 ? (b / a - 1) * 100 : 0;
    return QStringLiteral("%1 (%2%3 %)")
        .arg(figures, change < 0 ? QStringLiteral("−") : QStringLiteral("+"))
        .arg(std::abs(change), 0, 'f', 0);
}

} // namespace

QString providerMarkdown(const Report &report)
{
    QStringList presets, kinds;
    bool cacheOff = false;
    for (const RunFigures &f : report.runs) {
        const RunResult &r = *f.run;
        const auto preset = Preset::byName(r.preset);
        if (!preset || preset->provider.isEmpty() || !isHeldOut(f))
            continue;
        if (!presets.contains(r.preset))
            presets.append(r.preset);
        const QString kind = classOf(r);
        if (!kind.isEmpty() && !kinds.contains(kind))
            kinds.append(kind);
        cacheOff = cacheOff || r.cacheUse == CacheUse::Off;
    }
    if (presets.isEmpty())
        return {};
    const QStringList order{QStringLiteral("action"), QStringLiteral("chat"), QStringLiteral("wizard")};
    std::sort(kinds.begin(), kinds.end(),
              [&](const QString &a, const QString &b) { return order.indexOf(a) < order.indexOf(b); });

    QString md = QStringLiteral(
        "\n## Per provider and class of activation (issue 37)\n\n"
        "Each provider's profile of the local provider (docs/localprovider.md gives every number's source), "
        "the engine talking to it with that provider's own built-in profile: its model's continuation, "
        "thinking form, cache rules and prices (docs/providers.md). All strategies on with the app's "
        "defaults, consent given, the response cache on, every trace kind of the class, the seeds held out "
        "pooled. Extra cost is what the provider would bill the runs against the same traces with "
        "prefetch off, at that provider's list prices in US dollars.\n\n"
        "| provider | class | activations | off p50 / p95 ms | all p50 ms | p95 ms | mean ms | ≤ 100 ms | ≤ 300 ms | "
        "stall p95 ms | extra cost |\n|---|---|---|---|---|---|---|---|---|---|---|\n");
    for (const QString &preset : std::as_const(presets)) {
        for (const QString &kind : std::as_const(kinds)) {
            const ClassFigures off = figures(report, preset, kind, Mode::Off, CacheUse::On);
            const ClassFigures all = figures(report, preset, kind, Mode::All, CacheUse::On);
            if (all.isEmpty())
                continue;
            md += QStringLiteral("| %1 | %2 | %3 | %4 / %5 | %6 | %7 | %8 | %9 | %10 | %11 | %12 |\n")
                      .arg(preset, className(kind))
                      .arg(all.activations)
                      .arg(ms(off.p50()), ms(off.p95()), ms(all.p50()), ms(all.p95()), ms(all.mean()),
                           share(all.within(100)), share(all.within(300)), ms(all.stallP95()))
                      .arg(signedShare(all.extra()));
        }
    }

    if (cacheOff) {
        md += QStringLiteral(
            "\n### The response cache apart from prefetch\n\n"
            "Perceived p50, ms: prefetch's gain (off → all) with the response cache off and with it on, and "
            "the cache's own effect with every strategy on (cache off → on, and what the provider billed).\n\n"
            "| provider | class | prefetch's gain, cache off | prefetch's gain, cache on | the cache, all on: p50 | "
            "the cache, all on: billed |\n|---|---|---|---|---|---|\n");
        for (const QString &preset : std::as_const(presets)) {
            for (const QString &kind : std::as_const(kinds)) {
                const ClassFigures offNoCache = figures(report, preset, kind, Mode::Off, CacheUse::Off);
                const ClassFigures allNoCache = figures(report, preset, kind, Mode::All, CacheUse::Off);
                const ClassFigures off = figures(report, preset, kind, Mode::Off, CacheUse::On);
                const ClassFigures all = figures(report, preset, kind, Mode::All, CacheUse::On);
                const double billed = allNoCache.cost > 0 ? all.cost / allNoCache.cost - 1 : -1;
                md += QStringLiteral("| %1 | %2 | %3 | %4 | %5 | %6 |\n")
                          .arg(preset, className(kind), gain(offNoCache, allNoCache), gain(off, all),
                               gain(allNoCache, all), signedShare(billed));
            }
        }
    }

    md += QStringLiteral("\n### Issue 37's targets\n\n"
                         "Document actions and the wizard, all on with the defaults, seeds held out.\n\n"
                         "| provider | class | p50 ≤ 150 ms | p95 ≤ 750 ms | extra cost ≤ 40 % | stall p95 ≤ 250 ms |\n"
                         "|---|---|---|---|---|---|\n");
    // "215 ✓", or the figure in bold where the target is missed; a figure not measured is "–".
    const auto mark = [](bool measured, bool met, const QString &text) {
        return !measured ? QStringLiteral("–") : met ? text + QStringLiteral(" ✓") : QStringLiteral("**%1**").arg(text);
    };
    for (const QString &preset : std::as_const(presets)) {
        for (const QString &kind : {QStringLiteral("action"), QStringLiteral("wizard")}) {
            const ClassFigures all = figures(report, preset, kind, Mode::All, CacheUse::On);
            if (all.isEmpty())
                continue;
            md += QStringLiteral("| %1 | %2 | %3 | %4 | %5 | %6 |\n")
                      .arg(preset, className(kind), mark(all.p50() >= 0, all.p50() <= 150, ms(all.p50())),
                           mark(all.p95() >= 0, all.p95() <= 750, ms(all.p95())),
                           mark(all.offCost > 0, all.extra() <= 0.40, signedShare(all.extra())),
                           mark(all.stallP95() >= 0, all.stallP95() <= 250, ms(all.stallP95())));
        }
    }
    return md;
}

} // namespace Bench
