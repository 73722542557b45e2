#pragma once

#include "random.h"

#include <QHash>
#include <QString>
#include <QStringList>

namespace Bench::Gen {

// Chat messages from templates with {slot}s: a slot named like another with a 2 gets a different
// value from the same list. Chinese templates mark with '|' where an IME user commits a word (a
// slot's value may hold several); English ones have none.
struct MessageTexts {
    const QList<const char *> &aboutDocument; // UTF-8
    const QList<const char *> &free;
    const QHash<QString, QStringList> &slotValues;
};

const MessageTexts &englishMessages();
const MessageTexts &chineseMessages();

// Short English replies to an answer just read (the follow-up-user's): a word to a few, some
// asking why or for more, some for another form, some only acknowledging, some naming a part of
// the answer. Written as people write them in a chat, not from the app's completeness classifier.
const QStringList &englishFollowUps();

// Phrases a reviser inserts into a message already typed ("in plain words"), and the instructions
// a paster types above a paragraph brought from elsewhere ("Fix the grammar in this:").
extern const QStringList RevisionPhrases;
extern const QStringList PasteInstructions;

// Words an English typist might type first and then replace (the correction in a message).
extern const QStringList SecondThoughts;
// Wrong candidates an IME user might commit first (by length: index 0 holds single characters).
extern const QList<QStringList> WrongCandidates;

QString fillTemplate(Random &rng, const char *pattern, const QHash<QString, QStringList> &slotValues);

} // namespace Bench::Gen
