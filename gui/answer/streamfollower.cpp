#include "gui/answer/streamfollower.h"

#include "prefetch/stream/answerreader.h"

#include <QCoreApplication>
#include <QLocale>
#include <QScrollBar>
#include <QTextCursor>
#include <QTextDocument>
#include <QWidget>

namespace Gui {

namespace {
// One frame at 60 Hz: fast enough to look live, slow enough not to re-layout per token.
constexpr int FrameMs = 16;
} // namespace

QString retryStatus(const Llm::Error &error, std::chrono::milliseconds delay, int attempt, int attempts)
{
    QString why;
    switch (error.code()) {
    case Llm::Error::Code::RateLimited: why = QCoreApplication::translate("Gui::StreamFollower", "rate limited"); break;
    case Llm::Error::Code::ServerError:
        why = error.httpStatus() == 529
                  ? QCoreApplication::translate("Gui::StreamFollower", "overloaded")
                  : QCoreApplication::translate("Gui::StreamFollower", "server error, HTTP %1").arg(error.httpStatus());
        break;
    default: why = QCoreApplication::translate("Gui::StreamFollower", "overloaded"); break;
    }
    // Whole seconds, rounded up: "in 0 s" would read as now.
    const qint64 seconds = std::max<qint64>(1, (delay.count() + 999) / 1000);
    return QCoreApplication::translate("Gui::StreamFollower", "%1 is busy (%2); retrying in %3 s — attempt %4 of %5")
        .arg(error.provider(), why, QLocale().toString(seconds), QLocale().toString(attempt),
             QLocale().toString(attempts));
}

void appendStreamed(QTextDocument *document, QScrollBar *bar, const QString &text)
{
    const bool atBottom = bar->value() >= bar->maximum() - 2;
    QTextCursor cursor(document);
    cursor.movePosition(QTextCursor::End);
    cursor.insertText(text);
    if (atBottom)
        bar->setValue(bar->maximum());
}

StreamFollower::StreamFollower(View view, QObject *parent)
    : QObject(parent)
    , m_view(std::move(view))
{
    m_frame.setSingleShot(true);
    m_frame.setInterval(FrameMs);
    connect(&m_frame, &QTimer::timeout, this, &StreamFollower::flushReasoning);
    connect(&m_pacer, &Prefetch::RevealPacer::revealed, this, &StreamFollower::onRevealed);
}

void StreamFollower::follow(Prefetch::AnswerReader *stream)
{
    release();
    m_stream = stream;
    m_painted = false;
    m_perceivedMs = -1;
    m_pacer.follow(stream);
    if (!stream)
        return;
    stream->setShownByConsumer();
    connect(stream, &Prefetch::AnswerReader::eventReceived, this, &StreamFollower::onEvent);
    connect(stream, &Prefetch::AnswerReader::restarted, this, &StreamFollower::onRestarted);
    connect(stream, &Prefetch::AnswerReader::finished, this, &StreamFollower::onFinished);
    connect(stream, &Prefetch::AnswerReader::failed, this, &StreamFollower::onFailed);
    connect(stream, &Prefetch::AnswerReader::retrying, this,
            [this](const Llm::Error &error, std::chrono::milliseconds delay, int attempt, int attempts) {
                emit retrying(retryStatus(error, delay, attempt, attempts), delay);
            });
}

Prefetch::AnswerReader *StreamFollower::stream() const
{
    return m_stream;
}

void StreamFollower::release()
{
    if (m_stream) {
        disconnect(m_stream, nullptr, this, nullptr);
        disconnect(m_stream, nullptr, &m_pacer, nullptr);
    }
    m_stream = nullptr;
    m_frame.stop();
    m_reasoning.clear();
    // What waits to be revealed is dropped; the stall measured so far stays readable.
    if (m_pacer.isRevealing())
        m_pacer.finish();
}

void StreamFollower::onEvent(const Llm::StreamEvent &event)
{
    // The answer's text goes through the pacer (RevealPacer::follow); the reasoning in frames.
    if (event.choice != 0 || event.text.isEmpty() || event.type != Llm::StreamEvent::Type::ReasoningDelta
        || !m_view.appendReasoning)
        return;
    m_reasoning += event.text;
    if (!m_painted)
        flushReasoning();
    else if (!m_frame.isActive())
        m_frame.start();
}

void StreamFollower::flushReasoning()
{
    m_frame.stop();
    if (m_reasoning.isEmpty())
        return;
    m_view.appendReasoning(std::exchange(m_reasoning, QString()));
    if (!m_painted)
        onRevealed({}, true);
}

void StreamFollower::flush()
{
    flushReasoning();
    m_pacer.flush();
}

void StreamFollower::onRevealed(const QString &text, bool first)
{
    if (!text.isEmpty())
        m_view.appendText(text);
    if (!first || m_painted || !m_stream)
        return;
    m_painted = true;
    if (m_view.surface)
        m_view.surface->repaint(); // "shown" means painted: paint before taking the time
    m_stream->markFirstShown();
    m_perceivedMs = m_stream->perceivedLatencyMs();
    emit firstPainted(m_perceivedMs);
}

void StreamFollower::onRestarted()
{
    // The beginning shown is void: the answer streams again from its first token, into an
    // empty view. The wait the user felt was the first one.
    // (m_painted stays: its first piece is not timed again.)
    // (The pacer started over by itself.)
    m_reasoning.clear();
    if (m_view.clear)
        m_view.clear();
}

void StreamFollower::onFinished()
{
    flushReasoning();
    m_pacer.finish();
    const Llm::FinishReason reason = m_stream ? m_stream->finishReason() : Llm::FinishReason::None;
    emit finished(reason);
}

void StreamFollower::onFailed(const Llm::Error &error)
{
    flushReasoning();
    m_pacer.finish();
    emit failed(error);
}

} // namespace Gui
