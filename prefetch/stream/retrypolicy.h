#pragma once

#include <chrono>
#include <optional>

namespace Llm {
class Error;
}

namespace Prefetch {

// When a foreground answer that failed before its first token is asked for again, and after
// how long: capped exponential back-off (firstDelay, ×2 each retry, at most maxDelay, plus up
// to `jitter` of it at random so that clients rejected together do not come back together),
// or the provider's Retry-After when it is longer. A provider that asks for more than
// maxRetryAfter is not retried: the user reads its error, with the time it gave. Only a busy
// provider is retried (429, 5xx, Anthropic's 529 and in-stream overloaded_error); a key, a
// request or a timeout that failed once fails again. A value type, held in Settings; tests use
// millisecond delays.
struct RetryPolicy {
    int maxRetries = 3; // 0: never retry
    std::chrono::milliseconds firstDelay{1000};
    std::chrono::milliseconds maxDelay{8000};
    std::chrono::milliseconds maxRetryAfter{30000};
    double jitter = 0.1; // fraction of the back-off added at random, 0..jitter

    // The error is one a retry can cure (the provider was busy), whatever the policy.
    static bool isRetryable(const Llm::Error &error);
    // The wait before retry number `retry` (1 for the first) after `error`, or nullopt when
    // that retry is not made (not retryable, past maxRetries, Retry-After past its cap).
    std::optional<std::chrono::milliseconds> delayBefore(int retry, const Llm::Error &error) const;
};

} // namespace Prefetch
