// The response cache: an exact hit by fingerprint, an English rephrase found by MinHash as a
// draft or served per the thresholds, an unrelated question missed, a Chinese near-duplicate by
// character shingles, the size bound evicting the least recently used, one model's answers not
// another's, a damaged file logged and worked around empty, and clear().
#include "prefetch/cache/responsecache.h"
#include "prefetch/text/minhash.h"

#include <QFile>
#include <QTemporaryDir>
#include <QTest>

using namespace Prefetch;

namespace {

const ResponseCache::Scope Local{QStringLiteral("local"), QStringLiteral("model-a")};
const QByteArray Context = QByteArrayLiteral("ctx-1");

ResponseCache::Entry entry(const QByteArray &fingerprint, const QString &question, const QString &answer,
                           const QByteArray &context = Context)
{
    return {fingerprint, context, question, answer, 1200};
}

} // namespace

class tst_ResponseCache : public QObject
{
    Q_OBJECT

private slots:
    void init()
    {
        QVERIFY(m_dir.isValid());
        m_path = m_dir.filePath(QStringLiteral("cache-%1.sqlite").arg(++m_n));
    }

    void exactHit()
    {
        ResponseCache cache(m_path);
        QVERIFY(cache.isPersistent());
        QCOMPARE(cache.lookupExact(Local, "fp1").decision, ResponseCache::Decision::Miss);
        cache.store(Local, entry("fp1", QStringLiteral("Summarize"), QStringLiteral("A summary.")));
        const auto hit = cache.lookupExact(Local, "fp1");
        QCOMPARE(hit.decision, ResponseCache::Decision::Serve);
        QCOMPARE(hit.answer, QStringLiteral("A summary."));
        QCOMPARE(hit.savedMs, 1200);
        QCOMPARE(cache.lookupExact(Local, "fp2").decision, ResponseCache::Decision::Miss);
        // Stored on disk: a new cache over the same file still has it.
        ResponseCache reopened(m_path);
        QCOMPARE(reopened.lookupExact(Local, "fp1").answer, QStringLiteral("A summary."));
        QCOMPARE(cache.decisionLog().size(), 3);
        QCOMPARE(cache.decisionLog().at(1).decision, ResponseCache::Decision::Serve);
    }

    void exactHitsKeepTheHitRateARate()
    {
        // Each exact serve is an offer and a hit: after two, a near lookup's confidence is still
        // at most 1 (it was 1.15 when the hits were counted without their offers).
        ResponseCache cache(m_path);
        const QString question = QStringLiteral("Summarize the main risks in this contract.");
        cache.store(Local, entry("fp1", question, QStringLiteral("Risks.")));
        for (int i = 0; i < 2; ++i) {
            const auto hit = cache.lookupExact(Local, "fp1");
            QCOMPARE(hit.decision, ResponseCache::Decision::Serve);
            cache.recordOutcome(hit.id, true);
        }
        const auto near = cache.lookupNear(Local, Context, question);
        QCOMPARE(near.decision, ResponseCache::Decision::Serve);
        QVERIFY2(near.confidence <= 1.0, qPrintable(QString::number(near.confidence)));
        // (2 + 1) / (2 + 2), fresh (a few ms old)
        QVERIFY(qAbs(near.confidence - ResponseCache::confidence(1.0, 3.0 / 4.0, 1.0)) < 1e-6);
    }

    void confidenceAndThresholds()
    {
        QCOMPARE(ResponseCache::confidence(1.0, 1.0, 1.0), 1.0);
        QCOMPARE(ResponseCache::decide(ResponseCache::confidence(1.0, 0.5, 0.5)),
                 ResponseCache::Decision::Serve); // 0.75
        QCOMPARE(ResponseCache::decide(0.74), ResponseCache::Decision::Draft);
        QCOMPARE(ResponseCache::decide(0.5), ResponseCache::Decision::Draft);
        QCOMPARE(ResponseCache::decide(0.49), ResponseCache::Decision::Miss);
    }

    void englishRephrase()
    {
        ResponseCache cache(m_path);
        cache.store(Local, entry("fp1", QStringLiteral("Summarize the main risks in this contract."),
                                 QStringLiteral("Three risks: ...")));
        const QString rephrased = QStringLiteral("Please summarize the main risks in this contract");
        const double sim = MinHash::similarity(MinHash::signature(
                                                   QStringLiteral("Summarize the main risks in this contract.")),
                                               MinHash::signature(rephrased));
        QVERIFY2(sim > 0.7 && sim < 1.0, qPrintable(QString::number(sim)));
        // Fresh, hit rate at its prior 0.5: 0.5 sim + 0.15 + 0.2; a draft below 0.8 similarity,
        // served above.
        auto first = cache.lookupNear(Local, Context, rephrased);
        QCOMPARE(first.decision, ResponseCache::decide(sim * 0.5 + 0.15 + 0.2));
        QVERIFY(first.decision != ResponseCache::Decision::Miss);
        QCOMPARE(first.answer, QStringLiteral("Three risks: ..."));
        QCOMPARE(first.neighbours.size(), 1);
        QCOMPARE(first.neighbours.first().similarity, sim);
        // Two weeks later, after drafts that did not hold, the same rephrase is less sure.
        const QDateTime later = QDateTime::currentDateTimeUtc().addDays(14);
        cache.setClock([later] { return later; });
        for (int i = 0; i < 4; ++i)
            cache.recordOutcome(cache.lookupNear(Local, Context, rephrased).id, false);
        const auto stale = cache.lookupNear(Local, Context, rephrased);
        QVERIFY(stale.confidence < first.confidence);
        QCOMPARE(stale.decision, ResponseCache::decide(stale.confidence));
        // Answers that held raise the hit rate and so the confidence.
        for (int i = 0; i < 10; ++i)
            cache.recordOutcome(stale.id, true);
        QVERIFY(cache.lookupNear(Local, Context, rephrased).confidence > stale.confidence);
        // The same question on another context (another document, another conversation) is not near.
        QCOMPARE(cache.lookupNear(Local, "ctx-2", rephrased).decision, ResponseCache::Decision::Miss);
    }

    void unrelatedMisses()
    {
        ResponseCache cache(m_path);
        cache.store(Local, entry("fp1", QStringLiteral("Summarize the main risks in this contract."),
                                 QStringLiteral("Risks.")));
        const auto miss = cache.lookupNear(Local, Context, QStringLiteral("How do I bake sourdough bread at home?"));
        QCOMPARE(miss.decision, ResponseCache::Decision::Miss);
        QVERIFY(miss.answer.isEmpty());
        QCOMPARE(miss.id, 0);
    }

    void chineseNearDuplicate()
    {
        const auto sh = MinHash::shingles(QStringLiteral("这份合同的主要风险是什么？"));
        QVERIFY(sh.contains(QStringLiteral("合同")));
        QVERIFY(!sh.contains(QStringLiteral("这份合同的主要风险是什么"))); // characters, not one "word"
        ResponseCache cache(m_path);
        cache.store(Local, entry("fp1", QStringLiteral("这份合同的主要风险是什么？"), QStringLiteral("三个风险。")));
        const auto near = cache.lookupNear(Local, Context, QStringLiteral("请问这份合同的主要风险是什么"));
        QVERIFY2(near.decision != ResponseCache::Decision::Miss, qPrintable(QString::number(near.confidence)));
        QCOMPARE(near.answer, QStringLiteral("三个风险。"));
        QCOMPARE(cache.lookupNear(Local, Context, QStringLiteral("明天北京天气怎么样")).decision,
                 ResponseCache::Decision::Miss);
    }

    void evictsLeastRecentlyUsed()
    {
        ResponseCache cache(m_path, {3, 1'000'000});
        QDateTime now = QDateTime::currentDateTimeUtc();
        cache.setClock([&now] { return now; });
        for (int i = 0; i < 3; ++i) {
            now = now.addSecs(1);
            cache.store(Local, entry("fp" + QByteArray::number(i), QStringLiteral("q%1").arg(i),
                                     QStringLiteral("a%1").arg(i)));
        }
        now = now.addSecs(1);
        QCOMPARE(cache.lookupExact(Local, "fp0").decision,
                 ResponseCache::Decision::Serve); // fp1 is now the oldest used
        now = now.addSecs(1);
        cache.store(Local, entry("fp3", QStringLiteral("q3"), QStringLiteral("a3")));
        QCOMPARE(cache.count(), 3);
        QCOMPARE(cache.lookupExact(Local, "fp1").decision, ResponseCache::Decision::Miss);
        QCOMPARE(cache.lookupExact(Local, "fp0").decision, ResponseCache::Decision::Serve);
        // The byte bound too.
        ResponseCache small(m_dir.filePath(QStringLiteral("small.sqlite")), {100, 50});
        small.store(Local, entry("a", QStringLiteral("q"), QString(30, QLatin1Char('x'))));
        small.store(Local, entry("b", QStringLiteral("q"), QString(30, QLatin1Char('y'))));
        QCOMPARE(small.count(), 1);
        QVERIFY(small.bytes() <= 50);
        QCOMPARE(small.lookupExact(Local, "b").decision, ResponseCache::Decision::Serve);
    }

    void perModel()
    {
        ResponseCache cache(m_path);
        cache.store(Local, entry("fp1", QStringLiteral("Explain monads"), QStringLiteral("model a's answer")));
        const ResponseCache::Scope otherModel{Local.provider, QStringLiteral("model-b")};
        const ResponseCache::Scope otherProvider{QStringLiteral("openai"), Local.model};
        QCOMPARE(cache.lookupExact(otherModel, "fp1").decision, ResponseCache::Decision::Miss);
        QCOMPARE(cache.lookupExact(otherProvider, "fp1").decision, ResponseCache::Decision::Miss);
        QCOMPARE(cache.lookupNear(otherModel, Context, QStringLiteral("Explain monads")).decision,
                 ResponseCache::Decision::Miss);
        cache.store(otherModel, entry("fp1", QStringLiteral("Explain monads"), QStringLiteral("model b's answer")));
        QCOMPARE(cache.lookupExact(Local, "fp1").answer, QStringLiteral("model a's answer"));
        QCOMPARE(cache.lookupExact(otherModel, "fp1").answer, QStringLiteral("model b's answer"));
    }

    void corruptFile()
    {
        QFile f(m_path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        const QByteArray junk = QByteArray("this is not a database, just junk bytes ").repeated(200);
        f.write(junk);
        f.close();
        ResponseCache cache(m_path);
        QVERIFY(!cache.isPersistent());
        QVERIFY(!cache.error().isEmpty());
        // Works, empty, in memory.
        QCOMPARE(cache.lookupExact(Local, "fp1").decision, ResponseCache::Decision::Miss);
        cache.store(Local, entry("fp1", QStringLiteral("q"), QStringLiteral("a")));
        QCOMPARE(cache.lookupExact(Local, "fp1").answer, QStringLiteral("a"));
        // The file is left as it was.
        QVERIFY(f.open(QIODevice::ReadOnly));
        QCOMPARE(f.readAll(), junk);
    }

    void clearEmpties()
    {
        ResponseCache cache(m_path);
        cache.store(Local, entry("fp1", QStringLiteral("Summarize the main risks"), QStringLiteral("a")));
        cache.store(Local, entry("fp2", QStringLiteral("Translate this"), QStringLiteral("b")));
        QCOMPARE(cache.count(), 2);
        cache.clear();
        QCOMPARE(cache.count(), 0);
        QCOMPARE(cache.bytes(), 0);
        QCOMPARE(cache.lookupExact(Local, "fp1").decision, ResponseCache::Decision::Miss);
        QCOMPARE(cache.lookupNear(Local, Context, QStringLiteral("Summarize the main risks")).decision,
                 ResponseCache::Decision::Miss);
        ResponseCache reopened(m_path);
        QCOMPARE(reopened.count(), 0);
    }

private:
    QTemporaryDir m_dir;
    QString m_path;
    int m_n = 0;
};

QTEST_GUILESS_MAIN(tst_ResponseCache)
#include "tst_responsecache.moc"
