#pragma once

#include "workspace/chat/cachedanswer.h"
#include "workspace/conversations/conversationstore.h"

#include <QDateTime>
#include <QFrame>
#include <QScrollArea>

class QLabel;
class QKeyEvent;
class QToolButton;
class QVBoxLayout;

namespace Gui {

class MarkdownView;

// What the buttons on a message ask for. Copy: an answer's Markdown to the clipboard;
// Regenerate: the last answer again; Edit: a question back into the input; Delete: a message.
// AskMainModel: the last answer again, of the main model (on an answer of the fast model).
enum class MessageAction { Copy, Regenerate, Edit, Delete, AskMainModel };

// A small button of a message's header (an icon from the theme, else its text).
QToolButton *messageButton(MessageAction action, QWidget *parent);

// A label in the palette's muted text colour (follows dark palettes too).
QLabel *mutedLabel(const QString &text, QWidget *parent);
// A message's "You" or "Assistant", muted, with `when` (invalid: now) as its tooltip.
QLabel *senderLabel(const QString &who, const QDateTime &when, QWidget *parent);

// One answer in the transcript: who and how fast, the Markdown, and an error in plain words
// when it failed (the partial text stays above it).
class AnswerWidget final : public QFrame
{
    Q_OBJECT

public:
    explicit AnswerWidget(QWidget *parent);

    MarkdownView *view() const { return m_view; }
    // `early`: the answer was started before the user sent (a typing pause, a suggestion);
    // `ready`: its first token was in by then.
    void setTiming(double firstTokenMs, bool early, bool ready);
    // The compact usage line under the answer, its details in the tooltip; hidden when empty.
    void setUsage(const MessageUsage &usage);
    QString usageText() const;
    // When it was answered (the "Assistant" label's tooltip); invalid: keeps now.
    void setTime(const QDateTime &when);
    void setStatus(const QString &text);
    void setError(const QString &message);
    QString errorText() const;
    QString text() const;
    // The answer as Markdown, what Copy copies.
    QString markdown() const;
    // Marks an answer of the fast model (fast/slow routing): "Quick answer · <fastModel>" and
    // the button that asks `mainModel` instead (shown by the transcript on the last answer).
    // An empty `fastModel` removes the mark.
    void setFastModel(const QString &fastModel, const QString &mainModel);
    bool isFastModelAnswer() const { return !m_fastModel.isEmpty(); }
    // Marks an answer the fast model began (the fast opening): "First words · <fastModel>",
    // its tooltip naming `mainModel` as the one that continued. An empty `fastModel` removes it.
    void setOpening(const QString &fastModel, const QString &mainModel);
    QString openingModel() const { return m_openingModel; }
    // Marks an answer the response cache gave ("From the cache", or "Draft" in muted text while
    // the live answer is on its way); None removes the mark.
    void setCached(CachedAnswer cached);
    CachedAnswer cached() const { return m_cached; }
    // The fast model's line while `mainModel` thinks (the instant acknowledgement), in muted
    // italics above the answer, until the answer's text begins; an empty `line` removes it.
    void setAcknowledgement(const QString &line, const QString &fastModel = {}, const QString &mainModel = {});
    // Its button for `action` (Copy, Regenerate, Delete, AskMainModel), or null.
    QToolButton *button(MessageAction action) const;

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
    QToolButton *m_copy;
    QToolButton *m_regenerate;
    QToolButton *m_delete;
    QLabel *m_quick;        // "Quick answer · model"
    QLabel *m_opening;      // "First words · model"
    QToolButton *m_askMain; // "Ask <main model>"
    QString m_fastModel;
    QString m_openingModel;
    QLabel *m_acknowledgement; // "<fast model>, while <main model> thinks: <line>"
    QLabel *m_cacheMark;       // "From the cache", "Draft from a similar question"
    CachedAnswer m_cached = CachedAnswer::None;
};

// The messages of one conversation, newest at the bottom: the user's as plain text, answers as
// Markdown. Shows the newest ShownMessages, older ones behind a button. Follows the bottom
// while the user has not scrolled up. Each message has its buttons (MessageAction): Copy on
// answers, Regenerate on the last one, Edit on questions, Delete on both; Ctrl+Shift+C with
// the focus in the transcript copies the answer with the focus, else the newest. It only asks
// (actionRequested); the dock does it. GUI thread.
class ChatTranscript : public QScrollArea
{
    Q_OBJECT

public:
    static constexpr qsizetype ShownMessages = 100;

    explicit ChatTranscript(QWidget *parent = nullptr);

    // Shows `messages` afresh. The answer at `liveIndex` (still streaming; -1: none) is left
    // empty for the caller to fill, and returned.
    AnswerWidget *setMessages(const QList<StoredMessage> &messages, qsizetype liveIndex = -1);
    // The next message of the conversation (its index follows the last one shown).
    // `when`: the message's time (its sender label's tooltip); invalid: now. `attachments` show
    // as chips above the text.
    void addUserMessage(const QString &text, const QDateTime &when = {}, const QList<Attachment> &attachments = {});
    AnswerWidget *addAnswer(const QDateTime &when = {});
    // How many messages of the conversation the transcript reaches: the index after the last one shown.
    qsizetype shownEnd() const { return m_nextIndex; }
    // Which buttons work: `change` Edit and Delete (not while an answer streams or a question
    // is edited), `regenerate` the last answer's Regenerate. Copy always works.
    void setActionsEnabled(bool change, bool regenerate);
    // The index of the answer with the focus, else of the newest answer shown; -1: none.
    qsizetype currentAnswerIndex() const;
    // The Markdown of the answer at `index`, or empty.
    QString answerMarkdown(qsizetype index) const;
    // Every message shown, in order, as plain text separated by blank lines.
    QString text() const;
    void scrollToEnd() { m_stickToBottom = true; }
    // Citations [n] in `answer` (one of this transcript's) become links that open passage n - 1
    // (passageRequested), with where it is as their tooltip. Before its text arrives.
    void followCitations(AnswerWidget *answer, const QList<Knowledge::Passage> &passages);
    // The provider's models: answers given by `fastModel` (empty: it has none apart from the
    // main model) are marked, with "Ask <mainModel>" on the last one. For setMessages() and
    // markModel() after it.
    void setModels(const QString &mainModel, const QString &fastModel);
    // Marks `answer` (one of this transcript's) as given by `model`.
    void markModel(AnswerWidget *answer, const QString &model);

signals:
    // The "show earlier messages" button: setMessages() again shows them all.
    void earlierRequested();
    // A citation [n] of a stored answer shown by setMessages() was clicked.
    void passageRequested(const Knowledge::Passage &passage);
    // A message's button, or Ctrl+Shift+C (Copy of currentAnswerIndex()). `index` is in the
    // messages given to setMessages() and the ones added since.
    void actionRequested(Gui::MessageAction action, qsizetype index);

protected:
    bool event(QEvent *event) override;
    void keyPressEvent(QKeyEvent *event) override;

private:
    void clearContent();
    void showEmptyHint();
    void connectButton(QToolButton *button, MessageAction action, qsizetype index);
    void applyActions();
    static bool isCopyKey(const QKeyEvent *event);

    QVBoxLayout *m_layout = nullptr; // of the widget the area shows
    bool m_showAll = false;
    bool m_showingHint = false;
    bool m_stickToBottom = true;
    qsizetype m_nextIndex = 0; // index of the next message added
    bool m_canChange = true;
    bool m_canRegenerate = true;
    QString m_mainModel, m_fastModel;
};

} // namespace Gui
