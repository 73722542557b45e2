#pragma once

#include <QString>

namespace Prefetch {

// Where a request came from. `None` is an activation no prefetch was attempted for (a keyboard
// shortcut with no hover, a send with no pause); its latency is the baseline the others beat.
enum class Strategy { Warmup, Hover, Debounce, Workflow, None };

inline constexpr Strategy AllStrategies[] = {Strategy::Warmup, Strategy::Hover, Strategy::Debounce,
                                             Strategy::Workflow};

// Stable lower-case identifiers for JSON, settings keys and logs: "warmup", "hover", ...
const char *strategyId(Strategy strategy);

} // namespace Prefetch
