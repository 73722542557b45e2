#pragma once

#include <QString>

namespace Gui {

// How an amount of a provider's currency (an ISO 4217 code, Llm::Prices::currency) is written:
// "$" for US dollars, "¥" for yuan, "€" for euros, the code itself for any other.
QString currencySymbol(const QString &code);

// `amount` in the current locale with its currency: "$0.30", "$15.00", "$0.0042", "CHF 1.20".
// At least two decimals, and as many more as it takes to show two significant digits of an
// amount below a cent (at most six, trailing zeros dropped): a prefetch often costs a fraction
// of a cent.
QString formatMoney(double amount, const QString &code);

} // namespace Gui
