#include "answerreader.h"

#include "llm/clock.h"

namespace Prefetch {

AnswerReader::AnswerReader(Strategy strategy, Origin origin, AnswerFetch *stream, EventBuffer buffered,
                           qint64 activatedNs, QObject *parent, qint64 guessedNs)
    : QObject(parent)
    , m_strategy(strategy)
    , m_origin(origin)
    , m_stream(stream)
    , m_pending(std::move(buffered))
    , m_activatedNs(activatedNs)
    , m_guessedNs(guessedNs)
{
    if (stream) {
        stream->setParent(this);
        if (stream->isDone())
            m_pendingEnd = stream->error();
        // Live events are queued behind the replay until it has run; see deliverBuffered().
        connect(stream, &AnswerFetch::eventReceived, this, &AnswerReader::onLiveEvent);
        connect(stream, &AnswerFetch::finished, this, &AnswerReader::onLiveFinished);
        connect(stream, &AnswerFetch::failed, this, &AnswerReader::onLiveFailed);
        connect(stream, &AnswerFetch::restarted, this, &AnswerReader::onRestarted);
        connect(stream, &AnswerFetch::continuationStarted, this, &AnswerReader::continuationStarted);
        // Nothing was delivered before a retry, so it cannot overtake the replay of anything.
        connect(stream, &AnswerFetch::retrying, this,
                [this](const Llm::Error &error, std::chrono::milliseconds delay, int attempt, int attempts) {
                    if (!m_done)
                        emit retrying(error, delay, attempt, attempts);
                });
    } else {
        m_pendingEnd = std::optional<Llm::Error>();
    }
    // From the event loop: the caller gets the handle and connects before anything is emitted.
    QMetaObject::invokeMethod(this, &AnswerReader::deliverBuffered, Qt::QueuedConnection);
}

AnswerReader::~AnswerReader()
{
    // The stream is our child and closes its connection when destroyed; no signals from here.
    if (m_stream)
        disconnect(m_stream, nullptr, this, nullptr);
}

double AnswerReader::perceivedLatencyMs() const
{
    return m_firstShownNs < 0 ? -1.0 : double(m_firstShownNs - m_activatedNs) / 1e6;
}

void AnswerReader::markFirstShown()
{
    if (m_firstShownNs >= 0 || m_firstContentNs < 0)
        return;
    m_firstShownNs = Llm::monotonicNowNs();
    emit firstContentShown(perceivedLatencyMs());
}

void AnswerReader::cancel()
{
    if (m_done)
        return;
    if (m_stream) {
        disconnect(m_stream, nullptr, this, nullptr);
        m_stream->cancel();
    }
    m_pending.clear();
    end(Llm::Error(Llm::Error::Code::Cancelled, m_stream ? m_stream->profile().displayName : QString()));
}

void AnswerReader::deliverBuffered()
{
    if (m_done || m_replayed)
        return;
    QPointer<AnswerReader> self(this);
    // Index loop: live events that arrive while we emit (a receiver spinning the event loop)
    // are appended to m_pending and delivered in order by this same loop.
    for (qsizetype i = 0; i < m_pending.size(); ++i) {
        if (!emitEvent(m_pending.at(i)) || !self)
            return;
    }
    m_pending.clear();
    m_replayed = true;
    if (m_pendingEnd) {
        end(*m_pendingEnd);
        return;
    }
    if (m_stream && m_stream->isPaused())
        m_stream->setPaused(false); // a prefetch stopped reading at its buffer cap
}

void AnswerReader::onLiveEvent(const Llm::StreamEvent &event)
{
    if (m_done)
        return;
    if (!m_replayed) {
        m_pending.append(event);
        return;
    }
    emitEvent(event);
}

void AnswerReader::onRestarted()
{
    if (m_done)
        return;
    // Nothing of the old beginning may be delivered after this.
    m_pending.clear();
    m_text.clear();
    m_reasoning.clear();
    // The first token was shown already: the wait the user felt stays what it was.
    if (m_delivered > 0)
        emit restarted();
}

void AnswerReader::onLiveFinished()
{
    if (!m_replayed) {
        m_pendingEnd = std::optional<Llm::Error>();
        return;
    }
    end(std::nullopt);
}

void AnswerReader::onLiveFailed(const Llm::Error &error)
{
    if (!m_replayed) {
        m_pendingEnd = error;
        return;
    }
    end(error);
}

bool AnswerReader::emitEvent(const Llm::StreamEvent &event)
{
    using T = Llm::StreamEvent::Type;
    if (event.choice == 0) {
        switch (event.type) {
        case T::TextDelta: m_text += event.text; break;
        case T::ReasoningDelta: m_reasoning += event.text; break;
        case T::Finish: m_finishReason = event.text; break;
        case T::Usage: m_usage.merge(event.usage); break;
        default: break;
        }
    }
    ++m_delivered;
    QPointer<AnswerReader> self(this);
    const bool first = m_firstContentNs < 0 && event.isContent();
    if (first)
        m_firstContentNs = Llm::monotonicNowNs();
    emit eventReceived(event);
    if (!self || m_done)
        return false;
    if (first) {
        emit firstContentDelivered(double(m_firstContentNs - m_activatedNs) / 1e6);
        if (!self || m_done)
            return false;
        if (!m_shownByConsumer) {
            markFirstShown();
            if (!self || m_done)
                return false;
        }
    }
    return true;
}

void AnswerReader::end(std::optional<Llm::Error> error)
{
    if (m_done)
        return;
    m_done = true;
    m_error = error;
    if (error)
        emit failed(*error);
    else
        emit finished();
}

} // namespace Prefetch
