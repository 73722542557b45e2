#pragma once

#include "prefetch/metrics.h"

#include <QList>
#include <QRect>
#include <QStringList>
#include <QTimer>
#include <QWidget>

namespace Gui {

// Recent perceived latencies (activation to first token shown) as dots over time: the x axis
// is time before now ("−5 min" … "now"; the span is the smallest of 1 min, 2 min, 5 min … 24 h
// that holds the oldest sample, older ones are left out), the y axis a log scale from 1 ms to
// 10 s (values outside are clamped to the edges), with a guide line at 300 ms: under it an
// answer feels instant. A legend above the plot names each series by its colour: taken over
// from a prefetch, after a missed prefetch, with no prefetch. Painted from palette roles and
// font metrics only, so dark palettes and high-DPI screens need nothing special. The same
// figures are in accessibleDescription() for screen readers.
class LatencyChart : public QWidget
{
    Q_OBJECT

public:
    static constexpr double InstantMs = 300;
    static constexpr double ScaleMinMs = 1;
    static constexpr double ScaleMaxMs = 10000;

    explicit LatencyChart(QWidget *parent = nullptr);

    // Oldest first, with the moment they are shown against (Llm::monotonicNowNs()). Repaints
    // only when either changed. While shown, "now" then follows the clock once a second, so
    // the dots slide left between updates.
    void setSamples(const QList<Prefetch::LatencySample> &samples, qint64 nowNs);
    const QList<Prefetch::LatencySample> &samples() const { return m_samples; }
    QList<double> latencies() const; // the samples' milliseconds, oldest first
    // One sentence with the figures; also the accessible description.
    QString summary() const;

    // What the chart paints, for tests and for anyone checking a translation: the legend's
    // entries (in series order), the latency axis's labels (bottom up), and the time axis's
    // labels at the current width (oldest first, "now" last).
    static QString seriesName(Prefetch::LatencyKind kind);
    static QColor seriesColor(const QPalette &palette, Prefetch::LatencyKind kind);
    QStringList legendLabels() const;
    QStringList latencyAxisLabels() const;
    QStringList timeAxisLabels() const;
    // The time axis's span in seconds: the smallest step that holds the oldest sample.
    qint64 timeSpanSeconds() const;

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

protected:
    void paintEvent(QPaintEvent *event) override;
    void changeEvent(QEvent *event) override;
    void showEvent(QShowEvent *event) override;
    void hideEvent(QHideEvent *event) override;

private:
    struct Tick {
        qint64 ageSeconds;
        QString label;
    };
    struct LegendEntry {
        Prefetch::LatencyKind kind;
        QRect swatch;
        QRect text;
    };
    struct Layout {
        QList<LegendEntry> legend;
        QRect plot;
        int yLabelWidth = 0;
    };

    QString formatMs(double ms, bool axis = false) const;
    static QString formatAge(qint64 seconds, qint64 span);
    Layout layout() const;
    QList<Tick> timeTicks(int plotWidth) const;

    QList<Prefetch::LatencySample> m_samples;
    qint64 m_nowNs = 0;
    QTimer m_clock;
};

} // namespace Gui
