#include "anthropicdecoder.h"

#include <QJsonDocument>
#include <QJsonParseError>
#include <QJsonValue>

namespace Llm {

namespace {

QString stringField(const QJsonObject &object, QLatin1StringView key)
{
    return object.value(key).toString();
}

// Overwrites `target` when the field is reported; null or absent keeps the earlier value.
void takeCount(const QJsonObject &object, QLatin1StringView key, qint64 &target)
{
    // A count is a whole number of tokens, far below 2^53; anything else (1e300, a negative, a
    // fraction's overflow) is not one, and converting it to qint64 would be undefined
    // (found by fuzz_anthropicdecoder under UBSan).
    const double d = object.value(key).toDouble(-1);
    if (d >= 0 && d <= 1e15)
        target = qint64(d);
}

} // namespace

void AnthropicDecoder::decode(const SseEvent &event, QList<StreamEvent> &out)
{
    ++m_eventCount;
    // Nothing after message_stop belongs to this answer (as after OpenAI's [DONE]); found by
    // fuzz/fuzz_anthropicdecoder, which checks that a decoder is silent after its end marker.
    if (m_complete)
        return;
    if (event.data.trimmed().isEmpty())
        return;

    QJsonParseError parseError;
    const QJsonDocument doc = QJsonDocument::fromJson(event.data, &parseError);
    if (parseError.error != QJsonParseError::NoError || !doc.isObject()) {
        noteMalformed(QStringLiteral("event %1 (%2) is not a JSON object (%3)")
                          .arg(m_eventCount)
                          .arg(QString::fromUtf8(event.type.isEmpty() ? QByteArray("message") : event.type),
                               parseError.error != QJsonParseError::NoError ? parseError.errorString()
                                                                            : QStringLiteral("wrong type")));
        return;
    }
    const QJsonObject object = doc.object();

    // The JSON `type` is authoritative; the SSE `event:` line repeats it. Only when the JSON
    // lacks it do we fall back to the event name, and note the deviation.
    QString type = stringField(object, QLatin1StringView("type"));
    if (type.isEmpty()) {
        type = QString::fromUtf8(event.type);
        noteMalformed(QStringLiteral("event %1 (%2) has no \"type\" field")
                          .arg(m_eventCount)
                          .arg(type.isEmpty() ? QStringLiteral("message") : type));
        if (type.isEmpty())
            return;
    }

    if (type == QLatin1StringView("content_block_delta")) {
        blockDelta(object, out);
    } else if (type == QLatin1StringView("content_block_start")) {
        blockStart(object, out);
    } else if (type == QLatin1StringView("message_start")) {
        const QJsonObject usage =
            object.value(QLatin1StringView("message")).toObject().value(QLatin1StringView("usage")).toObject();
        if (!usage.isEmpty())
            mergeUsage(usage, out);
    } else if (type == QLatin1StringView("message_delta")) {
        const QJsonObject delta = object.value(QLatin1StringView("delta")).toObject();
        const QString stopReason = stringField(delta, QLatin1StringView("stop_reason"));
        // One Finish per answer, the first: consumers take a Finish as the answer's last word.
        if (!stopReason.isEmpty() && !m_finished) {
            m_finished = true;
            StreamEvent e;
            e.type = StreamEvent::Type::Finish;
            e.text = stopReason;
            out.append(std::move(e));
        }
        // The counts in message_delta are cumulative and newer API versions repeat input and
        // cache counts there with final values (server tools can add input), so each reported
        // field replaces the one from message_start.
        const QJsonObject usage = object.value(QLatin1StringView("usage")).toObject();
        if (!usage.isEmpty())
            mergeUsage(usage, out);
    } else if (type == QLatin1StringView("message_stop")) {
        m_complete = true;
    } else if (type == QLatin1StringView("error")) {
        const QJsonObject error = object.value(QLatin1StringView("error")).toObject();
        StreamEvent e;
        e.type = StreamEvent::Type::Error;
        e.text = stringField(error, QLatin1StringView("message"));
        e.errorType = stringField(error, QLatin1StringView("type"));
        if (e.text.isEmpty())
            e.text = QStringLiteral("The provider reported an error without a message.");
        out.append(std::move(e));
    }
    // content_block_stop and ping carry nothing we need; unknown types are skipped on purpose
    // (Anthropic documents that new event types may appear).
}

void AnthropicDecoder::blockStart(const QJsonObject &event, QList<StreamEvent> &out)
{
    const int index = event.value(QLatin1StringView("index")).toInt(-1);
    const QJsonObject block = event.value(QLatin1StringView("content_block")).toObject();
    const QString blockType = stringField(block, QLatin1StringView("type"));
    if (!m_blocks.contains(index) && m_blocks.size() >= MaxBlocks) {
        noteMalformed(QStringLiteral("more than %1 content blocks").arg(MaxBlocks));
        return;
    }
    Block &state = m_blocks[index];

    if (blockType == QLatin1StringView("text")) {
        state.kind = BlockKind::Text;
        // Normally "", but the field is there to be honoured.
        const QString text = stringField(block, QLatin1StringView("text"));
        if (!text.isEmpty()) {
            StreamEvent e;
            e.type = StreamEvent::Type::TextDelta;
            e.text = text;
            out.append(std::move(e));
        }
    } else if (blockType == QLatin1StringView("thinking")) {
        state.kind = BlockKind::Thinking;
        const QString thinking = stringField(block, QLatin1StringView("thinking"));
        if (!thinking.isEmpty()) {
            StreamEvent e;
            e.type = StreamEvent::Type::ReasoningDelta;
            e.text = thinking;
            out.append(std::move(e));
        }
    } else if (blockType.endsWith(QLatin1StringView("tool_use"))) {
        // tool_use, and server_tool_use / mcp_tool_use, which are the same shape: tool indexes
        // count tool blocks in order, independent of the text blocks between them.
        state.kind = BlockKind::Tool;
        state.toolIndex = m_toolCount++;
        StreamEvent e;
        e.type = StreamEvent::Type::ToolCallDelta;
        e.toolIndex = state.toolIndex;
        e.toolId = stringField(block, QLatin1StringView("id"));
        e.toolName = stringField(block, QLatin1StringView("name"));
        // While streaming, `input` starts as {} and arrives as input_json_delta fragments; a
        // non-empty one (a proxy that sends the call whole) is passed on as the first fragment.
        const QJsonObject input = block.value(QLatin1StringView("input")).toObject();
        if (!input.isEmpty())
            e.text = QString::fromUtf8(QJsonDocument(input).toJson(QJsonDocument::Compact));
        // Without an id, a name or an input it says nothing a consumer could use (found by
        // fuzz_anthropicdecoder); its input_json_delta fragments still follow.
        if (e.toolId.isEmpty() && e.toolName.isEmpty() && e.text.isEmpty()) {
            noteMalformed(
                QStringLiteral("event %1: tool_use block %2 without an id or a name").arg(m_eventCount).arg(index));
            return;
        }
        out.append(std::move(e));
    }
    // redacted_thinking and the *_tool_result blocks carry nothing for the uniform events.
}

void AnthropicDecoder::blockDelta(const QJsonObject &event, QList<StreamEvent> &out)
{
    const int index = event.value(QLatin1StringView("index")).toInt(-1);
    const QJsonObject delta = event.value(QLatin1StringView("delta")).toObject();
    const QString deltaType = stringField(delta, QLatin1StringView("type"));

    StreamEvent e;
    if (deltaType == QLatin1StringView("text_delta")) {
        e.type = StreamEvent::Type::TextDelta;
        e.text = stringField(delta, QLatin1StringView("text"));
    } else if (deltaType == QLatin1StringView("thinking_delta")) {
        e.type = StreamEvent::Type::ReasoningDelta;
        e.text = stringField(delta, QLatin1StringView("thinking"));
    } else if (deltaType == QLatin1StringView("input_json_delta")) {
        const auto block = m_blocks.constFind(index);
        if (block == m_blocks.cend() || block->kind != BlockKind::Tool) {
            noteMalformed(QStringLiteral("event %1: input_json_delta for block %2, which is not a "
                                         "tool_use block")
                              .arg(m_eventCount)
                              .arg(index));
            return;
        }
        e.type = StreamEvent::Type::ToolCallDelta;
        e.toolIndex = block->toolIndex;
        // Fragments are passed on raw: the concatenation is the JSON text, which can be invalid
        // when max_tokens cut the call short; the consumer decides what to do with it.
        e.text = stringField(delta, QLatin1StringView("partial_json"));
    } else {
        // signature_delta (thinking integrity check), citations_delta and future kinds.
        return;
    }
    if (!e.text.isEmpty())
        out.append(std::move(e));
}

void AnthropicDecoder::mergeUsage(const QJsonObject &usage, QList<StreamEvent> &out)
{
    takeCount(usage, QLatin1StringView("input_tokens"), m_inputTokens);
    takeCount(usage, QLatin1StringView("output_tokens"), m_outputTokens);
    takeCount(usage, QLatin1StringView("cache_read_input_tokens"), m_cacheReadTokens);
    takeCount(usage, QLatin1StringView("cache_creation_input_tokens"), m_cacheWriteTokens);
    takeCount(usage.value(QLatin1StringView("output_tokens_details")).toObject(), QLatin1StringView("thinking_tokens"),
              m_thinkingTokens);

    // Anthropic's input_tokens counts only the tokens after the last cache breakpoint; the
    // uniform meaning is every prompt token, so reads and writes are added back.
    Usage u;
    if (m_inputTokens >= 0 || m_cacheReadTokens >= 0 || m_cacheWriteTokens >= 0)
        u.inputTokens = qMax<qint64>(m_inputTokens, 0) + qMax<qint64>(m_cacheReadTokens, 0)
                        + qMax<qint64>(m_cacheWriteTokens, 0);
    u.outputTokens = m_outputTokens;
    u.cacheReadTokens = m_cacheReadTokens;
    u.cacheWriteTokens = m_cacheWriteTokens;
    u.reasoningTokens = m_thinkingTokens;
    if (u.isEmpty())
        return;
    StreamEvent e;
    e.type = StreamEvent::Type::Usage;
    e.usage = u;
    out.append(std::move(e));
}

void AnthropicDecoder::noteMalformed(const QString &reason)
{
    if (m_malformed.isEmpty())
        m_malformed = reason;
}

} // namespace Llm
