#pragma once

#include "conversationstore.h"

#include "llm/providerprofile.h"
#include "prefetch/prompttemplate.h"

#include <QDockWidget>
#include <QPlainTextEdit>
#include <QPointer>
#include <QTimer>

#include <functional>
#include <memory>
#include <optional>

class QAction;
class QComboBox;
class QLabel;
class QLineEdit;
class QListWidget;
class QListWidgetItem;
class QPushButton;
class QScrollArea;
class QVBoxLayout;

namespace Llm {
class Error;
struct StreamEvent;
} // namespace Llm
namespace Prefetch {
class DebounceStrategy;
class Engine;
class ResponseStream;
} // namespace Prefetch

namespace Gui {

class AnswerWidget;

// The chat input. Enter (or Ctrl+Enter) asks to send, with the monotonic time of the key
// press; Shift+Enter adds a line. Grows with its text up to a few lines. Esc is left to the
// window's Stop action.
class ChatInput : public QPlainTextEdit
{
    Q_OBJECT

public:
    explicit ChatInput(QWidget *parent = nullptr);

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

signals:
    void sendRequested(qint64 activatedNs);
    void focusEntered();

protected:
    void keyPressEvent(QKeyEvent *event) override;
    void focusInEvent(QFocusEvent *event) override;

private:
    int heightForLines(int lines) const;
};

// The chat dock: conversations about the current document or free chat, kept in a
// ConversationStore.
//
// Typing feeds the debounce strategy (a pause on a complete-looking message starts its answer);
// Enter sends through the same strategy, which takes that answer over or starts a fresh one.
// The request is Prefetch::chatTemplate() compiled for the engine's provider (with the document
// in document mode) and rendered with the conversation so far; the strategy always holds
// exactly that builder, replaced whenever the conversation, its mode, the provider or the
// document changes (and unset while an answer streams, whose text the next message's history
// needs). A large document is compiled off the GUI thread.
//
// Each exchange is stored at once (the question, and the answer as "partial"), checkpointed
// while it streams and stored with its end state: complete, stopped (partial) or failed with
// the error. Closing the dock or the app stores what has arrived.
//
// GUI thread. The engine, the strategy and the store belong to the app and must outlive the
// dock (they are held by QPointer and the dock degrades instead of crashing if they do not).
class ChatDock : public QDockWidget
{
    Q_OBJECT

public:
    ChatDock(Prefetch::Engine *engine, Prefetch::DebounceStrategy *debounce, ConversationStore *store,
             QWidget *parent = nullptr);
    ~ChatDock() override;

    // The current document's text, empty when none is open. Called on the GUI thread when a
    // message is sent, when the input gains focus and after documentChanged().
    void setDocumentProvider(std::function<QString()> provider);
    // The current document's file, stored with new conversations (empty: unsaved or none).
    void setDocumentPath(const QString &path);
    // The document's text changed; coalesced, then the prompt is compiled again.
    void documentChanged();
    // The engine's provider profile changed (the dock also notices by itself at the next key).
    void profileChanged();
    // Stores the answer being streamed as far as it has arrived (also done every few seconds,
    // on quit and in the destructor).
    void saveProgress();

    qint64 currentConversationId() const { return m_conversationId; }
    ConversationMode mode() const { return m_mode; }
    void setMode(ConversationMode mode);
    bool openConversation(qint64 id);
    void newConversation();
    void sendMessage(qint64 activatedNs);
    void stop();

    bool isAnswering() const;
    Prefetch::ResponseStream *currentAnswer() const;
    // Every message shown, in order, as plain text separated by blank lines.
    QString transcriptText() const;
    QString statusText() const;

    ChatInput *input() const { return m_input; }
    QPushButton *sendButton() const { return m_sendButton; }
    QPushButton *stopButton() const { return m_stopButton; }
    QListWidget *conversationList() const { return m_list; }
    QLineEdit *searchField() const { return m_search; }
    QComboBox *modeSelector() const { return m_modeBox; }
    QAction *newConversationAction() const { return m_newAction; }
    QAction *renameConversationAction() const { return m_renameAction; }
    QAction *deleteConversationAction() const { return m_deleteAction; }

signals:
    void answerStarted(Prefetch::ResponseStream *stream);
    // perceivedMs: from the key press to the first piece of the answer in the view.
    void firstTokenShown(double perceivedMs);
    void answerEnded(bool ok);
    void conversationChanged(qint64 id);

private:
    struct Exchange;
    struct PendingSend {
        QString text;
        qint64 activatedNs = 0;
    };
    enum class DocumentCheck { Skip, Compare };

    QWidget *createConversationPanel();
    QWidget *createChatPanel();
    void createActions();

    // Prompt and builder.
    bool ensurePrompt(DocumentCheck check);
    void compileNow(bool withDocument, const QString &document, const Llm::ProviderProfile &profile);
    void startCompile(const QString &document, const Llm::ProviderProfile &profile);
    void setCompiled(std::expected<Prefetch::CompiledPrompt, Llm::Error> result, bool withDocument,
                     const QString &document, const Llm::ProviderProfile &profile);
    bool compiledFor(const Llm::ProviderProfile &profile, bool withDocument, const QString *document) const;
    void installBuilder();
    void uninstallBuilder();
    QList<Llm::ChatMessage> history() const;

    // Sending and streaming.
    void dispatchPending();
    void onStreamEvent(const Llm::StreamEvent &event);
    void onStreamFinished();
    void onStreamFailed(const Llm::Error &error);
    void endExchange(MessageState state, const QString &error, bool cancelled);
    void attachLiveAnswer(AnswerWidget *widget);

    // Conversations.
    void reloadList();
    void onCurrentItemChanged(QListWidgetItem *current);
    void onItemEdited(QListWidgetItem *item);
    void renameCurrent();
    void confirmDelete();
    void removeConversation(qint64 id);
    bool ensureConversation(const QString &firstMessage);
    ConversationMode defaultMode() const;

    // Transcript.
    void rebuildTranscript();
    void addUserMessage(const QString &text);
    AnswerWidget *addAnswer();
    void showEmptyHint();

    // Feedback.
    void onInputChanged();
    void updateButtons();
    void updateProviderNotice();
    void updateContextLabel(bool withDocument, const QString &document);
    void setStatus(const QString &text);
    void showBanner(const QString &text);

    QPointer<Prefetch::Engine> m_engine;
    QPointer<Prefetch::DebounceStrategy> m_debounce;
    QPointer<ConversationStore> m_store;
    std::function<QString()> m_documentProvider;
    QString m_documentPath;

    // Widgets (children; deleted with the dock).
    QLineEdit *m_search = nullptr;
    QListWidget *m_list = nullptr;
    QComboBox *m_modeBox = nullptr;
    QLabel *m_contextLabel = nullptr;
    QLabel *m_demoNotice = nullptr;
    QWidget *m_banner = nullptr;
    QLabel *m_bannerText = nullptr;
    QScrollArea *m_transcriptArea = nullptr;
    QVBoxLayout *m_transcriptLayout = nullptr; // of the widget m_transcriptArea shows
    ChatInput *m_input = nullptr;
    QLabel *m_status = nullptr;
    QPushButton *m_sendButton = nullptr;
    QPushButton *m_stopButton = nullptr;
    QAction *m_newAction = nullptr;
    QAction *m_renameAction = nullptr;
    QAction *m_deleteAction = nullptr;
    QTimer m_searchTimer;
    QTimer m_documentTimer;
    QTimer m_checkpointTimer;

    // The conversation shown.
    qint64 m_conversationId = 0; // 0: a new chat not stored yet
    QString m_title;
    ConversationMode m_mode = ConversationMode::FreeChat;
    QList<StoredMessage> m_messages;
    bool m_showAll = false;
    bool m_stickToBottom = true;

    // The prompt the debounce strategy builds from.
    Prefetch::CompiledPrompt m_compiled;
    std::optional<Llm::Error> m_compileError;
    Llm::ProviderProfile m_compiledProfile;
    bool m_compiledValid = false; // m_compiled/m_compileError reflect m_compiledProfile & document
    bool m_compiledWithDocument = false;
    QString m_compiledDocument;
    bool m_builderInstalled = false;
    bool m_promptDirty = true;
    bool m_compiling = false;
    quint64 m_compileGeneration = 0;

    std::optional<PendingSend> m_pendingSend;
    std::unique_ptr<Exchange> m_exchange;
};

} // namespace Gui
