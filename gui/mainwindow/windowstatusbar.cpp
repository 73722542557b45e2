#include "gui/mainwindow/windowstatusbar.h"

#include "gui/widgets/elidedlabel.h"

#include "prefetch/engine.h"
#include "prefetch/metrics.h"

#include <QLabel>
#include <QLocale>

namespace Gui {

WindowStatusBar::WindowStatusBar(Prefetch::Engine *engine, QWidget *parent)
    : QStatusBar(parent)
    , m_engine(engine)
    , m_providerLabel(new ElidedLabel(this))
    , m_budgetLabel(new ElidedLabel(this))
    , m_pauseLabel(new QLabel(this))
    , m_speculationLabel(new QLabel(this))
    , m_stateLabel(new QLabel(this))
{
    // The provider and the budget give way in a narrow window (cut with "…", the whole in the
    // tooltip) instead of setting its minimum width.
    addWidget(m_providerLabel, 2);
    m_pauseLabel->setObjectName(QStringLiteral("prefetchPauseLabel"));
    m_pauseLabel->setVisible(false);
    addPermanentWidget(m_pauseLabel);
    m_speculationLabel->setObjectName(QStringLiteral("speculationLabel"));
    addPermanentWidget(m_speculationLabel);
    addPermanentWidget(m_budgetLabel, 1);
    addPermanentWidget(m_stateLabel);
    connect(m_engine, &Prefetch::Engine::suspensionsChanged, this, &WindowStatusBar::refresh);
    connect(&m_engine->metrics(), &Prefetch::Metrics::changed, this, &WindowStatusBar::refresh);
}

void WindowStatusBar::refresh()
{
    const auto &p = m_engine->profile();
    m_providerLabel->setText(tr("Provider: %1 · Model: %2").arg(p.displayName, p.model));
    const qint64 limit = m_engine->budget().limit();
    if (limit <= 0)
        m_budgetLabel->setText(tr("Prefetch budget: unlimited"));
    else
        m_budgetLabel->setText(tr("Prefetch budget left: %1 of %2 tokens this hour")
                                   .arg(QLocale().toString(m_engine->budget().remaining()), QLocale().toString(limit)));
    // What speculation does here, and why not; the etiquette's pause has its own label.
    const Prefetch::SpeculationPlan plan = Prefetch::SpeculationPlan::of(*m_engine, m_consent, m_pause);
    m_speculationLabel->setText(plan.summary());
    QStringList notes;
    for (Prefetch::Strategy s : Prefetch::AllStrategies)
        notes << QStringLiteral("%1: %2").arg(Prefetch::Metrics::strategyName(s), plan.entry(s).note);
    m_speculationLabel->setToolTip(notes.join(QLatin1Char('\n')));
    m_speculationLabel->setVisible(m_pause.isEmpty());
}

void WindowStatusBar::setPause(const QString &reason)
{
    m_pause = reason;
    m_pauseLabel->setText(reason.isEmpty() ? QString() : tr("Prefetch paused: %1").arg(reason));
    m_pauseLabel->setToolTip(reason.isEmpty() ? QString()
                                              : tr("No early answers start until this ends; the answers you ask for "
                                                   "still come. Settings, Prefetch, Battery and network switches "
                                                   "this off."));
    m_pauseLabel->setVisible(!reason.isEmpty());
    refresh();
}

void WindowStatusBar::setConsent(Prefetch::Consent consent)
{
    m_consent = consent;
    refresh();
}

void WindowStatusBar::setAnswerState(const QString &state)
{
    m_stateLabel->setText(state);
}

} // namespace Gui
