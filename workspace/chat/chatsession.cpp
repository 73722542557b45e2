// ChatSession (chatsession.h says what it is). Over 600 lines: its request is ChatPrompt's and its
// exchange ChatExchange's; what is left is one conversation's life (open, send, edit, regenerate,
// delete, store), whose steps share the session's state.
#include "workspace/chat/chatsession.h"

#include "workspace/chat/chatexchange.h"
#include "workspace/chat/chatprompt.h"
#include "workspace/chat/followupoffer.h"
#include "workspace/documents/document.h"
#include "workspace/settings/assistantsettings.h"

#include "knowledge/library.h"
#include "knowledge/libraryretrieval.h"
#include "prefetch/acknowledgement.h"
#include "prefetch/engine.h"
#include "prefetch/strategies/debouncestrategy.h"
#include "prefetch/stream/answerfetch.h"
#include "prefetch/stream/answerreader.h"

#include <QRandomGenerator>

#include <limits>
#include <utility>

// ChatSession: the prompt and sending (ChatPrompt makes the requests), the conversation as a
// whole (opening, starting, removing, renaming; regenerate, edit and resend, delete), and each
// exchange from start to end (ChatExchange follows the stream into its stored row).
// Over 600 lines for a reason: what is left here all reads and writes the one list of rows and
// the one exchange, in an order the store depends on (question, then answer, then the cut of an
// edit); the parts that stand alone are ChatPrompt and ChatExchange.

namespace Gui {

namespace {

// A streamed answer is written to the store this often, so a crash loses at most this much.
constexpr int CheckpointIntervalMs = 2000;
// Edits to the document settle this long before the chat's builder follows them.
constexpr int DocumentSettleMs = 400;

constexpr int TitleChars = 60;

QString titleFrom(const QString &message)
{
    QString line = message.section(u'\n', 0, 0, QString::SectionSkipEmpty).simplified();
    if (line.size() > TitleChars)
        line = line.left(TitleChars - 1).trimmed() + QChar(0x2026);
    return line;
}

} // namespace

ChatSession::ChatSession(Prefetch::Engine *engine, Prefetch::DebounceStrategy *debounce, ConversationStore *store,
                         AssistantMemory memory, QObject *parent)
    : QObject(parent)
    , m_engine(engine)
    , m_debounce(debounce)
    , m_store(store)
    , m_assistantMemory(std::move(memory))
    , m_prompt(new ChatPrompt(this))
    , m_followUps(new FollowUpOffer(store, this))
    , m_completer(store, [this] {
        QStringList texts;
        for (const StoredMessage &m : std::as_const(m_messages))
            texts.append(m.content);
        if (m_document)
            texts.append(m_document->text());
        return texts;
    })
{
    connect(m_followUps, &FollowUpOffer::changed, this, &ChatSession::followUpsChanged);
    m_assistantId = m_assistantMemory.read();
    connect(m_prompt, &ChatPrompt::ready, this, [this] {
        if (m_mode == ConversationMode::Document && ensurePrompt() && m_pendingSend && !m_exchange)
            dispatchPending();
    });
    m_documentTimer.setSingleShot(true);
    m_documentTimer.setInterval(DocumentSettleMs);
    connect(&m_documentTimer, &QTimer::timeout, this, [this] {
        if (m_mode == ConversationMode::Document)
            ensurePrompt();
    });
    m_checkpointTimer.setInterval(CheckpointIntervalMs);
    connect(&m_checkpointTimer, &QTimer::timeout, this, &ChatSession::saveProgress);
    if (m_store) {
        connect(m_store, &ConversationStore::errorOccurred, this, &ChatSession::errorOccurred);
        // Cleared here or in another window: nothing of this chat's conversation is left.
        connect(m_store, &ConversationStore::historyCleared, this, [this] {
            if (m_exchange)
                dropExchange();
            closeConversation();
        });
    }
}

ChatSession::~ChatSession()
{
    if (m_exchange && m_exchange->stream())
        disconnect(m_exchange->stream(), nullptr, this, nullptr);
    saveProgress(); // the stream is cancelled after this, when its owner destroys it
    // Nobody is left to send what a prefetch would answer.
    if (m_debounce && m_debounce->isBuilderOf(this))
        m_debounce->setBuilder({});
}

// --- document and provider -----------------------------------------------------------------------

void ChatSession::setDocument(Document *document)
{
    if (m_document != document) {
        if (m_document)
            disconnect(m_document, nullptr, this, nullptr);
        m_document = document;
        if (document) {
            connect(document, &Document::promptReady, this, [this] {
                if (m_mode != ConversationMode::Document)
                    return;
                if (ensurePrompt() && m_pendingSend && !m_exchange)
                    dispatchPending();
            });
        }
    }
    // The same document may have been given a file's text (the untouched first tab).
    if (!m_conversationId && m_messages.isEmpty() && m_mode != defaultMode()) {
        // A chat not started yet follows what is open: about the document when there is one.
        m_mode = defaultMode();
        emit modeChanged(m_mode);
    }
    ensurePrompt();
    emit contextChanged();
}

void ChatSession::setLibrary(Knowledge::Library *library)
{
    if (m_library)
        disconnect(m_library, nullptr, this, nullptr);
    m_library = library;
    m_retrieval = library ? std::make_shared<Knowledge::LibraryRetrieval>(library) : nullptr;
    if (library) {
        // New passages may answer the same draft differently: retrieve again, and let a
        // prefetch made from the old ones go.
        connect(library, &Knowledge::Library::contentsChanged, this, [this] {
            if (m_retrieval)
                m_retrieval->forget();
            if (m_mode == ConversationMode::Library && m_debounce && m_debounce->isBuilderOf(this))
                installBuilder();
        });
    }
    m_builderStale = true;
    ensurePrompt();
}

Knowledge::Library *ChatSession::library() const
{
    return m_library;
}

Prefetch::Engine *ChatSession::engine() const
{
    return m_engine;
}

Document *ChatSession::document() const
{
    return m_document;
}

void ChatSession::documentChanged()
{
    m_documentTimer.start();
}

void ChatSession::profileChanged()
{
    ensurePrompt();
}

ConversationMode ChatSession::defaultMode() const
{
    return m_document && !m_document->isBlank() ? ConversationMode::Document : ConversationMode::FreeChat;
}

qint64 ChatSession::documentTokens() const
{
    return m_mode == ConversationMode::Document ? m_prompt->documentTokens() : -1;
}

// --- prompt and builder --------------------------------------------------------------------------

// Brings the debounce strategy's builder up to date. False while the document is compiling in
// the background (no builder then; its promptReady installs one and sends what waits). Cheap
// when nothing changed: a revision and a target compared, no text read.
bool ChatSession::ensurePrompt()
{
    if (!m_engine || !m_debounce)
        return false;
    if (m_exchange) {
        uninstallBuilder(); // the next message's history needs this answer
        return true;
    }
    Document *document = m_mode == ConversationMode::Document && m_document && !m_document->isBlank()
                             ? m_document.data()
                             : nullptr;
    const Prefetch::Settings::Routing &routing = m_engine->settings().routing;
    switch (m_prompt->update({m_mode, document, m_engine->profile(), assistant(), routing.enabled,
                              routing.fastOpening ? routing.openingTokens : 0})) {
    case ChatPrompt::Update::Compiling:
        // No prefetch may answer for the previous text meanwhile.
        uninstallBuilder();
        emit contextChanged();
        return false;
    case ChatPrompt::Update::Changed:
        m_builderStale = true;
        emit contextChanged();
        break;
    case ChatPrompt::Update::Unchanged: break;
    }
    // Another window's chat may have taken the shared strategy since: then it answers for that
    // conversation, and this one's draft or message would go out with its context.
    if (m_builderStale || !m_builderInstalled || !m_debounce->isBuilderOf(this))
        installBuilder();
    return true;
}

void ChatSession::installBuilder()
{
    if (!m_debounce || !m_engine)
        return;
    // Values only, no `this`: the strategy may call them after the session is gone. While a
    // question is edited, the history is what comes before it: what sending it asks.
    const QList<Llm::ChatMessage> turns = ChatPrompt::history(m_messages,
                                                              m_editIndex >= 0 ? m_editIndex : m_messages.size());
    const ChatPrompt::Builders made = m_prompt->builders(turns, modeRetrieval(), m_attachments, m_conversationId);
    m_debounce->setBuilder(made.builder, this, made.warmer);
    // The next message replies to the answer just read (not while an earlier question is edited:
    // that one stands on what came before it).
    m_debounce->setDraftContext(
        {.afterAnswer = m_editIndex < 0 && !turns.isEmpty() && turns.constLast().role == Llm::Role::Assistant});
    m_builderInstalled = true;
    m_builderStale = false;
    // A draft typed while there was no builder (the document compiling) gets its pause now.
    if (!m_pendingSend && !m_draft.isEmpty())
        m_debounce->textChanged(m_draft, m_draftAtEnd);
    offerFollowUps();
}

void ChatSession::offerFollowUps()
{
    const bool offer = m_engine && m_engine->settings().debounce.suggestFollowUps && !m_exchange && !m_pendingSend
                       && m_editIndex < 0;
    m_followUps->update(m_conversationId, m_messages, offer);
    // Guessed only after an answer that ended here, not for one read days ago that a conversation
    // opened (at start-up, say) ends with.
    if (m_conversationId == m_answeredConversation && mayGuessFollowUp())
        m_followUps->guessFirst(m_debounce);
}

void ChatSession::guessFollowUp(const QString &text)
{
    if (m_engine && m_engine->isEnabled(Prefetch::Strategy::Hover) && m_followUps->suggestions().contains(text)
        && mayGuessFollowUp())
        m_debounce->suggest(text);
}

bool ChatSession::mayGuessFollowUp() const
{
    // With a file waiting, a guess would send it before the user has; with a draft, the user is
    // writing something else.
    return m_builderInstalled && m_debounce && m_debounce->isBuilderOf(this) && m_draft.trimmed().isEmpty()
           && m_attachments.isEmpty();
}

void ChatSession::prefetchSettingsChanged()
{
    if (m_builderInstalled)
        offerFollowUps();
}

DraftCompletion ChatSession::completionOf(const QString &draft)
{
    if (!m_engine || !m_engine->settings().debounce.completeDrafts)
        return {};
    const CompleterSource source{m_conversationId, m_messages.size(), m_exchange != nullptr, m_document.data(),
                                 m_document ? m_document->revision() : 0};
    if (source != m_completerSource) {
        m_completerSource = source;
        m_completer.invalidate();
    }
    return m_completer.complete(draft, m_followUps->suggestions());
}

void ChatSession::completionAccepted(const QString &draft, bool wholeMessage)
{
    m_draft = draft;
    if (wholeMessage && !m_pendingSend && m_debounce && m_debounce->isBuilderOf(this) && m_attachments.isEmpty())
        m_debounce->draftCompleted(draft);
}

const QStringList &ChatSession::followUps() const
{
    return m_followUps->suggestions();
}

std::shared_ptr<Knowledge::LibraryRetrieval> ChatSession::modeRetrieval() const
{
    return m_mode == ConversationMode::Library ? m_retrieval : nullptr;
}

QString ChatSession::modelFor(const QString &text, const QList<Attachment> &attachments) const
{
    return m_prompt->modelFor(text, attachments, modeRetrieval());
}

void ChatSession::uninstallBuilder()
{
    if (m_debounce && m_debounce->isBuilderOf(this))
        m_debounce->setBuilder({});
    m_builderInstalled = false;
    m_followUps->clear();
}

// --- sending -------------------------------------------------------------------------------------

void ChatSession::draftChanged(const QString &draft, bool caretAtEnd)
{
    m_draft = draft;
    m_draftAtEnd = caretAtEnd;
    if (m_pendingSend || !m_debounce)
        return;
    ensurePrompt();
    m_debounce->textChanged(draft, caretAtEnd);
}

void ChatSession::compositionChanged(const QString &preedit)
{
    if (m_pendingSend || !m_debounce || !m_debounce->isBuilderOf(this))
        return;
    m_debounce->compositionChanged(preedit);
}

bool ChatSession::setAttachments(const QList<Attachment> &attachments)
{
    if (m_pendingSend)
        return false; // the message waiting for the document goes with the ones it was sent with
    if (attachments == m_attachments)
        return true;
    m_attachments = attachments;
    // A prefetch made without them (or with others) is not the request Enter would send: the new
    // builder replaces it, and the draft gets its pause again.
    m_builderStale = true;
    ensurePrompt();
    emit attachmentsChanged();
    return true;
}

ChatSession::SendResult ChatSession::send(const QString &text, qint64 activatedNs)
{
    if (text.trimmed().isEmpty())
        return SendResult::Empty;
    if (m_pendingSend || m_exchange)
        return SendResult::Busy;
    if (!m_engine || !m_debounce)
        return SendResult::Unavailable;
    // Kept as sent (the request trims it): the history of later requests then repeats the
    // bytes the provider cached for this one, and the transcript shows what the model read.
    m_pendingSend = PendingSend{text.trimmed(), activatedNs, false, m_attachments};
    if (!ensurePrompt()) {
        emit preparingChanged(true);
        return SendResult::Preparing;
    }
    dispatchPending();
    return SendResult::Sent;
}

void ChatSession::dispatchPending()
{
    const PendingSend pending = *std::exchange(m_pendingSend, std::nullopt);
    emit preparingChanged(false);
    if (pending.regenerate) {
        dispatchRegenerate(pending.activatedNs, pending.mainModel);
        return;
    }

    // First the request (a prefetch of this very draft is taken over: the builder had the
    // history before an edited question), then the bookkeeping.
    // The response cache is asked first: an exact repeat or a near-duplicate sure enough is
    // answered from it, nothing sent; a near-duplicate good for a draft comes back in `near`.
    Prefetch::ResponseCache::Lookup near;
    Prefetch::AnswerReader *stream = m_debounce->send(pending.text, pending.activatedNs, this, &near);
    if (m_editIndex >= 0) {
        // Cut: the edited question and everything after it go. Refused by the store, they stay
        // (it said why) and the new exchange follows them.
        removeMessages(m_editIndex, m_messages.size());
        resetEdit();
    }
    // The model that answers is the request's (startExchange() reads it from the stream); only
    // an answer from the response cache has none, and routing is asked again for it.
    const QString model = stream && stream->answer() ? QString() : modelFor(pending.text, pending.attachments);
    startExchange(stream, &pending.text, pending.attachments, model, near);
    acknowledge(pending.text, pending.activatedNs);
    m_assistantMemory.write(assistant().id); // sent with it: new conversations start with it
    if (!m_attachments.isEmpty()) {
        m_attachments.clear(); // they went with it
        emit attachmentsChanged();
    }
}

void ChatSession::stop()
{
    if (m_pendingSend) {
        m_pendingSend.reset();
        emit preparingChanged(false);
    }
    if (m_exchange && m_exchange->stream())
        m_exchange->stream()->cancel(); // ends through endExchange(Partial, cancelled)
}

bool ChatSession::isPrefetching() const
{
    return m_debounce && m_debounce->isPrefetching();
}

// --- the conversation -------------------------------------------------------------------------

// --- conversations -------------------------------------------------------------------------------

bool ChatSession::ensureConversation(const QString &firstMessage)
{
    if (!m_store)
        return false;
    const QString title = titleFrom(firstMessage);
    if (m_conversationId == 0) {
        auto id = m_store->create(title.isEmpty() ? tr("New conversation") : title,
                                  m_document ? m_document->filePath() : QString(), m_mode, assistant().id);
        if (!id)
            return false;
        m_conversationId = *id;
        m_title = title;
        m_conversationDocument = m_document ? m_document->filePath() : QString();
        emit conversationOpened(m_conversationId);
        return true;
    }
    // A conversation made with "New" is named after its first message.
    if (m_messages.isEmpty() && m_title == tr("New conversation") && !title.isEmpty()
        && m_store->rename(m_conversationId, title))
        m_title = title;
    return true;
}

bool ChatSession::openConversation(qint64 id)
{
    if (!m_store)
        return false;
    const auto info = m_store->conversation(id);
    if (!info) {
        emit errorOccurred(info.error());
        emit listChanged();
        return false;
    }
    auto messages = m_store->messages(id);
    if (!messages) {
        emit errorOccurred(messages.error());
        return false;
    }
    resetEdit();
    m_conversationId = id;
    m_title = info->title;
    m_conversationDocument = info->documentPath;
    const bool modeChange = m_mode != info->mode;
    m_mode = info->mode;
    m_assistantId = info->assistantId; // unknown or removed: assistant() is General
    m_messages = std::move(*messages);
    m_builderStale = true; // another history
    ensurePrompt();
    if (modeChange)
        emit modeChanged(m_mode);
    emit assistantChanged();
    emit conversationOpened(id);
    return true;
}

bool ChatSession::newConversation()
{
    if (m_messages.isEmpty() && (m_conversationId == 0 || m_title == tr("New conversation")))
        return true; // this one is still empty: use it
    if (!m_store)
        return false;
    const auto id = m_store->create(tr("New conversation"), m_document ? m_document->filePath() : QString(),
                                    defaultMode(), m_assistants.find(m_assistantMemory.read()).id);
    if (!id)
        return false; // the store reported it
    emit listChanged();
    return openConversation(*id);
}

void ChatSession::removeConversation(qint64 id)
{
    if (!m_store)
        return;
    if (m_exchange && m_exchange->conversationId() == id)
        dropExchange(); // its answer has nowhere to go
    if (!m_store->remove(id))
        return;
    emit listChanged();
    if (id == m_conversationId)
        closeConversation();
}

bool ChatSession::clearHistory()
{
    if (!m_store || m_exchange)
        return false;
    // The cache first: should the store refuse (it says why), what it remembers still goes.
    if (m_engine) {
        if (Prefetch::ResponseCache *cache = m_engine->cachedAnswers().cache())
            cache->clear();
    }
    return m_store->removeAll().has_value(); // historyCleared closed the conversation
}

void ChatSession::dropExchange()
{
    if (m_exchange->stream()) {
        disconnect(m_exchange->stream(), nullptr, this, nullptr);
        m_exchange->stream()->cancel();
        m_exchange->stream()->deleteLater();
    }
    m_exchange.reset();
    m_checkpointTimer.stop();
    m_builderStale = true;
    emit exchangeEnded(MessageState::Partial, {}, true);
}

void ChatSession::closeConversation()
{
    resetEdit();
    m_conversationId = 0;
    m_title.clear();
    m_messages.clear();
    const auto remaining = m_store->conversations();
    if (remaining && !remaining->isEmpty() && openConversation(remaining->first().id))
        return;
    m_mode = defaultMode();
    m_assistantId = m_assistantMemory.read();
    m_prompt->invalidate();
    ensurePrompt();
    emit modeChanged(m_mode);
    emit assistantChanged();
    emit conversationOpened(0);
}

void ChatSession::conversationRenamed(qint64 id, const QString &title)
{
    if (id == m_conversationId)
        m_title = title;
}

void ChatSession::setMode(ConversationMode mode)
{
    if (mode == m_mode)
        return;
    m_mode = mode;
    if (m_conversationId && m_store)
        m_store->setMode(m_conversationId, mode);
    ensurePrompt();
    emit modeChanged(mode);
    emit contextChanged();
}

void ChatSession::setAssistants(const AssistantSettings &assistants)
{
    if (assistants == m_assistants)
        return;
    m_assistants = assistants;
    // An edited assistant changes the prompt (the key compares it); a removed one is General.
    ensurePrompt();
    emit assistantChanged();
}

void ChatSession::setAssistant(const QString &id)
{
    const QString resolved = m_assistants.find(id).id;
    m_assistantMemory.write(resolved);
    if (resolved == m_assistantId)
        return;
    m_assistantId = resolved;
    if (m_conversationId && m_store)
        m_store->setAssistant(m_conversationId, resolved); // a failure is reported by the store
    ensurePrompt();
    emit assistantChanged();
}

// --- changing the messages -----------------------------------------------------------------------

bool ChatSession::canRegenerate() const
{
    const qsizetype n = m_messages.size();
    if (!m_engine || m_exchange || m_pendingSend || m_editIndex >= 0 || n < 1)
        return false;
    // The last answer, or a last question whose answer was deleted: asked again either way.
    return m_messages.at(n - 1).role == Llm::Role::User
           || (n >= 2 && m_messages.at(n - 1).role == Llm::Role::Assistant
               && m_messages.at(n - 2).role == Llm::Role::User);
}

ChatSession::SendResult ChatSession::regenerate(qint64 activatedNs, bool mainModel)
{
    if (!m_engine || !m_debounce)
        return SendResult::Unavailable;
    if (m_exchange || m_pendingSend)
        return SendResult::Busy;
    if (!canRegenerate())
        return SendResult::Empty; // no answer to ask for again
    m_pendingSend = PendingSend{{}, activatedNs, true, {}, mainModel};
    if (!ensurePrompt()) {
        emit preparingChanged(true); // the document compiles; promptReady dispatches it
        return SendResult::Preparing;
    }
    dispatchPending();
    return SendResult::Sent;
}

void ChatSession::dispatchRegenerate(qint64 activatedNs, bool mainModel)
{
    if (!canRegenerate())
        return; // changed while the document compiled (another conversation, a deletion)
    const bool answered = m_messages.constLast().role == Llm::Role::Assistant;
    const qsizetype questionIndex = m_messages.size() - (answered ? 2 : 1);
    // A similar question's answer served, asked for again: it did not answer this question.
    if (m_servedNear.answerId > 0 && m_messages.constLast().id == m_servedNear.answerId && m_engine)
        m_engine->cachedAnswers().rejectServed(m_servedNear.entryId);
    m_servedNear = {};
    // The old answer goes first: if the store keeps it (it said why), nothing is asked.
    if (answered && !removeMessages(questionIndex + 1, m_messages.size()))
        return;
    // A new seed: the same request again would give the same text from a deterministic backend
    // (the local engine, a model at temperature 0 that honours seeds) and is what a cache keyed
    // on the request would answer. The seed follows the messages, so the prompt cache still hits.
    Prefetch::GenerationParams params = m_prompt->params(); // the assistant's temperature and length
    params.seed = QRandomGenerator::global()->bounded(1, std::numeric_limits<int>::max());
    const StoredMessage &question = m_messages.at(questionIndex);
    const Prefetch::RenderedRequest request = m_prompt->render(ChatPrompt::history(m_messages, questionIndex),
                                                               question.content.trimmed(), question.attachments,
                                                               modeRetrieval(), params, mainModel);
    if (mainModel)
        m_engine->recorder().answerReasked();
    // Never through the debounce strategy or Engine::request(): both take over a live session
    // whose fingerprint matches, and the user asked for an answer other than the one there is.
    startExchange(m_engine->requestFresh(Prefetch::Strategy::None, request, activatedNs, this), nullptr, {},
                  request.request.model);
    acknowledge(m_messages.at(questionIndex).content.trimmed(), activatedNs); // `question` may have moved
}

bool ChatSession::beginEdit(qsizetype index)
{
    if (m_exchange || m_pendingSend || index < 0 || index >= m_messages.size()
        || m_messages.at(index).role != Llm::Role::User)
        return false;
    m_editIndex = index;
    m_builderStale = true; // a prefetch of the new text must be made with the history before it
    ensurePrompt();
    emit editChanged(index);
    return true;
}

void ChatSession::cancelEdit()
{
    if (m_editIndex < 0)
        return;
    resetEdit();
    ensurePrompt();
}

void ChatSession::resetEdit()
{
    if (std::exchange(m_editIndex, -1) < 0)
        return;
    m_builderStale = true;
    emit editChanged(-1);
}

bool ChatSession::deleteMessage(qsizetype index)
{
    if (index < 0 || index >= m_messages.size() || m_pendingSend || m_editIndex >= 0)
        return false;
    if (m_exchange && m_exchange->conversationId() == m_conversationId)
        return false; // the live answer's place in messages() must hold still
    if (!removeMessages(index, index + 1))
        return false;
    m_builderStale = true; // the history lost it
    ensurePrompt();
    emit listChanged();
    return true;
}

bool ChatSession::removeMessages(qsizetype from, qsizetype to)
{
    Q_ASSERT(0 <= from && from <= to && to <= m_messages.size());
    QList<qint64> ids;
    for (qsizetype i = from; i < to; ++i) {
        if (m_messages.at(i).id > 0) // 0: never stored (the store had refused it)
            ids.append(m_messages.at(i).id);
    }
    if (!ids.isEmpty() && (!m_store || !m_store->removeMessages(m_conversationId, ids)))
        return false;
    m_messages.remove(from, to - from);
    emit messagesChanged();
    return true;
}

// --- an exchange from start to end -----------------------------------------------------------

void ChatSession::startExchange(Prefetch::AnswerReader *stream, const QString *question,
                                const QList<Attachment> &attachments, const QString &model,
                                const Prefetch::ResponseCache::Lookup &near)
{
    m_exchange = std::make_unique<ChatExchange>(stream, model, near);
    const QString answeredBy = m_exchange->model();
    connect(stream, &Prefetch::AnswerReader::finished, this,
            [this] { endExchange(MessageState::Complete, {}, false); });
    connect(stream, &Prefetch::AnswerReader::failed, this, [this](const Llm::Error &error) {
        if (error.code() == Llm::Error::Code::Cancelled)
            endExchange(MessageState::Partial, {}, true);
        else
            endExchange(MessageState::Failed, error.message(), false);
    });
    uninstallBuilder();

    if ((!question || ensureConversation(*question)) && m_store && m_conversationId) {
        if (question) {
            StoredMessage asked;
            asked.conversationId = m_conversationId;
            asked.role = Llm::Role::User;
            asked.content = *question;
            asked.attachments = attachments;
            if (auto id = m_store->appendMessage(m_conversationId, asked)) // the text with its files, or neither
                asked.id = *id;
            m_messages.append(asked);
        }
        StoredMessage answer;
        answer.conversationId = m_conversationId;
        answer.role = Llm::Role::Assistant;
        answer.state = MessageState::Partial; // until it ends: what a crash leaves is partial
        answer.usage.model = answeredBy;
        if (auto id = m_store->appendMessage(m_conversationId, Llm::Role::Assistant, {}, {}, MessageState::Partial))
            answer.id = *id;
        m_messages.append(answer);
    } else {
        if (question)
            m_messages.append(
                {0, 0, Llm::Role::User, *question, {}, MessageState::Complete, {}, {}, {}, {}, attachments});
        m_messages.append({0, 0, Llm::Role::Assistant, {}, {}, MessageState::Partial, {}, {}, {}, {}, {}});
        m_messages.last().usage.model = answeredBy;
    }
    m_exchange->setRow(m_conversationId, m_messages.constLast().id > 0 ? m_messages.constLast().id : -1);
    if (m_mode == ConversationMode::Library && m_retrieval) { // kept from the request just built
        StoredMessage &stored = m_messages.last();
        stored.citations = m_retrieval->passagesFor(m_messages.at(m_messages.size() - 2).content.trimmed());
        if (stored.id != 0 && !stored.citations.isEmpty())
            m_store->setCitations(stored.id, stored.citations); // a failure is reported by the store
    }
    m_checkpointTimer.start();
    emit exchangeStarted(stream);
    emit listChanged();
}

void ChatSession::acknowledge(const QString &question, qint64 activatedNs)
{
    if (!m_exchange)
        return;
    if (Prefetch::Acknowledgement *acknowledgement = m_exchange->acknowledge(m_engine, question, activatedNs))
        connect(acknowledgement, &Prefetch::Acknowledgement::lineChanged, this, &ChatSession::acknowledged);
}

QString ChatSession::currentAcknowledgement() const
{
    return m_exchange ? m_exchange->acknowledgementLine() : QString();
}

QString ChatSession::acknowledgementModel() const
{
    return m_exchange ? m_exchange->acknowledgementModel() : QString();
}

void ChatSession::endExchange(MessageState state, const QString &error, bool cancelled)
{
    if (!m_exchange)
        return;
    const std::unique_ptr<ChatExchange> exchange = std::move(m_exchange);
    m_checkpointTimer.stop();
    Prefetch::AnswerReader *stream = exchange->stream();
    const QString text = stream ? stream->text() : QString();
    const QString reasoning = stream ? stream->reasoning() : QString();
    const MessageUsage usage = exchange->usage(m_engine);
    exchange->settle(m_engine, state == MessageState::Complete, text);
    m_servedNear = {};
    if (exchange->near().decision == Prefetch::ResponseCache::Decision::Serve && state == MessageState::Complete
        && exchange->answerId() > 0 && exchange->conversationId() == m_conversationId)
        m_servedNear = {exchange->answerId(), exchange->near().id};
    if (stream) {
        disconnect(stream, nullptr, this, nullptr);
        stream->deleteLater(); // we are inside its terminal signal
    }
    if (m_store && exchange->answerId() > 0)
        m_store->updateMessage(exchange->answerId(), text, reasoning, state, error, usage);
    if (exchange->conversationId() == m_conversationId) {
        // The answer's row: by id, or (not stored) the last answer, which is the one streaming.
        for (qsizetype i = m_messages.size() - 1; i >= 0; --i) {
            StoredMessage &m = m_messages[i];
            if (m.role == Llm::Role::Assistant && (exchange->answerId() <= 0 || m.id == exchange->answerId())) {
                m.content = text;
                m.reasoning = reasoning;
                m.state = state;
                m.error = error;
                m.usage = usage;
                break;
            }
        }
    }
    m_builderStale = true; // the history grew
    if (state == MessageState::Complete)
        m_answeredConversation = exchange->conversationId();
    ensurePrompt();
    emit exchangeEnded(state, error, cancelled);
    emit listChanged();
}

void ChatSession::saveProgress()
{
    if (m_exchange)
        m_exchange->checkpoint(m_store);
}

Prefetch::AnswerReader *ChatSession::currentAnswer() const
{
    return m_exchange ? m_exchange->stream() : nullptr;
}

CachedAnswer ChatSession::currentCached() const
{
    return m_exchange ? m_exchange->cached() : CachedAnswer::None;
}

QString ChatSession::currentDraft() const
{
    return m_exchange ? m_exchange->draft() : QString();
}

qint64 ChatSession::answeringConversationId() const
{
    return m_exchange ? m_exchange->conversationId() : 0;
}

qsizetype ChatSession::liveMessageIndex() const
{
    if (!m_exchange || m_exchange->conversationId() != m_conversationId)
        return -1;
    for (qsizetype i = m_messages.size() - 1; i >= 0; --i) {
        const StoredMessage &m = m_messages.at(i);
        if (m.role != Llm::Role::Assistant)
            continue;
        if (m_exchange->answerId() <= 0 || m.id == m_exchange->answerId())
            return i;
    }
    return -1;
}

} // namespace Gui
