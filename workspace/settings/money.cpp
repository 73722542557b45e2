#include "workspace/settings/money.h"

#include <QLocale>

#include <algorithm>
#include <cmath>

namespace Gui {

QString currencySymbol(const QString &code)
{
    if (code == QLatin1String("USD"))
        return QStringLiteral("$");
    if (code == QLatin1String("CNY"))
        return QStringLiteral("¥");
    if (code == QLatin1String("EUR"))
        return QStringLiteral("€");
    return code;
}

QString formatMoney(double amount, const QString &code)
{
    int decimals = 2;
    const double magnitude = std::abs(amount);
    if (magnitude > 0 && magnitude < 0.01)
        decimals = std::min(6, int(std::ceil(-std::log10(magnitude))) + 1);
    const QLocale locale;
    QString number = locale.toString(amount, 'f', decimals);
    // "0.0060" says no more than "0.006".
    for (int shown = decimals; shown > 2 && number.endsWith(locale.zeroDigit()); --shown)
        number.chop(locale.zeroDigit().size());
    const QString symbol = currencySymbol(code);
    // A symbol sits against the number; a code is a word and keeps a space.
    return symbol == code ? symbol + QLatin1Char(' ') + number : symbol + number;
}

} // namespace Gui
