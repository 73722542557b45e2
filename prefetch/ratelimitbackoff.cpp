#include "ratelimitbackoff.h"

#include <algorithm>

namespace Prefetch {

RateLimitBackoff::RateLimitBackoff(QObject *parent)
    : QObject(parent)
{
    m_timer.setSingleShot(true);
    m_timer.setTimerType(Qt::CoarseTimer);
    connect(&m_timer, &QTimer::timeout, this, [this] { emit activeChanged(false); });
}

void RateLimitBackoff::rateLimited(std::optional<std::chrono::seconds> retryAfter)
{
    using namespace std::chrono;
    seconds wait = retryAfter.value_or(First * (1 << std::min(m_streak, 5)));
    wait = std::clamp(wait, seconds(1), Longest);
    ++m_streak;
    const bool was = isActive();
    if (was && m_until.remainingTimeAsDuration() >= wait)
        return;
    m_until = QDeadlineTimer(wait);
    m_timer.start(duration_cast<milliseconds>(wait));
    if (!was)
        emit activeChanged(true);
}

void RateLimitBackoff::clear()
{
    m_streak = 0;
    if (!isActive())
        return;
    m_timer.stop();
    emit activeChanged(false);
}

std::chrono::milliseconds RateLimitBackoff::remaining() const
{
    return isActive() ? std::chrono::duration_cast<std::chrono::milliseconds>(m_until.remainingTimeAsDuration())
                      : std::chrono::milliseconds(0);
}

} // namespace Prefetch
