#pragma once

#include <QList>
#include <QWidget>

namespace Gui {

// Recent perceived latencies (activation to first token shown) as bars, oldest left, newest
// right, on a log scale from 1 ms to 10 s (values outside are clamped to the edges), with a
// guide line at 300 ms: under it an answer feels instant. Painted from palette roles and font
// metrics only, so dark palettes and high-DPI screens need nothing special. The same figures
// are in accessibleDescription() for screen readers. Shows as many of the newest samples as
// fit its width.
class LatencyChart : public QWidget
{
    Q_OBJECT

public:
    static constexpr double InstantMs = 300;
    static constexpr double ScaleMinMs = 1;
    static constexpr double ScaleMaxMs = 10000;

    explicit LatencyChart(QWidget *parent = nullptr);

    // Milliseconds, oldest first. Repaints only when they changed.
    void setSamples(const QList<double> &samples);
    const QList<double> &samples() const { return m_samples; }
    // One sentence with the figures; also the accessible description.
    QString summary() const;

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

protected:
    void paintEvent(QPaintEvent *event) override;
    void changeEvent(QEvent *event) override;

private:
    QString formatMs(double ms, bool axis = false) const;

    QList<double> m_samples;
};

} // namespace Gui
