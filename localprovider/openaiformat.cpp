#include "openaiformat.h"

#include "apierror.h"

#include <QDateTime>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

namespace LocalProvider {

namespace {

QJsonObject usageObject(const Usage &u)
{
    QJsonObject promptDetails{{QStringLiteral("cached_tokens"), u.cacheReadTokens}};
    // What a request wrote to the cache, where the profile bills writes (OpenAI's GPT-5.6+).
    if (u.cacheCreationTokens > 0)
        promptDetails.insert(QStringLiteral("cache_write_tokens"), u.cacheCreationTokens);
    return QJsonObject{
        {QStringLiteral("prompt_tokens"), u.promptTokens},
        {QStringLiteral("completion_tokens"), u.completionTokens},
        {QStringLiteral("total_tokens"), u.promptTokens + u.completionTokens},
        {QStringLiteral("prompt_tokens_details"), promptDetails},
        {QStringLiteral("completion_tokens_details"),
         QJsonObject{{QStringLiteral("reasoning_tokens"), u.reasoningTokens}}},
        {QStringLiteral("prompt_cache_hit_tokens"), u.cacheReadTokens},
        {QStringLiteral("prompt_cache_miss_tokens"), u.promptTokens - u.cacheReadTokens},
    };
}

QByteArray event(const QByteArray &json)
{
    return "data: " + json + "\n\n";
}

} // namespace

OpenAiFormat::OpenAiFormat(QString model, QByteArray id)
    : m_model(std::move(model))
    , m_id(std::move(id))
{
    // The per-token chunks are written by hand: they are the hot path, and the field order then
    // matches what OpenAI sends.
    m_chunkPrefix = "{\"id\":\"" + m_id + "\",\"object\":\"chat.completion.chunk\",\"created\":"
                    + QByteArray::number(QDateTime::currentSecsSinceEpoch()) + ",\"model\":" + jsonQuoted(m_model)
                    + ",\"system_fingerprint\":\"fp_headstart\",\"choices\":";
}

QByteArray OpenAiFormat::chunk(const QByteArray &choicesJson) const
{
    return event(m_chunkPrefix + choicesJson + '}');
}

QByteArray OpenAiFormat::errorBody(const ApiError &error) const
{
    return error.openAiBody();
}

QByteArray OpenAiFormat::streamStart(int choices, const Usage &)
{
    QByteArray out;
    for (int i = 0; i < choices; ++i) {
        out += chunk(
            "[{\"index\":" + QByteArray::number(i)
            + ",\"delta\":{\"role\":\"assistant\",\"content\":\"\"},\"logprobs\":null,\"finish_reason\":null}]");
    }
    return out;
}

QByteArray OpenAiFormat::streamToken(int choice, QStringView text)
{
    return chunk("[{\"index\":" + QByteArray::number(choice) + ",\"delta\":{\"content\":" + jsonQuoted(text)
                 + "},\"logprobs\":null,\"finish_reason\":null}]");
}

QByteArray OpenAiFormat::streamReasoning(int choice, QStringView text)
{
    // As DeepSeek sends it: the content null beside the reasoning.
    return chunk("[{\"index\":" + QByteArray::number(choice) + ",\"delta\":{\"content\":null,\"reasoning_content\":"
                 + jsonQuoted(text) + "},\"logprobs\":null,\"finish_reason\":null}]");
}

QByteArray OpenAiFormat::streamChoiceEnd(int choice, bool truncated)
{
    return chunk("[{\"index\":" + QByteArray::number(choice) + ",\"delta\":{},\"logprobs\":null,\"finish_reason\":"
                 + (truncated ? "\"length\"" : "\"stop\"") + "}]");
}

QByteArray OpenAiFormat::streamEnd(const Usage &usage, bool, bool includeUsage)
{
    QByteArray out;
    if (includeUsage) {
        out += event(m_chunkPrefix + "[],\"usage\":" + QJsonDocument(usageObject(usage)).toJson(QJsonDocument::Compact)
                     + '}');
    }
    return out + "data: [DONE]\n\n";
}

QByteArray OpenAiFormat::streamMalformed()
{
    return "data: {\"id\":\"" + m_id
           + "\",\"object\":\"chat.completion.chunk\",\"choices\":[{\"index\":0,\"delta\":{\"content\":\n\n";
}

QByteArray OpenAiFormat::streamError()
{
    return event(
        R"({"error":{"message":"The server had an error while processing your request.","type":"server_error","param":null,"code":null}})");
}

QByteArray OpenAiFormat::completeBody(const QList<ChoiceText> &choices, const Usage &usage)
{
    QJsonArray array;
    for (qsizetype i = 0; i < choices.size(); ++i) {
        array.append(QJsonObject{
            {QStringLiteral("index"), static_cast<int>(i)},
            {QStringLiteral("message"), QJsonObject{{QStringLiteral("role"), QStringLiteral("assistant")},
                                                    {QStringLiteral("content"), choices[i].text},
                                                    {QStringLiteral("refusal"), QJsonValue()}}},
            {QStringLiteral("logprobs"), QJsonValue()},
            {QStringLiteral("finish_reason"), choices[i].truncated ? QStringLiteral("length") : QStringLiteral("stop")},
        });
    }
    const QJsonObject body{
        {QStringLiteral("id"), QString::fromLatin1(m_id)},
        {QStringLiteral("object"), QStringLiteral("chat.completion")},
        {QStringLiteral("created"), QDateTime::currentSecsSinceEpoch()},
        {QStringLiteral("model"), m_model},
        {QStringLiteral("system_fingerprint"), QStringLiteral("fp_headstart")},
        {QStringLiteral("choices"), array},
        {QStringLiteral("usage"), usageObject(usage)},
    };
    return QJsonDocument(body).toJson(QJsonDocument::Compact);
}

ApiError OpenAiFormat::midResponseError() const
{
    return ApiError::make(500, QStringLiteral("The server had an error while processing your request."));
}

} // namespace LocalProvider
