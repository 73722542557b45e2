// Prefetch metrics: counters, hit rate and extra cost, nearest-rank percentiles over a rolling
// window, the hit-rate alarm and the extra-cost pause with hysteresis, coalesced `changed`, and
// the snapshot's keys.
// Over 600 lines: 20 scenarios, each a test function readable on its own; what they share is
// at the top or in tests/support.
#include "prefetch/metrics.h"

#include <QElapsedTimer>
#include <QJsonArray>
#include <QLocale>
#include <QSignalSpy>
#include <QTest>
#include <QTimer>

#include <cmath>
#include <limits>

using namespace Prefetch;

class tst_Metrics : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void counts();
    void hitRateAndExtraCost_data();
    void hitRateAndExtraCost();
    void percentiles_data();
    void percentiles();
    void windowIsBounded();
    void perceivedAllAndRecent();
    void alarmAtThresholds();
    void degradeWithHysteresis();
    void degradeNeedsEnoughAttempts();
    void settingsReevaluate();
    void resetClearsAndReportsOff();
    void changedIsCoalesced();
    void changedFollowsTheLastChange();
    void snapshotKeys();
    void acknowledgementLine();
    void moneyDecidesExtraCostWhereThereArePrices();
    void answersAreCountedOncePerSeries();
    void tooFewAttemptsSaysWhy();

private:
    static Settings quickSettings()
    {
        Settings s;
        s.metricsSignalInterval = 20ms; // short, so that the coalescing tests finish fast
        return s;
    }
    static void attempts(Metrics &m, Strategy s, int n, Outcome o)
    {
        for (int i = 0; i < n; ++i) {
            m.recordAttempt(s);
            m.recordOutcome(s, o);
        }
    }
};

void tst_Metrics::initTestCase()
{
    // Reasons format numbers with the default locale; pin it so that the texts are exact.
    QLocale::setDefault(QLocale(QLocale::English, QLocale::UnitedStates));
    qRegisterMetaType<Prefetch::Strategy>();
}

void tst_Metrics::counts()
{
    Metrics m(quickSettings());
    m.recordAttempt(Strategy::Hover);
    m.recordAttempt(Strategy::Hover);
    m.recordAttempt(Strategy::Hover);
    m.recordOutcome(Strategy::Hover, Outcome::Hit);
    m.recordOutcome(Strategy::Hover, Outcome::PartialHit);
    m.recordOutcome(Strategy::Hover, Outcome::Cancelled);
    m.recordOutcome(Strategy::Hover, Outcome::RejectedBudget); // not an attempt
    m.recordOutcome(Strategy::Hover, Outcome::RejectedLane);
    m.recordOutcome(Strategy::Workflow, Outcome::Expired);
    m.recordOutcome(Strategy::Workflow, Outcome::Failed);
    m.recordOutcome(Strategy::Workflow, Outcome::Preempted);
    m.recordOutcome(Strategy::Workflow, Outcome::Miss);
    m.recordTokens(Strategy::Hover, 300, 120, 0);
    m.recordTokens(Strategy::Hover, 0, 0, 45);
    m.recordCache(Strategy::Warmup, 2048, 512);
    m.recordCache(Strategy::Warmup, 1024, 0);
    m.recordTimeSaved(Strategy::Hover, 420.5);
    m.recordTimeSaved(Strategy::Hover, 300);

    const StrategyStats h = m.stats(Strategy::Hover);
    QCOMPARE(h.attempts, 3);
    QCOMPARE(h.hits, 1);
    QCOMPARE(h.partialHits, 1);
    QCOMPARE(h.cancelled, 1);
    QCOMPARE(h.rejectedBudget, 1);
    QCOMPARE(h.rejectedLane, 1);
    QCOMPARE(h.misses, 0);
    QCOMPARE(h.tokensPrefetched, 300);
    QCOMPARE(h.tokensUsed, 120);
    QCOMPARE(h.tokensWasted, 45);
    QCOMPARE(h.timeSavedMs, 720.5);

    const StrategyStats w = m.stats(Strategy::Workflow);
    QCOMPARE(w.attempts, 0);
    QCOMPARE(w.expired, 1);
    QCOMPARE(w.failed, 1);
    QCOMPARE(w.preempted, 1);
    QCOMPARE(w.misses, 1);

    const StrategyStats c = m.stats(Strategy::Warmup);
    QCOMPARE(c.cacheReadTokens, 3072);
    QCOMPARE(c.cacheWriteTokens, 512);
    QCOMPARE(m.stats(Strategy::Debounce).attempts, 0);
}

void tst_Metrics::hitRateAndExtraCost_data()
{
    QTest::addColumn<qint64>("attempts");
    QTest::addColumn<qint64>("hits");
    QTest::addColumn<qint64>("partialHits");
    QTest::addColumn<qint64>("used");
    QTest::addColumn<qint64>("wasted");
    QTest::addColumn<double>("hitRate");
    QTest::addColumn<double>("extraCost");
    QTest::addColumn<bool>("unbounded");

    QTest::addRow("nothing") << qint64(0) << qint64(0) << qint64(0) << qint64(0) << qint64(0) << 0.0 << 0.0 << false;
    QTest::addRow("all hits") << qint64(4) << qint64(4) << qint64(0) << qint64(800) << qint64(0) << 1.0 << 0.0 << false;
    QTest::addRow("partial hits count") << qint64(10) << qint64(3) << qint64(2) << qint64(500) << qint64(200) << 0.5
                                        << 0.4 << false;
    QTest::addRow("waste over use") << qint64(8) << qint64(1) << qint64(0) << qint64(100) << qint64(250) << 0.125 << 2.5
                                    << false;
    QTest::addRow("waste, nothing used") << qint64(3) << qint64(0) << qint64(0) << qint64(0) << qint64(90) << 0.0
                                         << 90.0 << true;
}

void tst_Metrics::hitRateAndExtraCost()
{
    QFETCH(qint64, attempts);
    QFETCH(qint64, hits);
    QFETCH(qint64, partialHits);
    QFETCH(qint64, used);
    QFETCH(qint64, wasted);
    QFETCH(double, hitRate);
    QFETCH(double, extraCost);
    QFETCH(bool, unbounded);

    StrategyStats s;
    s.attempts = attempts;
    s.hits = hits;
    s.partialHits = partialHits;
    s.tokensUsed = used;
    s.tokensWasted = wasted;
    QCOMPARE(s.hitRate(), hitRate);
    QCOMPARE(s.extraCost(), extraCost);
    QVERIFY(std::isfinite(s.extraCost()));
    QCOMPARE(s.extraCostUnbounded(), unbounded);
}

void tst_Metrics::percentiles_data()
{
    QTest::addColumn<QList<double>>("samples");
    QTest::addColumn<double>("p50");
    QTest::addColumn<double>("p95");

    QTest::addRow("one") << QList<double>{42} << 42.0 << 42.0;
    QTest::addRow("two") << QList<double>{10, 20} << 10.0 << 20.0;
    QTest::addRow("four, unsorted") << QList<double>{40, 10, 30, 20} << 20.0 << 40.0;
    QTest::addRow("five") << QList<double>{1, 2, 3, 4, 5} << 3.0 << 5.0;
    QList<double> twenty;
    for (int i = 20; i >= 1; --i)
        twenty << i * 10.0;
    QTest::addRow("twenty") << twenty << 100.0 << 190.0; // ranks 10 and 19
    QList<double> hundred;
    for (int i = 1; i <= 100; ++i)
        hundred << double(i);
    QTest::addRow("hundred") << hundred << 50.0 << 95.0;
    QTest::addRow("outlier") << QList<double>{300, 310, 290, 305, 2900} << 305.0 << 2900.0;
}

void tst_Metrics::percentiles()
{
    QFETCH(QList<double>, samples);
    QFETCH(double, p50);
    QFETCH(double, p95);

    Metrics m(quickSettings());
    QCOMPARE(m.perceived(Strategy::Hover, LatencyKind::Hit).count, 0);
    QCOMPARE(m.perceived(Strategy::Hover, LatencyKind::Hit).p50, -1.0);
    QCOMPARE(m.ttft(Strategy::Hover).p95, -1.0);
    for (double v : samples) {
        m.recordPerceivedLatency(Strategy::Hover, LatencyKind::Hit, v);
        m.recordTtft(Strategy::Hover, v);
    }
    const Percentiles p = m.perceived(Strategy::Hover, LatencyKind::Hit);
    QCOMPARE(p.count, samples.size());
    QCOMPARE(p.p50, p50);
    QCOMPARE(p.p95, p95);
    const Percentiles t = m.ttft(Strategy::Hover);
    QCOMPARE(t.p50, p50);
    QCOMPARE(t.p95, p95);
    QCOMPARE(m.perceived(Strategy::Hover, LatencyKind::Miss).count, 0); // other series untouched
}

void tst_Metrics::windowIsBounded()
{
    Settings s = quickSettings();
    s.latencyWindow = 5;
    Metrics m(s);
    for (int i = 1; i <= 1000; ++i) {
        m.recordPerceivedLatency(Strategy::Debounce, LatencyKind::Miss, i);
        m.recordTtft(Strategy::Debounce, i);
    }
    Percentiles p = m.perceived(Strategy::Debounce, LatencyKind::Miss);
    QCOMPARE(p.count, 5);
    QCOMPARE(p.p50, 998.0); // of 996..1000
    QCOMPARE(p.p95, 1000.0);
    QCOMPARE(m.ttft(Strategy::Debounce).count, 5);
    QCOMPARE(m.recentPerceived(100), (QList<double>{996, 997, 998, 999, 1000}));

    // Shrinking keeps the newest, growing keeps everything.
    s.latencyWindow = 3;
    m.setSettings(s);
    QCOMPARE(m.recentPerceived(100), (QList<double>{998, 999, 1000}));
    QCOMPARE(m.perceived(Strategy::Debounce, LatencyKind::Miss).p50, 999.0);
    s.latencyWindow = 10;
    m.setSettings(s);
    m.recordPerceivedLatency(Strategy::Debounce, LatencyKind::Miss, 1);
    QCOMPARE(m.recentPerceived(100), (QList<double>{998, 999, 1000, 1}));
}

void tst_Metrics::perceivedAllAndRecent()
{
    Metrics m(quickSettings());
    m.recordPerceivedLatency(Strategy::Hover, LatencyKind::Hit, 100);
    m.recordPerceivedLatency(Strategy::Debounce, LatencyKind::Hit, 300);
    m.recordPerceivedLatency(Strategy::Workflow, LatencyKind::Hit, 200);
    m.recordPerceivedLatency(Strategy::None, LatencyKind::NoPrefetch, 900);
    m.recordPerceivedLatency(Strategy::None, LatencyKind::NoPrefetch, 700);
    m.recordPerceivedLatency(Strategy::Hover, LatencyKind::Miss, 800);
    m.recordTtft(Strategy::None, 650);

    const Percentiles hits = m.perceivedAll(LatencyKind::Hit);
    QCOMPARE(hits.count, 3);
    QCOMPARE(hits.p50, 200.0);
    QCOMPARE(hits.p95, 300.0);
    const Percentiles none = m.perceivedAll(LatencyKind::NoPrefetch);
    QCOMPARE(none.count, 2);
    QCOMPARE(none.p50, 700.0);
    QCOMPARE(m.perceived(Strategy::None, LatencyKind::NoPrefetch).p95, 900.0);
    QCOMPARE(m.ttft(Strategy::None).p50, 650.0);

    QCOMPARE(m.recentPerceived(3), (QList<double>{900, 700, 800}));
    QCOMPARE(m.recentPerceived(0), QList<double>{});
    QCOMPARE(m.recentPerceived(-4), QList<double>{});
    QCOMPARE(m.recentPerceived(1000).size(), 6);

    m.recordPerceivedLatency(Strategy::Hover, LatencyKind::Hit, std::nan("")); // ignored
    QCOMPARE(m.recentPerceived(1000).size(), 6);
}

void tst_Metrics::alarmAtThresholds()
{
    Metrics m(quickSettings()); // floor 35 %, after 20 attempts
    QSignalSpy alarms(&m, &Metrics::alarmChanged);

    // 19 attempts, all misses: not enough to judge yet.
    attempts(m, Strategy::Debounce, 19, Outcome::Miss);
    QCOMPARE(alarms.count(), 0);
    QVERIFY(!m.stats(Strategy::Debounce).alarm);

    attempts(m, Strategy::Debounce, 1, Outcome::Miss); // the 20th
    QCOMPARE(alarms.count(), 1);
    QCOMPARE(alarms.at(0).at(0).value<Strategy>(), Strategy::Debounce);
    QCOMPARE(alarms.at(0).at(1).toBool(), true);
    QCOMPARE(alarms.at(0).at(2).toString(),
             QStringLiteral("Typing prefetch alarm: hit rate 0 % is below 35 % after 20 attempts."));
    QVERIFY(m.stats(Strategy::Debounce).alarm);

    // Hits bring it back; the rate stays under the floor all the way to 14 of 40, which is
    // exactly the floor and not below it.
    attempts(m, Strategy::Debounce, 10, Outcome::Hit); // 10 / 30
    QCOMPARE(alarms.count(), 1);
    QCOMPARE(m.stats(Strategy::Debounce).alarmReason,
             QStringLiteral("Typing prefetch alarm: hit rate 33.3 % is below 35 % after 30 attempts."));
    attempts(m, Strategy::Debounce, 6, Outcome::Miss);
    attempts(m, Strategy::Debounce, 3, Outcome::Hit); // 13 / 39
    QCOMPARE(alarms.count(), 1);
    attempts(m, Strategy::Debounce, 1, Outcome::Hit); // 14 / 40 = 35 %
    QCOMPARE(alarms.count(), 2);
    QCOMPARE(alarms.at(1).at(1).toBool(), false);
    QCOMPARE(alarms.at(1).at(2).toString(), QStringLiteral("Typing prefetch: hit rate 35 % is back at or above 35 %."));
    QVERIFY(!m.stats(Strategy::Debounce).alarm);
    QVERIFY(m.stats(Strategy::Debounce).alarmReason.isEmpty());

    // An attempt without an outcome yet lowers the rate: 14 / 41 -> on again.
    m.recordAttempt(Strategy::Debounce);
    QCOMPARE(alarms.count(), 3);
    QCOMPARE(alarms.at(2).at(1).toBool(), true);

    // Other strategies are independent; Strategy::None never alarms.
    attempts(m, Strategy::None, 30, Outcome::Miss);
    QCOMPARE(alarms.count(), 3);
    QVERIFY(!m.stats(Strategy::Hover).alarm);
}

void tst_Metrics::degradeWithHysteresis()
{
    Metrics m(quickSettings()); // ceiling 50 %, resume 40 %, after 20 attempts
    QSignalSpy degraded(&m, &Metrics::degradedChanged);

    attempts(m, Strategy::Hover, 20, Outcome::Hit);
    m.recordTokens(Strategy::Hover, 1000, 1000, 500); // exactly 50 %: not above
    QCOMPARE(degraded.count(), 0);
    QVERIFY(!m.isDegraded(Strategy::Hover));

    m.recordTokens(Strategy::Hover, 120, 0, 120); // 620 / 1000
    QCOMPARE(degraded.count(), 1);
    QCOMPARE(degraded.at(0).at(0).value<Strategy>(), Strategy::Hover);
    QCOMPARE(degraded.at(0).at(1).toBool(), true);
    const QString reason = QStringLiteral(
        "Hover prefetch paused: extra cost 62 % is above 50 %; it resumes below 40 %.");
    QCOMPARE(degraded.at(0).at(2).toString(), reason);
    QVERIFY(m.isDegraded(Strategy::Hover));
    QCOMPARE(m.stats(Strategy::Hover).degradedReason, reason);

    // Between resume and ceiling: stays paused (hysteresis), the reason follows the numbers.
    m.recordTokens(Strategy::Hover, 300, 300, 0); // 620 / 1300 = 47.7 %
    QCOMPARE(degraded.count(), 1);
    QVERIFY(m.isDegraded(Strategy::Hover));
    QCOMPARE(m.stats(Strategy::Hover).degradedReason,
             QStringLiteral("Hover prefetch paused: extra cost 47.7 % is above 50 %; it resumes below 40 %."));
    m.recordTokens(Strategy::Hover, 250, 250, 0); // 620 / 1550 = 40 %: not below
    QCOMPARE(degraded.count(), 1);

    m.recordTokens(Strategy::Hover, 150, 150, 0); // 620 / 1700 = 36.5 %
    QCOMPARE(degraded.count(), 2);
    QCOMPARE(degraded.at(1).at(1).toBool(), false);
    QCOMPARE(degraded.at(1).at(2).toString(),
             QStringLiteral("Hover prefetch resumed: extra cost 36.5 % is below 40 %."));
    QVERIFY(!m.isDegraded(Strategy::Hover));
    QVERIFY(m.stats(Strategy::Hover).degradedReason.isEmpty());

    // Waste with nothing used at all (after enough attempts) pauses with its own sentence.
    attempts(m, Strategy::Workflow, 20, Outcome::Miss);
    m.recordTokens(Strategy::Workflow, 3000, 0, 3000);
    QCOMPARE(degraded.count(), 3);
    QCOMPARE(degraded.at(2).at(2).toString(),
             QStringLiteral("Workflow prefetch paused: 3,000 tokens were wasted and none used yet; it resumes when "
                            "extra cost is below 40 %."));
}

void tst_Metrics::degradeNeedsEnoughAttempts()
{
    // One early wasted hover (or three) must not pause the strategy.
    Metrics m(quickSettings());
    QSignalSpy degraded(&m, &Metrics::degradedChanged);
    for (int i = 0; i < 19; ++i) {
        m.recordAttempt(Strategy::Hover);
        m.recordOutcome(Strategy::Hover, Outcome::Cancelled);
        m.recordTokens(Strategy::Hover, 40, 0, 40);
    }
    QCOMPARE(degraded.count(), 0);
    QVERIFY(!m.isDegraded(Strategy::Hover));
    m.recordAttempt(Strategy::Hover); // the 20th: now the numbers count
    QCOMPARE(degraded.count(), 1);
    QVERIFY(m.isDegraded(Strategy::Hover));
}

void tst_Metrics::settingsReevaluate()
{
    Metrics m(quickSettings());
    QSignalSpy degraded(&m, &Metrics::degradedChanged);
    QSignalSpy alarms(&m, &Metrics::alarmChanged);
    attempts(m, Strategy::Hover, 10, Outcome::Hit);
    attempts(m, Strategy::Hover, 10, Outcome::Miss);
    m.recordTokens(Strategy::Hover, 1600, 1000, 600);
    QVERIFY(m.isDegraded(Strategy::Hover));
    QCOMPARE(alarms.count(), 0);

    // A higher ceiling and resume level: 60 % is below the new resume level, so it resumes.
    Settings s = quickSettings();
    s.extraCostCeiling = 0.8;
    s.extraCostResume = 0.7;
    s.hitRateFloor = 0.6; // and 50 % is now under the floor
    m.setSettings(s);
    QVERIFY(!m.isDegraded(Strategy::Hover));
    QCOMPARE(degraded.count(), 2);
    QCOMPARE(alarms.count(), 1);
    QVERIFY(m.stats(Strategy::Hover).alarm);

    // A resume level above the ceiling is taken as the ceiling: no flapping on repeated records.
    s.extraCostCeiling = 0.5;
    s.extraCostResume = 0.9;
    m.setSettings(s);
    QVERIFY(m.isDegraded(Strategy::Hover));
    for (int i = 0; i < 5; ++i)
        m.recordTokens(Strategy::Hover, 0, 0, 0);
    QCOMPARE(degraded.count(), 3);
    QVERIFY(m.isDegraded(Strategy::Hover));

    // Raising the minimum above the attempts clears both, with an empty reason.
    s.minAttemptsForAlarm = 100;
    m.setSettings(s);
    QVERIFY(!m.isDegraded(Strategy::Hover));
    QVERIFY(!m.stats(Strategy::Hover).alarm);
    QCOMPARE(degraded.last().at(2).toString(), QString());
    QCOMPARE(alarms.last().at(2).toString(), QString());
}

void tst_Metrics::resetClearsAndReportsOff()
{
    Metrics m(quickSettings());
    attempts(m, Strategy::Hover, 20, Outcome::Miss);
    m.recordTokens(Strategy::Hover, 900, 100, 800);
    attempts(m, Strategy::Debounce, 20, Outcome::Miss);
    m.recordPerceivedLatency(Strategy::Hover, LatencyKind::Miss, 900);
    QVERIFY(m.isDegraded(Strategy::Hover));
    QVERIFY(m.stats(Strategy::Debounce).alarm);

    QSignalSpy degraded(&m, &Metrics::degradedChanged);
    QSignalSpy alarms(&m, &Metrics::alarmChanged);
    m.resetStrategy(Strategy::Hover);
    QCOMPARE(degraded.count(), 1);
    QCOMPARE(degraded.at(0).at(1).toBool(), false);
    QCOMPARE(alarms.count(), 1); // Hover's alarm
    QCOMPARE(m.stats(Strategy::Hover).attempts, 0);
    QCOMPARE(m.perceived(Strategy::Hover, LatencyKind::Miss).count, 0);
    QVERIFY(m.stats(Strategy::Debounce).alarm); // untouched

    m.reset();
    QCOMPARE(alarms.count(), 2);
    QVERIFY(!m.stats(Strategy::Debounce).alarm);
    QCOMPARE(m.stats(Strategy::Debounce).attempts, 0);
    QCOMPARE(m.recentPerceived(10), QList<double>{});
}

void tst_Metrics::changedIsCoalesced()
{
    Metrics m(quickSettings());
    QSignalSpy changed(&m, &Metrics::changed);
    // A streaming burst: 1000 records without returning to the event loop.
    for (int i = 0; i < 1000; ++i) {
        m.recordTokens(Strategy::Hover, 1, 0, 0);
        m.recordTtft(Strategy::Hover, i);
    }
    QCOMPARE(changed.count(), 0); // never synchronously
    QVERIFY(changed.wait(5000));
    QCOMPARE(changed.count(), 1);
    QVERIFY(!changed.wait(100)); // nothing more without new changes
    QCOMPARE(changed.count(), 1);
}

void tst_Metrics::changedFollowsTheLastChange()
{
    // Records spread over time (one per event-loop turn, driven by a zero timer) give at most
    // one signal per interval, and the last record is followed by one.
    Settings s = quickSettings();
    s.metricsSignalInterval = 30ms;
    Metrics m(s);
    QSignalSpy changed(&m, &Metrics::changed);
    QElapsedTimer elapsed;
    elapsed.start();
    int records = 0;
    int afterLastSignal = 0;
    QTimer driver;
    driver.setInterval(0);
    connect(&driver, &QTimer::timeout, this, [&] {
        m.recordPerceivedLatency(Strategy::Hover, LatencyKind::Hit, 1.0);
        ++records;
        if (elapsed.elapsed() >= 200)
            driver.stop();
    });
    connect(&m, &Metrics::changed, this, [&] { afterLastSignal = records; });
    driver.start();
    QTRY_VERIFY_WITH_TIMEOUT(!driver.isActive(), 5000);
    const qint64 span = elapsed.elapsed();
    QTRY_COMPARE_WITH_TIMEOUT(afterLastSignal, records, 5000);
    QVERIFY(records > 10);
    // At most one per 30 ms over the span, plus the trailing one.
    QVERIFY2(changed.count() <= span / 30 + 2,
             qPrintable(QStringLiteral("%1 signals in %2 ms").arg(changed.count()).arg(span)));
    QVERIFY(changed.count() >= 2);
}

void tst_Metrics::acknowledgementLine()
{
    Metrics m;
    // One shown (its line, then the answer 5 s later), one late, one refused.
    m.recordAcknowledgementShown(400);
    m.recordAcknowledgement(Metrics::SideEnd::Truncated, 60, 20, 0.001);
    m.recordAcknowledgementLead(5000);
    m.recordAcknowledgement(Metrics::SideEnd::Fallback, 60, 5, 0.0005);
    m.recordAcknowledgement(Metrics::SideEnd::Refused);
    m.recordAcknowledgementShown(std::numeric_limits<double>::quiet_NaN()); // ignored
    const AcknowledgementStats a = m.acknowledgement();
    QCOMPARE(a.requests, 2);
    QCOMPARE(a.refused, 1);
    QCOMPARE(a.shown, 1);
    QCOMPARE(a.late, 1);
    QCOMPARE(a.inputTokens, 120);
    QCOMPARE(a.outputTokens, 25);
    QVERIFY(qFuzzyCompare(a.cost, 0.0015));
    const QJsonObject json = m.snapshot().value("acknowledgement").toObject();
    QCOMPARE(json.value("shownMsMean").toDouble(), 400.0);
    QCOMPARE(json.value("leadMsMean").toDouble(), 5000.0);
    QCOMPARE(json.value("late").toInteger(), 1);
    // Apart from the classifier's line, and reset with everything else.
    QCOMPARE(m.classifier().requests, 0);
    m.reset();
    QCOMPARE(m.acknowledgement().requests, 0);
    QCOMPARE(m.acknowledgement().shownMsTotal, 0.0);
}

void tst_Metrics::snapshotKeys()
{
    Metrics m(quickSettings());
    m.recordAttempt(Strategy::Hover);
    m.recordOutcome(Strategy::Hover, Outcome::Hit);
    m.recordTokens(Strategy::Hover, 200, 180, 20);
    m.recordPerceivedLatency(Strategy::Hover, LatencyKind::Hit, 120);
    m.recordPerceivedLatency(Strategy::None, LatencyKind::NoPrefetch, 850);
    m.recordTtft(Strategy::Hover, 700);
    const QJsonObject snap = m.snapshot();

    QCOMPARE(snap.keys(), (QStringList{"acknowledgement", "answersAll", "classifier", "latencyWindow", "perceivedAll",
                                       "recentPerceived", "routing", "strategies"}));
    QCOMPARE(snap.value("answersAll").toObject().value("noPrefetch").toInteger(), 1);
    QCOMPARE(snap.value("answersAll").toObject().value("hit").toInteger(), 1);
    const QJsonObject strategies = snap.value("strategies").toObject();
    QCOMPARE(strategies.keys(), (QStringList{"debounce", "habits", "hover", "keyboard", "none", "reading", "selection",
                                             "trajectory", "warmup", "workflow"}));
    const QJsonObject hover = strategies.value("hover").toObject();
    QStringList expected{"attempts",
                         "hits",
                         "partialHits",
                         "misses",
                         "cancelled",
                         "expired",
                         "failed",
                         "preempted",
                         "rejectedBudget",
                         "rejectedLane",
                         "tokensPrefetched",
                         "tokensUsed",
                         "tokensWasted",
                         "cacheReadTokens",
                         "cacheWriteTokens",
                         "costPrefetched",
                         "costUsed",
                         "costWasted",
                         "timeSavedMs",
                         "hitRate",
                         "extraCost",
                         "extraCostTokens",
                         "extraCostMoney",
                         "extraCostUnbounded",
                         "alarm",
                         "alarmReason",
                         "degraded",
                         "degradedReason",
                         "tooFewAttempts",
                         "tooFewAttemptsReason",
                         "answers",
                         "perceived",
                         "ttft"};
    expected.sort();
    QCOMPARE(hover.keys(), expected);
    QCOMPARE(hover.value("attempts").toInteger(), 1);
    QCOMPARE(hover.value("hitRate").toDouble(), 1.0);
    QCOMPARE(hover.value("extraCost").toDouble(), 20.0 / 180.0);
    QCOMPARE(hover.value("perceived").toObject().keys(), (QStringList{"hit", "miss", "noPrefetch"}));
    const QJsonObject hit = hover.value("perceived").toObject().value("hit").toObject();
    QCOMPARE(hit.keys(), (QStringList{"count", "p50", "p95"}));
    QCOMPARE(hit.value("count").toInteger(), 1);
    QCOMPARE(hit.value("p50").toDouble(), 120.0);
    QCOMPARE(hover.value("ttft").toObject().value("p95").toDouble(), 700.0);
    QCOMPARE(hover.value("perceived").toObject().value("miss").toObject().value("p50").toDouble(), -1.0);
    QCOMPARE(snap.value("perceivedAll").toObject().value("noPrefetch").toObject().value("p50").toDouble(), 850.0);
    QCOMPARE(snap.value("recentPerceived").toArray().size(), 2);
    QCOMPARE(snap.value("latencyWindow").toInteger(), 200);
}

void tst_Metrics::moneyDecidesExtraCostWhereThereArePrices()
{
    Metrics m(quickSettings());
    // A guess on a warm document: many prompt tokens, read from the cache at a tenth of the price.
    m.recordTokens(Strategy::Selection, 5000, 0, 5000);
    m.recordTokens(Strategy::Selection, 0, 10000, 0);
    QCOMPARE(m.stats(Strategy::Selection).extraCost(), 0.5); // tokens while nothing is priced
    QVERIFY(!m.stats(Strategy::Selection).isPriced());
    m.recordCost(Strategy::Selection, 0.0005, 0, 0.0005);
    m.recordCost(Strategy::Selection, 0, 0.01, 0);
    const StrategyStats st = m.stats(Strategy::Selection);
    QVERIFY(st.isPriced());
    QCOMPARE(st.extraCostTokens(), 0.5);
    QCOMPARE(st.extraCostMoney(), 0.05);
    QCOMPARE(st.extraCost(), 0.05); // what the provider bills decides
    QVERIFY(!st.extraCostUnbounded());
    // Priced waste with nothing used yet has no finite ratio either.
    m.recordCost(Strategy::Keyboard, 0.001, 0, 0.001);
    QVERIFY(m.stats(Strategy::Keyboard).extraCostUnbounded());
    QVERIFY(std::isfinite(m.stats(Strategy::Keyboard).extraCost()));
    const QJsonObject selection = m.snapshot().value("strategies").toObject().value("selection").toObject();
    QCOMPARE(selection.value("costWasted").toDouble(), 0.0005);
    QCOMPARE(selection.value("extraCostMoney").toDouble(), 0.05);
}

void tst_Metrics::answersAreCountedOncePerSeries()
{
    Metrics m(quickSettings());
    m.recordPerceivedLatency(Strategy::Hover, LatencyKind::NoPrefetch, 700);
    m.recordPerceivedLatency(Strategy::Hover, LatencyKind::Hit, 5);
    m.recordPerceivedLatency(Strategy::Hover, LatencyKind::Miss, 650);
    m.recordPerceivedLatency(Strategy::None, LatencyKind::NoPrefetch, 720);
    m.recordPerceivedLatency(Strategy::Workflow, LatencyKind::NoPrefetch, 740);
    QCOMPARE(m.stats(Strategy::Hover).answersNoPrefetch, 1);
    QCOMPARE(m.stats(Strategy::Hover).answersHit, 1);
    QCOMPARE(m.stats(Strategy::Hover).answersMiss, 1);
    QCOMPARE(m.answersAll(LatencyKind::NoPrefetch), 3);
    QCOMPARE(m.answersAll(LatencyKind::Hit), 1);
    // Hover's own answers with a prefetch: its hit and its miss, not the one without.
    const Percentiles prefetched = m.perceivedPrefetched(Strategy::Hover);
    QCOMPARE(prefetched.count, 2);
    QCOMPARE(prefetched.p95, 650.0);
    QCOMPARE(m.perceivedAll(LatencyKind::NoPrefetch).count, 3);
    // Counts are not windowed: more answers than the window holds are all counted.
    Settings small = quickSettings();
    small.latencyWindow = 2;
    m.setSettings(small);
    for (int i = 0; i < 5; ++i)
        m.recordPerceivedLatency(Strategy::None, LatencyKind::NoPrefetch, 800);
    QCOMPARE(m.answersAll(LatencyKind::NoPrefetch), 8);
    QCOMPARE(m.perceivedAll(LatencyKind::NoPrefetch).count, 2 + 1 + 1); // None's window, Hover's, Workflow's
    // The chart's series carry their kind and time, oldest first.
    const QList<LatencySample> recent = m.recentSamples(10);
    QCOMPARE(recent.size(), 2);
    QCOMPARE(recent.constLast().kind, LatencyKind::NoPrefetch);
    QVERIFY(recent.constFirst().atNs <= recent.constLast().atNs);
    m.reset();
    QCOMPARE(m.answersAll(LatencyKind::NoPrefetch), 0);
    QVERIFY(m.recentSamples(10).isEmpty());
}

void tst_Metrics::tooFewAttemptsSaysWhy()
{
    Settings settings = quickSettings();
    settings.minAttemptsForAlarm = 10;
    Metrics m(settings);
    QSignalSpy alarms(&m, &Metrics::alarmChanged);
    QVERIFY(!m.stats(Strategy::Hover).tooFewAttempts); // no attempts: nothing to say
    attempts(m, Strategy::Hover, 2, Outcome::Miss);
    StrategyStats st = m.stats(Strategy::Hover);
    QVERIFY(st.tooFewAttempts);
    QVERIFY(!st.alarm);
    QCOMPARE(st.tooFewAttemptsReason,
             QStringLiteral(
                 "Hover prefetch: hit rate 0 % is below 35 %, but the alarm waits for 10 attempts (2 so far)."));
    // Past the extra-cost ceiling as well: both lines are named.
    m.recordTokens(Strategy::Hover, 100, 0, 100);
    st = m.stats(Strategy::Hover);
    QVERIFY(!st.degraded);
    QVERIFY2(st.tooFewAttemptsReason.contains(QLatin1String("but the pause waits for 10 attempts (2 so far)")),
             qPrintable(st.tooFewAttemptsReason));
    // Good numbers below the minimum say nothing either.
    attempts(m, Strategy::Workflow, 3, Outcome::Hit);
    QVERIFY(!m.stats(Strategy::Workflow).tooFewAttempts);
    // At the minimum it is an alarm (and a pause), no longer an early warning.
    attempts(m, Strategy::Hover, 8, Outcome::Miss);
    st = m.stats(Strategy::Hover);
    QVERIFY(st.alarm);
    QVERIFY(!st.tooFewAttempts);
    QVERIFY(st.tooFewAttemptsReason.isEmpty());
    QCOMPARE(alarms.count(), 1);
    // The baseline has no alarms, so nothing to explain.
    m.recordAttempt(Strategy::None);
    QVERIFY(!m.stats(Strategy::None).tooFewAttempts);
}

QTEST_GUILESS_MAIN(tst_Metrics)
#include "tst_metrics.moc"
