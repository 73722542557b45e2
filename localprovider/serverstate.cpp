#include "serverstate.h"

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
