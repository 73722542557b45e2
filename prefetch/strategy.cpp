#include "strategy.h"

namespace Prefetch {

const char *strategyId(Strategy strategy)
{
    switch (strategy) {
    case Strategy::Warmup: return "warmup";
    case Strategy::Hover: return "hover";
    case Strategy::Debounce: return "debounce";
    case Strategy::Workflow: return "workflow";
    case Strategy::None: return "none";
    }
    return "none";
}

} // namespace Prefetch
