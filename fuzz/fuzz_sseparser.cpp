// The SSE parser over arbitrary bytes, read whole and in input-derived chunks.
// Invariants: the same events and end state for both splits (the parser's promise), memory
// bounded by its caps at every step, no event with empty data, event data within the cap.

#include "fuzzsupport.h"

#include "llm/sseparser.h"

namespace {

// Small caps so inputs of a few KB reach the error paths.
constexpr qsizetype MaxLine = 256;
constexpr qsizetype MaxEvent = 1024;

struct Outcome {
    QList<Llm::SseEvent> events;
    bool error = false;
    bool tail = false;
    QByteArray lastId;
    std::optional<int> retry;
};

Outcome run(QByteArrayView bytes, const QList<qsizetype> &sizes)
{
    Llm::SseParser parser(MaxLine, MaxEvent);
    Outcome o;
    qsizetype pos = 0;
    for (qsizetype size : sizes) {
        const bool ok = parser.feed(bytes.sliced(pos, size), o.events);
        pos += size;
        FUZZ_CHECK(ok == !parser.hasError());
        // A partial line is at most MaxLine; the data buffer at most MaxEvent plus the LF
        // that ends its last line.
        FUZZ_CHECK(parser.bufferedBytes() <= MaxLine + MaxEvent + 1);
        if (!ok)
            break;
    }
    o.error = parser.hasError();
    FUZZ_CHECK(o.error == !parser.errorString().isEmpty());
    o.tail = !o.error && parser.finish();
    FUZZ_CHECK(parser.bufferedBytes() == 0 || o.error);
    o.lastId = parser.lastEventId();
    o.retry = parser.retryMs();
    for (const Llm::SseEvent &e : std::as_const(o.events)) {
        FUZZ_CHECK(e.data.size() <= MaxEvent);
        FUZZ_CHECK(!e.id.contains('\0'));
        FUZZ_CHECK(!e.type.contains('\n') && !e.type.contains('\r'));
    }
    if (o.retry)
        FUZZ_CHECK(*o.retry >= 0);
    return o;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    const QByteArrayView bytes(reinterpret_cast<const char *>(data), qsizetype(size));
    const Outcome whole = run(bytes, size ? QList<qsizetype>{qsizetype(size)} : QList<qsizetype>{});
    const Outcome pieces = run(bytes, Fuzz::chunkSizes(bytes));
    FUZZ_CHECK(whole.error == pieces.error);
    FUZZ_CHECK(whole.events == pieces.events);
    if (!whole.error) {
        FUZZ_CHECK(whole.tail == pieces.tail);
        FUZZ_CHECK(whole.lastId == pieces.lastId);
        FUZZ_CHECK(whole.retry == pieces.retry);
    }
    return 0;
}
