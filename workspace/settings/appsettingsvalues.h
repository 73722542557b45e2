#pragma once

// What a value in the settings must be, shared by the loader (appsettings.cpp) and the setters
// of per-provider overrides (appsettingsproviders.cpp), so that a value the file may hold and a
// value the dialog may set are one rule.

#include "workspace/settings/appsettings.h"

#include <cmath>
#include <cstddef>

namespace Gui::SettingsValues {

inline int indexOf(PriceField field)
{
    return static_cast<int>(field);
}

inline size_t indexOf(TimeoutField field)
{
    return static_cast<size_t>(field);
}

inline bool isTimeout(TimeoutField field, double seconds)
{
    return std::trunc(seconds) == seconds && seconds >= Limits::MinTimeoutSeconds[indexOf(field)]
        && seconds <= Limits::MaxTimeoutSeconds[indexOf(field)];
}

// 0 is off; anything else must be a budget Anthropic accepts.
inline bool isThinkingBudget(double tokens)
{
    return tokens == 0
        || (std::trunc(tokens) == tokens && tokens >= Limits::MinThinkingBudgetTokens
            && tokens <= Limits::MaxThinkingBudgetTokens);
}

inline bool isPrice(double perMillion)
{
    return std::isfinite(perMillion) && perMillion >= 0 && perMillion <= Limits::MaxPricePerMillion;
}


} // namespace Gui::SettingsValues
