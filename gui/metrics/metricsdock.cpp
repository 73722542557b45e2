#include "gui/metrics/metricsdock.h"

#include "gui/metrics/cachedecisionlog.h"

#include "gui/widgets/uicolors.h"

#include "gui/metrics/latencychart.h"
#include "gui/metrics/selectionlearningline.h"
#include "workspace/settings/money.h"

#include "prefetch/engine.h"
#include "prefetch/metrics.h"

#include "llm/clock.h"

#include <QAction>
#include <QHeaderView>
#include <QLabel>
#include <QLocale>
#include <QProgressBar>
#include <QScrollArea>
#include <QTableWidget>
#include <QToolButton>
#include <QVBoxLayout>

#include <chrono>
#include <cmath>

namespace Gui {

using namespace std::chrono_literals;

namespace {

constexpr Prefetch::Strategy Rows[] = {Prefetch::Strategy::Warmup,     Prefetch::Strategy::Hover,
                                       Prefetch::Strategy::Debounce,   Prefetch::Strategy::Workflow,
                                       Prefetch::Strategy::Trajectory, Prefetch::Strategy::Selection,
                                       Prefetch::Strategy::Keyboard,   Prefetch::Strategy::Reading,
                                       Prefetch::Strategy::Habits,     Prefetch::Strategy::None};
constexpr int RowCount = int(std::size(Rows));
// The chart shows at most this many of the newest samples (the metrics window is 200 by default).
constexpr qsizetype ChartSamples = 200;
constexpr int BudgetBarSteps = 1000;

void setLabelText(QLabel *label, const QString &text)
{
    if (label->text() != text)
        label->setText(text);
}

void setToolTipIfChanged(QWidget *widget, const QString &tip)
{
    if (widget->toolTip() != tip)
        widget->setToolTip(tip);
}

QString dash()
{
    return QStringLiteral("–");
}

} // namespace

MetricsDock::MetricsDock(Prefetch::Engine *engine, QWidget *parent)
    : QDockWidget(parent)
    , m_engine(engine)
    , m_reset(new QAction(tr("&Reset statistics"), this))
    , m_p50(new QLabel(this))
    , m_p95(new QLabel(this))
    , m_chart(new LatencyChart(this))
    , m_table(new QTableWidget(RowCount, ColumnCount, this))
    , m_alarms(new QLabel(this))
    , m_pause(new QLabel(this))
    , m_cache(new QLabel(this))
    , m_classifier(new QLabel(this))
    , m_routing(new QLabel(this))
    , m_acknowledgement(new QLabel(this))
    , m_responseCache(new QLabel(this))
    , m_decisionLog(new QToolButton(this))
    , m_selectionLearning(new SelectionLearningLine(this))
    , m_sessions(new QLabel(this))
    , m_budgetText(new QLabel(this))
    , m_budgetBar(new QProgressBar(this))
    , m_moneyBudgetText(new QLabel(this))
{
    setObjectName(QStringLiteral("metricsDock")); // QMainWindow::saveState() keys docks by it
    setWindowTitle(tr("Prefetch Metrics"));

    m_reset->setToolTip(tr("Clear every counter, latency and alarm"));
    connect(m_reset, &QAction::triggered, this, &MetricsDock::resetStatistics);

    m_p50->setAccessibleName(tr("Perceived latency, median"));
    m_p95->setAccessibleName(tr("Perceived latency, 95th percentile"));
    for (QLabel *label : {m_p50, m_p95, m_cache, m_classifier, m_routing, m_acknowledgement, m_responseCache,
                          m_sessions, m_budgetText, m_moneyBudgetText, m_alarms, m_pause}) {
        label->setWordWrap(true);
        label->setTextInteractionFlags(Qt::TextSelectableByMouse);
    }
    m_alarms->setAccessibleName(tr("Alarms and paused strategies"));
    m_alarms->setVisible(false);
    m_pause->setAccessibleName(tr("Prefetch paused"));
    m_pause->setVisible(false);
    m_cache->setAccessibleName(tr("Warm-up cache hits"));
    m_classifier->setObjectName(QStringLiteral("classifierLine"));
    m_classifier->setAccessibleName(tr("Draft classifier on the fast model"));
    m_classifier->setToolTip(tr(
        "Settings, Prefetch, \"Ask the model whether a draft is complete\": each typing pause asks the provider's fast "
        "model whether the draft is finished. Closed early: the stream was closed as soon as "
        "the number had arrived. Heuristic: no usable number in time, or no slot or budget "
        "for the question."));
    m_classifier->setVisible(false);
    m_routing->setObjectName(QStringLiteral("routingLine"));
    m_routing->setAccessibleName(tr("Fast/slow routing"));
    m_routing->setToolTip(tr("Settings, Prefetch, Fast model: small talk and simple questions in free chat go to the "
                             "provider's fast model. Perceived first-token latency per model, and how often an answer "
                             "of the fast model was asked again of the main one."));
    m_routing->setVisible(false);
    m_acknowledgement->setObjectName(QStringLiteral("acknowledgementLine"));
    m_acknowledgement->setAccessibleName(tr("Instant acknowledgement"));
    m_acknowledgement->setToolTip(tr("Settings, Prefetch, \"Acknowledge at once while a reasoning model thinks\": the "
                                     "fast model's one line shown while the main model thinks. Shown: it came before "
                                     "the answer's text; late: the answer came first, or nothing usable; the times are "
                                     "averages from sending, and from the line to the answer."));
    m_acknowledgement->setVisible(false);
    m_responseCache->setObjectName(QStringLiteral("responseCacheLine"));
    m_responseCache->setAccessibleName(tr("Response cache"));
    m_responseCache->setToolTip(tr("Settings, Prefetch, Response cache: a request asked again exactly is answered from "
                                   "what it got before; a chat question close to one answered shows that answer as a "
                                   "draft. Replaced: the live answer said something else than the draft."));
    m_decisionLog->setObjectName(QStringLiteral("decisionLogButton"));
    m_decisionLog->setText(tr("&Decision log…"));
    m_decisionLog->setToolButtonStyle(Qt::ToolButtonTextOnly);
    m_decisionLog->setToolTip(
        tr("Each lookup of the response cache: the nearest answers, their scores and what was decided"));
    connect(m_decisionLog, &QToolButton::clicked, this, [this] {
        if (!m_engine)
            return;
        auto *dialog = new CacheDecisionLog(m_engine->cachedAnswers().cache(), this);
        dialog->setAttribute(Qt::WA_DeleteOnClose);
        dialog->open();
    });
    m_sessions->setAccessibleName(tr("Requests running now"));
    m_budgetText->setAccessibleName(tr("Prefetch budget"));
    m_budgetBar->setAccessibleName(tr("Prefetch budget used"));
    m_moneyBudgetText->setAccessibleName(tr("Prefetch money budget"));
    m_moneyBudgetText->setVisible(false);
    m_budgetBar->setRange(0, BudgetBarSteps);
    m_budgetBar->setTextVisible(false); // the label next to it has the numbers, in the locale

    m_table->setAccessibleName(tr("Prefetch strategies"));
    // Short headers keep the table narrow enough for a side dock; the tooltips say more.
    // The money column's header names the currency; refresh() sets it.
    // Words rather than jargon ("hits", "TTFT"): the tooltips give the definitions.
    m_table->setHorizontalHeaderLabels({tr("Strategy"), tr("Answers"), tr("Perceived p50"), tr("Started early"),
                                        tr("Ready"), tr("Late"), tr("Missed"), tr("Used"), tr("Wasted"),
                                        tr("Extra, tokens"), QString(), tr("Cache read"), tr("Provider p50"),
                                        tr("Provider p95"), tr("State")});
    m_table->horizontalHeaderItem(AttemptsColumn)
        ->setToolTip(tr("Answers this strategy started before the user asked"));
    m_table->horizontalHeaderItem(AnswersColumn)
        ->setToolTip(tr("Answers shown: for a strategy, those it had prefetched for (taken over or missed); for "
                        "No prefetch, those with nothing prefetched, whichever strategy asked. Each answer is "
                        "counted in one row."));
    m_table->horizontalHeaderItem(PerceivedP50Column)
        ->setToolTip(tr("From the user's action to the first token shown, median over the row's latest answers"));
    m_table->horizontalHeaderItem(HitsColumn)->setToolTip(tr("Started early and taken over with their first token already in: ready when the user asked"));
    m_table->horizontalHeaderItem(PartialHitsColumn)
        ->setToolTip(tr("Started early and taken over before their first token: the wait was shorter, not gone"));
    m_table->horizontalHeaderItem(MissesColumn)
        ->setToolTip(tr("Prefetches that could not be used when the user asked: the answer started afresh"));
    m_table->horizontalHeaderItem(WastedColumn)->setToolTip(tr("Tokens spent on prefetches nobody used"));
    m_table->horizontalHeaderItem(CacheReadColumn)->setToolTip(tr("Prompt tokens the provider read from its cache"));
    m_table->horizontalHeaderItem(HitRateColumn)->setToolTip(tr("Of the answers started early, the share the user took over (ready or late)"));
    m_table->horizontalHeaderItem(ExtraTokensColumn)
        ->setToolTip(tr("Tokens wasted on unused prefetches, per token used"));
    m_table->horizontalHeaderItem(ExtraMoneyColumn)
        ->setToolTip(tr("Money wasted on unused prefetches, per unit spent on the answers used, at the provider's "
                        "prices with cache discounts applied. Only where the provider has prices; warm-up is "
                        "counted in tokens only, since its prefill is what the first answer would have paid."));
    m_table->horizontalHeaderItem(TtftP50Column)->setToolTip(tr("Provider time to first token, median"));
    m_table->horizontalHeaderItem(TtftP95Column)->setToolTip(tr("Provider time to first token, 95th percentile"));
    m_table->verticalHeader()->setVisible(false);
    // Rows as high as their text needs (font and DPI), not the style's roomier default.
    m_table->verticalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    // Not stretched: a stretched last section is only as wide as the space left and would cut
    // a long state ("Active (too few attempts yet: 2 of 20)"); the table scrolls instead.
    m_table->horizontalHeader()->setStretchLastSection(false);
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::SingleSelection);
    m_table->setTabKeyNavigation(false); // Tab moves on to the next control; arrows move in the table
    m_table->setWordWrap(false);
    m_table->setAlternatingRowColors(true);
    m_table->setSizeAdjustPolicy(QAbstractScrollArea::AdjustToContents);
    m_table->setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    // Items are made once; refresh() only changes their texts.
    for (int row = 0; row < RowCount; ++row) {
        for (int column = 0; column < ColumnCount; ++column) {
            auto *item = new QTableWidgetItem;
            item->setFlags(Qt::ItemIsEnabled | Qt::ItemIsSelectable);
            const bool number = column != StrategyColumn && column != StateColumn;
            item->setTextAlignment(Qt::AlignVCenter | (number ? Qt::AlignRight : Qt::AlignLeft));
            m_table->setItem(row, column, item);
        }
        m_table->item(row, StrategyColumn)->setText(Prefetch::Metrics::strategyName(Rows[row]));
    }

    auto *resetButton = new QToolButton(this);
    resetButton->setDefaultAction(m_reset);
    resetButton->setToolButtonStyle(Qt::ToolButtonTextOnly);
    resetButton->setAccessibleName(tr("Reset statistics"));

    auto *content = new QWidget(this);
    content->addAction(m_reset);
    content->setContextMenuPolicy(Qt::ActionsContextMenu);
    auto *layout = new QVBoxLayout(content);
    layout->addWidget(m_p50);
    layout->addWidget(m_p95);
    layout->addWidget(m_chart, 1);
    layout->addWidget(m_table);
    layout->addWidget(m_pause);
    layout->addWidget(m_alarms);
    layout->addWidget(m_cache);
    layout->addWidget(m_classifier);
    layout->addWidget(m_routing);
    layout->addWidget(m_acknowledgement);
    layout->addWidget(m_responseCache);
    layout->addWidget(m_decisionLog, 0, Qt::AlignLeft);
    layout->addWidget(m_selectionLearning);
    layout->addWidget(m_sessions);
    layout->addWidget(m_budgetText);
    layout->addWidget(m_budgetBar);
    layout->addWidget(m_moneyBudgetText);
    layout->addWidget(resetButton, 0, Qt::AlignLeft);
    auto *scroll = new QScrollArea(this);
    scroll->setWidgetResizable(true);
    // Always there, so the content's width never depends on its height (word-wrapped lines; see
    // AnswerPane for what an as-needed bar did there).
    scroll->setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOn);
    scroll->setFrameShape(QFrame::NoFrame);
    scroll->setWidget(content);
    setWidget(scroll);

    m_coalesce.setSingleShot(true);
    m_coalesce.setInterval(0);
    connect(&m_coalesce, &QTimer::timeout, this, &MetricsDock::refresh);
    m_slowTick.setInterval(15s);
    connect(&m_slowTick, &QTimer::timeout, this, &MetricsDock::refresh);
    connect(this, &QDockWidget::visibilityChanged, this, [this](bool visible) {
        if (visible) {
            m_slowTick.start();
            if (m_dirty)
                refresh();
        } else {
            m_slowTick.stop();
        }
    });
    if (m_engine) {
        connect(&m_engine->metrics(), &Prefetch::Metrics::changed, this, &MetricsDock::refresh);
        connect(m_engine, &Prefetch::Engine::sessionsChanged, this, &MetricsDock::requestRefresh);
        connect(m_engine, &Prefetch::Engine::suspensionsChanged, this, &MetricsDock::requestRefresh);
    }
}

void MetricsDock::setSpeculator(Prefetch::Speculator *speculator)
{
    m_selectionLearning->setSpeculator(speculator);
}

int MetricsDock::rowOf(Prefetch::Strategy strategy)
{
    for (int row = 0; row < RowCount; ++row) {
        if (Rows[row] == strategy)
            return row;
    }
    return RowCount - 1;
}

QString MetricsDock::formatMs(double ms)
{
    if (ms < 0)
        return dash();
    const QLocale locale;
    if (ms < 1000)
        return tr("%1 ms").arg(locale.toString(ms, 'f', ms < 10 ? 1 : 0));
    return tr("%1 s").arg(locale.toString(ms / 1000.0, 'f', ms < 10000 ? 2 : 1));
}

QString MetricsDock::formatPercent(double ratio)
{
    // Whole percents where that is exact, one decimal otherwise (as the alarm sentences do).
    const double value = std::round(ratio * 1000.0) / 10.0;
    const QLocale locale;
    const QString number = value == std::round(value) ? locale.toString(qint64(value)) : locale.toString(value, 'f', 1);
    return tr("%1 %").arg(number);
}

void MetricsDock::setPrefetchPause(const QString &reason)
{
    if (reason == m_pauseReason)
        return;
    m_pauseReason = reason;
    setLabelText(m_pause, reason.isEmpty() ? QString() : tr("Prefetch paused: %1").arg(reason));
    m_pause->setVisible(!reason.isEmpty());
    refresh(); // the strategies' states
}

void MetricsDock::setConsent(Prefetch::Consent consent)
{
    if (consent == m_consent)
        return;
    m_consent = consent;
    refresh();
}

void MetricsDock::requestRefresh()
{
    if (!m_coalesce.isActive())
        m_coalesce.start();
}

void MetricsDock::resetStatistics()
{
    if (m_engine) {
        m_engine->metrics().reset();
        m_engine->cachedAnswers().resetCounters();
    }
    refresh();
}

void MetricsDock::setRowTexts(int row, const QStringList &texts)
{
    for (int column = 0; column < texts.size(); ++column) {
        QTableWidgetItem *item = m_table->item(row, column);
        if (item->text() != texts.at(column))
            item->setText(texts.at(column));
    }
}

void MetricsDock::refresh()
{
    m_coalesce.stop();
    // Hidden (closed, or a tab behind another dock): nothing to paint; catch up when shown.
    if (!m_engine || !isVisible()) {
        m_dirty = true;
        return;
    }
    m_dirty = false;
    ++m_refreshCount;

    using Prefetch::LatencyKind;
    const Prefetch::Metrics &metrics = m_engine->metrics();
    const QLocale locale;

    const Prefetch::Percentiles hit = metrics.perceivedAll(LatencyKind::Hit);
    const Prefetch::Percentiles miss = metrics.perceivedAll(LatencyKind::Miss);
    const Prefetch::Percentiles none = metrics.perceivedAll(LatencyKind::NoPrefetch);
    setLabelText(m_p50, tr("Perceived p50: hit %1 · miss %2 · none %3")
                            .arg(formatMs(hit.p50), formatMs(miss.p50), formatMs(none.p50)));
    setLabelText(m_p95, tr("Perceived p95: hit %1 · miss %2 · none %3")
                            .arg(formatMs(hit.p95), formatMs(miss.p95), formatMs(none.p95)));
    const QString perceivedTip = tr("From the user's action to the first token shown, over the latest answers: %1 "
                                    "taken over from a prefetch, %2 after a wrong guess, %3 with nothing prefetched.")
                                     .arg(locale.toString(qint64(hit.count)), locale.toString(qint64(miss.count)),
                                          locale.toString(qint64(none.count)));
    setToolTipIfChanged(m_p50, perceivedTip);
    setToolTipIfChanged(m_p95, perceivedTip);

    m_chart->setSamples(metrics.recentSamples(ChartSamples), Llm::monotonicNowNs());

    const Llm::Prices &prices = m_engine->profile().prices;
    const bool priced = !prices.isFree();
    QTableWidgetItem *moneyHeader = m_table->horizontalHeaderItem(ExtraMoneyColumn);
    if (const QString header = tr("Extra, %1").arg(currencySymbol(prices.currency)); moneyHeader->text() != header)
        moneyHeader->setText(header);

    QStringList reasons;
    const Prefetch::SpeculationPlan plan = Prefetch::SpeculationPlan::of(*m_engine, m_consent, m_pauseReason);
    for (int row = 0; row < RowCount; ++row) {
        const Prefetch::Strategy strategy = Rows[row];
        const Prefetch::StrategyStats st = metrics.stats(strategy);
        const Prefetch::Percentiles ttft = metrics.ttft(strategy);
        const bool baseline = strategy == Prefetch::Strategy::None;
        // The baseline row has every answer nothing was prefetched for; a strategy's row those
        // it had a prefetch for. Its own answers without one are in the baseline, not here too.
        const qint64 answers = baseline ? metrics.answersAll(LatencyKind::NoPrefetch) : st.answersHit + st.answersMiss;
        const Prefetch::Percentiles perceived = baseline ? none : metrics.perceivedPrefetched(strategy);

        QString state;
        QStringList rowReasons;
        if (!st.degradedReason.isEmpty())
            rowReasons << st.degradedReason;
        if (!st.alarmReason.isEmpty())
            rowReasons << st.alarmReason;
        if (baseline)
            state = dash();
        else if (st.degraded)
            state = st.alarm ? tr("Paused, alarm") : tr("Paused");
        else if (st.alarm)
            state = tr("Alarm");
        else if (const auto entry = plan.entry(strategy); !entry.runs()) {
            switch (entry.state) {
            case Prefetch::SpeculationPlan::State::AwaitingConsent: state = tr("Waiting for your consent"); break;
            case Prefetch::SpeculationPlan::State::NotAllowed: state = tr("Off (not allowed)"); break;
            case Prefetch::SpeculationPlan::State::NotWorthIt: state = tr("Not with this provider"); break;
            case Prefetch::SpeculationPlan::State::Paused:
                state = m_pauseReason.isEmpty() ? tr("On hold (rate limit)") : tr("On hold (%1)").arg(m_pauseReason);
                break;
            default: state = tr("Off"); break;
            }
        } else if (st.tooFewAttempts)
            state = tr("Active (too few attempts yet: %1 of %2)")
                        .arg(locale.toString(st.attempts),
                             locale.toString(std::max(1, metrics.settings().minAttemptsForAlarm)));
        else
            state = tr("Active");
        reasons << rowReasons; // the early warning is not an alarm: the tooltip has it, not the alarm line
        if (st.tooFewAttempts && !st.alarm && !st.degraded)
            rowReasons << st.tooFewAttemptsReason;

        // Waste with nothing used yet has no finite ratio: said in words, and the tooltip has the
        // amounts.
        QString extraTokens = dash();
        if (!baseline && st.tokensUsed == 0 && st.tokensWasted > 0)
            extraTokens = tr("none used");
        else if (!baseline && (st.tokensUsed > 0 || st.tokensWasted > 0))
            extraTokens = formatPercent(st.extraCostTokens());
        QString extraMoney = dash();
        if (priced && !baseline && strategy != Prefetch::Strategy::Warmup) {
            if (st.costUsed == 0 && st.costWasted > 0)
                extraMoney = tr("none used");
            else if (st.costUsed > 0 || st.costWasted > 0)
                extraMoney = formatPercent(st.extraCostMoney());
        }

        setRowTexts(row,
                    {Prefetch::Metrics::strategyName(strategy), locale.toString(answers), formatMs(perceived.p50),
                     baseline ? dash() : locale.toString(st.attempts), baseline ? dash() : locale.toString(st.hits),
                     baseline ? dash() : locale.toString(st.partialHits),
                     baseline ? dash() : locale.toString(st.misses),
                     baseline || st.attempts == 0 ? dash() : formatPercent(st.hitRate()),
                     baseline ? dash() : locale.toString(st.tokensWasted), extraTokens, extraMoney,
                     locale.toString(st.cacheReadTokens), formatMs(ttft.p50), formatMs(ttft.p95), state});

        QString tip =
            baseline
                ? tr("Answers with nothing prefetched to take over, whichever strategy asked for them: %1; perceived "
                     "p50 %2, p95 %3.")
                      .arg(locale.toString(answers), formatMs(perceived.p50), formatMs(perceived.p95))
                : tr("Hits %1, partial hits %2, misses %3, cancelled %4, expired %5, failed %6, preempted %7, "
                     "rejected %8; tokens prefetched %9, used %10, wasted %11.")
                      .arg(locale.toString(st.hits), locale.toString(st.partialHits), locale.toString(st.misses),
                           locale.toString(st.cancelled), locale.toString(st.expired), locale.toString(st.failed),
                           locale.toString(st.preempted), locale.toString(st.rejectedBudget + st.rejectedLane),
                           locale.toString(st.tokensPrefetched))
                      .arg(locale.toString(st.tokensUsed), locale.toString(st.tokensWasted));
        if (priced && !baseline && strategy != Prefetch::Strategy::Warmup)
            tip += QLatin1Char(' ')
                   + tr("In money: %1 prefetched, %2 used, %3 wasted.")
                         .arg(formatMoney(st.costPrefetched, prices.currency),
                              formatMoney(st.costUsed, prices.currency), formatMoney(st.costWasted, prices.currency));
        if (!baseline)
            tip = plan.entry(strategy).note + QLatin1Char('\n') + tip; // how it runs here, or why not
        if (!rowReasons.isEmpty()) // an alarm or a pause first: it is what the user came to read
            tip = rowReasons.join(QLatin1Char('\n')) + QLatin1Char('\n') + tip;
        const bool warn = st.alarm || st.degraded;
        for (int column = 0; column < ColumnCount; ++column) {
            QTableWidgetItem *item = m_table->item(row, column);
            if (item->toolTip() != tip)
                item->setToolTip(tip);
        }
        QTableWidgetItem *stateItem = m_table->item(row, StateColumn);
        const QBrush stateBrush = warn ? QBrush(errorColor(palette())) : QBrush();
        if (stateItem->foreground() != stateBrush)
            stateItem->setForeground(stateBrush);
    }
    // Alarms and pauses are spelled out, not only in tooltips.
    setLabelText(m_alarms, reasons.join(QLatin1Char('\n')));
    if (const QColor color = errorColor(palette()); m_alarms->palette().color(QPalette::WindowText) != color) {
        QPalette p; // only this role, so the label follows palette changes otherwise
        p.setColor(QPalette::WindowText, color);
        m_alarms->setPalette(p);
    }
    if (m_alarms->isHidden() != reasons.isEmpty())
        m_alarms->setVisible(!reasons.isEmpty());

    const Prefetch::StrategyStats warmup = metrics.stats(Prefetch::Strategy::Warmup);
    setLabelText(m_cache, tr("Cache-hit tokens from warm-up: %1 read, %2 written")
                              .arg(locale.toString(warmup.cacheReadTokens), locale.toString(warmup.cacheWriteTokens)));

    // The classifier's own line, once it has asked anything: the strategies' rows do not hold it.
    const Prefetch::ClassifierStats classifier = metrics.classifier();
    const bool asked = classifier.requests > 0 || classifier.refused > 0;
    if (asked)
        setLabelText(m_classifier,
                     tr("Draft classifier (fast model): %1 asked, %2 closed early, %3 to the heuristic · "
                        "%4 tokens · %5")
                         .arg(locale.toString(classifier.requests), locale.toString(classifier.truncated),
                              locale.toString(classifier.fallbacks + classifier.refused + classifier.cancelled),
                              locale.toString(classifier.inputTokens + classifier.outputTokens),
                              formatMoney(classifier.cost, prices.currency)));
    if (m_classifier->isHidden() == asked)
        m_classifier->setVisible(asked);

    refreshRouting();
    refreshResponseCache();

    setLabelText(m_sessions,
                 tr("Running now: %1 · asked for by you: %2 · started early: %3, waiting to start: %4")
                     .arg(locale.toString(qint64(m_engine->liveSessions().size())),
                          locale.toString(m_engine->foregroundInFlight()),
                          locale.toString(m_engine->prefetchInFlight()), locale.toString(m_engine->prefetchQueued())));

    refreshBudgets();
    emit refreshed();
}

void MetricsDock::refreshRouting()
{
    // Only where routing has answered anything: a profile without a fast model never does.
    const Prefetch::RoutingStats routing = m_engine->metrics().routing();
    const bool routed = routing.fastAnswers > 0;
    if (routed) {
        const QLocale locale;
        setLabelText(m_routing, tr("Fast model: answers %1, p50 %2 · main model: %3, p50 %4 · asked again %5")
                                    .arg(locale.toString(routing.fastAnswers), formatMs(routing.fast.p50),
                                         locale.toString(routing.mainAnswers), formatMs(routing.main.p50),
                                         locale.toString(routing.reasked)));
    }
    if (m_routing->isHidden() == routed)
        m_routing->setVisible(routed);

    const Prefetch::AcknowledgementStats ack = m_engine->metrics().acknowledgement();
    const bool acknowledged = ack.requests > 0 || ack.refused > 0;
    if (acknowledged) {
        const QLocale locale;
        const Llm::Prices &prices = m_engine->profile().prices; // the currency: the fast model is billed in it too
        setLabelText(m_acknowledgement,
                     tr("Instant acknowledgement (fast model): %1 sent, %2 shown after %3 and %4 before the answer, "
                        "%5 late, %6 cancelled or not sent · %7 tokens · %8")
                         .arg(locale.toString(ack.requests), locale.toString(ack.shown),
                              ack.shown > 0 ? formatMs(ack.shownMsMean()) : QStringLiteral("–"),
                              ack.leads > 0 ? formatMs(ack.leadMsMean()) : QStringLiteral("–"),
                              locale.toString(ack.late), locale.toString(ack.refused + ack.cancelled),
                              locale.toString(ack.inputTokens + ack.outputTokens))
                         .arg(formatMoney(ack.cost, prices.currency)));
    }
    if (m_acknowledgement->isHidden() == acknowledged)
        m_acknowledgement->setVisible(acknowledged);
}

void MetricsDock::refreshResponseCache()
{
    const Prefetch::CachedAnswers &cached = m_engine->cachedAnswers();
    const bool on = cached.cache() && m_engine->settings().cache.enabled;
    if (!on) {
        setLabelText(m_responseCache, tr("Response cache: off"));
        m_decisionLog->setEnabled(cached.cache() != nullptr);
        return;
    }
    const Prefetch::CachedAnswers::Counters &c = cached.counters();
    const QLocale locale;
    setLabelText(m_responseCache,
                 // Counts as "name: n", which reads right in English at 1 as at 2.
                 tr("Response cache: exact %1, similar served %2, drafts %3 (replaced %4), misses %5 · saved %6 · "
                    "answers kept %7")
                     .arg(locale.toString(c.exactHits), locale.toString(c.nearServed), locale.toString(c.nearDrafts),
                          locale.toString(c.draftsReplaced), locale.toString(c.misses), formatMs(double(c.savedMs)),
                          locale.toString(cached.cache()->count())));
    m_decisionLog->setEnabled(true);
}

void MetricsDock::refreshBudgets()
{
    const QLocale locale;
    Prefetch::TokenBudget &budget = m_engine->budget();
    const qint64 limit = budget.limit();
    const qint64 used = budget.used();
    if (limit > 0) {
        setLabelText(m_budgetText, tr("Budget: %1 of %2 tokens this hour (%3)")
                                       .arg(locale.toString(used), locale.toString(limit),
                                            formatPercent(double(used) / double(limit))));
        m_budgetBar->setValue(int(std::min<qint64>(BudgetBarSteps, used * BudgetBarSteps / limit)));
        m_budgetBar->setVisible(true);
    } else {
        setLabelText(m_budgetText, tr("Budget: %1 tokens this hour, no limit").arg(locale.toString(used)));
        m_budgetBar->setVisible(false);
    }

    // Money: kept in millionths of the currency, shown in it; only where it limits anything.
    const Llm::Prices &prices = m_engine->profile().prices;
    Prefetch::TokenBudget &money = m_engine->moneyBudget();
    const bool moneyApplies = money.limit() > 0 && !prices.isFree();
    if (moneyApplies) {
        const double moneyLimit = double(money.limit()) / 1e6;
        const double moneyUsed = double(money.used()) / 1e6;
        setLabelText(m_moneyBudgetText,
                     tr("Money budget: %1 of %2 this hour (%3)")
                         .arg(formatMoney(moneyUsed, prices.currency), formatMoney(moneyLimit, prices.currency),
                              formatPercent(moneyUsed / moneyLimit)));
    }
    if (m_moneyBudgetText->isHidden() == moneyApplies)
        m_moneyBudgetText->setVisible(moneyApplies);
}

} // namespace Gui
