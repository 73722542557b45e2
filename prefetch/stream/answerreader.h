#pragma once

#include "answerfetch.h"
#include "eventbuffer.h"
#include "prefetch/strategy.h"

#include "llm/error.h"
#include "llm/llmtypes.h"

#include <QObject>
#include <QPointer>

#include <chrono>
#include <optional>

namespace Prefetch {

// The three streams: Llm::ProviderRequest is one HTTP request to a provider; Prefetch::AnswerFetch
// is one answer over one or more of them (a prefix and its continuation); Prefetch::AnswerReader
// is what a consumer reads that answer from.
//
// What a consumer reads an answer from — the same type whether the answer was started fresh
// or taken over from a prefetch, so callers never care which one they got.
//
// It first delivers the events a prefetch buffered (all at once, from the event loop, after
// the call that returned the handle), then the live events, then exactly one terminal signal:
// finished() or failed() (cancel() included). The consumer sees exactly the events the
// provider sent, in order, once (a prefix and its continuation read as one answer; should the
// answer have to be asked for again whole, restarted() comes first and the text starts over).
// Lives in the GUI thread; owns its AnswerFetch.
class AnswerReader : public QObject
{
    Q_OBJECT

public:
    enum class Origin {
        Fresh,      // started for this activation
        Hit,        // a prefetch that had its first token already
        PartialHit, // a prefetch still waiting for its first token
        Cached,     // the response cache's answer to the same request: no request was sent
    };

    // Made by the engine's parts, for an answer asked for at `activatedNs`: takes `answer`
    // (reparented to this handle) and the events already buffered from it. When it already
    // ended, how it ended is replayed after the buffer. Without an answer (a cached one) the
    // buffer is all there is, and it finishes after it. `guessedNs`: see guessedNs().
    AnswerReader(Strategy strategy, Origin origin, AnswerFetch *answer, EventBuffer buffered, qint64 activatedNs,
                 QObject *parent, qint64 guessedNs = -1);
    ~AnswerReader() override;

    Strategy strategy() const { return m_strategy; }
    Origin origin() const { return m_origin; }
    bool isPrefetched() const { return m_origin == Origin::Hit || m_origin == Origin::PartialHit; }
    // Given from the response cache (ResponseCache): shown as such, Regenerate asks afresh.
    bool isFromCache() const { return m_origin == Origin::Cached; }

    void cancel();
    bool isDone() const { return m_done; }

    // What the consumer has been given so far (choice 0).
    QString text() const { return m_text; }
    QString reasoning() const { return m_reasoning; }
    Llm::FinishReason finishReason() const { return Llm::finishReasonFrom(m_finishReason); }
    QString providerFinishReason() const { return m_finishReason; } // verbatim, for logs
    Llm::Usage usage() const { return m_usage; }
    std::optional<Llm::Error> error() const { return m_error; }
    qsizetype eventsDelivered() const { return m_delivered; }

    // A consumer that paints what it is given (a view) calls this before the first event is
    // delivered, then markFirstShown() once the first piece is on screen: that, not the
    // delivery, is when the user sees the answer start, and what firstContentShown and the
    // engine's perceived latency report. Without it, delivery counts as shown (CLI, benchmarks).
    void setShownByConsumer() { m_shownByConsumer = true; }
    void markFirstShown();

    // Monotonic ns: when the user asked, when the first content event reached the consumer,
    // and when it was shown (see setShownByConsumer()).
    qint64 activatedNs() const { return m_activatedNs; }
    // A prefetch taken over: when it was guessed (its session made; -1 otherwise). With
    // answer()->startedNs(), when its request was sent, it tells how much of the lead a guess
    // had was spent queued in the prefetch lane (the replay benchmark reports both).
    qint64 guessedNs() const { return m_guessedNs; }
    qint64 firstContentNs() const { return m_firstContentNs; }
    qint64 firstShownNs() const { return m_firstShownNs; }
    // Activation to first shown, in ms; -1 before.
    double perceivedLatencyMs() const;
    // The answer being read (its request, timestamps, billed usage); null once it is gone.
    const AnswerFetch *answer() const { return m_stream; }

signals:
    void eventReceived(const Llm::StreamEvent &event);
    // Everything delivered so far is void (see AnswerFetch::restarted()).
    void restarted();
    // The rest of the answer was asked for (AnswerFetch::continuationStarted()).
    void continuationStarted();
    // Activation to the first content event delivered, and to it being shown, in ms.
    void firstContentDelivered(double deliveredMs);
    void firstContentShown(double perceivedMs);
    void finished();
    void failed(const Llm::Error &error);
    // The provider was busy and the answer is asked for again in `delay` (see
    // AnswerFetch::retrying()); nothing was delivered. cancel() stops the wait.
    void retrying(const Llm::Error &error, std::chrono::milliseconds delay, int attempt, int attempts);

private:
    void deliverBuffered();
    void onLiveEvent(const Llm::StreamEvent &event);
    void onLiveFinished();
    void onLiveFailed(const Llm::Error &error);
    void onRestarted();
    bool emitEvent(const Llm::StreamEvent &event); // false when the consumer ended us meanwhile
    void end(std::optional<Llm::Error> error);

    Strategy m_strategy;
    Origin m_origin;
    QPointer<AnswerFetch> m_stream;
    EventBuffer m_pending; // buffered before consume, then live events that overtook the replay
    bool m_replayed = false;
    bool m_done = false;
    std::optional<std::optional<Llm::Error>> m_pendingEnd; // the stream ended before the replay did
    qint64 m_activatedNs;
    qint64 m_guessedNs = -1;
    qint64 m_firstContentNs = -1;
    qint64 m_firstShownNs = -1;
    bool m_shownByConsumer = false;
    qsizetype m_delivered = 0;
    QString m_text;
    QString m_reasoning;
    QString m_finishReason;
    Llm::Usage m_usage;
    std::optional<Llm::Error> m_error;
};

} // namespace Prefetch
