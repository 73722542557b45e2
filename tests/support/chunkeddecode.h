#pragma once

#include "llm/llmtypes.h"

#include <QByteArray>
#include <QList>

namespace Llm {
class StreamDecoder;
}

namespace TestSupport {

// What one response decoded into when its bytes came in reads of chosen sizes: the decoder
// suites check that every split gives the same result. A plain value; any thread.
struct ChunkedDecode {
    QList<Llm::StreamEvent> events; // in order, across all reads
    qsizetype sseEvents = 0;        // SSE events the parser dispatched
};

// Feeds `bytes` to a fresh Llm::SseParser in reads of `readSizes` bytes (cycled; empty: one
// read), passes every event it completes to `decoder`, then finishes the parser. The decoder's
// own state (isComplete(), malformedReason()) is the caller's to read afterwards.
ChunkedDecode decodeInReads(Llm::StreamDecoder &decoder, const QByteArray &bytes,
                            const QList<qsizetype> &readSizes = {});

} // namespace TestSupport
