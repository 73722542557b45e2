// The knowledge base on a generated library (issue 16): 10,000 Markdown documents by default
// (~50 MB, half English, half Chinese), deterministic by seed, with planted facts whose answer
// passage is known. For each seed and tokenization it prints the indexing time (setFolders to
// the end of the pass, on the indexer's thread), the index file's size, query p50/p95 from the
// GUI thread through Library::query(), and recall@5 (and @1) of the planted passage, English and
// Chinese apart. With --typing on (the default) the bigram run also measures retrieval while
// typing (knowledgetyping.h): how often the passages of the drafts a typing pause would retrieve
// for equal the final question's, and Enter → request built with and without it. Each planted entity also appears in other documents with other attributes, and
// each attribute with other entities, so a question's words are never unique to its answer.
//
//   build/bench/bench_knowledge [--docs 10000] [--questions 500] [--seeds 1,2]
//                               [--tokenization both|bigram|trigram] [--min-recall 0.0] [--keep DIR]
//                               [--all-terms off|on] [--typing on|off]
// --all-terms on searches every term of a question, not only the selective ones (the comparison
// in docs/knowledge.md). --keep leaves the corpus and the index files in DIR/seedN for a closer look.
// Exits 1 if any run's recall@5 is below --min-recall (the ctest smoke run uses it).
#include "knowledgetyping.h"
#include "percentile.h"
#include "replay/librarycorpus.h"

#include "knowledge/library.h"

#include <QCoreApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QFile>
#include <QFileInfo>
#include <QSet>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTimer>

#include <cstdio>
#include <random>
#include <vector>

using namespace Knowledge;

namespace {

struct Result {
    double indexSeconds = 0;
    qint64 indexBytes = 0;
    int files = 0;
    int chunks = 0;
    double p50 = 0;
    double p95 = 0;
    double max = 0;
    double first = 0;           // the first query after indexing: the reader's statistics and cold pages
    double recall5[2] = {0, 0}; // English, Chinese
    double recall1[2] = {0, 0};
};

bool waitFor(Library &library, void (Library::*signal)(), int timeoutMs)
{
    QEventLoop loop;
    bool fired = false;
    QObject::connect(&library, signal, &loop, [&] {
        fired = true;
        loop.quit();
    });
    QTimer::singleShot(timeoutMs, &loop, &QEventLoop::quit);
    loop.exec();
    return fired;
}

Result run(const QString &corpus, const QString &dbPath, Tokenization mode, bool allTerms,
           const QList<Bench::PlantedQuestion> &questions, Bench::TypingFigures *typing)
{
    Result r;
    Library::Options options;
    options.databasePath = dbPath;
    options.tokenization = mode;
    options.selectTerms = !allTerms;
    Library library(options);
    QElapsedTimer timer;
    timer.start();
    library.setFolders({corpus});
    if (!waitFor(library, &Library::indexingFinished, 30 * 60 * 1000)) {
        std::fprintf(stderr, "indexing did not finish\n");
        return r;
    }
    r.indexSeconds = double(timer.nsecsElapsed()) / 1e9;
    for (const char *suffix : {"", "-wal"})
        r.indexBytes += QFileInfo(dbPath + QLatin1String(suffix)).size();
    const QList<FolderStatus> status = library.folderStatuses();
    if (!status.isEmpty()) {
        r.files = status.first().files;
        r.chunks = status.first().chunks;
    }

    std::vector<double> ms;
    int hits5[2] = {0, 0};
    int hits1[2] = {0, 0};
    int asked[2] = {0, 0};
    for (const Bench::PlantedQuestion &q : questions) {
        timer.restart();
        const auto passages = library.query(q.text, 5);
        ms.push_back(double(timer.nsecsElapsed()) / 1e6);
        const int lang = q.chinese ? 1 : 0;
        ++asked[lang];
        if (!passages)
            continue;
        for (qsizetype i = 0; i < passages->size(); ++i) {
            const Passage &p = passages->at(i);
            if (p.path == q.path && p.start <= q.start && q.end <= p.end) {
                ++hits5[lang];
                hits1[lang] += i == 0 ? 1 : 0;
                break;
            }
        }
    }
    r.p50 = Bench::percentile(ms, 0.5);
    r.p95 = Bench::percentile(ms, 0.95);
    r.max = Bench::percentile(ms, 1.0);
    r.first = ms.empty() ? 0 : ms.front();
    for (int l = 0; l < 2; ++l) {
        r.recall5[l] = asked[l] ? double(hits5[l]) / asked[l] : 0;
        r.recall1[l] = asked[l] ? double(hits1[l]) / asked[l] : 0;
    }
    if (typing) {
        QList<QString> finals;
        QList<bool> chinese;
        for (const Bench::PlantedQuestion &q : questions) {
            finals.append(q.text);
            chinese.append(q.chinese);
        }
        *typing = Bench::measureTyping(library, finals, chinese);
    }
    return r;
}

} // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    QStandardPaths::setTestModeEnabled(true);
    int docs = 10000;
    int questions = 500;
    QList<quint64> seeds{1, 2};
    QList<Tokenization> modes{Tokenization::Bigram, Tokenization::Trigram};
    double minRecall = 0;
    QString keep;
    bool allTerms = false;
    bool typing = true;
    const QStringList args = app.arguments();
    for (qsizetype i = 1; i + 1 < args.size(); i += 2) {
        const QString &key = args[i];
        const QString &value = args[i + 1];
        if (key == QLatin1String("--docs")) {
            docs = std::max(2, value.toInt());
        } else if (key == QLatin1String("--questions")) {
            questions = std::max(1, value.toInt());
        } else if (key == QLatin1String("--seeds")) {
            seeds.clear();
            for (const QString &s : value.split(u','))
                seeds.append(s.toULongLong());
        } else if (key == QLatin1String("--tokenization")) {
            modes = value == QLatin1String("bigram")    ? QList{Tokenization::Bigram}
                    : value == QLatin1String("trigram") ? QList{Tokenization::Trigram}
                                                        : modes;
        } else if (key == QLatin1String("--all-terms")) {
            allTerms = value == QLatin1String("on");
        } else if (key == QLatin1String("--typing")) {
            typing = value != QLatin1String("off");
        } else if (key == QLatin1String("--keep")) {
            keep = value;
        } else if (key == QLatin1String("--min-recall")) {
            minRecall = value.toDouble();
        } else {
            std::fprintf(stderr, "unknown option %s\n", qPrintable(key));
            return 2;
        }
    }

    bool ok = true;
    QList<QPair<quint64, Bench::TypingFigures>> typed;
    std::printf("%-5s %-8s %6s %7s %8s %9s %8s %8s %8s %8s %9s %9s %9s %9s\n", "seed", "tokens", "files", "chunks",
                "index s", "index MB", "p50 ms", "p95 ms", "max ms", "first ms", "R@5 en", "R@5 zh", "R@1 en",
                "R@1 zh");
    for (quint64 seed : std::as_const(seeds)) {
        QTemporaryDir dir(keep.isEmpty() ? QDir::tempPath() + QStringLiteral("/bench_knowledge-XXXXXX")
                                         : keep + QStringLiteral("/seed%1").arg(seed));
        dir.setAutoRemove(keep.isEmpty());
        const QString corpus = dir.filePath(QStringLiteral("library"));
        qint64 bytes = 0;
        QElapsedTimer gen;
        gen.start();
        const QList<Bench::PlantedQuestion> planted = Bench::LibraryCorpus(seed).write(corpus, docs, questions, &bytes);
        std::fprintf(stderr, "seed %llu: %d documents, %.1f MB, %lld questions, generated in %.1f s\n",
                     static_cast<unsigned long long>(seed), docs, double(bytes) / 1e6,
                     static_cast<long long>(planted.size()), double(gen.elapsed()) / 1000);
        for (Tokenization mode : std::as_const(modes)) {
            const bool trigram = mode == Tokenization::Trigram;
            const QString db = dir.filePath(trigram ? QStringLiteral("trigram.sqlite")
                                                    : QStringLiteral("bigram.sqlite"));
            Bench::TypingFigures figures;
            const bool measureTyping = typing && !trigram;
            const Result r = run(corpus, db, mode, allTerms, planted, measureTyping ? &figures : nullptr);
            if (measureTyping)
                typed.append({seed, figures});
            std::printf("%-5llu %-8s %6d %7d %8.1f %9.1f %8.2f %8.2f %8.2f %8.2f %9.3f %9.3f %9.3f %9.3f\n",
                        static_cast<unsigned long long>(seed), trigram ? "trigram" : "bigram", r.files, r.chunks,
                        r.indexSeconds, double(r.indexBytes) / 1e6, r.p50, r.p95, r.max, r.first, r.recall5[0],
                        r.recall5[1], r.recall1[0], r.recall1[1]);
            std::fflush(stdout);
            ok = ok && std::min(r.recall5[0], r.recall5[1]) >= minRecall && r.files == docs;
            if (keep.isEmpty())
                QFile::remove(db);
        }
    }
    if (!typed.isEmpty()) {
        // The drafts of each question as typed, by how much is still to type (words in English,
        // characters in Chinese; 0: only the closing "?"): all of them, and those a typing pause
        // would retrieve for (the debounce's classifier passes them).
        std::printf("\nretrieval while typing (bigram): drafts whose 5 passages are the final text's,"
                    " drafts: same order / same set\n");
        std::printf("%-5s %-4s %-7s %-19s %-19s %-19s %-19s %-19s %-19s\n", "seed", "lang", "drafts", "0 left (?)",
                    "1 left", "2 left", "3-5 left", "6+ left", "last pause");
        for (const auto &[seed, f] : std::as_const(typed)) {
            for (int l = 0; l < 2; ++l) {
                for (int paused = 0; paused < 2; ++paused) {
                    std::printf("%-5llu %-4s %-7s", static_cast<unsigned long long>(seed), l ? "zh" : "en",
                                paused ? "paused" : "all");
                    for (const auto &d : paused ? f.paused[l] : f.all[l])
                        std::printf(" %5d: %5.3f/%5.3f", d.drafts, d.sameOrder, d.sameSet);
                    if (paused)
                        std::printf(" %5d: %5.3f/%5.3f", f.lastPaused[l].drafts, f.lastPaused[l].sameOrder,
                                    f.lastPaused[l].sameSet);
                    std::printf("\n");
                }
            }
        }
        std::printf("\nEnter -> request built (retrieval + message + render), ms\n");
        std::printf("%-5s %-9s %21s %21s %21s %21s\n", "seed", "questions", "free chat", "off: query at Enter",
                    "on: paused on final", "on: earlier pause (n, searched at Enter)");
        for (const auto &[seed, f] : std::as_const(typed))
            std::printf(
                "%-5llu %9d %10.3f / %8.3f %10.3f / %8.3f %10.3f / %8.3f %10.3f / %8.3f (%d, %d)   (p50 / p95)\n",
                static_cast<unsigned long long>(seed), f.questions, f.freeP50, f.freeP95, f.offP50, f.offP95,
                f.pausedP50, f.pausedP95, f.lateP50, f.lateP95, f.lateQuestions, f.lateSearched);
    }
    return ok ? 0 : 1;
}
