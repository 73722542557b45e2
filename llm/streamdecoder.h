#pragma once

#include "llmtypes.h"
#include "sseparser.h"

#include <QList>

#include <memory>

namespace Llm {

enum class ApiFormat { OpenAiChat, AnthropicMessages };

// Turns the SSE events of one response into uniform StreamEvents. One decoder per response.
// A decoder never throws; bytes it cannot make sense of become a MalformedStream error in
// `malformedReason()` while the events decoded so far stay delivered.
class StreamDecoder
{
public:
    virtual ~StreamDecoder() = default;

    // Appends the events decoded from `event` to `out`.
    virtual void decode(const SseEvent &event, QList<StreamEvent> &out) = 0;

    // The provider's end-of-stream marker was seen (`data: [DONE]`, `message_stop`), or a
    // finish reason for every choice plus usage when the provider sends no marker.
    virtual bool isComplete() const = 0;

    // Non-empty when an event could not be decoded (invalid JSON, unexpected shape). The
    // stream owner turns it into an Error::Code::MalformedStream.
    virtual QString malformedReason() const = 0;

    static std::unique_ptr<StreamDecoder> create(ApiFormat format);

    // What a decoder keeps per response is bounded by these: a stream that opens more
    // choices, tool calls or content blocks is malformed (real ones open a handful).
    static constexpr qsizetype MaxChoices = 128;
    static constexpr qsizetype MaxToolCalls = 256; // per choice
    static constexpr qsizetype MaxBlocks = 512;    // Anthropic content blocks
};

} // namespace Llm
