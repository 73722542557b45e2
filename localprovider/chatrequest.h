#pragma once

#include "apierror.h"

#include <QList>
#include <QString>

#include <expected>
#include <optional>

namespace LocalProvider {

enum class Api { OpenAi, Anthropic };

// One piece of the prompt in the order the prefix cache sees it. A marker (a role tag) counts
// as exactly one token; a text part is tokenized. Anthropic cache breakpoints sit at the end of
// the part that carried cache_control.
struct PromptPart {
    enum class Kind { Marker, Text };
    Kind kind = Kind::Text;
    QString text;
    bool cacheBreakpoint = false;
};

// The one-token marker that starts a message of `role` in the prompt ("<|assistant|>").
QString roleMarker(QStringView role);

// One message after the system prompt, as its visible text: the conversation the answer is
// made from (the system prompt is ours, never the user's material).
struct Turn {
    QString role; // "user", "assistant", "tool", "function"
    QString text;
};

// A chat request of either wire format, validated and reduced to what the simulation needs.
struct ChatRequest {
    Api api = Api::OpenAi;
    QString model;
    // OpenAI: leading system/developer messages, tools, the other messages.
    // Anthropic: tools, system, messages (the order Anthropic caches in).
    QList<PromptPart> parts;
    // The beginning of the assistant's answer that the request asks to continue: Anthropic's
    // prefill, DeepSeek's `prefix`, Qwen's `partial`, vLLM's `continue_final_message`, or a plain
    // final assistant message (llama.cpp). nullopt: a fresh answer. It is in none of `parts`,
    // `turns` and the text seed, so that the answer can continue the very answer the request
    // without it gets; it is in the prompt (prefillParts, after parts) for counting and caching.
    std::optional<QString> prefill;
    QList<PromptPart> prefillParts; // its role marker and text blocks
    QList<Turn> turns;              // the messages other than system ones, in order: what the answer is made of
    int maxTokens = 0;              // 0: not given
    bool maxTokensField = false;    // OpenAI: given as `max_tokens`, not `max_completion_tokens`
    std::optional<qint64> seed;
    double temperature = 1.0;
    bool temperatureGiven = false;
    // What the request says of thinking, in whichever provider's form: Anthropic's
    // `thinking.type`, DeepSeek's `thinking.type`, Qwen's `enable_thinking`, OpenAI's
    // `reasoning_effort` ("none" is off). nullopt: nothing, the model's default.
    std::optional<bool> thinking;
    bool thinkingBudgetField = false; // Anthropic's `thinking: {type: enabled, budget_tokens}`
    int n = 1;
    bool stream = false;
    bool includeUsage = false;

    static std::expected<ChatRequest, ApiError> fromOpenAi(const QByteArray &body);
    static std::expected<ChatRequest, ApiError> fromAnthropic(const QByteArray &body);

    // Seeds choice `index`'s text from model, prompt, seed, temperature and index only:
    // max_tokens just cuts the same text, and streaming only changes the framing.
    quint64 textSeed(int index) const;
    // Seeds the text that follows a prefill which is not a prefix of the fresh answer.
    quint64 continuationSeed(int index) const;
};

} // namespace LocalProvider
