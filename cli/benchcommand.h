#pragma once

#include <QStringList>

namespace Cli {

// `headstart-cli bench`: replays behaviour traces against the local provider with prefetch off,
// each strategy alone and all on, and writes report.md, report.json and PNG charts into a
// folder (bench/README.md). Needs a QGuiApplication for the charts.
// Exit codes: 0 done, 1 a run could not start or the report could not be written, 2 bad arguments.
int runBench(const QStringList &arguments);

// `headstart-cli tracegen`: writes a generated behaviour trace to stdout.
int runTraceGen(const QStringList &arguments);

} // namespace Cli
