#pragma once

#include "workspace/chat/cachedanswer.h"
#include "workspace/chat/draftcompleter.h"
#include "workspace/conversations/conversationstore.h"
#include "workspace/settings/assistants.h"
#include "workspace/settings/assistantsettings.h"

#include "knowledge/types.h"

#include "llm/error.h"
#include "llm/providerprofile.h"
#include "prefetch/cache/responsecache.h"
#include "prefetch/prompts/prompttemplate.h"

#include <QObject>
#include <QPointer>
#include <QTimer>

#include <memory>
#include <optional>

namespace Knowledge {
class Library;
class LibraryRetrieval;
} // namespace Knowledge
namespace Prefetch {
class Acknowledgement;
class DebounceStrategy;
class Engine;
class AnswerReader;
} // namespace Prefetch

namespace Gui {

class ChatExchange;
class ChatPrompt;
class FollowUpOffer;
class Document;

// One chat, without widgets: the conversation open, its messages and mode, the prompt the
// debounce strategy builds from, sending and storing. The chat dock shows it.
//
// The request (ChatPrompt) is Prefetch::chatTemplate() for the engine's provider, in document mode on the
// document's own compiled prefix (one compile per revision, shared with the actions and the
// warm-up; a large document compiles off the GUI thread and a send waits for it). The strategy
// always holds exactly that builder, with the conversation so far as history; it is replaced
// when the conversation, its mode, the provider or the document's revision changes, and unset
// while an answer streams (the next message's history needs its text).
//
// Each exchange is stored at once (the question, and the answer as "partial"), checkpointed
// while it streams and stored with its end state: complete, stopped (partial) or failed with
// the error. saveProgress() and the destructor store what has arrived.
//
// What is there can be changed: the last answer asked for again
// (regenerate: a fresh request, never a prefetch taken over), an earlier question edited and
// sent again (the conversation is cut there: it and every later message are deleted), a message
// deleted. Each is stored at once; none is allowed while an answer of this session streams.
//
// The conversation has an assistant (workspace/settings/assistants.h), stored with it: its instructions join
// the static system prompt, and its temperature and answer length go into every request of the
// conversation, the debounce prefetch's included (the builder has them), so a prefetch is still
// the request Enter sends. An id that is not in the list (removed in Settings, imported from
// elsewhere) is General. New conversations take the assistant chosen or sent with last.
//
// GUI thread. The engine, the strategy and the store belong to the app and must outlive the
// session (they are held by QPointer and the session degrades instead of crashing if not).
class ChatSession : public QObject
{
    Q_OBJECT

public:
    enum class SendResult {
        Sent,        // the answer is on its way (exchangeStarted was emitted)
        Preparing,   // the document is compiling: it goes once it is done
        Busy,        // an answer is still coming, or a send is waiting
        Empty,       // nothing but white space
        Unavailable, // no engine or strategy
    };

    // `memory` is where the assistant chosen last is kept (AssistantMemory::inSettings() in the
    // app).
    ChatSession(Prefetch::Engine *engine, Prefetch::DebounceStrategy *debounce, ConversationStore *store,
                AssistantMemory memory, QObject *parent = nullptr);
    ~ChatSession() override;

    Prefetch::Engine *engine() const;

    // The document open in the editor, or null. Its file is stored with new conversations.
    void setDocument(Document *document);
    Document *document() const;
    // The knowledge base library mode retrieves from; null: no library mode.
    void setLibrary(Knowledge::Library *library);
    Knowledge::Library *library() const;
    // The passages that went with the question of the answer at `index` in messages(), which its
    // citations [n] point to (n - 1). Stored with the answer, so they outlive the session.
    QList<Knowledge::Passage> citationsOf(qsizetype index) const { return m_messages.value(index).citations; }
    // The document's text changed: the builder is brought up to date once the edits settle.
    void documentChanged();
    // The engine's provider changed (also noticed at the next use).
    void profileChanged();

    qint64 conversationId() const { return m_conversationId; }
    QString title() const { return m_title; }
    // The file the conversation was started about (empty: free chat, or an untitled document).
    // After a restart another document may be open: the chat says so (ChatDock).
    QString conversationDocument() const { return m_conversationDocument; }
    ConversationMode mode() const { return m_mode; }
    // What a chat not started yet is about: the document when one with text is open.
    ConversationMode defaultMode() const;
    const QList<StoredMessage> &messages() const { return m_messages; }

    void setMode(ConversationMode mode);
    // The assistants there are (Settings); the conversation's own is looked up in them.
    void setAssistants(const AssistantSettings &assistants);
    const AssistantSettings &assistants() const { return m_assistants; }
    // The conversation's assistant (General when its id is not in the list).
    Assistant assistant() const { return m_assistants.find(m_assistantId); }
    // Chooses the conversation's assistant (stored with it, and remembered for new ones).
    void setAssistant(const QString &id);
    bool openConversation(qint64 id);
    // A new conversation, or the current one when it is still empty (no empty ones pile up).
    bool newConversation();
    void removeConversation(qint64 id);
    // Clear History: every conversation goes, and the response cache's answers with them
    // (the cache holds the same questions and answers). Refused (false) while an answer of this
    // chat streams; an answer streaming in another window is stopped. The store reports failures.
    bool clearHistory();
    // The list renamed a conversation in the store.
    void conversationRenamed(qint64 id, const QString &title);

    // The input's text changed: the debounce strategy hears of it. `caretAtEnd`: the edit was at
    // the end of the text (not inside it).
    void draftChanged(const QString &draft, bool caretAtEnd = true);
    // An input method's pre-edit changed (empty: committed or cancelled): the debounce strategy
    // hears of it, as of typing.
    void compositionChanged(const QString &preedit);
    // The files attached to the message being written (while a question is edited, to that
    // question). They go before its text with the next send() and are stored with it; the
    // debounce strategy's builder has them too, so a prefetch of the draft is the request Enter
    // sends. Cleared once sent. False (unchanged) while a sent message waits for the document.
    const QList<Attachment> &attachments() const { return m_attachments; }
    bool setAttachments(const QList<Attachment> &attachments);
    SendResult send(const QString &text, qint64 activatedNs);
    // Stops the answer (kept as partial) or the send waiting for the document.
    void stop();

    // The last answer can be asked for again: it is the newest message, right after its
    // question, nothing streams or waits and no message is being edited.
    bool canRegenerate() const;
    // Replaces the last answer with a new one to the same question and history: always a new
    // request (Engine::requestFresh, with a new seed so that a deterministic or cached backend
    // answers anew), never a prefetch or a live guess of the same prompt taken over. The old
    // answer is deleted from the store when the new one starts. Stop ends it like any answer.
    // With `mainModel`, the new answer is asked of the profile's main model even where the
    // question routes to the fast one (the answer's "Ask the main model"; counted as a re-ask).
    SendResult regenerate(qint64 activatedNs, bool mainModel = false);
    // Edits the question at `index` in messages(): until send() or cancelEdit() the builder,
    // and so a prefetch of the draft, has only the history before it. send() then deletes it and
    // every later message (store and messages()) and asks with the new text. False when `index`
    // is no question or an answer streams.
    bool beginEdit(qsizetype index);
    void cancelEdit();
    // The question being edited, or -1.
    qsizetype editIndex() const { return m_editIndex; }
    // Deletes the message at `index` from the conversation and the store; the history sent with
    // the next message leaves it out. False (nothing deleted) while an answer of this conversation
    // streams, a message is edited, or the store refused (it reported why).
    bool deleteMessage(qsizetype index);
    bool isAnswering() const { return m_exchange != nullptr; }
    bool isPreparing() const { return m_pendingSend.has_value(); }
    // An answer to the draft is being prefetched.
    bool isPrefetching() const;
    Prefetch::AnswerReader *currentAnswer() const;
    // How the response cache answered the message being answered (None: not at all, or nothing
    // is being answered), and a draft's text (CachedAnswer::Draft: the earlier answer of a
    // similar question, to show until the live answer replaces it).
    CachedAnswer currentCached() const;
    QString currentDraft() const;
    // The fast model's line while a reasoning model thinks (Prefetch::Acknowledgement), until
    // the answer's text begins; empty when there is none (off, not a reasoning model, too
    // late). Never stored: it is not part of the answer.
    QString currentAcknowledgement() const;
    // The model that wrote it.
    QString acknowledgementModel() const;
    // The conversation the answer being streamed belongs to (0: none streams).
    qint64 answeringConversationId() const;
    // Index in messages() of the answer being streamed, when that conversation is open; else -1.
    qsizetype liveMessageIndex() const;
    // Stores the answer being streamed as far as it has arrived (also every few seconds).
    void saveProgress();
    // Estimated tokens of the document that goes with each message; -1 when none goes (free
    // chat, no document, or not compiled yet).
    qint64 documentTokens() const;
    // What the user may send next, offered right after a complete answer (FollowUpOffer; empty
    // while an answer streams, a message is edited, or debounce.suggestFollowUps is off). Only
    // offered: sending one is the caller's send(), on the user's click.
    const QStringList &followUps() const;
    // The user is about to pick the offered follow-up `text` (the pointer rests on it, the focus
    // came to it): its answer is guessed as the first one's is, whatever how often it was sent
    // before, where the hover strategy is on (the same signal as a rest on an action button).
    void guessFollowUp(const QString &text);
    // The engine's settings changed: the offer follows debounce.suggestFollowUps at once.
    void prefetchSettingsChanged();
    // How `draft` may go on, for the input to show in grey after it (DraftCompleter: a message
    // this user sent before or one offered, else a word of the conversation or the document);
    // empty while debounce.completeDrafts is off. Local: nothing is asked of a provider.
    DraftCompletion completionOf(const QString &draft);
    // The user accepted a completion and the input holds `draft` now (its textChanged came
    // first). A whole message is final: its answer starts at once
    // (DebounceStrategy::draftCompleted), unless a file waits to be sent with it (the guess would
    // send the file before the user has).
    void completionAccepted(const QString &draft, bool wholeMessage);

signals:
    // A conversation was opened (or a new one started): messages() was replaced.
    void conversationOpened(qint64 id);
    void modeChanged(ConversationMode mode);
    // assistant() changed: another was chosen, another conversation opened, or the list edited.
    void assistantChanged();
    // The list of conversations changed (one was created, named, removed or got a message).
    void listChanged();
    // A question and its (empty, partial) answer were appended to messages(); `stream` is it.
    void exchangeStarted(Prefetch::AnswerReader *stream);
    // The fast model's line began or grew while the answer's model thinks (currentAcknowledgement()).
    void acknowledged(const QString &line);
    // The answer ended and is stored; `error` is set when it failed, `cancelled` when stopped.
    void exchangeEnded(Gui::MessageState state, const QString &error, bool cancelled);
    // messages() changed other than by appending an exchange (a message deleted, the
    // conversation cut at an edit, an answer replaced by regenerate): show it afresh.
    void messagesChanged();
    // A question began or stopped being edited (editIndex()).
    void editChanged(qsizetype index);
    // attachments() changed (set, or sent with a message).
    void attachmentsChanged();
    void preparingChanged(bool preparing);
    // What goes with a message changed (document mode, the document, its compile).
    void contextChanged();
    // followUps() changed.
    void followUpsChanged();
    void errorOccurred(const QString &message);

private:
    // The answer being streamed is stopped and not stored (its conversation is gone).
    void dropExchange();
    // No conversation is open any more (deleted): the newest left opens, or a new empty chat.
    void closeConversation();
    // The last answer, where it is a similar question's answer served from the response cache:
    // a regenerate of it takes that entry's hit back.
    struct ServedNear {
        qint64 answerId = -1; // the answer's message id
        qint64 entryId = 0;   // the cache entry
    };
    ServedNear m_servedNear;
    struct PendingSend {
        QString text;
        qint64 activatedNs = 0;
        bool regenerate = false; // the last answer again, not `text`
        QList<Attachment> attachments = {};
        bool mainModel = false; // a regenerate asked of the main model
    };
    bool ensurePrompt();
    void installBuilder();
    void uninstallBuilder();
    // Offers follow-ups where the conversation ends in an answer (and guesses the first).
    void offerFollowUps();
    // The strategy is this conversation's, and nothing typed or attached stands in the way of
    // guessing a follow-up's answer.
    bool mayGuessFollowUp() const;
    // The retrieval library mode puts passages in with; null in the other modes.
    std::shared_ptr<Knowledge::LibraryRetrieval> modeRetrieval() const;
    // The model a request for `text` is asked of (not asked for the main model).
    QString modelFor(const QString &text, const QList<Attachment> &attachments) const;
    void dispatchPending();
    void dispatchRegenerate(qint64 activatedNs, bool mainModel);
    // Stores `question` with its `attachments` (null: it is there already, a regenerate) and the
    // empty answer, and follows `stream` into it.
    // `model`: the one asked, where the stream cannot say (an answer from the cache).
    // `near`: the response cache's near-duplicate lookup for it (Engine::answerFromCache).
    void startExchange(Prefetch::AnswerReader *stream, const QString *question, const QList<Attachment> &attachments,
                       const QString &model, const Prefetch::ResponseCache::Lookup &near = {});
    // Deletes messages()[from, to) from the store and messages(); false when the store refused.
    bool removeMessages(qsizetype from, qsizetype to);
    void resetEdit();
    // Asks the fast model for its line about `question` where Prefetch::Acknowledgement says
    // it is wanted for the exchange just started.
    void acknowledge(const QString &question, qint64 activatedNs);
    void endExchange(MessageState state, const QString &error, bool cancelled);
    bool ensureConversation(const QString &firstMessage);

    QPointer<Prefetch::Engine> m_engine;
    QPointer<Prefetch::DebounceStrategy> m_debounce;
    QPointer<ConversationStore> m_store;
    QPointer<Document> m_document;
    QPointer<Knowledge::Library> m_library;
    std::shared_ptr<Knowledge::LibraryRetrieval> m_retrieval; // shared with the builder the strategy holds

    qint64 m_conversationId = 0; // 0: a new chat not stored yet
    QString m_title;
    QString m_conversationDocument;
    ConversationMode m_mode = ConversationMode::FreeChat;
    AssistantSettings m_assistants;
    QString m_assistantId; // as stored or chosen; resolved through m_assistants
    AssistantMemory m_assistantMemory;
    QList<StoredMessage> m_messages;
    QString m_draft;                 // the input's text, for a builder that arrives after it was typed
    bool m_draftAtEnd = true;        // its last edit was at its end
    QList<Attachment> m_attachments; // the draft's

    // What goes into each request: the compiled prompts, the assistant's parameters, the history.
    ChatPrompt *m_prompt;       // child
    FollowUpOffer *m_followUps; // child
    DraftCompleter m_completer;
    // What the completer last read: it reads again once the conversation, its messages, an
    // answer streaming or the document changed.
    struct CompleterSource {
        qint64 conversationId = -1;
        qsizetype messages = -1;
        bool answering = false;
        const Document *document = nullptr; // compared, never dereferenced
        quint64 revision = 0;
        bool operator==(const CompleterSource &) const = default;
    } m_completerSource;
    qint64 m_answeredConversation = 0; // where the last answer that ended complete was
    bool m_builderInstalled = false;
    bool m_builderStale = true; // the history changed since the builder was made

    QTimer m_documentTimer;
    QTimer m_checkpointTimer;
    std::optional<PendingSend> m_pendingSend;
    qsizetype m_editIndex = -1;
    std::unique_ptr<ChatExchange> m_exchange;
};

} // namespace Gui
