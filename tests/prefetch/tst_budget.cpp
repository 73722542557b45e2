// The hourly prefetch token budget: reserve before, reconcile after, refuse past the limit, and a
// window that slides with an injected clock while memory stays bounded.
#include "prefetch/budget.h"

#include <QTest>

using namespace Prefetch;

namespace {
constexpr qint64 Minute = 60 * 1000;
constexpr qint64 Hour = 60 * Minute;
} // namespace

class tst_Budget : public QObject
{
    Q_OBJECT

private slots:
    void reservesUpToTheLimit_data();
    void reservesUpToTheLimit();
    void reconcileUpAndDown();
    void cancelledReservationCostsWhatItUsed();
    void unknownIdsAreIgnored();
    void windowSlides();
    void bucketsNeverDropEarly();
    void unlimited();
    void negativeNumbersCountAsZero();
    void leakedReservationsExpire();
    void memoryStaysBounded();
    void defaultClockRuns();

private:
    qint64 m_now = 0;
    TokenBudget::Clock clock()
    {
        return [this] { return m_now; };
    }
};

void tst_Budget::reservesUpToTheLimit_data()
{
    QTest::addColumn<qint64>("first");
    QTest::addColumn<qint64>("second");
    QTest::addColumn<bool>("secondFits");

    QTest::addRow("exactly at the limit") << qint64(600) << qint64(400) << true;
    QTest::addRow("one past the limit") << qint64(600) << qint64(401) << false;
    QTest::addRow("zero estimate when full") << qint64(1000) << qint64(0) << true;
    QTest::addRow("larger than the limit alone") << qint64(0) << qint64(1001) << false;
}

void tst_Budget::reservesUpToTheLimit()
{
    QFETCH(qint64, first);
    QFETCH(qint64, second);
    QFETCH(bool, secondFits);

    TokenBudget budget(1000, clock());
    QVERIFY(budget.reserve(first));
    const std::optional<quint64> id = budget.reserve(second);
    QCOMPARE(id.has_value(), secondFits);
    const qint64 expectedUsed = first + (secondFits ? second : 0);
    QCOMPARE(budget.used(), expectedUsed);
    QCOMPARE(budget.outstanding(), expectedUsed);
    QCOMPARE(budget.remaining(), 1000 - expectedUsed);
}

void tst_Budget::reconcileUpAndDown()
{
    TokenBudget budget(1000, clock());
    const auto a = budget.reserve(500);
    const auto b = budget.reserve(300);
    QVERIFY(a && b);
    QVERIFY(*a != *b);
    QVERIFY(!budget.reserve(300)); // 800 + 300 > 1000

    budget.reconcile(*a, 100); // down: frees 400
    QCOMPARE(budget.used(), 400);
    QCOMPARE(budget.outstanding(), 300);
    QVERIFY(budget.reserve(300));
    QCOMPARE(budget.used(), 700);

    budget.reconcile(*b, 800); // up: more than estimated, past the limit
    QCOMPARE(budget.used(), 1200);
    QCOMPARE(budget.outstanding(), 300);
    QCOMPARE(budget.remaining(), 0); // an overdraft is not "unlimited"
    QVERIFY(!budget.reserve(0));     // already past: even an estimate of nothing is refused

    budget.reconcile(*a, 999); // already reconciled: ignored
    QCOMPARE(budget.used(), 1200);
}

void tst_Budget::cancelledReservationCostsWhatItUsed()
{
    // A hover prefetch estimated at prompt 1200 + 400 output tokens is cancelled after 35 tokens
    // arrived: it costs its input plus what was received, not the estimate and not nothing.
    TokenBudget budget(10'000, clock());
    const auto id = budget.reserve(1600);
    QVERIFY(id);
    m_now += 2000;
    budget.reconcile(*id, 1200 + 35);
    QCOMPARE(budget.outstanding(), 0);
    QCOMPARE(budget.openReservations(), 0);
    QCOMPARE(budget.used(), 1235);
    QCOMPARE(budget.remaining(), 10'000 - 1235);
}

void tst_Budget::unknownIdsAreIgnored()
{
    TokenBudget budget(1000, clock());
    budget.reconcile(42, 500);
    budget.reconcile(0, 500);
    QCOMPARE(budget.used(), 0);
    QCOMPARE(budget.entryCount(), 0);
}

void tst_Budget::windowSlides()
{
    m_now = 5 * Hour; // an arbitrary monotonic origin
    TokenBudget budget(1000, clock());

    const auto a = budget.reserve(600);
    QVERIFY(a);
    m_now += 30 * Minute;
    budget.reconcile(*a, 600); // keeps its reservation time: t0
    const auto b = budget.reserve(400);
    QVERIFY(b);
    budget.reconcile(*b, 400); // t0 + 30 min
    QCOMPARE(budget.used(), 1000);
    QVERIFY(!budget.reserve(1));

    m_now = 5 * Hour + Hour - 1; // the first charge is 1 ms short of an hour old
    QCOMPARE(budget.used(), 1000);
    m_now = 5 * Hour + Hour; // now it has left the window
    QCOMPARE(budget.used(), 400);
    QCOMPARE(budget.remaining(), 600);
    QVERIFY(budget.reserve(600));
    QVERIFY(!budget.reserve(1));

    m_now += 30 * Minute; // the second charge leaves; the open reservation (now 30 min old) stays
    QCOMPARE(budget.used(), 600);
    QCOMPARE(budget.outstanding(), 600);
}

void tst_Budget::bucketsNeverDropEarly()
{
    // Charges share 10 s buckets; a bucket leaves with its newest charge, so a charge may stay up
    // to 10 s longer than an hour but never leaves before its hour is up.
    TokenBudget budget(0, clock());
    m_now = 0;
    const auto a = budget.reserve(10);
    m_now = 9000;
    const auto b = budget.reserve(20);
    QVERIFY(a && b);
    budget.reconcile(*a, 10);
    budget.reconcile(*b, 20);
    QCOMPARE(budget.entryCount(), 1); // one bucket

    m_now = Hour + 8999;
    QCOMPARE(budget.used(), 30);
    m_now = Hour + 9000;
    QCOMPARE(budget.used(), 0);
    QCOMPARE(budget.entryCount(), 0);
}

void tst_Budget::unlimited()
{
    TokenBudget budget(0, clock());
    QCOMPARE(budget.limit(), 0);
    QCOMPARE(budget.remaining(), -1);
    for (int i = 0; i < 100; ++i)
        QVERIFY(budget.reserve(1'000'000));
    QCOMPARE(budget.used(), 100'000'000);
    QCOMPARE(budget.remaining(), -1);

    budget.setLimit(1000); // past charges count against a new limit
    QCOMPARE(budget.remaining(), 0);
    QVERIFY(!budget.reserve(1));
    budget.setLimit(-5);
    QCOMPARE(budget.limit(), 0);
    QVERIFY(budget.reserve(1));
}

void tst_Budget::negativeNumbersCountAsZero()
{
    TokenBudget budget(100, clock());
    const auto id = budget.reserve(-50);
    QVERIFY(id);
    QCOMPARE(budget.used(), 0);
    budget.reconcile(*id, -10);
    QCOMPARE(budget.used(), 0);
    QCOMPARE(budget.entryCount(), 0);
}

void tst_Budget::leakedReservationsExpire()
{
    TokenBudget budget(1000, clock());
    const auto id = budget.reserve(900);
    QVERIFY(id);
    m_now += Hour;
    QCOMPARE(budget.outstanding(), 0);
    QCOMPARE(budget.used(), 0);
    budget.reconcile(*id, 900); // too late: ignored
    QCOMPARE(budget.used(), 0);
    QVERIFY(budget.reserve(1000));
}

void tst_Budget::memoryStaysBounded()
{
    // 100 000 prefetches over about six simulated hours, every one reconciled, one in ten
    // cancelled cheaply; the budget keeps at most an hour of 10 s buckets plus what is open.
    TokenBudget budget(0, clock());
    qsizetype most = 0;
    for (int i = 0; i < 100'000; ++i) {
        m_now += 217; // ms
        const auto id = budget.reserve(500);
        QVERIFY(id);
        budget.reconcile(*id, i % 10 == 0 ? 60 : 480);
        most = std::max(most, budget.entryCount());
    }
    QVERIFY2(most <= TokenBudget::WindowMs / TokenBudget::BucketMs + 2, QByteArray::number(most).constData());
    QCOMPARE(budget.openReservations(), 0);
    // What remains is exactly the last hour of charges (the bucket boundary rounds up by < 10 s).
    const qint64 perPrefetch = (9 * 480 + 60) / 10;
    const qint64 inLastHour = Hour / 217;
    QVERIFY2(qAbs(budget.used() - inLastHour * perPrefetch) < inLastHour * perPrefetch / 100,
             QByteArray::number(budget.used()).constData());

    // Open reservations are capped too.
    TokenBudget leaky(0, clock());
    for (qsizetype i = 0; i < TokenBudget::MaxOpenReservations; ++i)
        QVERIFY(leaky.reserve(1));
    QVERIFY(!leaky.reserve(1));
    QCOMPARE(leaky.entryCount(), TokenBudget::MaxOpenReservations);
}

void tst_Budget::defaultClockRuns()
{
    TokenBudget budget; // steady clock, 200 000 tokens
    QCOMPARE(budget.limit(), 200'000);
    const auto id = budget.reserve(150'000);
    QVERIFY(id);
    QVERIFY(!budget.reserve(60'000));
    budget.reconcile(*id, 1000);
    QCOMPARE(budget.used(), 1000);
    QCOMPARE(budget.remaining(), 199'000);
}

QTEST_GUILESS_MAIN(tst_Budget)
#include "tst_budget.moc"
