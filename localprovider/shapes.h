#pragma once

#include <QList>
#include <QString>
#include <QStringList>
#include <QStringView>

namespace LocalProvider {

struct Material;

// The answers of the actions that have a shape of their own, made of the user's material only
// (see Material) and seeded: the same material and seed give the same text. Not a language
// model: extraction and rearrangement of the user's own sentences and words. Pure; any thread.
namespace Shapes {

// Han carries the text: one Han character weighs about as much as a four-letter word.
bool isMostlyHan(QStringView text);

// The prose sentences of a text in order: headings, code fences and blank lines are left out,
// list items are sentences of their own, hard-wrapped lines are joined.
QStringList sentences(QStringView text);

// Summarize: the document's most central sentences (those sharing the most words with the rest
// of the document), two to six of them, in document order, as one paragraph.
QString summary(const QString &document, quint64 seed);
// Rewrite Selection: the selection's sentences in another order, clauses around a comma swapped.
QString rewrite(const QString &selection, quint64 seed);
// Explain Selection: the selection's central sentence, then the document's sentences around it,
// nearest first, then the rest of the selection, until 60-180 tokens (from the seed).
QString explanation(const QString &selection, const QString &document, quint64 seed);
// The wizard's outline: numbered sections ("1. …") with points ("   - …") from the topic's words.
QString outline(const Material &material, quint64 seed);
// The wizard's introduction: one paragraph from the topic, the audience and the outline.
QString introduction(const Material &material);
// The wizard's title options: three to five short lines from the topic's words.
QString titles(const Material &material, quint64 seed);

// The library chat: for each of the first passages that shares words with the question, its
// sentence sharing the most, followed by the passage's citation "[n]"; the first passage's first
// sentence when none shares any.
QString libraryAnswer(const QString &question, const QStringList &passages);

// The completeness classifier's answer about a chat draft, as a small model gives it: JSON with
// the confidence first and a short reason after it, {"confidence": 0.9, "reason": "..."}.
// Finished-looking (it ends a sentence) 0.9, a word or two 0.2, ending on a word that leads on
// ("and", "the", a comma) 0.1, else 0.6.
QString draftJudgement(const QString &draft);

// The instant acknowledgement of a chat message, as a small model writes it: one line, in the
// message's language, naming what is about to be thought through, never an answer.
QString acknowledgement(const QString &message);

} // namespace Shapes

} // namespace LocalProvider
