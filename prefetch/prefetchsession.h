#pragma once

#include "prefetch/stream/answerfetch.h"
#include "prefetch/stream/eventbuffer.h"
#include "strategy.h"

#include <QByteArray>
#include <QObject>
#include <QPointer>
#include <QTimer>

#include <chrono>

namespace Prefetch {

class AnswerReader;

// One speculative answer: its AnswerFetch, the context fingerprint it is valid for, its
// strategy, a time to live, and the events received so far. Where the provider can continue an
// answer it asks for a prefix only (the answer's limit: a few tokens for a weak signal, the
// buffer cap for a strong one), which bounds what a wrong guess costs at the provider; upgrade()
// raises the limit. Where it cannot, it asks for the whole answer and at the buffer cap stops
// reading (back-pressure) instead of dropping anything. consume() hands answer and buffer to a
// AnswerReader that replays the buffer and then forwards the rest (the continuation).
//
// Created and driven by the Engine and its Lanes (GUI thread); the engine owns it, strategies
// hold a QPointer.
class PrefetchSession : public QObject
{
    Q_OBJECT

public:
    enum class State {
        Pending,   // queued in the prefetch lane, no request sent yet
        Streaming, // request sent; waiting for or receiving the answer
        Complete,  // the whole answer, or the prefix asked for, is buffered
        Consumed,  // taken over by an AnswerReader
        Cancelled, // the guess was wrong, Stop, or preempted by a foreground request
        Expired,   // its TTL ran out before anyone asked
        Failed,    // the provider failed it (never shown to the user)
    };

    Strategy strategy() const { return m_strategy; }
    QByteArray fingerprint() const { return m_fingerprint; }
    State state() const { return m_state; }
    bool isLive() const
    {
        return m_state == State::Pending || m_state == State::Streaming || m_state == State::Complete;
    }
    bool hasFirstToken() const { return m_firstTokenNs >= 0; }
    // A strong signal asked for it, or took it on (see Engine::upgrade()).
    bool isStrong() const { return m_strong; }
    // Complete with the beginning of the answer only: the rest comes once it is taken over.
    bool isPrefix() const { return m_answer && m_answer->isWaitingForLimit(); }
    qint64 createdNs() const { return m_createdNs; }
    qint64 startedNs() const { return m_startedNs; }
    qint64 firstTokenNs() const { return m_firstTokenNs; }
    qsizetype bufferedEvents() const { return m_buffer.size(); }
    qsizetype bufferedTokens() const { return m_buffer.tokenCount(); }
    qsizetype bufferMemoryBytes() const { return m_buffer.memoryBytes(); }
    bool isPausedAtCap() const { return m_answer && m_answer->isPaused(); }
    const Llm::ChatRequest &request() const { return m_request; }
    const AnswerFetch *answer() const { return m_answer; }
    static const char *stateName(State state);

    // What the engine does with a guess (Engine::prefetch(), Lanes, Engine::consume()): it
    // makes it (a strong signal's or not; pending until started), starts it on its answer
    // (which it takes), lets a stronger signal grow it to `limit` while it is still a guess,
    // hands it over to the user, or ends it Cancelled, Expired or Failed (aborting the stream).
    PrefetchSession(Strategy strategy, Llm::ChatRequest request, QByteArray fingerprint, std::chrono::milliseconds ttl,
                    int bufferCap, bool strong, QObject *parent);
    void start(AnswerFetch *answer, int limit);
    void upgrade(int limit, bool strong);
    AnswerReader *consume(qint64 activatedNs, QObject *owner);
    void finish(State terminal);

signals:
    // Every change of state; `ended` follows for Consumed, Cancelled, Expired and Failed.
    void stateChanged(Prefetch::PrefetchSession::State state);
    void firstTokenReceived();
    void ended(Prefetch::PrefetchSession::State state);

private:
    void setState(State state);
    void onEvent(const Llm::StreamEvent &event);

    Strategy m_strategy;
    Llm::ChatRequest m_request;
    QByteArray m_fingerprint;
    int m_bufferCap;
    QPointer<AnswerFetch> m_answer;
    EventBuffer m_buffer;
    QTimer m_ttl;
    State m_state = State::Pending;
    qint64 m_createdNs;
    qint64 m_startedNs = -1;
    qint64 m_firstTokenNs = -1;
    bool m_strong = true;
};

} // namespace Prefetch
