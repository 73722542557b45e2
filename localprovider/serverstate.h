#pragma once

#include "faultspec.h"
#include "latencyprofile.h"
#include "prefixcache.h"
#include "serverconfig.h"
#include "slotscheduler.h"

#include <QByteArray>
#include <QHash>
#include <QString>

#include <deque>
#include <mutex>
#include <optional>

namespace LocalProvider {

// What all requests of one Server share. Scheduler and cache belong to the server thread; the
// counters and first-token times are also read from other threads, hence the mutex.
class ServerState
{
public:
    explicit ServerState(ServerConfig config);

    const ServerConfig &config() const { return m_config; }
    const FaultSpec &fault() const { return m_fault; }
    SlotScheduler &scheduler() { return m_scheduler; }
    PrefixCache &cache() { return m_cache; }
    quint64 nextSerial() { return ++m_serial; }
    // fail-first=N: counts a request with the spec keyed `key`; true while it is one of the
    // first `n`. At most MaxFailFirstKeys keys are remembered (the oldest is forgotten first):
    // the map must not grow with whatever clients send.
    bool countFaulted(const QString &key, int n);
    static constexpr qsizetype MaxFailFirstKeys = 256;

    template <typename F>
    void updateStats(F &&update)
    {
        std::lock_guard lock(m_mutex);
        update(m_stats);
    }
    Stats stats() const;
    // Adds to the billed totals and to those of `purpose`. Beyond MaxPurposes distinct purposes
    // the rest are billed under "other": the map must not grow with whatever clients send.
    // And to those of `model`, one of the provider's own.
    void bill(const QString &purpose, const QString &model, const BilledTokens &tokens);
    static constexpr qsizetype MaxPurposes = 64;

    // Counts a request of `promptTokens` against `profile`'s limits per minute; nullopt when it
    // is admitted, else the seconds until the window has room for it (it is not counted).
    // Server thread only.
    std::optional<int> admitRate(const LatencyProfile &profile, qint64 promptTokens);

    // Keeps `request` when the configuration says so (ServerConfig::keepRequests), within the
    // bounds of ReceivedRequests; a copy of what is kept may be read from any thread.
    void keepRequest(ReceivedRequest request);
    ReceivedRequests receivedRequests() const;

    void recordFirstToken(const QByteArray &requestId, qint64 steadyNs);
    qint64 firstTokenWrittenNs(const QByteArray &requestId) const;

private:
    ServerConfig m_config;
    FaultSpec m_fault;
    SlotScheduler m_scheduler;
    PrefixCache m_cache;
    quint64 m_serial = 0;
    QHash<QString, qint64> m_faulted; // fail-first: requests seen per key (server thread)
    struct Admitted {
        qint64 atMs;
        qint64 promptTokens;
    };
    std::deque<Admitted> m_minute; // the requests admitted in the last minute (server thread)
    qint64 m_minuteTokens = 0;
    std::deque<QString> m_faultedOrder;

    mutable std::mutex m_mutex;
    Stats m_stats;
    ReceivedRequests m_received;
    QHash<QByteArray, qint64> m_firstToken;
    std::deque<QByteArray> m_firstTokenOrder; // oldest first, to bound m_firstToken
};

} // namespace LocalProvider
