#pragma once

#include "error.h"
#include "requestencoder.h"

#include <QString>

#include <optional>

namespace Llm {

// A part of a request a model refused with a 400 although the model catalogue did not say it
// would (a model newer than the catalogue, a gateway's model, a provider that changed its
// rules). Learned per base URL and model (Gui::AppSettings keeps it across restarts), so the
// feature is not sent again; the answer the user asked for is asked again at once without it
// (Prefetch::AnswerFetch).
enum class RefusedFeature {
    Continuation,       // an assistant prefill, prefix or partial message
    Temperature,        // a sampling parameter
    ThinkingBudget,     // Anthropic's thinking {type: enabled, budget_tokens}: adaptive only
    MaxTokensParameter, // `max_tokens`: the model wants `max_completion_tokens`
};

// The feature a provider's refusal names, read from its message (the providers' own words,
// docs/providers.md); nullopt when it names none of them (a plain bad request).
std::optional<RefusedFeature> refusedFeature(const Error &error);

// `options` without the refused feature.
void withoutFeature(EncodeOptions &options, RefusedFeature feature);

// A stable name for settings files and logs ("continuation", "temperature", …) and back.
const char *featureId(RefusedFeature feature);
std::optional<RefusedFeature> featureFromId(QStringView id);

} // namespace Llm
