#pragma once

#include "llm/providerprofile.h"
#include "prefetch/prompts/prompttemplate.h"

namespace Prefetch {

// What an early guess of an answer costs against what the answer costs, at the provider's
// prices: the figures a signal that knows how often it is right weighs its guesses by. An
// estimate, made before anything is sent (the tokens from estimateTokens(), the static part of
// the prompt taken as read from the provider's cache, as it is once the document's warm-up or
// first request has gone out); a provider that bills nothing is priced as the local demo engine
// is (DeepSeek's table), so that tokens still weigh what they weigh on a hosted one.
struct GuessCost {
    // A typical answer's length (an assumption, as the behaviour traces' answers: ~400 tokens).
    static constexpr int AnswerTokens = 400;

    double wrong = 0;  // a wrong guess: its prompt, and the prefix it keeps
    double answer = 0; // the answer: its prompt and its text (what the user pays for anyway)

    // The least probability of being used at which a guess pays within `wasteShare`: its
    // expected waste, (1 - p) · wrong, at most wasteShare · p · answer, what the answers it is
    // right about cost. 1 where nothing could pay (a share of 0).
    double breakEven(double wasteShare) const;

    // For `request` guessed with a prefix of `prefixTokens`.
    static GuessCost of(const RenderedRequest &request, const Llm::ProviderProfile &profile, int prefixTokens);
    // What a request naming `model` (empty: the main one) is weighed at: `profile`'s prices for
    // it, the local demo engine's where they are free.
    static Llm::Prices pricesOf(const Llm::ProviderProfile &profile, const QString &model);
};

} // namespace Prefetch
