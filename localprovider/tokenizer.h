#pragma once

#include <QList>
#include <QStringView>

#include <functional>

namespace LocalProvider::Tokenizer {

// Splits text into tokens the way the local provider counts them, about 4 characters per
// English token and 1 per CJK character:
//  - a word of up to 5 characters is one token, taking one leading space with it;
//    longer words are cut into 4-character pieces (the first piece takes the space);
//  - digit runs are cut into pieces of 3;
//  - every other non-space character (punctuation, symbols) is its own token, with a leading space;
//  - each CJK character (Han, kana, Hangul) is one token;
//  - other whitespace runs are cut into pieces of 4.
// The views point into `text`.
QList<QStringView> split(QStringView text);
void forEach(QStringView text, const std::function<void(QStringView)> &sink);
qsizetype count(QStringView text);

bool isCjk(char32_t codePoint);

// The code point starting at UTF-16 index i, and how many code units it takes.
struct CodePoint {
    char32_t value;
    qsizetype length;
};
CodePoint codePointAt(QStringView s, qsizetype i);

} // namespace LocalProvider::Tokenizer
