#include "summary.h"

#include "report.h"

#include <QFontMetrics>
#include <QLocale>
#include <QPainter>

#include <algorithm>
#include <cmath>

namespace Bench {

using Prefetch::Strategy;
using Origin = Prefetch::AnswerReader::Origin;

namespace {

QString ms(double value)
{
    return value < 0 ? QStringLiteral("–") : QString::number(value, 'f', 0);
}

QString pct(double ratio)
{
    return ratio <= -1 ? QStringLiteral("–") : QStringLiteral("%1 %").arg(ratio * 100, 0, 'f', 0);
}

QString money(double value)
{
    return QStringLiteral("$%1").arg(value, 0, 'f', value < 1 ? 4 : 2);
}

QString median(QList<double> values)
{
    if (values.isEmpty())
        return QStringLiteral("–");
    std::sort(values.begin(), values.end());
    const double mid = values.size() % 2 ? values[values.size() / 2]
                                         : (values[values.size() / 2 - 1] + values[values.size() / 2]) / 2;
    return QStringLiteral("%1 [%2–%3]").arg(ms(mid), ms(values.constFirst()), ms(values.constLast()));
}

void add(Prefetch::StrategyStats &into, const Prefetch::StrategyStats &s)
{
    into.attempts += s.attempts;
    into.hits += s.hits;
    into.partialHits += s.partialHits;
    into.misses += s.misses;
    into.cancelled += s.cancelled;
    into.expired += s.expired;
    into.failed += s.failed;
    into.preempted += s.preempted;
    into.rejectedBudget += s.rejectedBudget;
    into.rejectedLane += s.rejectedLane;
}

QString seedList(const QList<qint64> &seeds)
{
    if (seeds.isEmpty())
        return QStringLiteral("none");
    if (seeds.size() > 2 && seeds.constLast() - seeds.constFirst() == seeds.size() - 1)
        return QStringLiteral("%1–%2").arg(seeds.constFirst()).arg(seeds.constLast());
    QStringList out;
    for (qint64 s : seeds)
        out.append(QString::number(s));
    return out.join(QStringLiteral(", "));
}

} // namespace

bool isHeldOut(const RunFigures &run)
{
    return run.run->seed > 1;
}

bool hasHeldOutRuns(const Report &report)
{
    return std::any_of(report.runs.cbegin(), report.runs.cend(), isHeldOut);
}

QList<Pooled> pool(const Report &report, const std::function<bool(const RunFigures &)> &accept)
{
    QList<Pooled> out;
    QList<QList<double>> latencies, stalls;
    QList<QMap<QString, QList<double>>> kinds;
    QList<QMap<qint64, QList<double>>> bySeed;
    for (const RunFigures &f : report.runs) {
        if (!accept(f))
            continue;
        const RunResult &r = *f.run;
        qsizetype i = 0;
        while (i < out.size() && !(out[i].preset == r.preset && out[i].mode == r.mode && out[i].variant == r.variant))
            ++i;
        if (i == out.size()) {
            Pooled p;
            p.preset = r.preset;
            p.mode = r.mode;
            p.variant = r.variant;
            p.cacheUse = r.cacheUse;
            out.append(p);
            latencies.append(QList<double>());
            stalls.append(QList<double>());
            kinds.append(QMap<QString, QList<double>>());
            bySeed.append(QMap<qint64, QList<double>>());
        }
        Pooled &p = out[i];
        ++p.runs;
        if (!p.seeds.contains(r.seed))
            p.seeds.append(r.seed);
        for (const Sample &s : r.samples) {
            ++p.activations;
            if (s.perceivedMs < 0)
                continue;
            latencies[i].append(s.perceivedMs);
            kinds[i][r.kind].append(s.perceivedMs);
            bySeed[i][r.seed].append(s.perceivedMs);
            if (s.stallMs >= 0)
                stalls[i].append(s.stallMs);
            if (s.stopped && s.origin == Origin::Fresh)
                ++p.stopped;
            else if (s.origin == Origin::Hit)
                ++p.full;
            else if (s.origin == Origin::PartialHit)
                ++p.partial;
            else if (s.origin == Origin::Cached)
                ++p.cached;
            else
                ++p.fresh;
        }
        p.cost += r.billing.cost();
        if (const RunFigures *off = report.offFor(f))
            p.offCost += off->run->billing.cost();
        p.maxLateMs = std::max(p.maxLateMs, r.lateMs);
        for (auto it = r.billing.byPurpose.cbegin(); it != r.billing.byPurpose.cend(); ++it)
            p.costByPurpose[it.key()] += r.billing.cost(it.value());
        for (auto it = r.stats.cbegin(); it != r.stats.cend(); ++it)
            add(p.stats[it.key()], it.value());
    }
    for (qsizetype i = 0; i < out.size(); ++i) {
        Pooled &p = out[i];
        std::sort(p.seeds.begin(), p.seeds.end());
        const auto all = Prefetch::percentiles(latencies[i]);
        p.p50 = all.p50;
        p.p95 = all.p95;
        p.stallP95 = Prefetch::percentiles(stalls[i]).p95;
        for (auto it = kinds[i].cbegin(); it != kinds[i].cend(); ++it)
            p.kindP50.insert(it.key(), Prefetch::percentiles(it.value()).p50);
        for (qint64 seed : std::as_const(p.seeds))
            p.seedP50.append(Prefetch::percentiles(bySeed[i].value(seed)).p50);
    }
    return out;
}

QString summaryMarkdown(const Report &report, const QStringList &chartFiles)
{
    bool seeded = false;
    for (const RunFigures &f : report.runs)
        seeded = seeded || f.run->seed > 0;
    if (!seeded)
        return {};

    const auto heldOut = pool(report, isHeldOut);
    const auto seedOne = pool(report, [](const RunFigures &f) { return f.run->seed == 1; });
    const auto find = [](const QList<Pooled> &pools, const QString &preset, Mode mode, const QString &variant = {}) {
        const auto it = std::find_if(pools.cbegin(), pools.cend(), [&](const Pooled &p) {
            return p.preset == preset && p.mode == mode && p.variant == variant;
        });
        return it == pools.cend() ? nullptr : &*it;
    };
    QString md;

    // --- the targets ---
    const Pooled *hosted = find(heldOut, QStringLiteral("hosted"), Mode::All);
    const Pooled *hosted1 = find(seedOne, QStringLiteral("hosted"), Mode::All);
    const Pooled *gpu = find(heldOut, QStringLiteral("local-gpu"), Mode::All);
    const Pooled *gpu1 = find(seedOne, QStringLiteral("local-gpu"), Mode::All);
    // Issue 10's targets are the hosted and local-gpu profiles'; a run without them has none.
    if (hosted || gpu) {
        md += QStringLiteral(
                  "## Issue 10: the targets\n\n"
                  "All strategies on with the app's default settings, every trace kind, pooled over the seeds "
                  "the strategies were not tuned on (%1); each seed's own figure as median [min–max]; seed 1 "
                  "(the committed traces) beside. Extra cost is what the provider billed the run against what "
                  "it billed the same traces with prefetch off, in money.\n\n"
                  "| target | pooled, seeds %1 | per seed | seed 1 | met |\n|---|---|---|---|---|\n")
                  .arg(hosted ? seedList(hosted->seeds) : QStringLiteral("none"));
        struct Row {
            QString name;
            std::function<double(const Pooled &)> value;
            std::function<QString(double)> format;
            double limit;
            bool perSeed;
            bool gpu = false;
        };
        const QList<Row> rows{
            {QStringLiteral("hosted: perceived p50 ≤ 150 ms"), [](const Pooled &p) { return p.p50; }, ms, 150, true},
            {QStringLiteral("hosted: perceived p95 ≤ 750 ms"), [](const Pooled &p) { return p.p95; }, ms, 750, false},
            {QStringLiteral("hosted: keyboard-user p50 ≤ 300 ms"),
             [](const Pooled &p) { return p.kind(QStringLiteral("keyboard-user")); }, ms, 300, false},
            {QStringLiteral("hosted: stall p95 ≤ 250 ms"), [](const Pooled &p) { return p.stallP95; }, ms, 250, false},
            {QStringLiteral("hosted: extra cost ≤ 40 % in money"), [](const Pooled &p) { return p.extraMoney(); }, pct,
             0.40, false},
            {QStringLiteral("local-gpu: perceived p50 ≤ 16 ms"), [](const Pooled &p) { return p.p50; }, ms, 16, true,
             true},
        };
        for (const Row &row : rows) {
            const Pooled *p = row.gpu ? gpu : hosted;
            const Pooled *p1 = row.gpu ? gpu1 : hosted1;
            const double v = p ? row.value(*p) : -1;
            md += QStringLiteral("| %1 | %2 | %3 | %4 | %5 |\n")
                      .arg(row.name, p ? row.format(v) : QStringLiteral("not run"),
                           p && row.perSeed ? median(p->seedP50) : QStringLiteral(""),
                           p1 ? row.format(row.value(*p1)) : QStringLiteral("not run"),
                           !p                         ? QStringLiteral("–")
                           : v > -1 && v <= row.limit ? QStringLiteral("yes")
                                                      : QStringLiteral("**no**"));
        }
    }

    // --- every profile × mode × variant ---
    const auto table = [&md](const QList<Pooled> &pools) {
        md += QStringLiteral(
            "| profile | mode | settings | seeds | runs | activations | full / partial / fresh / stopped | "
            "p50 ms | p95 ms | stall p95 ms | billed | extra cost (money) | latest event ms |\n"
            "|---|---|---|---|---|---|---|---|---|---|---|---|---|\n");
        for (const Pooled &p : pools) {
            md += QStringLiteral(
                      "| %1 | %2 | %3 | %4 | %5 | %6 | %7 / %8 / %9 / %10 | %11 | %12 | %13 | %14 | %15 | %16 |\n")
                      .arg(p.preset, QLatin1StringView(modeId(p.mode)),
                           p.variant.isEmpty() ? QStringLiteral("defaults") : p.variant, seedList(p.seeds))
                      .arg(p.runs)
                      .arg(p.activations)
                      .arg(p.full)
                      .arg(p.partial)
                      .arg(p.fresh)
                      .arg(p.cached ? QStringLiteral("%1 (+%2 cached)").arg(p.stopped).arg(p.cached)
                                    : QString::number(p.stopped))
                      .arg(ms(p.p50), ms(p.p95), ms(p.stallP95), money(p.cost),
                           p.mode == Mode::Off ? QStringLiteral("0 %") : pct(p.extraMoney()), ms(p.maxLateMs));
        }
    };
    md += QStringLiteral("\n## Pooled: every profile, mode and settings variant\n\n"
                         "Seeds %1 (held out):\n\n")
              .arg(hosted ? seedList(hosted->seeds) : QStringLiteral("–"));
    table(heldOut);
    if (!seedOne.isEmpty()) {
        md += QStringLiteral("\nSeed 1 (the committed traces):\n\n");
        table(seedOne);
    }

    // --- the kinds ---
    QStringList kindNames;
    for (const Pooled &p : heldOut) {
        for (auto it = p.kindP50.cbegin(); it != p.kindP50.cend(); ++it) {
            if (!kindNames.contains(it.key()))
                kindNames.append(it.key());
        }
    }
    QStringList presets;
    for (const Pooled &p : heldOut) {
        if (!presets.contains(p.preset))
            presets.append(p.preset);
    }
    if (!kindNames.isEmpty()) {
        md += QStringLiteral("\n## Perceived p50 by trace kind (ms, seeds held out, default settings)\n\n| kind |");
        QStringList columns;
        for (const QString &preset : std::as_const(presets)) {
            for (Mode mode : {Mode::Off, Mode::All}) {
                if (find(heldOut, preset, mode))
                    columns.append(preset + QLatin1Char(' ') + QLatin1StringView(modeId(mode)));
            }
        }
        md += QLatin1Char(' ') + columns.join(QStringLiteral(" | ")) + QStringLiteral(" |\n|---|");
        for (qsizetype i = 0; i < columns.size(); ++i)
            md += QStringLiteral("---|");
        md += QLatin1Char('\n');
        for (const QString &kind : std::as_const(kindNames)) {
            md += QStringLiteral("| %1 |").arg(kind);
            for (const QString &preset : std::as_const(presets)) {
                for (Mode mode : {Mode::Off, Mode::All}) {
                    if (const Pooled *p = find(heldOut, preset, mode))
                        md += QStringLiteral(" %1 |").arg(ms(p->kind(kind)));
                }
            }
            md += QLatin1Char('\n');
        }
    }

    // --- the strategies ---
    if (hosted) {
        md +=
            QStringLiteral(
                "\n## The strategies, hosted, all on (seeds %1)\n\n"
                "Attempts are requests sent (or queued); a full hit had its first token when taken over, a "
                "partial hit was still waiting for it. Billed is what the provider billed for the strategy's "
                "requests, used or not (continuations included).\n\n"
                "| strategy | attempts | full hits | partial hits | used | misses | cancelled | expired | preempted | "
                "refused: budget / lane | billed | share of the bill |\n|---|---|---|---|---|---|---|---|---|---|---|---|\n")
                .arg(seedList(hosted->seeds));
        for (Strategy s : strategiesOf(Mode::All)) {
            const auto st = hosted->stats.value(s);
            const double billed = hosted->costByPurpose.value(QLatin1String(Prefetch::strategyId(s)));
            md += QStringLiteral("| %1 | %2 | %3 | %4 | %5 | %6 | %7 | %8 | %9 | %10 / %11 | %12 | %13 |\n")
                      .arg(QLatin1StringView(Prefetch::strategyId(s)))
                      .arg(st.attempts)
                      .arg(st.hits)
                      .arg(st.partialHits)
                      .arg(st.attempts ? pct(double(st.hits + st.partialHits) / double(st.attempts))
                                       : QStringLiteral("–"))
                      .arg(st.misses)
                      .arg(st.cancelled)
                      .arg(st.expired)
                      .arg(st.preempted)
                      .arg(st.rejectedBudget)
                      .arg(st.rejectedLane)
                      .arg(money(billed), hosted->cost > 0 ? pct(billed / hosted->cost) : QStringLiteral("–"));
        }
        const double foreground = hosted->costByPurpose.value(QStringLiteral("foreground"));
        md += QStringLiteral("| foreground (asked, not prefetched) | | | | | | | | | | %1 | %2 |\n")
                  .arg(money(foreground), hosted->cost > 0 ? pct(foreground / hosted->cost) : QStringLiteral("–"));
    }

    // --- the frontier, per profile that ran variants ---
    QStringList frontierPresets;
    for (const Pooled &p : heldOut) {
        if (!frontierPresets.contains(p.preset))
            frontierPresets.append(p.preset);
    }
    for (const QString &preset : std::as_const(frontierPresets)) {
        const QList<Pooled> frontier = frontierOf(heldOut, preset);
        if (frontier.size() <= 1)
            continue;
        md += QStringLiteral(
                  "\n## The latency/cost frontier (%1, all on, seeds %2)\n\n"
                  "The length of a weak signal's guess (N tokens) and how many answers one signal guesses at "
                  "once; everything else at the defaults.\n\n"
                  "| settings | p50 ms | p95 ms | stall p95 ms | full / partial hits | extra cost (money) |\n"
                  "|---|---|---|---|---|---|\n")
                  .arg(preset, seedList(frontier.constFirst().seeds));
        for (const Pooled &p : std::as_const(frontier)) {
            md += QStringLiteral("| %1 | %2 | %3 | %4 | %5 / %6 | %7 |\n")
                      .arg(p.variant.isEmpty() ? QStringLiteral("defaults") : p.variant, ms(p.p50), ms(p.p95),
                           ms(p.stallP95))
                      .arg(p.full)
                      .arg(p.partial)
                      .arg(pct(p.extraMoney()));
        }
        const QString chart = frontierChartFile(preset);
        if (chartFiles.contains(chart))
            md += QStringLiteral("\n![frontier](%1)\n").arg(chart);
    }
    return md;
}

QList<Pooled> frontierOf(const QList<Pooled> &pooled, const QString &preset)
{
    QList<Pooled> frontier;
    for (const Pooled &p : pooled) {
        if (p.preset == preset && p.mode == Mode::All && p.cacheUse == CacheUse::On)
            frontier.append(p);
    }
    return frontier;
}

QString frontierChartFile(const QString &preset)
{
    return preset == u"hosted" ? QStringLiteral("frontier.png") : QStringLiteral("frontier-%1.png").arg(preset);
}

QImage frontierChart(const QList<Pooled> &variants, const QString &title)
{
    constexpr int Width = 960, Height = 560;
    const QRect plot =
        QRect(0, 0, Width, Height).marginsRemoved(QMargins(90, 56, 200, 70)); // the list of variants on the right
    QImage image(Width, Height, QImage::Format_ARGB32_Premultiplied);
    image.fill(Qt::white);
    QPainter p(&image);
    p.setRenderHint(QPainter::Antialiasing);
    QFont font = p.font();
    font.setPixelSize(18);
    font.setBold(true);
    p.setFont(font);
    p.drawText(QRect(0, 12, Width, 30), Qt::AlignHCenter | Qt::AlignVCenter, title);
    font.setPixelSize(13);
    font.setBold(false);
    p.setFont(font);

    double maxCost = 0.5, maxMs = 200;
    for (const Pooled &v : variants) {
        maxCost = std::max(maxCost, v.extraMoney());
        maxMs = std::max(maxMs, v.p95);
    }
    maxCost = std::ceil((maxCost + 0.02) * 4) / 4;
    maxMs = std::ceil(maxMs / 250) * 250;
    const auto at = [&](double cost, double latency) {
        return QPointF(plot.left() + cost / maxCost * plot.width(), plot.bottom() - latency / maxMs * plot.height());
    };
    p.setPen(QPen(QColor(0xdd, 0xdd, 0xdd), 1));
    for (double c = 0; c <= maxCost + 1e-9; c += 0.25) {
        p.drawLine(at(c, 0), at(c, maxMs));
        p.setPen(Qt::black);
        p.drawText(QRectF(at(c, 0).x() - 30, plot.bottom() + 6, 60, 18), Qt::AlignCenter,
                   QStringLiteral("%1 %").arg(c * 100, 0, 'f', 0));
        p.setPen(QPen(QColor(0xdd, 0xdd, 0xdd), 1));
    }
    for (double l = 0; l <= maxMs + 1e-9; l += 250) {
        p.drawLine(at(0, l), at(maxCost, l));
        p.setPen(Qt::black);
        p.drawText(QRectF(plot.left() - 70, at(0, l).y() - 9, 62, 18), Qt::AlignRight | Qt::AlignVCenter,
                   QStringLiteral("%1 ms").arg(l));
        p.setPen(QPen(QColor(0xdd, 0xdd, 0xdd), 1));
    }
    // The targets: p50 ≤ 150 ms, p95 ≤ 750 ms, at ≤ 40 % extra cost.
    p.setPen(QPen(QColor(0x00, 0x9e, 0x73), 1, Qt::DashLine));
    p.drawRect(QRectF(at(0, 150), at(0.40, 0)));
    p.drawRect(QRectF(at(0, 750), at(0.40, 0)));
    p.setPen(Qt::black);
    p.drawRect(plot);
    p.drawText(
        QRectF(plot.left(), plot.bottom() + 34, plot.width(), 20), Qt::AlignHCenter,
        QStringLiteral(
            "extra cost in money, against prefetch off (dashed: the targets' ≤ 40 %, p50 ≤ 150 ms, p95 ≤ 750 ms)"));
    p.save();
    p.translate(plot.left() - 78, plot.center().y());
    p.rotate(-90);
    p.drawText(QRectF(-150, -10, 300, 20), Qt::AlignCenter, QStringLiteral("perceived latency (● p50, ○ p95)"));
    p.restore();
    // Each point is numbered beside it and named in the list on the right: variants of about the
    // same cost and latency fall together, and their names would cover each other.
    int number = 0;
    for (const Pooled &v : variants) {
        ++number;
        const QString label = v.variant.isEmpty() ? QStringLiteral("defaults") : v.variant;
        const QPointF p50 = at(v.extraMoney(), v.p50), p95 = at(v.extraMoney(), v.p95);
        p.setPen(QPen(QColor(0x88, 0x88, 0x88), 1));
        p.drawLine(p50, p95);
        p.setPen(QPen(QColor(0x00, 0x52, 0xa3), 2));
        p.setBrush(QColor(0x00, 0x52, 0xa3));
        p.drawEllipse(p50, 5, 5);
        p.setBrush(Qt::white);
        p.drawEllipse(p95, 5, 5);
        p.setPen(Qt::black);
        p.drawText(p50 + QPointF(7, number % 2 ? -6 : 14), QString::number(number));
        p.drawText(QPointF(plot.right() + 14, plot.top() + 14 + (number - 1) * 20),
                   QStringLiteral("%1  %2").arg(number).arg(label));
    }
    return image;
}

} // namespace Bench
