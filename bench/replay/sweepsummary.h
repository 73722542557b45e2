#pragma once

#include <QImage>
#include <QString>
#include <QStringList>

namespace Bench {

struct Report;

// The sensitivity sweep over the share of selections that lead to an action (issue 40;
// `--selection-action`, TraceKnobs::selectionAction): per sweep point, the document kinds'
// runs pooled over the held-out seeds, each mode and settings variant beside the others (the
// learned guesses are the defaults; `--fixed-guesses` the rules before them), with
// p50, p95, extra cost in money against prefetch off and the selection guesses' own bill. A
// sweep point is the kind's suffix ("@sel20"); runs of document kinds without one are the
// 100 % point. Empty when the report has no sweep.
QString sweepMarkdown(const Report &report, const QStringList &chartFiles);
// Extra cost (and p50) against the share, one curve per variant of every strategy on. Null when
// the report has no sweep. Needs a QGuiApplication.
QImage sweepChart(const Report &report);
inline const QString SweepChartFile = QStringLiteral("sweep-selection.png");

} // namespace Bench
