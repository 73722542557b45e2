#pragma once

#include <QObject>
#include <QString>
#include <QTimer>

class QScrollBar;
class QTextDocument;

namespace Gui {

// Appends streamed `text` at the end of `document` with a cursor of its own (the user's cursor
// and selection stay where they are); a view whose scroll bar showed the end keeps showing it.
void appendStreamed(QTextDocument *document, QScrollBar *bar, const QString &text);

// Streamed text, handed out in frame-sized batches: the first piece at once (painting it is
// the moment the user perceives), later pieces at most once per frame, so a fast stream does
// not re-layout a text view per token. GUI thread.
class TextBatcher : public QObject
{
    Q_OBJECT

public:
    explicit TextBatcher(QObject *parent = nullptr);

    void append(const QString &text);
    // Hands out what is pending now (at the end of a stream, before reading the whole text).
    void flush();
    // A new stream: drops what is pending; the next piece is "first" again.
    void reset();
    const QString &pending() const { return m_pending; }

signals:
    void flushed(const QString &text, bool first);

private:
    QTimer m_timer;
    QString m_pending;
    bool m_first = true;
};

} // namespace Gui
