#include "workspace/chat/chatprompt.h"

#include "workspace/chat/assistantprompt.h"
#include "workspace/documents/document.h"

#include "knowledge/libraryretrieval.h"
#include "llm/log.h"
#include "prefetch/prompts/actionprompts.h"
#include "prefetch/text/messageroute.h"

#include <spdlog/spdlog.h>

namespace Gui {

namespace {

spdlog::logger &log()
{
    return Llm::moduleLogger("ui");
}

// The history sent with a message: the newest turns within these bounds (a context window is
// finite, and so is the memory a long conversation may take per request).
constexpr qsizetype MaxHistoryMessages = 200;
constexpr qint64 MaxHistoryTokens = 32'000;
// How many of the oldest turns leave the history together once it is past those bounds.
constexpr qsizetype HistoryStepTurns = 8;

using FastUse = ChatPrompt::FastUse;

// The fast model may take part: free chat without attached files or passages.
bool fastMayTakePart(const FastUse &fast, const std::shared_ptr<Knowledge::LibraryRetrieval> &retrieval,
                     const QList<Attachment> &attachments)
{
    return !fast.prompt.isNull() && !retrieval && attachments.isEmpty();
}

// The route of free chat (Prefetch::messageKind). Attached files always go to the main model.
bool routesToFast(const FastUse &fast, const std::shared_ptr<Knowledge::LibraryRetrieval> &retrieval,
                  const QList<Attachment> &attachments, const QString &text)
{
    return fast.routing && fastMayTakePart(fast, retrieval, attachments)
           && Prefetch::routesToFastModel(Prefetch::messageKind(text));
}

// The request for `text` after `turns`. Values only: the debounce strategy's builder may run it
// after the session is gone. The route is decided here, from the text, so a prefetch of a draft
// asks the model that sending the same text asks; so is the opening.
Prefetch::RenderedRequest chatRequest(const Prefetch::CompiledPrompt &compiled, const FastUse &fast,
                                      const QList<Llm::ChatMessage> &turns, const QString &model,
                                      const std::shared_ptr<Knowledge::LibraryRetrieval> &retrieval,
                                      const QList<Attachment> &attachments, const QString &text,
                                      const Prefetch::GenerationParams &params)
{
    const QString message = messageWithAttachments(attachments, retrieval ? retrieval->messageFor(text) : text);
    if (routesToFast(fast, retrieval, attachments, text))
        return Prefetch::renderChatMessage(fast.prompt, turns, model, message, params);
    Prefetch::RenderedRequest rendered = Prefetch::renderChatMessage(compiled, turns, model, message, params);
    if (fast.openingTokens > 0 && fastMayTakePart(fast, retrieval, attachments)
        && params.maxTokens > fast.openingTokens) {
        Prefetch::GenerationParams opening = params;
        opening.maxTokens = fast.openingTokens;
        rendered.opening = std::make_shared<const Prefetch::RenderedRequest>(
            Prefetch::renderChatMessage(fast.prompt, turns, model, message, opening));
    }
    return rendered;
}

} // namespace

ChatPrompt::ChatPrompt(QObject *parent)
    : QObject(parent)
    , m_assistantPrompt(new AssistantDocumentPrompt(this))
{
    connect(m_assistantPrompt, &AssistantDocumentPrompt::ready, this, &ChatPrompt::ready);
}

ChatPrompt::~ChatPrompt() = default;

ChatPrompt::Update ChatPrompt::update(const Inputs &in)
{
    const Llm::ProviderProfile &profile = in.profile;
    Document *document = in.document;
    const bool fastModel = profile.hasDistinctFastModel();
    const Key key{in.mode,
                  document,
                  document ? document->revision() : 0,
                  profile.target(),
                  in.assistant,
                  in.routing && fastModel,
                  fastModel && profile.canContinue() ? std::max(0, in.openingTokens) : 0,
                  profile.fastModel};
    if (m_key == key)
        return Update::Unchanged;
    std::expected<Prefetch::CompiledPrompt, Llm::Error> compiled = Prefetch::CompiledPrompt();
    qint64 tokens = -1;
    const QString &instructions = in.assistant.systemPrompt;
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
            m_key.reset();
            m_documentTokens = -1;
            return Update::Compiling;
        }
    } else if (in.mode == ConversationMode::Library) {
        compiled = Prefetch::libraryChatTemplate(instructions).compile(profile, {});
    } else {
        compiled = Prefetch::chatTemplate(false, instructions).compile(profile, {});
    }
    m_params = in.assistant.params();
    // Anthropic takes temperatures up to 1 only; the others up to 2.
    if (m_params.temperature && profile.format == Llm::ApiFormat::AnthropicMessages)
        m_params.temperature = std::min(*m_params.temperature, 1.0);
    // The same conversation for the fast model (its name is in the static prefix); only free
    // chat routes, and only where the profile's fast model is another model.
    m_compiledFast = Prefetch::CompiledPrompt();
    if (!document && in.mode != ConversationMode::Library && (key.routing || key.openingTokens > 0)) {
        Llm::ProviderProfile fast = profile;
        fast.model = profile.fastModel;
        if (auto routed = Prefetch::chatTemplate(false, instructions).compile(fast, {}))
            m_compiledFast = std::move(*routed);
    }
    if (compiled) {
        m_compiled = std::move(*compiled);
        m_compileError.reset();
    } else {
        m_compiled = Prefetch::CompiledPrompt();
        m_compileError = compiled.error();
        log().warn("chat: prompt not compiled ({})", compiled.error().codeName());
    }
    m_model = profile.model;
    m_key = key;
    m_documentTokens = tokens;
    return Update::Changed;
}

QList<Llm::ChatMessage> ChatPrompt::history(const QList<StoredMessage> &messages, qsizetype end)
{
    // Question and answer pairs; a question whose answer has no text (failed before the first
    // token) or was deleted is left out, so the model never sees a question twice in a row.
    QList<Llm::ChatMessage> turns;
    end = std::min(end, messages.size());
    for (qsizetype i = 0; i + 1 < end; ++i) {
        const StoredMessage &question = messages.at(i);
        const StoredMessage &answer = messages.at(i + 1);
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

Prefetch::RenderedRequest ChatPrompt::render(const QList<Llm::ChatMessage> &turns, const QString &text,
                                             const QList<Attachment> &attachments,
                                             const std::shared_ptr<Knowledge::LibraryRetrieval> &retrieval,
                                             const Prefetch::GenerationParams &params, bool mainModel) const
{
    return chatRequest(m_compiled, mainModel ? FastUse() : fastUse(), turns, m_model, retrieval, attachments, text,
                       params);
}

QString ChatPrompt::modelFor(const QString &text, const QList<Attachment> &attachments,
                             const std::shared_ptr<Knowledge::LibraryRetrieval> &retrieval) const
{
    if (!m_key)
        return m_model;
    return routesToFast(fastUse(), retrieval, attachments, text) ? m_key->fastModel : m_model;
}

ChatPrompt::FastUse ChatPrompt::fastUse() const
{
    // What the prompt was compiled for; nothing while it is not (a document compiling).
    return m_key ? FastUse{m_compiledFast, m_key->routing, m_key->openingTokens} : FastUse();
}

ChatPrompt::Builders ChatPrompt::builders(const QList<Llm::ChatMessage> &turns,
                                          const std::shared_ptr<Knowledge::LibraryRetrieval> &retrieval,
                                          const QList<Attachment> &attachments, qint64 conversationId) const
{
    // In library mode the passages for the text go into the message after the static prefix:
    // the draft's at a pause, the final text's at Enter; the same passages give the same
    // request, so the prefetch is taken over, other ones a request of its own.
    // A chat about a document has the document's cache key; the others the conversation's,
    // once stored.
    const auto keyed = [conversationId](const Prefetch::CompiledPrompt &prompt) {
        return prompt.cacheKey().isEmpty() && conversationId > 0
                   ? prompt.withCacheKey(Prefetch::cacheKeyFor(QStringLiteral("conversation:%1").arg(conversationId)))
                   : prompt;
    };
    const Prefetch::CompiledPrompt compiled = keyed(m_compiled);
    FastUse fast = fastUse();
    fast.prompt = keyed(fast.prompt);
    const QString model = m_model;
    // The assistant's parameters are in the prefetch too: otherwise its body (and fingerprint)
    // would differ from what Enter sends in max_tokens or temperature, and never be taken over.
    const Prefetch::GenerationParams params = m_params;
    Builders out;
    out.builder = [compiled, fast, turns, model, retrieval, attachments, params](const QString &text) {
        return chatRequest(compiled, fast, turns, model, retrieval, attachments, text, params);
    };
    // The message up to the question: the attached files, then the passages.
    out.warmer = [compiled, turns, retrieval, attachments](const QString &text) {
        const QString passages = retrieval ? retrieval->passagesPartFor(text) : QString();
        return passages.isEmpty()
                   ? Prefetch::RenderedRequest{}
                   : Prefetch::renderChatWarmup(compiled, turns, messageWithAttachments(attachments, passages));
    };
    return out;
}

} // namespace Gui
