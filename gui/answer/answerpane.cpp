#include "gui/answer/answerpane.h"

#include "gui/answer/markdownview.h"
#include "gui/widgets/uicolors.h"

#include "llm/clock.h"
#include "prefetch/stream/answerreader.h"

#include <QEvent>
#include <QLabel>
#include <QLocale>
#include <QScrollArea>
#include <QScrollBar>
#include <QTextBrowser>
#include <QTimer>
#include <QVBoxLayout>

namespace Gui {

AnswerPane::AnswerPane(QWidget *parent)
    : QWidget(parent)
    , m_heading(new QLabel(this))
    , m_scroll(new QScrollArea(this))
    , m_view(new MarkdownView)
    , m_status(new QLabel(this))
    , m_follower({[this](const QString &text) { m_view->appendText(text); }, // a frame's worth
                  [this](const QString &reasoning) { m_view->appendReasoning(reasoning); }, m_scroll->viewport(),
                  [this] { m_view->clear(); }})
{
    m_scroll->setWidget(m_view); // takes ownership
    m_scroll->setWidgetResizable(true);
    m_scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    // The text grows to its height for the width it is given, so with the bar shown only as
    // needed a pane whose height fell between the text's height with the bar and without it
    // made the bar come and go on every resize: QScrollArea resized its widget in an endless
    // recursion and the app crashed (seen when the metrics panel first opened below the pane).
    // A bar that is always there keeps the width, and so the height, fixed.
    m_scroll->setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOn);
    m_scroll->setBackgroundRole(QPalette::Base);
    m_scroll->setFocusPolicy(Qt::NoFocus); // the text view inside is the one Tab stop
    m_view->setPlaceholderText(tr("The answer appears here."));
    // Unlike in the chat transcript (where it would be one Tab stop per message), the answer is
    // the pane's one text: reachable by Tab, selectable and scrolled by keys.
    m_view->textView()->setFocusPolicy(Qt::StrongFocus);
    m_view->textView()->setTextInteractionFlags(Qt::TextBrowserInteraction | Qt::TextSelectableByKeyboard);
    QScrollBar *bar = m_scroll->verticalScrollBar();
    // Follow a streaming answer while the end is shown; stay put once the user scrolls up.
    connect(bar, &QScrollBar::rangeChanged, this, [this, bar](int, int max) {
        if (m_stickToBottom)
            bar->setValue(max);
    });
    connect(bar, &QScrollBar::valueChanged, this,
            [this, bar](int value) { m_stickToBottom = value >= bar->maximum() - fontMetrics().lineSpacing(); });
    // The text view grows instead of scrolling: a key that moved its cursor scrolls the pane to
    // it (not any cursor move: streamed text moves the cursor too, and must not scroll).
    m_view->textView()->installEventFilter(this);
    m_status->setAccessibleName(tr("Answer status"));
    m_status->setWordWrap(true);
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);

    m_heading->setObjectName(QStringLiteral("answerHeading"));
    m_heading->setAccessibleName(tr("Answer to"));
    QFont bold = m_heading->font();
    bold.setBold(true);
    m_heading->setFont(bold);
    m_heading->hide();

    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_heading);
    layout->addWidget(m_scroll, 1);
    layout->addWidget(m_status);

    connect(&m_follower, &StreamFollower::firstPainted, this, &AnswerPane::onFirstPainted);
    connect(&m_follower, &StreamFollower::finished, this, &AnswerPane::onFinished);
    connect(&m_follower, &StreamFollower::failed, this, &AnswerPane::onFailed);
    connect(&m_follower, &StreamFollower::retrying, this, [this](const QString &status) { setStatus(status); });
}

void AnswerPane::follow(Prefetch::AnswerReader *stream, const QString &providerName)
{
    m_view->clear();
    m_stickToBottom = true;
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
    return m_view->markdown() + m_follower.pendingText();
}

QString AnswerPane::statusText() const
{
    return m_status->text();
}

void AnswerPane::setHeading(const QString &heading)
{
    m_heading->setText(heading);
    m_heading->setVisible(!heading.isEmpty());
}

QString AnswerPane::heading() const
{
    return m_heading->text();
}

void AnswerPane::onFirstPainted(double perceivedMs)
{
    if (m_stream && m_stream->isFromCache()) {
        setStatus(cachedStatus());
        emit firstTokenPainted(perceivedMs);
        return;
    }
    setStatus(
        tr("Streaming from %1… first token after %2 ms").arg(m_provider, QLocale().toString(perceivedMs, 'f', 0)));
    emit firstTokenPainted(perceivedMs);
}

void AnswerPane::onFinished(Llm::FinishReason reason)
{
    m_view->finish(); // the open tail is rendered as Markdown too
    if (m_stream && m_stream->isFromCache()) {
        setStatus(cachedStatus());
        emit answerEnded(true);
        return;
    }
    const Llm::Usage usage = m_stream ? m_stream->usage() : Llm::Usage{};
    QString status = tr("Done. First token after %1 ms").arg(QLocale().toString(perceivedLatencyMs(), 'f', 0));
    // What the early start did, in words: "prefetched" beside 716 ms read as "instant".
    if (m_stream && m_stream->origin() == Prefetch::AnswerReader::Origin::Hit) {
        status += tr(" (started before you asked: it was ready)");
    } else if (m_stream && m_stream->origin() == Prefetch::AnswerReader::Origin::PartialHit) {
        const qint64 lead = m_stream->guessedNs() >= 0 ? m_stream->activatedNs() - m_stream->guessedNs() : -1;
        status += lead > 0 ? tr(" (started %1 ms before you asked: not early enough to be ready)")
                                 .arg(QLocale().toString(double(lead) / 1e6, 'f', 0))
                           : tr(" (started before you asked: not early enough to be ready)");
    }
    if (const Prefetch::AnswerFetch *a = m_stream ? m_stream->answer() : nullptr) {
        // The provider's pace while it streamed: a prefetched answer's parts came with a pause
        // between them (the prefix waited for the click), which is not the provider's rate.
        if (const double rate = a->measuredRate(); rate > 0)
            status += tr(", %1 tokens/s").arg(QLocale().toString(rate, 'f', 0));
    }
    if (usage.inputTokens >= 0) {
        // A guess's prefix continued when the user asked: the continuation's prompt is what the
        // answer asked for, and the prefix's is what the early start cost on top; added up, the
        // same action read as two or three times the prompt of the one before.
        const Prefetch::AnswerFetch *a = m_stream ? m_stream->answer() : nullptr;
        const Llm::Usage early = a && a->parts() > 1 ? a->earlyUsage() : Llm::Usage{};
        const auto number = [](qint64 n) { return QLocale().toString(std::max<qint64>(0, n)); };
        if (early.inputTokens > 0 && early.inputTokens < usage.inputTokens) {
            const qint64 cached = std::max<qint64>(0, usage.cacheReadTokens);
            const qint64 earlyCached = std::min(cached, std::max<qint64>(0, early.cacheReadTokens));
            status += tr(", %1 prompt tokens (%2 from cache), and %3 more (%4 from cache) for the early start")
                          .arg(number(usage.inputTokens - early.inputTokens), number(cached - earlyCached),
                               number(early.inputTokens), number(earlyCached));
        } else {
            status += tr(", %1 prompt tokens (%2 from cache)").arg(number(usage.inputTokens), number(usage.cacheReadTokens));
        }
    }
    if (reason == Llm::FinishReason::Length)
        status += QLatin1Char(' ') + tr("(stopped at the token limit)");
    else if (reason == Llm::FinishReason::ContentFilter)
        status += QLatin1Char(' ') + tr("(withheld by the provider's content filter)");
    setStatus(tr("%1.", "ends the status sentence").arg(status));
    emit answerEnded(true);
}

QString AnswerPane::cachedStatus() const
{
    return tr("From the cache: the answer this action got before on the same text. Nothing was sent; "
              "Regenerate asks anew.");
}

void AnswerPane::onFailed(const Llm::Error &error)
{
    m_view->finish(); // the partial answer stays, rendered
    if (error.code() == Llm::Error::Code::Cancelled)
        setStatus(tr("Stopped."));
    else
        setStatus(error.message(), true);
    emit answerEnded(false);
}

bool AnswerPane::eventFilter(QObject *watched, QEvent *event)
{
    if (watched == m_view->textView() && event->type() == QEvent::KeyPress) {
        // After the view has handled the key.
        QTimer::singleShot(0, this, [this] {
            const QRect cursor = m_view->textView()->cursorRect();
            const QPoint at = m_view->textView()->viewport()->mapTo(m_view, cursor.center());
            m_scroll->ensureVisible(at.x(), at.y(), 0, cursor.height());
        });
    }
    return QWidget::eventFilter(watched, event);
}

QWidget *AnswerPane::view() const
{
    return m_view->textView();
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
