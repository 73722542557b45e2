#pragma once

#include "prefetch/settings.h"

namespace Gui {

// The Prefetch page's one switch: three documented sets of the parameters that decide how much
// is sent before the user asks, and what it may cost. Each preset sets the same fields (the
// strategies' switches, the hover and typing delays, how many answers a guess covers, the
// hourly budgets and the extra-cost ceiling); everything else (lifetimes, lanes, etiquette,
// alarms' floor, the response cache, the fast model) stays as the user set it.
//
// - Off: nothing is sent early. Every strategy off, the follow-ups' guess too; the user's own
//   requests, the response cache and the fast model work as before.
// - Balanced (the default): Prefetch::Settings' defaults. A strategy pauses itself when the
//   tokens it wastes pass 50 % of those its answers use and resumes under 40 %.
// - Eager: answers start sooner and more of them are guessed: the hover starts after 80 ms
//   instead of 150, the typing pause is 250 ms instead of 350, a weak signal guesses up to three
//   answers instead of two, a strategy may waste up to what it uses (ceiling 100 %, resume at
//   80 %), and the hourly budgets are two and a half times the default. These are choices, not
//   measurements: the benchmark's figures are for Balanced (docs/prefetch.md, "Presets").
//
// Widget-free; the page shows which preset the settings hold (Custom when none).
enum class PrefetchPreset { Off, Balanced, Eager, Custom };

class PrefetchPresets
{
public:
    // Sets `preset`'s fields in `settings` (Custom: nothing).
    static void apply(PrefetchPreset preset, Prefetch::Settings &settings);
    // The preset whose fields `settings` hold, or Custom.
    static PrefetchPreset of(const Prefetch::Settings &settings);
};

} // namespace Gui
