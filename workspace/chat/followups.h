#pragma once

#include <QString>
#include <QStringList>

namespace Gui {

// The follow-ups a chat offers after an answer (issue 39): the short replies this user has sent
// after answers before, the ones sent at least twice first (most often, then most recently), then
// a few built-in ones in the conversation's language. Only text: nothing here sends anything.
namespace FollowUps {

// A reply short enough to be offered again: one line, at most eight words (or twenty Chinese
// characters) and 80 characters.
bool isShortReply(QStringView text);

// Up to `count` suggestions. `pastReplies` are the user's messages sent right after an answer,
// newest first (ConversationStore::recentReplies()); `chinese` picks the built-in ones.
QStringList suggest(const QStringList &pastReplies, bool chinese, int count = 3);

// Whether two replies are the same suggestion: the same words, whatever their case, spacing or
// final punctuation ("Why?" and "why").
bool isSame(QStringView a, QStringView b);

// The built-in suggestions, likeliest first.
QStringList builtIn(bool chinese);

} // namespace FollowUps

} // namespace Gui
