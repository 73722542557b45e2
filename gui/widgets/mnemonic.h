#pragma once

#include <QString>

namespace Gui {

// An action's or label's text without its mnemonic: "&Summarize" → "Summarize",
// "总结(&S)" → "总结", "Save &As…" → "Save As…" ("&&" stays one "&"). For buttons that repeat an
// action, accessible names and the shortcut list.
QString withoutMnemonic(QString text);

} // namespace Gui
