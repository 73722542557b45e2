#include "textgenerator.h"

#include "stablehash.h"
#include "tokenizer.h"

#include <QHash>

#include <vector>

namespace LocalProvider {

namespace {

using Tokenizer::CodePoint;
using Tokenizer::codePointAt;

// Mixed in when a prompt is too short to make a chain of its own.
constexpr QStringView EnglishFallback =
    u"A good draft starts with a clear question. The answer grows from the words that are already on the page, "
    u"and each sentence leads to the next one. When the writer knows the reader, the text becomes shorter and "
    u"more useful. Every paragraph should carry one idea, and every idea should point back to the goal. The first "
    u"version is never the last one. Read it again, cut what does not help, and keep what makes the point "
    u"stronger. Good notes, simple words and a steady rhythm turn a rough outline into a finished page. The reader "
    u"wants to understand quickly, so the most important part comes first. Examples make an abstract claim "
    u"concrete, and a short summary at the end helps the reader remember it.";

constexpr QStringView ChineseFallback =
    u"好的文章从一个清楚的问题开始。回答来自页面上已有的文字，每一句话都引出下一句话。作者了解读者的时候，"
    u"文字会变得更短也更有用。每一段只讲一个想法，每一个想法都指向同一个目标。第一稿从来不是最后一稿。"
    u"再读一遍，删去没有帮助的部分，留下让观点更有力的内容。简单的词语和稳定的节奏能把粗糙的提纲变成完整的文章。"
    u"读者希望很快理解，所以最重要的内容要放在前面。例子让抽象的说法变得具体，结尾的简短总结帮助读者记住要点。";

// Enough for a 20k-token document; bounds the chain's memory for larger prompts.
constexpr qsizetype MaxCorpusChars = 200000;
constexpr int MinUnits = 40;

bool isWordChar(char32_t cp)
{
    return (QChar::isLetterOrNumber(cp) || QChar::isMark(cp)) && !Tokenizer::isCjk(cp);
}

bool isEnglishPunct(QStringView u)
{
    return u.size() == 1 && QStringView(u".,;:!?").contains(u[0]);
}

bool isEnglishEnd(QStringView u)
{
    return u == u"." || u == u"!" || u == u"?";
}

bool isHanPunct(QStringView u)
{
    return u.size() == 1 && QStringView(u"，。！？、；：").contains(u[0]);
}

bool isHanEnd(QStringView u)
{
    return u == u"。" || u == u"！" || u == u"？";
}

} // namespace

struct TextGenerator::Chain {
    QStringList units;
    std::vector<std::vector<int>> next;
    std::vector<int> starts;
    QHash<QString, int> index; // lookups only: QHash's iteration order differs between processes
    bool hasEnd = false;

    int intern(const QString &unit)
    {
        const auto it = index.constFind(unit);
        if (it != index.cend())
            return *it;
        const int id = static_cast<int>(units.size());
        units.append(unit);
        next.emplace_back();
        index.insert(unit, id);
        return id;
    }

    void addEnglish(QStringView text)
    {
        int prev = -1;
        bool startNext = true;
        const auto link = [&](const QString &unit) {
            const int id = intern(unit);
            if (prev >= 0)
                next[static_cast<size_t>(prev)].push_back(id);
            const bool end = isEnglishEnd(unit);
            if (startNext && !isEnglishPunct(unit)) {
                starts.push_back(id);
                startNext = false;
            }
            if (end) {
                startNext = true;
                hasEnd = true;
            }
            prev = id;
        };
        qsizetype i = 0;
        while (i < text.size()) {
            const CodePoint cp = codePointAt(text, i);
            if (isWordChar(cp.value)) {
                qsizetype j = i;
                while (j < text.size()) {
                    const CodePoint c = codePointAt(text, j);
                    const bool joiner = (c.value == u'\'' || c.value == u'-' || c.value == 0x2019)
                                        && j + 1 < text.size() && isWordChar(codePointAt(text, j + 1).value) && j > i;
                    if (!isWordChar(c.value) && !joiner)
                        break;
                    j += c.length;
                }
                link(text.sliced(i, j - i).toString());
                i = j;
            } else if (isEnglishPunct(text.sliced(i, 1))) {
                link(text.sliced(i, 1).toString());
                ++i;
            } else {
                // A line break ends a heading or list item: restart rather than chain across it.
                if (cp.value == u'\n') {
                    prev = -1;
                    startNext = true;
                }
                i += cp.length;
            }
        }
    }

    void addHan(QStringView text)
    {
        int prev = -1;
        bool startNext = true;
        qsizetype i = 0;
        while (i < text.size()) {
            const CodePoint cp = codePointAt(text, i);
            const QStringView unit = text.sliced(i, cp.length);
            i += cp.length;
            if (!Tokenizer::isCjk(cp.value) && !isHanPunct(unit)) {
                prev = -1;
                startNext = true;
                continue;
            }
            const int id = intern(unit.toString());
            if (prev >= 0)
                next[static_cast<size_t>(prev)].push_back(id);
            if (startNext && !isHanPunct(unit)) {
                starts.push_back(id);
                startNext = false;
            }
            if (isHanEnd(unit)) {
                startNext = true;
                hasEnd = true;
            }
            prev = id;
        }
    }

    bool tooSmall() const { return units.size() < MinUnits || !hasEnd || starts.empty(); }
};

TextGenerator::TextGenerator(QStringView corpus, QStringView lastUserText)
    : m_chain(std::make_unique<Chain>())
{
    if (corpus.size() > MaxCorpusChars)
        corpus = corpus.last(MaxCorpusChars);
    qsizetype han = 0;
    qsizetype letters = 0;
    const QStringView probe = lastUserText.isEmpty() ? corpus : lastUserText;
    for (qsizetype i = 0; i < probe.size();) {
        const CodePoint cp = codePointAt(probe, i);
        if (Tokenizer::isCjk(cp.value))
            ++han;
        else if (QChar::isLetter(cp.value))
            ++letters;
        i += cp.length;
    }
    // One Han character carries about as much as a four-letter word.
    m_chinese = han > 0 && han * 4 >= letters;

    if (m_chinese) {
        m_chain->addHan(corpus);
        if (m_chain->tooSmall())
            m_chain->addHan(ChineseFallback);
    } else {
        m_chain->addEnglish(corpus);
        if (m_chain->tooSmall())
            m_chain->addEnglish(EnglishFallback);
    }
}

TextGenerator::~TextGenerator() = default;

TextGenerator::Answer TextGenerator::generate(quint64 seed, int maxTokens) const
{
    return m_chinese ? generateHan(seed, maxTokens) : generateWords(seed, maxTokens);
}

TextGenerator::Answer TextGenerator::generateWords(quint64 seed, int maxTokens) const
{
    const Chain &c = *m_chain;
    Rng rng(seed);
    const qsizetype target = 60 + rng.bounded(241);
    Answer a;
    int cur = -1;
    bool sentenceStart = true;
    bool ended = false;
    const auto append = [&](const QString &unit) {
        QString word = unit;
        if (sentenceStart && !isEnglishPunct(unit) && !word.isEmpty())
            word[0] = word[0].toUpper();
        const QString piece = a.tokens.isEmpty() || isEnglishPunct(unit) ? word : u' ' + word;
        for (QStringView t : Tokenizer::split(piece))
            a.tokens.append(t.toString());
        if (isEnglishEnd(unit))
            sentenceStart = true;
        else if (!isEnglishPunct(unit))
            sentenceStart = false;
    };
    for (;;) {
        if (a.tokens.size() >= target && sentenceStart) {
            ended = true;
            break;
        }
        if (maxTokens > 0 && a.tokens.size() >= maxTokens)
            break;
        if (a.tokens.size() >= target + 80) {
            append(QStringLiteral("."));
            cur = -1;
            continue;
        }
        const bool deadEnd = cur < 0 || c.next[static_cast<size_t>(cur)].empty();
        if (deadEnd && !sentenceStart) {
            append(QStringLiteral("."));
            cur = -1;
            continue;
        }
        if (deadEnd) {
            cur = c.starts[static_cast<size_t>(rng.bounded(static_cast<int>(c.starts.size())))];
        } else {
            const auto &successors = c.next[static_cast<size_t>(cur)];
            cur = successors[static_cast<size_t>(rng.bounded(static_cast<int>(successors.size())))];
        }
        append(c.units[cur]);
    }
    if (maxTokens > 0 && a.tokens.size() > maxTokens) {
        a.tokens.resize(maxTokens);
        a.truncated = true;
    } else {
        a.truncated = !ended;
    }
    return a;
}

TextGenerator::Answer TextGenerator::generateHan(quint64 seed, int maxTokens) const
{
    const Chain &c = *m_chain;
    Rng rng(seed);
    const qsizetype target = 60 + rng.bounded(241);
    Answer a;
    QString pending;
    int pendingChars = 0;
    int want = 1;
    int cur = -1;
    bool sentenceEnd = true;
    bool ended = false;
    const auto flush = [&] {
        if (!pending.isEmpty())
            a.tokens.append(pending);
        pending.clear();
        pendingChars = 0;
    };
    const auto endSentence = [&] {
        flush();
        a.tokens.append(QStringLiteral("。"));
        sentenceEnd = true;
        cur = -1;
    };
    for (;;) {
        if (a.tokens.size() >= target && sentenceEnd && pending.isEmpty()) {
            ended = true;
            break;
        }
        if (maxTokens > 0 && a.tokens.size() >= maxTokens)
            break;
        if (a.tokens.size() >= target + 80) {
            endSentence();
            continue;
        }
        const bool deadEnd = cur < 0 || c.next[static_cast<size_t>(cur)].empty();
        if (deadEnd && !sentenceEnd) {
            endSentence();
            continue;
        }
        if (deadEnd) {
            cur = c.starts[static_cast<size_t>(rng.bounded(static_cast<int>(c.starts.size())))];
        } else {
            const auto &successors = c.next[static_cast<size_t>(cur)];
            cur = successors[static_cast<size_t>(rng.bounded(static_cast<int>(successors.size())))];
        }
        const QString &unit = c.units[cur];
        if (isHanPunct(unit)) {
            flush();
            a.tokens.append(unit);
            sentenceEnd = isHanEnd(unit);
        } else {
            // Chinese BPE vocabularies hold many two-character words: 1-2 characters per token.
            if (pending.isEmpty())
                want = 1 + rng.bounded(2);
            pending += unit;
            if (++pendingChars >= want)
                flush();
            sentenceEnd = false;
        }
    }
    if (maxTokens > 0 && a.tokens.size() > maxTokens) {
        a.tokens.resize(maxTokens);
        a.truncated = true;
    } else {
        a.truncated = !ended;
    }
    return a;
}

} // namespace LocalProvider
