#include "budget.h"

#include "log.h"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <chrono>
#include <cmath>

namespace Prefetch {

qint64 microUnits(double money)
{
    return qint64(std::llround(std::max(0.0, money) * 1e6));
}

namespace {

qint64 steadyMs()
{
    using namespace std::chrono;
    return duration_cast<milliseconds>(steady_clock::now().time_since_epoch()).count();
}

// Floor division, so that an injected clock may start below zero.
qint64 bucketOf(qint64 at)
{
    return at >= 0 ? at / TokenBudget::BucketMs : -((-at + TokenBudget::BucketMs - 1) / TokenBudget::BucketMs);
}

} // namespace

TokenBudget::TokenBudget(qint64 hourlyLimit, Clock clock)
    : m_clock(clock ? std::move(clock) : Clock(steadyMs))
    , m_limit(qMax<qint64>(0, hourlyLimit))
{
}

void TokenBudget::setLimit(qint64 hourlyLimit)
{
    m_limit = qMax<qint64>(0, hourlyLimit);
}

qint64 TokenBudget::limit() const
{
    return m_limit;
}

qint64 TokenBudget::now() const
{
    return m_clock();
}

void TokenBudget::prune(qint64 t) const
{
    // An entry dated `at` is in the window while t - at < WindowMs.
    while (!m_buckets.empty() && t - m_buckets.begin()->second.latest >= WindowMs) {
        m_charged -= m_buckets.begin()->second.tokens;
        m_buckets.erase(m_buckets.begin());
    }
    // Reservations are few (the prefetch lane holds a handful); a full scan is cheap, and only
    // reservations older than an hour — leaked by a caller that never reconciled — go here.
    for (auto it = m_open.begin(); it != m_open.end();) {
        if (t - it->at >= WindowMs) {
            log().warn("budget: reservation {} expired unreconciled after an hour ({} tokens)", it.key(), it->tokens);
            m_outstanding -= it->tokens;
            it = m_open.erase(it);
        } else {
            ++it;
        }
    }
}

std::optional<quint64> TokenBudget::reserve(qint64 estimatedTokens)
{
    const qint64 t = now();
    prune(t);
    const qint64 estimate = qMax<qint64>(0, estimatedTokens);
    if (m_limit > 0 && m_charged + m_outstanding + estimate > m_limit)
        return std::nullopt;
    if (m_open.size() >= MaxOpenReservations) {
        log().warn("budget: {} reservations open, refusing more (are reservations reconciled?)", m_open.size());
        return std::nullopt;
    }
    const quint64 id = m_nextId++;
    m_open.insert(id, Reservation{t, estimate});
    m_outstanding += estimate;
    return id;
}

void TokenBudget::reconcile(quint64 reservationId, qint64 actualTokens)
{
    const qint64 t = now();
    prune(t);
    const auto it = m_open.constFind(reservationId);
    if (it == m_open.cend())
        return;
    const Reservation r = *it;
    m_open.erase(it);
    m_outstanding -= r.tokens;

    const qint64 actual = qMax<qint64>(0, actualTokens);
    if (actual == 0)
        return; // nothing to charge, and no bucket to keep
    Bucket &b = m_buckets[bucketOf(r.at)];
    b.latest = b.tokens == 0 ? r.at : qMax(b.latest, r.at);
    b.tokens += actual;
    m_charged += actual;
}

qint64 TokenBudget::used() const
{
    prune(now());
    return m_charged + m_outstanding;
}

qint64 TokenBudget::remaining() const
{
    if (m_limit <= 0)
        return -1;
    // A reconciled prefetch may cost more than its estimate and take used() past the limit;
    // -1 means "unlimited", so an overdraft reads as 0.
    return qMax<qint64>(0, m_limit - used());
}

qint64 TokenBudget::outstanding() const
{
    prune(now());
    return m_outstanding;
}

qsizetype TokenBudget::openReservations() const
{
    prune(now());
    return m_open.size();
}

qsizetype TokenBudget::entryCount() const
{
    prune(now());
    return qsizetype(m_buckets.size()) + m_open.size();
}

} // namespace Prefetch
