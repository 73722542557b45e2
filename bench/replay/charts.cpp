#include "charts.h"

#include "report.h"

#include <QFontMetrics>
#include <QPainter>
#include <QPainterPath>

#include <algorithm>
#include <cmath>

namespace Bench {

namespace {

constexpr int Width = 960;
constexpr int Height = 560;
const QMargins Plot(80, 56, 200, 64); // room for axes, title and the legend on the right

QColor modeColor(Mode mode)
{
    switch (mode) {
    case Mode::Off: return QColor(0x55, 0x55, 0x55);
    case Mode::Warmup: return QColor(0xe6, 0x9f, 0x00);
    case Mode::Hover: return QColor(0x56, 0xb4, 0xe9);
    case Mode::Debounce: return QColor(0x00, 0x9e, 0x73);
    case Mode::Workflow: return QColor(0xcc, 0x79, 0xa7);
    case Mode::Early: return QColor(0xd5, 0x5e, 0x00);
    case Mode::All: return QColor(0x00, 0x52, 0xa3);
    }
    return Qt::black;
}

QImage canvas(const QString &title, QPainter &p, QRect *plot)
{
    QImage image(Width, Height, QImage::Format_ARGB32_Premultiplied);
    image.fill(Qt::white);
    p.begin(&image);
    p.setRenderHint(QPainter::Antialiasing);
    QFont font = p.font();
    font.setPixelSize(18);
    font.setBold(true);
    p.setFont(font);
    p.setPen(Qt::black);
    p.drawText(QRect(0, 12, Width, 30), Qt::AlignHCenter | Qt::AlignVCenter, title);
    font.setPixelSize(13);
    font.setBold(false);
    p.setFont(font);
    *plot = QRect(0, 0, Width, Height).marginsRemoved(Plot);
    return image;
}

void legend(QPainter &p, const QRect &plot, const QList<std::pair<QString, QColor>> &entries)
{
    int y = plot.top() + 8;
    for (const auto &[label, color] : entries) {
        p.setPen(QPen(color, 4));
        p.drawLine(plot.right() + 20, y, plot.right() + 44, y);
        p.setPen(Qt::black);
        p.drawText(QPoint(plot.right() + 52, y + 5), label);
        y += 22;
    }
}

// The plot's frame: a 0–100 % y axis in quarters with grid lines, the box and both axis titles.
void frame(QPainter &p, const QRect &plot, const QString &xTitle, const QString &yTitle)
{
    for (int i = 0; i <= 4; ++i) {
        const double y = plot.bottom() - i / 4.0 * plot.height();
        p.setPen(QPen(QColor(0xdd, 0xdd, 0xdd), 1));
        p.drawLine(QPointF(plot.left(), y), QPointF(plot.right(), y));
        p.setPen(Qt::black);
        p.drawText(QRectF(plot.left() - 60, y - 10, 52, 20), Qt::AlignRight | Qt::AlignVCenter,
                   QStringLiteral("%1 %").arg(i * 25));
    }
    p.setPen(Qt::black);
    p.drawRect(plot);
    p.drawText(QRectF(plot.left(), plot.bottom() + 30, plot.width(), 20), Qt::AlignHCenter, xTitle);
    p.save();
    p.translate(plot.left() - 64, plot.center().y());
    p.rotate(-90);
    p.drawText(QRectF(-150, -10, 300, 20), Qt::AlignHCenter, yTitle);
    p.restore();
}

} // namespace

QImage latencyCdfChart(const QList<const RunFigures *> &runs, const QString &title)
{
    QPainter p;
    QRect plot;
    QImage image = canvas(title, p, &plot);

    // Log axis from 0.1 ms (1 ms when nothing is faster) to the decade above the slowest answer.
    double slowest = 10, fastest = 1;
    for (const RunFigures *f : runs) {
        for (double v : f->perceived) {
            slowest = std::max(slowest, v);
            fastest = std::min(fastest, v);
        }
    }
    const double lo = fastest < 1 ? -1 : 0, hi = std::ceil(std::log10(slowest));
    const auto x = [&](double ms) {
        const double l = std::clamp(std::log10(std::max(ms, 0.1)), lo, hi);
        return plot.left() + (l - lo) / (hi - lo) * plot.width();
    };
    const auto y = [&](double fraction) { return plot.bottom() - fraction * plot.height(); };

    p.setPen(QPen(QColor(0xdd, 0xdd, 0xdd), 1));
    for (int d = int(lo); d <= int(hi); ++d) {
        p.drawLine(QPointF(x(std::pow(10, d)), plot.top()), QPointF(x(std::pow(10, d)), plot.bottom()));
        p.save();
        p.setPen(Qt::black);
        const double v = std::pow(10, d);
        const QString label = v >= 1000 ? QStringLiteral("%1 s").arg(v / 1000) : QStringLiteral("%1 ms").arg(v);
        p.drawText(QRectF(x(v) - 40, plot.bottom() + 6, 80, 20), Qt::AlignHCenter, label);
        p.restore();
    }
    frame(p, plot, QStringLiteral("perceived latency: activation → first token (log scale)"),
          QStringLiteral("share of activations at or below"));

    QList<std::pair<QString, QColor>> entries;
    // Off and all last, so they lie on top.
    QList<const RunFigures *> ordered = runs;
    std::stable_sort(ordered.begin(), ordered.end(), [](const RunFigures *a, const RunFigures *b) {
        const auto weight = [](Mode m) { return m == Mode::All ? 2 : m == Mode::Off ? 1 : 0; };
        return weight(a->mode) < weight(b->mode);
    });
    for (const RunFigures *f : ordered) {
        QList<double> values = f->perceived;
        if (values.isEmpty())
            continue;
        std::sort(values.begin(), values.end());
        QPainterPath path(QPointF(x(values.first()), y(0)));
        for (qsizetype i = 0; i < values.size(); ++i) {
            path.lineTo(x(values.at(i)), y(double(i) / double(values.size())));
            path.lineTo(x(values.at(i)), y(double(i + 1) / double(values.size())));
        }
        path.lineTo(plot.right(), y(1));
        const bool heavy = f->mode == Mode::Off || f->mode == Mode::All;
        p.setPen(QPen(modeColor(f->mode), heavy ? 3.5 : 1.8));
        p.drawPath(path);
        const QString p50 = f->p50 < 10 ? QString::number(f->p50, 'f', 1) : QString::number(std::llround(f->p50));
        entries.prepend(
            {QStringLiteral("%1 (p50 %2 ms)").arg(QLatin1StringView(modeId(f->mode)), p50), modeColor(f->mode)});
    }
    legend(p, plot, entries);
    p.end();
    return image;
}

QImage hitRateCostChart(const QList<const RunFigures *> &runs, const QString &title)
{
    QPainter p;
    QRect plot;
    QImage image = canvas(title, p, &plot);

    // PREFETCH.md's reported ranges: hit rate and extra cost.
    struct Reference {
        Mode mode;
        double hitLo, hitHi, costLo, costHi;
    };
    const Reference references[] = {{Mode::Warmup, 0.97, 1.0, 0.0, 0.05},
                                    {Mode::Hover, 0.55, 0.70, 0.30, 0.45},
                                    {Mode::Debounce, 0.40, 0.65, 0.35, 0.60},
                                    {Mode::Workflow, 0.80, 0.95, 0.05, 0.20}};
    const double maxCost = 1.0; // beyond 100 % the point sits on the right edge, labelled
    const auto x = [&](double cost) { return plot.left() + std::clamp(cost, 0.0, maxCost) / maxCost * plot.width(); };
    const auto y = [&](double rate) { return plot.bottom() - std::clamp(rate, 0.0, 1.0) * plot.height(); };

    for (const Reference &r : references) {
        QColor fill = modeColor(r.mode);
        fill.setAlpha(45);
        p.fillRect(QRectF(QPointF(x(r.costLo), y(r.hitHi)), QPointF(x(r.costHi), y(r.hitLo))), fill);
    }
    for (int i = 0; i <= 4; ++i) {
        p.setPen(QPen(QColor(0xdd, 0xdd, 0xdd), 1));
        p.drawLine(QPointF(x(i / 4.0), plot.top()), QPointF(x(i / 4.0), plot.bottom()));
        p.setPen(Qt::black);
        p.drawText(QRectF(x(i / 4.0) - 40, plot.bottom() + 6, 80, 20), Qt::AlignHCenter,
                   QStringLiteral("%1 %%2").arg(i * 25).arg(i == 4 ? QStringLiteral("+") : QString()));
    }
    frame(p, plot, QStringLiteral("extra cost: tokens wasted ÷ tokens used (shaded: PREFETCH.md's reported ranges)"),
          QStringLiteral("hit rate"));

    QList<std::pair<QString, QColor>> entries;
    QList<QRectF> labels; // placed so far: a label that would overlap one moves down a line
    const QFontMetricsF metrics(p.font());
    for (Mode mode : {Mode::Warmup, Mode::Hover, Mode::Debounce, Mode::Workflow}) {
        bool any = false;
        for (const RunFigures *f : runs) {
            if (f->mode != mode)
                continue;
            const Prefetch::StrategyStats s = f->run->stats.value(strategiesOf(mode).constFirst());
            if (s.attempts == 0)
                continue; // the trace never gave this strategy a chance
            any = true;
            const QPointF at(x(s.extraCostUnbounded() ? maxCost : s.extraCost()), y(s.hitRate()));
            p.setPen(QPen(Qt::black, 1));
            p.setBrush(modeColor(mode));
            p.drawEllipse(at, 7, 7);
            p.setBrush(Qt::NoBrush);
            QRectF label = metrics.boundingRect(f->trace).translated(at + QPointF(10, 4));
            if (label.right() > plot.right())
                label.moveRight(at.x() - 10); // the legend is on the right
            while (std::any_of(labels.cbegin(), labels.cend(), [&](const QRectF &r) { return r.intersects(label); }))
                label.translate(0, metrics.height());
            labels.append(label);
            p.drawText(label.bottomLeft() - QPointF(0, metrics.descent()), f->trace);
        }
        if (any)
            entries.append({QLatin1StringView(modeId(mode)).toString(), modeColor(mode)});
    }
    legend(p, plot, entries);
    p.end();
    return image;
}

} // namespace Bench
