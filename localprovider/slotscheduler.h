#pragma once

#include <QtGlobal>

#include <deque>
#include <functional>
#include <unordered_set>

namespace LocalProvider {

// The provider's concurrency slots: a generation holds one from prefill to its last token;
// requests beyond the limit wait in FIFO order. Each request states the limit it sees (profiles
// can differ per request); a limit <= 0 means unlimited. Server thread only.
class SlotScheduler
{
public:
    using Ticket = quint64;

    // `granted` runs when the slot is free, possibly before request() returns.
    Ticket request(int slotLimit, std::function<void()> granted);
    // Gives the slot back, or leaves the queue; unknown tickets are ignored.
    void release(Ticket ticket);

    int active() const { return static_cast<int>(m_active.size()); }
    int waiting() const { return static_cast<int>(m_queue.size()); }

private:
    struct Waiting {
        Ticket ticket;
        int slotLimit;
        std::function<void()> granted;
    };
    void grantWaiting();

    std::deque<Waiting> m_queue;
    std::unordered_set<Ticket> m_active;
    Ticket m_next = 1;
    bool m_granting = false;
};

} // namespace LocalProvider
