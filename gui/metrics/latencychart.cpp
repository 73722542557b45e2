#include "gui/metrics/latencychart.h"

#include "llm/clock.h"

#include <QEvent>
#include <QLocale>
#include <QPainter>
#include <QStyle>
#include <QStyleOptionFocusRect>

#include <algorithm>
#include <cmath>

namespace Gui {

namespace {

using Prefetch::LatencyKind;

constexpr double AxisTicks[] = {1, 10, 100, 1000, 10000};
constexpr LatencyKind Series[] = {LatencyKind::Hit, LatencyKind::Miss, LatencyKind::NoPrefetch};
// Seconds; the time axis takes the smallest that holds the oldest sample.
constexpr qint64 Spans[] = {60, 120, 300, 600, 900, 1800, 3600, 7200, 21600, 43200, 86400};
// Tick steps in seconds, whole in the unit the span's labels use (see formatAge()).
constexpr qint64 SecondSteps[] = {5, 10, 15, 20, 30, 60};
constexpr qint64 MinuteSteps[] = {60, 120, 300, 600, 900, 1200, 1800, 3600};
constexpr qint64 HourSteps[] = {3600, 7200, 10800, 21600, 43200, 86400};
constexpr qint64 SecondLabelsUpTo = 120;
constexpr qint64 MinuteLabelsUpTo = 7200;

// Halfway between two colours: a tone that reads on light and dark palettes alike.
QColor blend(const QColor &a, const QColor &b, double t)
{
    return QColor::fromRgbF(float(a.redF() * (1 - t) + b.redF() * t), float(a.greenF() * (1 - t) + b.greenF() * t),
                            float(a.blueF() * (1 - t) + b.blueF() * t));
}

double ageSeconds(const Prefetch::LatencySample &sample, qint64 nowNs)
{
    return std::max(0.0, double(nowNs - sample.atNs) / 1e9);
}

} // namespace

LatencyChart::LatencyChart(QWidget *parent)
    : QWidget(parent)
{
    setAccessibleName(tr("Recent perceived latencies"));
    setAccessibleDescription(summary());
    // Reachable from the keyboard so a screen reader can read the summary; nothing to operate.
    setFocusPolicy(Qt::TabFocus);
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Preferred);
    m_clock.setInterval(1000);
    connect(&m_clock, &QTimer::timeout, this, [this] {
        if (m_samples.isEmpty())
            return;
        m_nowNs = Llm::monotonicNowNs();
        update();
    });
}

void LatencyChart::showEvent(QShowEvent *event)
{
    m_clock.start();
    QWidget::showEvent(event);
}

void LatencyChart::hideEvent(QHideEvent *event)
{
    m_clock.stop();
    QWidget::hideEvent(event);
}

void LatencyChart::setSamples(const QList<Prefetch::LatencySample> &samples, qint64 nowNs)
{
    if (samples == m_samples && nowNs == m_nowNs)
        return;
    const bool changed = samples != m_samples;
    m_samples = samples;
    m_nowNs = nowNs;
    if (changed) {
        setAccessibleDescription(summary());
        setToolTip(summary());
    }
    update();
}

QList<double> LatencyChart::latencies() const
{
    QList<double> out;
    out.reserve(m_samples.size());
    for (const Prefetch::LatencySample &sample : m_samples)
        out.append(sample.ms);
    return out;
}

QString LatencyChart::formatMs(double ms, bool axis) const
{
    const QLocale locale;
    if (ms < 1000)
        return tr("%1 ms").arg(locale.toString(ms, 'f', !axis && ms < 10 ? 1 : 0));
    return tr("%1 s").arg(locale.toString(ms / 1000.0, 'f', axis ? 0 : 1));
}

QString LatencyChart::formatAge(qint64 seconds, qint64 span)
{
    const QLocale locale;
    if (seconds == 0)
        return tr("now", "the right end of the chart's time axis");
    if (span <= SecondLabelsUpTo)
        return tr("−%1 s", "seconds before now, on the chart's time axis").arg(locale.toString(seconds));
    if (span <= MinuteLabelsUpTo)
        return tr("−%1 min", "minutes before now, on the chart's time axis").arg(locale.toString(seconds / 60));
    return tr("−%1 h", "hours before now, on the chart's time axis").arg(locale.toString(seconds / 3600));
}

QString LatencyChart::summary() const
{
    if (m_samples.isEmpty())
        return tr("No answers measured yet.");
    QList<double> sorted = latencies();
    std::sort(sorted.begin(), sorted.end());
    const double median = sorted.at((sorted.size() - 1) / 2);
    const auto instant = std::count_if(sorted.cbegin(), sorted.cend(), [](double ms) { return ms < InstantMs; });
    const QLocale locale;
    return tr("Recent answers: %1. Latest %2, median %3, slowest %4; %5 under %6.")
        .arg(locale.toString(m_samples.size()), formatMs(m_samples.constLast().ms), formatMs(median),
             formatMs(sorted.constLast()), locale.toString(qint64(instant)), formatMs(InstantMs));
}

QString LatencyChart::seriesName(LatencyKind kind)
{
    switch (kind) {
    case LatencyKind::Hit: return tr("Prefetch used");
    case LatencyKind::Miss: return tr("Prefetch missed");
    case LatencyKind::NoPrefetch: return tr("No prefetch");
    }
    return tr("No prefetch");
}

QColor LatencyChart::seriesColor(const QPalette &palette, LatencyKind kind)
{
    const bool darkBackground = palette.color(QPalette::Base).lightnessF() < 0.5;
    switch (kind) {
    case LatencyKind::Hit: return palette.color(QPalette::Highlight); // the good news in the accent
    case LatencyKind::Miss: return QColor::fromHslF(0.09f, 0.85f, darkBackground ? 0.62f : 0.42f); // amber
    case LatencyKind::NoPrefetch: break;
    }
    return blend(palette.color(QPalette::Base), palette.color(QPalette::Text), 0.5);
}

QStringList LatencyChart::legendLabels() const
{
    QStringList out;
    for (LatencyKind kind : Series)
        out << seriesName(kind);
    return out;
}

QStringList LatencyChart::latencyAxisLabels() const
{
    QStringList out;
    for (double tick : AxisTicks)
        out << formatMs(tick, true);
    return out;
}

QStringList LatencyChart::timeAxisLabels() const
{
    QStringList out;
    for (const Tick &tick : timeTicks(layout().plot.width()))
        out << tick.label;
    return out;
}

qint64 LatencyChart::timeSpanSeconds() const
{
    double oldest = 0;
    for (const Prefetch::LatencySample &sample : m_samples)
        oldest = std::max(oldest, ageSeconds(sample, m_nowNs));
    for (qint64 span : Spans) {
        if (oldest <= double(span))
            return span;
    }
    return Spans[std::size(Spans) - 1];
}

QList<LatencyChart::Tick> LatencyChart::timeTicks(int plotWidth) const
{
    const qint64 span = timeSpanSeconds();
    const QFontMetrics fm = fontMetrics();
    // As many ticks as fit with a label's width and two characters between labels.
    const int labelWidth = std::max(fm.horizontalAdvance(formatAge(span, span)),
                                    fm.horizontalAdvance(formatAge(0, span)));
    // At most six intervals even when wide: a calm axis, and every tick still a round number.
    const qint64 fit = std::clamp<qint64>(plotWidth / std::max(1, labelWidth + 2 * fm.averageCharWidth()), 1, 6);
    // A step that divides the span labels both ends; failing that, one that fits leaves the
    // left edge unlabelled; failing that, only the two ends.
    const auto pick = [&](const auto &steps) {
        for (qint64 step : steps) {
            if (step < span && span % step == 0 && span / step <= fit)
                return step;
        }
        for (qint64 step : steps) {
            if (step < span && span / step <= fit)
                return step;
        }
        return span;
    };
    const qint64 step = span <= SecondLabelsUpTo   ? pick(SecondSteps)
                        : span <= MinuteLabelsUpTo ? pick(MinuteSteps)
                                                   : pick(HourSteps);
    QList<Tick> ticks;
    for (qint64 age = span / step * step; age >= 0; age -= step)
        ticks.append({age, formatAge(age, span)});
    return ticks;
}

LatencyChart::Layout LatencyChart::layout() const
{
    const QFontMetrics fm = fontMetrics();
    const int pad = std::max(2, fm.height() / 4);
    Layout l;
    for (double tick : AxisTicks)
        l.yLabelWidth = std::max(l.yLabelWidth, fm.horizontalAdvance(formatMs(tick, true)));
    const int left = l.yLabelWidth + 2 * pad;
    // "now" is centred on the right edge: leave half of it.
    const int right = width() - pad - fm.horizontalAdvance(formatAge(0, 60)) / 2;

    // The legend flows over as many lines as the width needs, from the plot's left edge.
    const int swatchSide = std::max(4, fm.ascent() * 3 / 4);
    int x = left;
    int y = pad;
    for (LatencyKind kind : Series) {
        const int entryWidth = swatchSide + pad + fm.horizontalAdvance(seriesName(kind));
        if (x > left && x + entryWidth > right) {
            x = left;
            y += fm.height();
        }
        const QRect swatch(x, y + (fm.height() - swatchSide) / 2, swatchSide, swatchSide);
        const QRect text(x + swatchSide + pad, y, entryWidth - swatchSide - pad, fm.height());
        l.legend.append({kind, swatch, text});
        x += entryWidth + 2 * fm.averageCharWidth();
    }
    const int legendBottom = y + fm.height();

    // Half a line above the plot for the top latency label; a line below for the time labels.
    const int top = legendBottom + pad + fm.height() / 2;
    const int bottom = height() - pad - fm.height() - pad;
    l.plot = QRect(QPoint(left, top), QPoint(right, bottom));
    return l;
}

QSize LatencyChart::sizeHint() const
{
    const QFontMetrics fm = fontMetrics();
    return {fm.averageCharWidth() * 48, fm.height() * 10};
}

QSize LatencyChart::minimumSizeHint() const
{
    const QFontMetrics fm = fontMetrics();
    return {fm.averageCharWidth() * 24, fm.height() * 7};
}

void LatencyChart::changeEvent(QEvent *event)
{
    if (event->type() == QEvent::FontChange)
        updateGeometry(); // the size hint follows the font
    if (event->type() == QEvent::FontChange || event->type() == QEvent::PaletteChange)
        update();
    QWidget::changeEvent(event);
}

void LatencyChart::paintEvent(QPaintEvent *)
{
    QPainter painter(this);
    const QPalette pal = palette();
    const QFontMetrics fm = fontMetrics();
    const int pad = std::max(2, fm.height() / 4);
    const Layout l = layout();
    const QRect plot = l.plot;

    if (hasFocus()) {
        QStyleOptionFocusRect option;
        option.initFrom(this);
        option.backgroundColor = pal.color(QPalette::Window);
        style()->drawPrimitive(QStyle::PE_FrameFocusRect, &option, &painter, this);
    }

    for (const LegendEntry &entry : l.legend) {
        painter.fillRect(entry.swatch, seriesColor(pal, entry.kind));
        painter.setPen(pal.color(QPalette::WindowText));
        painter.drawText(entry.text, Qt::AlignLeft | Qt::AlignVCenter, seriesName(entry.kind));
    }
    if (plot.width() < 4 || plot.height() < 4)
        return;

    const double decades = std::log10(ScaleMaxMs / ScaleMinMs);
    const auto yOf = [&](double ms) {
        const double t = std::log10(std::clamp(ms, ScaleMinMs, ScaleMaxMs) / ScaleMinMs) / decades;
        return double(plot.bottom()) - t * double(plot.height() - 1);
    };
    const qint64 span = timeSpanSeconds();
    const auto xOf = [&](double age) { return double(plot.right()) - age / double(span) * double(plot.width() - 1); };

    painter.fillRect(plot, pal.color(QPalette::Base));
    const QColor gridColor = blend(pal.color(QPalette::Base), pal.color(QPalette::Text), 0.2);
    for (double tick : AxisTicks) {
        const int y = int(std::lround(yOf(tick)));
        painter.setPen(gridColor);
        painter.drawLine(plot.left(), y, plot.right(), y);
        painter.setPen(pal.color(QPalette::WindowText));
        painter.drawText(QRect(0, y - fm.height() / 2, l.yLabelWidth + pad, fm.height()),
                         Qt::AlignRight | Qt::AlignVCenter, formatMs(tick, true));
    }
    const int tickLength = std::max(2, pad);
    for (const Tick &tick : timeTicks(plot.width())) {
        const int x = int(std::lround(xOf(double(tick.ageSeconds))));
        painter.setPen(gridColor);
        painter.drawLine(x, plot.top(), x, plot.bottom());
        painter.setPen(pal.color(QPalette::WindowText));
        painter.drawLine(x, plot.bottom() + 1, x, plot.bottom() + tickLength);
        const int labelWidth = fm.horizontalAdvance(tick.label);
        const int labelX = std::clamp(x - labelWidth / 2, 0, std::max(0, width() - labelWidth));
        painter.drawText(QRect(labelX, plot.bottom() + tickLength, labelWidth, fm.height()), Qt::AlignCenter,
                         tick.label);
    }
    painter.setPen(pal.color(QPalette::WindowText));
    painter.drawLine(plot.left(), plot.bottom() + 1, plot.right(), plot.bottom() + 1);

    if (m_samples.isEmpty()) {
        painter.setPen(pal.color(QPalette::PlaceholderText));
        painter.drawText(plot, Qt::AlignCenter, tr("No answers yet"));
    } else {
        // Dots, not bars: answers close in time overlap, and a dot still shows its series.
        // Newest drawn last, so it is on top; an outline in the plot colour separates neighbours.
        // Clamped dots sit on the plot's edges: they may overhang them, not be cut in half.
        const double radius = std::max(2.5, double(fm.height()) / 4.5);
        const int overhang = int(std::ceil(radius)) + 1;
        painter.save();
        painter.setClipRect(plot.adjusted(0, -overhang, overhang, overhang));
        painter.setRenderHint(QPainter::Antialiasing);
        painter.setPen(QPen(pal.color(QPalette::Base), 1.0));
        for (const Prefetch::LatencySample &sample : m_samples) {
            const double age = ageSeconds(sample, m_nowNs);
            if (age > double(span))
                continue;
            painter.setBrush(seriesColor(pal, sample.kind));
            painter.drawEllipse(QPointF(xOf(age), yOf(sample.ms)), radius, radius);
        }
        painter.restore();
    }

    // The guide line and its label go over the dots.
    const int guideY = int(std::lround(yOf(InstantMs)));
    QPen guide(pal.color(QPalette::Text));
    guide.setStyle(Qt::DashLine);
    painter.setPen(guide);
    painter.drawLine(plot.left(), guideY, plot.right(), guideY);
    const QString label = tr("%1: feels instant").arg(formatMs(InstantMs, true));
    const QRect labelRect(plot.left() + pad, guideY - fm.height() - 1, fm.horizontalAdvance(label) + 2 * pad,
                          fm.height());
    QColor labelBackground = pal.color(QPalette::Base);
    labelBackground.setAlpha(200);
    painter.fillRect(labelRect, labelBackground);
    painter.setPen(pal.color(QPalette::Text));
    painter.drawText(labelRect, Qt::AlignCenter, label);
}

} // namespace Gui
