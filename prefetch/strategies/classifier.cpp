#include "classifier.h"

#include "base/text.h"

#include <QHash>
#include <QObject>
#include <QRegularExpression>
#include <QTimer>

#include <algorithm>
#include <cmath>
#include <vector>

namespace Prefetch {

namespace {

// ---- Completeness weights ------------------------------------------------------------------
//
// score = Base
//       + ending          (one of: ? +0.35 | . ! +0.30 | 吗呢吧 +0.25 | 啊了呀 +0.15 | ... -0.10
//                          | , : ; - -0.30 | otherwise 0)
//       + opening         (question word or request verb: +0.20, not both)
//       + length          (< 3 words -0.15 | >= 5 words +0.12; a CJK character counts half a word)
//       + unclosed        (an open bracket, quote or inline `code`: -0.35)
// then capped: a trailing connector (and, the, to, 和, 的, 关于, ...) caps at 0.20, an open ```
// fence at 0.25; finally clamped to 0..1.
//
// Calibrated against the table in tests/tst_classifier.cpp so that the engine's default
// threshold 0.72 lets through a question or request of five words or more without final
// punctuation ("Explain the difference between TCP and UDP" 0.77, "帮我总结一下这篇文章" 0.77)
// and anything with final punctuation and a question/request word, while one-word drafts
// ("hello" 0.30), drafts ending in a connector (0.20), a colon (≤ 0.35) or inside a code fence
// (≤ 0.25) stay below it. Caps rather than penalties for connectors and fences, because no other
// signal can make "Can you tell me about the" a finished message.
constexpr double Base = 0.45;
constexpr double EndQuestionMark = 0.35;
constexpr double EndFullStop = 0.30;
constexpr double EndStrongParticle = 0.25;
constexpr double EndWeakParticle = 0.15;
constexpr double EndEllipsis = -0.10; // trailing off: "I was thinking..."
constexpr double EndCommaColon = -0.30;
constexpr double OpeningWord = 0.20;
constexpr double VeryShort = -0.15;
constexpr double LongEnough = 0.12;
constexpr double Unclosed = -0.35;
constexpr double TrailingConnectorCap = 0.20;
// A space typed after a word, with no sentence end before it: the next word is on its way.
constexpr double TrailingSpaceCap = 0.40;
constexpr double OpenFenceCap = 0.25;
constexpr int ShortWords = 3;
constexpr int LongWords = 5;
// Right after an answer (DraftContext::afterAnswer), a draft of fewer than LongWords words that
// asks for something about that answer ("shorter", "an example", "tell me more", "再短一点").
constexpr double FollowUpForm = 0.30;

const QLatin1String QuestionWords[] = {
    QLatin1String("what"),   QLatin1String("why"),   QLatin1String("how"),   QLatin1String("who"),
    QLatin1String("whom"),   QLatin1String("whose"), QLatin1String("when"),  QLatin1String("where"),
    QLatin1String("which"),  QLatin1String("can"),   QLatin1String("could"), QLatin1String("would"),
    QLatin1String("should"), QLatin1String("shall"), QLatin1String("may"),   QLatin1String("is"),
    QLatin1String("are"),    QLatin1String("was"),   QLatin1String("were"),  QLatin1String("do"),
    QLatin1String("does"),   QLatin1String("did"),   QLatin1String("will"),  QLatin1String("has"),
    QLatin1String("have"),
};

// Imperatives that open a request to an assistant: as good a sign as a question word.
const QLatin1String RequestWords[] = {
    QLatin1String("please"),   QLatin1String("explain"),   QLatin1String("summarize"), QLatin1String("summarise"),
    QLatin1String("describe"), QLatin1String("write"),     QLatin1String("list"),      QLatin1String("translate"),
    QLatin1String("give"),     QLatin1String("tell"),      QLatin1String("show"),      QLatin1String("compare"),
    QLatin1String("rewrite"),  QLatin1String("rephrase"),  QLatin1String("fix"),       QLatin1String("create"),
    QLatin1String("generate"), QLatin1String("make"),      QLatin1String("find"),      QLatin1String("suggest"),
    QLatin1String("help"),     QLatin1String("draft"),     QLatin1String("outline"),   QLatin1String("define"),
    QLatin1String("convert"),  QLatin1String("correct"),   QLatin1String("improve"),   QLatin1String("review"),
    QLatin1String("check"),    QLatin1String("recommend"), QLatin1String("proofread"), QLatin1String("analyze"),
    QLatin1String("analyse"),  QLatin1String("calculate"), QLatin1String("shorten"),   QLatin1String("expand"),
    QLatin1String("simplify"), QLatin1String("edit"),      QLatin1String("provide"),   QLatin1String("name"),
};

// Words that, in a short message right after an answer, ask something of that answer: its
// length, its form, more of it, its grounds, or again. An assumption from how people talk to
// assistants (a reply to what was just said needs few words), not a measured list. Question
// words are not here: "why" or "how" alone may open a longer question, so they count only with
// their "?" (which the ending score rewards already).
const QLatin1String FollowUpWords[] = {
    QLatin1String("shorter"),  QLatin1String("longer"),    QLatin1String("simpler"),  QLatin1String("more"),
    QLatin1String("less"),     QLatin1String("again"),     QLatin1String("continue"), QLatin1String("example"),
    QLatin1String("examples"), QLatin1String("elaborate"), QLatin1String("clarify"),  QLatin1String("details"),
    QLatin1String("detail"),   QLatin1String("source"),    QLatin1String("sources"),  QLatin1String("briefly"),
    QLatin1String("formal"),   QLatin1String("casual"),    QLatin1String("thanks"),   QLatin1String("thank"),
    QLatin1String("another"),  QLatin1String("instead"),   QLatin1String("bullet"),   QLatin1String("bullets"),
};
// The same for Chinese, anywhere in the draft (no spaces to find words by).
constexpr const char16_t *CjkFollowUps[] = {u"继续", u"再",   u"例子", u"举例", u"短一", u"长一",
                                            u"简单", u"详细", u"具体", u"展开", u"出处", u"来源",
                                            u"谢谢", u"正式", u"口语", u"换个", u"换一"};

// A draft ending in one of these is mid-sentence.
const QLatin1String TrailingConnectors[] = {
    QLatin1String("and"),   QLatin1String("or"),   QLatin1String("but"),     QLatin1String("nor"),
    QLatin1String("the"),   QLatin1String("a"),    QLatin1String("an"),      QLatin1String("to"),
    QLatin1String("of"),    QLatin1String("with"), QLatin1String("because"), QLatin1String("so"),
    QLatin1String("about"), QLatin1String("for"),  QLatin1String("in"),      QLatin1String("on"),
    QLatin1String("at"),    QLatin1String("from"), QLatin1String("by"),      QLatin1String("into"),
    QLatin1String("than"),  QLatin1String("if"),   QLatin1String("my"),      QLatin1String("your"),
    QLatin1String("their"), QLatin1String("our"),  QLatin1String("its"),     QLatin1String("between"),
};

// Chinese question words sit anywhere in the sentence, not only at its start.
constexpr const char16_t *CjkQuestionWords[] = {u"什么", u"为什么", u"怎么", u"如何", u"哪", u"谁", u"多少", u"是否"};
constexpr const char16_t *CjkRequestOpenings[] = {u"请",   u"帮我", u"帮忙", u"给我", u"麻烦",  u"总结", u"解释",
                                                  u"翻译", u"写",   u"列出", u"介绍", u"描述",  u"比较", u"生成",
                                                  u"分析", u"改写", u"润色", u"概括", u"告诉我"};
constexpr const char16_t *CjkTrailingConnectors[] = {u"和",   u"或",   u"或者", u"但是", u"但",   u"因为", u"所以",
                                                     u"的",   u"关于", u"对于", u"把",   u"跟",   u"与",   u"如果",
                                                     u"然后", u"而且", u"还有", u"以及", u"比如", u"并且"};

bool isQuestionMark(char32_t c)
{
    return c == U'?' || c == U'？' || c == U'﹖' || c == U'⁇' || c == U'⁈' || c == U'⁉' || c == U'؟';
}

bool isFullStop(char32_t c)
{
    return c == U'.' || c == U'!' || c == U'。' || c == U'！' || c == U'．' || c == U'｡' || c == U'﹒' || c == U'﹗'
           || c == U'‼' || c == U'।' || c == U'۔';
}

bool isEllipsis(char32_t c)
{
    return c == U'…' || c == U'‥' || c == U'︙';
}

bool isSentencePunctuation(char32_t c)
{
    return isQuestionMark(c) || isFullStop(c) || isEllipsis(c);
}

bool isCommaColon(char32_t c)
{
    return c == U',' || c == U'，' || c == U'、' || c == U':' || c == U'：' || c == U';' || c == U'；' || c == U'﹐'
           || c == U'﹑' || c == U'﹕' || c == U'﹔' || c == U'-' || c == U'–' || c == U'—';
}

// Closing marks after the final punctuation ('He said "yes."', '(see above.)').
bool isCloser(char32_t c)
{
    return c == U')' || c == U']' || c == U'}' || c == U'"' || c == U'\'' || c == U'”' || c == U'’' || c == U'」'
           || c == U'』' || c == U'）' || c == U'】' || c == U'》' || c == U'*' || c == U'_';
}

template <typename List>
bool containsWord(const List &list, QStringView word)
{
    return std::any_of(std::begin(list), std::end(list),
                       [word](QLatin1String w) { return word.compare(w, Qt::CaseInsensitive) == 0; });
}

// Code point at `i` (combining a surrogate pair) and its length in code units.
char32_t codePointAt(QStringView s, qsizetype i, qsizetype *units)
{
    const char16_t c = s[i].unicode();
    if (QChar::isHighSurrogate(c) && i + 1 < s.size() && s[i + 1].isLowSurrogate()) {
        *units = 2;
        return QChar::surrogateToUcs4(c, s[i + 1].unicode());
    }
    *units = 1;
    return c;
}

// Code point ending at `end` (exclusive) and its length in code units.
char32_t codePointBefore(QStringView s, qsizetype end, qsizetype *units)
{
    const char16_t c = s[end - 1].unicode();
    if (QChar::isLowSurrogate(c) && end >= 2 && s[end - 2].isHighSurrogate()) {
        *units = 2;
        return QChar::surrogateToUcs4(s[end - 2].unicode(), c);
    }
    *units = 1;
    return c;
}

struct Shape {
    int latinWords = 0;
    int cjkChars = 0;
    QStringView firstWord;  // first Latin word, if the draft starts with one
    QStringView lastWord;   // last Latin word, if the draft ends with one
    bool openFence = false; // odd number of ``` marks
    bool unclosed = false;  // an open bracket, quote or inline code span outside fences
};

Shape shapeOf(QStringView t)
{
    Shape shape;
    // Opening and closing marks outside code fences; a closer without an opener (a smiley) is
    // not an error, so only a surplus of openers counts.
    struct Pair {
        char32_t open, close;
        int opened = 0, closed = 0;
    };
    Pair pairs[] = {{U'(', U')'},   {U'[', U']'},   {U'{', U'}'},   {U'（', U'）'}, {U'【', U'】'},
                    {U'「', U'」'}, {U'『', U'』'}, {U'《', U'》'}, {U'“', U'”'},   {U'‘', U'’'}};
    int asciiQuotes = 0;
    int backticks = 0;
    bool inFence = false;
    bool seenToken = false;
    qsizetype wordStart = -1;
    qsizetype firstWordStart = -1;
    const auto endWord = [&](qsizetype end) {
        if (wordStart >= 0 && wordStart == firstWordStart)
            shape.firstWord = t.mid(wordStart, end - wordStart);
        wordStart = -1;
    };

    for (qsizetype i = 0; i < t.size();) {
        if (t.mid(i).startsWith(u"```")) {
            endWord(i);
            inFence = !inFence;
            seenToken = true;
            i += 3;
            continue;
        }
        qsizetype units = 1;
        const char32_t c = codePointAt(t, i, &units);
        const bool cjk = Base::isCjkLetter(c);
        // An apostrophe inside a word ("don't") belongs to it.
        const bool wordChar = !cjk && (QChar::isLetterOrNumber(c) || ((c == U'\'' || c == U'’') && wordStart >= 0));
        if (wordChar) {
            if (wordStart < 0) {
                wordStart = i;
                ++shape.latinWords;
                if (!seenToken)
                    firstWordStart = i;
            }
        } else {
            endWord(i);
            if (cjk)
                ++shape.cjkChars;
            else if (!inFence) {
                for (Pair &p : pairs) {
                    if (c == p.open)
                        ++p.opened;
                    else if (c == p.close)
                        ++p.closed;
                }
                if (c == U'"')
                    ++asciiQuotes;
                else if (c == U'`')
                    ++backticks;
            }
        }
        if (wordChar || cjk)
            seenToken = true; // leading marks ("> ", "**", a quote) don't hide the first word
        i += units;
    }
    if (wordStart >= 0) {
        shape.lastWord = t.mid(wordStart);
        endWord(t.size());
    }
    shape.openFence = inFence;
    shape.unclosed = asciiQuotes % 2 != 0 || backticks % 2 != 0
                     || std::any_of(std::begin(pairs), std::end(pairs),
                                    [](const Pair &p) { return p.opened > p.closed; });
    return shape;
}

double endingScore(QStringView t)
{
    qsizetype end = t.size();
    qsizetype units = 1;
    char32_t c = codePointBefore(t, end, &units);
    while (isCloser(c) && end - units > 0) {
        end -= units;
        c = codePointBefore(t, end, &units);
    }
    if (isEllipsis(c) || t.first(end).endsWith(u"..."))
        return EndEllipsis;
    if (isQuestionMark(c))
        return EndQuestionMark;
    if (isFullStop(c))
        return EndFullStop;
    if (isCommaColon(c))
        return EndCommaColon;
    if (c == U'吗' || c == U'呢' || c == U'吧' || c == U'嘛')
        return EndStrongParticle;
    if (c == U'啊' || c == U'了' || c == U'呀')
        return EndWeakParticle;
    return 0.0;
}

bool hasTrailingConnector(QStringView t, const Shape &shape)
{
    if (!shape.lastWord.isEmpty())
        return containsWord(TrailingConnectors, shape.lastWord);
    return std::any_of(std::begin(CjkTrailingConnectors), std::end(CjkTrailingConnectors),
                       [t](const char16_t *w) { return t.endsWith(QStringView(w)); });
}

// A word of FollowUpWords anywhere in the draft, or a Chinese follow-up form.
bool mentionsFollowUp(QStringView t, const Shape &shape)
{
    if (shape.cjkChars > 0 && std::any_of(std::begin(CjkFollowUps), std::end(CjkFollowUps), [t](const char16_t *w) {
            return t.contains(QStringView(w));
        }))
        return true;
    qsizetype start = -1;
    for (qsizetype i = 0; i <= t.size(); ++i) {
        const bool letter = i < t.size() && t.at(i).isLetter() && !Base::isCjkLetter(t.at(i).unicode());
        if (letter && start < 0) {
            start = i;
        } else if (!letter && start >= 0) {
            if (containsWord(FollowUpWords, t.mid(start, i - start)))
                return true;
            start = -1;
        }
    }
    return false;
}

double openingScore(QStringView t, const Shape &shape)
{
    if (!shape.firstWord.isEmpty()
        && (containsWord(QuestionWords, shape.firstWord) || containsWord(RequestWords, shape.firstWord)))
        return OpeningWord;
    if (shape.cjkChars == 0)
        return 0.0;
    const bool question = std::any_of(std::begin(CjkQuestionWords), std::end(CjkQuestionWords),
                                      [t](const char16_t *w) { return t.contains(QStringView(w)); });
    const bool request = std::any_of(std::begin(CjkRequestOpenings), std::end(CjkRequestOpenings),
                                     [t](const char16_t *w) { return t.startsWith(QStringView(w)); });
    return question || request ? OpeningWord : 0.0;
}

// ---- Similarity ----------------------------------------------------------------------------

// Levenshtein distance by Myers' bit-vector algorithm in Hyyrö's multi-word form: the pattern's
// columns are held 64 to a word, so the cost is O(|pattern| / 64 · |text|).
qsizetype bitParallelLevenshtein(QStringView pattern, QStringView text)
{
    const qsizetype m = pattern.size();
    const qsizetype words = (m + 63) / 64;
    // One row of `words` match masks per distinct pattern character that also occurs in the
    // text (no other row is ever read), allocated once: growing it row by row cost more than
    // the comparison for CJK text, which has thousands of distinct characters.
    QHash<char16_t, qsizetype> rowOf;
    rowOf.reserve(std::min<qsizetype>(m, 4096));
    for (const QChar c : pattern)
        rowOf.insert(c.unicode(), -1);
    qsizetype rows = 0;
    for (const QChar c : text) {
        const auto it = rowOf.find(c.unicode());
        if (it != rowOf.end() && *it < 0)
            *it = rows++;
    }
    std::vector<quint64> peq(size_t(rows * words), 0);
    for (qsizetype i = 0; i < m; ++i) {
        const qsizetype row = rowOf.value(pattern[i].unicode());
        if (row >= 0)
            peq[size_t(row * words + i / 64)] |= quint64(1) << (i % 64);
    }
    const std::vector<quint64> none(size_t(words), 0);
    std::vector<quint64> vp(size_t(words), ~quint64(0));
    std::vector<quint64> vn(size_t(words), 0);
    const quint64 last = quint64(1) << ((m - 1) % 64);
    qsizetype distance = m;

    for (const QChar t : text) {
        const qsizetype row = rowOf.value(t.unicode(), -1);
        const quint64 *pm = row < 0 ? none.data() : peq.data() + row * words;
        quint64 hpCarry = 1; // the top row of the DP matrix grows by one per text character
        quint64 hnCarry = 0;
        for (qsizetype w = 0; w < words; ++w) {
            const size_t k = size_t(w);
            const quint64 x = pm[k] | hnCarry;
            const quint64 d0 = (((x & vp[k]) + vp[k]) ^ vp[k]) | x | vn[k];
            quint64 hp = vn[k] | ~(d0 | vp[k]);
            quint64 hn = d0 & vp[k];
            const quint64 hpIn = hpCarry;
            const quint64 hnIn = hnCarry;
            if (w < words - 1) {
                hpCarry = hp >> 63;
                hnCarry = hn >> 63;
            } else {
                hpCarry = (hp & last) ? 1 : 0;
                hnCarry = (hn & last) ? 1 : 0;
            }
            hp = (hp << 1) | hpIn;
            hn = (hn << 1) | hnIn;
            vp[k] = hn | ~(d0 | hp);
            vn[k] = hp & d0;
        }
        distance += qsizetype(hpCarry) - qsizetype(hnCarry);
    }
    return distance;
}

// Block steps of the exact algorithm allowed per comparison: two 8192-unit texts.
constexpr qint64 ExactBudget = qint64(ExactSimilarityLimit / 64) * ExactSimilarityLimit;
// Anchor length for long texts: long enough to be unique in prose, short enough to fit between
// scattered edits.
constexpr qsizetype AnchorLength = 16;

qsizetype boundedDistance(QStringView a, QStringView b, qint64 &budget, bool mayAnchor);

// Splitting both texts at monotone points and adding up the pieces' distances is an alignment,
// so the sum is an upper bound of the true distance. The split points are Q-grams that occur
// exactly once in each text, chained by the longest run increasing in both (as patience diff
// does with unique lines); each match is extended as far as it goes. Near copies get dense
// anchors and small gaps, so the bound is tight; unrelated texts get none and count as
// entirely different.
qsizetype anchoredDistance(QStringView a, QStringView b, qint64 &budget)
{
    if (a.size() < AnchorLength || b.size() < AnchorLength)
        return std::max(a.size(), b.size());
    // Polynomial rolling hash mod 2^64 of every AnchorLength-gram. A collision only makes a
    // poor split point, never a wrong bound.
    constexpr quint64 Base = 1'000'003;
    quint64 top = 1; // Base^(AnchorLength - 1)
    for (qsizetype i = 1; i < AnchorLength; ++i)
        top *= Base;
    // Only grams whose hash falls in one eighth of the range are candidates. The choice depends
    // on the content alone, so a gram is picked in both texts or in neither; uniqueness among
    // the picked ones is uniqueness in the text. Sorting (hash, position) pairs then finds the
    // grams unique in both, with no hash table.
    using Gram = std::pair<quint64, qsizetype>;
    const auto grams = [top](QStringView s) {
        std::vector<Gram> out;
        out.reserve(size_t(s.size() / 6));
        quint64 h = 0;
        for (qsizetype i = 0; i < s.size(); ++i) {
            if (i >= AnchorLength)
                h -= top * s[i - AnchorLength].unicode();
            h = h * Base + s[i].unicode();
            if (i >= AnchorLength - 1 && (h >> 61) == 0)
                out.emplace_back(h, i - AnchorLength + 1);
        }
        std::sort(out.begin(), out.end());
        return out;
    };
    const auto uniques = [](const std::vector<Gram> &sorted) {
        std::vector<Gram> out;
        for (size_t i = 0; i < sorted.size(); ++i) {
            const bool repeatsBefore = i > 0 && sorted[i - 1].first == sorted[i].first;
            const bool repeatsAfter = i + 1 < sorted.size() && sorted[i + 1].first == sorted[i].first;
            if (!repeatsBefore && !repeatsAfter)
                out.push_back(sorted[i]);
        }
        return out;
    };
    const std::vector<Gram> ua = uniques(grams(a));
    const std::vector<Gram> ub = uniques(grams(b));
    std::vector<std::pair<qsizetype, qsizetype>> anchors; // (in a, in b)
    for (size_t i = 0, j = 0; i < ua.size() && j < ub.size();) {
        if (ua[i].first < ub[j].first) {
            ++i;
        } else if (ub[j].first < ua[i].first) {
            ++j;
        } else {
            anchors.emplace_back(ua[i].second, ub[j].second);
            ++i;
            ++j;
        }
    }
    std::sort(anchors.begin(), anchors.end());

    // Longest chain increasing in b (patience sorting with back links).
    std::vector<qsizetype> tails;
    std::vector<qsizetype> back(anchors.size(), -1);
    for (size_t k = 0; k < anchors.size(); ++k) {
        const auto pos = std::lower_bound(tails.begin(), tails.end(), anchors[k].second,
                                          [&](qsizetype t, qsizetype v) { return anchors[size_t(t)].second < v; });
        if (pos != tails.begin())
            back[k] = *(pos - 1);
        if (pos == tails.end())
            tails.push_back(qsizetype(k));
        else
            *pos = qsizetype(k);
    }
    std::vector<std::pair<qsizetype, qsizetype>> chain;
    for (qsizetype k = tails.empty() ? -1 : tails.back(); k >= 0; k = back[size_t(k)])
        chain.push_back(anchors[size_t(k)]);
    std::reverse(chain.begin(), chain.end());

    qsizetype distance = 0;
    qsizetype ia = 0;
    qsizetype ib = 0;
    for (const auto &[pa, pb] : chain) {
        if (pa < ia || pb < ib)
            continue; // inside the match extended from an earlier anchor
        distance += boundedDistance(a.mid(ia, pa - ia), b.mid(ib, pb - ib), budget, false);
        ia = pa;
        ib = pb;
        while (ia < a.size() && ib < b.size() && a[ia] == b[ib]) {
            ++ia;
            ++ib;
        }
    }
    return distance + boundedDistance(a.mid(ia), b.mid(ib), budget, false);
}

// Exact while the bit-parallel work fits the budget (which it then uses up); otherwise an upper
// bound: anchored at the top level, "all different" for a gap between anchors.
qsizetype boundedDistance(QStringView a, QStringView b, qint64 &budget, bool mayAnchor)
{
    // Common prefix and suffix do not change the edit distance.
    qsizetype prefix = 0;
    while (prefix < a.size() && prefix < b.size() && a[prefix] == b[prefix])
        ++prefix;
    qsizetype suffix = 0;
    while (suffix < a.size() - prefix && suffix < b.size() - prefix
           && a[a.size() - 1 - suffix] == b[b.size() - 1 - suffix])
        ++suffix;
    QStringView ra = a.mid(prefix, a.size() - prefix - suffix);
    QStringView rb = b.mid(prefix, b.size() - prefix - suffix);
    if (ra.size() > rb.size())
        std::swap(ra, rb); // the shorter one is the bit-vector pattern
    if (ra.isEmpty())
        return rb.size();
    const qint64 cost = qint64((ra.size() + 63) / 64) * rb.size();
    if (cost <= budget) {
        budget -= cost;
        return bitParallelLevenshtein(ra, rb);
    }
    return mayAnchor ? anchoredDistance(ra, rb, budget) : rb.size();
}

} // namespace

double heuristicCompleteness(QStringView draft, DraftContext context)
{
    const QStringView t = draft.trimmed();
    if (t.isEmpty())
        return 0.0;
    const Shape shape = shapeOf(t);
    const int words = shape.latinWords + (shape.cjkChars + 1) / 2;

    double score = Base + endingScore(t) + openingScore(t, shape);
    // A few words are little to go on, unless they reply to the answer just read.
    if (words < ShortWords && !context.afterAnswer)
        score += VeryShort;
    else if (words >= LongWords)
        score += LongEnough;
    if (context.afterAnswer && words < LongWords && mentionsFollowUp(t, shape))
        score += FollowUpForm;
    if (shape.unclosed)
        score += Unclosed;
    if (hasTrailingConnector(t, shape))
        score = std::min(score, TrailingConnectorCap);
    if (shape.openFence)
        score = std::min(score, OpenFenceCap);
    if (draft.size() > t.size() && draft.back() == QLatin1Char(' ') && !endsSentence(t))
        score = std::min(score, TrailingSpaceCap);
    return std::clamp(score, 0.0, 1.0);
}

bool endsSentence(QStringView draft)
{
    if (draft.isEmpty())
        return false;
    qsizetype units = 1;
    const char32_t last = codePointBefore(draft, draft.size(), &units);
    if (!isSentencePunctuation(last) || isEllipsis(last))
        return false;
    // "..." trails off rather than ends.
    return !(last == U'.' && draft.size() >= 2 && draft.at(draft.size() - 2) == QLatin1Char('.'));
}

QString normalizeDraft(QStringView text)
{
    QString out;
    out.reserve(text.size());
    bool pendingSpace = false;
    for (const QChar c : text) {
        if (c.isSpace()) {
            pendingSpace = !out.isEmpty();
            continue;
        }
        if (pendingSpace) {
            out += QLatin1Char(' ');
            pendingSpace = false;
        }
        out += c;
    }
    // Trailing punctuation, possibly with spaces between ("Really ?!", "好的 。").
    qsizetype end = out.size();
    while (end > 0) {
        qsizetype units = 1;
        const char32_t c = codePointBefore(out, end, &units);
        if (c != U' ' && !isSentencePunctuation(c))
            break;
        end -= units;
    }
    out.truncate(end);
    return out;
}

double draftSimilarity(QStringView a, QStringView b)
{
    const qsizetype longer = std::max(a.size(), b.size());
    if (longer == 0)
        return 1.0;
    qint64 budget = ExactBudget;
    const qsizetype distance = boundedDistance(a, b, budget, true);
    return std::clamp(1.0 - double(distance) / double(longer), 0.0, 1.0);
}

void HeuristicClassifier::classify(const QString &draft, DraftContext about, QObject *context,
                                   std::function<void(double)> done)
{
    if (!context || !done)
        return; // nowhere to deliver to: the caller has gone
    const double confidence = heuristicCompleteness(draft, about);
    // Queued through the context's event loop: callers may update their state after classify()
    // returns and before the answer, as they must for a model-based classifier.
    QTimer::singleShot(0, context, [callback = std::move(done), confidence] { callback(confidence); });
}

namespace {

// Key, separator, optional quote, number, optional percent sign. Fences and prose around it
// don't matter because only this pattern is looked for.
QRegularExpressionMatch matchConfidence(QStringView reply)
{
    static const QRegularExpression
        re(QStringLiteral(
               R"(["']?\bconfidence\b["']?\s*[:=]\s*["']?\s*([-+]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][-+]?\d+)?)\s*(%?))"),
           QRegularExpression::CaseInsensitiveOption);
    return re.match(reply);
}

std::optional<double> confidenceOf(const QRegularExpressionMatch &match)
{
    if (!match.hasMatch())
        return std::nullopt;
    bool ok = false;
    double value = match.capturedView(1).toDouble(&ok);
    if (!ok || !std::isfinite(value))
        return std::nullopt;
    if (!match.capturedView(2).isEmpty())
        value /= 100.0;
    if (value < 0.0 || value > 1.0)
        return std::nullopt;
    return value;
}

} // namespace

std::optional<double> parseConfidenceReply(QStringView reply)
{
    return confidenceOf(matchConfidence(reply));
}

std::optional<double> parseConfidencePrefix(QStringView partial)
{
    const QRegularExpressionMatch match = matchConfidence(partial);
    // Ending the text, the number may go on in the next piece ("0." then "85", or a "%").
    if (!match.hasMatch() || match.capturedEnd(0) >= partial.size())
        return std::nullopt;
    return confidenceOf(match);
}

} // namespace Prefetch
