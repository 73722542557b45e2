#pragma once

#include <QList>
#include <QObject>
#include <QPointer>
#include <QString>
#include <QTimer>

namespace Llm {
struct StreamEvent;
}

namespace Prefetch {

class AnswerReader;

// Shows an answer's text at a steady pace. The first piece goes at once (painting it is the
// moment the user perceives); after it, text is shown piece by piece (a piece: one streamed
// delta, about a token) at the rate the provider generates it, as measured, and faster only when
// what waits would take more than MaxLagMs to show. So the buffer a prefetch took over is
// revealed as if it were streaming, not dumped at once, and the continuation that fetches the
// rest starts behind text still being revealed instead of after a visible pause (the convention
// of the Vercel AI SDK's smoothStream for bursty streams). When the consumer knows the rest will
// take a while (a continuation waiting for its first token, setNextDueNs()), what waits is spread
// over that wait instead, no slower than MaxLagMs allows: on a provider that generates fast but
// answers late (DeepSeek: 250 tokens/s, ~1.5 s to a first token) a 32-token prefix would
// otherwise be shown in 0.13 s and then stand still. Text of an answer that has ended is shown
// at once: nothing is left to hide.
//
// It measures the *stall*: the longest time the shown text stopped growing in the first
// StallWindowMs of the answer while more was to come. UI-free, so the replay benchmark measures
// exactly what the views show. GUI thread.
class RevealPacer : public QObject
{
    Q_OBJECT

public:
    static constexpr int FrameMs = 16;       // one frame at 60 Hz
    static constexpr double MaxLagMs = 1500; // what waits is shown within this
    static constexpr double StallWindowMs = 3000;
    // Until the provider's rate is known (the first pieces of a fresh answer): about a hosted
    // model's pace, and pieces that arrive faster are shown as fast as they come anyway.
    static constexpr double DefaultRate = 50; // pieces per second

    explicit RevealPacer(QObject *parent = nullptr);

    // Reveals `reader`'s answer, as every view and the replay benchmark read one: the first
    // choice's text and refusal pieces, at the rate its fetch measures, what was taken over
    // spread across a continuation's wait; a restart starts over. Starts afresh (reset()); a
    // previous reader is let go; null: none. The owner calls finish() when the reader ends,
    // after whatever it shows before the rest.
    void follow(AnswerReader *reader);

    // A new answer: drops what waits; the next piece is the first again.
    void reset();
    // The provider's measured rate, in pieces (tokens) per second; <= 0: unknown.
    void setRate(double piecesPerSecond);
    // The piece after those waiting is due about then (monotonic ns: a continuation's expected
    // first token); -1: as the provider's rate says.
    void setNextDueNs(qint64 ns) { m_nextDueNs = ns; }
    void append(const QString &piece);
    // The answer ended: everything waiting is shown now.
    void finish();
    // Shows everything waiting now.
    void flush();

    // Text received and not shown yet.
    QString pending() const;
    bool isRevealing() const { return !m_queue.isEmpty(); }
    // Monotonic ns of the first piece shown; -1 before.
    qint64 firstShownNs() const { return m_firstShownNs; }
    // The longest time, in ms, the shown text stood still in the first StallWindowMs while more
    // was to come (so far; final once the answer ended or the window passed).
    double stallMs() const;

signals:
    void revealed(const QString &text, bool first);

private:
    void onEvent(const Llm::StreamEvent &event);
    void followContinuation();
    void onFrame();
    void show(const QString &text, qint64 nowNs);

    QPointer<AnswerReader> m_reader;
    QTimer m_frame;
    QList<QString> m_queue;
    double m_rate = 0;
    qint64 m_nextDueNs = -1;
    double m_credit = 0; // pieces owed to the pace since the last frame
    qint64 m_lastFrameNs = -1;
    qint64 m_firstShownNs = -1;
    qint64 m_lastShownNs = -1;
    qint64 m_endNs = -1;
    double m_stallMs = 0;
};

} // namespace Prefetch
