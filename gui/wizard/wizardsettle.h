#pragma once

#include <chrono>

namespace Gui {

// A pause in typing this long means the user is done for now, on every page of the wizard (the
// typing prefetch uses the same figure): the moment the next step can be predicted.
inline constexpr std::chrono::milliseconds WizardSettleDelay{350};

} // namespace Gui
