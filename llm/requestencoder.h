#pragma once

#include "error.h"
#include "llmtypes.h"
#include "streamdecoder.h"

#include <QByteArray>
#include <QByteArrayView>
#include <QString>

#include <expected>

namespace Llm {

// How a provider continues an answer from its beginning (ChatRequest::continuation): the same
// messages, then the beginning as the assistant's turn, marked the provider's way. docs/providers.md,
// "Continuing an answer", says which provider documents which.
enum class ContinuationStyle {
    None,                 // no way to continue (OpenAI chat completions): refused
    AssistantPrefill,     // a final assistant message is its beginning (Anthropic, llama.cpp server)
    PrefixFlag,           // {"role":"assistant","content":…,"prefix":true} (DeepSeek, beta endpoint)
    PartialFlag,          // {"role":"assistant","content":…,"partial":true} (Qwen / DashScope)
    ContinueFinalMessage, // a final assistant message and "continue_final_message":true (vLLM)
};

// How a model is told to think before it answers, or not to (Llm::ModelCatalog says which form
// each family takes; docs/providers.md, "Models and what each accepts").
enum class ThinkingForm {
    None,              // no field: the model decides (or does not think)
    AnthropicBudget,   // thinking: {type: enabled, budget_tokens} while thinking; nothing otherwise (Claude ≤ 4.5)
    AnthropicAdaptive, // thinking: {type: adaptive} while thinking; {type: disabled} otherwise (Claude 4.6 and later)
    TypeField,         // "thinking": {"type": "enabled" | "disabled"} (DeepSeek V4)
    EnableFlag,        // "enable_thinking": true | false (Qwen, DashScope)
    ReasoningEffort,   // "reasoning_effort": "none" to answer at once; omitted to think (OpenAI GPT-5.6, GPT-6)
};

struct EncodeOptions {
    // OpenAI's newer models take `max_completion_tokens`; DeepSeek, Qwen, Ollama and llama.cpp
    // take `max_tokens`.
    bool useMaxCompletionTokens = false;
    // Ask OpenAI-compatible servers for a final usage chunk (`stream_options.include_usage`).
    bool includeUsage = true;
    ContinuationStyle continuation = ContinuationStyle::None;
    // Anthropic: the cache breakpoints ask for the one-hour lifetime (`"ttl":"1h"`; its writes
    // cost 2x the input price instead of 1.25x) rather than the default five minutes.
    bool longCacheLifetime = false;
    // OpenAI: send ChatRequest::cacheKey as `prompt_cache_key`.
    bool promptCacheKey = false;
    // Anthropic extended thinking: the tokens the model may think for before it answers
    // (`thinking: {type: enabled, budget_tokens}`); 0: off. Written into the static prefix, so a
    // warm-up, a prefetch and the real request carry the same bytes (a changed thinking setting
    // drops Anthropic's cached messages). Ignored by the OpenAI format.
    int thinkingBudgetTokens = 0;
    // The model's own way to think (above). With a form that can say "no", thinking is turned
    // off explicitly while thinkingBudgetTokens is 0, so a model that thinks by default
    // (DeepSeek V4, Claude 5, GPT-6) answers at once, as a speculative prefix needs; with a
    // budget it thinks, in its own form. Part of the static prefix, like the budget.
    ThinkingForm thinkingForm = ThinkingForm::None;
    // The model thinks whatever it is told (Claude Fable 5.1 and Opus 5.5, GPT-6.2 Sol).
    bool thinkingAlwaysOn = false;
    // Sampling parameters (temperature) are sent; false for models that refuse them with a 400
    // (Claude Opus 4.7 and later, OpenAI's reasoning models while they reason).
    bool acceptsTemperature = true;

    // The effective thinking form: Anthropic profiles without one take the budget form.
    ThinkingForm thinkingFormFor(ApiFormat format) const
    {
        return thinkingForm == ThinkingForm::None && format == ApiFormat::AnthropicMessages
                   ? ThinkingForm::AnthropicBudget
                   : thinkingForm;
    }
    // The request thinks before it answers: a budget given, or a model that always thinks.
    bool thinks(ApiFormat format) const
    {
        const ThinkingForm form = thinkingFormFor(format);
        return form != ThinkingForm::None && (thinkingBudgetTokens > 0 || thinkingAlwaysOn);
    }

    friend bool operator==(const EncodeOptions &, const EncodeOptions &) = default;
};

class EncodedPrefix;

// Wire JSON for one request. Keys are written in a fixed order with the static prefix first
// (model, tools, system, static messages), then the dynamic messages, then the sampling
// parameters, so two requests that share a static prefix share those bytes exactly. Nothing
// volatile (time, random ids) is written. Anthropic bodies carry `cache_control` breakpoints
// after the tools, the system prompt, the last static message and the message at
// ChatRequest::cacheBreakpoint (at most 4 in all, Anthropic's limit).
// Exactly encodeWithPrefix(encodePrefix(format, request, ...), request).
std::expected<QByteArray, Error> encodeRequest(ApiFormat format, const ChatRequest &request,
                                               const EncodeOptions &options = {}, const QString &providerName = {});

// Encodes the static part of `request` (model, tools, system and its first staticMessageCount
// messages) once, for any number of requests that share it. Its dynamic messages and sampling
// parameters are not read, so either a full request or its static part alone may be passed.
// The options and the provider name (for error messages) are kept for the tail.
std::expected<EncodedPrefix, Error> encodePrefix(ApiFormat format, const ChatRequest &request,
                                                 const EncodeOptions &options = {}, const QString &providerName = {});

// The full body: the prefix bytes followed by the dynamic messages of `request` (those from
// staticMessageCount on; there may be none, as in a cache warm-up) and its parameters
// (maxTokens, temperature, seed, choiceCount, stream). The static part of `request` is taken to
// be the one the prefix was encoded from and is not read again (that is the point); only its
// model and static message count are checked against the prefix.
std::expected<QByteArray, Error> encodeWithPrefix(const EncodedPrefix &prefix, const ChatRequest &request);
// The same, taking over the prefix's buffer instead of copying it: for one-shot use.
std::expected<QByteArray, Error> encodeWithPrefix(EncodedPrefix &&prefix, const ChatRequest &request);

// How many static prefixes this process has encoded (encodePrefix and encodeRequest both
// count one). A diagnostic for tests and benchmarks that check a prefix is reused.
quint64 prefixEncodeCount();

// The encoded static prefix of a request: everything up to and including the last static
// message, left open inside the `messages` array so the dynamic messages and the parameters can
// follow. Opaque bytes plus what the tail encoder needs to continue. An immutable value, cheap
// to copy (the bytes are implicitly shared); any thread.
class EncodedPrefix
{
public:
    EncodedPrefix() = default; // empty; encodeWithPrefix refuses it

    bool isNull() const { return m_bytes.isEmpty(); }
    ApiFormat format() const { return m_format; }
    // What every body built on this prefix starts with, byte for byte. Not JSON on its own.
    QByteArrayView bytes() const { return m_bytes; }
    const QString &model() const { return m_model; }
    qsizetype staticMessageCount() const { return m_staticMessageCount; }
    const EncodeOptions &options() const { return m_options; }
    const QString &providerName() const { return m_providerName; }

private:
    friend std::expected<QByteArray, Error> encodeRequest(ApiFormat, const ChatRequest &, const EncodeOptions &,
                                                          const QString &);
    friend std::expected<EncodedPrefix, Error> encodePrefix(ApiFormat, const ChatRequest &, const EncodeOptions &,
                                                            const QString &);
    friend std::expected<QByteArray, Error> encodeWithPrefix(EncodedPrefix &&, const ChatRequest &);
    friend std::expected<QByteArray, Error> encodeWithPrefix(const EncodedPrefix &, const ChatRequest &);

    static std::expected<EncodedPrefix, Error> encode(ApiFormat format, const ChatRequest &request,
                                                      const EncodeOptions &options, const QString &providerName);
    // Checks `request` against this prefix and returns the bytes that follow it.
    std::expected<QByteArray, Error> encodeTail(const ChatRequest &request) const;

    QByteArray m_bytes;
    ApiFormat m_format = ApiFormat::OpenAiChat;
    EncodeOptions m_options;
    QString m_providerName;
    QString m_model;
    qsizetype m_staticMessageCount = 0;
    // Non-system messages in the prefix: Anthropic needs at least one turn in the whole request.
    qsizetype m_staticTurns = 0;
    // The prefix wrote an element into the `messages` array: the next one needs a comma.
    bool m_hasMessage = false;
};

} // namespace Llm
