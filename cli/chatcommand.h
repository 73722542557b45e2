#pragma once

#include <QStringList>

namespace Cli {

// `headstart-cli chat`: streams one answer to stdout, then timing and usage to stderr.
// Exit codes: 0 done, 1 the provider failed, 2 bad arguments, 130 interrupted (Ctrl-C).
int runChat(const QStringList &arguments);

// `headstart-cli providers`: the built-in provider profiles.
int runProviders(const QStringList &arguments);

} // namespace Cli
