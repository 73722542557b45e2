#pragma once

#include "replayer.h"

#include <QJsonObject>
#include <QList>
#include <QString>

namespace Bench {

// The strategies a mode turns on, in AllStrategies order.
QList<Prefetch::Strategy> strategiesOf(Mode mode);

// The figures of one run, as the report shows them.
struct RunFigures {
    QString trace, preset;
    Mode mode = Mode::Off;
    int activations = 0, answered = 0, prefetched = 0;
    double p50 = -1, p95 = -1;           // perceived latency, ms
    double firstOnDocumentP50 = -1;      // the first answer about each document
    double ratioP50 = -1, ratioP95 = -1; // this mode ÷ off, same trace and preset
    double extraCost = 0;                // wasted ÷ used tokens, every strategy of the run
    double tokensVsOff = -1;             // (prompt + output tokens) ÷ off's
    QList<double> perceived;             // every answered activation, ms
    const RunResult *run = nullptr;
};

// The whole benchmark: every run's figures, the targets of issue 5 checked against them.
struct Report {
    QList<RunFigures> runs;
    double speed = 1;
    QString date;

    static Report build(const QList<const RunResult *> &results, double speed);
    const RunFigures *find(const QString &trace, const QString &preset, Mode mode) const;
    // The run `f` is compared with: its trace and preset with prefetch off and the same response
    // cache setting (prefetch's figures are against the same cache), else any with prefetch off.
    const RunFigures *offFor(const RunFigures &f) const;

    QJsonObject toJson() const;
    QString toMarkdown(const QStringList &chartFiles) const;
    // Writes report.md, report.json and the PNG charts into `directory`; the error says what
    // could not be written.
    std::optional<QString> write(const QString &directory) const;
};

} // namespace Bench
