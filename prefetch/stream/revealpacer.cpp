#include "revealpacer.h"

#include "answerfetch.h"
#include "answerreader.h"

#include "llm/clock.h"

#include <algorithm>

namespace Prefetch {

namespace {

double msBetween(qint64 from, qint64 to)
{
    return double(to - from) / 1e6;
}

} // namespace

RevealPacer::RevealPacer(QObject *parent)
    : QObject(parent)
{
    m_frame.setInterval(FrameMs);
    m_frame.setTimerType(Qt::PreciseTimer); // the pace is what the user sees
    connect(&m_frame, &QTimer::timeout, this, &RevealPacer::onFrame);
}

void RevealPacer::follow(AnswerReader *reader)
{
    if (m_reader)
        disconnect(m_reader, nullptr, this, nullptr);
    reset();
    m_reader = reader;
    if (!reader)
        return;
    connect(reader, &AnswerReader::eventReceived, this, &RevealPacer::onEvent);
    connect(reader, &AnswerReader::continuationStarted, this, &RevealPacer::followContinuation);
    connect(reader, &AnswerReader::restarted, this, &RevealPacer::reset);
    followContinuation(); // a continuation may be under way already
}

void RevealPacer::onEvent(const Llm::StreamEvent &event)
{
    if (event.choice != 0 || event.text.isEmpty()
        || (event.type != Llm::StreamEvent::Type::TextDelta && event.type != Llm::StreamEvent::Type::RefusalDelta))
        return;
    if (const AnswerFetch *answer = m_reader ? m_reader->answer() : nullptr) {
        setRate(answer->measuredRate());
        setNextDueNs(answer->continuationDueNs());
    }
    append(event.text);
}

void RevealPacer::followContinuation()
{
    if (const AnswerFetch *answer = m_reader ? m_reader->answer() : nullptr)
        setNextDueNs(answer->continuationDueNs());
}

void RevealPacer::reset()
{
    m_frame.stop();
    m_queue.clear();
    m_rate = 0;
    m_nextDueNs = -1;
    m_credit = 0;
    m_lastFrameNs = -1;
    m_firstShownNs = -1;
    m_lastShownNs = -1;
    m_endNs = -1;
    m_stallMs = 0;
}

void RevealPacer::setRate(double piecesPerSecond)
{
    m_rate = piecesPerSecond;
}

void RevealPacer::append(const QString &piece)
{
    if (piece.isEmpty())
        return;
    const qint64 now = Llm::monotonicNowNs();
    if (m_firstShownNs < 0) {
        show(piece, now); // at once: this is the latency the user feels
        return;
    }
    m_queue.append(piece);
    if (!m_frame.isActive()) {
        m_lastFrameNs = now;
        m_credit = 0;
        m_frame.start();
    }
}

QString RevealPacer::pending() const
{
    QString out;
    for (const QString &piece : m_queue)
        out += piece;
    return out;
}

void RevealPacer::onFrame()
{
    const qint64 now = Llm::monotonicNowNs();
    if (m_queue.isEmpty()) {
        m_frame.stop();
        return;
    }
    const double elapsedMs = msBetween(m_lastFrameNs, now);
    m_lastFrameNs = now;
    // The provider's pace; spread over the wait when more is due only later; and fast enough
    // that nothing waits longer than MaxLagMs.
    double rate = m_rate > 0 ? m_rate : DefaultRate;
    if (m_nextDueNs > now)
        rate = std::min(rate, double(m_queue.size()) * 1000.0 / msBetween(now, m_nextDueNs));
    rate = std::max(rate, double(m_queue.size()) * 1000.0 / MaxLagMs);
    m_credit += rate * elapsedMs / 1000.0;
    qsizetype n = qsizetype(m_credit);
    if (n <= 0)
        return;
    n = std::min(n, m_queue.size());
    m_credit -= double(n);
    QString text;
    for (qsizetype i = 0; i < n; ++i)
        text += m_queue.takeFirst();
    show(text, now);
    if (m_queue.isEmpty()) {
        m_frame.stop();
        m_credit = 0;
    }
}

void RevealPacer::flush()
{
    if (m_queue.isEmpty())
        return;
    QString text = pending();
    m_queue.clear();
    m_frame.stop();
    show(text, Llm::monotonicNowNs());
}

void RevealPacer::finish()
{
    flush();
    if (m_endNs < 0)
        m_endNs = Llm::monotonicNowNs();
}

void RevealPacer::show(const QString &text, qint64 nowNs)
{
    const bool first = m_firstShownNs < 0;
    if (first) {
        m_firstShownNs = nowNs;
    } else if (msBetween(m_firstShownNs, m_lastShownNs) < StallWindowMs) {
        // The time the text stood still, counted within the window only.
        const qint64 windowEnd = m_firstShownNs + qint64(StallWindowMs * 1e6);
        m_stallMs = std::max(m_stallMs, msBetween(m_lastShownNs, std::min(nowNs, windowEnd)));
    }
    m_lastShownNs = nowNs;
    emit revealed(text, first);
}

double RevealPacer::stallMs() const
{
    if (m_firstShownNs < 0 || m_lastShownNs < 0)
        return 0;
    // Standing still now, with more to come (the answer has not ended), counts too.
    if (m_endNs < 0 && msBetween(m_firstShownNs, m_lastShownNs) < StallWindowMs) {
        const qint64 now = Llm::monotonicNowNs();
        const qint64 windowEnd = m_firstShownNs + qint64(StallWindowMs * 1e6);
        return std::max(m_stallMs, msBetween(m_lastShownNs, std::min(now, windowEnd)));
    }
    return m_stallMs;
}

} // namespace Prefetch
