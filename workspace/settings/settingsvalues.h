#pragma once

// How a value read from the settings file is taken, shared by the parts that read it
// (SettingsFile, ProviderOverrides, PrefetchParameters), so that "yes", 1.0 and a pasted novel
// are one rule wherever they appear.

#include <QString>
#include <QVariant>

#include <optional>

namespace Gui::SettingsValues {

// true/1/yes/on and false/0/no/off (any case, trimmed), or a bool; otherwise nothing.
std::optional<bool> parseBool(const QVariant &value);
// A finite number, or text that is one in the C locale (as QSettings writes it); otherwise nothing.
std::optional<double> parseNumber(const QVariant &value);
// A value as the file had it, for a message: a list joined by commas, cut short after 40
// characters if someone pasted a novel there.
QString quoted(const QVariant &value);

} // namespace Gui::SettingsValues
