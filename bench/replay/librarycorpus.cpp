#include "librarycorpus.h"

#include <QDir>
#include <QFile>
#include <QSet>

#include <algorithm>
#include <cstdio>
#include <random>
#include <vector>

namespace Bench {

namespace {

// Deterministic on every platform: mt19937_64 is specified, std's distributions are not.
class CorpusRandom
{
public:
    explicit CorpusRandom(quint64 seed)
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

const QStringList EnglishFunctionWords =
    QStringLiteral(
        "the of and a to in is was for on that with as by at from it this be are or an which were has have not "
        "but all its also their more can when into than only other after most some these over such been first two")
        .split(u' ');
const QStringList Syllables =
    QStringLiteral(
        "ka lo ri ven tor ba mel quin sa dor fi lan ne ro tu vel gar is ox um pel dra cor fen hal jo kim mar nor "
        "pra sil tan ur wex yor zan bel cas dun el fra gil hor ith")
        .split(u' ');
// Common Han characters; words are pairs and triples of them.
const QString HanPool = QStringLiteral(
    "国人年大中学生会工作经发展时间问题部分方面社主要理家地业产动重过行心电力政法文明公司市场管理体系统技术研究"
    "设计计划服务质量环境资源能源交通城市农村教育科学医疗健康安全信息网络数据标准组织活动制度结构功能内容形式"
    "价值意义历史传统文化艺术音乐电影新闻报告会议规定条件影响结果原因目标任务方法过程阶段水平能力关系合作交流"
    "建设改革开放经济金融投资贸易企业产品销售客户价格成本利润风险机会竞争优势需求供应生产加工材料设备工程项目");
const QStringList EnglishAttributes =
    QStringLiteral(
        "calibration code|launch date|chief engineer|storage capacity|home port|serial number|operating budget|"
        "maximum speed|founding year|head office|lead designer|test pilot|warranty period|power rating|"
        "access password|mission length|crew size|fuel type|cooling method|security rating")
        .split(u'|');
const QStringList ChineseAttributes =
    QStringLiteral("负责人|启动日期|存储容量|所在城市|年度预算|首席工程师|序列号|最高速度|成立年份|总部地址|"
                   "设计师|保修期限|额定功率|访问密码|任务周期|团队规模|燃料类型|冷却方式|安全等级|试验地点")
        .split(u'|');

} // namespace

class LibraryCorpus::Generator
{
public:
    explicit Generator(quint64 seed)
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

    struct Plant {
        QString sentence;
        int question = -1; // index into the answers, or -1 for a distractor
    };

    // Draws the `questions` planted facts over `docs` documents: the questions, and per document
    // the sentences to plant. The random numbers are drawn in this order, the documents' after.
    QList<PlantedQuestion> plan(int docs, int questions, QList<QList<Plant>> &plants)
    {
        plants = QList<QList<Plant>>(docs);
        QList<PlantedQuestion> out;
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
            const QString value =
                QStringLiteral("%1-%2").arg(m_random.range(1000, 9999)).arg(QChar(u'A' + m_random.range(0, 25)));
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
        return out;
    }

    // Writes the documents under `root` (100 to a folder), filling in where each question's
    // answer is.
    void writeDocuments(const QString &root, const QList<QList<Plant>> &plants, QList<PlantedQuestion> &out,
                        qint64 *bytes)
    {
        const int docs = int(plants.size());
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
                            PlantedQuestion &q = out[plant.question];
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
    QString chineseName()
    {
        return m_chineseWords[m_random.range(1000, 3999)] + m_chineseWords[m_random.range(1000, 3999)];
    }
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
    CorpusRandom m_random;
    QStringList m_englishWords;
    QStringList m_chineseWords;
    std::vector<double> m_zipf;
};

LibraryCorpus::LibraryCorpus(quint64 seed)
    : m_generator(std::make_unique<Generator>(seed))
{
}

LibraryCorpus::~LibraryCorpus() = default;

QList<PlantedQuestion> LibraryCorpus::write(const QString &root, int docs, int questions, qint64 *bytes)
{
    QList<QList<Generator::Plant>> plants;
    QList<PlantedQuestion> out = m_generator->plan(docs, questions, plants);
    m_generator->writeDocuments(root, plants, out, bytes);
    return out;
}

QList<PlantedQuestion> LibraryCorpus::questions(int docs, int questions)
{
    QList<QList<Generator::Plant>> plants;
    return m_generator->plan(docs, questions, plants);
}

} // namespace Bench
