// Engine, what it reports: the live sessions, and the snapshot the metrics panel, the CLI and
// the tests read (its keys: docs/prefetch.md "Snapshot keys"). Apart from engine.cpp, which was
// over its size.
#include "engine.h"

#include "prefetchsession.h"

#include <QJsonArray>

namespace Prefetch {

QList<PrefetchSession *> Engine::liveSessions() const
{
    QList<PrefetchSession *> out;
    for (const QPointer<PrefetchSession> &s : m_sessions) {
        if (s && s->isLive())
            out.append(s);
    }
    return out;
}

QJsonObject Engine::snapshot() const
{
    QJsonArray sessions;
    for (PrefetchSession *s : liveSessions()) {
        sessions.append(QJsonObject{
            {QStringLiteral("strategy"), QString::fromLatin1(strategyId(s->strategy()))},
            {QStringLiteral("state"), QString::fromLatin1(PrefetchSession::stateName(s->state()))},
            {QStringLiteral("buffered_tokens"), qint64(s->bufferedTokens())},
            {QStringLiteral("paused_at_cap"), s->isPausedAtCap()},
        });
    }
    return QJsonObject{
        {QStringLiteral("provider"), m_profile.id},
        {QStringLiteral("metrics"), m_metrics.snapshot()},
        {QStringLiteral("lanes"), QJsonObject{{QStringLiteral("foreground_in_flight"), foregroundInFlight()},
                                              {QStringLiteral("foreground_queued"), int(m_foregroundQueue.size())},
                                              {QStringLiteral("prefetch_in_flight"), prefetchInFlight()},
                                              {QStringLiteral("prefetch_queued"), prefetchQueued()},
                                              {QStringLiteral("side_in_flight"), sideRequestsInFlight()}}},
        {QStringLiteral("budget"), QJsonObject{{QStringLiteral("limit"), m_budget.limit()},
                                               {QStringLiteral("used"), m_budget.used()},
                                               {QStringLiteral("remaining"), m_budget.remaining()},
                                               {QStringLiteral("moneyLimit"), double(m_moneyBudget.limit()) / 1e6},
                                               {QStringLiteral("moneyUsed"), double(m_moneyBudget.used()) / 1e6}}},
        {QStringLiteral("sessions"), sessions},
        {QStringLiteral("responseCache"), m_cached.snapshot()},
    };
}

} // namespace Prefetch
