#pragma once

#include <QString>
#include <QStringView>

#include <optional>

namespace Prefetch {

// Where a request came from. `None` is an activation no prefetch was attempted for (a keyboard
// shortcut with no hover, a send with no pause); its latency is the baseline the others beat.
//
// The first four are PREFETCH.md's strategies. The next five start earlier, on weaker signals,
// with short prefixes (see SignalStrength): the pointer's predicted target (Trajectory), a
// finished selection (Selection), keyboard focus on an action or a shortcut's modifiers held
// (Keyboard), a document just opened (Reading), and what this user usually does after an answer
// (Habits).
enum class Strategy { Warmup, Hover, Debounce, Workflow, Trajectory, Selection, Keyboard, Reading, Habits, None };

inline constexpr Strategy AllStrategies[] = {Strategy::Warmup,   Strategy::Hover,      Strategy::Debounce,
                                             Strategy::Workflow, Strategy::Trajectory, Strategy::Selection,
                                             Strategy::Keyboard, Strategy::Reading,    Strategy::Habits};
inline constexpr Strategy EarlyStrategies[] = {Strategy::Trajectory, Strategy::Selection, Strategy::Keyboard,
                                               Strategy::Reading, Strategy::Habits};

// How sure a signal makes an answer. A weak one (a selection, the pointer heading somewhere, a
// partly typed draft) makes it possible: its guess asks the provider for a short prefix only,
// and only where the provider can continue one. A strong one (a hover, a press, a complete
// draft, a finished wizard step) makes it likely: it asks for the buffer's worth, or the whole
// answer where the provider cannot continue.
enum class SignalStrength { Weak, Strong };

// Stable lower-case identifiers for JSON, settings keys and logs: "warmup", "hover", ...
const char *strategyId(Strategy strategy);
std::optional<Strategy> strategyFromId(QStringView id);

} // namespace Prefetch
