#pragma once

#include "error.h"
#include "llmtypes.h"
#include "streamdecoder.h"

#include <QByteArray>

#include <expected>

namespace Llm {

struct EncodeOptions {
    // OpenAI's newer models take `max_completion_tokens`; DeepSeek, Qwen, Ollama and llama.cpp
    // take `max_tokens`.
    bool useMaxCompletionTokens = false;
    // Ask OpenAI-compatible servers for a final usage chunk (`stream_options.include_usage`).
    bool includeUsage = true;
};

// Wire JSON for one request. Keys are written in a fixed order with the static prefix first
// (model, tools, system, static messages), then the dynamic messages, then the sampling
// parameters, so two requests that share a static prefix share those bytes exactly. Nothing
// volatile (time, random ids) is written. Anthropic bodies carry `cache_control` breakpoints
// after the tools, the system prompt and the last static message (at most 4 in all).
std::expected<QByteArray, Error> encodeRequest(ApiFormat format, const ChatRequest &request,
                                               const EncodeOptions &options = {},
                                               const QString &providerName = {});

} // namespace Llm
