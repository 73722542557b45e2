#include "sweepsummary.h"

#include "report.h"
#include "summary.h"
#include "tracegen.h"

#include <QPainter>

#include <algorithm>
#include <cmath>

namespace Bench {

namespace {

// The share in % of a run's sweep point; -1: not a document kind's run.
int shareOf(const RunFigures &f)
{
    const auto [kind, knobs] = TraceKnobs::split(f.run->kind);
    return documentKinds().contains(kind) ? int(std::lround(knobs.selectionAction * 100)) : -1;
}

QList<int> sharesOf(const Report &report)
{
    QList<int> shares;
    bool swept = false;
    for (const RunFigures &f : report.runs) {
        const int share = shareOf(f);
        swept = swept || !TraceKnobs::split(f.run->kind).second.isDefault();
        if (share >= 0 && !shares.contains(share))
            shares.append(share);
    }
    if (!swept)
        return {};
    std::sort(shares.begin(), shares.end(), std::greater<>());
    return shares;
}

QList<Pooled> pointOf(const Report &report, int share)
{
    return pool(report, [share](const RunFigures &f) { return isHeldOut(f) && shareOf(f) == share; });
}

QString ms(double value)
{
    return value < 0 ? QStringLiteral("–") : QString::number(std::llround(value));
}

QString pct(double ratio)
{
    return ratio <= -1 ? QStringLiteral("–") : QStringLiteral("%1 %").arg(ratio * 100, 0, 'f', 1);
}

QString label(const Pooled &p)
{
    return QStringLiteral("%1%2").arg(QLatin1StringView(modeId(p.mode)),
                                      p.variant.isEmpty() ? QString() : QStringLiteral(", ") + p.variant);
}

} // namespace

QString sweepMarkdown(const Report &report, const QStringList &chartFiles)
{
    const QList<int> shares = sharesOf(report);
    if (shares.isEmpty())
        return {};
    QString md =
        QStringLiteral(
            "\n## Sensitivity: selections that lead to an action (issue 40)\n\n"
            "The document kinds (%1), each with this share of its selections leading to an action and the rest "
            "stray (copied, typed over, deleted; bench/README.md, \"Stray selections\"); 0 % is a user who never runs "
            "an action on a selection. Pooled over the held-out seeds and the kinds. Extra cost is what the provider "
            "billed against the same traces with prefetch off, in money; *selection guesses* is what the selection "
            "guesses alone billed, against the same. *defaults* guess on a selection only what pays "
            "(speculation.wasteShare), and so do the other early signals, and while what they add to the bill is "
            "over its bound (the app's own estimate, Prefetch::BillEstimate) only what pays within it; *no bill "
            "bound* is the same without that bound; *fixed guesses* is every early signal guessing its likeliest "
            "actions whatever their chance, the rules before issue 40.\n\n"
            "| selections → action | profile | run | activations | p50 ms | p95 ms | extra cost | selection guesses | "
            "selection attempts / used |\n|---|---|---|---|---|---|---|---|---|\n")
            .arg(documentKinds().join(QStringLiteral(", ")));
    for (int share : shares) {
        for (const Pooled &p : pointOf(report, share)) {
            const auto st = p.stats.value(Prefetch::Strategy::Selection);
            const double selection = p.costByPurpose.value(QStringLiteral("selection"));
            md += QStringLiteral("| %1 % | %2 | %3 | %4 | %5 | %6 | %7 | %8 | %9 / %10 |\n")
                      .arg(share)
                      .arg(p.preset, label(p))
                      .arg(p.activations)
                      .arg(ms(p.p50), ms(p.p95), p.mode == Mode::Off ? QStringLiteral("0 %") : pct(p.extraMoney()),
                           p.offCost > 0 && p.mode != Mode::Off ? pct(selection / p.offCost) : QStringLiteral("–"))
                      .arg(st.attempts)
                      .arg(st.hits + st.partialHits);
        }
    }
    if (chartFiles.contains(SweepChartFile))
        md += QStringLiteral("\n![extra cost and p50 against the share](%1)\n").arg(SweepChartFile);
    return md;
}

QImage sweepChart(const Report &report)
{
    const QList<int> shares = sharesOf(report);
    if (shares.isEmpty())
        return {};
    // One curve per variant of every strategy on (and off's p50): extra cost on the left panel,
    // p50 on the right, the share on both x axes from 100 % down to 0 %.
    struct Curve {
        QString name;
        QList<QPointF> cost, p50; // (share, value)
    };
    QList<Curve> curves;
    for (int share : shares) {
        for (const Pooled &p : pointOf(report, share)) {
            const QString name = label(p);
            auto it = std::find_if(curves.begin(), curves.end(), [&](const Curve &c) { return c.name == name; });
            if (it == curves.end()) {
                curves.append(Curve{name, {}, {}});
                it = curves.end() - 1;
            }
            if (p.mode != Mode::Off)
                it->cost.append(QPointF(share, p.extraMoney()));
            it->p50.append(QPointF(share, p.p50));
        }
    }
    constexpr int Width = 1100, Height = 520;
    QImage image(Width, Height, QImage::Format_ARGB32_Premultiplied);
    image.fill(Qt::white);
    QPainter painter(&image);
    painter.setRenderHint(QPainter::Antialiasing);
    QFont font = painter.font();
    font.setPixelSize(13);
    painter.setFont(font);
    const QList<QColor> colors{QColor(0x00, 0x52, 0xa3), QColor(0xd5, 0x5e, 0x00), QColor(0x00, 0x9e, 0x73),
                               QColor(0xcc, 0x79, 0xa7), QColor(0x56, 0xb4, 0xe9)};
    const auto panel = [&](const QRect &plot, const QString &title, double maxY, double step, const QString &unit,
                           double limit, bool cost) {
        painter.setPen(Qt::black);
        painter.drawText(QRect(plot.left(), plot.top() - 40, plot.width(), 24), Qt::AlignCenter, title);
        // The shares evenly spaced, in the order swept (100 % on the left): 5 % and 0 % would
        // fall on each other on a linear axis.
        const auto at = [&](double share, double y) {
            const qsizetype index = std::max<qsizetype>(0, shares.indexOf(int(std::lround(share))));
            const double x = shares.size() > 1 ? double(index) / double(shares.size() - 1) : 0.5;
            return QPointF(plot.left() + x * plot.width(), plot.bottom() - y / maxY * plot.height());
        };
        for (double y = 0; y <= maxY + 1e-9; y += step) {
            painter.setPen(QPen(QColor(0xdd, 0xdd, 0xdd), 1));
            painter.drawLine(QPointF(plot.left(), at(100, y).y()), QPointF(plot.right(), at(100, y).y()));
            painter.setPen(Qt::black);
            painter.drawText(QRectF(plot.left() - 66, at(100, y).y() - 9, 60, 18), Qt::AlignRight | Qt::AlignVCenter,
                             cost ? QStringLiteral("%1 %").arg(y * 100, 0, 'f', 0)
                                  : QStringLiteral("%1 %2").arg(y).arg(unit));
        }
        for (int share : shares)
            painter.drawText(QRectF(at(share, 0).x() - 30, plot.bottom() + 6, 60, 18), Qt::AlignCenter,
                             QStringLiteral("%1 %").arg(share));
        painter.drawText(QRectF(plot.left(), plot.bottom() + 26, plot.width(), 18), Qt::AlignCenter,
                         QStringLiteral("share of selections that lead to an action"));
        painter.setPen(QPen(QColor(0x00, 0x9e, 0x73), 1, Qt::DashLine));
        painter.drawLine(QPointF(plot.left(), at(100, limit).y()), QPointF(plot.right(), at(100, limit).y()));
        painter.setPen(Qt::black);
        painter.setBrush(Qt::NoBrush); // the last curve's points were filled with its colour
        painter.drawRect(plot);
        for (qsizetype i = 0; i < curves.size(); ++i) {
            const QList<QPointF> &points = cost ? curves[i].cost : curves[i].p50;
            painter.setPen(QPen(colors[i % colors.size()], 2));
            painter.setBrush(colors[i % colors.size()]);
            for (qsizetype k = 0; k < points.size(); ++k) {
                const QPointF point = at(points[k].x(), std::min(maxY, std::max(0.0, points[k].y())));
                painter.drawEllipse(point, 4, 4);
                if (k > 0)
                    painter.drawLine(at(points[k - 1].x(), std::min(maxY, std::max(0.0, points[k - 1].y()))), point);
            }
        }
    };
    double maxCost = 0.5, maxMs = 200;
    for (const Curve &c : curves) {
        for (const QPointF &p : c.cost)
            maxCost = std::max(maxCost, p.y());
        for (const QPointF &p : c.p50)
            maxMs = std::max(maxMs, p.y());
    }
    maxCost = std::ceil(maxCost * 10) / 10;
    maxMs = std::ceil(maxMs / 100) * 100;
    panel(QRect(80, 60, 400, 360), QStringLiteral("extra cost in money (dashed: 40 %)"), maxCost, 0.1, {}, 0.40, true);
    panel(QRect(620, 60, 400, 360), QStringLiteral("perceived p50 (dashed: 150 ms)"), maxMs, maxMs > 600 ? 200 : 100,
          QStringLiteral("ms"), 150, false);
    for (qsizetype i = 0; i < curves.size(); ++i) {
        painter.setPen(QPen(colors[i % colors.size()], 2));
        painter.drawLine(QPointF(90 + i * 260, 490), QPointF(120 + i * 260, 490));
        painter.setPen(Qt::black);
        painter.drawText(QPointF(126 + i * 260, 495), curves[i].name);
    }
    return image;
}

} // namespace Bench
