#include "knowledgetyping.h"

#include "percentile.h"

#include "knowledge/library.h"
#include "knowledge/libraryretrieval.h"
#include "prefetch/prompts/actionprompts.h"
#include "prefetch/settings.h"
#include "prefetch/strategies/classifier.h"

#include <QElapsedTimer>

#include <vector>

namespace Bench {

namespace {

QList<Knowledge::Passage> passages(Knowledge::Library &library, const QString &text)
{
    auto found = library.query(text, Knowledge::LibraryRetrieval::PassageCount);
    return found ? *found : QList<Knowledge::Passage>{};
}

bool sameOrder(const QList<Knowledge::Passage> &a, const QList<Knowledge::Passage> &b)
{
    if (a.size() != b.size())
        return false;
    for (qsizetype i = 0; i < a.size(); ++i)
        if (a[i].path != b[i].path || a[i].start != b[i].start)
            return false;
    return true;
}

bool sameSet(const QList<Knowledge::Passage> &a, const QList<Knowledge::Passage> &b)
{
    if (a.size() != b.size())
        return false;
    for (const Knowledge::Passage &p : a) {
        if (std::none_of(b.cbegin(), b.cend(),
                         [&](const Knowledge::Passage &q) { return q.path == p.path && q.start == p.start; }))
            return false;
    }
    return true;
}

bool isWordCharacter(QChar c)
{
    return c.isLetterOrNumber() || c == u'-';
}

// The drafts of `text` as typed, shortest first, without the text itself: each prefix that ends
// a word (English: the next character is a space or punctuation) or, in Chinese, a character (an
// input method commits words of one or more).
QList<QString> drafts(const QString &text, bool chinese)
{
    QList<QString> out;
    for (qsizetype i = 1; i < text.size(); ++i) {
        if (isWordCharacter(text.at(i - 1)) && (chinese || !isWordCharacter(text.at(i))))
            out.append(text.left(i));
    }
    return out;
}

// What is left to type after `draft`: words in English, characters in Chinese; 0 when only the
// closing punctuation is.
qsizetype remaining(const QString &text, const QString &draft, bool chinese)
{
    const auto count = [chinese](QStringView s) {
        qsizetype n = 0;
        for (qsizetype i = 0; i < s.size(); ++i)
            n += isWordCharacter(s[i]) && (chinese || i + 1 == s.size() || !isWordCharacter(s[i + 1]));
        return n;
    };
    return count(text) - count(draft);
}

int bucket(qsizetype left)
{
    return left <= 2 ? int(left) : left <= 5 ? 3 : 4;
}

// What the debounce strategy acts on at a pause (DebounceStrategy: minChars, minConfidence).
bool wouldPrefetch(const QString &draft)
{
    const Prefetch::Settings settings;
    return draft.trimmed().size() >= settings.debounce.minChars
           && Prefetch::heuristicCompleteness(draft) >= settings.debounce.minConfidence;
}

} // namespace

TypingFigures measureTyping(Knowledge::Library &library, const QList<QString> &finals, const QList<bool> &chinese)
{
    TypingFigures f;
    f.questions = int(finals.size());
    // drafts, same order, same set: all drafts, paused drafts, the last paused one
    int counts[2][5][3] = {};
    int pausedCounts[2][5][3] = {};
    int lastCounts[2][3] = {};
    const auto count = [](int *c, const QList<Knowledge::Passage> &got, const QList<Knowledge::Passage> &want) {
        ++c[0];
        c[1] += sameOrder(got, want);
        c[2] += sameSet(got, want);
    };

    Llm::ProviderProfile profile;
    profile.id = QStringLiteral("bench");
    profile.format = Llm::ApiFormat::OpenAiChat;
    profile.baseUrl = QUrl(QStringLiteral("http://127.0.0.1:1/v1"));
    profile.model = QStringLiteral("bench-model");
    const Prefetch::CompiledPrompt compiled = *Prefetch::libraryChatTemplate().compile(profile, {});
    const Prefetch::CompiledPrompt freeChat = *Prefetch::chatTemplate(false).compile(profile, {});
    // The chat session's builder for the library mode (ChatSession::installBuilder).
    const auto build = [&](Knowledge::LibraryRetrieval &retrieval, const QString &text) {
        return Prefetch::renderChatMessage(compiled, {}, profile.model, retrieval.messageFor(text));
    };
    std::vector<double> free, off, paused, late;
    QElapsedTimer timer;
    for (qsizetype q = 0; q < finals.size(); ++q) {
        const QString &final = finals[q];
        const int lang = chinese.value(q) ? 1 : 0;
        const QList<Knowledge::Passage> want = passages(library, final);
        const QList<QString> typed = drafts(final, lang == 1);
        QString lastPaused; // the last draft before the final text the pause would act on
        QList<Knowledge::Passage> lastGot;
        for (const QString &draft : typed) {
            const QList<Knowledge::Passage> got = passages(library, draft);
            const int b = bucket(remaining(final, draft, lang == 1));
            count(counts[lang][b], got, want);
            if (wouldPrefetch(draft)) {
                count(pausedCounts[lang][b], got, want);
                lastPaused = draft;
                lastGot = got;
            }
        }
        if (!lastPaused.isEmpty())
            count(lastCounts[lang], lastGot, want);

        {
            timer.start();
            const auto request = Prefetch::renderChatMessage(freeChat, {}, profile.model, final);
            free.push_back(double(timer.nsecsElapsed()) / 1e6);
            Q_UNUSED(request);
        }
        {
            Knowledge::LibraryRetrieval retrieval(&library);
            timer.start();
            const auto request = build(retrieval, final);
            off.push_back(double(timer.nsecsElapsed()) / 1e6);
            Q_UNUSED(request);
        }
        {
            Knowledge::LibraryRetrieval retrieval(&library);
            build(retrieval, final); // at the pause, off the critical path
            timer.start();
            const auto request = build(retrieval, final);
            paused.push_back(double(timer.nsecsElapsed()) / 1e6);
            Q_UNUSED(request);
        }
        if (!lastPaused.isEmpty()) {
            Knowledge::LibraryRetrieval retrieval(&library);
            build(retrieval, lastPaused);
            timer.start();
            const auto request = build(retrieval, final);
            late.push_back(double(timer.nsecsElapsed()) / 1e6);
            Q_UNUSED(request);
            f.lateSearched += retrieval.queriesRun() > 1;
        }
    }
    const auto figures = [](const int *c) {
        return TypingFigures::Drafts{c[0], c[0] ? double(c[1]) / c[0] : 0, c[0] ? double(c[2]) / c[0] : 0};
    };
    for (int l = 0; l < 2; ++l) {
        for (int b = 0; b < 5; ++b) {
            f.all[l][b] = figures(counts[l][b]);
            f.paused[l][b] = figures(pausedCounts[l][b]);
        }
        f.lastPaused[l] = figures(lastCounts[l]);
    }
    f.freeP50 = percentile(free, 0.5);
    f.freeP95 = percentile(free, 0.95);
    f.offP50 = percentile(off, 0.5);
    f.offP95 = percentile(off, 0.95);
    f.pausedP50 = percentile(paused, 0.5);
    f.pausedP95 = percentile(paused, 0.95);
    f.lateP50 = percentile(late, 0.5);
    f.lateP95 = percentile(late, 0.95);
    f.lateQuestions = int(late.size());
    return f;
}

} // namespace Bench
