#pragma once

#include <QByteArray>
#include <QList>
#include <QString>

#include <optional>

// Provider-neutral value types for one chat request and the events its stream decodes into.
// Pure values: any thread, copied freely.
namespace Llm {

enum class Role { System, User, Assistant };

struct ChatMessage {
    Role role = Role::User;
    QString content;

    friend bool operator==(const ChatMessage &, const ChatMessage &) = default;
};

struct ToolDefinition {
    QString name;
    QString description;
    QByteArray parametersSchema; // a compact JSON object, sent verbatim

    friend bool operator==(const ToolDefinition &, const ToolDefinition &) = default;
};

// The static prefix of a request is `system`, `tools` and the first `staticMessageCount`
// messages (typically the document). Encoders write it first and byte-identically for every
// request that shares it, so provider prompt caches hit; everything else comes after it.
struct ChatRequest {
    QString model;
    QString system;
    QList<ToolDefinition> tools;
    QList<ChatMessage> messages;
    qsizetype staticMessageCount = 0;
    int maxTokens = 1024;
    std::optional<double> temperature;
    std::optional<qint64> seed;
    int choiceCount = 1; // OpenAI `n`
    bool stream = true;
    // Non-empty: the beginning of the assistant's answer, which this request continues (an
    // answer started as a short speculative prefix and finished once the user asked for it).
    // Encoded after the messages in the provider's form (EncodeOptions::continuation);
    // providers refuse a continuation that ends in white space, so callers trim it.
    QString continuation;
    // The index of a dynamic message that ends a stretch which stays byte for byte the same in
    // the next request (the conversation's last completed turn), or -1. Anthropic caches only
    // at breakpoints: this one moves with the conversation, so the next turn reads the whole
    // history from the cache instead of paying its prefill again.
    qsizetype cacheBreakpoint = -1;
    // Sent as OpenAI's `prompt_cache_key` where the profile uses it (EncodeOptions): requests
    // that share it (about one document, in one conversation) are routed to the same cache.
    // An opaque digest, never a path or a title. Empty: none.
    QString cacheKey;

    friend bool operator==(const ChatRequest &, const ChatRequest &) = default;
};

// Token counts in one meaning for every provider. -1 means the provider did not report it.
struct Usage {
    qint64 inputTokens = -1; // every prompt token, cached or not (Anthropic: input + cache read + cache write)
    qint64 outputTokens = -1;
    qint64 cacheReadTokens =
        -1; // OpenAI cached_tokens, DeepSeek prompt_cache_hit_tokens, Anthropic cache_read_input_tokens
    qint64 cacheWriteTokens = -1; // Anthropic cache_creation_input_tokens
    qint64 reasoningTokens = -1;

    bool isEmpty() const
    {
        return inputTokens < 0 && outputTokens < 0 && cacheReadTokens < 0 && cacheWriteTokens < 0
               && reasoningTokens < 0;
    }
    // Takes every count `later` reports; providers send cumulative figures, some in parts.
    void merge(const Usage &later)
    {
        for (auto field : {&Usage::inputTokens, &Usage::outputTokens, &Usage::cacheReadTokens, &Usage::cacheWriteTokens,
                           &Usage::reasoningTokens}) {
            if (later.*field >= 0)
                this->*field = later.*field;
        }
    }
    friend bool operator==(const Usage &, const Usage &) = default;
};

// Why an answer ended, whatever each provider calls it.
enum class FinishReason {
    None,          // none was sent: the stream ended or was cut without one
    Stop,          // the model was done: "stop", "end_turn", "stop_sequence"
    Length,        // the token limit: "length", "max_tokens"
    ContentFilter, // withheld by the provider: "content_filter", "refusal"
    ToolCalls,     // the model calls tools: "tool_calls", "function_call", "tool_use"
    Other,         // a reason not known here ("pause_turn", new ones)
};
// The provider's verbatim reason (StreamEvent::Type::Finish's text) as a FinishReason.
FinishReason finishReasonFrom(QStringView providerReason);

// One decoded piece of a streamed answer.
struct StreamEvent {
    enum class Type {
        TextDelta,      // text: the next piece of the answer
        ReasoningDelta, // text: the next piece of the model's reasoning (DeepSeek, Anthropic thinking)
        RefusalDelta,   // text: the next piece of a refusal (OpenAI)
        ToolCallDelta,  // toolIndex, toolId/toolName when first seen, text: an arguments fragment
        Usage,          // usage: the latest cumulative counts
        Finish,         // text: the provider's finish/stop reason, verbatim ("stop", "length", "end_turn", ...)
        Error,          // text: the provider's error message; errorType: its type ("overloaded_error", ...)
    };

    // A piece of the answer itself (text, reasoning, refusal, tool-call fragment): what users
    // wait for, what "first token" means and what buffer caps count.
    bool isContent() const
    {
        return type == Type::TextDelta || type == Type::ReasoningDelta || type == Type::RefusalDelta
               || type == Type::ToolCallDelta;
    }

    Type type = Type::TextDelta;
    int choice = 0; // OpenAI choice index; always 0 for Anthropic
    QString text;
    int toolIndex = -1;
    QString toolId;
    QString toolName;
    QString errorType;
    Usage usage;

    friend bool operator==(const StreamEvent &, const StreamEvent &) = default;
};

} // namespace Llm
