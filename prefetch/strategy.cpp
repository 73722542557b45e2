#include "strategy.h"

namespace Prefetch {

const char *strategyId(Strategy strategy)
{
    switch (strategy) {
    case Strategy::Warmup: return "warmup";
    case Strategy::Hover: return "hover";
    case Strategy::Debounce: return "debounce";
    case Strategy::Workflow: return "workflow";
    case Strategy::Trajectory: return "trajectory";
    case Strategy::Selection: return "selection";
    case Strategy::Keyboard: return "keyboard";
    case Strategy::Reading: return "reading";
    case Strategy::Habits: return "habits";
    case Strategy::None: return "none";
    }
    return "none";
}

std::optional<Strategy> strategyFromId(QStringView id)
{
    for (Strategy s : AllStrategies) {
        if (id == QLatin1String(strategyId(s)))
            return s;
    }
    if (id == u"none")
        return Strategy::None;
    return std::nullopt;
}

} // namespace Prefetch
