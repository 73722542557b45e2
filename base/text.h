#pragma once

#include <QChar>

namespace Base {

// A letter of a script written without spaces between words (Han, kana, Hangul): where a word
// boundary cannot be found by spaces, so the callers count, shingle or index such text by
// character instead. By Unicode script, so every CJK block counts, the supplementary planes'
// Han included (given a whole code point).
inline bool isCjkLetter(char32_t c)
{
    switch (QChar::script(c)) {
    case QChar::Script_Han:
    case QChar::Script_Hiragana:
    case QChar::Script_Katakana:
    case QChar::Script_Hangul: return true;
    default: return false;
    }
}

} // namespace Base
