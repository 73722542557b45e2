#pragma once

#include <QList>
#include <QString>

#include <expected>

namespace LocalProvider {

// Faults to inject into one request, from `--fault SPEC` or `X-Headstart-Fault: SPEC`.
// Token positions count content tokens already delivered, across all choices.
struct FaultSpec {
    int status = 0;         // status=N: answer with this error status (400..599)
    int retryAfterSec = -1; // retry-after=S: Retry-After header on that answer
    int dropAfter = -1;     // drop-after=N: close the connection abruptly after N tokens
    int stallMs = 0;        // stall=MS@N: pause MS ms after N tokens
    int stallAt = -1;
    int malformedAt = -1;        // malformed-at=N: one SSE data line that is not JSON after N tokens
    int errorAt = -1;            // error-at=N: an in-stream error after N tokens, then the end
    bool contextTooLong = false; // context-too-long: refuse as if the prompt did not fit
    // flood=KIND: a response without end (Flood): answer text, new choices, new tool calls,
    // keep-alive comments, or an error body that never closes.
    enum class Flood { None, Text, Choices, Tools, Comments, Error };
    Flood flood = Flood::None;
    // refuse=FEATURE[+FEATURE…]: a 400 in the provider's words for a request that uses one of
    // these, as today's models refuse them (docs/providers.md): `prefill` (a continuation,
    // Claude 4.6+), `temperature` (Claude Opus 4.7+), `thinking-budget` (budget_tokens, Opus
    // 4.7+), `max-tokens` (OpenAI's reasoning models want max_completion_tokens).
    bool refusePrefill = false;
    bool refuseTemperature = false;
    bool refuseThinkingBudget = false;
    bool refuseMaxTokens = false;
    // fail-first=N[@KEY]: the other faults apply to the first N requests with this spec (or
    // with the same KEY), later ones are served without them: a fault a client's retry cures.
    int failFirst = -1;
    QString failFirstKey;

    static std::expected<FaultSpec, QString> parse(QStringView spec);
    // `override`'s settings win; the rest come from this one.
    FaultSpec mergedWith(const FaultSpec &override) const;
    // Any fault at all (fail-first alone is none).
    bool isEmpty() const;
};

} // namespace LocalProvider
