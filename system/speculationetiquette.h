#pragma once

#include "desktopconditions.h"

#include <QObject>
#include <QPointer>
#include <QString>

namespace Prefetch {
class Engine;
}

namespace System {

// Speculation etiquette: as browsers stop preloading, guesses pause while the desktop asks to
// save power or data (DesktopConditions: on battery, low battery, battery saver, a metered
// connection). It suspends the engine's speculation under its own reason
// (Engine::Suspension::Etiquette), so it neither resumes nor is resumed by the app's closing;
// what the user asks for is never held back. Switched off by the user's setting
// (Prefetch::Settings::pauseOnBatteryAndMetered). GUI thread; the app owns it, after the engine
// and the conditions it is given.
class SpeculationEtiquette : public QObject
{
    Q_OBJECT

public:
    SpeculationEtiquette(Prefetch::Engine *engine, DesktopConditions *conditions, QObject *parent = nullptr);
    ~SpeculationEtiquette() override;

    void setEnabled(bool enabled);
    bool isEnabled() const { return m_enabled; }
    bool isPaused() const { return !m_reason.isEmpty(); }
    // Why speculation is paused, translated ("metered connection"); empty while it is not.
    QString reason() const { return m_reason; }

signals:
    // Paused with `reason`, or resumed (empty), or paused for another reason.
    void pauseChanged(const QString &reason);

private:
    void apply();

    QPointer<Prefetch::Engine> m_engine;
    QPointer<DesktopConditions> m_conditions;
    bool m_enabled = true;
    QString m_reason;
};

} // namespace System
