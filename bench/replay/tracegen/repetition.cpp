#include "repetition.h"

#include <QStringList>

namespace Bench::Gen {

const RepetitionParams Repetition{
    // Assumption: seven to nine short conversations fit the 2–4 minutes with two Summarizes.
    .conversations = {7, 9},
    // Assumption: the first two questions of a trace have nothing earlier to repeat.
    .freshFirst = 2,
    // Published shares of repeated queries: "repeated queries ... constitute about 31% of the
    // total queries" to LLM services (Gill et al., "MeanCache: User-Centric Semantic Caching for
    // LLM Web Services", arXiv:2403.02694, 2024); "as many as 40% of all queries are re-finding
    // queries" over a year of 114 users' Yahoo searches, the query words often differing
    // (Teevan, Adar, Jones & Potts, "Information Re-Retrieval: Repeat Queries in Yahoo's Logs",
    // SIGIR 2007). 0.35 lies between the two, over the questions after the first two. A trace's
    // few minutes compress what those logs saw over days and months: an assumption.
    .repeatShare = 0.35,
    // Assumption: half the repeats in the same words (neither source splits exact from reworded
    // repeats in a form that carries over to chat questions).
    .exactShareOfRepeats = 0.5,
    // Assumption: of the reworded ones, three in ten differ only in case and the final mark.
    .restyleShareOfRewords = 0.3,
    // Assumption: a bilingual user asks one new question in four in Chinese (the chat texts have
    // Chinese templates; MinHash shingles them by character pairs).
    .chineseShare = 0.25,
    // As chat-session's document (the brief: ~3k tokens).
    .docTokens = {2600, 3400},
    .otherDocTokens = {1000, 2000},
    // As the document users' reading after a click (documentkinds.cpp, readAfterClick).
    .readSummary = {7500, 0.4, 5000, 40000},
    // Assumption: the document is opened again a few seconds after it was closed.
    .reopenAfter = {4000, 0.5, 1500, 15000},
};

namespace {

struct Swap {
    const char *from;
    const char *to;
};

// Assumption: everyday rewordings, a few words added or changed; the matcher's word shingles
// (words and word pairs) see most of the question unchanged.
const QList<const char *> EnglishPrefixes = {"Quick question: ", "Remind me, ", "Sorry, again: ", "One more time: "};
const QList<const char *> EnglishSuffixes = {" please", " again", " for me"};
const QList<Swap> EnglishSwaps = {
    {"How do I ", "How can I "},
    {"What is ", "Tell me "},
    {"Give me ", "Can you give me "},
    {"Suggest ", "Can you suggest "},
    {"How should I ", "What is the best way to "},
    {"Help me ", "Please help me "},
    {"What are ", "List "},
    {"Which is clearer, ", "What reads better, "},
};
const QList<const char *> ChinesePrefixes = {"请问|", "再|问|一下|，|", "我|想|知道|"};
const QList<Swap> ChineseSwaps = {{"怎么", "如何"}, {"给|我", "帮|我"}, {"什么", "哪些"}, {"应该", "要"}};

QString restyle(Random &rng, QString text, bool chinese)
{
    const QString question = chinese ? QStringLiteral("？") : QStringLiteral("?");
    const QString separator = chinese ? QStringLiteral("|") : QString();
    if (!chinese && !text.isEmpty() && rng.chance(0.5))
        text[0] = text[0].isUpper() ? text[0].toLower() : text[0].toUpper();
    if (text.endsWith(question))
        text.chop(question.size() + separator.size());
    else if (text.endsWith(QStringLiteral("。")) || text.endsWith(u'.'))
        text.chop(chinese ? 2 : 1);
    else
        text += separator + question;
    return text;
}

} // namespace

QString rephrase(Random &rng, const QString &question, bool chinese, bool restyleOnly)
{
    if (restyleOnly)
        return restyle(rng, question, chinese);
    QList<Swap> swaps;
    for (const Swap &s : chinese ? ChineseSwaps : EnglishSwaps) {
        if (question.contains(QString::fromUtf8(s.from)))
            swaps.append(s);
    }
    // A swap where one applies, else (and a third of the time anyway) words added before or after.
    const int way = swaps.isEmpty() || rng.chance(1.0 / 3) ? (chinese ? 1 : 1 + rng.below(2)) : 0;
    if (way == 0) {
        const Swap &s = rng.pick(swaps);
        QString text = question;
        return text.replace(text.indexOf(QString::fromUtf8(s.from)), qsizetype(QString::fromUtf8(s.from).size()),
                            QString::fromUtf8(s.to));
    }
    if (chinese)
        return QString::fromUtf8(rng.pick(ChinesePrefixes)) + question;
    if (way == 1) {
        QString rest = question;
        if (!rest.isEmpty())
            rest[0] = rest[0].toLower();
        return QString::fromUtf8(rng.pick(EnglishPrefixes)) + rest;
    }
    // Before the final mark: "How long should a blog post be please?"
    QString text = question;
    const bool marked = text.endsWith(u'?') || text.endsWith(u'.');
    const QString mark = marked ? text.right(1) : QString();
    if (marked)
        text.chop(1);
    return text + QString::fromUtf8(rng.pick(EnglishSuffixes)) + mark;
}

} // namespace Bench::Gen
