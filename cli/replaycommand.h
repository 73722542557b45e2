#pragma once

#include <QStringList>

namespace Cli {

// `headstart-cli replay --format openai|anthropic|sse [--chunk N] [--compact] FILE`: decodes a
// recorded SSE response body offline, exactly as a live stream would be decoded, and prints
// one JSON object on stdout. `arguments` are those after `replay`.
// Exit codes: 0 clean, 1 the stream was malformed or carried an error (the JSON still
// prints), 2 bad arguments or unreadable file.
int runReplay(const QStringList &arguments);

} // namespace Cli
