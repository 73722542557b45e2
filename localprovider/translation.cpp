#include "translation.h"

#include "shapes.h"
#include "stablehash.h"
#include "tokenizer.h"

#include <QHash>
#include <QStringList>

#include <utility>

namespace LocalProvider {

namespace {

struct Entry {
    const char16_t *english;
    const char16_t *chinese;
};

// Common words of everyday prose, enough for the stand-in to carry some of a text's gist.
constexpr Entry Glossary[] = {
    {u"i", u"我"},
    {u"you", u"你"},
    {u"he", u"他"},
    {u"she", u"她"},
    {u"we", u"我们"},
    {u"they", u"他们"},
    {u"it", u"它"},
    {u"this", u"这"},
    {u"that", u"那"},
    {u"these", u"这些"},
    {u"those", u"那些"},
    {u"is", u"是"},
    {u"are", u"是"},
    {u"was", u"是"},
    {u"were", u"是"},
    {u"be", u"是"},
    {u"not", u"不"},
    {u"no", u"没有"},
    {u"yes", u"是的"},
    {u"and", u"和"},
    {u"or", u"或"},
    {u"but", u"但是"},
    {u"because", u"因为"},
    {u"so", u"所以"},
    {u"if", u"如果"},
    {u"when", u"当"},
    {u"with", u"和"},
    {u"without", u"没有"},
    {u"in", u"在"},
    {u"on", u"在"},
    {u"at", u"在"},
    {u"from", u"从"},
    {u"to", u"到"},
    {u"for", u"为了"},
    {u"about", u"关于"},
    {u"after", u"之后"},
    {u"before", u"之前"},
    {u"all", u"所有"},
    {u"many", u"许多"},
    {u"more", u"更多"},
    {u"most", u"最"},
    {u"some", u"一些"},
    {u"every", u"每个"},
    {u"each", u"每"},
    {u"one", u"一"},
    {u"two", u"二"},
    {u"three", u"三"},
    {u"first", u"第一"},
    {u"new", u"新"},
    {u"old", u"旧"},
    {u"good", u"好"},
    {u"bad", u"坏"},
    {u"big", u"大"},
    {u"large", u"大"},
    {u"small", u"小"},
    {u"long", u"长"},
    {u"short", u"短"},
    {u"high", u"高"},
    {u"low", u"低"},
    {u"fast", u"快"},
    {u"slow", u"慢"},
    {u"early", u"早"},
    {u"late", u"晚"},
    {u"easy", u"容易"},
    {u"hard", u"难"},
    {u"clear", u"清楚"},
    {u"simple", u"简单"},
    {u"important", u"重要"},
    {u"useful", u"有用"},
    {u"different", u"不同"},
    {u"same", u"相同"},
    {u"very", u"很"},
    {u"also", u"也"},
    {u"only", u"只"},
    {u"again", u"再"},
    {u"often", u"经常"},
    {u"always", u"总是"},
    {u"never", u"从不"},
    {u"now", u"现在"},
    {u"today", u"今天"},
    {u"here", u"这里"},
    {u"there", u"那里"},
    {u"time", u"时间"},
    {u"day", u"天"},
    {u"year", u"年"},
    {u"week", u"周"},
    {u"morning", u"早上"},
    {u"night", u"夜晚"},
    {u"people", u"人们"},
    {u"person", u"人"},
    {u"man", u"男人"},
    {u"woman", u"女人"},
    {u"child", u"孩子"},
    {u"children", u"孩子们"},
    {u"friend", u"朋友"},
    {u"family", u"家庭"},
    {u"home", u"家"},
    {u"house", u"房子"},
    {u"city", u"城市"},
    {u"country", u"国家"},
    {u"world", u"世界"},
    {u"water", u"水"},
    {u"food", u"食物"},
    {u"bread", u"面包"},
    {u"fish", u"鱼"},
    {u"tree", u"树"},
    {u"river", u"河"},
    {u"sea", u"海"},
    {u"boat", u"船"},
    {u"harbor", u"港口"},
    {u"wall", u"墙"},
    {u"storm", u"风暴"},
    {u"winter", u"冬天"},
    {u"spring", u"春天"},
    {u"summer", u"夏天"},
    {u"autumn", u"秋天"},
    {u"market", u"市场"},
    {u"voice", u"声音"},
    {u"book", u"书"},
    {u"page", u"页"},
    {u"word", u"词"},
    {u"text", u"文字"},
    {u"sentence", u"句子"},
    {u"paragraph", u"段落"},
    {u"document", u"文档"},
    {u"draft", u"草稿"},
    {u"note", u"笔记"},
    {u"story", u"故事"},
    {u"idea", u"想法"},
    {u"question", u"问题"},
    {u"answer", u"回答"},
    {u"problem", u"问题"},
    {u"reason", u"原因"},
    {u"example", u"例子"},
    {u"part", u"部分"},
    {u"point", u"要点"},
    {u"plan", u"计划"},
    {u"goal", u"目标"},
    {u"work", u"工作"},
    {u"team", u"团队"},
    {u"project", u"项目"},
    {u"company", u"公司"},
    {u"school", u"学校"},
    {u"student", u"学生"},
    {u"teacher", u"老师"},
    {u"reader", u"读者"},
    {u"writer", u"作者"},
    {u"user", u"用户"},
    {u"computer", u"电脑"},
    {u"program", u"程序"},
    {u"data", u"数据"},
    {u"system", u"系统"},
    {u"model", u"模型"},
    {u"language", u"语言"},
    {u"english", u"英语"},
    {u"chinese", u"中文"},
    {u"number", u"数字"},
    {u"money", u"钱"},
    {u"price", u"价格"},
    {u"cost", u"成本"},
    {u"light", u"光"},
    {u"sun", u"太阳"},
    {u"rain", u"雨"},
    {u"wind", u"风"},
    {u"air", u"空气"},
    {u"road", u"路"},
    {u"car", u"汽车"},
    {u"train", u"火车"},
    {u"garden", u"花园"},
    {u"tomato", u"番茄"},
    {u"plant", u"植物"},
    {u"soil", u"土壤"},
    {u"have", u"有"},
    {u"has", u"有"},
    {u"had", u"有"},
    {u"do", u"做"},
    {u"make", u"做"},
    {u"go", u"去"},
    {u"come", u"来"},
    {u"see", u"看见"},
    {u"look", u"看"},
    {u"read", u"读"},
    {u"write", u"写"},
    {u"say", u"说"},
    {u"tell", u"告诉"},
    {u"know", u"知道"},
    {u"think", u"想"},
    {u"want", u"想要"},
    {u"need", u"需要"},
    {u"use", u"使用"},
    {u"help", u"帮助"},
    {u"keep", u"保持"},
    {u"start", u"开始"},
    {u"begin", u"开始"},
    {u"end", u"结束"},
    {u"finish", u"完成"},
    {u"give", u"给"},
    {u"take", u"拿"},
    {u"find", u"找到"},
    {u"learn", u"学习"},
    {u"understand", u"理解"},
    {u"change", u"改变"},
    {u"grow", u"生长"},
    {u"live", u"生活"},
    {u"open", u"打开"},
    {u"close", u"关闭"},
    {u"save", u"保存"},
    {u"can", u"能"},
    {u"will", u"会"},
    {u"must", u"必须"},
    {u"should", u"应该"},
    {u"safe", u"安全"},
    {u"why", u"为什么"},
    {u"how", u"怎样"},
    {u"what", u"什么"},
    {u"where", u"哪里"},
    {u"who", u"谁"},
};

struct Tables {
    QHash<QString, QString> toChinese;
    QHash<QString, QString> toEnglish; // the first English word listed for a Chinese one
    int longestChinese = 1;
};

const Tables &tables()
{
    static const Tables tables = [] {
        Tables made;
        for (const Entry &e : Glossary) {
            const QString en = QString::fromUtf16(e.english);
            const QString zh = QString::fromUtf16(e.chinese);
            made.toChinese.insert(en, zh);
            if (!made.toEnglish.contains(zh))
                made.toEnglish.insert(zh, en);
            made.longestChinese = qMax(made.longestChinese, static_cast<int>(zh.size()));
        }
        return made;
    }();
    return tables;
}

// The glossary's word for an English word, trying the forms of its plural and tenses.
QString chineseFor(const QString &word)
{
    const QString w = word.toLower();
    const auto &map = tables().toChinese;
    if (const auto it = map.constFind(w); it != map.cend())
        return *it;
    for (const QStringView suffix : {u"'s", u"ies", u"es", u"s", u"ed", u"d", u"ing", u"ly"}) {
        if (w.size() > suffix.size() + 2 && w.endsWith(suffix)) {
            QString stem = w.chopped(suffix.size());
            if (suffix == u"ies")
                stem += u'y';
            if (const auto it = map.constFind(stem); it != map.cend())
                return *it;
        }
    }
    return {};
}

QStringList toChinese(const QStringList &sentences)
{
    QStringList out;
    for (const QString &sentence : sentences) {
        QString line;
        qsizetype i = 0;
        while (i < sentence.size()) {
            if (!sentence[i].isLetterOrNumber()) {
                if ((sentence[i] == u',' || sentence[i] == u';') && !line.isEmpty() && !line.endsWith(u'，'))
                    line += u'，';
                ++i;
                continue;
            }
            qsizetype j = i;
            while (j < sentence.size() && (sentence[j].isLetterOrNumber() || sentence[j] == u'\''))
                ++j;
            const QString word = sentence.sliced(i, j - i);
            i = j;
            if (word.front().isDigit()) {
                line += word;
                continue;
            }
            line += chineseFor(word);
        }
        while (line.endsWith(u'，'))
            line.chop(1);
        if (!line.isEmpty())
            out.append(line + u'。');
    }
    return out;
}

QStringList toEnglish(const QStringList &sentences)
{
    const Tables &t = tables();
    QStringList lines;
    for (const QString &sentence : sentences) {
        QStringList words;
        qsizetype i = 0;
        while (i < sentence.size()) {
            bool matched = false;
            for (qsizetype len = qMin<qsizetype>(t.longestChinese, sentence.size() - i); len >= 1 && !matched; --len) {
                const auto it = t.toEnglish.constFind(sentence.sliced(i, len));
                if (it != t.toEnglish.cend()) {
                    words.append(*it);
                    i += len;
                    matched = true;
                }
            }
            if (matched)
                continue;
            if (sentence[i].isDigit()) {
                qsizetype j = i;
                while (j < sentence.size() && sentence[j].isDigit())
                    ++j;
                words.append(sentence.sliced(i, j - i));
                i = j;
                continue;
            }
            ++i;
        }
        if (words.isEmpty())
            continue;
        QString line = words.join(u' ');
        line[0] = line[0].toUpper();
        lines.append(line + u'.');
    }
    return lines;
}

// The first sentences up to `budget` tokens (at least one), joined: a whole document would
// make answers, and the replay benchmark's costs, grow with it.
QString upTo(const QStringList &sentences, qsizetype budget, bool han)
{
    QStringList kept;
    qsizetype tokens = 0;
    for (const QString &s : sentences) {
        if (!kept.isEmpty() && tokens >= budget)
            break;
        kept.append(s);
        tokens += Tokenizer::count(s);
    }
    return kept.join(han ? QString() : QStringLiteral(" "));
}

} // namespace

QString standInTranslation(const QString &text, const QString &targetLanguage, quint64 seed)
{
    const QStringList parts = Shapes::sentences(text);
    const bool fromChinese = Shapes::isMostlyHan(text);
    const QString target = targetLanguage.toLower();
    Rng rng(seed);
    const qsizetype budget = 60 + rng.bounded(241); // the word chain's natural lengths
    if (target.contains(u"chinese") || target.contains(u"中文") || target.contains(u"汉语")) {
        return QStringLiteral("（演示引擎：用内置小词表逐词替换，不是真正的翻译。）")
               + upTo(fromChinese ? parts : toChinese(parts), budget, true);
    }
    if (target.contains(u"english") || target.contains(u"英")) {
        return QStringLiteral("(Demo engine: a word-for-word stand-in from a small built-in glossary, not a real "
                              "translation.) ")
               + upTo(fromChinese ? toEnglish(parts) : parts, budget, false);
    }
    return QStringLiteral("(Demo engine: it cannot translate into %1; the text as it is.) ").arg(targetLanguage)
           + upTo(parts, budget, fromChinese);
}

} // namespace LocalProvider
