#include "searchterms.h"

#include "base/text.h"

#include <QSet>

namespace Knowledge {

namespace {

using Base::isCjkLetter;

// Code points of `text` with their UTF-16 positions.
struct CodePoint {
    char32_t value;
    qsizetype pos;
    qsizetype size;
};

QList<CodePoint> codePoints(QStringView text)
{
    QList<CodePoint> out;
    out.reserve(text.size());
    for (qsizetype i = 0; i < text.size();) {
        char32_t c = text[i].unicode();
        qsizetype n = 1;
        if (QChar::isHighSurrogate(c) && i + 1 < text.size() && text[i + 1].isLowSurrogate()) {
            c = QChar::surrogateToUcs4(text[i], text[i + 1]);
            n = 2;
        }
        out.append({c, i, n});
        i += n;
    }
    return out;
}

// Words a question has that say nothing about which passage answers it.
const QSet<QString> &stopWords()
{
    static const QSet<QString> words = [] {
        QSet<QString> s;
        for (const char *w :
             {"a",     "an",    "the",    "is",    "are",  "was",   "were",  "be",   "been", "of",    "in",   "on",
              "at",    "to",    "for",    "from",  "by",   "with",  "and",   "or",   "what", "which", "who",  "whom",
              "whose", "when",  "where",  "why",   "how",  "does",  "do",    "did",  "it",   "its",   "this", "that",
              "these", "those", "as",     "about", "into", "my",    "our",   "your", "i",    "we",    "you",  "me",
              "can",   "could", "should", "would", "will", "there", "their", "they", "he",   "she",   "his",  "her",
              "has",   "have",  "had",    "not",   "no",   "tell",  "please"})
            s.insert(QString::fromLatin1(w));
        return s;
    }();
    return words;
}

// Function characters of Chinese questions; a pair or triple made only of them is dropped.
bool isCjkStopChar(char32_t c)
{
    static const QSet<char32_t> chars = [] {
        QSet<char32_t> s;
        for (char32_t ch : U"的了是在吗呢吧和与及谁什么哪怎多少个有请问为")
            if (ch)
                s.insert(ch);
        return s;
    }();
    return chars.contains(c);
}

QString fromCodePoints(const QList<CodePoint> &cps, qsizetype from, qsizetype count)
{
    QString s;
    for (qsizetype i = from; i < from + count; ++i)
        s.append(QString::fromUcs4(&cps[i].value, 1));
    return s;
}

} // namespace

QString tokenizerSpec(Tokenization mode)
{
    return mode == Tokenization::Trigram ? QStringLiteral("trigram")
                                         : QStringLiteral("porter unicode61 remove_diacritics 2");
}

QString indexedText(QStringView text, Tokenization mode)
{
    if (mode == Tokenization::Trigram)
        return text.toString();
    const QList<CodePoint> cps = codePoints(text);
    QString out;
    out.reserve(text.size() * 2);
    qsizetype i = 0;
    while (i < cps.size()) {
        if (!isCjkLetter(cps[i].value)) {
            out.append(text.sliced(cps[i].pos, cps[i].size));
            ++i;
            continue;
        }
        qsizetype end = i;
        while (end < cps.size() && isCjkLetter(cps[end].value))
            ++end;
        out.append(u' ');
        if (end - i == 1)
            out.append(fromCodePoints(cps, i, 1));
        for (qsizetype j = i; j + 1 < end; ++j) {
            out.append(fromCodePoints(cps, j, 2));
            out.append(u' ');
        }
        out.append(u' ');
        i = end;
    }
    return out;
}

QStringList queryTerms(QStringView question, Tokenization mode)
{
    const QList<CodePoint> cps = codePoints(question);
    const qsizetype gram = mode == Tokenization::Trigram ? 3 : 2;
    QStringList terms;
    QSet<QString> seen;
    auto add = [&](const QString &term) {
        if (!seen.contains(term)) {
            seen.insert(term);
            terms.append(term);
        }
    };
    qsizetype i = 0;
    while (i < cps.size()) {
        const char32_t c = cps[i].value;
        qsizetype end = i + 1;
        if (isCjkLetter(c)) {
            while (end < cps.size() && isCjkLetter(cps[end].value))
                ++end;
            const qsizetype run = end - i;
            if (run == 1 && mode == Tokenization::Bigram && !isCjkStopChar(c))
                add(fromCodePoints(cps, i, 1));
            for (qsizetype j = i; j + gram <= end; ++j) {
                bool allStop = true;
                for (qsizetype k = j; k < j + gram; ++k)
                    allStop = allStop && isCjkStopChar(cps[k].value);
                if (!allStop)
                    add(fromCodePoints(cps, j, gram));
            }
        } else if (QChar::isLetterOrNumber(c)) {
            while (end < cps.size() && QChar::isLetterOrNumber(cps[end].value) && !isCjkLetter(cps[end].value))
                ++end;
            const QString word =
                question.sliced(cps[i].pos, cps[end - 1].pos + cps[end - 1].size - cps[i].pos).toString().toLower();
            // Trigram matches substrings of three or more characters only.
            if (!stopWords().contains(word) && (mode == Tokenization::Bigram || word.size() >= 3))
                add(word);
        }
        i = end;
    }
    return terms;
}

QString matchExpression(const QStringList &terms)
{
    QStringList quoted;
    quoted.reserve(terms.size());
    for (QString term : terms)
        quoted.append(u'"' + term.replace(u'"', QStringLiteral("\"\"")) + u'"');
    return quoted.join(QStringLiteral(" OR "));
}

} // namespace Knowledge
