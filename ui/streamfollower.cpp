#include "streamfollower.h"

#include "prefetch/responsestream.h"

#include <QScrollBar>
#include <QTextCursor>
#include <QTextDocument>
#include <QWidget>

namespace Gui {

namespace {
// One frame at 60 Hz: fast enough to look live, slow enough not to re-layout per token.
constexpr int FrameMs = 16;
} // namespace

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
    connect(&m_frame, &QTimer::timeout, this, &StreamFollower::flush);
}

void StreamFollower::follow(Prefetch::ResponseStream *stream)
{
    release();
    m_stream = stream;
    m_painted = false;
    m_perceivedMs = -1;
    if (!stream)
        return;
    stream->setShownByConsumer();
    connect(stream, &Prefetch::ResponseStream::eventReceived, this, &StreamFollower::onEvent);
    connect(stream, &Prefetch::ResponseStream::finished, this, &StreamFollower::onFinished);
    connect(stream, &Prefetch::ResponseStream::failed, this, &StreamFollower::onFailed);
}

Prefetch::ResponseStream *StreamFollower::stream() const
{
    return m_stream;
}

void StreamFollower::release()
{
    if (m_stream)
        disconnect(m_stream, nullptr, this, nullptr);
    m_stream = nullptr;
    m_frame.stop();
    m_text.clear();
    m_reasoning.clear();
}

void StreamFollower::onEvent(const Llm::StreamEvent &event)
{
    if (event.choice != 0 || event.text.isEmpty())
        return;
    switch (event.type) {
    case Llm::StreamEvent::Type::TextDelta:
    case Llm::StreamEvent::Type::RefusalDelta:
        m_text += event.text;
        break;
    case Llm::StreamEvent::Type::ReasoningDelta:
        if (!m_view.appendReasoning)
            return;
        m_reasoning += event.text;
        break;
    default:
        return;
    }
    if (!m_painted)
        flush();
    else if (!m_frame.isActive())
        m_frame.start();
}

void StreamFollower::flush()
{
    m_frame.stop();
    if (m_text.isEmpty() && m_reasoning.isEmpty())
        return;
    if (!m_reasoning.isEmpty())
        m_view.appendReasoning(std::exchange(m_reasoning, QString()));
    if (!m_text.isEmpty())
        m_view.appendText(std::exchange(m_text, QString()));
    if (m_painted || !m_stream)
        return;
    m_painted = true;
    if (m_view.surface)
        m_view.surface->repaint(); // "shown" means painted: paint before taking the time
    m_stream->markFirstShown();
    m_perceivedMs = m_stream->perceivedLatencyMs();
    emit firstPainted(m_perceivedMs);
}

void StreamFollower::onFinished()
{
    flush();
    const Llm::FinishReason reason = m_stream ? m_stream->finishReason() : Llm::FinishReason::None;
    emit finished(reason);
}

void StreamFollower::onFailed(const Llm::Error &error)
{
    flush();
    emit failed(error);
}

} // namespace Gui
