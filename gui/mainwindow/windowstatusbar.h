#pragma once

#include "prefetch/speculationplan.h"

#include <QStatusBar>

class QLabel;

namespace Prefetch {
class Engine;
}

namespace Gui {

// The window's status bar: the provider and model, the prefetch budget left this hour, what
// speculation does here (or why it is paused) with each strategy in the tooltip, and the state
// of the answer the user asked for. Messages (QStatusBar::showMessage) go over the first two.
class WindowStatusBar : public QStatusBar
{
    Q_OBJECT

public:
    explicit WindowStatusBar(Prefetch::Engine *engine, QWidget *parent = nullptr);

    // Reads the provider, the budget and the plan again.
    void refresh();
    // Speculation paused for `reason` (translated), or not (empty): said instead of the plan.
    void setPause(const QString &reason);
    QString pause() const { return m_pause; }
    void setConsent(Prefetch::Consent consent);
    Prefetch::Consent consent() const { return m_consent; }
    // "Ready", "Streaming"…: the answer the user asked for.
    void setAnswerState(const QString &state);
    // "Early answers: on", or why not; its tooltip has each strategy.
    QLabel *speculationLabel() const { return m_speculationLabel; }

private:
    Prefetch::Engine *m_engine;
    QLabel *m_providerLabel;
    QLabel *m_budgetLabel;
    QLabel *m_pauseLabel; // shown while speculation etiquette holds prefetch back
    QLabel *m_speculationLabel;
    QLabel *m_stateLabel;
    QString m_pause;
    Prefetch::Consent m_consent = Prefetch::Consent::NotNeeded;
};

} // namespace Gui
