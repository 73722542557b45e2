#include "chatrequest.h"

#include "stablehash.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <cmath>

namespace LocalProvider {

namespace {

using Result = std::expected<ChatRequest, ApiError>;

std::unexpected<ApiError> invalid(const QString &message, QByteArray param = {}, QByteArray code = {})
{
    return std::unexpected(ApiError::make(400, message, std::move(code), std::move(param)));
}

std::expected<QJsonObject, ApiError> parseObject(const QByteArray &body)
{
    QJsonParseError error;
    const QJsonDocument doc = QJsonDocument::fromJson(body, &error);
    if (error.error != QJsonParseError::NoError) {
        return std::unexpected(
            ApiError::make(400,
                           QStringLiteral("We could not parse the JSON body of your request: %1 at offset %2.")
                               .arg(error.errorString())
                               .arg(error.offset),
                           "invalid_json"));
    }
    if (!doc.isObject())
        return std::unexpected(
            ApiError::make(400, QStringLiteral("The request body must be a JSON object."), "invalid_json"));
    return doc.object();
}

// Integral JSON numbers only; 1.5 and "3" are not integers.
std::optional<qint64> integerValue(const QJsonValue &v)
{
    if (!v.isDouble())
        return std::nullopt;
    const qint64 a = v.toInteger(0);
    const qint64 b = v.toInteger(1);
    if (a != b)
        return std::nullopt;
    return a;
}

// A boolean field: nullopt when absent or null, an error when it is something else.
std::expected<std::optional<bool>, ApiError> optionalBool(const QJsonObject &o, QStringView key, const QString &where)
{
    const QJsonValue v = o.value(key);
    if (v.isUndefined() || v.isNull())
        return std::nullopt;
    if (!v.isBool())
        return std::unexpected(
            ApiError::make(400, QStringLiteral("%1: must be a boolean.").arg(where), {}, where.toLatin1()));
    return v.toBool();
}

QString compactJson(const QJsonObject &o)
{
    return QString::fromUtf8(QJsonDocument(o).toJson(QJsonDocument::Compact));
}

// OpenAI content: a string, null, or an array of parts; nullopt when it is none of them.
std::optional<QString> openAiContent(const QJsonValue &content)
{
    if (content.isString())
        return content.toString();
    if (content.isNull() || content.isUndefined())
        return QString();
    if (!content.isArray())
        return std::nullopt;
    QStringList texts;
    for (const QJsonValue &part : content.toArray()) {
        if (!part.isObject())
            return std::nullopt;
        const QJsonObject p = part.toObject();
        const QString type = p.value(u"type").toString();
        if (type == u"text") {
            if (!p.value(u"text").isString())
                return std::nullopt;
            texts << p.value(u"text").toString();
        } else if (type == u"image_url") {
            texts << QStringLiteral("[image]");
        } else {
            texts << compactJson(p);
        }
    }
    return texts.join(u'\n');
}

// temperature, stream, seed: shared by both formats; `maxTemperature` differs.
std::optional<std::unexpected<ApiError>> readCommon(const QJsonObject &o, ChatRequest &r, double maxTemperature)
{
    const QJsonValue model = o.value(u"model");
    if (!model.isString() || model.toString().isEmpty())
        return invalid(QStringLiteral("model: a model name is required."), "model");
    r.model = model.toString();

    const QJsonValue temperature = o.value(u"temperature");
    if (!temperature.isUndefined() && !temperature.isNull()) {
        const double t = temperature.toDouble(-1);
        if (!temperature.isDouble() || t < 0 || t > maxTemperature)
            return invalid(QStringLiteral("temperature: must be a number between 0 and %1.").arg(maxTemperature),
                           "temperature");
        r.temperature = t;
        r.temperatureGiven = true;
    }

    // Thinking, in the four forms providers take it (the request encoder writes each).
    const QJsonValue thinking = o.value(u"thinking");
    if (thinking.isObject()) {
        const QString type = thinking.toObject().value(u"type").toString();
        r.thinking = type != u"disabled";
        r.thinkingBudgetField = type == u"enabled" && thinking.toObject().contains(u"budget_tokens");
    }
    if (const QJsonValue flag = o.value(u"enable_thinking"); flag.isBool())
        r.thinking = flag.toBool();
    if (const QJsonValue effort = o.value(u"reasoning_effort"); effort.isString())
        r.thinking = effort.toString() != u"none";

    const QJsonValue stream = o.value(u"stream");
    if (!stream.isUndefined() && !stream.isNull()) {
        if (!stream.isBool())
            return invalid(QStringLiteral("stream: must be a boolean."), "stream");
        r.stream = stream.toBool();
    }

    const QJsonValue seed = o.value(u"seed");
    if (!seed.isUndefined() && !seed.isNull()) {
        const auto s = integerValue(seed);
        if (!s)
            return invalid(QStringLiteral("seed: must be an integer."), "seed");
        r.seed = *s;
    }
    return std::nullopt;
}

std::optional<std::unexpected<ApiError>> readMaxTokens(const QJsonValue &v, const char *name, ChatRequest &r)
{
    if (v.isUndefined() || v.isNull())
        return std::nullopt;
    const auto m = integerValue(v);
    if (!m || *m < 1 || *m > 10000000)
        return invalid(QStringLiteral("%1: must be an integer of at least 1.").arg(QString::fromLatin1(name)), name,
                       "integer_below_min_value");
    r.maxTokens = static_cast<int>(*m);
    return std::nullopt;
}

// Anthropic cache_control: absent, or {"type":"ephemeral"} (with an optional ttl).
std::expected<bool, ApiError> cacheControl(const QJsonObject &block, int &breakpoints)
{
    const QJsonValue cc = block.value(u"cache_control");
    if (cc.isUndefined() || cc.isNull())
        return false;
    if (!cc.isObject() || cc.toObject().value(u"type").toString() != u"ephemeral")
        return std::unexpected(ApiError::make(400, QStringLiteral("cache_control.type: Input should be 'ephemeral'")));
    ++breakpoints;
    return true;
}

QJsonObject withoutCacheControl(QJsonObject o)
{
    o.remove(QStringLiteral("cache_control"));
    return o;
}

// The text an Anthropic content block contributes to the prompt; nullopt if malformed.
std::optional<QString> anthropicBlockText(const QJsonObject &b)
{
    const QString type = b.value(u"type").toString();
    if (type == u"text") {
        if (!b.value(u"text").isString())
            return std::nullopt;
        return b.value(u"text").toString();
    }
    if (type == u"image" || type == u"document")
        return QStringLiteral("[%1]").arg(type);
    if (type == u"tool_use")
        return b.value(u"name").toString() + u' ' + compactJson(b.value(u"input").toObject());
    if (type == u"tool_result") {
        const QJsonValue c = b.value(u"content");
        if (c.isString())
            return c.toString();
        QStringList texts;
        for (const QJsonValue &inner : c.toArray())
            texts << inner.toObject().value(u"text").toString();
        return texts.join(u'\n');
    }
    if (type == u"thinking")
        return b.value(u"thinking").toString();
    if (type.isEmpty())
        return std::nullopt;
    return compactJson(withoutCacheControl(b));
}

// Whether OpenAI-format message `m` is the beginning of the answer to continue. Only the last
// message, with role assistant, can be; the forms, most explicit first: vLLM's request-level
// continue_final_message, DeepSeek's `prefix` or Qwen's `partial` on the message (false: a
// complete message), vLLM's add_generation_prompt: true (a new turn after it), and otherwise
// yes, as llama.cpp's server does.
std::expected<bool, ApiError> openAiPrefill(const QJsonObject &m, const QString &role, bool last,
                                            std::optional<bool> continueFinal, std::optional<bool> addGenerationPrompt,
                                            const QString &where)
{
    const auto prefix = optionalBool(m, u"prefix", where + QStringLiteral(".prefix"));
    if (!prefix)
        return std::unexpected(prefix.error());
    const auto partial = optionalBool(m, u"partial", where + QStringLiteral(".partial"));
    if (!partial)
        return std::unexpected(partial.error());
    const bool flagged = prefix->value_or(false) || partial->value_or(false);
    const bool assistant = role == u"assistant";
    if (flagged && (!last || !assistant)) {
        return std::unexpected(
            ApiError::make(400,
                           QStringLiteral(
                               "%1: only the last message, with role assistant, can be continued (prefix, partial).")
                               .arg(where),
                           {}, where.toLatin1()));
    }
    if (last && !assistant && continueFinal.value_or(false)) {
        return std::unexpected(
            ApiError::make(400, QStringLiteral("continue_final_message: the last message must have role assistant."),
                           {}, "continue_final_message"));
    }
    if (!last || !assistant)
        return false;
    const bool explicitly = continueFinal.value_or(false) || flagged;
    bool yes = explicitly || (!prefix->has_value() && !partial->has_value() && !addGenerationPrompt.value_or(false));
    // A tool call is a finished turn, not text to go on with.
    if (yes && m.value(u"tool_calls").isArray() && !m.value(u"tool_calls").toArray().isEmpty()) {
        if (explicitly) {
            return std::unexpected(
                ApiError::make(400, QStringLiteral("%1: a message with tool_calls cannot be continued.").arg(where), {},
                               where.toLatin1()));
        }
        yes = false;
    }
    return yes;
}

void appendTurn(ChatRequest &r, const QString &role, const QString &text)
{
    if (!text.isEmpty())
        r.turns.append({role, text});
}

} // namespace

QString roleMarker(QStringView role)
{
    return QStringLiteral("<|%1|>").arg(role);
}

Result ChatRequest::fromOpenAi(const QByteArray &body)
{
    const auto parsed = parseObject(body);
    if (!parsed)
        return std::unexpected(parsed.error());
    const QJsonObject &o = *parsed;
    ChatRequest r;
    r.api = Api::OpenAi;
    if (auto e = readCommon(o, r, 2.0))
        return *e;
    if (auto e = readMaxTokens(o.value(u"max_tokens"), "max_tokens", r))
        return *e;
    r.maxTokensField = o.contains(u"max_tokens");
    if (auto e = readMaxTokens(o.value(u"max_completion_tokens"), "max_completion_tokens", r))
        return *e;

    const QJsonValue n = o.value(u"n");
    if (!n.isUndefined() && !n.isNull()) {
        const auto v = integerValue(n);
        if (!v || *v < 1 || *v > 8)
            return invalid(QStringLiteral("n: must be an integer between 1 and 8."), "n");
        r.n = static_cast<int>(*v);
    }

    const QJsonValue streamOptions = o.value(u"stream_options");
    if (!streamOptions.isUndefined() && !streamOptions.isNull()) {
        if (!r.stream)
            return invalid(QStringLiteral("The 'stream_options' parameter is only allowed when 'stream' is enabled."),
                           "stream_options");
        if (!streamOptions.isObject())
            return invalid(QStringLiteral("stream_options: must be an object."), "stream_options");
        r.includeUsage = streamOptions.toObject().value(u"include_usage").toBool();
    }

    const QJsonValue messages = o.value(u"messages");
    if (!messages.isArray() || messages.toArray().isEmpty())
        return invalid(QStringLiteral("messages: must be a non-empty array."), "messages");

    // vLLM's form of a continuation; like vLLM, add_generation_prompt defaults to true.
    const auto continueFinal = optionalBool(o, u"continue_final_message", QStringLiteral("continue_final_message"));
    if (!continueFinal)
        return std::unexpected(continueFinal.error());
    const auto addGenerationPrompt = optionalBool(o, u"add_generation_prompt", QStringLiteral("add_generation_prompt"));
    if (!addGenerationPrompt)
        return std::unexpected(addGenerationPrompt.error());
    if (continueFinal->value_or(false) && addGenerationPrompt->value_or(true)) {
        return invalid(QStringLiteral("Cannot set both `continue_final_message` and `add_generation_prompt` to True."),
                       "continue_final_message");
    }

    QList<PromptPart> leading;
    QList<PromptPart> rest;
    bool inLeadingSystem = true;
    const QJsonArray array = messages.toArray();
    for (qsizetype i = 0; i < array.size(); ++i) {
        const QString where = QStringLiteral("messages[%1]").arg(i);
        if (!array[i].isObject())
            return invalid(QStringLiteral("%1: must be an object.").arg(where), where.toLatin1());
        const QJsonObject m = array[i].toObject();
        const QString role = m.value(u"role").toString();
        static const QStringList roles{QStringLiteral("system"), QStringLiteral("developer"),
                                       QStringLiteral("user"),   QStringLiteral("assistant"),
                                       QStringLiteral("tool"),   QStringLiteral("function")};
        if (!roles.contains(role))
            return invalid(QStringLiteral("%1.role: invalid value '%2'.").arg(where, role),
                           (where + QStringLiteral(".role")).toLatin1());
        const auto content = openAiContent(m.value(u"content"));
        if (!content)
            return invalid(QStringLiteral("%1.content: must be a string or an array of content parts.").arg(where),
                           (where + QStringLiteral(".content")).toLatin1());
        const auto prefill = openAiPrefill(m, role, i + 1 == array.size(), *continueFinal, *addGenerationPrompt, where);
        if (!prefill)
            return std::unexpected(prefill.error());
        if (*prefill) {
            r.prefill = *content;
            r.prefillParts = {{PromptPart::Kind::Marker, roleMarker(role), false},
                              {PromptPart::Kind::Text, *content, false}};
            break; // the last message
        }
        QString text = *content;
        if (m.value(u"tool_calls").isArray())
            text += QString::fromUtf8(QJsonDocument(m.value(u"tool_calls").toArray()).toJson(QJsonDocument::Compact));

        const bool isSystem = role == u"system" || role == u"developer";
        inLeadingSystem = inLeadingSystem && isSystem;
        QList<PromptPart> &target = inLeadingSystem ? leading : rest;
        target.append({PromptPart::Kind::Marker, roleMarker(role), false});
        target.append({PromptPart::Kind::Text, text, false});
        if (!isSystem)
            appendTurn(r, role, *content);
    }

    r.parts = leading;
    const QJsonValue tools = o.value(u"tools");
    if (!tools.isUndefined() && !tools.isNull()) {
        if (!tools.isArray())
            return invalid(QStringLiteral("tools: must be an array."), "tools");
        for (const QJsonValue &tool : tools.toArray()) {
            if (!tool.isObject())
                return invalid(QStringLiteral("tools: each tool must be an object."), "tools");
            r.parts.append({PromptPart::Kind::Text, compactJson(tool.toObject()), false});
        }
    }
    r.parts += rest;
    return r;
}

Result ChatRequest::fromAnthropic(const QByteArray &body)
{
    const auto parsed = parseObject(body);
    if (!parsed)
        return std::unexpected(parsed.error());
    const QJsonObject &o = *parsed;
    ChatRequest r;
    r.api = Api::Anthropic;
    if (auto e = readCommon(o, r, 1.0))
        return *e;
    if (!o.contains(u"max_tokens"))
        return invalid(QStringLiteral("max_tokens: Field required"), "max_tokens");
    if (auto e = readMaxTokens(o.value(u"max_tokens"), "max_tokens", r))
        return *e;
    if (r.maxTokens == 0)
        return invalid(QStringLiteral("max_tokens: Field required"), "max_tokens");

    int breakpoints = 0;
    const QJsonValue tools = o.value(u"tools");
    if (!tools.isUndefined() && !tools.isNull()) {
        if (!tools.isArray())
            return invalid(QStringLiteral("tools: Input should be a valid list"));
        for (const QJsonValue &tool : tools.toArray()) {
            if (!tool.isObject())
                return invalid(QStringLiteral("tools: each tool must be an object"));
            const auto bp = cacheControl(tool.toObject(), breakpoints);
            if (!bp)
                return std::unexpected(bp.error());
            // The cached prefix must not change when a breakpoint moves, so the marker itself is left out.
            r.parts.append({PromptPart::Kind::Text, compactJson(withoutCacheControl(tool.toObject())), *bp});
        }
    }

    const QJsonValue system = o.value(u"system");
    if (system.isString()) {
        r.parts.append({PromptPart::Kind::Text, system.toString(), false});
    } else if (system.isArray()) {
        for (const QJsonValue &block : system.toArray()) {
            const QJsonObject b = block.toObject();
            if (!block.isObject() || b.value(u"type").toString() != u"text" || !b.value(u"text").isString())
                return invalid(QStringLiteral("system: Input should be a valid list of text blocks"));
            const auto bp = cacheControl(b, breakpoints);
            if (!bp)
                return std::unexpected(bp.error());
            r.parts.append({PromptPart::Kind::Text, b.value(u"text").toString(), *bp});
        }
    } else if (!system.isUndefined() && !system.isNull()) {
        return invalid(QStringLiteral("system: Input should be a valid string or list of text blocks"));
    }

    const QJsonValue messages = o.value(u"messages");
    if (!messages.isArray())
        return invalid(QStringLiteral("messages: Field required"));
    const QJsonArray array = messages.toArray();
    for (qsizetype i = 0; i < array.size(); ++i) {
        const QJsonObject m = array[i].toObject();
        const QString role = m.value(u"role").toString();
        if (!array[i].isObject() || (role != u"user" && role != u"assistant"))
            return invalid(QStringLiteral("messages.%1.role: Input should be 'user' or 'assistant'").arg(i));
        QList<PromptPart> message{{PromptPart::Kind::Marker, roleMarker(role), false}};
        const QJsonValue content = m.value(u"content");
        QString visible;
        bool allText = true; // only text can be continued
        QString continued;   // the text blocks back to back, as the answer goes on from them
        if (content.isString()) {
            visible = content.toString();
            continued = visible;
            message.append({PromptPart::Kind::Text, visible, false});
        } else if (content.isArray()) {
            QStringList texts;
            for (const QJsonValue &block : content.toArray()) {
                const QJsonObject b = block.toObject();
                const auto text = block.isObject() ? anthropicBlockText(b) : std::nullopt;
                if (!text)
                    return invalid(QStringLiteral("messages.%1.content: invalid content block").arg(i));
                const auto bp = cacheControl(b, breakpoints);
                if (!bp)
                    return std::unexpected(bp.error());
                message.append({PromptPart::Kind::Text, *text, *bp});
                if (b.value(u"type").toString() == u"text") {
                    texts << *text;
                    continued += *text;
                } else {
                    allText = false;
                }
            }
            visible = texts.join(u'\n');
        } else {
            return invalid(
                QStringLiteral("messages.%1.content: Input should be a valid string or list of blocks").arg(i));
        }
        // A final assistant message is the beginning of the answer (Anthropic's prefill).
        if (i + 1 == array.size() && role == u"assistant" && allText) {
            if (!continued.isEmpty() && continued.back().isSpace())
                return invalid(QStringLiteral("messages: final assistant content cannot end with trailing whitespace"));
            r.prefill = continued;
            r.prefillParts = message;
            break;
        }
        r.parts += message;
        appendTurn(r, role, visible);
    }

    if (breakpoints > 4)
        return invalid(
            QStringLiteral("A maximum of 4 blocks with cache_control may be provided. Found %1.").arg(breakpoints));
    return r;
}

quint64 ChatRequest::continuationSeed(int index) const
{
    return StableHash::combine(textSeed(index), StableHash::text(prefill.value_or(QString()), 3));
}

quint64 ChatRequest::textSeed(int index) const
{
    quint64 h = StableHash::text(model);
    for (const PromptPart &part : parts)
        h = StableHash::combine(h, StableHash::text(part.text, part.kind == PromptPart::Kind::Marker ? 1 : 2));
    h = StableHash::combine(h, seed ? static_cast<quint64>(*seed) : 0x5eedULL);
    h = StableHash::combine(h, seed ? 1 : 0);
    h = StableHash::combine(h, static_cast<quint64>(std::llround(temperature * 1000)));
    return StableHash::combine(h, static_cast<quint64>(index));
}

} // namespace LocalProvider
