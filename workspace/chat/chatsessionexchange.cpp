#include "workspace/chat/chatsession.h"

#include "knowledge/libraryretrieval.h"
#include "prefetch/acknowledgement.h"
#include "prefetch/answerfetch.h"
#include "prefetch/engine.h"
#include "prefetch/answerreader.h"

// ChatSession, an exchange from start to end: the question and the empty answer stored, the
// stream followed into it with checkpoints, how the response cache answered it, and the end
// (the answer stored with its usage, a cache draft settled). The rest is in chatsession.cpp.

namespace Gui {

void ChatSession::startExchange(Prefetch::AnswerReader *stream, const QString *question,
                                const QList<Attachment> &attachments, const QString &model,
                                const Prefetch::ResponseCache::Lookup &near)
{
    // The model that answers: the request's, where the stream has one (a prefetch taken over
    // was asked of the model its builder routed to); else the one this text routes to.
    const QString answeredBy = stream && stream->answer() ? stream->answer()->request().request.model : model;
    m_exchange = std::make_unique<Exchange>();
    m_exchange->stream = stream;
    m_exchange->near = near;
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
            answer.id = m_exchange->answerId = *id;
        m_messages.append(answer);
    } else {
        if (question)
            m_messages.append({0, 0, Llm::Role::User, *question, {}, MessageState::Complete, {}, {}, {}, {}, attachments});
        m_messages.append({0, 0, Llm::Role::Assistant, {}, {}, MessageState::Partial, {}, {}, {}, {}, {}});
        m_messages.last().usage.model = answeredBy;
    }
    m_exchange->conversationId = m_conversationId;
    m_exchange->model = answeredBy;
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
    Prefetch::AnswerReader *stream = m_exchange ? m_exchange->stream.data() : nullptr;
    // An answer from the cache, or a prefetch taken over that has begun already, needs none.
    if (!stream || !m_engine || stream->isFromCache() || !stream->text().isEmpty() || !stream->reasoning().isEmpty()
        || !Prefetch::Acknowledgement::isWanted(*m_engine, m_exchange->model))
        return;
    auto *acknowledgement = new Prefetch::Acknowledgement(m_engine, stream);
    if (!acknowledgement->start(question, stream, activatedNs)) {
        delete acknowledgement;
        return;
    }
    m_exchange->acknowledgement = acknowledgement;
    connect(acknowledgement, &Prefetch::Acknowledgement::lineChanged, this, &ChatSession::acknowledged);
}

QString ChatSession::currentAcknowledgement() const
{
    if (!m_exchange || !m_exchange->acknowledgement || !m_exchange->stream || !m_exchange->stream->text().isEmpty())
        return {};
    return m_exchange->acknowledgement->line();
}

QString ChatSession::acknowledgementModel() const
{
    return m_exchange && m_exchange->acknowledgement ? m_exchange->acknowledgement->model() : QString();
}

void ChatSession::endExchange(MessageState state, const QString &error, bool cancelled)
{
    if (!m_exchange)
        return;
    const std::unique_ptr<Exchange> exchange = std::move(m_exchange);
    m_checkpointTimer.stop();
    Prefetch::AnswerReader *stream = exchange->stream;
    const QString text = stream ? stream->text() : QString();
    const QString reasoning = stream ? stream->reasoning() : QString();
    MessageUsage usage = answerUsage(stream);
    if (usage.model.isEmpty()) // an answer from the cache: the model its exchange began with
        usage.model = exchange->model;
    // A draft held when the live answer said the same: that entry's hit rate, which lets a
    // similar question later be served from it.
    if (exchange->near.decision == Prefetch::ResponseCache::Decision::Draft && state == MessageState::Complete
        && m_engine)
        m_engine->cachedAnswers().settleDraft(exchange->near.id, exchange->near.answer, text);
    m_servedNear = {};
    if (exchange->near.decision == Prefetch::ResponseCache::Decision::Serve && state == MessageState::Complete
        && exchange->answerId > 0 && exchange->conversationId == m_conversationId)
        m_servedNear = {exchange->answerId, exchange->near.id};
    if (stream) {
        disconnect(stream, nullptr, this, nullptr);
        stream->deleteLater(); // we are inside its terminal signal
    }
    if (m_store && exchange->answerId > 0)
        m_store->updateMessage(exchange->answerId, text, reasoning, state, error, usage);
    if (exchange->conversationId == m_conversationId) {
        // The answer's row: by id, or (not stored) the last answer, which is the one streaming.
        for (qsizetype i = m_messages.size() - 1; i >= 0; --i) {
            StoredMessage &m = m_messages[i];
            if (m.role == Llm::Role::Assistant && (exchange->answerId <= 0 || m.id == exchange->answerId)) {
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
    ensurePrompt();
    emit exchangeEnded(state, error, cancelled);
    emit listChanged();
}

MessageUsage ChatSession::answerUsage(const Prefetch::AnswerReader *stream) const
{
    if (!stream)
        return {};
    // Billed at the prices of the profile that served it (the provider may have been changed
    // while it streamed).
    // Each model at its own prices: a routed answer is billed at the fast model's.
    if (const Prefetch::AnswerFetch *answer = stream->answer())
        return measureUsage(*stream, answer->profile().pricesFor(answer->request().request.model));
    return m_engine ? measureUsage(*stream, m_engine->profile().prices) : MessageUsage{};
}

void ChatSession::saveProgress()
{
    if (!m_exchange || !m_exchange->stream || !m_store || m_exchange->answerId <= 0)
        return;
    const Prefetch::AnswerReader *stream = m_exchange->stream;
    const qsizetype length = stream->text().size() + stream->reasoning().size();
    if (length == m_exchange->savedLength)
        return;
    MessageUsage usage; // not known until it ends; the model is
    usage.model = m_exchange->model;
    if (m_store->updateMessage(m_exchange->answerId, stream->text(), stream->reasoning(), MessageState::Partial, {},
                               usage))
        m_exchange->savedLength = length;
}

Prefetch::AnswerReader *ChatSession::currentAnswer() const
{
    return m_exchange ? m_exchange->stream.data() : nullptr;
}

CachedAnswer ChatSession::currentCached() const
{
    if (!m_exchange)
        return CachedAnswer::None;
    const bool similar = m_exchange->near.decision == Prefetch::ResponseCache::Decision::Serve;
    if (m_exchange->stream && m_exchange->stream->isFromCache())
        return similar ? CachedAnswer::Similar : CachedAnswer::Exact;
    return m_exchange->near.decision == Prefetch::ResponseCache::Decision::Draft ? CachedAnswer::Draft
                                                                                 : CachedAnswer::None;
}

QString ChatSession::currentDraft() const
{
    return currentCached() == CachedAnswer::Draft ? m_exchange->near.answer : QString();
}

qint64 ChatSession::answeringConversationId() const
{
    return m_exchange ? m_exchange->conversationId : 0;
}

qsizetype ChatSession::liveMessageIndex() const
{
    if (!m_exchange || m_exchange->conversationId != m_conversationId)
        return -1;
    for (qsizetype i = m_messages.size() - 1; i >= 0; --i) {
        const StoredMessage &m = m_messages.at(i);
        if (m.role != Llm::Role::Assistant)
            continue;
        if (m_exchange->answerId <= 0 || m.id == m_exchange->answerId)
            return i;
    }
    return -1;
}

} // namespace Gui
