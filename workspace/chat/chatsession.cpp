#include "workspace/chat/chatsession.h"

#include "workspace/chat/assistantprompt.h"
#include "workspace/settings/assistantsettings.h"
#include "workspace/documents/document.h"
#include "knowledge/libraryretrieval.h"

#include "knowledge/library.h"

#include "llm/log.h"
#include "prefetch/actionprompts.h"
#include "prefetch/debouncestrategy.h"
#include "prefetch/engine.h"
#include "prefetch/messageroute.h"
#include "prefetch/answerreader.h"

#include <QSettings>

#include <spdlog/spdlog.h>

#include <utility>

namespace Gui {

namespace {

spdlog::logger &log() { return Llm::moduleLogger("ui"); }

// A streamed answer is written to the store this often, so a crash loses at most this much.
constexpr int CheckpointIntervalMs = 2000;
// Edits to the document settle this long before the chat's builder follows them.
constexpr int DocumentSettleMs = 400;
// The history sent with a message: the newest turns within these bounds (a context window is
// finite, and so is the memory a long conversation may take per request).
constexpr qsizetype MaxHistoryMessages = 200;
constexpr qint64 MaxHistoryTokens = 32'000;
// How many of the oldest turns leave the history together once it is past those bounds.
constexpr qsizetype HistoryStepTurns = 8;

// The route of free chat (Prefetch::messageKind): `fast` is the prompt compiled for the fast
// model, null where nothing is routed (documents, the library, a profile without a distinct
// fast model, routing off). Attached files always go to the main model.
bool routesToFast(const Prefetch::CompiledPrompt &fast, const std::shared_ptr<Knowledge::LibraryRetrieval> &retrieval,
                  const QList<Attachment> &attachments, const QString &text)
{
    return !fast.isNull() && !retrieval && attachments.isEmpty()
        && Prefetch::routesToFastModel(Prefetch::messageKind(text));
}

// The request for `text` after `turns`; with `retrieval` (library mode), the passages for the
// text go into the message, and the attached files before all of it. Values only: the debounce
// strategy's builder may run it after the session is gone. The route is decided here, from the
// text, so a prefetch of a draft asks the model that sending the same text asks.
Prefetch::RenderedRequest chatRequest(const Prefetch::CompiledPrompt &compiled, const Prefetch::CompiledPrompt &fast,
                                      const QList<Llm::ChatMessage> &turns, const QString &model,
                                      const std::shared_ptr<Knowledge::LibraryRetrieval> &retrieval,
                                      const QList<Attachment> &attachments, const QString &text,
                                      const Prefetch::GenerationParams &params = {})
{
    const QString message = messageWithAttachments(attachments, retrieval ? retrieval->messageFor(text) : text);
    const bool toFast = routesToFast(fast, retrieval, attachments, text);
    return Prefetch::renderChatMessage(toFast ? fast : compiled, turns, model, message, params);
}

} // namespace

ChatSession::ChatSession(Prefetch::Engine *engine, Prefetch::DebounceStrategy *debounce, ConversationStore *store,
                         QObject *parent)
    : QObject(parent)
    , m_engine(engine)
    , m_debounce(debounce)
    , m_store(store)
    , m_assistantPrompt(new AssistantDocumentPrompt(this))
{
    {
        QSettings settings;
        m_assistantId = lastAssistant(settings);
    }
    connect(m_assistantPrompt, &AssistantDocumentPrompt::ready, this, [this] {
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
    if (m_exchange && m_exchange->stream)
        disconnect(m_exchange->stream, nullptr, this, nullptr);
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
    return m_mode == ConversationMode::Document ? m_documentTokens : -1;
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
    const Llm::ProviderProfile &profile = m_engine->profile();
    Document *document = m_mode == ConversationMode::Document && m_document && !m_document->isBlank()
        ? m_document.data()
        : nullptr;
    const Assistant assistant = this->assistant();
    const PromptKey key{m_mode,
                        document,
                        document ? document->revision() : 0,
                        profile.target(),
                        assistant,
                        m_engine->settings().routing.enabled && profile.hasDistinctFastModel(),
                        profile.fastModel};
    if (m_promptKey != key) {
        std::expected<Prefetch::CompiledPrompt, Llm::Error> compiled = Prefetch::CompiledPrompt();
        qint64 tokens = -1;
        const QString &instructions = assistant.systemPrompt;
        // Without instructions a chat about the document shares the document's compiled prefix
        // with its actions and warm-up (one cache entry serves all); with them it has its own.
        const bool ownPrompt = document && !instructions.isEmpty();
        if (document) {
            const Prefetch::CompiledPrompt *prompt = ownPrompt ? m_assistantPrompt->prompt(document, profile, instructions)
                                                               : document->compiledPrompt(profile);
            const std::optional<Llm::Error> error = ownPrompt ? m_assistantPrompt->error() : document->promptError(profile);
            if (prompt) {
                compiled = ownPrompt ? *prompt : prompt->withDynamicPartOf(Prefetch::chatTemplate(true));
                tokens = prompt->estimatedPrefixTokens();
            } else if (error) {
                compiled = std::unexpected(*error);
            } else {
                // Compiling: no prefetch may answer for the previous text meanwhile.
                uninstallBuilder();
                m_promptKey.reset();
                m_documentTokens = -1;
                emit contextChanged();
                return false;
            }
        } else if (m_mode == ConversationMode::Library) {
            compiled = Prefetch::libraryChatTemplate(instructions).compile(profile, {});
        } else {
            compiled = Prefetch::chatTemplate(false, instructions).compile(profile, {});
        }
        m_params = assistant.params();
        // Anthropic takes temperatures up to 1 only; the others up to 2.
        if (m_params.temperature && profile.format == Llm::ApiFormat::AnthropicMessages)
            m_params.temperature = std::min(*m_params.temperature, 1.0);
        // The same conversation for the fast model (its name is in the static prefix); only
        // free chat routes, and only where the profile's fast model is another model.
        m_compiledFast = Prefetch::CompiledPrompt();
        if (!document && m_mode != ConversationMode::Library && key.routing) {
            Llm::ProviderProfile fast = profile;
            fast.model = profile.fastModel;
            if (auto routed = Prefetch::chatTemplate(false, instructions).compile(fast, {}))
                m_compiledFast = std::move(*routed);
        }
        if (compiled) {
            m_compiled = std::move(*compiled);
            m_compileError.reset();
        } else {
            // Not renderable (no model configured, ...): the builder falls back to an unencoded
            // request, and sending it reports the problem.
            m_compiled = Prefetch::CompiledPrompt();
            m_compileError = compiled.error();
            log().warn("chat: prompt not compiled ({})", compiled.error().codeName());
        }
        m_promptKey = key;
        m_documentTokens = tokens;
        m_builderStale = true;
        emit contextChanged();
    }
    // Another window's chat may have taken the shared strategy since: then it answers for that
    // conversation, and this one's draft or message would go out with its context.
    if (m_builderStale || !m_builderInstalled || !m_debounce->isBuilderOf(this))
        installBuilder();
    return true;
}

QList<Llm::ChatMessage> ChatSession::history(qsizetype end) const
{
    // Question and answer pairs; a question whose answer has no text (failed before the first
    // token) or was deleted is left out, so the model never sees a question twice in a row.
    QList<Llm::ChatMessage> turns;
    end = std::min(end, m_messages.size());
    for (qsizetype i = 0; i + 1 < end; ++i) {
        const StoredMessage &question = m_messages.at(i);
        const StoredMessage &answer = m_messages.at(i + 1);
        if (question.role != Llm::Role::User || answer.role != Llm::Role::Assistant)
            continue;
        ++i;
        if (answer.content.isEmpty())
            continue;
        // With its attachments as they were sent: the same bytes the provider cached then.
        turns.append({Llm::Role::User, messageWithAttachments(question.attachments, question.content)});
        turns.append({Llm::Role::Assistant, answer.content});
    }
    qint64 tokens = 0;
    qsizetype first = turns.size();
    while (first >= 2 && turns.size() - first + 2 <= MaxHistoryMessages) {
        const qint64 pair = Prefetch::estimateTokens(turns.at(first - 2).content)
            + Prefetch::estimateTokens(turns.at(first - 1).content);
        if (tokens + pair > MaxHistoryTokens)
            break;
        tokens += pair;
        first -= 2;
    }
    // Past the bounds the oldest turns go a block at a time, not one per message: a window that
    // slid by one turn each time would change the history's first bytes in every request, and
    // the providers' automatic prefix caches would miss all of it every turn. This way the
    // history stays the same bytes for HistoryStepTurns turns at a time.
    if (first > 0) {
        constexpr qsizetype Step = 2 * HistoryStepTurns;
        first = std::min(turns.size(), (first + Step - 1) / Step * Step);
    }
    return turns.mid(first);
}

void ChatSession::installBuilder()
{
    if (!m_debounce || !m_engine)
        return;
    // Values only, no `this`: the strategy may call it after the session is gone.
    // In library mode the passages for the text go into the message after the static prefix:
    // the draft's at a pause, the final text's at Enter; the same passages give the same
    // request, so the prefetch is taken over, other ones a request of its own.
    // While a question is edited, the history is what comes before it: what sending it asks.
    // A chat about a document has the document's cache key; the others the conversation's,
    // once stored.
    const auto keyed = [this](const Prefetch::CompiledPrompt &prompt) {
        return prompt.cacheKey().isEmpty() && m_conversationId > 0
            ? prompt.withCacheKey(Prefetch::cacheKeyFor(QStringLiteral("conversation:%1").arg(m_conversationId)))
            : prompt;
    };
    const Prefetch::CompiledPrompt compiled = keyed(m_compiled);
    const Prefetch::CompiledPrompt fast = keyed(m_compiledFast);
    const QList<Llm::ChatMessage> turns = history(m_editIndex >= 0 ? m_editIndex : m_messages.size());
    const QString model = m_engine->profile().model;
    const std::shared_ptr<Knowledge::LibraryRetrieval> retrieval = modeRetrieval();
    const QList<Attachment> attachments = m_attachments;
    // The assistant's parameters are in the prefetch too: otherwise its body (and fingerprint)
    // would differ from what Enter sends in max_tokens or temperature, and never be taken over.
    const Prefetch::GenerationParams params = m_params;
    m_debounce->setBuilder(
        [compiled, fast, turns, model, retrieval, attachments, params](const QString &text) {
            return chatRequest(compiled, fast, turns, model, retrieval, attachments, text, params);
        },
        this,
        // The message up to the question: the attached files, then the passages.
        [compiled, turns, retrieval, attachments](const QString &text) {
            const QString passages = retrieval ? retrieval->passagesPartFor(text) : QString();
            return passages.isEmpty()
                ? Prefetch::RenderedRequest{}
                : Prefetch::renderChatWarmup(compiled, turns, messageWithAttachments(attachments, passages));
        });
    m_builderInstalled = true;
    m_builderStale = false;
    // A draft typed while there was no builder (the document compiling) gets its pause now.
    if (!m_pendingSend && !m_draft.isEmpty())
        m_debounce->textChanged(m_draft);
}

Prefetch::RenderedRequest ChatSession::renderMessage(const QList<Llm::ChatMessage> &turns, const QString &text,
                                                    const QList<Attachment> &attachments,
                                                    const Prefetch::GenerationParams &params, bool mainModel) const
{
    return chatRequest(m_compiled, mainModel ? Prefetch::CompiledPrompt() : m_compiledFast, turns,
                       m_engine ? m_engine->profile().model : QString(),
                       modeRetrieval(), attachments, text, params);
}

std::shared_ptr<Knowledge::LibraryRetrieval> ChatSession::modeRetrieval() const
{
    return m_mode == ConversationMode::Library ? m_retrieval : nullptr;
}

QString ChatSession::modelFor(const QString &text, const QList<Attachment> &attachments) const
{
    if (!m_engine)
        return {};
    const Llm::ProviderProfile &profile = m_engine->profile();
    return routesToFast(m_compiledFast, modeRetrieval(), attachments, text) ? profile.fastModel : profile.model;
}

void ChatSession::uninstallBuilder()
{
    if (m_debounce && m_debounce->isBuilderOf(this))
        m_debounce->setBuilder({});
    m_builderInstalled = false;
}

// --- sending -------------------------------------------------------------------------------------

void ChatSession::draftChanged(const QString &draft)
{
    m_draft = draft;
    if (m_pendingSend || !m_debounce)
        return;
    ensurePrompt();
    m_debounce->textChanged(draft);
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
    {
        QSettings settings;
        setLastAssistant(settings, assistant().id); // sent with it: new conversations start with it
    }
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
    if (m_exchange && m_exchange->stream)
        m_exchange->stream->cancel(); // ends through endExchange(Partial, cancelled)
}

bool ChatSession::isPrefetching() const
{
    return m_debounce && m_debounce->isPrefetching();
}

} // namespace Gui
