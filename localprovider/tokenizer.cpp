#include "tokenizer.h"

#include <QChar>

#include <algorithm>

namespace LocalProvider::Tokenizer {

namespace {

enum class Class { Space, Word, Digit, Cjk, Other };

Class classify(char32_t cp)
{
    if (QChar::isSpace(cp))
        return Class::Space;
    if (isCjk(cp))
        return Class::Cjk;
    if (QChar::isDigit(cp))
        return Class::Digit;
    if (QChar::isLetter(cp) || QChar::isMark(cp))
        return Class::Word;
    return Class::Other;
}

bool takesLeadingSpace(Class c)
{
    return c == Class::Word || c == Class::Digit || c == Class::Other;
}

template <typename Sink>
void forEachToken(QStringView text, Sink &&sink)
{
    const qsizetype n = text.size();
    const auto classAt = [text](qsizetype i) { return classify(codePointAt(text, i).value); };
    // Never cut between the two halves of a surrogate pair.
    const auto safeCut = [text, n](qsizetype pos) {
        return pos < n && text[pos].isLowSurrogate() && text[pos - 1].isHighSurrogate() ? pos + 1 : pos;
    };
    // [start, body) is the optional leading space, [body, end) the run itself.
    const auto emitRun = [&](qsizetype start, qsizetype body, qsizetype end, qsizetype whole, qsizetype piece) {
        if (end - body <= whole) {
            sink(text.sliced(start, end - start));
            return;
        }
        qsizetype from = start;
        qsizetype cut = safeCut(std::min(body + piece, end));
        for (;;) {
            sink(text.sliced(from, cut - from));
            if (cut >= end)
                break;
            from = cut;
            cut = safeCut(std::min(cut + piece, end));
        }
    };

    qsizetype i = 0;
    while (i < n) {
        qsizetype body = i;
        if (text[i] == u' ' && i + 1 < n && takesLeadingSpace(classAt(i + 1)))
            body = i + 1;
        const CodePoint cp = codePointAt(text, body);
        const Class cls = classify(cp.value);
        switch (cls) {
        case Class::Space: {
            qsizetype j = body;
            while (j < n && classAt(j) == Class::Space)
                ++j;
            // Leave the run's last space to the word that follows it, as BPE vocabularies do.
            const bool keepLast = j < n && j - 1 > body && text[j - 1] == u' ' && takesLeadingSpace(classAt(j));
            const qsizetype end = keepLast ? j - 1 : j;
            emitRun(body, body, end, 4, 4);
            i = end;
            break;
        }
        case Class::Word:
        case Class::Digit: {
            qsizetype j = body;
            while (j < n) {
                const CodePoint c = codePointAt(text, j);
                if (classify(c.value) != cls)
                    break;
                j += c.length;
            }
            if (cls == Class::Word)
                emitRun(i, body, j, 5, 4);
            else
                emitRun(i, body, j, 3, 3);
            i = j;
            break;
        }
        case Class::Cjk:
        case Class::Other:
            sink(text.sliced(i, body + cp.length - i));
            i = body + cp.length;
            break;
        }
    }
}

} // namespace

CodePoint codePointAt(QStringView s, qsizetype i)
{
    const QChar c = s[i];
    if (c.isHighSurrogate() && i + 1 < s.size() && s[i + 1].isLowSurrogate())
        return {QChar::surrogateToUcs4(c, s[i + 1]), 2};
    return {c.unicode(), 1};
}

bool isCjk(char32_t cp)
{
    return (cp >= 0x4E00 && cp <= 0x9FFF)      // CJK unified ideographs
           || (cp >= 0x3400 && cp <= 0x4DBF)   // extension A
           || (cp >= 0x20000 && cp <= 0x2EBEF) // extensions B-F
           || (cp >= 0xF900 && cp <= 0xFAFF)   // compatibility ideographs
           || (cp >= 0x3040 && cp <= 0x30FF)   // hiragana, katakana
           || (cp >= 0xAC00 && cp <= 0xD7AF);  // Hangul syllables
}

QList<QStringView> split(QStringView text)
{
    QList<QStringView> tokens;
    tokens.reserve(text.size() / 4 + 1);
    forEachToken(text, [&tokens](QStringView t) { tokens.append(t); });
    return tokens;
}

void forEach(QStringView text, const std::function<void(QStringView)> &sink)
{
    forEachToken(text, sink);
}

qsizetype count(QStringView text)
{
    qsizetype n = 0;
    forEachToken(text, [&n](QStringView) { ++n; });
    return n;
}

} // namespace LocalProvider::Tokenizer
