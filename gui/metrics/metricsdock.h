#pragma once

#include "prefetch/speculationplan.h"
#include "prefetch/strategy.h"

#include <QDockWidget>
#include <QPointer>
#include <QTimer>

class QAction;
class QLabel;
class QToolButton;
class QProgressBar;
class QTableWidget;

namespace Prefetch {
class Engine;
class Speculator;
} // namespace Prefetch

namespace Gui {

class LatencyChart;
class SelectionLearningLine;

// The live metrics panel: perceived latency p50/p95 for hits, misses and answers without a
// prefetch; per strategy the answers it had a prefetch for and their perceived p50 (the "No
// prefetch" row has the answers nothing was prefetched for, whichever strategy asked, so each
// answer is in one row), attempts, full hits, partial hits, misses, hit rate, wasted tokens,
// extra cost in tokens and in money (where the provider has prices), cache-read tokens, TTFT
// and state (active, off, alarm, paused, with the reason, or why numbers past an alarm line
// raise none yet); warm-up cache hits; live sessions
// and lanes; the hourly budgets; a chart of recent perceived latencies.
//
// Refreshes on Metrics::changed (coalesced by Metrics to at most 10 Hz) and Engine::
// sessionsChanged (coalesced here to once per event-loop pass), by updating the texts of
// widgets made once; while hidden it only notes that a refresh is due. GUI thread.
class MetricsDock : public QDockWidget
{
    Q_OBJECT

public:
    enum Column {
        StrategyColumn,
        AnswersColumn,
        PerceivedP50Column,
        AttemptsColumn,
        HitsColumn,
        PartialHitsColumn,
        MissesColumn,
        HitRateColumn,
        WastedColumn,
        ExtraTokensColumn,
        ExtraMoneyColumn,
        CacheReadColumn,
        TtftP50Column,
        TtftP95Column,
        StateColumn,
        ColumnCount
    };

    explicit MetricsDock(Prefetch::Engine *engine, QWidget *parent = nullptr);

    // The table's row of a strategy (Strategy::None, the baseline, is the last row).
    static int rowOf(Prefetch::Strategy strategy);

    QAction *resetAction() const { return m_reset; }
    LatencyChart *chart() const { return m_chart; }
    QTableWidget *table() const { return m_table; }
    QLabel *perceivedP50Label() const { return m_p50; }
    QLabel *perceivedP95Label() const { return m_p95; }
    QLabel *alarmsLabel() const { return m_alarms; }
    QLabel *cacheLabel() const { return m_cache; }
    QLabel *sessionsLabel() const { return m_sessions; }
    QLabel *budgetLabel() const { return m_budgetText; }
    QProgressBar *budgetBar() const { return m_budgetBar; }
    // Shown only while a money budget applies (a limit set, a provider with prices).
    QLabel *moneyBudgetLabel() const { return m_moneyBudgetText; }
    // Shown while speculation etiquette pauses prefetch (MainWindow::setPrefetchPause).
    QLabel *pauseLabel() const { return m_pause; }
    void setPrefetchPause(const QString &reason);
    // Whether the provider in use may be sent text early: a strategy that waits for it, or was
    // not allowed, says so in its state (Prefetch::SpeculationPlan).
    void setConsent(Prefetch::Consent consent);
    // Where the early signals learn: the panel says in words what the selection learnt.
    void setSpeculator(Prefetch::Speculator *speculator);
    SelectionLearningLine *selectionLearningLine() const { return m_selectionLearning; }
    // How many refreshes ran (tests check that a burst of records costs only a few).
    int refreshCount() const { return m_refreshCount; }

    // Milliseconds and ratios the way the panel shows them, in the current locale.
    static QString formatMs(double ms);
    static QString formatPercent(double ratio);

public slots:
    void refresh();

signals:
    void refreshed();

private:
    void requestRefresh();
    void resetStatistics();
    void setRowTexts(int row, const QStringList &texts);
    void refreshBudgets();
    void refreshRouting();
    void refreshResponseCache();

    QPointer<Prefetch::Engine> m_engine;
    QAction *m_reset;
    QLabel *m_p50;
    QLabel *m_p95;
    LatencyChart *m_chart;
    QTableWidget *m_table;
    QLabel *m_alarms;
    QLabel *m_pause;
    Prefetch::Consent m_consent = Prefetch::Consent::NotNeeded;
    QString m_pauseReason; // empty: not paused
    QLabel *m_cache;
    QLabel *m_classifier;
    QLabel *m_routing;         // fast/slow routing: answers and p50 per model, re-asks
    QLabel *m_acknowledgement; // the instant acknowledgement: sent, shown, lead, cost
    QLabel *m_responseCache;   // the response cache's decisions, with its decision log a click away
    QToolButton *m_decisionLog;
    SelectionLearningLine *m_selectionLearning;
    QLabel *m_sessions;
    QLabel *m_budgetText;
    QProgressBar *m_budgetBar;
    QLabel *m_moneyBudgetText;
    QTimer m_coalesce; // zero-interval: one refresh for a burst of sessionsChanged
    QTimer m_slowTick; // the budget's hour slides on without any signal
    bool m_dirty = true;
    int m_refreshCount = 0;
};

} // namespace Gui
