// The live metrics dock and its latency chart, fed known samples and outcomes through the
// engine's Metrics (the engine's provider is never contacted): the labels and the table show
// those numbers in the current locale, alarms and pauses show their reasons (the etiquette's
// pause too: a line and each strategy's state), Reset clears,
// the chart paints with 0, 1 and 500 samples, and a burst of records costs only a few refreshes.
// Extra cost shows in tokens, and in money where the provider has prices ("–" where it has none).
// Over 600 lines: 25 scenarios, each a test function readable on its own; what they share is
// at the top or in tests/support.
#include "support/localproviderfixture.h"

#include "gui/metrics/latencychart.h"
#include "gui/metrics/metricsdock.h"
#include "gui/widgets/tooltipwrapper.h"
#include "prefetch/engine.h"
#include "prefetch/metrics.h"
#include "prefetch/prefetchsession.h"
#include "prefetch/stream/answerreader.h"
#include "workspace/settings/money.h"

#include "llm/clock.h"

#include <QAction>
#include <QApplication>
#include <QElapsedTimer>
#include <QHeaderView>
#include <QHelpEvent>
#include <QScopeGuard>
#include <QLabel>
#include <QMainWindow>
#include <QNetworkAccessManager>
#include <QProgressBar>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTableWidget>
#include <QTest>

#include <cmath>
#include <memory>

using namespace Prefetch;
using Gui::LatencyChart;
using Gui::MetricsDock;

class tst_MetricsDock : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void init();
    void cleanup();

    void summaryShowsPerceivedPercentiles();
    void tableShowsEachStrategy();
    void numbersFollowTheLocale();
    void alarmAndPauseShowTheirReason();
    void switchedOffStrategyShowsOff();
    void etiquettePauseShowsItsReason();
    void liveSessionsAndBudget();
    void classifierHasItsOwnLineOnceItAsked();
    void extraCostInMoneyWhereThereArePrices();
    void noMoneyForAFreeProvider();
    void moneyBudgetShowsWhereItApplies();
    void everyStrategyHasARow();
    void resetClearsEverything();
    void chartPaints_data();
    void chartPaints();
    void chartFollowsTheFont();
    void burstOfRecordsRefreshesOnlyAFewTimes();
    void hiddenDockCatchesUpWhenShown();
    void noPrefetchRowShowsTheAnswersThatHadNone();
    void tooFewAttemptsSaysWhyStillActive();
    void chartHasATimeAxisAndALegend();
    void dockChartShowsLoopbackAnswersBySeries();
    void aLongColumnTooltipWrapsOnTheScreen();

private:
    void makeDock(const Settings &settings = {}, const QString &providerId = QStringLiteral("local"));
    // The dock on an engine that talks to the local provider on loopback.
    void makeLoopbackDock(const Settings &settings = {});
    void showDock(std::unique_ptr<Engine> engine);
    // Asks through the engine, as an activation point would, and waits for the answer to end.
    bool answer(Strategy origin, const Llm::ChatRequest &request);
    Llm::ChatRequest chatRequest(int n) const;
    bool waitForRefresh();
    static bool imageHas(const QImage &image, const QColor &color);
    QString cell(Strategy s, int column) const;

    TestSupport::LocalProviderFixture m_local; // before the network manager and engines that use it
    QNetworkAccessManager m_network;
    std::unique_ptr<Engine> m_engine;
    std::unique_ptr<QMainWindow> m_window; // the dock lives in a main window, as in the app
    MetricsDock *m_dock = nullptr;
};

void tst_MetricsDock::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);
    QVERIFY2(m_local.start(), qPrintable(m_local.errorString()));
}

void tst_MetricsDock::init()
{
    QLocale::setDefault(QLocale(QLocale::English, QLocale::UnitedStates));
    makeDock();
}

void tst_MetricsDock::cleanup()
{
    m_window.reset();
    m_dock = nullptr;
    m_engine.reset();
    QLocale::setDefault(QLocale(QLocale::English, QLocale::UnitedStates));
}

void tst_MetricsDock::makeDock(const Settings &settings, const QString &providerId)
{
    cleanup();
    // A port nothing listens on: these tests must not need a provider.
    Llm::ProviderProfile profile = Llm::builtinProfile(providerId);
    profile.baseUrl = QUrl(QStringLiteral("http://127.0.0.1:9/v1"));
    showDock(std::make_unique<Engine>(&m_network, profile, settings));
}

void tst_MetricsDock::makeLoopbackDock(const Settings &settings)
{
    cleanup();
    showDock(m_local.makeEngine(&m_network, {}, settings));
}

void tst_MetricsDock::showDock(std::unique_ptr<Engine> engine)
{
    m_engine = std::move(engine);
    m_window = std::make_unique<QMainWindow>();
    m_window->setCentralWidget(new QWidget);
    m_dock = new MetricsDock(m_engine.get(), m_window.get());
    m_window->addDockWidget(Qt::RightDockWidgetArea, m_dock);
    m_window->resize(1200, 800);
    m_window->show();
    QVERIFY(QTest::qWaitForWindowExposed(m_window.get()));
}

Llm::ChatRequest tst_MetricsDock::chatRequest(int n) const
{
    Llm::ChatRequest r;
    r.model = m_local.profile().model;
    r.messages.append({Llm::Role::User, QStringLiteral("Question %1: what does the dock count?").arg(n)});
    r.maxTokens = 20;
    return r;
}

bool tst_MetricsDock::answer(Strategy origin, const Llm::ChatRequest &request)
{
    AnswerReader *stream = m_engine->request(origin, m_engine->render(request), Llm::monotonicNowNs(), this);
    QSignalSpy shown(stream, &AnswerReader::firstContentShown);
    QSignalSpy finished(stream, &AnswerReader::finished);
    const bool ok = finished.wait(10000) && shown.count() == 1;
    stream->deleteLater();
    return ok;
}

bool tst_MetricsDock::imageHas(const QImage &image, const QColor &color)
{
    for (int y = 0; y < image.height(); ++y) {
        for (int x = 0; x < image.width(); ++x) {
            if ((image.pixel(x, y) & 0xffffff) == (color.rgb() & 0xffffff))
                return true;
        }
    }
    return false;
}

bool tst_MetricsDock::waitForRefresh()
{
    QSignalSpy refreshed(m_dock, &MetricsDock::refreshed);
    return refreshed.wait(2000);
}

QString tst_MetricsDock::cell(Strategy s, int column) const
{
    return m_dock->table()->item(MetricsDock::rowOf(s), column)->text();
}

void tst_MetricsDock::summaryShowsPerceivedPercentiles()
{
    Metrics &m = m_engine->metrics();
    m.recordPerceivedLatency(Strategy::Workflow, LatencyKind::Hit, 12);
    m.recordPerceivedLatency(Strategy::Hover, LatencyKind::Hit, 14);
    m.recordPerceivedLatency(Strategy::Hover, LatencyKind::Miss, 830);
    m.recordPerceivedLatency(Strategy::None, LatencyKind::NoPrefetch, 800);
    m.recordPerceivedLatency(Strategy::None, LatencyKind::NoPrefetch, 810);
    m.recordPerceivedLatency(Strategy::None, LatencyKind::NoPrefetch, 1250);
    QVERIFY(waitForRefresh());
    // Nearest rank: p50 of {12, 14} is 12, of {800, 810, 1250} 810; p95 the largest.
    QCOMPARE(m_dock->perceivedP50Label()->text(),
             QStringLiteral("Perceived p50: hit 12 ms · miss 830 ms · none 810 ms"));
    QCOMPARE(m_dock->perceivedP95Label()->text(),
             QStringLiteral("Perceived p95: hit 14 ms · miss 830 ms · none 1.25 s"));
    QCOMPARE(m_dock->chart()->latencies(), QList<double>({12, 14, 830, 800, 810, 1250}));
    QCOMPARE(m_dock->chart()->samples().at(2).kind, LatencyKind::Miss);
    QVERIFY(m_dock->chart()->accessibleDescription().contains(QLatin1String("6")));
}

void tst_MetricsDock::tableShowsEachStrategy()
{
    Metrics &m = m_engine->metrics();
    for (int i = 0; i < 10; ++i)
        m.recordAttempt(Strategy::Hover);
    for (int i = 0; i < 6; ++i)
        m.recordOutcome(Strategy::Hover, Outcome::Hit);
    m.recordOutcome(Strategy::Hover, Outcome::PartialHit);
    for (int i = 0; i < 3; ++i)
        m.recordOutcome(Strategy::Hover, Outcome::Miss);
    m.recordTokens(Strategy::Hover, 2000, 1000, 250);
    m.recordCache(Strategy::Hover, 512, 0);
    m.recordCache(Strategy::Warmup, 4096, 128);
    m.recordTtft(Strategy::Hover, 300);
    m.recordTtft(Strategy::Hover, 400);
    m.recordTtft(Strategy::Hover, 500);
    QVERIFY(waitForRefresh());

    QCOMPARE(cell(Strategy::Hover, MetricsDock::StrategyColumn), Metrics::strategyName(Strategy::Hover));
    QCOMPARE(cell(Strategy::Hover, MetricsDock::AttemptsColumn), QStringLiteral("10"));
    QCOMPARE(cell(Strategy::Hover, MetricsDock::HitsColumn), QStringLiteral("6"));
    QCOMPARE(cell(Strategy::Hover, MetricsDock::PartialHitsColumn), QStringLiteral("1"));
    QCOMPARE(cell(Strategy::Hover, MetricsDock::MissesColumn), QStringLiteral("3"));
    QCOMPARE(cell(Strategy::Hover, MetricsDock::HitRateColumn), QStringLiteral("70 %"));
    QCOMPARE(cell(Strategy::Hover, MetricsDock::WastedColumn), QStringLiteral("250"));
    QCOMPARE(cell(Strategy::Hover, MetricsDock::ExtraTokensColumn), QStringLiteral("25 %"));
    QCOMPARE(cell(Strategy::Hover, MetricsDock::ExtraMoneyColumn), QStringLiteral("–")); // no money recorded
    QCOMPARE(cell(Strategy::Hover, MetricsDock::CacheReadColumn), QStringLiteral("512"));
    QCOMPARE(cell(Strategy::Hover, MetricsDock::TtftP50Column), QStringLiteral("400 ms"));
    QCOMPARE(cell(Strategy::Hover, MetricsDock::TtftP95Column), QStringLiteral("500 ms"));
    QCOMPARE(cell(Strategy::Hover, MetricsDock::StateColumn), QStringLiteral("Active"));
    // Nothing recorded yet: dashes, not zeros that look like measurements.
    QCOMPARE(cell(Strategy::Debounce, MetricsDock::HitRateColumn), QStringLiteral("–"));
    QCOMPARE(cell(Strategy::Debounce, MetricsDock::TtftP50Column), QStringLiteral("–"));
    QCOMPARE(cell(Strategy::Debounce, MetricsDock::HitsColumn), QStringLiteral("0"));
    QCOMPARE(cell(Strategy::Debounce, MetricsDock::ExtraTokensColumn), QStringLiteral("–"));
    QCOMPARE(cell(Strategy::None, MetricsDock::StateColumn), QStringLiteral("–"));
    QCOMPARE(cell(Strategy::None, MetricsDock::HitsColumn), QStringLiteral("–"));
    QVERIFY(
        m_dock->cacheLabel()->text().contains(QStringLiteral("%1 read, 128 written").arg(QLocale().toString(4096))));
    const QString tip =
        m_dock->table()->item(MetricsDock::rowOf(Strategy::Hover), MetricsDock::HitRateColumn)->toolTip();
    QVERIFY2(tip.contains(QLatin1String("Hits 6, partial hits 1, misses 3")), qPrintable(tip));
}

void tst_MetricsDock::numbersFollowTheLocale()
{
    QLocale::setDefault(QLocale(QLocale::German, QLocale::Germany));
    Metrics &m = m_engine->metrics();
    for (int i = 0; i < 8; ++i)
        m.recordAttempt(Strategy::Workflow);
    for (int i = 0; i < 5; ++i)
        m.recordOutcome(Strategy::Workflow, Outcome::Hit);
    m.recordTokens(Strategy::Workflow, 0, 4000, 2500); // 62.5 %
    m.recordPerceivedLatency(Strategy::Workflow, LatencyKind::Hit, 1234.0);
    QVERIFY(waitForRefresh());
    QCOMPARE(cell(Strategy::Workflow, MetricsDock::HitRateColumn), QStringLiteral("62,5 %"));
    QCOMPARE(cell(Strategy::Workflow, MetricsDock::ExtraTokensColumn), QStringLiteral("62,5 %"));
    QCOMPARE(cell(Strategy::Workflow, MetricsDock::WastedColumn), QStringLiteral("2.500"));
    QVERIFY2(m_dock->perceivedP50Label()->text().contains(QLatin1String("hit 1,23 s")),
             qPrintable(m_dock->perceivedP50Label()->text()));
    QCOMPARE(MetricsDock::formatPercent(0.625), QLocale().toString(62.5, 'f', 1) + QStringLiteral(" %"));
}

void tst_MetricsDock::alarmAndPauseShowTheirReason()
{
    Metrics &m = m_engine->metrics();
    const int enough = m.settings().minAttemptsForAlarm;
    // Hover: 2 of 20 taken over, under the 35 % floor.
    for (int i = 0; i < enough; ++i)
        m.recordAttempt(Strategy::Hover);
    m.recordOutcome(Strategy::Hover, Outcome::Hit);
    m.recordOutcome(Strategy::Hover, Outcome::Hit);
    // Typing: every one taken over, but 90 % extra cost: paused.
    for (int i = 0; i < enough; ++i) {
        m.recordAttempt(Strategy::Debounce);
        m.recordOutcome(Strategy::Debounce, Outcome::Hit);
    }
    m.recordTokens(Strategy::Debounce, 900, 1000, 900);
    QVERIFY(waitForRefresh());

    const StrategyStats hover = m.stats(Strategy::Hover);
    const StrategyStats typing = m.stats(Strategy::Debounce);
    QVERIFY(hover.alarm);
    QVERIFY(typing.degraded);
    QCOMPARE(cell(Strategy::Hover, MetricsDock::StateColumn), QStringLiteral("Alarm"));
    QCOMPARE(cell(Strategy::Debounce, MetricsDock::StateColumn), QStringLiteral("Paused"));
    const auto rowTip = [this](Strategy s) {
        return m_dock->table()->item(MetricsDock::rowOf(s), MetricsDock::StateColumn)->toolTip();
    };
    QVERIFY(rowTip(Strategy::Hover).startsWith(hover.alarmReason));
    QVERIFY(rowTip(Strategy::Debounce).startsWith(typing.degradedReason));
    // Spelled out, not only in tooltips.
    QVERIFY(m_dock->alarmsLabel()->isVisible());
    QVERIFY(m_dock->alarmsLabel()->text().contains(hover.alarmReason));
    QVERIFY(m_dock->alarmsLabel()->text().contains(typing.degradedReason));
    QVERIFY(m_dock->table()->item(MetricsDock::rowOf(Strategy::Hover), MetricsDock::StateColumn)->foreground()
            != QBrush());
    QCOMPARE(m_dock->table()->item(MetricsDock::rowOf(Strategy::Workflow), MetricsDock::StateColumn)->foreground(),
             QBrush());
}

void tst_MetricsDock::switchedOffStrategyShowsOff()
{
    Settings settings;
    settings.hover.enabled = false;
    m_engine->setSettings(settings);
    QVERIFY(waitForRefresh());
    QCOMPARE(cell(Strategy::Hover, MetricsDock::StateColumn), QStringLiteral("Off"));
    QCOMPARE(cell(Strategy::Workflow, MetricsDock::StateColumn), QStringLiteral("Active"));
}

void tst_MetricsDock::etiquettePauseShowsItsReason()
{
    Settings settings;
    settings.hover.enabled = false;
    m_engine->setSettings(settings);
    QLabel *pause = m_dock->pauseLabel();
    QVERIFY(pause->isHidden());

    m_dock->setPrefetchPause(QStringLiteral("battery saver"));
    QCOMPARE(pause->text(), QStringLiteral("Prefetch paused: battery saver"));
    QVERIFY(pause->isVisible());
    QCOMPARE(cell(Strategy::Workflow, MetricsDock::StateColumn), QStringLiteral("On hold (battery saver)"));
    QCOMPARE(cell(Strategy::Warmup, MetricsDock::StateColumn), QStringLiteral("On hold (battery saver)"));
    QCOMPARE(cell(Strategy::Hover, MetricsDock::StateColumn), QStringLiteral("Off")); // off says more
    QCOMPARE(cell(Strategy::None, MetricsDock::StateColumn), QStringLiteral("–"));

    m_dock->setPrefetchPause({});
    QVERIFY(pause->isHidden());
    QCOMPARE(cell(Strategy::Workflow, MetricsDock::StateColumn), QStringLiteral("Active"));
}

void tst_MetricsDock::classifierHasItsOwnLineOnceItAsked()
{
    makeDock();
    auto *line = m_dock->findChild<QLabel *>(QStringLiteral("classifierLine"));
    QVERIFY(line);
    QVERIFY(line->isHidden()); // never asked: nothing to say
    Metrics &m = m_engine->metrics();
    m.recordClassifier(Metrics::SideEnd::Truncated, 80, 5, 0.000012);
    m.recordClassifier(Metrics::SideEnd::Fallback, 80, 0, 0.000006);
    m.recordClassifier(Metrics::SideEnd::Refused);
    QVERIFY(waitForRefresh());
    QVERIFY(line->isVisible());
    QVERIFY2(line->text().startsWith(QStringLiteral("Draft classifier (fast model): 2 asked, 1 closed early, 2 to the "
                                                    "heuristic · 165 tokens · ")),
             qPrintable(line->text()));
    m.reset();
    QVERIFY(waitForRefresh());
    QVERIFY(line->isHidden());
}

void tst_MetricsDock::liveSessionsAndBudget()
{
    // No prefetch slot: a prefetch waits in the queue and never reaches the (absent) provider.
    Settings settings;
    settings.prefetchInFlight = 0;
    settings.hourlyTokenBudget = 10'000;
    makeDock(settings);
    QCOMPARE(m_dock->sessionsLabel()->text(),
             QStringLiteral("Running now: 0 · asked for by you: 0 · started early: 0, waiting to start: 0"));

    Llm::ChatRequest request;
    request.messages = {{Llm::Role::User, QStringLiteral("What does a warm cache save?")}};
    request.maxTokens = 100;
    PrefetchSession *session = m_engine->prefetch(Strategy::Hover, m_engine->render(request), std::chrono::seconds(30));
    QVERIFY(session);
    QVERIFY(waitForRefresh());
    QCOMPARE(m_dock->sessionsLabel()->text(),
             QStringLiteral("Running now: 1 · asked for by you: 0 · started early: 0, waiting to start: 1"));
    const qint64 used = m_engine->budget().used();
    QVERIFY(used > 0);
    QVERIFY2(m_dock->budgetLabel()->text().startsWith(QStringLiteral("Budget: %1 of %2 tokens this hour")
                                                          .arg(QLocale().toString(used), QLocale().toString(10'000))),
             qPrintable(m_dock->budgetLabel()->text()));
    QVERIFY(m_dock->budgetBar()->isVisible());
    QCOMPARE(m_dock->budgetBar()->value(), int(used * m_dock->budgetBar()->maximum() / 10'000));

    m_engine->cancelAllPrefetches();
    QVERIFY(waitForRefresh());
    QCOMPARE(m_dock->sessionsLabel()->text(),
             QStringLiteral("Running now: 0 · asked for by you: 0 · started early: 0, waiting to start: 0"));

    settings.hourlyTokenBudget = 0;
    m_engine->setSettings(settings);
    QVERIFY(waitForRefresh());
    QVERIFY(m_dock->budgetLabel()->text().endsWith(QLatin1String("no limit")));
    QVERIFY(!m_dock->budgetBar()->isVisible());
}

void tst_MetricsDock::extraCostInMoneyWhereThereArePrices()
{
    // The local demo engine is priced like DeepSeek.
    QVERIFY(!m_engine->profile().prices.isFree());
    Metrics &m = m_engine->metrics();
    for (int i = 0; i < 4; ++i)
        m.recordAttempt(Strategy::Selection);
    m.recordOutcome(Strategy::Selection, Outcome::Hit);
    m.recordOutcome(Strategy::Selection, Outcome::PartialHit);
    m.recordOutcome(Strategy::Selection, Outcome::Miss);
    m.recordOutcome(Strategy::Selection, Outcome::Expired);
    // Misses on a warm document: many tokens, little money (cache reads are cheap).
    m.recordTokens(Strategy::Selection, 3000, 2000, 1000);
    m.recordCost(Strategy::Selection, 0.0042, 0.021, 0.0042);
    // Wasted money, none used yet.
    m.recordAttempt(Strategy::Keyboard);
    m.recordTokens(Strategy::Keyboard, 500, 0, 500);
    m.recordCost(Strategy::Keyboard, 0.0003, 0, 0.0003);
    // Warm-up records money for the answers it served, but its extra cost is in tokens only.
    m.recordTokens(Strategy::Warmup, 800, 0, 0);
    m.recordCost(Strategy::Warmup, 0, 0.01, 0);
    QVERIFY(waitForRefresh());

    QCOMPARE(m_dock->table()->horizontalHeaderItem(MetricsDock::ExtraMoneyColumn)->text(), QStringLiteral("Extra, $"));
    QCOMPARE(cell(Strategy::Selection, MetricsDock::HitsColumn), QStringLiteral("1"));
    QCOMPARE(cell(Strategy::Selection, MetricsDock::PartialHitsColumn), QStringLiteral("1"));
    QCOMPARE(cell(Strategy::Selection, MetricsDock::MissesColumn), QStringLiteral("1"));
    QCOMPARE(cell(Strategy::Selection, MetricsDock::ExtraTokensColumn), QStringLiteral("50 %"));
    QCOMPARE(cell(Strategy::Selection, MetricsDock::ExtraMoneyColumn), QStringLiteral("20 %"));
    const QString tip = m_dock->table()->item(MetricsDock::rowOf(Strategy::Selection), 0)->toolTip();
    QVERIFY2(tip.contains(QLatin1String("In money: $0.0042 prefetched, $0.02 used, $0.0042 wasted.")), qPrintable(tip));
    QCOMPARE(cell(Strategy::Keyboard, MetricsDock::ExtraTokensColumn), QStringLiteral("none used"));
    QCOMPARE(cell(Strategy::Keyboard, MetricsDock::ExtraMoneyColumn), QStringLiteral("none used"));
    QCOMPARE(cell(Strategy::Warmup, MetricsDock::ExtraMoneyColumn), QStringLiteral("–"));
    QCOMPARE(cell(Strategy::None, MetricsDock::ExtraMoneyColumn), QStringLiteral("–"));
}

void tst_MetricsDock::noMoneyForAFreeProvider()
{
    makeDock({}, QStringLiteral("ollama"));
    QVERIFY(m_engine->profile().prices.isFree());
    Metrics &m = m_engine->metrics();
    m.recordAttempt(Strategy::Hover);
    m.recordOutcome(Strategy::Hover, Outcome::Hit);
    m.recordTokens(Strategy::Hover, 1000, 1000, 100);
    QVERIFY(waitForRefresh());
    QCOMPARE(cell(Strategy::Hover, MetricsDock::ExtraTokensColumn), QStringLiteral("10 %"));
    QCOMPARE(cell(Strategy::Hover, MetricsDock::ExtraMoneyColumn), QStringLiteral("–"));
    const QString tip = m_dock->table()->item(MetricsDock::rowOf(Strategy::Hover), 0)->toolTip();
    QVERIFY2(!tip.contains(QLatin1String("money")), qPrintable(tip));

    // Priced in Settings: the same counters now show money, without restarting anything.
    Llm::Prices prices;
    prices.input = 0.1;
    prices.output = 0.4;
    m_engine->setPrices(prices);
    m.recordCost(Strategy::Hover, 0.001, 0.004, 0.001);
    QVERIFY(waitForRefresh());
    QCOMPARE(cell(Strategy::Hover, MetricsDock::ExtraMoneyColumn), QStringLiteral("25 %"));
}

void tst_MetricsDock::moneyBudgetShowsWhereItApplies()
{
    Settings settings;
    settings.hourlyMoneyBudget = 0; // unlimited: nothing to show
    makeDock(settings);
    QVERIFY(!m_dock->moneyBudgetLabel()->isVisible());
    settings.prefetchInFlight = 0; // the prefetch waits in the queue, its money reserved
    settings.hourlyMoneyBudget = 1.0;
    makeDock(settings);
    Llm::ChatRequest request;
    request.messages = {{Llm::Role::User, QStringLiteral("What does a warm cache save?")}};
    request.maxTokens = 100;
    QVERIFY(m_engine->prefetch(Strategy::Hover, m_engine->render(request), std::chrono::seconds(30)));
    QVERIFY(waitForRefresh());
    QVERIFY(m_dock->moneyBudgetLabel()->isVisible());
    const double used = double(m_engine->moneyBudget().used()) / 1e6;
    QVERIFY(used > 0);
    QCOMPARE(m_dock->moneyBudgetLabel()->text(),
             QStringLiteral("Money budget: %1 of $1.00 this hour (%2)")
                 .arg(Gui::formatMoney(used, QStringLiteral("USD")), MetricsDock::formatPercent(used)));
    m_engine->cancelAllPrefetches();

    // Where the provider bills nothing the money budget limits nothing: it is not shown.
    makeDock(settings, QStringLiteral("llamacpp"));
    m_dock->refresh();
    QVERIFY(!m_dock->moneyBudgetLabel()->isVisible());
}

void tst_MetricsDock::everyStrategyHasARow()
{
    QStringList names;
    for (int row = 0; row < m_dock->table()->rowCount(); ++row)
        names << m_dock->table()->item(row, MetricsDock::StrategyColumn)->text();
    for (Strategy s : AllStrategies)
        QVERIFY2(names.contains(Metrics::strategyName(s)), qPrintable(Metrics::strategyName(s)));
    QCOMPARE(names.constLast(), Metrics::strategyName(Strategy::None));
    QCOMPARE(m_dock->table()->rowCount(), int(std::size(AllStrategies)) + 1);
}

void tst_MetricsDock::resetClearsEverything()
{
    Metrics &m = m_engine->metrics();
    for (int i = 0; i < 25; ++i) {
        m.recordAttempt(Strategy::Hover);
        m.recordPerceivedLatency(Strategy::Hover, LatencyKind::Miss, 700);
    }
    QVERIFY(waitForRefresh());
    QVERIFY(m_dock->alarmsLabel()->isVisible());
    QCOMPARE(cell(Strategy::Hover, MetricsDock::AttemptsColumn), QStringLiteral("25"));

    m_dock->resetAction()->trigger();
    QCOMPARE(cell(Strategy::Hover, MetricsDock::AttemptsColumn), QStringLiteral("0"));
    QCOMPARE(cell(Strategy::Hover, MetricsDock::HitRateColumn), QStringLiteral("–"));
    QCOMPARE(cell(Strategy::Hover, MetricsDock::StateColumn), QStringLiteral("Active"));
    QCOMPARE(m_dock->perceivedP50Label()->text(), QStringLiteral("Perceived p50: hit – · miss – · none –"));
    QVERIFY(m_dock->chart()->samples().isEmpty());
    QVERIFY(!m_dock->alarmsLabel()->isVisible());
    QCOMPARE(m.stats(Strategy::Hover).attempts, 0);
}

void tst_MetricsDock::chartPaints_data()
{
    QTest::addColumn<int>("count");
    QTest::addColumn<bool>("dark");
    QTest::addRow("empty") << 0 << false;
    QTest::addRow("one") << 1 << false;
    QTest::addRow("500") << 500 << false;
    QTest::addRow("500 dark") << 500 << true;
}

void tst_MetricsDock::chartPaints()
{
    QFETCH(int, count);
    QFETCH(bool, dark);
    LatencyChart chart;
    QPalette palette = chart.palette();
    if (dark) {
        palette.setColor(QPalette::Window, QColor(0x20, 0x20, 0x20));
        palette.setColor(QPalette::Base, QColor(0x10, 0x10, 0x10));
        palette.setColor(QPalette::Text, QColor(0xee, 0xee, 0xee));
        palette.setColor(QPalette::WindowText, QColor(0xee, 0xee, 0xee));
        palette.setColor(QPalette::Highlight, QColor(0x3d, 0xae, 0xe9));
        chart.setPalette(palette);
    }
    QList<LatencySample> samples;
    // 0.5 ms to 12 s: both ends are clamped to the scale; over the last 50 s, every series.
    const qint64 now = 1'000'000'000'000;
    for (int i = 0; i < count; ++i)
        samples.append({count == 1 ? 100.0 : 0.5 * std::pow(24000.0, double((i * 37) % count) / double(count - 1)),
                        LatencyKind(i % 3), now - qint64(count - i) * 100'000'000});
    chart.setSamples(samples, now);
    chart.resize(chart.sizeHint());
    const QImage image = chart.grab().toImage();
    QVERIFY(!image.isNull());
    QVERIFY(image.width() > 0 && image.height() > 0);

    // Not blank: the plot background is there, and each series' colour (its legend swatch at
    // least) is painted, with or without samples.
    const QColor base = chart.palette().color(QPalette::Base);
    QVERIFY(imageHas(image, base));
    for (LatencyKind kind : {LatencyKind::Hit, LatencyKind::Miss, LatencyKind::NoPrefetch})
        QVERIFY2(imageHas(image, LatencyChart::seriesColor(chart.palette(), kind)),
                 qPrintable(LatencyChart::seriesName(kind)));
    QVERIFY(!chart.accessibleName().isEmpty());
    QCOMPARE(chart.accessibleDescription(), chart.summary());
    if (count == 0)
        QCOMPARE(chart.summary(), QStringLiteral("No answers measured yet."));
    else
        QVERIFY2(chart.summary().startsWith(QStringLiteral("Recent answers: %1.").arg(QLocale().toString(count))),
                 qPrintable(chart.summary()));
}

void tst_MetricsDock::chartFollowsTheFont()
{
    LatencyChart chart;
    const QSize normal = chart.sizeHint();
    QFont big = chart.font();
    big.setPointSizeF(big.pointSizeF() * 2);
    chart.setFont(big);
    QVERIFY(chart.sizeHint().width() > normal.width());
    QVERIFY(chart.sizeHint().height() > normal.height());
}

void tst_MetricsDock::burstOfRecordsRefreshesOnlyAFewTimes()
{
    const int before = m_dock->refreshCount();
    Metrics &m = m_engine->metrics();
    QElapsedTimer clock;
    clock.start();
    for (int i = 0; i < 1000; ++i) {
        m.recordAttempt(Strategy::Debounce);
        m.recordOutcome(Strategy::Debounce, i % 2 ? Outcome::Hit : Outcome::Miss);
        m.recordPerceivedLatency(Strategy::Debounce, i % 2 ? LatencyKind::Hit : LatencyKind::Miss, 5 + i % 900);
        m.recordTtft(Strategy::Debounce, 200 + i % 100);
    }
    const qint64 burstMs = clock.elapsed();
    QVERIFY(waitForRefresh());
    QSignalSpy more(m_dock, &MetricsDock::refreshed);
    QVERIFY(!more.wait(400)); // the burst is over: nothing more to show
    const int refreshes = m_dock->refreshCount() - before;
    QVERIFY2(refreshes >= 1 && refreshes <= 3, qPrintable(QString::number(refreshes)));
    QCOMPARE(cell(Strategy::Debounce, MetricsDock::AttemptsColumn), QLocale().toString(1000));
    QCOMPARE(cell(Strategy::Debounce, MetricsDock::HitRateColumn), QStringLiteral("50 %"));
    QCOMPARE(m_dock->chart()->samples().size(), qsizetype(m.settings().latencyWindow));

    // What one refresh costs when the figures changed (for the report; a frame is 16 ms).
    clock.restart();
    for (int i = 0; i < 50; ++i) {
        m.recordAttempt(Strategy::Hover);
        m.recordPerceivedLatency(Strategy::Hover, LatencyKind::Hit, 3 + i);
        m_dock->refresh();
    }
    qInfo("1000 records in %lld ms, %d refreshes; one refresh takes %.2f ms", burstMs, refreshes,
          double(clock.nsecsElapsed()) / 50.0 / 1e6);
}

void tst_MetricsDock::hiddenDockCatchesUpWhenShown()
{
    m_dock->hide();
    const int before = m_dock->refreshCount();
    m_engine->metrics().recordPerceivedLatency(Strategy::None, LatencyKind::NoPrefetch, 42);
    QSignalSpy changed(&m_engine->metrics(), &Metrics::changed);
    QVERIFY(changed.wait(2000));
    QCOMPARE(m_dock->refreshCount(), before); // nothing painted while hidden
    m_dock->show();
    QTRY_COMPARE_WITH_TIMEOUT(m_dock->refreshCount(), before + 1, 2000);
    QVERIFY(m_dock->perceivedP50Label()->text().endsWith(QLatin1String("none 42 ms")));
}

void tst_MetricsDock::noPrefetchRowShowsTheAnswersThatHadNone()
{
    makeLoopbackDock();
    // Two hover clicks and one menu action with nothing prefetched; one hover prefetch taken over.
    QVERIFY(answer(Strategy::Hover, chatRequest(1)));
    QVERIFY(answer(Strategy::Hover, chatRequest(2)));
    QVERIFY(answer(Strategy::None, chatRequest(3)));
    const Llm::ChatRequest guessed = chatRequest(4);
    QPointer<PrefetchSession> session = m_engine->prefetch(Strategy::Hover, m_engine->render(guessed),
                                                           std::chrono::seconds(30));
    QVERIFY(session);
    QTRY_VERIFY_WITH_TIMEOUT(session && session->state() == PrefetchSession::State::Complete, 10000);
    QVERIFY(answer(Strategy::Hover, guessed));
    QTRY_COMPARE_WITH_TIMEOUT(cell(Strategy::None, MetricsDock::AnswersColumn), QStringLiteral("3"), 2000);

    const Metrics &m = m_engine->metrics();
    QCOMPARE(m.stats(Strategy::Hover).answersNoPrefetch, 2); // the engine counts them under the strategy ...
    QCOMPARE(m.stats(Strategy::Hover).answersHit, 1);
    // ... and the dock shows them in the baseline row, with their latency, not under Hover too.
    const Percentiles none = m.perceivedAll(LatencyKind::NoPrefetch);
    QCOMPARE(none.count, 3);
    QVERIFY(none.p50 >= 0);
    QCOMPARE(cell(Strategy::None, MetricsDock::PerceivedP50Column), MetricsDock::formatMs(none.p50));
    QCOMPARE(cell(Strategy::Hover, MetricsDock::AnswersColumn), QStringLiteral("1"));
    QCOMPARE(cell(Strategy::Hover, MetricsDock::PerceivedP50Column),
             MetricsDock::formatMs(m.perceived(Strategy::Hover, LatencyKind::Hit).p50));
    QCOMPARE(cell(Strategy::Workflow, MetricsDock::AnswersColumn), QStringLiteral("0"));
    QCOMPARE(cell(Strategy::Workflow, MetricsDock::PerceivedP50Column), QStringLiteral("–"));
    const QString tip =
        m_dock->table()->item(MetricsDock::rowOf(Strategy::None), MetricsDock::AnswersColumn)->toolTip();
    QVERIFY2(tip.startsWith(QStringLiteral("Answers with nothing prefetched to take over, whichever strategy asked for "
                                           "them: 3; perceived p50 %1")
                                .arg(MetricsDock::formatMs(none.p50))),
             qPrintable(tip));

    // Nothing counted twice: the column adds up to the answers shown, each in one row.
    qint64 total = 0;
    for (int row = 0; row < m_dock->table()->rowCount(); ++row)
        total += m_dock->table()->item(row, MetricsDock::AnswersColumn)->text().toLongLong();
    QCOMPARE(total, 4);
    QCOMPARE(m.answersAll(LatencyKind::Hit) + m.answersAll(LatencyKind::Miss) + m.answersAll(LatencyKind::NoPrefetch),
             4);
    QCOMPARE(m_local.stats().requestsServed >= 4, true);
}

void tst_MetricsDock::tooFewAttemptsSaysWhyStillActive()
{
    Settings settings;
    settings.minAttemptsForAlarm = 10;
    makeLoopbackDock(settings);
    // Two hover prefetches nobody takes: a hit rate of 0 %, under the 35 % floor, after 2 of 10.
    for (int i = 0; i < 2; ++i) {
        QPointer<PrefetchSession> s = m_engine->prefetch(Strategy::Hover, m_engine->render(chatRequest(10 + i)),
                                                         std::chrono::seconds(30));
        QVERIFY(s);
        QTRY_VERIFY_WITH_TIMEOUT(!s || s->state() == PrefetchSession::State::Complete, 10000);
        m_engine->cancel(s);
    }
    const QString expected = QStringLiteral("Active (too few attempts yet: 2 of 10)");
    QTRY_COMPARE_WITH_TIMEOUT(cell(Strategy::Hover, MetricsDock::StateColumn), expected, 2000);
    const StrategyStats hover = m_engine->metrics().stats(Strategy::Hover);
    QVERIFY(!hover.alarm);
    QVERIFY(hover.tooFewAttempts);
    const QString tip = m_dock->table()->item(MetricsDock::rowOf(Strategy::Hover), MetricsDock::StateColumn)->toolTip();
    QVERIFY2(tip.startsWith(QStringLiteral("Hover prefetch: hit rate 0 % is below 35 %, but the alarm waits for 10 "
                                           "attempts (2 so far).")),
             qPrintable(tip));
    // Not an alarm: the red line stays hidden and the state is not painted as one.
    QVERIFY(!m_dock->alarmsLabel()->isVisible());
    QCOMPARE(m_dock->table()->item(MetricsDock::rowOf(Strategy::Hover), MetricsDock::StateColumn)->foreground(),
             QBrush());
    // The long state is not cut: the column is as wide as its text (the table scrolls instead).
    const int stateWidth = m_dock->table()->fontMetrics().horizontalAdvance(expected);
    QTRY_VERIFY_WITH_TIMEOUT(m_dock->table()->columnWidth(MetricsDock::StateColumn) > stateWidth, 2000);
    // A strategy with no attempts has nothing to explain.
    QCOMPARE(cell(Strategy::Workflow, MetricsDock::StateColumn), QStringLiteral("Active"));

    // At the minimum the alarm takes over.
    for (int i = 2; i < 10; ++i)
        m_engine->metrics().recordAttempt(Strategy::Hover);
    QTRY_VERIFY_WITH_TIMEOUT(cell(Strategy::Hover, MetricsDock::StateColumn).contains(QLatin1String("larm")), 2000);
    QVERIFY(!m_engine->metrics().stats(Strategy::Hover).tooFewAttempts);
}

void tst_MetricsDock::chartHasATimeAxisAndALegend()
{
    LatencyChart chart;
    chart.resize(chart.sizeHint());
    QCOMPARE(chart.legendLabels(), QStringList({QStringLiteral("Prefetch used"), QStringLiteral("Prefetch missed"),
                                                QStringLiteral("No prefetch")}));
    QCOMPARE(chart.latencyAxisLabels(),
             QStringList({QStringLiteral("1 ms"), QStringLiteral("10 ms"), QStringLiteral("100 ms"),
                          QStringLiteral("1 s"), QStringLiteral("10 s")}));
    // No samples: the last minute, in seconds.
    QCOMPARE(chart.timeSpanSeconds(), 60);
    QCOMPARE(chart.timeAxisLabels().constFirst(), QStringLiteral("−60 s"));
    QCOMPARE(chart.timeAxisLabels().constLast(), QStringLiteral("now"));

    // The oldest sample 3 minutes back: five minutes, labelled in minutes.
    const qint64 now = 5'000'000'000'000;
    const qint64 second = 1'000'000'000;
    chart.setSamples({{40, LatencyKind::Hit, now - 180 * second}, {900, LatencyKind::NoPrefetch, now - 2 * second}},
                     now);
    QCOMPARE(chart.timeSpanSeconds(), 300);
    // Wide: a tick a minute, both ends labelled.
    chart.resize(chart.fontMetrics().averageCharWidth() * 100, chart.height());
    QCOMPARE(chart.timeAxisLabels(),
             QStringList({QStringLiteral("−5 min"), QStringLiteral("−4 min"), QStringLiteral("−3 min"),
                          QStringLiteral("−2 min"), QStringLiteral("−1 min"), QStringLiteral("now")}));
    // Narrower: fewer ticks, never overlapping, "now" kept.
    chart.resize(chart.sizeHint());
    const QStringList middle = chart.timeAxisLabels();
    QVERIFY2(middle.size() >= 2 && middle.size() < 6, qPrintable(middle.join(u' ')));
    QCOMPARE(middle.constLast(), QStringLiteral("now"));
    // Narrowest: the two ends.
    chart.resize(chart.minimumSizeHint());
    QCOMPARE(chart.timeAxisLabels(), QStringList({QStringLiteral("−5 min"), QStringLiteral("now")}));
    // Hours once the oldest is past two.
    chart.setSamples({{40, LatencyKind::Miss, now - 3 * 3600 * second}}, now);
    QCOMPARE(chart.timeSpanSeconds(), 6 * 3600);
    QCOMPARE(chart.timeAxisLabels().constFirst(), QStringLiteral("−6 h"));

    // Each series in its own colour, readable on a dark palette too, and the dots are painted:
    // with only missed answers, the missed colour covers more than its legend swatch.
    QPalette dark = chart.palette();
    dark.setColor(QPalette::Window, QColor(0x20, 0x20, 0x20));
    dark.setColor(QPalette::Base, QColor(0x10, 0x10, 0x10));
    dark.setColor(QPalette::Text, QColor(0xee, 0xee, 0xee));
    dark.setColor(QPalette::WindowText, QColor(0xee, 0xee, 0xee));
    dark.setColor(QPalette::Highlight, QColor(0x3d, 0xae, 0xe9));
    const auto countColour = [](const QImage &image, const QColor &c) {
        int n = 0;
        for (int y = 0; y < image.height(); ++y)
            for (int x = 0; x < image.width(); ++x)
                n += (image.pixel(x, y) & 0xffffff) == (c.rgb() & 0xffffff);
        return n;
    };
    for (const QPalette &palette : {QPalette(chart.palette()), dark}) {
        chart.setPalette(palette);
        const QColor hit = LatencyChart::seriesColor(palette, LatencyKind::Hit);
        const QColor miss = LatencyChart::seriesColor(palette, LatencyKind::Miss);
        const QColor none = LatencyChart::seriesColor(palette, LatencyKind::NoPrefetch);
        QVERIFY(hit != miss && miss != none && hit != none);
        // Text against the plot: the none series' grey is halfway between, never the text colour.
        QVERIFY(none != palette.color(QPalette::Text));
        chart.resize(chart.sizeHint());
        QList<LatencySample> missed;
        for (int i = 0; i < 30; ++i)
            missed.append({double(50 + 20 * i), LatencyKind::Miss, now - qint64(i) * second});
        chart.setSamples(missed, now);
        const QImage withDots = chart.grab().toImage();
        chart.setSamples({}, now);
        const QImage legendOnly = chart.grab().toImage();
        QVERIFY(countColour(legendOnly, miss) > 0);
        QVERIFY2(countColour(withDots, miss) > 2 * countColour(legendOnly, miss),
                 qPrintable(
                     QStringLiteral("%1 vs %2").arg(countColour(withDots, miss)).arg(countColour(legendOnly, miss))));
        QCOMPARE(countColour(withDots, hit), countColour(legendOnly, hit)); // no hits: only the swatch
    }
}

void tst_MetricsDock::dockChartShowsLoopbackAnswersBySeries()
{
    makeLoopbackDock();
    QVERIFY(answer(Strategy::Workflow, chatRequest(20)));
    const Llm::ChatRequest guessed = chatRequest(21);
    QPointer<PrefetchSession> session = m_engine->prefetch(Strategy::Workflow, m_engine->render(guessed),
                                                           std::chrono::seconds(30));
    QVERIFY(session);
    QTRY_VERIFY_WITH_TIMEOUT(session && session->state() == PrefetchSession::State::Complete, 10000);
    QVERIFY(answer(Strategy::Workflow, guessed));
    QTRY_COMPARE_WITH_TIMEOUT(m_dock->chart()->samples().size(), qsizetype(2), 2000);
    QCOMPARE(m_dock->chart()->samples().at(0).kind, LatencyKind::NoPrefetch);
    QCOMPARE(m_dock->chart()->samples().at(1).kind, LatencyKind::Hit);
    // Just now: the last minute, "now" at the right.
    QCOMPARE(m_dock->chart()->timeSpanSeconds(), 60);
    QCOMPARE(m_dock->chart()->timeAxisLabels().constLast(), QStringLiteral("now"));
    QVERIFY(m_dock->chart()->summary().startsWith(QStringLiteral("Recent answers: 2.")));
}

// Issue 41, item 5: the columns' explanations ran off the screen on one line. The pointer rests
// on the money column's header; the tooltip Qt shows after its delay is a paragraph that wraps.
void tst_MetricsDock::aLongColumnTooltipWrapsOnTheScreen()
{
    Gui::ToolTipWrapper wrapper; // as the application installs it
    qApp->installEventFilter(&wrapper);
    const auto uninstall = qScopeGuard([&wrapper] { qApp->removeEventFilter(&wrapper); });
    QTableWidget *table = m_dock->table();
    const int column = MetricsDock::ExtraMoneyColumn;
    table->scrollToItem(table->item(0, column));
    QHeaderView *header = table->horizontalHeader();
    const QPoint at(header->sectionViewportPosition(column) + header->sectionSize(column) / 2, header->height() / 2);
    QTest::mouseMove(header->viewport(), at);
    QHelpEvent help(QEvent::ToolTip, at, header->viewport()->mapToGlobal(at));
    QApplication::sendEvent(header->viewport(), &help);

    QLabel *tip = nullptr;
    QTRY_VERIFY(tip = [] {
        for (QWidget *w : QApplication::topLevelWidgets()) {
            if (w->inherits("QTipLabel") && w->isVisible())
                return qobject_cast<QLabel *>(w);
        }
        return static_cast<QLabel *>(nullptr);
    }());
    const QString plain = header->model()->headerData(column, Qt::Horizontal, Qt::ToolTipRole).toString();
    QVERIFY(plain.startsWith(QStringLiteral("Money wasted")));
    QVERIFY(tip->text().contains(QStringLiteral("Money wasted")));
    // On one line it would be this wide; wrapped it is a few lines of a readable width.
    const int oneLine = tip->fontMetrics().horizontalAdvance(plain);
    QVERIFY2(tip->width() < oneLine / 2, qPrintable(QStringLiteral("%1 of %2 px").arg(tip->width()).arg(oneLine)));
    QVERIFY(tip->height() >= 3 * tip->fontMetrics().lineSpacing());
}

QTEST_MAIN(tst_MetricsDock)
#include "tst_metricsdock.moc"
