#include "workspace/chat/chatexchange.h"

#include "workspace/conversations/conversationstore.h"

#include "prefetch/acknowledgement.h"
#include "prefetch/engine.h"
#include "prefetch/stream/answerfetch.h"

namespace Gui {

ChatExchange::ChatExchange(Prefetch::AnswerReader *stream, const QString &model,
                           const Prefetch::ResponseCache::Lookup &near)
    : m_stream(stream)
    , m_model(stream && stream->answer() ? stream->answer()->request().request.model : model)
    , m_near(near)
{
}

CachedAnswer ChatExchange::cached() const
{
    const bool similar = m_near.decision == Prefetch::ResponseCache::Decision::Serve;
    if (m_stream && m_stream->isFromCache())
        return similar ? CachedAnswer::Similar : CachedAnswer::Exact;
    return m_near.decision == Prefetch::ResponseCache::Decision::Draft ? CachedAnswer::Draft : CachedAnswer::None;
}

QString ChatExchange::draft() const
{
    return cached() == CachedAnswer::Draft ? m_near.answer : QString();
}

Prefetch::Acknowledgement *ChatExchange::acknowledge(Prefetch::Engine *engine, const QString &question,
                                                     qint64 activatedNs)
{
    // An answer from the cache, or a prefetch taken over that has begun already, needs none.
    if (!m_stream || !engine || m_stream->isFromCache() || !m_stream->text().isEmpty()
        || !m_stream->reasoning().isEmpty() || !Prefetch::Acknowledgement::isWanted(*engine, m_model))
        return nullptr;
    auto *acknowledgement = new Prefetch::Acknowledgement(engine, m_stream);
    if (!acknowledgement->start(question, m_stream, activatedNs)) {
        delete acknowledgement;
        return nullptr;
    }
    m_acknowledgement = acknowledgement;
    return acknowledgement;
}

QString ChatExchange::acknowledgementLine() const
{
    if (!m_acknowledgement || !m_stream || !m_stream->text().isEmpty())
        return {};
    return m_acknowledgement->line();
}

QString ChatExchange::acknowledgementModel() const
{
    return m_acknowledgement ? m_acknowledgement->model() : QString();
}

MessageUsage ChatExchange::usage(const Prefetch::Engine *engine) const
{
    MessageUsage usage;
    if (!m_stream) {
        usage.model = m_model;
        return usage;
    }
    // Billed at the prices of the profile that served it (the provider may have been changed
    // while it streamed), each model at its own.
    if (const Prefetch::AnswerFetch *answer = m_stream->answer())
        usage = measureUsage(*m_stream, answer->profile().pricesFor(answer->request().request.model));
    else if (engine)
        usage = measureUsage(*m_stream, engine->profile().prices);
    if (usage.model.isEmpty()) // an answer from the cache: the model its exchange began with
        usage.model = m_model;
    return usage;
}

void ChatExchange::checkpoint(ConversationStore *store)
{
    if (!m_stream || !store || m_answerId <= 0)
        return;
    const qsizetype length = m_stream->text().size() + m_stream->reasoning().size();
    if (length == m_savedLength)
        return;
    MessageUsage usage; // not known until it ends; the model is
    usage.model = m_model;
    if (store->updateMessage(m_answerId, m_stream->text(), m_stream->reasoning(), MessageState::Partial, {}, usage))
        m_savedLength = length;
}

void ChatExchange::settle(Prefetch::Engine *engine, bool complete, const QString &text) const
{
    if (engine && complete && m_near.decision == Prefetch::ResponseCache::Decision::Draft)
        engine->cachedAnswers().settleDraft(m_near.id, m_near.answer, text);
}

} // namespace Gui
