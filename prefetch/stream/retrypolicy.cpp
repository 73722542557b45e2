#include "retrypolicy.h"

#include "llm/error.h"

#include <QRandomGenerator>

#include <algorithm>

namespace Prefetch {

bool RetryPolicy::isRetryable(const Llm::Error &error)
{
    using C = Llm::Error::Code;
    switch (error.code()) {
    case C::RateLimited:
    case C::ServerError: // 5xx, Anthropic's 529 overloaded among them
        return true;
    case C::ProviderError: {
        // An error event before any content is the provider refusing under load with a 200
        // already sent (Anthropic's overloaded_error, OpenAI's server_error); any other kind
        // (an invalid request found late, a policy refusal) would fail again.
        const QString detail = error.detail();
        return detail.startsWith(QLatin1String("overloaded_error")) || detail.startsWith(QLatin1String("server_error"))
               || detail.startsWith(QLatin1String("api_error")) || detail.startsWith(QLatin1String("rate_limit"));
    }
    default: return false;
    }
}

std::optional<std::chrono::milliseconds> RetryPolicy::delayBefore(int retry, const Llm::Error &error) const
{
    using std::chrono::milliseconds;
    if (retry < 1 || retry > maxRetries || !isRetryable(error))
        return std::nullopt;
    const auto retryAfter = error.retryAfter();
    if (retryAfter && *retryAfter > maxRetryAfter)
        return std::nullopt; // the provider asks for longer than anyone waits watching a spinner
    milliseconds backoff = firstDelay;
    for (int i = 1; i < retry && backoff < maxDelay; ++i)
        backoff *= 2;
    backoff = std::min(backoff, std::max(firstDelay, maxDelay));
    if (jitter > 0) {
        const double extra = QRandomGenerator::global()->generateDouble() * jitter * double(backoff.count());
        backoff += milliseconds(qint64(extra));
    }
    if (retryAfter)
        return std::max<milliseconds>(backoff, *retryAfter);
    return backoff;
}

} // namespace Prefetch
