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
// conversation ends in a complete answer and nothing else goes on. The first one's answer is
// guessed (DebounceStrategy::suggest(), a weak signal) once per answer that ended in this session
// (ChatSession says which), where this user has sent
// it at least twice and as at least MinShareToGuess of their replies, and only while the draft
// is empty and no file waits to be sent with it (a guess would send the file before the user
// has). ChatSession keeps it up to date. GUI thread.
class FollowUpOffer : public QObject
{
    Q_OBJECT

public:
    // A guess that is not taken costs about half an answer (the same prompt, most of the bill,
    // and 32 tokens of output; an assumption for answers of a few hundred tokens). Its extra cost
    // per answer is then (1 - p) / 2 for a reply sent with probability p, within the project's
    // 40 % bound from p = 0.2. Below it, the suggestion is offered and not guessed.
    static constexpr double MinShareToGuess = 0.2;

    explicit FollowUpOffer(ConversationStore *store, QObject *parent = nullptr);

    // The conversation `conversationId` as it stands, where follow-ups may be offered (`offer`:
    // the setting is on, no answer streams, no message is edited); else nothing is.
    void update(qint64 conversationId, const QList<StoredMessage> &messages, bool offer);
    void clear();
    const QStringList &suggestions() const { return m_suggestions; }

    // Guesses the first suggestion's answer with `debounce`'s builder (which must be the
    // conversation's, after its answer) where this user sends it often enough, unless it was
    // guessed for this answer already. The caller has checked that nothing is typed and no file
    // waits to be sent.
    void guessFirst(Prefetch::DebounceStrategy *debounce);

signals:
    void changed();

private:
    void set(const QStringList &suggestions);

    QPointer<ConversationStore> m_store;
    QStringList m_suggestions;
    // How often this user has sent the first suggestion: how many of their recent replies it is
    // (0 for a built-in one they have not used), and what share of them.
    double m_firstShare = 0;
    int m_firstTimes = 0;
    // The answer offered after: its conversation and place in it.
    qint64 m_conversationId = 0;
    qsizetype m_answerIndex = -1;
    // The answer whose first suggestion was guessed (at most once each).
    qint64 m_guessedConversation = 0;
    qsizetype m_guessedIndex = -1;
};

} // namespace Gui
