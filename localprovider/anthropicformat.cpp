#include "anthropicformat.h"

#include "apierror.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

namespace LocalProvider {

namespace {

QByteArray event(const char *type, const QByteArray &json)
{
    return QByteArray("event: ") + type + "\ndata: " + json + "\n\n";
}

QByteArray compact(const QJsonObject &o)
{
    return QJsonDocument(o).toJson(QJsonDocument::Compact);
}

QJsonObject usageObject(const Usage &u, int outputTokens)
{
    return QJsonObject{
        {QStringLiteral("input_tokens"), u.promptTokens - u.cacheReadTokens - u.cacheCreationTokens},
        {QStringLiteral("cache_creation_input_tokens"), u.cacheCreationTokens},
        {QStringLiteral("cache_read_input_tokens"), u.cacheReadTokens},
        {QStringLiteral("output_tokens"), outputTokens},
    };
}

QString stopReason(bool truncated)
{
    return truncated ? QStringLiteral("max_tokens") : QStringLiteral("end_turn");
}

} // namespace

AnthropicFormat::AnthropicFormat(QString model, QByteArray id, bool thinks)
    : m_model(std::move(model))
    , m_id(std::move(id))
    , m_thinks(thinks)
{
}

QByteArray AnthropicFormat::errorBody(const ApiError &error) const
{
    return error.anthropicBody();
}

QByteArray AnthropicFormat::streamStart(int, const Usage &usage)
{
    const QJsonObject message{
        {QStringLiteral("id"), QString::fromLatin1(m_id)},
        {QStringLiteral("type"), QStringLiteral("message")},
        {QStringLiteral("role"), QStringLiteral("assistant")},
        {QStringLiteral("model"), m_model},
        {QStringLiteral("content"), QJsonArray()},
        {QStringLiteral("stop_reason"), QJsonValue()},
        {QStringLiteral("stop_sequence"), QJsonValue()},
        {QStringLiteral("usage"), usageObject(usage, 1)},
    };
    // Written around the compact object so that "type" comes first, as Anthropic sends it.
    const QByteArray firstBlock =
        m_thinks ? R"({"type":"content_block_start","index":0,"content_block":{"type":"thinking","thinking":""}})"
                 : R"({"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}})";
    m_textOpen = !m_thinks;
    return event("message_start", R"({"type":"message_start","message":)" + compact(message) + '}')
           + event("content_block_start", firstBlock) + event("ping", R"({"type": "ping"})");
}

QByteArray AnthropicFormat::streamToken(int, QStringView text)
{
    QByteArray out;
    if (!m_textOpen) {
        // The thinking ends with its signature, as Anthropic closes a thinking block.
        m_textOpen = true;
        out =
            event(
                "content_block_delta",
                R"({"type":"content_block_delta","index":0,"delta":{"type":"signature_delta","signature":"aGVhZHN0YXJ0"}})")
            + event("content_block_stop", R"({"type":"content_block_stop","index":0})")
            + event("content_block_start",
                    R"({"type":"content_block_start","index":1,"content_block":{"type":"text","text":""}})");
    }
    return out
           + event("content_block_delta", R"({"type":"content_block_delta","index":)" + QByteArray::number(textIndex())
                                              + R"(,"delta":{"type":"text_delta","text":)" + jsonQuoted(text) + "}}");
}

QByteArray AnthropicFormat::streamReasoning(int, QStringView text)
{
    return event("content_block_delta",
                 R"({"type":"content_block_delta","index":0,"delta":{"type":"thinking_delta","thinking":)"
                     + jsonQuoted(text) + "}}");
}

QByteArray AnthropicFormat::streamChoiceEnd(int, bool)
{
    return event("content_block_stop",
                 R"({"type":"content_block_stop","index":)" + QByteArray::number(textIndex()) + "}");
}

QByteArray AnthropicFormat::streamEnd(const Usage &usage, bool truncated, bool)
{
    const QByteArray delta = R"({"type":"message_delta","delta":{"stop_reason":")" + stopReason(truncated).toLatin1()
                             + R"(","stop_sequence":null},"usage":{"output_tokens":)"
                             + QByteArray::number(usage.completionTokens) + "}}";
    return event("message_delta", delta) + event("message_stop", R"({"type":"message_stop"})");
}

QByteArray AnthropicFormat::streamMalformed()
{
    return event("content_block_delta",
                 R"({"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":)");
}

QByteArray AnthropicFormat::streamError()
{
    return event("error", R"({"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}})");
}

QByteArray AnthropicFormat::completeBody(const QList<ChoiceText> &choices, const Usage &usage)
{
    const ChoiceText first = choices.value(0);
    const QJsonObject body{
        {QStringLiteral("id"), QString::fromLatin1(m_id)},
        {QStringLiteral("type"), QStringLiteral("message")},
        {QStringLiteral("role"), QStringLiteral("assistant")},
        {QStringLiteral("model"), m_model},
        {QStringLiteral("content"), QJsonArray{QJsonObject{{QStringLiteral("type"), QStringLiteral("text")},
                                                           {QStringLiteral("text"), first.text}}}},
        {QStringLiteral("stop_reason"), stopReason(first.truncated)},
        {QStringLiteral("stop_sequence"), QJsonValue()},
        {QStringLiteral("usage"), usageObject(usage, usage.completionTokens)},
    };
    return compact(body);
}

ApiError AnthropicFormat::midResponseError() const
{
    ApiError e = ApiError::make(529, QStringLiteral("Overloaded"));
    e.type = "overloaded_error";
    return e;
}

} // namespace LocalProvider
