#pragma once

#include "llm/error.h"
#include "llm/llmtypes.h"
#include "prefetch/stream/revealpacer.h"

#include <QObject>
#include <QPointer>
#include <QString>
#include <QTimer>

#include <chrono>
#include <functional>

class QScrollBar;
class QTextDocument;
class QWidget;

namespace Prefetch {
class AnswerReader;
}

namespace Gui {

// The status line while an answer waits to be asked for again (see Prefetch::RetryPolicy):
// "DeepSeek is busy (rate limited); retrying in 2 s — attempt 2 of 3".
QString retryStatus(const Llm::Error &error, std::chrono::milliseconds delay, int attempt, int attempts);

// Appends streamed `text` at the end of `document` with a cursor of its own (the user's cursor
// and selection stay where they are); a view whose scroll bar showed the end keeps showing it.
void appendStreamed(QTextDocument *document, QScrollBar *bar, const QString &text);

// The one way a view follows an answer (the action pane, the wizard's pages, the chat): it
// connects to an AnswerReader, hands the view the answer's text through a Prefetch::RevealPacer
// (the first piece at once: painting it is the moment the user perceives; then a steady pace at
// the provider's rate, which hides a continuation's start behind the prefix still being shown),
// paints that first piece before it takes the time and reports it to the stream, so the metrics
// panel and the view's status line show the same latency, and says how the answer ended.
// Reasoning is handed over in frame-sized batches. GUI thread; the view owns it. It never
// cancels or deletes the stream: its owner does.
class StreamFollower : public QObject
{
    Q_OBJECT

public:
    // Where the text goes. `surface` is repainted before the first piece's time is taken.
    struct View {
        std::function<void(const QString &text)> appendText;
        std::function<void(const QString &reasoning)> appendReasoning; // optional
        QWidget *surface = nullptr;
        // The answer starts over (asked for again whole): the view drops what it shows.
        std::function<void()> clear;
    };

    explicit StreamFollower(View view, QObject *parent = nullptr);

    // Follows `stream` from its first event on; a previous one is let go. Call it right after
    // the engine returned the stream, before the event loop runs.
    void follow(Prefetch::AnswerReader *stream);
    // Stops following (the stream goes on; what was not handed out yet is dropped).
    void release();
    // Hands out what is pending now.
    void flush();
    void setSurface(QWidget *surface) { m_view.surface = surface; }

    Prefetch::AnswerReader *stream() const;
    bool isFollowing() const { return !m_stream.isNull(); }
    // Text received but not handed to the view yet.
    QString pendingText() const { return m_pacer.pending(); }
    // The longest the shown text stood still in the answer's first 3 s (see RevealPacer).
    double stallMs() const { return m_pacer.stallMs(); }
    // Activation to the first piece painted, in ms; -1 before.
    double perceivedLatencyMs() const { return m_perceivedMs; }

signals:
    void firstPainted(double perceivedMs);
    // The stream ended; everything it delivered has been handed to the view.
    void finished(Llm::FinishReason reason);
    void failed(const Llm::Error &error);
    // The provider was busy; the answer is asked for again in `delay` (nothing was shown).
    // `status` is retryStatus()'s sentence for it.
    void retrying(const QString &status, std::chrono::milliseconds delay);

private:
    void onEvent(const Llm::StreamEvent &event);
    void onRevealed(const QString &text, bool first);
    void onRestarted();
    void onFinished();
    void onFailed(const Llm::Error &error);
    void flushReasoning();

    View m_view;
    QPointer<Prefetch::AnswerReader> m_stream;
    Prefetch::RevealPacer m_pacer;
    QTimer m_frame; // reasoning
    QString m_reasoning;
    bool m_painted = false;
    double m_perceivedMs = -1;
};

} // namespace Gui
