#pragma once

// One harness for both stream decoders: the input is an SSE response body, parsed in one read
// and in input-derived chunks and decoded as ProviderRequest does. Invariants checked:
// - the decoded events are the same for both splits;
// - nothing is decoded after the provider's end marker (`[DONE]`, `message_stop`);
// - isComplete() and malformedReason() never go back once set;
// - at most one Finish per choice;
// - content deltas carry text (or, for tool calls, an id/name), errors a message.

#include "fuzzsupport.h"

#include "llm/sseparser.h"
#include "llm/streamdecoder.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QSet>

namespace Fuzz {

// The end-of-stream marker, recognised independently of the decoder under test.
inline bool isEndMarker(Llm::ApiFormat format, const Llm::SseEvent &event)
{
    if (format == Llm::ApiFormat::OpenAiChat)
        return event.data.trimmed() == "[DONE]";
    const QJsonDocument doc = QJsonDocument::fromJson(event.data);
    return doc.isObject()
           && doc.object().value(QLatin1StringView("type")).toString() == QLatin1StringView("message_stop");
}

inline QList<Llm::StreamEvent> decodeStream(Llm::ApiFormat format, QByteArrayView bytes, const QList<qsizetype> &sizes)
{
    Llm::SseParser parser(64 * 1024, 256 * 1024);
    QList<Llm::SseEvent> events;
    qsizetype pos = 0;
    for (qsizetype size : sizes) {
        if (!parser.feed(bytes.sliced(pos, size), events))
            break;
        pos += size;
    }
    parser.finish();

    const auto decoder = Llm::StreamDecoder::create(format);
    QList<Llm::StreamEvent> all;
    QList<Llm::StreamEvent> out;
    QSet<int> finished;
    bool ended = false;
    bool complete = false;
    bool malformed = false;
    for (const Llm::SseEvent &event : std::as_const(events)) {
        out.clear();
        decoder->decode(event, out);
        if (ended)
            FUZZ_CHECK(out.isEmpty());
        ended = ended || isEndMarker(format, event);
        // Anthropic's end is one event. OpenAI's without [DONE] is "every choice seen has
        // finished and usage came", which a choice that starts later undoes (found by
        // fuzz_openaidecoder; the decoder cannot know n): only [DONE] is final there.
        if (format != Llm::ApiFormat::OpenAiChat || ended)
            FUZZ_CHECK(!complete || decoder->isComplete());
        complete = decoder->isComplete();
        FUZZ_CHECK(!malformed || !decoder->malformedReason().isEmpty());
        malformed = !decoder->malformedReason().isEmpty();
        for (const Llm::StreamEvent &e : std::as_const(out)) {
            FUZZ_CHECK(e.choice >= 0 || format == Llm::ApiFormat::OpenAiChat);
            switch (e.type) {
            case Llm::StreamEvent::Type::TextDelta:
            case Llm::StreamEvent::Type::ReasoningDelta:
            case Llm::StreamEvent::Type::RefusalDelta: FUZZ_CHECK(!e.text.isEmpty()); break;
            case Llm::StreamEvent::Type::ToolCallDelta:
                FUZZ_CHECK(!e.text.isEmpty() || !e.toolId.isEmpty() || !e.toolName.isEmpty());
                break;
            case Llm::StreamEvent::Type::Usage: FUZZ_CHECK(!e.usage.isEmpty()); break;
            case Llm::StreamEvent::Type::Finish:
                FUZZ_CHECK(!e.text.isEmpty());
                FUZZ_CHECK(!finished.contains(e.choice));
                finished.insert(e.choice);
                break;
            case Llm::StreamEvent::Type::Error: FUZZ_CHECK(!e.text.isEmpty()); break;
            }
        }
        all.append(out);
    }
    return all;
}

inline int fuzzDecoder(Llm::ApiFormat format, const std::uint8_t *data, std::size_t size)
{
    const QByteArrayView bytes(reinterpret_cast<const char *>(data), qsizetype(size));
    const QList<Llm::StreamEvent> whole = decodeStream(format, bytes,
                                                       size ? QList<qsizetype>{qsizetype(size)} : QList<qsizetype>{});
    const QList<Llm::StreamEvent> pieces = decodeStream(format, bytes, chunkSizes(bytes));
    FUZZ_CHECK(whole == pieces);
    return 0;
}

} // namespace Fuzz
