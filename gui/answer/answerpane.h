#pragma once

#include "gui/answer/streamfollower.h"

#include <QPointer>
#include <QWidget>

class QLabel;
class QScrollArea;

namespace Llm {
class Error;
}
namespace Prefetch {
class AnswerReader;
}

namespace Gui {

class MarkdownView;

// Shows one streamed answer: the text as it arrives (through a StreamFollower: the first piece
// painted at once, later ones batched per frame) and a status line with time to first token,
// speed and errors. Keeps the partial text when a stream fails. The answer is rendered as
// Markdown by the chat's MarkdownView (highlighted code with Copy buttons, reasoning folded
// above it) in a scroll area that follows the end while it is shown and otherwise stays put;
// text() stays the answer's Markdown source, which is what Insert and Replace put in a document.
// An answer from the response cache is marked as such in the status line.
class AnswerPane : public QWidget
{
    Q_OBJECT

public:
    explicit AnswerPane(QWidget *parent = nullptr);

    // Follows `stream` from now on; the previous answer is cleared. Perceived latency runs from
    // the stream's activation time (when the user asked) to the first token painted.
    void follow(Prefetch::AnswerReader *stream, const QString &providerName);
    // No answer to follow (yet): clears the previous one and says why in the status line.
    void reset(const QString &status, bool isError = false);
    // The answer's Markdown source (not the rendered text), including what is still pending.
    QString text() const;
    QString statusText() const;
    // What produced the answer shown ("Summarize"), above it; empty hides the line.
    void setHeading(const QString &heading);
    QString heading() const;
    bool showsError() const { return m_statusIsError; }
    QWidget *view() const; // where the answer's text is shown (and keyboard focus goes)
    MarkdownView *markdownView() const { return m_view; }
    // The provider changed: an error the old one gave no longer applies, so it is replaced by a
    // line naming the new one (the answer text, if any, stays).
    void clearStaleError(const QString &providerName);
    // Perceived latency of the last answer: activation to first token painted, in ms; -1 if none yet.
    double perceivedLatencyMs() const { return m_follower.perceivedLatencyMs(); }

signals:
    void firstTokenPainted(double perceivedMs);
    void answerEnded(bool ok);

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    void onFirstPainted(double perceivedMs);
    void onFinished(Llm::FinishReason reason);
    void onFailed(const Llm::Error &error);
    void setStatus(const QString &text, bool isError = false);
    // An answer the response cache gave (Prefetch::AnswerReader::isFromCache()) says so.
    QString cachedStatus() const;

    QLabel *m_heading;
    QScrollArea *m_scroll;
    MarkdownView *m_view;
    bool m_stickToBottom = true;
    QLabel *m_status;
    StreamFollower m_follower;
    QPointer<Prefetch::AnswerReader> m_stream;
    QString m_provider;
    bool m_statusIsError = false;
};

} // namespace Gui
