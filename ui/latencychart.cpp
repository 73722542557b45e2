#include "latencychart.h"

#include <QEvent>
#include <QLocale>
#include <QPainter>
#include <QStyle>
#include <QStyleOptionFocusRect>

#include <algorithm>
#include <cmath>

namespace Gui {

namespace {

constexpr double AxisTicks[] = {1, 10, 100, 1000, 10000};

// Halfway between two colours: a tone that reads on light and dark palettes alike.
QColor blend(const QColor &a, const QColor &b, double t)
{
    return QColor::fromRgbF(float(a.redF() * (1 - t) + b.redF() * t), float(a.greenF() * (1 - t) + b.greenF() * t),
                            float(a.blueF() * (1 - t) + b.blueF() * t));
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
}

void LatencyChart::setSamples(const QList<double> &samples)
{
    if (samples == m_samples)
        return;
    m_samples = samples;
    setAccessibleDescription(summary());
    setToolTip(summary());
    update();
}

QString LatencyChart::formatMs(double ms, bool axis) const
{
    const QLocale locale;
    if (ms < 1000)
        return tr("%1 ms").arg(locale.toString(ms, 'f', !axis && ms < 10 ? 1 : 0));
    return tr("%1 s").arg(locale.toString(ms / 1000.0, 'f', axis ? 0 : 1));
}

QString LatencyChart::summary() const
{
    if (m_samples.isEmpty())
        return tr("No answers measured yet.");
    QList<double> sorted = m_samples;
    std::sort(sorted.begin(), sorted.end());
    const double median = sorted.at((sorted.size() - 1) / 2);
    const auto instant = std::count_if(m_samples.cbegin(), m_samples.cend(), [](double ms) { return ms < InstantMs; });
    const QLocale locale;
    return tr("Recent answers: %1. Latest %2, median %3, slowest %4; %5 under %6.")
        .arg(locale.toString(m_samples.size()), formatMs(m_samples.constLast()), formatMs(median),
             formatMs(sorted.constLast()), locale.toString(qint64(instant)), formatMs(InstantMs));
}

QSize LatencyChart::sizeHint() const
{
    const QFontMetrics fm = fontMetrics();
    return {fm.averageCharWidth() * 40, fm.height() * 7};
}

QSize LatencyChart::minimumSizeHint() const
{
    const QFontMetrics fm = fontMetrics();
    return {fm.averageCharWidth() * 16, fm.height() * 4};
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

    int labelWidth = 0;
    for (double tick : AxisTicks)
        labelWidth = std::max(labelWidth, fm.horizontalAdvance(formatMs(tick, true)));
    // Half a line above and below, so the top and bottom axis labels are not cut.
    const QRect plot = rect().adjusted(labelWidth + 2 * pad, fm.height() / 2 + pad, -pad, -(fm.height() / 2 + pad));
    if (hasFocus()) {
        QStyleOptionFocusRect option;
        option.initFrom(this);
        option.backgroundColor = pal.color(QPalette::Window);
        style()->drawPrimitive(QStyle::PE_FrameFocusRect, &option, &painter, this);
    }
    if (plot.width() < 4 || plot.height() < 4)
        return;

    const double decades = std::log10(ScaleMaxMs / ScaleMinMs);
    const auto yOf = [&](double ms) {
        const double t = std::log10(std::clamp(ms, ScaleMinMs, ScaleMaxMs) / ScaleMinMs) / decades;
        return plot.bottom() + 1 - int(std::lround(t * plot.height()));
    };

    painter.fillRect(plot, pal.color(QPalette::Base));
    const QColor gridColor = blend(pal.color(QPalette::Base), pal.color(QPalette::Text), 0.2);
    for (double tick : AxisTicks) {
        const int y = std::min(yOf(tick), plot.bottom());
        painter.setPen(gridColor);
        painter.drawLine(plot.left(), y, plot.right(), y);
        painter.setPen(pal.color(QPalette::WindowText));
        painter.drawText(QRect(0, y - fm.height() / 2, labelWidth + pad, fm.height()), Qt::AlignRight | Qt::AlignVCenter,
                         formatMs(tick, true));
    }

    if (m_samples.isEmpty()) {
        painter.setPen(pal.color(QPalette::PlaceholderText));
        painter.drawText(plot, Qt::AlignCenter, tr("No answers yet"));
    } else {
        // As many of the newest samples as fit at two pixels a bar; a few samples get bars no
        // wider than a character, right-aligned, so the newest is always at the right edge.
        const qsizetype fit = std::max(1, plot.width() / 2);
        const qsizetype shown = std::min<qsizetype>(m_samples.size(), fit);
        const double slot = std::min(double(plot.width()) / double(shown), double(fm.averageCharWidth()));
        const double barWidth = std::max(1.0, slot * 0.7);
        const QColor fast = pal.color(QPalette::Highlight);
        const QColor slow = blend(pal.color(QPalette::Base), pal.color(QPalette::Text), 0.55);
        const qsizetype first = m_samples.size() - shown;
        for (qsizetype i = 0; i < shown; ++i) {
            const double ms = m_samples.at(first + i);
            const double right = plot.right() + 1 - double(shown - 1 - i) * slot;
            const QRectF bar(right - barWidth, yOf(ms), barWidth, plot.bottom() + 1 - yOf(ms));
            painter.fillRect(bar, ms < InstantMs ? fast : slow);
        }
    }

    // The guide line and its label go over the bars.
    const int guideY = yOf(InstantMs);
    QPen guide(pal.color(QPalette::Text));
    guide.setStyle(Qt::DashLine);
    painter.setPen(guide);
    painter.drawLine(plot.left(), guideY, plot.right(), guideY);
    const QString label = tr("%1: feels instant").arg(formatMs(InstantMs, true));
    const QRect labelRect(plot.left() + pad, guideY - fm.height() - 1, fm.horizontalAdvance(label) + 2 * pad, fm.height());
    QColor labelBackground = pal.color(QPalette::Base);
    labelBackground.setAlpha(200);
    painter.fillRect(labelRect, labelBackground);
    painter.setPen(pal.color(QPalette::Text));
    painter.drawText(labelRect, Qt::AlignCenter, label);
}

} // namespace Gui
