#pragma once

#include <QDeadlineTimer>
#include <QObject>
#include <QTimer>

#include <chrono>
#include <optional>

namespace Prefetch {

// How long speculation keeps away from a provider that answered 429 (issue 37: "rate-limit
// answers from a speculation back speculation off for that provider, never the user's request").
// A provider's limit counts every request of the account, so a guess sent into a full window
// only takes a place the user's next request needs. The back-off lasts what the provider's
// Retry-After says; without one, 15 s, doubled by each 429 that follows (up to 5 minutes), and
// back to 15 s once a request goes through. The engine suspends speculation while it holds.
// GUI thread.
class RateLimitBackoff : public QObject
{
    Q_OBJECT

public:
    static constexpr std::chrono::seconds First{15};
    static constexpr std::chrono::seconds Longest{300};

    explicit RateLimitBackoff(QObject *parent = nullptr);

    // A 429, with the provider's Retry-After if it sent one. A later end than the current one
    // extends it; an earlier one does not shorten it.
    void rateLimited(std::optional<std::chrono::seconds> retryAfter);
    // A request went through: the next back-off without a Retry-After starts from First again.
    void succeeded() { m_streak = 0; }
    // Ends it now (another provider was chosen).
    void clear();

    bool isActive() const { return m_timer.isActive(); }
    // Until the back-off ends; zero when none holds.
    std::chrono::milliseconds remaining() const;

signals:
    void activeChanged(bool active);

private:
    QTimer m_timer;
    QDeadlineTimer m_until;
    int m_streak = 0;
};

} // namespace Prefetch
