#pragma once

#include "conversationstore.h"

#include <QDateTime>
#include <QFrame>
#include <QScrollArea>

class QLabel;
class QVBoxLayout;

namespace Gui {

class MarkdownView;

// A label in the palette's muted text colour (follows dark palettes too).
QLabel *mutedLabel(const QString &text, QWidget *parent);

// One answer in the transcript: who and how fast, the Markdown, and an error in plain words
// when it failed (the partial text stays above it).
class AnswerWidget final : public QFrame
{
    Q_OBJECT

public:
    explicit AnswerWidget(QWidget *parent);

    MarkdownView *view() const { return m_view; }
    void setTiming(double firstTokenMs, bool prefetched);
    // The compact usage line under the answer, its details in the tooltip; hidden when empty.
    void setUsage(const MessageUsage &usage);
    QString usageText() const;
    // When it was answered (the "Assistant" label's tooltip); invalid: keeps now.
    void setTime(const QDateTime &when);
    void setStatus(const QString &text);
    void setError(const QString &message);
    QString errorText() const;
    QString text() const;

protected:
    void changeEvent(QEvent *event) override;

private:
    void applyErrorStyle();

    QLabel *m_sender = nullptr; // "Assistant", with the time as its tooltip
    QLabel *m_timing;
    MarkdownView *m_view;
    QWidget *m_errorRow;
    QLabel *m_errorIcon;
    QLabel *m_error;
    QLabel *m_status;
    QLabel *m_usage;
};

// The messages of one conversation, newest at the bottom: the user's as plain text, answers as
// Markdown. Shows the newest ShownMessages, older ones behind a button. Follows the bottom
// while the user has not scrolled up. GUI thread.
class ChatTranscript : public QScrollArea
{
    Q_OBJECT

public:
    static constexpr qsizetype ShownMessages = 100;

    explicit ChatTranscript(QWidget *parent = nullptr);

    // Shows `messages` afresh. The answer at `liveIndex` (still streaming; -1: none) is left
    // empty for the caller to fill, and returned.
    AnswerWidget *setMessages(const QList<StoredMessage> &messages, qsizetype liveIndex = -1);
    // `when`: the message's time (its sender label's tooltip); invalid: now.
    void addUserMessage(const QString &text, const QDateTime &when = {});
    AnswerWidget *addAnswer(const QDateTime &when = {});
    // Every message shown, in order, as plain text separated by blank lines.
    QString text() const;
    void scrollToEnd() { m_stickToBottom = true; }
    // Citations [n] in `answer` (one of this transcript's) become links that open passage n - 1
    // (passageRequested), with where it is as their tooltip. Before its text arrives.
    void followCitations(AnswerWidget *answer, const QList<Knowledge::Passage> &passages);

signals:
    // The "show earlier messages" button: setMessages() again shows them all.
    void earlierRequested();
    // A citation [n] of a stored answer shown by setMessages() was clicked.
    void passageRequested(const Knowledge::Passage &passage);

private:
    void clearContent();
    void showEmptyHint();

    QVBoxLayout *m_layout = nullptr; // of the widget the area shows
    bool m_showAll = false;
    bool m_showingHint = false;
    bool m_stickToBottom = true;
};

} // namespace Gui
