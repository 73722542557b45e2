#pragma once

#include <QString>
#include <QStringList>

#include <chrono>
#include <optional>

namespace Llm {

struct ProviderProfile;

// Which of a provider's main API keys a request sends, when the user gave it several
// (ProviderProfile::apiKey, then moreApiKeys): the one in use until the provider refuses it
// with a 429, then the next one that is not resting, round the ring. A refused key rests for
// the provider's Retry-After, or a minute without one, and takes its turn again after that.
//
// Requests stay on one key while it works, rather than taking turns on every request as a
// plain round-robin would: the prompt caches of OpenAI, DeepSeek and Anthropic are kept per
// organisation or account, and keys of different accounts share no cache, so alternating would
// turn every warm-up and prefetch into a miss. The prefetch key is not part of the ring.
//
// One ring per provider id and set of keys, shared by every stream of the process (a rate limit
// belongs to the key, not to the request). Thread-safe; times from a steady clock.
class KeyRing
{
public:
    using Clock = std::chrono::steady_clock;

    static KeyRing &instance();

    // The main keys of `profile`, in order, without empty ones or repeats.
    static QStringList keysOf(const ProviderProfile &profile);
    // The key a request to `profile` sends now: the one in use, or past it the first that is
    // not resting; when every key rests, the one whose rest ends first. Empty without keys.
    QString current(const ProviderProfile &profile, Clock::time_point now = Clock::now());
    // `key` was refused with a 429: it rests for `retryAfter` (DefaultRest without one) and the
    // ring moves past it. True when another key that is not resting is there to use now.
    bool rateLimited(const ProviderProfile &profile, const QString &key, std::optional<std::chrono::seconds> retryAfter,
                     Clock::time_point now = Clock::now());
    // "key 2 of 3" for logs, never the key itself; empty with a single key.
    static QString describe(const ProviderProfile &profile, const QString &key);
    // Forgets every ring (tests).
    void reset();

    static constexpr std::chrono::seconds DefaultRest{60};

private:
    KeyRing() = default;
};

} // namespace Llm
