#include "prefetchsession.h"

#include "prefetch/stream/answerreader.h"

#include "llm/clock.h"

namespace Prefetch {

PrefetchSession::PrefetchSession(Strategy strategy, Llm::ChatRequest request, QByteArray fingerprint,
                                 std::chrono::milliseconds ttl, int bufferCap, bool strong, QObject *parent)
    : QObject(parent)
    , m_strategy(strategy)
    , m_request(std::move(request))
    , m_fingerprint(std::move(fingerprint))
    , m_bufferCap(bufferCap)
    , m_createdNs(Llm::monotonicNowNs())
    , m_strong(strong)
{
    m_ttl.setSingleShot(true);
    connect(&m_ttl, &QTimer::timeout, this, [this] { finish(State::Expired); });
    if (ttl.count() > 0)
        m_ttl.start(ttl);
}

const char *PrefetchSession::stateName(State state)
{
    switch (state) {
    case State::Pending: return "pending";
    case State::Streaming: return "streaming";
    case State::Complete: return "complete";
    case State::Consumed: return "consumed";
    case State::Cancelled: return "cancelled";
    case State::Expired: return "expired";
    case State::Failed: return "failed";
    }
    return "unknown";
}

void PrefetchSession::start(AnswerFetch *answer, int limit)
{
    Q_ASSERT(m_state == State::Pending && !m_answer);
    m_answer = answer;
    answer->setParent(this);
    m_startedNs = Llm::monotonicNowNs();
    connect(answer, &AnswerFetch::eventReceived, this, &PrefetchSession::onEvent);
    connect(answer, &AnswerFetch::finished, this, [this] { setState(State::Complete); });
    connect(answer, &AnswerFetch::waitingForLimit, this, [this] { setState(State::Complete); });
    connect(answer, &AnswerFetch::failed, this, [this](const Llm::Error &) { finish(State::Failed); });
    connect(answer, &AnswerFetch::restarted, this, [this] {
        // What was buffered is void: the answer is asked for again whole.
        m_buffer.clear();
        m_firstTokenNs = -1;
    });
    setState(State::Streaming);
    answer->start(limit);
}

void PrefetchSession::upgrade(int limit, bool strong)
{
    m_strong = m_strong || strong;
    if (!m_answer || !isLive())
        return;
    if (m_state == State::Complete && m_answer->isWaitingForLimit())
        setState(State::Streaming); // its continuation is on its way
    m_answer->extend(limit, true);
}

void PrefetchSession::onEvent(const Llm::StreamEvent &event)
{
    const bool first = m_firstTokenNs < 0 && event.isContent();
    if (first)
        m_firstTokenNs = Llm::monotonicNowNs();
    m_buffer.append(event);
    // Back-pressure rather than loss: stop reading; consume() resumes it. An answer bounded at
    // the provider within the cap is read to its end: that end is the prefix it asked for.
    if (m_buffer.tokenCount() >= m_bufferCap && m_answer && !m_answer->isPaused() && m_answer->limit() > m_bufferCap)
        m_answer->setPaused(true);
    if (first)
        emit firstTokenReceived();
}

AnswerReader *PrefetchSession::consume(qint64 activatedNs, QObject *owner)
{
    Q_ASSERT(m_state == State::Streaming || m_state == State::Complete);
    m_ttl.stop();
    AnswerFetch *answer = m_answer;
    if (answer)
        disconnect(answer, nullptr, this, nullptr);
    m_answer = nullptr;
    const auto origin = m_firstTokenNs >= 0 ? AnswerReader::Origin::Hit : AnswerReader::Origin::PartialHit;
    auto *handle = new AnswerReader(m_strategy, origin, answer, std::move(m_buffer), activatedNs, owner, m_createdNs);
    m_buffer.clear();
    setState(State::Consumed);
    return handle;
}

void PrefetchSession::finish(State terminal)
{
    if (!isLive())
        return;
    m_ttl.stop();
    if (m_answer) {
        disconnect(m_answer, nullptr, this, nullptr);
        m_answer->cancel();
    }
    setState(terminal);
}

void PrefetchSession::setState(State state)
{
    if (m_state == state)
        return;
    m_state = state;
    emit stateChanged(state);
    if (!isLive())
        emit ended(state);
}

} // namespace Prefetch
