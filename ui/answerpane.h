#pragma once

#include "textbatcher.h"

#include <QPointer>
#include <QWidget>

class QLabel;
class QPlainTextEdit;

namespace Llm {
struct StreamEvent;
class Error;
} // namespace Llm
namespace Prefetch { class ResponseStream; }

namespace Gui {

// Shows one streamed answer: the text as it arrives (the first piece painted at once, later
// pieces batched per frame so a fast stream does not re-layout per token) and a status line
// with time to first token, speed and errors. Keeps the partial text when a stream fails.
class AnswerPane : public QWidget
{
    Q_OBJECT

public:
    explicit AnswerPane(QWidget *parent = nullptr);

    // Follows `stream` from now on; the previous answer is cleared. Perceived latency runs from
    // the stream's activation time (when the user asked) to the first token painted.
    void follow(Prefetch::ResponseStream *stream, const QString &providerName);
    QString text() const;
    QString statusText() const;
    // Perceived latency of the last answer: activation to first token painted, in ms; -1 if none yet.
    double perceivedLatencyMs() const { return m_perceivedMs; }

signals:
    void firstTokenPainted(double perceivedMs);
    void answerEnded(bool ok);

private:
    void onEvent(const Llm::StreamEvent &event);
    void onFinished();
    void onFailed(const Llm::Error &error);
    void paint(const QString &text, bool first);
    void setStatus(const QString &text, bool isError = false);

    QPlainTextEdit *m_view;
    QLabel *m_status;
    TextBatcher m_batcher;
    QPointer<Prefetch::ResponseStream> m_stream;
    QString m_provider;
    double m_perceivedMs = -1;
};

} // namespace Gui
