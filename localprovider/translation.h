#pragma once

#include <QString>

namespace LocalProvider {

// Translate's stand-in: not a translation but a word-for-word replacement from a small
// built-in English-Chinese glossary, in the target language's script and labelled as such, so
// that a user sees at once which way Translate went and that the demo engine cannot translate.
// A word the glossary lacks is left out (numbers are kept). Targets other than English and
// Chinese get the text as it is, labelled. Its first sentences only, 60-300 tokens of them from
// the seed, as long as the word chain's answers. Pure; any thread.
QString standInTranslation(const QString &text, const QString &targetLanguage, quint64 seed);

} // namespace LocalProvider
