#include "report.h"

#include "cachesummary.h"
#include "estimatesummary.h"

#include "charts.h"
#include "providersummary.h"
#include "summary.h"
#include "sweepsummary.h"

#include <QDateTime>
#include <QDir>
#include <QJsonArray>
#include <QJsonDocument>
#include <QSaveFile>

#include <algorithm>
#include <cmath>

namespace Bench {

namespace {

using Prefetch::Strategy;

QString ms(double value)
{
    if (value < 0)
        return QStringLiteral("–");
    return value < 10 ? QString::number(value, 'f', 1) : QString::number(std::llround(value));
}

QString pct(double ratio)
{
    return ratio < 0 ? QStringLiteral("–") : QStringLiteral("%1 %").arg(std::llround(ratio * 100));
}

QString times(double ratio)
{
    return ratio < 0 ? QStringLiteral("–")
                     : QStringLiteral("%1×").arg(QString::number(ratio, 'f', ratio < 0.1 ? 3 : 2));
}

QLatin1StringView originId(Prefetch::AnswerReader::Origin origin)
{
    switch (origin) {
    case Prefetch::AnswerReader::Origin::Fresh: return QLatin1StringView("fresh");
    case Prefetch::AnswerReader::Origin::Hit: return QLatin1StringView("hit");
    case Prefetch::AnswerReader::Origin::PartialHit: return QLatin1StringView("partial");
    case Prefetch::AnswerReader::Origin::Cached: return QLatin1StringView("cached");
    }
    return QLatin1StringView("?");
}

double hitRate(const Prefetch::StrategyStats &s)
{
    return s.attempts > 0 ? s.hitRate() : -1;
}

struct Target {
    QString name;  // what is promised
    QString where; // trace × preset × mode
    QString value; // what was measured
    bool met = false;
};

} // namespace

QList<Strategy> strategiesOf(Mode mode)
{
    switch (mode) {
    case Mode::Off: return {};
    case Mode::Warmup: return {Strategy::Warmup};
    case Mode::Hover: return {Strategy::Hover};
    case Mode::Debounce: return {Strategy::Debounce};
    case Mode::Workflow: return {Strategy::Workflow};
    case Mode::Early:
        return {Strategy::Trajectory, Strategy::Selection, Strategy::Keyboard, Strategy::Reading, Strategy::Habits};
    case Mode::All:
        return {Strategy::Warmup,    Strategy::Hover,    Strategy::Debounce, Strategy::Workflow, Strategy::Trajectory,
                Strategy::Selection, Strategy::Keyboard, Strategy::Reading,  Strategy::Habits};
    }
    return {};
}

Report Report::build(const QList<const RunResult *> &results, double speed)
{
    Report report;
    report.speed = speed;
    report.date = QDateTime::currentDateTimeUtc().toString(Qt::ISODate);
    for (const RunResult *r : results) {
        RunFigures f;
        f.trace = r->trace;
        f.preset = r->preset;
        f.mode = r->mode;
        f.run = r;
        QList<double> first;
        for (const Sample &s : r->samples) {
            ++f.activations;
            if (s.perceivedMs < 0)
                continue;
            ++f.answered;
            f.prefetched += s.prefetched() ? 1 : 0;
            f.perceived.append(s.perceivedMs);
            if (s.firstOnDocument)
                first.append(s.perceivedMs);
        }
        const Prefetch::Percentiles all = Prefetch::percentiles(f.perceived);
        f.p50 = all.p50;
        f.p95 = all.p95;
        f.firstOnDocumentP50 = Prefetch::percentiles(first).p50;
        qint64 used = 0, wasted = 0;
        for (auto it = r->stats.cbegin(); it != r->stats.cend(); ++it) {
            // Warm-up's used tokens are the answers it served, counted already under the
            // strategy (or the foreground) that answered them: counted once.
            if (it.key() != Strategy::Warmup)
                used += it.value().tokensUsed;
            wasted += it.value().tokensWasted;
        }
        f.extraCost = used > 0 ? double(wasted) / double(used) : (wasted > 0 ? -1 : 0);
        report.runs.append(f);
    }
    for (RunFigures &f : report.runs) {
        const RunFigures *off = report.offFor(f);
        if (!off)
            continue;
        if (off->p50 > 0 && f.p50 >= 0)
            f.ratioP50 = f.p50 / off->p50;
        if (off->p95 > 0 && f.p95 >= 0)
            f.ratioP95 = f.p95 / off->p95;
        const qint64 offTokens = off->run->promptTokens + off->run->outputTokens;
        if (offTokens > 0)
            f.tokensVsOff = double(f.run->promptTokens + f.run->outputTokens) / double(offTokens);
    }
    return report;
}

const RunFigures *Report::offFor(const RunFigures &f) const
{
    for (const RunFigures &o : runs) {
        if (o.trace == f.trace && o.preset == f.preset && o.mode == Mode::Off && o.run->cacheUse == f.run->cacheUse)
            return &o;
    }
    return find(f.trace, f.preset, Mode::Off);
}

const RunFigures *Report::find(const QString &trace, const QString &preset, Mode mode) const
{
    for (const RunFigures &f : runs) {
        if (f.trace == trace && f.preset == preset && f.mode == mode)
            return &f;
    }
    return nullptr;
}

namespace {

// Issue 5's targets, each on the runs that show it. A target whose trace or preset was not in
// this benchmark is left out.
QList<Target> checkTargets(const Report &report)
{
    QList<Target> targets;
    const auto stats = [](const RunFigures *f, Strategy s) {
        return f ? f->run->stats.value(s) : Prefetch::StrategyStats{};
    };
    QStringList presets;
    for (const RunFigures &f : report.runs) {
        if (!presets.contains(f.preset))
            presets.append(f.preset);
    }
    for (const QString &preset : presets) {
        if (const RunFigures *w = report.find(QStringLiteral("wizard-session"), preset, Mode::Workflow)) {
            const auto s = stats(w, Strategy::Workflow);
            targets.append({QStringLiteral("workflow: hit rate ≥ 97 %, perceived p50 ≤ 16 ms"),
                            QStringLiteral("wizard-session × %1").arg(preset),
                            QStringLiteral("hit rate %1 (%2/%3), p50 %4 ms")
                                .arg(pct(hitRate(s)))
                                .arg(s.hits + s.partialHits)
                                .arg(s.attempts)
                                .arg(ms(w->p50)),
                            hitRate(s) >= 0.97 && w->p50 >= 0 && w->p50 <= 16});
        }
        for (const QString &trace : {QStringLiteral("writer-long-doc"), QStringLiteral("hesitant-user")}) {
            const RunFigures *h = report.find(trace, preset, Mode::Hover);
            const RunFigures *off = report.find(trace, preset, Mode::Off);
            if (!h || !off)
                continue;
            const auto s = stats(h, Strategy::Hover);
            const double cut = h->ratioP50 >= 0 ? 1 - h->ratioP50 : -1;
            targets.append({QStringLiteral("hover: perceived p50 cut ≥ 75 % at extra cost ≤ 25 %"),
                            QStringLiteral("%1 × %2").arg(trace, preset),
                            QStringLiteral("p50 %1 → %2 ms (cut %3), extra cost %4, hit rate %5")
                                .arg(ms(off->p50), ms(h->p50), pct(cut), pct(s.extraCost()), pct(hitRate(s))),
                            cut >= 0.75 && s.extraCost() <= 0.25});
        }
        if (const RunFigures *d = report.find(QStringLiteral("chat-session"), preset, Mode::Debounce)) {
            const auto s = stats(d, Strategy::Debounce);
            targets.append({QStringLiteral("debounce: hit rate ≥ 65 % at extra cost ≤ 30 %"),
                            QStringLiteral("chat-session × %1").arg(preset),
                            QStringLiteral("hit rate %1 (%2/%3), extra cost %4")
                                .arg(pct(hitRate(s)))
                                .arg(s.hits + s.partialHits)
                                .arg(s.attempts)
                                .arg(pct(s.extraCost())),
                            hitRate(s) >= 0.65 && s.extraCost() <= 0.30});
        }
    }
    for (const RunFigures &f : report.runs) {
        if (f.preset != u"hosted-long-doc" || f.mode != Mode::Warmup)
            continue;
        const RunFigures *off = report.find(f.trace, f.preset, Mode::Off);
        if (!off || off->firstOnDocumentP50 <= 0 || f.firstOnDocumentP50 < 0)
            continue;
        const double cut = 1 - f.firstOnDocumentP50 / off->firstOnDocumentP50;
        const double cutAll = f.ratioP50 >= 0 ? 1 - f.ratioP50 : -1;
        targets.append(
            {QStringLiteral("warm-up: TTFT cut ≥ 85 % on the long-document profile"),
             QStringLiteral("%1 × hosted-long-doc").arg(f.trace),
             QStringLiteral("first answer on a document p50 %1 → %2 ms (cut %3); all answers p50 %4 → %5 ms (cut %6)")
                 .arg(ms(off->firstOnDocumentP50), ms(f.firstOnDocumentP50), pct(cut), ms(off->p50), ms(f.p50),
                      pct(cutAll)),
             cut >= 0.85});
    }
    return targets;
}

QJsonObject strategyJson(const Prefetch::StrategyStats &s)
{
    return QJsonObject{{QStringLiteral("attempts"), s.attempts},
                       {QStringLiteral("hits"), s.hits + s.partialHits},
                       {QStringLiteral("partial_hits"), s.partialHits},
                       {QStringLiteral("misses"), s.misses},
                       {QStringLiteral("cancelled"), s.cancelled},
                       {QStringLiteral("expired"), s.expired},
                       {QStringLiteral("failed"), s.failed},
                       {QStringLiteral("preempted"), s.preempted},
                       {QStringLiteral("rejected_budget"), s.rejectedBudget},
                       {QStringLiteral("rejected_lane"), s.rejectedLane},
                       {QStringLiteral("hit_rate"), hitRate(s)},
                       {QStringLiteral("tokens_used"), s.tokensUsed},
                       {QStringLiteral("tokens_wasted"), s.tokensWasted},
                       {QStringLiteral("extra_cost"),
                        s.extraCostUnbounded() ? QJsonValue() : QJsonValue(s.extraCost())},
                       {QStringLiteral("degraded"), s.degraded}};
}

} // namespace

QJsonObject Report::toJson() const
{
    QJsonArray runsJson;
    for (const RunFigures &f : runs) {
        QJsonObject strategies;
        for (Strategy s : strategiesOf(f.mode))
            strategies.insert(QLatin1StringView(Prefetch::strategyId(s)), strategyJson(f.run->stats.value(s)));
        runsJson.append(QJsonObject{
            {QStringLiteral("trace"), f.trace},
            {QStringLiteral("kind"), f.run->kind},
            {QStringLiteral("seed"), f.run->seed},
            {QStringLiteral("variant"), f.run->variant},
            {QStringLiteral("late_ms"), f.run->lateMs},
            {QStringLiteral("profile"), f.preset},
            {QStringLiteral("mode"), QLatin1StringView(modeId(f.mode))},
            {QStringLiteral("activations"), f.activations},
            {QStringLiteral("answered"), f.answered},
            {QStringLiteral("prefetched"), f.prefetched},
            {QStringLiteral("perceived_p50_ms"), f.p50},
            {QStringLiteral("perceived_p95_ms"), f.p95},
            {QStringLiteral("first_on_document_p50_ms"), f.firstOnDocumentP50},
            {QStringLiteral("ratio_p50_vs_off"), f.ratioP50},
            {QStringLiteral("ratio_p95_vs_off"), f.ratioP95},
            {QStringLiteral("hit_rate"),
             [&] {
                 qint64 attempts = 0, hits = 0;
                 for (Strategy s : strategiesOf(f.mode)) {
                     attempts += f.run->stats.value(s).attempts;
                     hits += f.run->stats.value(s).hits + f.run->stats.value(s).partialHits;
                 }
                 return attempts > 0 ? QJsonValue(double(hits) / double(attempts)) : QJsonValue();
             }()},
            {QStringLiteral("extra_cost"), f.extraCost < 0 ? QJsonValue() : QJsonValue(f.extraCost)},
            {QStringLiteral("strategies"), strategies},
            {QStringLiteral("tokens"), QJsonObject{{QStringLiteral("prompt"), f.run->promptTokens},
                                                   {QStringLiteral("output"), f.run->outputTokens},
                                                   {QStringLiteral("cache_hit"), f.run->cacheHitTokens},
                                                   {QStringLiteral("requests"), f.run->requests},
                                                   {QStringLiteral("prefetch_requests"), f.run->prefetchRequests},
                                                   {QStringLiteral("vs_off"), f.tokensVsOff}}},
            {QStringLiteral("billed"),
             [&] {
                 const auto tokens = [](const LocalProvider::BilledTokens &b) {
                     return QJsonObject{{QStringLiteral("input_uncached"), b.inputUncached},
                                        {QStringLiteral("cache_read"), b.cacheRead},
                                        {QStringLiteral("cache_write"), b.cacheWrite},
                                        {QStringLiteral("output"), b.output}};
                 };
                 QJsonObject byPurpose;
                 for (auto it = f.run->billing.byPurpose.cbegin(); it != f.run->billing.byPurpose.cend(); ++it) {
                     QJsonObject o = tokens(it.value());
                     o.insert(QStringLiteral("cost"), f.run->billing.cost(it.value()));
                     byPurpose.insert(it.key(), o);
                 }
                 QJsonObject o = tokens(f.run->billing.total);
                 o.insert(QStringLiteral("cost"), f.run->billing.cost());
                 o.insert(QStringLiteral("by_purpose"), byPurpose);
                 return o;
             }()},
            {QStringLiteral("response_cache"),
             QJsonObject{{QStringLiteral("use"), QLatin1StringView(cacheUseId(f.run->cacheUse))},
                         {QStringLiteral("exact_hits"), f.run->cache.exactHits},
                         {QStringLiteral("near_served"), f.run->cache.nearServed},
                         {QStringLiteral("near_drafts"), f.run->cache.nearDrafts},
                         {QStringLiteral("drafts_replaced"), f.run->cache.draftsReplaced},
                         {QStringLiteral("misses"), f.run->cache.misses},
                         {QStringLiteral("stored"), f.run->cache.stored},
                         {QStringLiteral("saved_ms"), f.run->cache.savedMs}}},
            {QStringLiteral("app_estimate"),
             QJsonObject{{QStringLiteral("billed"), f.run->appBilled},
                         {QStringLiteral("without_prefetch"), f.run->appWithout},
                         {QStringLiteral("cutting_at_end"), f.run->appCutting}}},
            {QStringLiteral("wall_seconds"), f.run->wallSeconds},
            {QStringLiteral("samples"),
             [&] {
                 QJsonArray samples;
                 for (const Sample &s : f.run->samples)
                     samples.append(
                         QJsonObject{{QStringLiteral("kind"), s.kind},
                                     {QStringLiteral("perceived_ms"), s.perceivedMs},
                                     {QStringLiteral("stopped"), s.stopped},
                                     {QStringLiteral("origin"), originId(s.origin)},
                                     {QStringLiteral("served_by"), QLatin1StringView(Prefetch::strategyId(s.servedBy))},
                                     {QStringLiteral("stall_ms"), s.stallMs},
                                     {QStringLiteral("first_on_document"), s.firstOnDocument},
                                     {QStringLiteral("cache"), QLatin1StringView(cacheLevelId(s.cache))},
                                     {QStringLiteral("draft_ms"), s.draftMs},
                                     {QStringLiteral("draft_replaced"), s.draftReplaced},
                                     {QStringLiteral("guessed_before_ms"), s.guessedBeforeMs},
                                     {QStringLiteral("sent_before_ms"), s.sentBeforeMs},
                                     {QStringLiteral("action"), s.action},
                                     {QStringLiteral("suggestion_clicked"), s.suggestionClicked},
                                     {QStringLiteral("completion_taken"), s.completionTaken},
                                     {QStringLiteral("opening_chars"), qint64(s.openingChars)},
                                     {QStringLiteral("guesses_live"), QJsonArray::fromStringList(s.guessesLive)}});
                 return samples;
             }()},
            {QStringLiteral("problems"), QJsonArray::fromStringList(f.run->problems)},
        });
    }
    QJsonArray targetsJson;
    for (const Target &t : checkTargets(*this))
        targetsJson.append(QJsonObject{{QStringLiteral("target"), t.name},
                                       {QStringLiteral("where"), t.where},
                                       {QStringLiteral("measured"), t.value},
                                       {QStringLiteral("met"), t.met}});
    return QJsonObject{{QStringLiteral("date"), date},
                       {QStringLiteral("speed"), speed},
                       {QStringLiteral("runs"), runsJson},
                       {QStringLiteral("targets"), targetsJson}};
}

QString Report::toMarkdown(const QStringList &chartFiles) const
{
    QString md;
    md += QStringLiteral("# Replay benchmark: what prefetch buys\n\n");
    md += QStringLiteral("Generated %1 by `headstart-cli bench`%2. Perceived latency is the time from the user's "
                         "activation (click, Enter, Next) to the first token shown. *off* is every strategy off, "
                         "what other clients give; each strategy then runs alone, then all together. Extra cost is "
                         "tokens wasted ÷ tokens used (PREFETCH.md); \"tokens vs off\" is every token the provider "
                         "saw, prompt and output, against the same trace with prefetch off.\n\n")
              .arg(date,
                   speed != 1 ? QStringLiteral(" (time compressed %1×, latencies scaled back)").arg(speed) : QString());

    md += summaryMarkdown(*this, chartFiles);
    md += sweepMarkdown(*this, chartFiles);
    md += providerMarkdown(*this);
    md += cacheMarkdown(*this);
    md += estimateMarkdown(*this);
    const QList<Target> targets = checkTargets(*this);
    if (!targets.isEmpty())
        md += QStringLiteral(
            "\n## Targets of the single strategies (issue 5)\n\n| target | where | measured | met |\n|---|---|---|---|\n");
    for (const Target &t : targets)
        md += QStringLiteral("| %1 | %2 | %3 | %4 |\n")
                  .arg(t.name, t.where, t.value, t.met ? QStringLiteral("yes") : QStringLiteral("**no**"));

    const bool seeded = hasHeldOutRuns(*this);
    if (seeded) {
        md += QStringLiteral(
            "\n## Every run\n\n| trace | profile | mode | settings | answers | prefetched | p50 ms | p95 ms | "
            "billed | billed vs off | the app's estimate | latest event ms |\n"
            "|---|---|---|---|---|---|---|---|---|---|---|---|\n");
        for (const RunFigures &f : runs) {
            const RunFigures *off = offFor(f);
            const double offCost = off ? off->run->billing.cost() : 0;
            md += QStringLiteral("| %1 | %2 | %3 | %4 | %5 | %6 | %7 | %8 | $%9 | %10 | %11 | %12 |\n")
                      .arg(f.trace, f.preset, QLatin1StringView(modeId(f.mode)),
                           f.run->variant.isEmpty() ? QStringLiteral("defaults") : f.run->variant)
                      .arg(f.answered)
                      .arg(f.prefetched)
                      .arg(ms(f.p50), ms(f.p95))
                      .arg(f.run->billing.cost(), 0, 'f', 4)
                      .arg(offCost > 0 ? times(f.run->billing.cost() / offCost) : QStringLiteral("–"),
                           f.run->appWithout > 0 ? times(f.run->appBilled / f.run->appWithout)
                                                 : QStringLiteral("–"),
                           ms(f.run->lateMs));
        }
    }
    QString lastGroup;
    for (const RunFigures &f : runs) {
        if (seeded)
            break;
        const QString group = f.trace + QStringLiteral(" × ") + f.preset;
        if (group != lastGroup) {
            md += QStringLiteral("\n## %1\n\n").arg(group);
            md += QStringLiteral(
                "| mode | answers | prefetched | p50 ms | p95 ms | p50 vs off | first on a document p50 ms | "
                "hit rate | extra cost | prompt tokens | cache-hit tokens | output tokens | tokens vs off |\n"
                "|---|---|---|---|---|---|---|---|---|---|---|---|---|\n");
            lastGroup = group;
        }
        QStringList hits, costs;
        for (Strategy s : strategiesOf(f.mode)) {
            const auto st = f.run->stats.value(s);
            const QString name = f.mode == Mode::All
                                     ? QStringLiteral("%1 ").arg(QLatin1StringView(Prefetch::strategyId(s)))
                                     : QString();
            hits.append(name
                        + (st.attempts ? QStringLiteral("%1 (%2/%3)")
                                             .arg(pct(st.hitRate()))
                                             .arg(st.hits + st.partialHits)
                                             .arg(st.attempts)
                                       : QStringLiteral("–")));
            costs.append(name + (st.extraCostUnbounded() ? QStringLiteral("∞") : pct(st.extraCost())));
        }
        md += QStringLiteral("| %1 | %2 | %3 | %4 | %5 | %6 | %7 | %8 | %9 | %10 | %11 | %12 | %13 |\n")
                  .arg(f.run->variant.isEmpty()
                           ? QLatin1StringView(modeId(f.mode))
                           : QStringLiteral("%1 (%2)").arg(QLatin1StringView(modeId(f.mode)), f.run->variant))
                  .arg(f.answered)
                  .arg(f.prefetched)
                  .arg(ms(f.p50), ms(f.p95), f.mode == Mode::Off ? QStringLiteral("1×") : times(f.ratioP50),
                       ms(f.firstOnDocumentP50),
                       hits.isEmpty() ? QStringLiteral("–") : hits.join(QStringLiteral("<br>")),
                       costs.isEmpty() ? QStringLiteral("–") : costs.join(QStringLiteral("<br>")))
                  .arg(f.run->promptTokens)
                  .arg(f.run->cacheHitTokens)
                  .arg(f.run->outputTokens)
                  .arg(f.mode == Mode::Off ? QStringLiteral("1×") : times(f.tokensVsOff));
    }

    QStringList problems;
    for (const RunFigures &f : runs) {
        for (const QString &p : f.run->problems)
            problems.append(
                QStringLiteral("- %1 × %2 × %3: %4").arg(f.trace, f.preset, QLatin1StringView(modeId(f.mode)), p));
    }
    if (!problems.isEmpty())
        md += QStringLiteral("\n## Problems during the replay\n\n") + problems.join(QLatin1Char('\n'))
              + QLatin1Char('\n');

    if (!chartFiles.isEmpty()) {
        md += QStringLiteral("\n## Charts\n\n");
        for (const QString &file : chartFiles)
            md += QStringLiteral("![%1](%1)\n\n").arg(file);
    }
    return md;
}

std::optional<QString> Report::write(const QString &directory) const
{
    if (!QDir().mkpath(directory))
        return QStringLiteral("cannot create the folder %1").arg(directory);
    const QDir dir(directory);
    QStringList chartFiles;

    // One distribution chart per trace × preset, then one hit-rate/extra-cost chart per preset.
    QStringList groups, presets;
    for (const RunFigures &f : runs) {
        const QString group = f.trace + QLatin1Char('|') + f.preset;
        if (!groups.contains(group))
            groups.append(group);
        if (!presets.contains(f.preset))
            presets.append(f.preset);
    }
    // Many seeds: one distribution per profile, every held-out activation of a mode pooled (a
    // chart per trace would be hundreds); the frontier of the variants.
    const bool seeded = hasHeldOutRuns(*this);
    if (seeded) {
        groups.clear();
        for (const QString &preset : std::as_const(presets)) {
            QList<RunFigures> pooled;
            for (const RunFigures &f : runs) {
                if (f.preset != preset || !isHeldOut(f) || !f.run->variant.isEmpty())
                    continue;
                auto it = std::find_if(pooled.begin(), pooled.end(),
                                       [&f](const RunFigures &g) { return g.mode == f.mode; });
                if (it == pooled.end()) {
                    RunFigures g;
                    g.trace = QStringLiteral("pooled");
                    g.preset = preset;
                    g.mode = f.mode;
                    it = pooled.insert(pooled.end(), g);
                }
                it->perceived += f.perceived;
            }
            QList<const RunFigures *> series;
            for (RunFigures &f : pooled) {
                f.p50 = Prefetch::percentiles(f.perceived).p50;
                series.append(&f);
            }
            const QString file = QStringLiteral("cdf-%1.png").arg(preset);
            if (!series.isEmpty()
                && !latencyCdfChart(series, QStringLiteral("%1: perceived latency, seeds held out, pooled").arg(preset))
                        .save(dir.filePath(file)))
                return QStringLiteral("cannot write %1").arg(dir.filePath(file));
            if (!series.isEmpty())
                chartFiles.append(file);
        }
        // A frontier per profile that ran variants: hosted's is frontier.png, the others'
        // frontier-<profile>.png.
        if (const QImage sweep = sweepChart(*this); !sweep.isNull()) {
            if (!sweep.save(dir.filePath(SweepChartFile)))
                return QStringLiteral("cannot write %1").arg(dir.filePath(SweepChartFile));
            chartFiles.append(SweepChartFile);
        }
        const QList<Pooled> heldOut = pool(*this, isHeldOut);
        for (const QString &preset : std::as_const(presets)) {
            const QList<Pooled> frontier = frontierOf(heldOut, preset);
            if (frontier.size() <= 1)
                continue;
            const QString file = frontierChartFile(preset);
            if (!frontierChart(frontier, QStringLiteral("%1, all on: latency against cost, per setting").arg(preset))
                     .save(dir.filePath(file)))
                return QStringLiteral("cannot write %1").arg(dir.filePath(file));
            chartFiles.append(file);
        }
    }
    for (const QString &group : groups) {
        const QString trace = group.section(QLatin1Char('|'), 0, 0);
        const QString preset = group.section(QLatin1Char('|'), 1, 1);
        QList<const RunFigures *> series;
        for (const RunFigures &f : runs) {
            if (f.trace == trace && f.preset == preset)
                series.append(&f);
        }
        const QString file = QStringLiteral("cdf-%1-%2.png").arg(trace, preset);
        if (!latencyCdfChart(series, QStringLiteral("%1 × %2: perceived latency").arg(trace, preset))
                 .save(dir.filePath(file)))
            return QStringLiteral("cannot write %1").arg(dir.filePath(file));
        chartFiles.append(file);
    }
    for (const QString &preset : presets) {
        QList<const RunFigures *> series;
        for (const RunFigures &f : runs) {
            if (f.preset == preset && f.mode != Mode::Off && f.mode != Mode::All)
                series.append(&f);
        }
        if (series.isEmpty())
            continue;
        const QString file = QStringLiteral("hit-cost-%1.png").arg(preset);
        if (!hitRateCostChart(series, QStringLiteral("%1: hit rate vs extra cost, each strategy alone").arg(preset))
                 .save(dir.filePath(file)))
            return QStringLiteral("cannot write %1").arg(dir.filePath(file));
        chartFiles.append(file);
    }

    const auto save = [&dir](const QString &name, const QByteArray &bytes) -> std::optional<QString> {
        QSaveFile file(dir.filePath(name));
        if (!file.open(QIODevice::WriteOnly) || file.write(bytes) != bytes.size() || !file.commit())
            return QStringLiteral("cannot write %1: %2").arg(dir.filePath(name), file.errorString());
        return std::nullopt;
    };
    if (auto error = save(QStringLiteral("report.md"), toMarkdown(chartFiles).toUtf8()))
        return error;
    return save(QStringLiteral("report.json"), QJsonDocument(toJson()).toJson(QJsonDocument::Indented));
}

} // namespace Bench
