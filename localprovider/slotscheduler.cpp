#include "slotscheduler.h"

namespace LocalProvider {

SlotScheduler::Ticket SlotScheduler::request(int slotLimit, std::function<void()> granted)
{
    const Ticket ticket = m_next++;
    m_queue.push_back({ticket, slotLimit, std::move(granted)});
    grantWaiting();
    return ticket;
}

void SlotScheduler::release(Ticket ticket)
{
    if (m_active.erase(ticket) == 0) {
        for (auto it = m_queue.begin(); it != m_queue.end(); ++it) {
            if (it->ticket == ticket) {
                m_queue.erase(it);
                break;
            }
        }
        return;
    }
    grantWaiting();
}

void SlotScheduler::grantWaiting()
{
    // A granted callback may release or request again; the outer loop picks those changes up.
    if (m_granting)
        return;
    m_granting = true;
    bool progress = true;
    while (progress) {
        progress = false;
        for (auto it = m_queue.begin(); it != m_queue.end(); ++it) {
            if (it->slotLimit > 0 && active() >= it->slotLimit)
                continue;
            Waiting w = std::move(*it);
            m_queue.erase(it);
            m_active.insert(w.ticket);
            w.granted();
            progress = true;
            break;
        }
    }
    m_granting = false;
}

} // namespace LocalProvider
