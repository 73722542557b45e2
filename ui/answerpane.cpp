#include "answerpane.h"

#include "uicolors.h"

#include "llm/clock.h"
#include "prefetch/responsestream.h"

#include <QLabel>
#include <QLocale>
#include <QPlainTextEdit>
#include <QVBoxLayout>

namespace Gui {

AnswerPane::AnswerPane(QWidget *parent)
    : QWidget(parent)
    , m_view(new QPlainTextEdit(this))
    , m_status(new QLabel(this))
{
    m_view->setReadOnly(true);
    m_view->setPlaceholderText(tr("The answer appears here."));
    m_view->setAccessibleName(tr("Answer"));
    m_status->setAccessibleName(tr("Answer status"));
    m_status->setWordWrap(true);
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);

    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_view, 1);
    layout->addWidget(m_status);

    connect(&m_batcher, &TextBatcher::flushed, this, &AnswerPane::paint);
}

void AnswerPane::follow(Prefetch::ResponseStream *stream, const QString &providerName)
{
    if (m_stream)
        disconnect(m_stream, nullptr, this, nullptr);
    m_batcher.reset();
    m_view->clear();
    m_stream = stream;
    m_provider = providerName;
    m_perceivedMs = -1;
    setStatus(tr("Waiting for the first token from %1…").arg(providerName));
    connect(stream, &Prefetch::ResponseStream::eventReceived, this, &AnswerPane::onEvent);
    connect(stream, &Prefetch::ResponseStream::finished, this, &AnswerPane::onFinished);
    connect(stream, &Prefetch::ResponseStream::failed, this, &AnswerPane::onFailed);
}

QString AnswerPane::text() const
{
    return m_view->toPlainText() + m_batcher.pending();
}

QString AnswerPane::statusText() const
{
    return m_status->text();
}

void AnswerPane::onEvent(const Llm::StreamEvent &event)
{
    if (event.type == Llm::StreamEvent::Type::TextDelta && event.choice == 0)
        m_batcher.append(event.text);
}

void AnswerPane::paint(const QString &text, bool first)
{
    appendStreamed(m_view->document(), m_view->verticalScrollBar(), text);
    if (first) {
        m_view->repaint(); // make "painted" true before we take the time
        m_perceivedMs = m_stream ? double(Llm::monotonicNowNs() - m_stream->activatedNs()) / 1e6 : 0.0;
        setStatus(tr("Streaming from %1… first token after %2 ms").arg(m_provider, QLocale().toString(m_perceivedMs, 'f', 0)));
        emit firstTokenPainted(m_perceivedMs);
    }
}

void AnswerPane::onFinished()
{
    m_batcher.flush();
    const Llm::Usage usage = m_stream->usage();
    QString status = tr("Done. First token after %1 ms").arg(QLocale().toString(m_perceivedMs, 'f', 0));
    if (m_stream->isPrefetched())
        status += tr(" (prefetched)");
    if (const Llm::LlmStream *s = m_stream->stream()) {
        const auto &t = s->timestamps();
        if (usage.outputTokens > 0 && t.firstToken > 0 && t.finished > t.firstToken) {
            const double seconds = double(t.finished - t.firstToken) / 1e9;
            status += tr(", %1 tokens/s").arg(QLocale().toString(double(usage.outputTokens) / seconds, 'f', 0));
        }
    }
    if (usage.inputTokens >= 0) {
        status += tr(", %1 prompt tokens (%2 from cache)")
                      .arg(QLocale().toString(usage.inputTokens),
                           QLocale().toString(std::max<qint64>(0, usage.cacheReadTokens)));
    }
    if (m_stream->finishReason() == QLatin1String("length")
        || m_stream->finishReason() == QLatin1String("max_tokens"))
        status += QLatin1Char(' ') + tr("(stopped at the token limit)");
    setStatus(tr("%1.", "ends the status sentence").arg(status));
    emit answerEnded(true);
}

void AnswerPane::onFailed(const Llm::Error &error)
{
    m_batcher.flush();
    if (error.code() == Llm::Error::Code::Cancelled)
        setStatus(tr("Stopped."));
    else
        setStatus(error.message(), true);
    emit answerEnded(false);
}

void AnswerPane::setStatus(const QString &text, bool isError)
{
    m_status->setText(text);
    QPalette p = palette();
    if (isError)
        p.setColor(QPalette::WindowText, errorColor(p));
    m_status->setPalette(p);
}

} // namespace Gui
