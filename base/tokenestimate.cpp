#include "base/tokenestimate.h"

namespace Base {

namespace {

// By code unit ranges rather than Unicode script (Base::isCjkLetter): punctuation and full-width
// forms count as a token each too, as the tokenizers split them.
bool isCjk(char16_t c)
{
    return (c >= 0x2E80 && c <= 0x9FFF)     // radicals, CJK punctuation, kana, Bopomofo, Hangul Jamo, Han
           || (c >= 0xAC00 && c <= 0xD7AF)  // Hangul syllables
           || (c >= 0xF900 && c <= 0xFAFF)  // compatibility ideographs
           || (c >= 0xFF00 && c <= 0xFFEF); // full-width forms
}

} // namespace

qint64 estimateTokens(QStringView text)
{
    qint64 cjk = 0;
    qint64 other = 0;
    for (qsizetype i = 0; i < text.size(); ++i) {
        const char16_t c = text[i].unicode();
        if (isCjk(c)) {
            ++cjk;
        } else if (c >= 0xD840 && c <= 0xD8BF && i + 1 < text.size() && text[i + 1].isLowSurrogate()) {
            ++cjk; // a Han character of planes 2 and 3 (extensions B and later), one surrogate pair
            ++i;
        } else {
            ++other;
        }
    }
    return cjk + (other + 3) / 4;
}

} // namespace Base
