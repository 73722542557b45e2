#pragma once

#include <QStringList>

namespace Cli {

// `headstart-cli replay --format openai|anthropic|sse [--chunk N] [--compact] FILE`: decodes a
// recorded SSE response body offline, exactly as a live stream would be decoded, and prints
// JSON on stdout (raw events as they are parsed; a decoded answer once decoded). The file is
// read in pieces and no list of its events is kept, so memory does not grow with its length.
// `arguments` are those after `replay`.
// Exit codes: 0 a clean, complete stream; 1 the stream was malformed or carried an error (the
// JSON still prints); 2 bad arguments or unreadable file; 3 the stream is incomplete (no end
// marker: `[DONE]`, `message_stop`; raw: it ends inside an event), as a cut connection leaves it.
int runReplay(const QStringList &arguments);

} // namespace Cli
