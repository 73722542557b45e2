#include "requestencoder.h"

#include "jsonwriter.h"

#include <QJsonDocument>
#include <QJsonParseError>
#include <QStringList>

#include <cmath>

namespace Llm {

namespace {

// A tool without a schema still needs one on the wire; both APIs accept an empty object schema.
constexpr QByteArrayView EmptySchema = R"({"type":"object","properties":{}})";

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

// Checks that apply to both formats. Returns an empty string when the request is fine.
QString commonProblem(const ChatRequest &request)
{
    if (request.model.isEmpty())
        return QStringLiteral("No model is selected.");
    if (request.staticMessageCount < 0 || request.staticMessageCount > request.messages.size())
        return QStringLiteral("The static part claims %1 messages but the request has %2.")
            .arg(request.staticMessageCount)
            .arg(request.messages.size());
    if (request.maxTokens < 1)
        return QStringLiteral("The answer length limit must be at least one token (got %1).")
            .arg(request.maxTokens);
    if (request.choiceCount < 1)
        return QStringLiteral("At least one answer must be requested (got %1).")
            .arg(request.choiceCount);
    if (request.temperature && !std::isfinite(*request.temperature))
        return QStringLiteral("The temperature is not a number.");
    for (const ToolDefinition &tool : request.tools) {
        if (tool.name.isEmpty())
            return QStringLiteral("A tool has no name.");
        if (tool.parametersSchema.isEmpty())
            continue;
        // Sent verbatim, so a broken schema would otherwise surface as a vague 400 later.
        QJsonParseError error;
        const QJsonDocument doc = QJsonDocument::fromJson(tool.parametersSchema, &error);
        if (error.error != QJsonParseError::NoError || !doc.isObject())
            return QStringLiteral("The parameter schema of tool \"%1\" is not a JSON object.")
                .arg(tool.name);
    }
    return {};
}

QByteArrayView schemaOf(const ToolDefinition &tool)
{
    return tool.parametersSchema.isEmpty() ? EmptySchema : QByteArrayView(tool.parametersSchema);
}

void writeEphemeral(JsonWriter &w)
{
    w.key("cache_control").beginObject().field("type", "ephemeral").endObject();
}

std::expected<QByteArray, Error> encodeOpenAi(const ChatRequest &request,
                                              const EncodeOptions &options,
                                              const QString &provider)
{
    if (request.system.isEmpty() && request.messages.isEmpty())
        return invalid(provider, QStringLiteral("The request has no messages."));

    JsonWriter w;
    w.beginObject();
    w.field("model", request.model);
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
        w.beginObject().field("role", "system").field("content", request.system).endObject();
    for (const ChatMessage &message : request.messages)
        w.beginObject().field("role", openAiRole(message.role)).field("content", message.content).endObject();
    w.endArray();

    if (request.stream) {
        w.field("stream", true);
        if (options.includeUsage)
            w.key("stream_options").beginObject().field("include_usage", true).endObject();
    }
    w.field(options.useMaxCompletionTokens ? "max_completion_tokens" : "max_tokens", request.maxTokens);
    if (request.temperature)
        w.field("temperature", *request.temperature);
    if (request.seed)
        w.field("seed", *request.seed);
    if (request.choiceCount != 1)
        w.field("n", request.choiceCount);
    w.endObject();
    return w.take();
}

std::expected<QByteArray, Error> encodeAnthropic(const ChatRequest &request, const QString &provider)
{
    if (request.choiceCount != 1)
        return invalid(provider, QStringLiteral("Anthropic returns one answer per request; %1 were "
                                                "requested.").arg(request.choiceCount));

    // Anthropic has no system role inside `messages`. System entries of the static part join
    // the system blocks, where they belong and stay inside the cached prefix. One in the dynamic
    // part cannot be placed: moving it up would put varying text in front of the cached
    // document (every request would miss the cache) and change its meaning, so it is refused.
    QList<qsizetype> systemMessages;
    qsizetype lastStaticTurn = -1;
    qsizetype turns = 0;
    for (qsizetype i = 0; i < request.messages.size(); ++i) {
        const ChatMessage &message = request.messages.at(i);
        if (message.role == Role::System) {
            if (i >= request.staticMessageCount)
                return invalid(provider,
                               QStringLiteral("Anthropic takes system instructions only before the "
                                              "conversation; message %1 is a system message after "
                                              "the static part.").arg(i + 1));
            systemMessages.append(i);
            continue;
        }
        if (message.content.isEmpty())
            return invalid(provider, QStringLiteral("Anthropic rejects empty messages; message %1 is "
                                                    "empty.").arg(i + 1));
        if (i < request.staticMessageCount)
            lastStaticTurn = i;
        ++turns;
    }
    if (turns == 0)
        return invalid(provider, QStringLiteral("The request has no user message."));

    // Breakpoints: after the tools, after the system text and after the last static message:
    // three of the four Anthropic allows. Each one lets a request that shares only that much
    // (same tools, different document) still hit.
    JsonWriter w;
    w.beginObject();
    w.field("model", request.model);
    if (!request.tools.isEmpty()) {
        w.key("tools").beginArray();
        for (qsizetype i = 0; i < request.tools.size(); ++i) {
            const ToolDefinition &tool = request.tools.at(i);
            w.beginObject().field("name", tool.name);
            if (!tool.description.isEmpty())
                w.field("description", tool.description);
            w.key("input_schema").rawValue(schemaOf(tool));
            if (i == request.tools.size() - 1)
                writeEphemeral(w);
            w.endObject();
        }
        w.endArray();
    }
    const bool hasSystem = !request.system.isEmpty() || !systemMessages.isEmpty();
    if (hasSystem) {
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
                writeEphemeral(w);
            w.endObject();
        }
        w.endArray();
    }
    w.key("messages").beginArray();
    for (qsizetype i = 0; i < request.messages.size(); ++i) {
        const ChatMessage &message = request.messages.at(i);
        if (message.role == Role::System)
            continue;
        w.beginObject().field("role", message.role == Role::Assistant ? "assistant" : "user");
        if (i == lastStaticTurn) {
            // Only a content block can carry cache_control, so this one message is written in
            // block form; the others stay plain strings.
            w.key("content").beginArray().beginObject().field("type", "text").field("text", message.content);
            writeEphemeral(w);
            w.endObject().endArray();
        } else {
            w.field("content", message.content);
        }
        w.endObject();
    }
    w.endArray();
    w.field("max_tokens", request.maxTokens);
    if (request.stream)
        w.field("stream", true);
    if (request.temperature)
        w.field("temperature", *request.temperature);
    // `seed` does not exist in the Messages API; it is dropped rather than refused because a
    // seed only asks for reproducibility, which no Anthropic model offers anyway.
    w.endObject();
    return w.take();
}

} // namespace

std::expected<QByteArray, Error> encodeRequest(ApiFormat format, const ChatRequest &request,
                                               const EncodeOptions &options,
                                               const QString &providerName)
{
    if (const QString problem = commonProblem(request); !problem.isEmpty())
        return invalid(providerName, problem);
    switch (format) {
    case ApiFormat::OpenAiChat:
        return encodeOpenAi(request, options, providerName);
    case ApiFormat::AnthropicMessages:
        return encodeAnthropic(request, providerName);
    }
    return invalid(providerName, QStringLiteral("Unknown API format."));
}

} // namespace Llm
