#include "openaidecoder.h"

#include <QJsonDocument>
#include <QJsonParseError>
#include <QJsonValue>

namespace Llm {

namespace {

// A token count, or -1 when the field is absent, null, not a number or not a count (negative,
// or past 1e15, whose conversion to qint64 could be undefined).
qint64 count(const QJsonObject &object, QLatin1StringView key)
{
    const double d = object.value(key).toDouble(-1);
    return d >= 0 && d <= 1e15 ? qint64(d) : -1;
}

// A non-empty string field; null, absent, "" and non-strings all count as nothing.
QString nonEmptyString(const QJsonObject &object, QLatin1StringView key)
{
    const QJsonValue v = object.value(key);
    return v.isString() ? v.toString() : QString();
}

bool isBlank(const QByteArray &data)
{
    for (char c : data) {
        if (c != ' ' && c != '\t' && c != '\r' && c != '\n')
            return false;
    }
    return true;
}

} // namespace

void OpenAiDecoder::decode(const SseEvent &event, QList<StreamEvent> &out)
{
    ++m_eventCount;
    // Anything after [DONE] is not part of this answer (some proxies append their own
    // trailers); it is ignored rather than merged.
    if (m_done)
        return;
    // `data:` with nothing after it: vercel/ai-style fixtures and some proxies send it as a
    // keep-alive. It carries nothing, so it is not malformed either.
    if (isBlank(event.data))
        return;
    if (event.data == "[DONE]" || event.data.trimmed() == "[DONE]") {
        m_done = true;
        return;
    }

    QJsonParseError parseError;
    const QJsonDocument doc = QJsonDocument::fromJson(event.data, &parseError);
    if (parseError.error != QJsonParseError::NoError) {
        // A proxy's `event: error` may carry plain text rather than JSON.
        if (event.type == "error") {
            StreamEvent e;
            e.type = StreamEvent::Type::Error;
            e.text = QString::fromUtf8(event.data);
            out.append(e);
            return;
        }
        noteMalformed(QStringLiteral("event %1 is not valid JSON (%2 at byte %3)")
                          .arg(m_eventCount)
                          .arg(parseError.errorString())
                          .arg(parseError.offset));
        return;
    }
    if (!doc.isObject()) {
        noteMalformed(QStringLiteral("event %1 is not a JSON object").arg(m_eventCount));
        return;
    }
    const QJsonObject chunk = doc.object();

    // Errors inside a 200 stream: OpenAI, DeepSeek, OpenRouter and DashScope send
    // {"error":{...}}; vLLM's older servers send {"object":"error","message":...} at top level.
    if (chunk.contains(QLatin1StringView("error"))) {
        emitError(chunk.value(QLatin1StringView("error")), out);
        return;
    }
    if (chunk.value(QLatin1StringView("object")).toString() == QLatin1StringView("error")) {
        emitError(chunk, out);
        return;
    }

    const QJsonValue choices = chunk.value(QLatin1StringView("choices"));
    if (choices.isArray()) {
        const QJsonArray array = choices.toArray();
        for (qsizetype i = 0; i < array.size(); ++i) {
            const QJsonValue choice = array.at(i);
            if (!choice.isObject()) {
                noteMalformed(QStringLiteral("event %1: choice %2 is not an object").arg(m_eventCount).arg(i));
                continue;
            }
            decodeChoice(choice.toObject(), i, out);
        }
    } else if (!choices.isUndefined() && !choices.isNull()) {
        noteMalformed(QStringLiteral("event %1: \"choices\" is not an array").arg(m_eventCount));
    } else if (chunk.value(QLatin1StringView("content")).isString()) {
        decodeLlamaCppNative(chunk, out);
        return;
    }

    // OpenAI sends usage on an extra chunk with `choices: []` after the finish; DeepSeek puts
    // it on the chunk that carries the finish_reason; every other chunk has `usage: null` or
    // none. Either way it is decoded after the choices so Finish precedes the final Usage.
    const QJsonValue usage = chunk.value(QLatin1StringView("usage"));
    if (usage.isObject())
        decodeUsage(usage.toObject(), out);
    // llama.cpp adds `timings` (prompt/predicted ms and rates) to OpenAI-format chunks. It is
    // diagnostic only and ignored here; the token counts come from `usage`.
}

void OpenAiDecoder::decodeChoice(const QJsonObject &choice, qsizetype position, QList<StreamEvent> &out)
{
    const QJsonValue indexValue = choice.value(QLatin1StringView("index"));
    const int index = indexValue.isDouble() ? indexValue.toInt() : int(position);
    if (!m_choices.contains(index) && m_choices.size() >= MaxChoices) {
        noteMalformed(QStringLiteral("event %1: more than %2 choices").arg(m_eventCount).arg(MaxChoices));
        return;
    }
    ChoiceState &state = m_choices[index];

    const QJsonObject delta = choice.value(QLatin1StringView("delta")).toObject();
    auto emitText = [&](StreamEvent::Type type, const QString &text) {
        if (text.isEmpty())
            return;
        StreamEvent e;
        e.type = type;
        e.choice = index;
        e.text = text;
        out.append(std::move(e));
    };

    // Ollama repeats `"role":"assistant"` in every delta and llama.cpp sends `content: null`
    // next to a role or tool call; neither is content, and empty strings are skipped too.
    //
    // Reasoning: DeepSeek and Qwen (DashScope) use `reasoning_content`; Ollama, OpenRouter and
    // newer vLLM use `reasoning`. A server that sends both sends the same text twice, so only
    // the first non-empty one is used.
    QString reasoning = nonEmptyString(delta, QLatin1StringView("reasoning_content"));
    if (reasoning.isEmpty())
        reasoning = nonEmptyString(delta, QLatin1StringView("reasoning"));
    emitText(StreamEvent::Type::ReasoningDelta, reasoning);
    emitText(StreamEvent::Type::TextDelta, nonEmptyString(delta, QLatin1StringView("content")));
    emitText(StreamEvent::Type::RefusalDelta, nonEmptyString(delta, QLatin1StringView("refusal")));

    const QJsonValue toolCalls = delta.value(QLatin1StringView("tool_calls"));
    if (toolCalls.isArray())
        decodeToolCalls(index, toolCalls.toArray(), out);

    // DashScope's native protocol writes the string "null" for "not finished"; tolerate it in
    // case a gateway passes it through into compatible mode.
    const QString finish = nonEmptyString(choice, QLatin1StringView("finish_reason"));
    // One Finish per choice, the first: consumers take it as the choice's last word, and a
    // second, different reason (found by fuzz/fuzz_openaidecoder) would overwrite it.
    if (!finish.isEmpty() && finish != QLatin1StringView("null") && state.finishReason.isEmpty()) {
        state.finishReason = finish;
        StreamEvent e;
        e.type = StreamEvent::Type::Finish;
        e.choice = index;
        e.text = finish;
        out.append(std::move(e));
    }
}

void OpenAiDecoder::decodeToolCalls(int choice, const QJsonArray &calls, QList<StreamEvent> &out)
{
    QMap<int, ToolState> &tools = m_choices[choice].tools;
    for (qsizetype position = 0; position < calls.size(); ++position) {
        const QJsonObject call = calls.at(position).toObject();
        const QString id = nonEmptyString(call, QLatin1StringView("id"));
        const QJsonObject function = call.value(QLatin1StringView("function")).toObject();

        // OpenAI streams a call as fragments that share `index`. Older Ollama releases sent each
        // call whole and without `index`: a new id then means a new call.
        int index = int(position);
        const QJsonValue indexValue = call.value(QLatin1StringView("index"));
        if (indexValue.isDouble()) {
            index = indexValue.toInt();
        } else if (!id.isEmpty()) {
            index = int(tools.size());
            for (auto it = tools.cbegin(); it != tools.cend(); ++it) {
                if (it->id == id) {
                    index = it.key();
                    break;
                }
            }
        }
        if (!tools.contains(index) && tools.size() >= MaxToolCalls) {
            noteMalformed(QStringLiteral("event %1: more than %2 tool calls").arg(m_eventCount).arg(MaxToolCalls));
            return;
        }
        ToolState &state = tools[index];

        StreamEvent e;
        e.type = StreamEvent::Type::ToolCallDelta;
        e.choice = choice;
        e.toolIndex = index;
        // Some servers (vLLM, LiteLLM) repeat id and name on every fragment; only the first
        // sighting is news. A name that differs from what we have is a further fragment.
        if (!id.isEmpty() && state.id.isEmpty()) {
            state.id = id;
            e.toolId = id;
        }
        const QString name = nonEmptyString(function, QLatin1StringView("name"));
        if (!name.isEmpty() && name != state.name) {
            state.name += name;
            e.toolName = name;
        }
        const QJsonValue arguments = function.value(QLatin1StringView("arguments"));
        if (arguments.isString()) {
            e.text = arguments.toString();
        } else if (arguments.isObject()) {
            // Ollama's native-style servers send the parsed object instead of JSON text.
            e.text = QString::fromUtf8(QJsonDocument(arguments.toObject()).toJson(QJsonDocument::Compact));
        }
        if (!e.toolId.isEmpty() || !e.toolName.isEmpty() || !e.text.isEmpty())
            out.append(std::move(e));
    }
}

void OpenAiDecoder::decodeUsage(const QJsonObject &usage, QList<StreamEvent> &out)
{
    Usage u;
    u.inputTokens = count(usage, QLatin1StringView("prompt_tokens"));
    u.outputTokens = count(usage, QLatin1StringView("completion_tokens"));
    const QJsonObject promptDetails = usage.value(QLatin1StringView("prompt_tokens_details")).toObject();
    // OpenAI and Qwen report cache hits in prompt_tokens_details.cached_tokens; DeepSeek reports
    // prompt_cache_hit_tokens (and, lately, both with the same value).
    u.cacheReadTokens = count(promptDetails, QLatin1StringView("cached_tokens"));
    if (u.cacheReadTokens < 0)
        u.cacheReadTokens = count(usage, QLatin1StringView("prompt_cache_hit_tokens"));
    // Qwen's explicit cache (DashScope) reports what it wrote for this request, and OpenAI from
    // GPT-5.6 on, which bills a write at 1.25 × input ("The unadjusted number of prompt tokens
    // written to cache", its API reference).
    u.cacheWriteTokens = count(promptDetails, QLatin1StringView("cache_creation_input_tokens"));
    if (u.cacheWriteTokens < 0)
        u.cacheWriteTokens = count(promptDetails, QLatin1StringView("cache_write_tokens"));
    const QJsonObject completionDetails = usage.value(QLatin1StringView("completion_tokens_details")).toObject();
    u.reasoningTokens = count(completionDetails, QLatin1StringView("reasoning_tokens"));
    m_usageSeen = true;
    emitUsage(u, out);
}

void OpenAiDecoder::decodeLlamaCppNative(const QJsonObject &chunk, QList<StreamEvent> &out)
{
    // llama.cpp's own /completion endpoint streams {"content":..,"stop":..,"tokens_predicted":..}
    // without `choices`. The app talks to /v1/chat/completions, but recorded /completion
    // transcripts replay through this decoder too: text, counts and the final stop.
    const QString content = nonEmptyString(chunk, QLatin1StringView("content"));
    if (!content.isEmpty()) {
        StreamEvent e;
        e.type = StreamEvent::Type::TextDelta;
        e.text = content;
        out.append(std::move(e));
    }
    Usage u;
    u.inputTokens = count(chunk, QLatin1StringView("tokens_evaluated"));
    u.outputTokens = count(chunk, QLatin1StringView("tokens_predicted"));
    u.cacheReadTokens = count(chunk, QLatin1StringView("tokens_cached"));
    if (!u.isEmpty()) {
        m_usageSeen = true;
        emitUsage(u, out);
    }
    if (chunk.value(QLatin1StringView("stop")).toBool() && m_choices[0].finishReason.isEmpty()) {
        QString reason = nonEmptyString(chunk, QLatin1StringView("stop_type"));
        if (reason.isEmpty())
            reason = QStringLiteral("stop");
        m_choices[0].finishReason = reason;
        StreamEvent e;
        e.type = StreamEvent::Type::Finish;
        e.text = reason;
        out.append(std::move(e));
        m_done = true; // the stop chunk is the last one; there is no [DONE] on /completion
    }
}

void OpenAiDecoder::emitUsage(const Usage &usage, QList<StreamEvent> &out)
{
    // Servers that report usage on every chunk (vLLM continuous usage, llama.cpp /completion)
    // would otherwise produce one identical Usage event per token.
    if (usage.isEmpty() || usage == m_usage)
        return;
    m_usage = usage;
    StreamEvent e;
    e.type = StreamEvent::Type::Usage;
    e.usage = usage;
    out.append(std::move(e));
}

void OpenAiDecoder::emitError(const QJsonValue &error, QList<StreamEvent> &out)
{
    StreamEvent e;
    e.type = StreamEvent::Type::Error;
    if (error.isObject()) {
        const QJsonObject object = error.toObject();
        e.text = object.value(QLatin1StringView("message")).toString();
        e.errorType = nonEmptyString(object, QLatin1StringView("type"));
        if (e.errorType.isEmpty()) {
            // `code` is a string at OpenAI ("rate_limit_exceeded") and a number at OpenRouter.
            const QJsonValue code = object.value(QLatin1StringView("code"));
            if (code.isString())
                e.errorType = code.toString();
            else if (code.isDouble())
                e.errorType = QString::number(code.toInteger());
        }
    } else if (error.isString()) {
        e.text = error.toString();
    }
    if (e.text.isEmpty())
        e.text = QStringLiteral("The provider reported an error without a message.");
    out.append(std::move(e));
}

void OpenAiDecoder::noteMalformed(const QString &reason)
{
    // The first problem is the informative one; later ones are usually its consequences.
    if (m_malformed.isEmpty())
        m_malformed = reason;
}

bool OpenAiDecoder::isComplete() const
{
    if (m_done)
        return true;
    // Servers that skip [DONE] (some gateways) are complete once every choice has finished
    // and the usage chunk arrived: nothing else can follow.
    if (m_choices.isEmpty() || !m_usageSeen)
        return false;
    for (const ChoiceState &choice : m_choices) {
        if (choice.finishReason.isEmpty())
            return false;
    }
    return true;
}

} // namespace Llm
