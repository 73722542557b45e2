#pragma once

#include <QHash>
#include <QtGlobal>

#include <functional>
#include <map>
#include <optional>

namespace Prefetch {

// Money in the money budget's integer units: millionths of the currency (a hundredth of a cent
// is below any one request's price). Negative money is none.
qint64 microUnits(double money);

// The hourly token budget for prefetch traffic (PREFETCH.md rule 6): a prefetch reserves an
// estimate before it starts and reconciles it with what it really cost when it ends; a
// reservation that would take the last hour's total past the limit is refused.
//
// Charges are dated by their reservation and leave the window one hour later. Reconciled
// charges are summed into 10-second buckets (a charge may stay up to 10 s longer than an hour,
// never shorter: the budget errs on the side of spending less), so memory stays bounded at
// about 360 buckets however many prefetches run. Open reservations are held one by one; one
// that is still open after an hour is taken for leaked and dropped, and at most
// kMaxOpenReservations are held (beyond that reserve() refuses).
//
// A plain value-like class, not thread-safe: the engine owns it and uses it on the GUI thread.
class TokenBudget
{
public:
    // Milliseconds on a monotonic clock. Tests inject their own; the default is steady_clock.
    using Clock = std::function<qint64()>;

    static constexpr qint64 WindowMs = 60 * 60 * 1000;
    static constexpr qint64 BucketMs = 10 * 1000;
    static constexpr qsizetype MaxOpenReservations = 4096;

    explicit TokenBudget(qint64 hourlyLimit = 200'000, Clock clock = {});

    // 0 (or less) = unlimited. Open reservations and past charges are kept.
    void setLimit(qint64 hourlyLimit);
    qint64 limit() const;

    // Reserves an estimate (negative counts as 0) before a prefetch starts. nullopt when
    // used() + estimate would pass the limit, or when too many reservations are open.
    std::optional<quint64> reserve(qint64 estimatedTokens);
    // Replaces a reservation's estimate with what the prefetch really cost (a cancelled stream
    // costs its input tokens plus the tokens received). Unknown, already reconciled or expired
    // ids are ignored. The charge keeps the reservation's timestamp.
    void reconcile(quint64 reservationId, qint64 actualTokens);

    qint64 used() const;        // charged in the last hour, open reservations included
    qint64 remaining() const;   // max(0, limit - used), or -1 when unlimited
    qint64 outstanding() const; // held by reservations not reconciled yet
    qsizetype openReservations() const;
    // Buckets plus open reservations: what the budget holds in memory (for tests and logs).
    qsizetype entryCount() const;

private:
    struct Reservation {
        qint64 at = 0;
        qint64 tokens = 0;
    };
    struct Bucket {
        qint64 latest = 0; // newest charge in the bucket: the bucket leaves the window with it
        qint64 tokens = 0;
    };

    qint64 now() const;
    // Drops what has left the window. const because reading the budget also slides the window;
    // the containers are caches of "the last hour" and mutable for that reason.
    void prune(qint64 now) const;

    Clock m_clock;
    qint64 m_limit = 0;
    quint64 m_nextId = 1;
    mutable std::map<qint64, Bucket> m_buckets; // by bucket index (timestamp / BucketMs)
    mutable QHash<quint64, Reservation> m_open;
    mutable qint64 m_charged = 0;     // sum of m_buckets
    mutable qint64 m_outstanding = 0; // sum of m_open
};

} // namespace Prefetch
