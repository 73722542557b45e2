#include "flood.h"

#include "chatrequest.h"
#include "httpconnection.h"
#include "serverstate.h"

namespace LocalProvider {

namespace {

// Written while the socket's queue holds less than this: the kernel and the client set the pace.
constexpr qint64 QueueLimitBytes = 256 * 1024;
constexpr qsizetype BatchBytes = 64 * 1024;
const QByteArray Words = "flood flood flood flood flood flood flood flood flood flood flood ";

QByteArray openAiChunk(const QByteArray &choice)
{
    return "data: {\"id\":\"chatcmpl-flood\",\"object\":\"chat.completion.chunk\",\"choices\":[" + choice + "]}\n\n";
}

QByteArray anthropicEvent(const QByteArray &type, const QByteArray &json)
{
    return "event: " + type + "\ndata: " + json + "\n\n";
}

} // namespace

Flood::Flood(HttpConnection *connection, ServerState &state, FaultSpec::Flood kind, Api api, const QString &model)
    : QObject(connection)
    , m_connection(connection)
    , m_state(state)
    , m_kind(kind)
    , m_api(api)
    , m_model(model)
{
    connect(m_connection, &HttpConnection::closed, this, &QObject::deleteLater);
}

void Flood::start()
{
    if (m_kind == FaultSpec::Flood::Error) {
        m_connection->beginStream(500, "application/json");
        m_connection->writeStream("{\"error\":{\"type\":\"server_error\",\"message\":\"");
    } else {
        m_connection->beginStream(200, "text/event-stream");
        if (m_api == Api::Anthropic && m_kind != FaultSpec::Flood::Comments) {
            m_connection->writeStream(
                anthropicEvent("message_start",
                               "{\"type\":\"message_start\",\"message\":{\"id\":\"msg_flood\",\"type\":\"message\","
                               "\"role\":\"assistant\",\"model\":"
                                   + jsonQuoted(m_model)
                                   + ",\"content\":[],\"usage\":{\"input_tokens\":1,\"output_tokens\":0}}}"));
            if (m_kind == FaultSpec::Flood::Text)
                m_connection->writeStream(anthropicEvent(
                    "content_block_start",
                    "{\"type\":\"content_block_start\",\"index\":0,\"content_block\":{\"type\":\"text\",\"text\":\"\"}}"));
        }
    }
    // Only now: a flush can report bytes written from inside writeStream(), and the opening
    // events must come first.
    connect(m_connection, &HttpConnection::bytesWritten, this, &Flood::fill);
    fill();
}

void Flood::fill()
{
    while (m_connection->isOpen() && m_connection->queuedBytes() < QueueLimitBytes) {
        QByteArray batch;
        while (batch.size() < BatchBytes)
            batch += nextEvent();
        const qint64 bytes = batch.size();
        const bool open = m_connection->writeStream(batch);
        m_state.updateStats([bytes](Stats &s) { s.floodBytes += bytes; });
        if (!open)
            return;
    }
}

QByteArray Flood::nextEvent()
{
    const QByteArray n = QByteArray::number(m_serial++);
    switch (m_kind) {
    case FaultSpec::Flood::Comments: return ": keep-alive\n\n";
    case FaultSpec::Flood::Error: return Words;
    case FaultSpec::Flood::Text:
        if (m_api == Api::OpenAi)
            return openAiChunk("{\"index\":0,\"delta\":{\"content\":\"" + Words + "\"},\"finish_reason\":null}");
        return anthropicEvent("content_block_delta",
                              "{\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":"
                              "\"text_delta\",\"text\":\""
                                  + Words + "\"}}");
    case FaultSpec::Flood::Choices:
        if (m_api == Api::OpenAi)
            return openAiChunk("{\"index\":" + n
                               + ",\"delta\":{\"role\":\"assistant\",\"content\":\"x\"},\"finish_reason\":null}");
        // Messages have no choices: ever new content blocks are its way of growing sideways.
        return anthropicEvent("content_block_start", "{\"type\":\"content_block_start\",\"index\":" + n
                                                         + ",\"content_block\":{\"type\":\"text\",\"text\":\"\"}}")
               + anthropicEvent("content_block_delta", "{\"type\":\"content_block_delta\",\"index\":" + n
                                                           + ",\"delta\":{\"type\":\"text_delta\",\"text\":\"x\"}}");
    case FaultSpec::Flood::Tools:
        if (m_api == Api::OpenAi)
            return openAiChunk("{\"index\":0,\"delta\":{\"tool_calls\":[{\"index\":" + n + ",\"id\":\"call_" + n
                               + "\",\"type\":\"function\",\"function\":{\"name\":\"f\",\"arguments\":\"{}\"}}]},"
                                 "\"finish_reason\":null}");
        return anthropicEvent("content_block_start", "{\"type\":\"content_block_start\",\"index\":" + n
                                                         + ",\"content_block\":{\"type\":\"tool_use\",\"id\":\"toolu_"
                                                         + n + "\",\"name\":\"f\",\"input\":{}}}");
    case FaultSpec::Flood::None: break;
    }
    return {};
}

} // namespace LocalProvider
