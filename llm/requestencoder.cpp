#include "requestencoder.h"

#include "jsonwriter.h"

#include <QJsonDocument>
#include <QJsonParseError>
#include <QStringList>

#include <atomic>
#include <cmath>

namespace Llm {

namespace {

// A tool without a schema still needs one on the wire; both APIs accept an empty object schema.
constexpr QByteArrayView EmptySchema = R"({"type":"object","properties":{}})";

std::atomic<quint64> s_prefixEncodes{0};

constexpr int MinThinkingBudgetTokens = 1024;

const char *openAiRole(Role role)
{
    switch (role) {
    case Role::System: return "system";
    case Role::User: return "user";
    case Role::Assistant: return "assistant";
    }
    return "user";
}

std::unexpected<Error> invalid(const QString &provider, const QString &detail)
{
    return std::unexpected(Error(Error::Code::InvalidRequest, provider, detail));
}

// Checks of the static part that apply to both formats. Empty when it is fine.
QString staticProblem(const ChatRequest &request)
{
    if (request.model.isEmpty())
        return QStringLiteral("No model is selected.");
    if (request.staticMessageCount < 0 || request.staticMessageCount > request.messages.size())
        return QStringLiteral("The static part claims %1 messages but the request has %2.")
            .arg(request.staticMessageCount)
            .arg(request.messages.size());
    for (const ToolDefinition &tool : request.tools) {
        if (tool.name.isEmpty())
            return QStringLiteral("A tool has no name.");
        if (tool.parametersSchema.isEmpty())
            continue;
        // Sent verbatim, so a broken schema would otherwise surface as a vague 400 later.
        QJsonParseError error;
        const QJsonDocument doc = QJsonDocument::fromJson(tool.parametersSchema, &error);
        if (error.error != QJsonParseError::NoError || !doc.isObject())
            return QStringLiteral("The parameter schema of tool \"%1\" is not a JSON object.").arg(tool.name);
    }
    return {};
}

// Checks of the parameters that apply to both formats. Empty when they are fine.
QString parameterProblem(const ChatRequest &request)
{
    if (request.maxTokens < 1)
        return QStringLiteral("The answer length limit must be at least one token (got %1).").arg(request.maxTokens);
    if (request.choiceCount < 1)
        return QStringLiteral("At least one answer must be requested (got %1).").arg(request.choiceCount);
    if (request.temperature && !std::isfinite(*request.temperature))
        return QStringLiteral("The temperature is not a number.");
    return {};
}

QByteArrayView schemaOf(const ToolDefinition &tool)
{
    return tool.parametersSchema.isEmpty() ? EmptySchema : QByteArrayView(tool.parametersSchema);
}

// Tokens of thinking added to max_tokens while a model thinks: the budget the user set, else
// Anthropic's documented floor for one (a model that always thinks was given none).
int thinkingAllowance(const EncodeOptions &options)
{
    return options.thinkingBudgetTokens > 0 ? options.thinkingBudgetTokens : MinThinkingBudgetTokens;
}

void writeEphemeral(JsonWriter &w, const EncodeOptions &options)
{
    w.key("cache_control").beginObject().field("type", "ephemeral");
    if (options.longCacheLifetime)
        w.field("ttl", "1h");
    w.endObject();
}

void writeOpenAiMessage(JsonWriter &w, const char *role, const QString &content)
{
    w.beginObject().field("role", role).field("content", content).endObject();
}

void writeAnthropicMessage(JsonWriter &w, const ChatMessage &message, bool breakpoint, const EncodeOptions &options)
{
    w.beginObject().field("role", message.role == Role::Assistant ? "assistant" : "user");
    if (breakpoint) {
        // Only a content block can carry cache_control, so this one message is written in
        // block form; the others stay plain strings.
        w.key("content").beginArray().beginObject().field("type", "text").field("text", message.content);
        writeEphemeral(w, options);
        w.endObject().endArray();
    } else {
        w.field("content", message.content);
    }
    w.endObject();
}

// Writes the static part up to and including `"messages":[` and the static messages.
void writeOpenAiThinking(JsonWriter &w, const EncodeOptions &options)
{
    const bool thinks = options.thinks(ApiFormat::OpenAiChat);
    switch (options.thinkingFormFor(ApiFormat::OpenAiChat)) {
    case ThinkingForm::TypeField:
        w.key("thinking").beginObject().field("type", thinks ? "enabled" : "disabled").endObject();
        break;
    case ThinkingForm::EnableFlag: w.field("enable_thinking", thinks); break;
    case ThinkingForm::ReasoningEffort:
        if (!thinks)
            w.field("reasoning_effort", "none");
        break;
    case ThinkingForm::None:
    case ThinkingForm::AnthropicBudget:
    case ThinkingForm::AnthropicAdaptive: break;
    }
}

void writeOpenAiPrefix(JsonWriter &w, const ChatRequest &request, const EncodeOptions &options, bool &hasMessage)
{
    w.beginObject();
    w.field("model", request.model);
    // With the model: how it thinks decides its prompt (a chat template renders thinking), so it
    // belongs to the static part a warm-up and a guess share with the answer.
    writeOpenAiThinking(w, options);
    if (!request.tools.isEmpty()) {
        w.key("tools").beginArray();
        for (const ToolDefinition &tool : request.tools) {
            w.beginObject().field("type", "function");
            w.key("function").beginObject().field("name", tool.name);
            if (!tool.description.isEmpty())
                w.field("description", tool.description);
            w.key("parameters").rawValue(schemaOf(tool));
            w.endObject().endObject();
        }
        w.endArray();
    }
    // Static messages first and dynamic ones last: OpenAI, DeepSeek and Qwen cache by exact
    // prefix, so nothing that varies may come before the document.
    w.key("messages").beginArray();
    if (!request.system.isEmpty())
        writeOpenAiMessage(w, "system", request.system);
    for (qsizetype i = 0; i < request.staticMessageCount; ++i) {
        const ChatMessage &message = request.messages.at(i);
        writeOpenAiMessage(w, openAiRole(message.role), message.content);
    }
    hasMessage = !request.system.isEmpty() || request.staticMessageCount > 0;
}

std::expected<qsizetype, Error> writeAnthropicPrefix(JsonWriter &w, const ChatRequest &request,
                                                     const EncodeOptions &options, const QString &provider)
{
    // Anthropic's documented floor for budget_tokens.
    if (options.thinkingFormFor(ApiFormat::AnthropicMessages) == ThinkingForm::AnthropicBudget
        && options.thinkingBudgetTokens > 0 && options.thinkingBudgetTokens < MinThinkingBudgetTokens)
        return invalid(provider, QStringLiteral("The thinking budget must be at least %1 tokens (got %2).")
                                     .arg(MinThinkingBudgetTokens)
                                     .arg(options.thinkingBudgetTokens));
    // Anthropic has no system role inside `messages`. System entries of the static part join
    // the system blocks, where they belong and stay inside the cached prefix (one in the
    // dynamic part is refused by the tail).
    QList<qsizetype> systemMessages;
    qsizetype lastStaticTurn = -1;
    qsizetype turns = 0;
    for (qsizetype i = 0; i < request.staticMessageCount; ++i) {
        const ChatMessage &message = request.messages.at(i);
        if (message.role == Role::System) {
            systemMessages.append(i);
            continue;
        }
        if (message.content.isEmpty())
            return invalid(provider, QStringLiteral("Anthropic rejects empty messages; message %1 is "
                                                    "empty.")
                                         .arg(i + 1));
        lastStaticTurn = i;
        ++turns;
    }

    // Breakpoints: after the tools, after the system text and after the last static message:
    // three of the four Anthropic allows. Each one lets a request that shares only that much
    // (same tools, different document) still hit.
    w.beginObject();
    w.field("model", request.model);
    const bool thinks = options.thinks(ApiFormat::AnthropicMessages);
    if (options.thinkingFormFor(ApiFormat::AnthropicMessages) == ThinkingForm::AnthropicAdaptive)
        w.key("thinking").beginObject().field("type", thinks ? "adaptive" : "disabled").endObject();
    else if (thinks)
        w.key("thinking")
            .beginObject()
            .field("type", "enabled")
            .field("budget_tokens", options.thinkingBudgetTokens)
            .endObject();
    if (!request.tools.isEmpty()) {
        w.key("tools").beginArray();
        for (qsizetype i = 0; i < request.tools.size(); ++i) {
            const ToolDefinition &tool = request.tools.at(i);
            w.beginObject().field("name", tool.name);
            if (!tool.description.isEmpty())
                w.field("description", tool.description);
            w.key("input_schema").rawValue(schemaOf(tool));
            if (i == request.tools.size() - 1)
                writeEphemeral(w, options);
            w.endObject();
        }
        w.endArray();
    }
    if (!request.system.isEmpty() || !systemMessages.isEmpty()) {
        QStringList blocks;
        if (!request.system.isEmpty())
            blocks.append(request.system);
        for (qsizetype i : std::as_const(systemMessages)) {
            if (!request.messages.at(i).content.isEmpty())
                blocks.append(request.messages.at(i).content);
        }
        w.key("system").beginArray();
        for (qsizetype i = 0; i < blocks.size(); ++i) {
            w.beginObject().field("type", "text").field("text", blocks.at(i));
            if (i == blocks.size() - 1)
                writeEphemeral(w, options);
            w.endObject();
        }
        w.endArray();
    }
    w.key("messages").beginArray();
    for (qsizetype i = 0; i < request.staticMessageCount; ++i) {
        const ChatMessage &message = request.messages.at(i);
        if (message.role != Role::System)
            writeAnthropicMessage(w, message, i == lastStaticTurn, options);
    }
    return turns;
}

// The part after the prefix is written by a second JsonWriter, which cannot know the nesting
// the prefix left open. It is opened to the same shape (an object member holding an array,
// with one element when the prefix wrote one, so the next gets its comma) and these
// synthetic bytes are cut off afterwards.
qsizetype openLikePrefix(JsonWriter &w, bool hasMessage)
{
    w.beginObject().key("m").beginArray();
    if (hasMessage)
        w.nullValue();
    return w.data().size();
}

} // namespace

std::expected<QByteArray, Error> encodeRequest(ApiFormat format, const ChatRequest &request,
                                               const EncodeOptions &options, const QString &providerName)
{
    auto prefix = EncodedPrefix::encode(format, request, options, providerName);
    if (!prefix)
        return std::unexpected(prefix.error());
    return encodeWithPrefix(std::move(*prefix), request);
}

std::expected<EncodedPrefix, Error> encodePrefix(ApiFormat format, const ChatRequest &request,
                                                 const EncodeOptions &options, const QString &providerName)
{
    auto prefix = EncodedPrefix::encode(format, request, options, providerName);
    // Kept for as long as the document is open: without the writer's growth reserve, which can
    // be as large as the document itself.
    if (prefix)
        prefix->m_bytes.squeeze();
    return prefix;
}

std::expected<EncodedPrefix, Error> EncodedPrefix::encode(ApiFormat format, const ChatRequest &request,
                                                          const EncodeOptions &options, const QString &providerName)
{
    if (const QString problem = staticProblem(request); !problem.isEmpty())
        return invalid(providerName, problem);

    EncodedPrefix prefix;
    prefix.m_format = format;
    prefix.m_options = options;
    prefix.m_providerName = providerName;
    prefix.m_model = request.model;
    prefix.m_staticMessageCount = request.staticMessageCount;

    JsonWriter w;
    switch (format) {
    case ApiFormat::OpenAiChat: writeOpenAiPrefix(w, request, options, prefix.m_hasMessage); break;
    case ApiFormat::AnthropicMessages: {
        const auto turns = writeAnthropicPrefix(w, request, options, providerName);
        if (!turns)
            return std::unexpected(turns.error());
        prefix.m_staticTurns = *turns;
        prefix.m_hasMessage = *turns > 0;
        break;
    }
    default: return invalid(providerName, QStringLiteral("Unknown API format."));
    }
    prefix.m_bytes = w.take();
    s_prefixEncodes.fetch_add(1, std::memory_order_relaxed);
    return prefix;
}

std::expected<QByteArray, Error> EncodedPrefix::encodeTail(const ChatRequest &request) const
{
    if (isNull())
        return invalid(m_providerName, QStringLiteral("The request has no encoded static part."));
    if (request.model != m_model || request.staticMessageCount != m_staticMessageCount
        || request.staticMessageCount > request.messages.size())
        return invalid(m_providerName, QStringLiteral("The request does not match its encoded static part "
                                                      "(model or static message count differ)."));
    if (const QString problem = parameterProblem(request); !problem.isEmpty())
        return invalid(m_providerName, problem);

    const bool thinks = m_options.thinks(m_format);
    if (!request.continuation.isEmpty()) {
        if (m_options.continuation == ContinuationStyle::None)
            return invalid(m_providerName, QStringLiteral("This provider cannot continue an answer."));
        if (request.continuation.back().isSpace())
            return invalid(m_providerName, QStringLiteral("The beginning of an answer to continue must not end in "
                                                          "white space."));
        if (request.choiceCount != 1)
            return invalid(m_providerName, QStringLiteral("Only a single answer can be continued."));
        // Anthropic refuses a prefill while thinking; DeepSeek and Qwen document their
        // continuations in non-thinking mode only.
        if (thinks)
            return invalid(m_providerName, QStringLiteral("An answer cannot be continued while the model thinks "
                                                          "first."));
    }

    const qsizetype dynamicCount = request.messages.size() - m_staticMessageCount;
    if (m_format == ApiFormat::AnthropicMessages) {
        if (request.choiceCount != 1)
            return invalid(m_providerName, QStringLiteral("Anthropic returns one answer per request; %1 "
                                                          "were requested.")
                                               .arg(request.choiceCount));
        for (qsizetype i = m_staticMessageCount; i < request.messages.size(); ++i) {
            const ChatMessage &message = request.messages.at(i);
            // Moving a dynamic system message up into the system blocks would put varying text
            // in front of the cached document (every request would miss the cache) and change
            // its meaning, so it is refused.
            if (message.role == Role::System)
                return invalid(m_providerName, QStringLiteral("Anthropic takes system instructions only before the "
                                                              "conversation; message %1 is a system message after "
                                                              "the static part.")
                                                   .arg(i + 1));
            if (message.content.isEmpty())
                return invalid(m_providerName, QStringLiteral("Anthropic rejects empty messages; "
                                                              "message %1 is empty.")
                                                   .arg(i + 1));
        }
        if (m_staticTurns + dynamicCount == 0)
            return invalid(m_providerName, QStringLiteral("The request has no user message."));
    } else if (!m_hasMessage && dynamicCount == 0) {
        return invalid(m_providerName, QStringLiteral("The request has no messages."));
    }

    JsonWriter w;
    const qsizetype synthetic = openLikePrefix(w, m_hasMessage);
    for (qsizetype i = m_staticMessageCount; i < request.messages.size(); ++i) {
        const ChatMessage &message = request.messages.at(i);
        if (m_format == ApiFormat::AnthropicMessages)
            writeAnthropicMessage(w, message, i == request.cacheBreakpoint, m_options);
        else
            writeOpenAiMessage(w, openAiRole(message.role), message.content);
    }
    const bool continues = !request.continuation.isEmpty();
    if (continues) {
        // The beginning of the answer as the assistant's turn: Anthropic's and llama.cpp's
        // prefill; DeepSeek and Qwen want it marked, vLLM a flag beside the messages.
        w.beginObject().field("role", "assistant").field("content", request.continuation);
        if (m_format == ApiFormat::OpenAiChat && m_options.continuation == ContinuationStyle::PrefixFlag)
            w.field("prefix", true);
        else if (m_format == ApiFormat::OpenAiChat && m_options.continuation == ContinuationStyle::PartialFlag)
            w.field("partial", true);
        w.endObject();
    }
    w.endArray();
    if (continues && m_format == ApiFormat::OpenAiChat
        && m_options.continuation == ContinuationStyle::ContinueFinalMessage)
        w.field("continue_final_message", true).field("add_generation_prompt", false);
    if (m_format == ApiFormat::AnthropicMessages) {
        // Anthropic counts the thinking inside max_tokens and wants it above the budget: the
        // budget is added, so maxTokens stays the length of the answer the user asked for.
        // A temperature is refused while thinking, so it is not sent then.
        w.field("max_tokens", thinks ? request.maxTokens + thinkingAllowance(m_options) : request.maxTokens);
        if (request.stream)
            w.field("stream", true);
        if (request.temperature && !thinks && m_options.acceptsTemperature)
            w.field("temperature", *request.temperature);
        // `seed` does not exist in the Messages API; it is dropped rather than refused because
        // a seed only asks for reproducibility, which no Anthropic model offers anyway.
    } else {
        if (request.stream) {
            w.field("stream", true);
            if (m_options.includeUsage)
                w.key("stream_options").beginObject().field("include_usage", true).endObject();
        }
        // Thinking counts inside the limit where the providers document it (DeepSeek V4, GPT-6):
        // the allowance keeps maxTokens the length of the answer the user asked for.
        w.field(m_options.useMaxCompletionTokens ? "max_completion_tokens" : "max_tokens",
                thinks ? request.maxTokens + thinkingAllowance(m_options) : request.maxTokens);
        // OpenAI's reasoning models refuse sampling parameters while they reason.
        const bool reasons = thinks
                             && m_options.thinkingFormFor(ApiFormat::OpenAiChat) == ThinkingForm::ReasoningEffort;
        if (request.temperature && m_options.acceptsTemperature && !reasons)
            w.field("temperature", *request.temperature);
        if (request.seed)
            w.field("seed", *request.seed);
        if (request.choiceCount != 1)
            w.field("n", request.choiceCount);
        if (m_options.promptCacheKey && !request.cacheKey.isEmpty())
            w.field("prompt_cache_key", request.cacheKey);
    }
    w.endObject();
    return w.take().sliced(synthetic);
}

std::expected<QByteArray, Error> encodeWithPrefix(const EncodedPrefix &prefix, const ChatRequest &request)
{
    const auto tail = prefix.encodeTail(request);
    if (!tail)
        return tail;
    // One exact allocation and one copy of the prefix: no growth steps that would each copy
    // a multi-megabyte document again.
    QByteArray body;
    body.reserve(prefix.m_bytes.size() + tail->size());
    body.append(prefix.m_bytes).append(*tail);
    return body;
}

std::expected<QByteArray, Error> encodeWithPrefix(EncodedPrefix &&prefix, const ChatRequest &request)
{
    const auto tail = prefix.encodeTail(request);
    if (!tail)
        return tail;
    QByteArray body = std::move(prefix.m_bytes);
    body.append(*tail);
    return body;
}

quint64 prefixEncodeCount()
{
    return s_prefixEncodes.load(std::memory_order_relaxed);
}

} // namespace Llm
