#include "messageroute.h"

#include "prefetch/strategies/classifier.h"

#include <QStringList>

#include <algorithm>
#include <array>

namespace Prefetch {

namespace {

// Past these a message is not "simple" whatever it asks: a fast model's answer to a long
// question is the one users ask again.
constexpr qsizetype MaxWords = 12;
constexpr qsizetype MaxCjk = 24;
constexpr qsizetype MaxChars = 160;

// Words that ask for work a small model does worse: reasoning, writing, code, advice. Matched
// as whole words; one of four letters or more also as the start of a word ("explains",
// "summarize", "steps"). A wrong match only sends a message to the main model.
constexpr std::array WorkWords = {
    u"explain",  u"why",      u"compare",  u"difference", u"analy",     u"write",     u"draft",     u"rewrite",
    u"code",     u"program",  u"function", u"script",     u"debug",     u"error",     u"fix",       u"prove",
    u"proof",    u"calculat", u"solve",    u"derive",     u"step",      u"plan",      u"design",    u"summar",
    u"translat", u"essay",    u"story",    u"poem",       u"list",      u"pros",      u"cons",      u"recommend",
    u"should",   u"best",     u"better",   u"review",     u"optimi",    u"implement", u"algorithm", u"opinion",
    u"think",    u"advice",   u"help",     u"detail",     u"elaborate", u"describe",  u"discuss",   u"outline",
    u"improve",  u"suggest",  u"idea",     u"convert",    u"refactor",  u"document",  u"this",      u"that",
    u"above",    u"it",
};
// The same in Chinese, matched as substrings (no spaces between words).
constexpr std::array WorkCjk = {
    u"为什么", u"怎么", u"如何", u"解释", u"比较", u"区别", u"分析", u"写",   u"代码", u"程序", u"调试",
    u"错误",   u"证明", u"计算", u"推导", u"步骤", u"计划", u"设计", u"总结", u"翻译", u"改写", u"文章",
    u"故事",   u"诗",   u"列出", u"推荐", u"建议", u"优化", u"实现", u"算法", u"应该", u"最好", u"评价",
    u"详细",   u"描述", u"讨论", u"帮我", u"帮忙", u"这个", u"那个", u"上面", u"文档",
};
// Small talk: the message is one of these, or starts with one and says little more.
constexpr std::array SmallTalk = {
    u"hi",
    u"hello",
    u"hey",
    u"hiya",
    u"yo",
    u"good morning",
    u"good afternoon",
    u"good evening",
    u"good night",
    u"thanks",
    u"thank you",
    u"thx",
    u"ty",
    u"cheers",
    u"ok",
    u"okay",
    u"cool",
    u"great",
    u"nice",
    u"awesome",
    u"perfect",
    u"got it",
    u"sounds good",
    u"bye",
    u"goodbye",
    u"see you",
    u"how are you",
    u"how's it going",
    u"how is it going",
    u"what's up",
    u"lol",
    u"you're welcome",
    u"no problem",
    u"no worries",
    u"sure",
    u"yes",
    u"no",
    u"wow",
};
constexpr std::array SmallTalkCjk = {
    u"你好",   u"您好",   u"嗨",     u"哈喽",   u"谢谢", u"多谢",   u"感谢", u"早上好", u"早安",
    u"下午好", u"晚上好", u"晚安",   u"再见",   u"拜拜", u"好的",   u"嗯",   u"哈哈",   u"在吗",
    u"你好吗", u"不客气", u"没问题", u"明白了", u"收到", u"太好了", u"厉害",
};
// A factual question's opening words.
constexpr std::array Factual = {
    u"what is",   u"what's",     u"what are",    u"what was",     u"what were",     u"who is",         u"who's",
    u"who was",   u"who are",    u"who wrote",   u"who invented", u"who painted",   u"who discovered", u"who founded",
    u"who won",   u"when is",    u"when was",    u"when did",     u"when does",     u"where is",       u"where's",
    u"where are", u"where was",  u"which",       u"how many",     u"how much",      u"how old",        u"how far",
    u"how long",  u"how tall",   u"how big",     u"how high",     u"how deep",      u"what year",      u"what time",
    u"what day",  u"what color", u"what colour", u"define",       u"definition of", u"meaning of",     u"capital of",
    u"is there",  u"name the",
};
constexpr std::array FactualCjk = {
    u"是什么", u"什么是", u"是谁",     u"谁是", u"谁写", u"谁发明", u"在哪", u"哪里",
    u"哪个",   u"哪一年", u"哪年",     u"多少", u"几",   u"多大",   u"多高", u"多远",
    u"多久",   u"多长",   u"什么时候", u"何时", u"首都", u"的意思", u"定义",
};

bool isHan(char32_t c)
{
    const QChar::Script s = QChar::script(c);
    return s == QChar::Script_Han || s == QChar::Script_Hiragana || s == QChar::Script_Katakana
           || s == QChar::Script_Hangul;
}

// Lower-case words (letters, digits, apostrophes) and the CJK characters apart.
struct Tokens {
    QStringList words;
    QString cjk;
};

Tokens tokenize(const QString &lower)
{
    Tokens t;
    QString word;
    const auto flush = [&] {
        if (!word.isEmpty())
            t.words.append(std::exchange(word, {}));
    };
    for (const char32_t c : lower.toUcs4()) {
        if (isHan(c)) {
            flush();
            t.cjk.append(QString::fromUcs4(&c, 1));
        } else if (QChar::isLetterOrNumber(c) || c == U'\'') {
            word.append(QString::fromUcs4(&c, 1));
        } else {
            flush();
        }
    }
    flush();
    return t;
}

// `words` begins with the words of `phrase`.
bool startsWith(const QStringList &words, QStringView phrase)
{
    const QStringList parts = phrase.toString().split(u' ');
    if (parts.size() > words.size())
        return false;
    for (qsizetype i = 0; i < parts.size(); ++i) {
        if (words.at(i) != parts.at(i))
            return false;
    }
    return true;
}

template <size_t N>
qsizetype openingLength(const QStringList &words, const std::array<const char16_t *, N> &phrases)
{
    qsizetype best = 0;
    for (const char16_t *p : phrases) {
        if (startsWith(words, QStringView(p)))
            best = std::max(best, QStringView(p).count(u' ') + 1);
    }
    return best;
}

template <size_t N>
bool containsAny(const QString &text, const std::array<const char16_t *, N> &phrases)
{
    return std::any_of(phrases.begin(), phrases.end(),
                       [&](const char16_t *p) { return text.contains(QStringView(p)); });
}

} // namespace

MessageKind messageKind(QStringView text)
{
    const QString trimmed = text.trimmed().toString();
    if (trimmed.isEmpty() || trimmed.size() > MaxChars || trimmed.contains(u'\n') || trimmed.contains(u'`'))
        return MessageKind::Other;
    QString lower = normalizeDraft(trimmed).toLower();
    lower.replace(u'’', u'\'');
    const Tokens t = tokenize(lower);
    if (t.words.size() > MaxWords || t.cjk.size() > MaxCjk || (t.words.isEmpty() && t.cjk.isEmpty()))
        return MessageKind::Other;
    // More than one question or sentence is more than a simple question.
    if (trimmed.count(u'?') + trimmed.count(u'？') > 1)
        return MessageKind::Other;
    for (const QString &w : t.words) {
        if (std::any_of(WorkWords.begin(), WorkWords.end(), [&](const char16_t *p) {
                return w == QStringView(p) || (QStringView(p).size() >= 4 && w.startsWith(QStringView(p)));
            }))
            return MessageKind::Other;
    }
    if (containsAny(t.cjk, WorkCjk))
        return MessageKind::Other;

    // A greeting may open a question ("Hi! Who wrote Hamlet?"): what follows it decides.
    const qsizetype greeting = openingLength(t.words, SmallTalk);
    const QStringList rest = t.words.mid(greeting);
    if (t.cjk.isEmpty()) {
        if (greeting > 0 && rest.size() <= 3)
            return MessageKind::SmallTalk;
        if (openingLength(rest, Factual) > 0)
            return MessageKind::SimpleQuestion;
        return MessageKind::Other;
    }
    if (t.words.size() <= 2) {
        const bool smallTalk = std::any_of(SmallTalkCjk.begin(), SmallTalkCjk.end(), [&](const char16_t *p) {
            return t.cjk.startsWith(QStringView(p)) && t.cjk.size() <= QStringView(p).size() + 4;
        });
        if (smallTalk && !containsAny(t.cjk, FactualCjk))
            return MessageKind::SmallTalk;
    }
    if (containsAny(t.cjk, FactualCjk))
        return MessageKind::SimpleQuestion;
    return MessageKind::Other;
}

const char *messageKindId(MessageKind kind)
{
    switch (kind) {
    case MessageKind::SmallTalk: return "small-talk";
    case MessageKind::SimpleQuestion: return "simple-question";
    case MessageKind::Other: return "other";
    }
    return "other";
}

} // namespace Prefetch
