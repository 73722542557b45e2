#include "chunkeddecode.h"

#include "llm/sseparser.h"
#include "llm/streamdecoder.h"

namespace TestSupport {

ChunkedDecode decodeInReads(Llm::StreamDecoder &decoder, const QByteArray &bytes, const QList<qsizetype> &readSizes)
{
    Llm::SseParser parser;
    ChunkedDecode d;
    QList<Llm::SseEvent> sse;
    qsizetype pos = 0;
    for (int i = 0; pos < bytes.size(); ++i) {
        const qsizetype n = readSizes.isEmpty() ? bytes.size() : readSizes.at(i % readSizes.size());
        const qsizetype take = qMin(n, bytes.size() - pos);
        sse.clear();
        parser.feed(QByteArrayView(bytes).sliced(pos, take), sse);
        pos += take;
        d.sseEvents += sse.size();
        for (const Llm::SseEvent &e : std::as_const(sse))
            decoder.decode(e, d.events);
    }
    parser.finish();
    return d;
}

} // namespace TestSupport
