#include "workspace/settings/settingsvalues.h"

#include <QMetaType>
#include <QStringList>

#include <cmath>

namespace Gui::SettingsValues {

std::optional<bool> parseBool(const QVariant &value)
{
    if (value.typeId() == QMetaType::Bool)
        return value.toBool();
    if (value.typeId() != QMetaType::QString)
        return std::nullopt;
    const QString text = value.toString().trimmed().toLower();
    if (text == QLatin1String("true") || text == QLatin1String("1") || text == QLatin1String("yes")
        || text == QLatin1String("on"))
        return true;
    if (text == QLatin1String("false") || text == QLatin1String("0") || text == QLatin1String("no")
        || text == QLatin1String("off"))
        return false;
    return std::nullopt;
}

std::optional<double> parseNumber(const QVariant &value)
{
    double number = 0;
    switch (value.typeId()) {
    case QMetaType::Int:
    case QMetaType::UInt:
    case QMetaType::LongLong:
    case QMetaType::ULongLong:
    case QMetaType::Double:
    case QMetaType::Float: number = value.toDouble(); break;
    case QMetaType::QString: {
        bool ok = false;
        number = value.toString().trimmed().toDouble(&ok); // C locale, as QSettings writes it
        if (!ok)
            return std::nullopt;
        break;
    }
    default: return std::nullopt;
    }
    if (!std::isfinite(number))
        return std::nullopt;
    return number;
}

QString quoted(const QVariant &value)
{
    QString text = value.typeId() == QMetaType::QStringList ? value.toStringList().join(QLatin1String(", "))
                                                            : value.toString();
    if (text.size() > 40)
        text = text.left(40) + QChar(0x2026);
    return text;
}

} // namespace Gui::SettingsValues
