#include "workspace/chat/followupoffer.h"

#include "workspace/chat/followups.h"
#include "workspace/conversations/conversationstore.h"

#include "base/text.h"
#include "prefetch/strategies/debouncestrategy.h"

#include <algorithm>

namespace Gui {

namespace {

// Enough of the user's replies to find what they repeat, few enough to read at every answer's
// end without the user noticing (one indexed query).
constexpr int RepliesRead = 200;

bool hasChinese(const QString &text)
{
    return std::any_of(text.cbegin(), text.cend(), [](QChar c) { return Base::isCjkLetter(c.unicode()); });
}

} // namespace

FollowUpOffer::FollowUpOffer(ConversationStore *store, QObject *parent)
    : QObject(parent)
    , m_store(store)
{
}

void FollowUpOffer::update(qint64 conversationId, const QList<StoredMessage> &messages, bool offer)
{
    const bool afterAnswer = offer && messages.size() >= 2 && messages.constLast().role == Llm::Role::Assistant
                             && messages.constLast().state == MessageState::Complete
                             && !messages.constLast().content.trimmed().isEmpty();
    if (!afterAnswer) {
        clear();
        return;
    }
    const qsizetype index = messages.size() - 1;
    if (conversationId == m_conversationId && index == m_answerIndex && !m_suggestions.isEmpty())
        return; // offered for this answer already: the store is read once per answer
    m_conversationId = conversationId;
    m_answerIndex = index;
    // The language the user writes in now: their last question's.
    const auto question = std::find_if(messages.crbegin(), messages.crend(),
                                       [](const StoredMessage &m) { return m.role == Llm::Role::User; });
    const bool chinese = question != messages.crend() && hasChinese(question->content);
    QStringList replies;
    if (m_store) {
        if (auto read = m_store->recentReplies(RepliesRead))
            replies = std::move(*read);
        // A store that cannot be read reported it; the built-in ones are offered.
    }
    const QStringList offered = FollowUps::suggest(replies, chinese);
    m_firstTimes = offered.isEmpty() ? 0
                                     : int(std::count_if(replies.cbegin(), replies.cend(), [&](const QString &reply) {
                                           return FollowUps::isSame(reply, offered.constFirst());
                                       }));
    m_firstShare = replies.isEmpty() ? 0 : double(m_firstTimes) / double(replies.size());
    set(offered);
}

void FollowUpOffer::clear()
{
    m_conversationId = 0;
    m_answerIndex = -1;
    m_firstShare = 0;
    m_firstTimes = 0;
    set({});
}

void FollowUpOffer::guessFirst(Prefetch::DebounceStrategy *debounce)
{
    if (!debounce || m_suggestions.isEmpty())
        return;
    if (m_guessedConversation == m_conversationId && m_guessedIndex == m_answerIndex)
        return;
    if (m_firstTimes < 2 || m_firstShare < MinShareToGuess)
        return; // offered, not guessed: this user does not send it often enough to pay
    m_guessedConversation = m_conversationId;
    m_guessedIndex = m_answerIndex;
    debounce->suggest(m_suggestions.constFirst());
}

void FollowUpOffer::set(const QStringList &suggestions)
{
    if (suggestions == m_suggestions)
        return;
    m_suggestions = suggestions;
    emit changed();
}

} // namespace Gui
