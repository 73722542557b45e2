#include "keyring.h"

#include "providerprofile.h"

#include <QCryptographicHash>
#include <QHash>
#include <QList>

#include <algorithm>
#include <mutex>

namespace Llm {

namespace {

struct RingState {
    QByteArray keysDigest; // another set of keys starts a new ring
    int current = 0;
    QList<KeyRing::Clock::time_point> restingUntil; // by key index
};

std::mutex ringMutex;
QHash<QString, RingState> &rings()
{
    static QHash<QString, RingState> all;
    return all;
}

QByteArray digestOf(const QStringList &keys)
{
    // Only to tell key sets apart: the digest never leaves the process.
    return QCryptographicHash::hash(keys.join(QLatin1Char('\n')).toUtf8(), QCryptographicHash::Sha256);
}

// The ring of `profile` for `keys`, fresh when the keys changed.
RingState &ringFor(const ProviderProfile &profile, const QStringList &keys)
{
    RingState &ring = rings()[profile.id];
    const QByteArray digest = digestOf(keys);
    if (ring.keysDigest != digest || ring.restingUntil.size() != keys.size()) {
        ring = RingState{};
        ring.keysDigest = digest;
        ring.restingUntil.fill(KeyRing::Clock::time_point{}, keys.size());
    }
    return ring;
}

// From `from` round the ring, the first key not resting at `now`; -1 when all rest.
int firstAwake(const RingState &ring, int from, KeyRing::Clock::time_point now)
{
    const int n = int(ring.restingUntil.size());
    for (int i = 0; i < n; ++i) {
        const int index = (from + i) % n;
        if (ring.restingUntil[index] <= now)
            return index;
    }
    return -1;
}

} // namespace

KeyRing &KeyRing::instance()
{
    static KeyRing ring;
    return ring;
}

QStringList KeyRing::keysOf(const ProviderProfile &profile)
{
    QStringList keys;
    for (const QString &key : QStringList{profile.apiKey} + profile.moreApiKeys) {
        const QString trimmed = key.trimmed();
        if (!trimmed.isEmpty() && !keys.contains(trimmed))
            keys << trimmed;
    }
    return keys;
}

QString KeyRing::current(const ProviderProfile &profile, Clock::time_point now)
{
    const QStringList keys = keysOf(profile);
    if (keys.size() <= 1)
        return keys.value(0); // one key or none: nothing to choose, no state kept
    const std::lock_guard lock(ringMutex);
    RingState &ring = ringFor(profile, keys);
    int index = firstAwake(ring, ring.current, now);
    if (index < 0) {
        const auto soonest = std::min_element(ring.restingUntil.cbegin(), ring.restingUntil.cend());
        index = int(soonest - ring.restingUntil.cbegin());
    }
    ring.current = index;
    return keys.at(index);
}

bool KeyRing::rateLimited(const ProviderProfile &profile, const QString &key,
                          std::optional<std::chrono::seconds> retryAfter, Clock::time_point now)
{
    const QStringList keys = keysOf(profile);
    const int index = int(keys.indexOf(key.trimmed()));
    if (keys.size() <= 1 || index < 0)
        return false;
    const std::lock_guard lock(ringMutex);
    RingState &ring = ringFor(profile, keys);
    const auto rest = retryAfter && retryAfter->count() > 0 ? *retryAfter : DefaultRest;
    ring.restingUntil[index] = std::max(ring.restingUntil[index], now + rest);
    const int next = firstAwake(ring, (index + 1) % int(keys.size()), now);
    if (next < 0)
        return false;
    ring.current = next;
    return true;
}

QString KeyRing::describe(const ProviderProfile &profile, const QString &key)
{
    const QStringList keys = keysOf(profile);
    if (keys.size() <= 1)
        return {};
    return QStringLiteral("key %1 of %2").arg(keys.indexOf(key.trimmed()) + 1).arg(keys.size());
}

void KeyRing::reset()
{
    const std::lock_guard lock(ringMutex);
    rings().clear();
}

} // namespace Llm
