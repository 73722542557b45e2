#include "serverstate.h"

#include <chrono>

#include "log.h"

#include <spdlog/spdlog.h>

namespace LocalProvider {

namespace {
constexpr size_t MaxFirstTokenIds = 10000;
}

ServerState::ServerState(ServerConfig config)
    : m_config(std::move(config))
    , m_cache(m_config.profile.cacheCapacityBlocks)
{
    if (!m_config.fault.isEmpty()) {
        const auto fault = FaultSpec::parse(m_config.fault);
        if (fault)
            m_fault = *fault;
        else
            log().error("ignoring the configured fault spec: {}", fault.error().toStdString());
    }
}

bool ServerState::countFaulted(const QString &key, int n)
{
    auto it = m_faulted.find(key);
    if (it == m_faulted.end()) {
        if (qsizetype(m_faultedOrder.size()) >= MaxFailFirstKeys) {
            m_faulted.remove(m_faultedOrder.front());
            m_faultedOrder.pop_front();
        }
        m_faultedOrder.push_back(key);
        it = m_faulted.insert(key, 0);
    }
    return ++*it <= n;
}

Stats ServerState::stats() const
{
    std::lock_guard lock(m_mutex);
    return m_stats;
}

void ServerState::bill(const QString &purpose, const QString &model, const BilledTokens &tokens)
{
    std::lock_guard lock(m_mutex);
    m_stats.billed += tokens;
    const bool known = m_stats.billedByPurpose.contains(purpose);
    const QString key = known || m_stats.billedByPurpose.size() < MaxPurposes ? purpose : QStringLiteral("other");
    m_stats.billedByPurpose[key] += tokens;
    m_stats.billedByModel[model] += tokens;
}

std::optional<int> ServerState::admitRate(const LatencyProfile &profile, qint64 promptTokens)
{
    if (profile.requestsPerMinute <= 0 && profile.inputTokensPerMinute <= 0)
        return std::nullopt;
    const qint64 now = std::chrono::duration_cast<std::chrono::milliseconds>(
                           std::chrono::steady_clock::now().time_since_epoch())
                           .count();
    while (!m_minute.empty() && m_minute.front().atMs <= now - 60'000) {
        m_minuteTokens -= m_minute.front().promptTokens;
        m_minute.pop_front();
    }
    const bool requestsFull = profile.requestsPerMinute > 0 && qint64(m_minute.size()) >= profile.requestsPerMinute;
    const bool tokensFull = profile.inputTokensPerMinute > 0 && !m_minute.empty()
                            && m_minuteTokens + promptTokens > profile.inputTokensPerMinute;
    if (requestsFull || tokensFull) {
        // Until the oldest request leaves the window: whole seconds, at least one.
        const qint64 waitMs = m_minute.front().atMs + 60'000 - now;
        return int(std::max<qint64>(1, (waitMs + 999) / 1000));
    }
    m_minute.push_back({now, promptTokens});
    m_minuteTokens += promptTokens;
    return std::nullopt;
}

void ServerState::keepRequest(ReceivedRequest request)
{
    if (!m_config.keepRequests)
        return;
    std::lock_guard lock(m_mutex);
    if (m_received.requests.size() >= ReceivedRequests::MaxCount
        || m_received.bytes + request.body.size() > ReceivedRequests::MaxBytes) {
        ++m_received.notKept;
        return;
    }
    m_received.bytes += request.body.size();
    m_received.requests.append(std::move(request));
}

ReceivedRequests ServerState::receivedRequests() const
{
    std::lock_guard lock(m_mutex);
    return m_received;
}

void ServerState::recordFirstToken(const QByteArray &requestId, qint64 steadyNs)
{
    std::lock_guard lock(m_mutex);
    if (!m_firstToken.contains(requestId))
        m_firstTokenOrder.push_back(requestId);
    m_firstToken.insert(requestId, steadyNs);
    while (m_firstTokenOrder.size() > MaxFirstTokenIds) {
        m_firstToken.remove(m_firstTokenOrder.front());
        m_firstTokenOrder.pop_front();
    }
}

qint64 ServerState::firstTokenWrittenNs(const QByteArray &requestId) const
{
    std::lock_guard lock(m_mutex);
    return m_firstToken.value(requestId, -1);
}

} // namespace LocalProvider
