#pragma once

#include "workspace/chat/cachedanswer.h"
#include "workspace/conversations/messageusage.h"

#include "prefetch/cache/responsecache.h"
#include "prefetch/stream/answerreader.h"

#include <QPointer>
#include <QString>

namespace Prefetch {
class Acknowledgement;
class Engine;
} // namespace Prefetch

namespace Gui {

class ConversationStore;

// One answer on its way into a conversation: the stream it comes from, the stored row it goes
// into (checkpointed while it streams, so a crash loses at most a few seconds), the model that
// answers, how the response cache answered it, and the fast model's line while a reasoning model
// thinks. ChatSession makes one per message sent and keeps the conversation's rows in step.
// GUI thread; a value the session owns, never shared.
class ChatExchange
{
public:
    // `model`: the one asked where the stream cannot say (an answer from the cache); the
    // request's otherwise (a prefetch taken over was asked of the model its builder routed to).
    ChatExchange(Prefetch::AnswerReader *stream, const QString &model, const Prefetch::ResponseCache::Lookup &near);

    Prefetch::AnswerReader *stream() const { return m_stream; }
    // The conversation and the stored answer's row it goes into, once the question is stored;
    // `answerId` -1 when the store refused it (the answer is shown, not kept).
    void setRow(qint64 conversationId, qint64 answerId)
    {
        m_conversationId = conversationId;
        m_answerId = answerId;
    }
    qint64 conversationId() const { return m_conversationId; }
    qint64 answerId() const { return m_answerId; }
    QString model() const { return m_model; }
    const Prefetch::ResponseCache::Lookup &near() const { return m_near; }

    // How the response cache answered, and a draft's text (the similar question's answer, shown
    // until the live answer replaces it).
    CachedAnswer cached() const;
    QString draft() const;

    // Asks the fast model for its line about `question` where Prefetch::Acknowledgement says it
    // is wanted; the acknowledgement (a child of the stream) or null.
    Prefetch::Acknowledgement *acknowledge(Prefetch::Engine *engine, const QString &question, qint64 activatedNs);
    // The line until the answer's text begins; empty when there is none.
    QString acknowledgementLine() const;
    QString acknowledgementModel() const;

    // What the answer cost and how fast it came, each model at its own prices (a routed answer
    // at the fast model's); `engine`'s profile where the stream has no request (the cache).
    MessageUsage usage(const Prefetch::Engine *engine) const;
    // Stores what has arrived when it grew since the last time.
    void checkpoint(ConversationStore *store);
    // The answer ended with `text`: a draft held when the live answer said the same counts for
    // that cache entry, which lets a similar question later be served from it.
    void settle(Prefetch::Engine *engine, bool complete, const QString &text) const;

private:
    QPointer<Prefetch::AnswerReader> m_stream;
    qint64 m_conversationId = 0;
    qint64 m_answerId = -1;
    qsizetype m_savedLength = 0; // text and reasoning length at the last checkpoint
    QString m_model;
    Prefetch::ResponseCache::Lookup m_near; // when the cache served or drafted the answer
    QPointer<Prefetch::Acknowledgement> m_acknowledgement;
};

} // namespace Gui
