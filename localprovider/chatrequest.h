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

// A chat request of either wire format, validated and reduced to what the simulation needs.
struct ChatRequest {
    Api api = Api::OpenAi;
    QString model;
    // OpenAI: leading system/developer messages, tools, the other messages.
    // Anthropic: tools, system, messages (the order Anthropic caches in).
    QList<PromptPart> parts;
    QString corpus;       // visible text of system and messages: what the answer is made of
    QString lastUserText; // decides the answer's language
    int maxTokens = 0;    // 0: not given
    std::optional<qint64> seed;
    double temperature = 1.0;
    int n = 1;
    bool stream = false;
    bool includeUsage = false;

    static std::expected<ChatRequest, ApiError> fromOpenAi(const QByteArray &body);
    static std::expected<ChatRequest, ApiError> fromAnthropic(const QByteArray &body);

    // Seeds choice `index`'s text from model, prompt, seed, temperature and index only:
    // max_tokens just cuts the same text, and streaming only changes the framing.
    quint64 textSeed(int index) const;
};

} // namespace LocalProvider
