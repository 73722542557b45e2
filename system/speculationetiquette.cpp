#include "speculationetiquette.h"

#include "log.h"

#include "prefetch/engine.h"

#include <spdlog/spdlog.h>

namespace System {

SpeculationEtiquette::SpeculationEtiquette(Prefetch::Engine *engine, DesktopConditions *conditions, QObject *parent)
    : QObject(parent)
    , m_engine(engine)
    , m_conditions(conditions)
{
    connect(m_conditions, &DesktopConditions::conditionsChanged, this, &SpeculationEtiquette::apply);
    apply();
}

SpeculationEtiquette::~SpeculationEtiquette()
{
    // The engine may outlive this (tests): it must not stay suspended for a reason nobody holds.
    if (m_engine)
        m_engine->setSpeculationSuspended(Prefetch::Engine::Suspension::Etiquette, false);
}

void SpeculationEtiquette::setEnabled(bool enabled)
{
    if (enabled == m_enabled)
        return;
    m_enabled = enabled;
    apply();
}

void SpeculationEtiquette::apply()
{
    // As browsers do: battery saver and a low battery pause, running on battery alone does not
    // (a laptop unplugged would otherwise never get an early answer).
    DesktopConditions::Conditions conditions = m_enabled && m_conditions ? m_conditions->conditions()
                                                                         : DesktopConditions::Conditions();
    conditions.setFlag(DesktopConditions::Condition::OnBattery, false);
    const QString reason = DesktopConditions::describe(conditions);
    if (m_engine)
        m_engine->setSpeculationSuspended(Prefetch::Engine::Suspension::Etiquette, !reason.isEmpty());
    if (reason == m_reason)
        return;
    if (reason.isEmpty())
        log().info("speculation resumed");
    else if (m_reason.isEmpty())
        log().info("speculation paused for the desktop's power or network state");
    m_reason = reason;
    emit pauseChanged(m_reason);
}

} // namespace System
