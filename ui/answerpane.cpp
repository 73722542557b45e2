#include "answerpane.h"

#include "uicolors.h"

#include "llm/clock.h"
#include "prefetch/responsestream.h"

#include <QLabel>
#include <QLocale>
#include <QPlainTextEdit>
#include <QScrollBar>
#include <QVBoxLayout>

namespace Gui {

AnswerPane::AnswerPane(QWidget *parent)
    : QWidget(parent)
    , m_view(new QPlainTextEdit(this))
    , m_status(new QLabel(this))
    , m_follower({[this](const QString &text) { appendStreamed(m_view->document(), m_view->verticalScrollBar(), text); },
                  {},
                  m_view->viewport(),
                  [this] { m_view->clear(); }})
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

    connect(&m_follower, &StreamFollower::firstPainted, this, &AnswerPane::onFirstPainted);
    connect(&m_follower, &StreamFollower::finished, this, &AnswerPane::onFinished);
    connect(&m_follower, &StreamFollower::failed, this, &AnswerPane::onFailed);
    connect(&m_follower, &StreamFollower::retrying, this, [this](const QString &status) { setStatus(status); });
}

void AnswerPane::follow(Prefetch::ResponseStream *stream, const QString &providerName)
{
    m_view->clear();
    m_stream = stream;
    m_provider = providerName;
    m_follower.follow(stream);
    setStatus(tr("Waiting for the first token from %1…").arg(providerName));
}

void AnswerPane::reset(const QString &status, bool isError)
{
    m_follower.release();
    m_stream = nullptr;
    m_view->clear();
    setStatus(status, isError);
}

QString AnswerPane::text() const
{
    return m_view->toPlainText() + m_follower.pendingText();
}

QString AnswerPane::statusText() const
{
    return m_status->text();
}

void AnswerPane::onFirstPainted(double perceivedMs)
{
    setStatus(tr("Streaming from %1… first token after %2 ms").arg(m_provider, QLocale().toString(perceivedMs, 'f', 0)));
    emit firstTokenPainted(perceivedMs);
}

void AnswerPane::onFinished(Llm::FinishReason reason)
{
    const Llm::Usage usage = m_stream ? m_stream->usage() : Llm::Usage{};
    QString status = tr("Done. First token after %1 ms").arg(QLocale().toString(perceivedLatencyMs(), 'f', 0));
    if (m_stream && m_stream->isPrefetched())
        status += tr(" (prefetched)");
    if (const Prefetch::AnswerStream *a = m_stream ? m_stream->answer() : nullptr) {
        // The provider's pace while it streamed: a prefetched answer's parts came with a pause
        // between them (the prefix waited for the click), which is not the provider's rate.
        if (const double rate = a->measuredRate(); rate > 0)
            status += tr(", %1 tokens/s").arg(QLocale().toString(rate, 'f', 0));
    }
    if (usage.inputTokens >= 0) {
        status += tr(", %1 prompt tokens (%2 from cache)")
                      .arg(QLocale().toString(usage.inputTokens),
                           QLocale().toString(std::max<qint64>(0, usage.cacheReadTokens)));
    }
    if (reason == Llm::FinishReason::Length)
        status += QLatin1Char(' ') + tr("(stopped at the token limit)");
    else if (reason == Llm::FinishReason::ContentFilter)
        status += QLatin1Char(' ') + tr("(withheld by the provider's content filter)");
    setStatus(tr("%1.", "ends the status sentence").arg(status));
    emit answerEnded(true);
}

void AnswerPane::onFailed(const Llm::Error &error)
{
    if (error.code() == Llm::Error::Code::Cancelled)
        setStatus(tr("Stopped."));
    else
        setStatus(error.message(), true);
    emit answerEnded(false);
}

QWidget *AnswerPane::view() const
{
    return m_view;
}

void AnswerPane::clearStaleError(const QString &providerName)
{
    if (!m_statusIsError || (m_stream && !m_stream->isDone()))
        return;
    setStatus(tr("Now using %1: run the action again to ask it.").arg(providerName));
}

void AnswerPane::setStatus(const QString &text, bool isError)
{
    m_statusIsError = isError;
    m_status->setText(text);
    QPalette p = palette();
    if (isError)
        p.setColor(QPalette::WindowText, errorColor(p));
    m_status->setPalette(p);
}

} // namespace Gui
