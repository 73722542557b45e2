#include "gui/chat/chattranscript.h"

#include "gui/answer/markdownview.h"
#include "gui/chat/attachmentchips.h"
#include "gui/widgets/fittedtextbrowser.h"
#include "gui/widgets/flowlayout.h"
#include "gui/widgets/themeicon.h"
#include "gui/widgets/uicolors.h"
#include "workspace/conversations/storedcitations.h"

#include <QApplication>
#include <QCoreApplication>
#include <QEvent>
#include <QHBoxLayout>
#include <QKeyEvent>
#include <QLabel>
#include <QLocale>
#include <QPushButton>
#include <QScrollBar>
#include <QStyle>
#include <QToolButton>
#include <QVBoxLayout>

#include <utility>

namespace Gui {

namespace {

// Each message widget carries its index in the conversation (see ChatTranscript::actionRequested).
constexpr char IndexProperty[] = "messageIndex";

qsizetype indexOf(const QWidget *message)
{
    return message->property(IndexProperty).value<qsizetype>();
}

// Plain text that grows with its content and wraps anywhere (a pasted URL must not widen the
// transcript). Used for the user's messages.
class PlainTextView final : public FittedTextBrowser
{
public:
    explicit PlainTextView(const QString &text, QWidget *parent)
        : FittedTextBrowser(parent)
    {
        setWordWrapMode(QTextOption::WrapAtWordBoundaryOrAnywhere);
        setPlainText(text);
    }
};

class UserMessage final : public QFrame
{
public:
    UserMessage(const QString &text, const QDateTime &when, const QList<Attachment> &attachments, QWidget *parent)
        : QFrame(parent)
        , m_view(new PlainTextView(text, this))
        , m_edit(messageButton(MessageAction::Edit, this))
        , m_delete(messageButton(MessageAction::Delete, this))
        , m_askAgain(messageButton(MessageAction::Regenerate, this))
    {
        // A question whose answer was deleted (or never stored) is asked again from here, as an
        // answer is regenerated; shown only while it is the last message (applyActions()).
        m_askAgain->setObjectName(QStringLiteral("chatAskAgain"));
        m_askAgain->setText(QCoreApplication::translate("Gui::ChatDock", "Ask Again"));
        m_askAgain->setAccessibleName(m_askAgain->text());
        m_askAgain->setToolTip(QCoreApplication::translate("Gui::ChatDock", "Ask this question again (Ctrl+Shift+R)"));
        m_askAgain->hide();
        setAutoFillBackground(true);
        setBackgroundRole(QPalette::AlternateBase);
        m_view->setForegroundRole(QPalette::Text);
        m_view->setAccessibleName(QCoreApplication::translate("Gui::ChatDock", "Your message"));
        auto *header = new QHBoxLayout;
        header->addWidget(senderLabel(QCoreApplication::translate("Gui::ChatDock", "You"), when, this), 1);
        header->addWidget(m_askAgain);
        header->addWidget(m_edit);
        header->addWidget(m_delete);
        auto *layout = new QVBoxLayout(this);
        layout->addLayout(header);
        if (!attachments.isEmpty()) {
            // Above the text: the order they were sent in.
            auto *chips = new AttachmentChips(AttachmentChips::Mode::ReadOnly, this);
            chips->setAttachments(attachments);
            layout->addWidget(chips);
        }
        layout->addWidget(m_view);
    }
    QString text() const { return m_view->toPlainText(); }
    QToolButton *button(MessageAction action) const
    {
        switch (action) {
        case MessageAction::Edit: return m_edit;
        case MessageAction::Delete: return m_delete;
        case MessageAction::Regenerate: return m_askAgain;
        default: return nullptr;
        }
    }

private:
    PlainTextView *m_view;
    QToolButton *m_edit;
    QToolButton *m_delete;
    QToolButton *m_askAgain;
};

} // namespace

QToolButton *messageButton(MessageAction action, QWidget *parent)
{
    struct Look {
        const char *icon;
        QStyle::StandardPixmap fallback;
        const char *objectName;
        const char *text;
        const char *tip;
    };
    static constexpr Look Looks[] = {
        {"edit-copy", QStyle::SP_CustomBase, "chatCopy", QT_TRANSLATE_NOOP("Gui::ChatDock", "Copy"),
         QT_TRANSLATE_NOOP("Gui::ChatDock", "Copy the answer as Markdown (Ctrl+Shift+C in the transcript)")},
        {"view-refresh", QStyle::SP_BrowserReload, "chatRegenerate", QT_TRANSLATE_NOOP("Gui::ChatDock", "Regenerate"),
         QT_TRANSLATE_NOOP("Gui::ChatDock", "Replace this answer with a new one (Ctrl+Shift+R)")},
        {"document-edit", QStyle::SP_CustomBase, "chatEdit", QT_TRANSLATE_NOOP("Gui::ChatDock", "Edit"),
         QT_TRANSLATE_NOOP("Gui::ChatDock", "Edit this message and send it again; the messages after it are deleted")},
        {"edit-delete", QStyle::SP_TrashIcon, "chatDelete", QT_TRANSLATE_NOOP("Gui::ChatDock", "Delete"),
         QT_TRANSLATE_NOOP("Gui::ChatDock", "Delete this message")},
    };
    const Look &look = Looks[int(action)];
    auto *button = new QToolButton(parent);
    button->setObjectName(QLatin1String(look.objectName));
    const QString text = QCoreApplication::translate("Gui::ChatDock", look.text);
    button->setText(text);
    button->setAccessibleName(text);
    button->setToolTip(QCoreApplication::translate("Gui::ChatDock", look.tip));
    button->setAutoRaise(true);
    // An icon where the theme (or the style) has one, else the word: never an empty button.
    const QIcon icon = themeIcon(look.icon, look.fallback);
    button->setIcon(icon);
    button->setToolButtonStyle(icon.isNull() ? Qt::ToolButtonTextOnly : Qt::ToolButtonIconOnly);
    return button;
}

// Who said it, with when on demand: the time is the label's tooltip (the transcript stays a
// conversation to read, not a log).
QLabel *senderLabel(const QString &who, const QDateTime &when, QWidget *parent)
{
    QLabel *label = mutedLabel(who, parent);
    label->setObjectName(QStringLiteral("chatSender"));
    label->setToolTip(QLocale().toString((when.isValid() ? when : QDateTime::currentDateTimeUtc()).toLocalTime(),
                                         QLocale::LongFormat));
    return label;
}

QLabel *mutedLabel(const QString &text, QWidget *parent)
{
    auto *label = new QLabel(text, parent);
    // A role, not a colour: it follows the palette, dark ones included.
    label->setForegroundRole(QPalette::PlaceholderText);
    label->setWordWrap(true);
    label->setTextFormat(Qt::PlainText);
    return label;
}

// --- ChatTranscript ------------------------------------------------------------------------------

ChatTranscript::ChatTranscript(QWidget *parent)
    : QScrollArea(parent)
{
    setWidgetResizable(true);
    // Its messages are as tall as their width needs: an as-needed bar could make the width, and
    // with it the height, flip on every resize (see AnswerPane).
    setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOn);
    setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    setBackgroundRole(QPalette::Base);
    setAccessibleName(QCoreApplication::translate("Gui::ChatDock", "Transcript"));
    setFocusPolicy(Qt::StrongFocus); // arrow keys and Page Up/Down scroll it
    QScrollBar *bar = verticalScrollBar();
    // Follow a streaming answer while the view is at the bottom; stay put once the user scrolls up.
    connect(bar, &QScrollBar::rangeChanged, this, [this, bar](int, int max) {
        if (m_stickToBottom)
            bar->setValue(max);
    });
    connect(bar, &QScrollBar::valueChanged, this,
            [this, bar](int value) { m_stickToBottom = value >= bar->maximum() - fontMetrics().lineSpacing(); });
    clearContent();
}

void ChatTranscript::clearContent()
{
    auto *content = new QWidget;
    content->setBackgroundRole(QPalette::Base);
    m_layout = new QVBoxLayout(content);
    m_layout->addStretch(1); // always last: messages go in before it
    // The previous content goes later, not now: this runs inside a click on one of its buttons
    // (Regenerate), and QToolButton::mouseReleaseEvent still reads the button after clicked()
    // returns. setWidget() would delete it at once (a use after free; valgrind shows it).
    if (QWidget *previous = takeWidget()) {
        previous->hide();
        previous->deleteLater();
    }
    setWidget(content);
    m_showingHint = false;
    m_nextIndex = 0;
}

AnswerWidget *ChatTranscript::setMessages(const QList<StoredMessage> &messages, qsizetype liveIndex)
{
    clearContent();
    m_stickToBottom = true;
    if (messages.isEmpty()) {
        m_showAll = false;
        showEmptyHint();
        return nullptr;
    }
    qsizetype first = 0;
    if (!m_showAll && messages.size() > ShownMessages) {
        first = messages.size() - ShownMessages;
        if (messages.at(first).role == Llm::Role::Assistant)
            --first; // start at a question
        auto *earlier =
            new QPushButton(QCoreApplication::translate("Gui::ChatDock", "Show %1 earlier messages").arg(first),
                            widget());
        connect(earlier, &QPushButton::clicked, this, [this] {
            m_showAll = true;
            emit earlierRequested();
            m_stickToBottom = false; // the user went looking upwards: stay at the top
        });
        m_layout->insertWidget(m_layout->count() - 1, earlier, 0, Qt::AlignHCenter);
    }
    m_nextIndex = first;
    AnswerWidget *live = nullptr;
    for (qsizetype i = first; i < messages.size(); ++i) {
        const StoredMessage &m = messages.at(i);
        if (m.role == Llm::Role::User) {
            addUserMessage(m.content, m.created, m.attachments);
            continue;
        }
        AnswerWidget *answer = addAnswer(m.created);
        markModel(answer, m.usage.model);
        if (i == liveIndex) {
            live = answer;
            continue;
        }
        followCitations(answer, m.citations);
        answer->view()->setMarkdown(m.content);
        answer->view()->setReasoning(m.reasoning);
        answer->setUsage(m.usage);
        if (m.state == MessageState::Failed)
            answer->setError(m.error);
        else if (m.state == MessageState::Partial)
            answer->setStatus(
                QCoreApplication::translate("Gui::ChatDock", "Incomplete: the answer was stopped or interrupted."));
    }
    m_stickToBottom = true;
    return live;
}

void ChatTranscript::followCitations(AnswerWidget *answer, const QList<Knowledge::Passage> &passages)
{
    if (passages.isEmpty())
        return;
    QStringList tips;
    for (const Knowledge::Passage &p : passages)
        tips.append(citationToolTip(p));
    answer->view()->setCitations(tips);
    connect(answer->view(), &MarkdownView::citationClicked, this, [this, passages](int number) {
        if (number >= 1 && number <= passages.size())
            emit passageRequested(passages.at(number - 1));
    });
}

void ChatTranscript::setModels(const QString &mainModel, const QString &fastModel)
{
    m_mainModel = mainModel;
    m_fastModel = fastModel == mainModel ? QString() : fastModel;
}

void ChatTranscript::markModel(AnswerWidget *answer, const QString &model)
{
    const bool fast = !m_fastModel.isEmpty() && model == m_fastModel;
    answer->setFastModel(fast ? m_fastModel : QString(), m_mainModel);
    applyActions();
}

void ChatTranscript::showEmptyHint()
{
    auto *hint = mutedLabel(QCoreApplication::translate("Gui::ChatDock",
                                                        "Ask anything. In “About the current document” mode, the open "
                                                        "document goes with your message."),
                            widget());
    hint->setAlignment(Qt::AlignCenter);
    m_layout->insertWidget(m_layout->count() - 1, hint);
    m_showingHint = true;
}

void ChatTranscript::addUserMessage(const QString &text, const QDateTime &when, const QList<Attachment> &attachments)
{
    if (std::exchange(m_showingHint, false))
        clearContent(); // the first message replaces the empty-chat hint
    const qsizetype index = m_nextIndex++;
    auto *message = new UserMessage(text, when, attachments, widget());
    message->setProperty(IndexProperty, QVariant::fromValue(index));
    for (const MessageAction action : {MessageAction::Edit, MessageAction::Delete, MessageAction::Regenerate})
        connectButton(message->button(action), action, index);
    m_layout->insertWidget(m_layout->count() - 1, message); // before the stretch
    applyActions();
}

AnswerWidget *ChatTranscript::addAnswer(const QDateTime &when)
{
    if (std::exchange(m_showingHint, false))
        clearContent();
    const qsizetype index = m_nextIndex++;
    auto *answer = new AnswerWidget(widget());
    answer->setTime(when);
    answer->setProperty(IndexProperty, QVariant::fromValue(index));
    for (const MessageAction action :
         {MessageAction::Copy, MessageAction::Regenerate, MessageAction::Delete, MessageAction::AskMainModel})
        connectButton(answer->button(action), action, index);
    m_layout->insertWidget(m_layout->count() - 1, answer); // before the stretch
    applyActions();
    return answer;
}

void ChatTranscript::connectButton(QToolButton *button, MessageAction action, qsizetype index)
{
    // The index is fixed: any change to the messages shows them afresh (setMessages()).
    connect(button, &QToolButton::clicked, this, [this, action, index] { emit actionRequested(action, index); });
}

void ChatTranscript::setActionsEnabled(bool change, bool regenerate)
{
    m_canChange = change;
    m_canRegenerate = regenerate;
    applyActions();
}

void ChatTranscript::applyActions()
{
    for (int i = 0; i < m_layout->count(); ++i) {
        QWidget *w = m_layout->itemAt(i)->widget();
        if (auto *user = dynamic_cast<UserMessage *>(w)) {
            user->button(MessageAction::Edit)->setEnabled(m_canChange);
            user->button(MessageAction::Delete)->setEnabled(m_canChange);
            // The last message a question: its answer is gone, it can be asked again.
            const bool last = indexOf(user) == m_nextIndex - 1;
            user->button(MessageAction::Regenerate)->setVisible(last);
            user->button(MessageAction::Regenerate)->setEnabled(last && m_canRegenerate);
        } else if (auto *answer = qobject_cast<AnswerWidget *>(w)) {
            // Only the newest message can be asked for again: later ones would depend on it.
            const bool last = indexOf(answer) == m_nextIndex - 1;
            answer->button(MessageAction::Regenerate)->setVisible(last);
            answer->button(MessageAction::Regenerate)->setEnabled(last && m_canRegenerate);
            answer->button(MessageAction::AskMainModel)->setVisible(last && answer->isFastModelAnswer());
            answer->button(MessageAction::AskMainModel)->setEnabled(last && m_canRegenerate);
            answer->button(MessageAction::Delete)->setEnabled(m_canChange);
        }
    }
}

qsizetype ChatTranscript::currentAnswerIndex() const
{
    for (QWidget *w = QApplication::focusWidget(); w && w != this; w = w->parentWidget()) {
        if (auto *answer = qobject_cast<AnswerWidget *>(w); answer && answer->parentWidget() == widget())
            return indexOf(answer);
    }
    for (int i = m_layout->count() - 1; i >= 0; --i) {
        if (auto *answer = qobject_cast<AnswerWidget *>(m_layout->itemAt(i)->widget()))
            return indexOf(answer);
    }
    return -1;
}

QString ChatTranscript::answerMarkdown(qsizetype index) const
{
    for (int i = 0; i < m_layout->count(); ++i) {
        if (auto *answer = qobject_cast<AnswerWidget *>(m_layout->itemAt(i)->widget());
            answer && indexOf(answer) == index)
            return answer->markdown();
    }
    return {};
}

bool ChatTranscript::isCopyKey(const QKeyEvent *event)
{
    return event->key() == Qt::Key_C && event->modifiers() == (Qt::ControlModifier | Qt::ShiftModifier);
}

bool ChatTranscript::event(QEvent *event)
{
    // Ctrl+Shift+C is also the window's "show the chat", which is shown already while the
    // transcript has the focus: here the key copies. Accepting the override makes it a key
    // press for the transcript (or the answer's text inside it, from which it comes up).
    if (event->type() == QEvent::ShortcutOverride && isCopyKey(static_cast<QKeyEvent *>(event))) {
        event->accept();
        return true;
    }
    return QScrollArea::event(event);
}

void ChatTranscript::keyPressEvent(QKeyEvent *event)
{
    if (isCopyKey(event)) {
        if (const qsizetype index = currentAnswerIndex(); index >= 0)
            emit actionRequested(MessageAction::Copy, index);
        event->accept();
        return;
    }
    QScrollArea::keyPressEvent(event);
}

QString ChatTranscript::text() const
{
    QStringList parts;
    for (int i = 0; i < m_layout->count(); ++i) {
        QWidget *w = m_layout->itemAt(i)->widget();
        if (auto *user = dynamic_cast<UserMessage *>(w)) {
            parts << user->text();
        } else if (auto *answer = qobject_cast<AnswerWidget *>(w)) {
            QString text = answer->text();
            if (!answer->errorText().isEmpty())
                text += u'\n' + answer->errorText();
            parts << text;
        }
    }
    return parts.join(QStringLiteral("\n\n"));
}

} // namespace Gui
