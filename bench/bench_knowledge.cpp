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

struct Question
{
    QString text;
    QString path;
    qsizetype start; // the planted sentence, in the decoded text
    qsizetype end;
    bool chinese;
};

// Deterministic on every platform: mt19937_64 is specified, std's distributions are not.
class Random
{
public:
    explicit Random(quint64 seed)
        : m_engine(seed)
    {
    }
    quint64 below(quint64 n) { return m_engine() % n; }
    int range(int lo, int hi) { return lo + int(below(quint64(hi - lo + 1))); }
    // Zipf-like: rank r with weight 1/(r+1), as word frequencies go.
    int zipf(const std::vector<double> &cumulative)
    {
        const double x = double(m_engine() >> 11) / double(1ull << 53) * cumulative.back();
        return int(std::lower_bound(cumulative.begin(), cumulative.end(), x) - cumulative.begin());
    }

private:
    std::mt19937_64 m_engine;
};

std::vector<double> zipfTable(size_t n)
{
    std::vector<double> c(n);
    double sum = 0;
    for (size_t i = 0; i < n; ++i)
        c[i] = sum += 1.0 / double(i + 1);
    return c;
}

const QStringList EnglishFunctionWords = QStringLiteral(
    "the of and a to in is was for on that with as by at from it this be are or an which were has have not "
    "but all its also their more can when into than only other after most some these over such been first two")
                                             .split(u' ');
const QStringList Syllables = QStringLiteral(
    "ka lo ri ven tor ba mel quin sa dor fi lan ne ro tu vel gar is ox um pel dra cor fen hal jo kim mar nor "
    "pra sil tan ur wex yor zan bel cas dun el fra gil hor ith")
                                  .split(u' ');
// Common Han characters; words are pairs and triples of them.
const QString HanPool = QStringLiteral(
    "国人年大中学生会工作经发展时间问题部分方面社主要理家地业产动重过行心电力政法文明公司市场管理体系统技术研究"
    "设计计划服务质量环境资源能源交通城市农村教育科学医疗健康安全信息网络数据标准组织活动制度结构功能内容形式"
    "价值意义历史传统文化艺术音乐电影新闻报告会议规定条件影响结果原因目标任务方法过程阶段水平能力关系合作交流"
    "建设改革开放经济金融投资贸易企业产品销售客户价格成本利润风险机会竞争优势需求供应生产加工材料设备工程项目");
const QStringList EnglishAttributes = QStringLiteral(
    "calibration code|launch date|chief engineer|storage capacity|home port|serial number|operating budget|"
    "maximum speed|founding year|head office|lead designer|test pilot|warranty period|power rating|"
    "access password|mission length|crew size|fuel type|cooling method|security rating")
                                          .split(u'|');
const QStringList ChineseAttributes = QStringLiteral(
    "负责人|启动日期|存储容量|所在城市|年度预算|首席工程师|序列号|最高速度|成立年份|总部地址|"
    "设计师|保修期限|额定功率|访问密码|任务周期|团队规模|燃料类型|冷却方式|安全等级|试验地点")
                                          .split(u'|');

class Corpus
{
public:
    Corpus(quint64 seed)
        : m_random(seed)
    {
        // Distinct words, so a rank is a frequency: names are built from the rare ones.
        QSet<QString> seen;
        while (m_englishWords.size() < VocabularySize) {
            QString w;
            const int n = m_random.range(1, 3);
            for (int s = 0; s < n; ++s)
                w += Syllables[int(m_random.below(quint64(Syllables.size())))];
            if (!seen.contains(w)) {
                seen.insert(w);
                m_englishWords.append(w);
            }
        }
        while (m_chineseWords.size() < VocabularySize) {
            QString h;
            const int m = m_random.range(2, 3);
            for (int s = 0; s < m; ++s)
                h += HanPool[int(m_random.below(quint64(HanPool.size())))];
            if (!seen.contains(h)) {
                seen.insert(h);
                m_chineseWords.append(h);
            }
        }
        m_zipf = zipfTable(size_t(m_englishWords.size()));
    }

    // Writes `docs` documents under `root` (100 to a folder) with `questions` planted facts.
    QList<Question> write(const QString &root, int docs, int questions, qint64 *bytes)
    {
        struct Plant
        {
            QString sentence;
            int question = -1; // index into the answers, or -1 for a distractor
        };
        QList<QList<Plant>> plants(docs);
        QList<Question> out;
        QSet<QString> names;
        for (int q = 0; q < questions; ++q) {
            const int doc = int(m_random.below(quint64(docs)));
            const bool chinese = doc % 2 == 1;
            QString entity;
            do
                entity = chinese ? chineseName() : englishName();
            while (names.contains(entity));
            names.insert(entity);
            const QStringList &attributes = chinese ? ChineseAttributes : EnglishAttributes;
            const int a = int(m_random.below(quint64(attributes.size())));
            const QString value = QStringLiteral("%1-%2").arg(m_random.range(1000, 9999)).arg(QChar(u'A' + m_random.range(0, 25)));
            plants[doc].append({fact(chinese, entity, attributes[a], value), int(out.size())});
            // Questions carry context words as people's do, here two of the fifty commonest:
            // they match a large part of the library and must not drown the answer.
            const QStringList &words = chinese ? m_chineseWords : m_englishWords;
            const QString c1 = words[int(m_random.below(50))];
            const QString c2 = words[int(m_random.below(50))];
            out.append({chinese ? QStringLiteral("关于%1%2，%3的%4是什么？").arg(c1, c2, entity, attributes[a])
                                : QStringLiteral("In the %1 %2 notes, what is the %3 of the %4?")
                                      .arg(c1, c2, attributes[a], entity),
                        QString(), 0, 0, chinese});
            // The same entity with other attributes elsewhere, in documents of its language.
            for (int d = 0; d < 2; ++d) {
                const int other = int(m_random.below(quint64(docs / 2))) * 2 + (chinese ? 1 : 0);
                const int b = (a + 1 + int(m_random.below(quint64(attributes.size() - 1)))) % int(attributes.size());
                plants[std::min(other, docs - 1)].append(
                    {fact(chinese, entity, attributes[b], QString::number(m_random.range(10, 99999))), -1});
            }
        }
        *bytes = 0;
        for (int doc = 0; doc < docs; ++doc) {
            const QString dir = QStringLiteral("%1/part%2").arg(root).arg(doc / 100, 3, 10, QChar(u'0'));
            QDir().mkpath(dir);
            const QString path = QStringLiteral("%1/doc%2.md").arg(dir).arg(doc, 5, 10, QChar(u'0'));
            QString text;
            const bool chinese = doc % 2 == 1;
            text += QStringLiteral("# ") + heading(chinese) + QStringLiteral("\n\n");
            const int sections = m_random.range(2, 4);
            const int paragraphs = m_random.range(3, 5);
            // Plants go into random paragraph places, each its own paragraph.
            QList<int> places;
            for (int p = 0; p < plants[doc].size(); ++p)
                places.append(int(m_random.below(quint64(sections * paragraphs))));
            for (int s = 0; s < sections; ++s) {
                text += QStringLiteral("## ") + heading(chinese) + QStringLiteral("\n\n");
                for (int p = 0; p < paragraphs; ++p) {
                    for (int k = 0; k < plants[doc].size(); ++k) {
                        if (places[k] != s * paragraphs + p)
                            continue;
                        const Plant &plant = plants[doc][k];
                        if (plant.question >= 0) {
                            Question &q = out[plant.question];
                            q.path = QDir::cleanPath(path);
                            q.start = text.size();
                            q.end = text.size() + plant.sentence.size();
                        }
                        text += plant.sentence + QStringLiteral("\n\n");
                    }
                    text += paragraph(chinese) + QStringLiteral("\n\n");
                }
            }
            QFile f(path);
            const QByteArray utf8 = text.toUtf8();
            if (!f.open(QIODevice::WriteOnly) || f.write(utf8) != utf8.size())
                std::fprintf(stderr, "cannot write %s\n", qPrintable(path));
            *bytes += utf8.size();
        }
        return out;
    }

private:
    QString fact(bool chinese, const QString &entity, const QString &attribute, const QString &value)
    {
        return chinese ? QStringLiteral("%1的%2是%3。").arg(entity, attribute, value)
                       : QStringLiteral("The %1 of the %2 is %3.").arg(attribute, entity, value);
    }
    QString englishName()
    {
        QString a = m_englishWords[m_random.range(1000, 3999)];
        QString b = m_englishWords[m_random.range(1000, 3999)];
        a[0] = a[0].toUpper();
        b[0] = b[0].toUpper();
        return a + u' ' + b;
    }
    QString chineseName() { return m_chineseWords[m_random.range(1000, 3999)] + m_chineseWords[m_random.range(1000, 3999)]; }
    QString word(bool chinese)
    {
        if (!chinese && m_random.below(3) == 0)
            return EnglishFunctionWords[int(m_random.below(quint64(EnglishFunctionWords.size())))];
        if (chinese && m_random.below(5) == 0)
            return QString(QStringLiteral("的了是在和").at(int(m_random.below(5))));
        const int i = m_random.zipf(m_zipf);
        return chinese ? m_chineseWords[i] : m_englishWords[i];
    }
    QString heading(bool chinese)
    {
        QStringList words;
        for (int i = m_random.range(2, 4); i > 0; --i)
            words.append(word(chinese));
        return words.join(chinese ? QString() : QStringLiteral(" "));
    }
    QString paragraph(bool chinese)
    {
        QString p;
        for (int s = m_random.range(3, 6); s > 0; --s) {
            QStringList words;
            for (int i = m_random.range(10, 22); i > 0; --i)
                words.append(word(chinese));
            if (chinese) {
                p += words.join(QString()) + QStringLiteral("。");
            } else {
                QString sentence = words.join(u' ') + u'.';
                sentence[0] = sentence[0].toUpper();
                p += (p.isEmpty() ? QString() : QStringLiteral(" ")) + sentence;
            }
        }
        return p;
    }

    static constexpr int VocabularySize = 4000;
    Random m_random;
    QStringList m_englishWords;
    QStringList m_chineseWords;
    std::vector<double> m_zipf;
};

struct Result
{
    double indexSeconds = 0;
    qint64 indexBytes = 0;
    int files = 0;
    int chunks = 0;
    double p50 = 0;
    double p95 = 0;
    double max = 0;
    double first = 0; // the first query after indexing: the reader's statistics and cold pages
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
           const QList<Question> &questions, Bench::TypingFigures *typing)
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
    for (const Question &q : questions) {
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
        for (const Question &q : questions) {
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
        const QList<Question> planted = Corpus(seed).write(corpus, docs, questions, &bytes);
        std::fprintf(stderr, "seed %llu: %d documents, %.1f MB, %lld questions, generated in %.1f s\n",
                     static_cast<unsigned long long>(seed), docs, double(bytes) / 1e6,
                     static_cast<long long>(planted.size()), double(gen.elapsed()) / 1000);
        for (Tokenization mode : std::as_const(modes)) {
            const bool trigram = mode == Tokenization::Trigram;
            const QString db = dir.filePath(trigram ? QStringLiteral("trigram.sqlite") : QStringLiteral("bigram.sqlite"));
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
            std::printf("%-5llu %9d %10.3f / %8.3f %10.3f / %8.3f %10.3f / %8.3f %10.3f / %8.3f (%d, %d)   (p50 / p95)\n",
                        static_cast<unsigned long long>(seed), f.questions, f.freeP50, f.freeP95, f.offP50, f.offP95,
                        f.pausedP50, f.pausedP95, f.lateP50, f.lateP95, f.lateQuestions, f.lateSearched);
    }
    return ok ? 0 : 1;
}
