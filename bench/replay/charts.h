#pragma once

#include <QImage>
#include <QList>
#include <QString>

namespace Bench {

struct RunFigures;

// Cumulative distribution of perceived latency, one curve per mode (off and all drawn
// heaviest), on a log-scale time axis. Needs a QGuiApplication (fonts).
QImage latencyCdfChart(const QList<const RunFigures *> &runs, const QString &title);

// Each strategy alone: hit rate against extra cost, one point per trace, over the ranges
// PREFETCH.md reports for that strategy (shaded).
QImage hitRateCostChart(const QList<const RunFigures *> &runs, const QString &title);

} // namespace Bench
