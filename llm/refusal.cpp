#include "refusal.h"

#include <QRegularExpression>

namespace Llm {

std::optional<RefusedFeature> refusedFeature(const Error &error)
{
    if (error.code() != Error::Code::BadRequest)
        return std::nullopt;
    const QString detail = error.detail();
    const auto has = [&detail](const char *pattern) {
        return QRegularExpression(QLatin1String(pattern), QRegularExpression::CaseInsensitiveOption)
            .match(detail)
            .hasMatch();
    };
    // Anthropic: "\"thinking.type.enabled\" is not supported for this model. Use \"thinking.type.adaptive\"".
    if (has("thinking\\.type\\.enabled|budget_tokens.{0,40}(not supported|deprecated)"))
        return RefusedFeature::ThinkingBudget;
    // Anthropic: "This model does not support assistant message prefill. The conversation must
    // end with a user message."; others say it of a final assistant, prefix or partial message.
    if (has("prefill|must end with a user message|last message must be a user|final assistant|"
            "(prefix|partial).{0,30}(not supported|unsupported)"))
        return RefusedFeature::Continuation;
    // Anthropic: "`temperature` is deprecated for this model."; OpenAI: "Unsupported value:
    // 'temperature' does not support …".
    if (has("(temperature|top_p).{0,60}(deprecated|not supported|unsupported|does not support)|"
            "unsupported (value|parameter).{0,20}temperature"))
        return RefusedFeature::Temperature;
    // OpenAI: "Unsupported parameter: 'max_tokens' is not supported with this model. Use
    // 'max_completion_tokens' instead."
    if (has("max_tokens.{0,60}(not supported|unsupported)|use .?max_completion_tokens"))
        return RefusedFeature::MaxTokensParameter;
    return std::nullopt;
}

void withoutFeature(EncodeOptions &options, RefusedFeature feature)
{
    switch (feature) {
    case RefusedFeature::Continuation: options.continuation = ContinuationStyle::None; break;
    case RefusedFeature::Temperature: options.acceptsTemperature = false; break;
    case RefusedFeature::ThinkingBudget: options.thinkingForm = ThinkingForm::AnthropicAdaptive; break;
    case RefusedFeature::MaxTokensParameter: options.useMaxCompletionTokens = true; break;
    }
}

const char *featureId(RefusedFeature feature)
{
    switch (feature) {
    case RefusedFeature::Continuation: return "continuation";
    case RefusedFeature::Temperature: return "temperature";
    case RefusedFeature::ThinkingBudget: return "thinking-budget";
    case RefusedFeature::MaxTokensParameter: return "max-tokens";
    }
    return "";
}

std::optional<RefusedFeature> featureFromId(QStringView id)
{
    for (RefusedFeature f : {RefusedFeature::Continuation, RefusedFeature::Temperature, RefusedFeature::ThinkingBudget,
                             RefusedFeature::MaxTokensParameter}) {
        if (id == QLatin1StringView(featureId(f)))
            return f;
    }
    return std::nullopt;
}

} // namespace Llm
