#pragma once

#include "workspace/conversations/conversationrecords.h"

#include <QObject>
#include <QPointer>
#include <QStringList>

namespace Prefetch {
class DebounceStrategy;
}

namespace Gui {

class ConversationStore;

// What a chat offers to send next, right after an answer (issue 39): FollowUps::suggest() on this
// user's replies in the store, in the conversation's language. Offered only while the
// conversation ends in a complete answer and nothing else goes on; the first one's answer is
// guessed once per answer (DebounceStrategy::suggest(), a weak signal), and only while the
// draft is empty and no file waits to be sent with it: a guess would send the file before the
// user has. ChatSession keeps it up to date. GUI thread.
class FollowUpOffer : public QObject
{
    Q_OBJECT

public:
    explicit FollowUpOffer(ConversationStore *store, QObject *parent = nullptr);

    // The conversation `conversationId` as it stands, where follow-ups may be offered (`offer`:
    // the setting is on, no answer streams, no message is edited); else nothing is.
    void update(qint64 conversationId, const QList<StoredMessage> &messages, bool offer);
    void clear();
    const QStringList &suggestions() const { return m_suggestions; }

    // Guesses the first suggestion's answer with `debounce`'s builder (which must be the
    // conversation's, after its answer), unless it was guessed for this answer already.
    void guessFirst(Prefetch::DebounceStrategy *debounce, bool draftEmpty, bool attachmentsWaiting);

signals:
    void changed();

private:
    void set(const QStringList &suggestions);

    QPointer<ConversationStore> m_store;
    QStringList m_suggestions;
    // The answer offered after: its conversation and place in it.
    qint64 m_conversationId = 0;
    qsizetype m_answerIndex = -1;
    // The answer whose first suggestion was guessed (at most once each).
    qint64 m_guessedConversation = 0;
    qsizetype m_guessedIndex = -1;
};

} // namespace Gui
