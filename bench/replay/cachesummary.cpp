#include "cachesummary.h"

#include "report.h"
#include "summary.h"

#include <algorithm>

namespace Bench {

namespace {

QString ms(double value)
{
    return value < 0 ? QStringLiteral("–") : QString::number(value, 'f', 0);
}

QString share(int part, int whole)
{
    return whole > 0 ? QStringLiteral("%1 (%2 %)").arg(part).arg(100.0 * part / whole, 0, 'f', 0) : QStringLiteral("–");
}

QString medianSpread(QList<double> values)
{
    if (values.isEmpty())
        return QStringLiteral("–");
    std::sort(values.begin(), values.end());
    const qsizetype n = values.size();
    const double mid = n % 2 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
    return QStringLiteral("%1 [%2–%3]").arg(ms(mid), ms(values.constFirst()), ms(values.constLast()));
}

// The runs of one profile × mode × prefetch settings × cache setting, taken together.
struct CachePool {
    QString preset;
    Mode mode = Mode::Off;
    QString prefetchVariant;
    CacheUse use = CacheUse::On;
    QList<qint64> seeds;
    int activations = 0, drafts = 0, replaced = 0;
    QMap<CacheLevel, int> levels;
    QList<double> live, shown, draftMs, draftLiveMs; // shown: a draft counts when it is on screen
    QMap<qint64, QList<double>> liveBySeed;
    double cost = 0;
    qint64 requests = 0;
    int nearLookups = 0;
    QList<double> nearSimilarity, nearConfidence; // of the lookups that had a candidate
};

QList<CachePool> poolCache(const Report &report, bool heldOut)
{
    QList<CachePool> out;
    for (const RunFigures &f : report.runs) {
        const RunResult &r = *f.run;
        if ((r.seed > 1) != heldOut)
            continue;
        auto it = std::find_if(out.begin(), out.end(), [&](const CachePool &p) {
            return p.preset == r.preset && p.mode == r.mode && p.prefetchVariant == r.prefetchVariant
                   && p.use == r.cacheUse;
        });
        if (it == out.end()) {
            CachePool p;
            p.preset = r.preset;
            p.mode = r.mode;
            p.prefetchVariant = r.prefetchVariant;
            p.use = r.cacheUse;
            out.append(p);
            it = out.end() - 1;
        }
        CachePool &p = *it;
        if (!p.seeds.contains(r.seed))
            p.seeds.append(r.seed);
        p.cost += r.billing.cost();
        for (const RunResult::NearLookup &n : r.nearLookups) {
            ++p.nearLookups;
            if (n.similarity >= 0) {
                p.nearSimilarity.append(n.similarity * 100);
                p.nearConfidence.append(n.confidence * 100);
            }
        }
        p.requests += r.requests;
        for (const Sample &s : r.samples) {
            ++p.activations;
            ++p.levels[s.cache];
            if (s.perceivedMs < 0)
                continue;
            p.live.append(s.perceivedMs);
            p.liveBySeed[r.seed].append(s.perceivedMs);
            if (s.cache == CacheLevel::NearDraft && s.draftMs >= 0) {
                ++p.drafts;
                p.replaced += s.draftReplaced ? 1 : 0;
                p.draftMs.append(s.draftMs);
                p.draftLiveMs.append(s.perceivedMs);
                p.shown.append(s.draftMs);
            } else {
                p.shown.append(s.perceivedMs);
            }
        }
    }
    for (CachePool &p : out)
        std::sort(p.seeds.begin(), p.seeds.end());
    return out;
}

QString seedList(const QList<qint64> &seeds)
{
    if (seeds.size() > 2 && seeds.constLast() - seeds.constFirst() == seeds.size() - 1)
        return QStringLiteral("%1–%2").arg(seeds.constFirst()).arg(seeds.constLast());
    QStringList out;
    for (qint64 s : seeds)
        out.append(QString::number(s));
    return out.join(QStringLiteral(", "));
}

QString table(const QList<CachePool> &pools)
{
    QString md = QStringLiteral(
        "| profile | mode | settings | cache | seeds | activations | exact | near served | near draft | miss | not asked | "
        "drafts replaced | first token p50 / p95 ms | per seed p50 | first text p50 / p95 ms | draft: to the draft / to the "
        "live answer, p50 ms | requests | billed | vs cache off |\n"
        "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n");
    for (const CachePool &p : pools) {
        const auto off = std::find_if(pools.cbegin(), pools.cend(), [&](const CachePool &o) {
            return o.preset == p.preset && o.mode == p.mode && o.prefetchVariant == p.prefetchVariant
                   && o.use == CacheUse::Off;
        });
        QList<double> seedP50;
        for (qint64 seed : p.seeds)
            seedP50.append(Prefetch::percentiles(p.liveBySeed.value(seed)).p50);
        const auto live = Prefetch::percentiles(p.live), shown = Prefetch::percentiles(p.shown);
        const QString vsOff = off == pools.cend() || off->cost <= 0
                                  ? QStringLiteral("–")
                                  : QStringLiteral("%1%2 %")
                                        .arg(p.cost >= off->cost ? QStringLiteral("+") : QString())
                                        .arg((p.cost / off->cost - 1) * 100, 0, 'f', 0);
        md +=
            QStringLiteral(
                "| %1 | %2 | %3 | %4 | %5 | %6 | %7 | %8 | %9 | %10 | %11 | %12 | %13 / %14 | %15 | %16 / %17 | %18 / %19 | %20 | $%21 | %22 |\n")
                .arg(p.preset, QLatin1StringView(modeId(p.mode)),
                     p.prefetchVariant.isEmpty() ? QStringLiteral("defaults") : p.prefetchVariant,
                     QLatin1StringView(cacheUseId(p.use)), seedList(p.seeds))
                .arg(p.activations)
                .arg(share(p.levels.value(CacheLevel::Exact), p.activations),
                     share(p.levels.value(CacheLevel::NearServed), p.activations),
                     share(p.levels.value(CacheLevel::NearDraft), p.activations),
                     share(p.levels.value(CacheLevel::Miss), p.activations),
                     share(p.levels.value(CacheLevel::NotAsked), p.activations),
                     p.drafts > 0 ? QStringLiteral("%1 of %2").arg(p.replaced).arg(p.drafts) : QStringLiteral("–"))
                .arg(ms(live.p50), ms(live.p95), medianSpread(seedP50), ms(shown.p50), ms(shown.p95),
                     ms(Prefetch::percentiles(p.draftMs).p50), ms(Prefetch::percentiles(p.draftLiveMs).p50))
                .arg(p.requests)
                .arg(p.cost, 0, 'f', 4)
                .arg(p.use == CacheUse::Off ? QStringLiteral("0 %") : vsOff);
    }
    // Why the near levels fire as often as they do: a reworded question is a candidate only when
    // it shares a MinHash band with a stored one, and served or drafted only over the thresholds.
    md += QStringLiteral("\nNear-duplicate lookups (asked after an exact miss; the cache's decision log): ");
    QStringList parts;
    for (const CachePool &p : pools) {
        if (p.nearLookups == 0)
            continue;
        parts.append(
            QStringLiteral("%1 %2 cache %3: %4 lookups, %5 with a candidate, its similarity %6 %, confidence %7 % "
                           "(median [min–max]; serve ≥ 75 %, draft ≥ 50 %)")
                .arg(p.preset, QLatin1StringView(modeId(p.mode)), QLatin1StringView(cacheUseId(p.use)))
                .arg(p.nearLookups)
                .arg(p.nearSimilarity.size())
                .arg(medianSpread(p.nearSimilarity), medianSpread(p.nearConfidence)));
    }
    md += parts.isEmpty() ? QStringLiteral("none.\n") : parts.join(QStringLiteral("; ")) + QStringLiteral(".\n");
    return md;
}

} // namespace

QString cacheMarkdown(const Report &report)
{
    const bool any = std::any_of(report.runs.cbegin(), report.runs.cend(), [](const RunFigures &f) {
        const auto &c = f.run->cache;
        return f.run->cacheUse != CacheUse::On || c.exactHits + c.nearServed + c.nearDrafts > 0;
    });
    if (!any)
        return {};
    QString md = QStringLiteral(
        "\n## The response cache\n\n"
        "Each run has its own empty response cache (the app's: exact repeats and near-duplicate chat questions, "
        "`cache.enabled` and `cache.nearDuplicates` on); *exact* turns the near-duplicate switch off, *off* the cache. "
        "Levels are shares of the activations: *exact* and *near served* were answered from the cache (nothing sent), "
        "*near draft* showed a cached draft at once while the live answer came, *not asked* took a prefetch over "
        "(or the cache was off). *First token* counts a draft at its live answer's first token; *first text* at the "
        "draft. A draft is *replaced* when the live answer is not near it (MinHash similarity under 0.75). Billed is "
        "what the provider billed, against the same runs with the cache off.\n\n");
    const QList<CachePool> seedOne = poolCache(report, false), heldOut = poolCache(report, true);
    if (!seedOne.isEmpty())
        md += QStringLiteral("Seed 1 (the committed traces):\n\n") + table(seedOne);
    if (!heldOut.isEmpty())
        md += QStringLiteral("\nSeeds held out:\n\n") + table(heldOut);
    return md;
}

} // namespace Bench
