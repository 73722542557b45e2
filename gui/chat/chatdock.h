#pragma once

#include "knowledge/types.h"

#include "gui/answer/streamfollower.h"
#include "gui/chat/chatdockactions.h"
#include "gui/chat/chatdockattachments.h"
#include "gui/chat/chatinput.h"
#include "gui/chat/chattranscript.h"
#include "workspace/chat/chatsession.h"

#include <QDockWidget>
#include <QPointer>

#include <chrono>
#include <memory>

class QAction;
class QComboBox;
class QLabel;
class QLineEdit;
class QListWidget;
class QPushButton;
class QTimer;
class QToolButton;

namespace Prefetch {
class DebounceStrategy;
class Engine;
class AnswerReader;
} // namespace Prefetch

namespace Knowledge {
class Library;
}

namespace Gui {

class AnswerWidget;
class AttachmentChips;
class ChatContextLine;
class ChatDockTranscript;
class ChatTranscript;
class ConversationListPanel;
class FollowUpChips;
class Document;
class ElidedLabel;

// The chat dock: the conversation list, the transcript and the input, over a ChatSession that
// does the work (conversations about the current document or free chat, kept in a
// ConversationStore). Typing feeds the debounce strategy through the session (a pause on a
// complete-looking message starts its answer); Enter sends, taking that answer over or
// starting a fresh one, and the answer streams into the transcript through a StreamFollower.
// The buttons on the messages copy an answer, regenerate the last one (also Ctrl+Shift+R),
// put a question back into the input to edit and send again, or delete a message (asked first).
// Text files can be attached to the message being written (the paperclip beside the input,
// Ctrl+Shift+A, or dropped onto the input): chips above the input, sent before the text. The
// dock lays out and wires its parts: ChatDockTranscript (the messages shown and the live answer
// followed), ChatDockActions (the message buttons, Regenerate, Clear History) and
// ChatDockAttachments (the files of the message being written).
//
// GUI thread. The engine, the strategy and the store belong to the app and must outlive the
// dock (held by QPointer; the dock degrades instead of crashing if they do not).
class ChatDock : public QDockWidget
{
    Q_OBJECT

public:
    // How long a notice stays (showNotice()); a refused attachment's reason stays twice as long.
    static constexpr std::chrono::milliseconds NoticeLifetime{8000};

    ChatDock(Prefetch::Engine *engine, Prefetch::DebounceStrategy *debounce, ConversationStore *store,
             QWidget *parent = nullptr);
    ~ChatDock() override;

    // The current document (null when none is open): what document mode sends.
    void setDocument(Document *document);
    // The knowledge base: offers the mode "About my library". Null: not offered.
    void setLibrary(Knowledge::Library *library);
    // The document's text changed; the prompt follows once the edits settle.
    void documentChanged();
    // The engine's provider profile changed (the session also notices by itself at the next key).
    void profileChanged();
    // Stores the answer being streamed as far as it has arrived (also done every few seconds,
    // on quit and in the destructor).
    void saveProgress();

    ChatSession *session() const { return m_session; }
    qint64 currentConversationId() const { return m_session->conversationId(); }
    ConversationMode mode() const { return m_session->mode(); }
    void setMode(ConversationMode mode);
    // The assistants offered in the "Assistant" box (Settings); the conversation keeps its own.
    void setAssistants(const AssistantSettings &assistants);
    bool openConversation(qint64 id);
    void newConversation();
    void sendMessage(qint64 activatedNs);
    // Sends a follow-up the chat offered (the user clicked it): as if typed and sent, with the
    // files waiting to be sent. Nothing while a draft is typed (it is never replaced) or an
    // answer comes.
    void sendFollowUp(const QString &text, qint64 activatedNs);
    // The prefetch settings were applied (Settings): what depends on them follows.
    void prefetchSettingsChanged() { m_session->prefetchSettingsChanged(); }
    void stop();
    // The last answer again, a fresh request (ChatSession::regenerate()); with `mainModel`, of the
    // main model (on an answer of the fast model).
    void regenerate(qint64 activatedNs, bool mainModel = false) { m_actions->regenerate(activatedNs, mainModel); }
    // Attaches the files at `paths` to the message being written, all or none: what the attach
    // dialog, a drop onto the input and a paste do. False when refused; the reason (which file,
    // what to do) is then shown under the chips (attachmentProblem()).
    bool attachFiles(const QStringList &paths) { return m_attachments->attachFiles(paths); }
    QString attachmentProblem() const { return m_attachments->problem(); }

    bool isAnswering() const { return m_session->isAnswering(); }
    Prefetch::AnswerReader *currentAnswer() const { return m_session->currentAnswer(); }
    // Every message shown, in order, as plain text separated by blank lines.
    QString transcriptText() const;
    QString statusText() const;

    ChatInput *input() const { return m_input; }
    QPushButton *sendButton() const { return m_sendButton; }
    QPushButton *stopButton() const { return m_stopButton; }
    QListWidget *conversationList() const;
    QLineEdit *searchField() const;
    QComboBox *modeSelector() const { return m_modeBox; }
    QComboBox *assistantSelector() const { return m_assistantBox; }
    QAction *newConversationAction() const;
    QAction *renameConversationAction() const;
    QAction *deleteConversationAction() const;
    QAction *regenerateAction() const { return m_actions->regenerateAction(); }
    // "Clear History…": asks, then deletes every conversation and the response cache's answers.
    QAction *clearHistoryAction() const { return m_actions->clearHistoryAction(); }
    QAction *attachAction() const { return m_attachments->attachAction(); }
    QToolButton *attachButton() const { return m_attachments->attachButton(); }
    AttachmentChips *attachmentChips() const { return m_attachments->chips(); }
    // The follow-ups offered under the last answer.
    FollowUpChips *followUpChips() const { return m_followUps; }
    ChatTranscript *transcript() const { return m_transcript; }

signals:
    void answerStarted(Prefetch::AnswerReader *stream);
    // perceivedMs: from the key press to the first piece of the answer painted.
    void firstTokenShown(double perceivedMs);
    void answerEnded(bool ok);
    void conversationChanged(qint64 id);
    // The user asked to open the document a conversation was about (its context line's link).
    void openDocumentRequested(const QString &path);
    // A citation [n] of an answer was clicked: open its passage's file at the passage.
    void passageRequested(const Knowledge::Passage &passage);

private:
    QWidget *createChatPanel();
    void onConversationOpened(qint64 id);
    void onExchangeStarted(Prefetch::AnswerReader *stream);
    void onExchangeEnded(MessageState state, const QString &error, bool cancelled);
    void onInputChanged();
    void updateButtons();
    // The offer changed: the buttons, their rest delay and their place in the Tab order.
    void updateFollowUps();
    // Shows the offer while the input is empty (at each keystroke: nothing more than that).
    void showFollowUps();
    void updateProviderNotice();
    void updateContextLabel();
    // The "Assistant" box shows the session's list and the conversation's choice.
    void updateAssistantBox();
    void setStatus(const QString &text);
    // A status that reports something done ("Message deleted.", "Answer copied…"): it goes
    // after NoticeLifetime unless something else was said meanwhile.
    void showNotice(const QString &text);
    void showBanner(const QString &text);

    ChatSession *m_session;                       // child
    ChatDockActions *m_actions = nullptr;         // child: message buttons, Regenerate, Clear History
    ChatDockAttachments *m_attachments = nullptr; // child: the files of the message being written
    ConversationListPanel *m_list = nullptr;
    QToolButton *m_listToggle = nullptr; // shows or folds the list (ChatListFold)
    bool m_listReloadQueued = false;
    ChatTranscript *m_transcript = nullptr;
    QComboBox *m_modeBox = nullptr;
    QComboBox *m_assistantBox = nullptr;
    ChatContextLine *m_contextLabel = nullptr;
    ElidedLabel *m_demoNotice = nullptr;
    QWidget *m_banner = nullptr;
    QLabel *m_bannerText = nullptr;
    ChatInput *m_input = nullptr;
    FollowUpChips *m_followUps = nullptr;
    bool m_sendingFollowUp = false; // sendFollowUp() is sending
    ElidedLabel *m_status = nullptr;
    QTimer *m_noticeExpiry = nullptr; // child: clears a notice (showNotice())
    QPushButton *m_sendButton = nullptr;
    QPushButton *m_stopButton = nullptr;
    // The messages shown, and the answer being streamed followed into its widget.
    std::unique_ptr<ChatDockTranscript> m_live;
};

} // namespace Gui
