#include "workspace/settings/prefetchpresets.h"

#include "workspace/settings/prefetchparameters.h"

namespace Gui {

using namespace std::chrono_literals;

void PrefetchPresets::apply(PrefetchPreset preset, Prefetch::Settings &settings)
{
    if (preset == PrefetchPreset::Custom)
        return;
    // Balanced first: the other two are told apart from it.
    const Prefetch::Settings defaults;
    const bool on = preset != PrefetchPreset::Off;
    settings.warmup.enabled = on && defaults.warmup.enabled;
    settings.hover.enabled = on && defaults.hover.enabled;
    settings.debounce.enabled = on && defaults.debounce.enabled;
    settings.debounce.suggestFollowUps = on && defaults.debounce.suggestFollowUps;
    settings.workflow.enabled = on && defaults.workflow.enabled;
    settings.trajectory.enabled = on && defaults.trajectory.enabled;
    settings.selection.enabled = on && defaults.selection.enabled;
    settings.keyboard.enabled = on && defaults.keyboard.enabled;
    settings.reading.enabled = on && defaults.reading.enabled;
    settings.habits.enabled = on && defaults.habits.enabled;
    settings.hover.delay = defaults.hover.delay;
    settings.debounce.delay = defaults.debounce.delay;
    settings.speculation.maxAnswers = defaults.speculation.maxAnswers;
    settings.hourlyTokenBudget = defaults.hourlyTokenBudget;
    settings.hourlyMoneyBudget = defaults.hourlyMoneyBudget;
    settings.extraCostCeiling = defaults.extraCostCeiling;
    settings.extraCostResume = defaults.extraCostResume;
    if (preset != PrefetchPreset::Eager)
        return;
    settings.hover.delay = 80ms;
    settings.debounce.delay = 250ms;
    settings.speculation.maxAnswers = 3;
    settings.hourlyTokenBudget = defaults.hourlyTokenBudget * 5 / 2;
    settings.hourlyMoneyBudget = defaults.hourlyMoneyBudget * 2.5;
    settings.extraCostCeiling = 1.0;
    settings.extraCostResume = 0.8;
}

PrefetchPreset PrefetchPresets::of(const Prefetch::Settings &settings)
{
    for (const PrefetchPreset preset : {PrefetchPreset::Off, PrefetchPreset::Balanced, PrefetchPreset::Eager}) {
        Prefetch::Settings set = settings;
        apply(preset, set);
        if (PrefetchParameters::same(set, settings))
            return preset;
    }
    return PrefetchPreset::Custom;
}

} // namespace Gui
