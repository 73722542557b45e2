#include "gui/widgets/mnemonic.h"

#include <QRegularExpression>

namespace Gui {

QString withoutMnemonic(QString text)
{
    static const QRegularExpression mnemonic(QStringLiteral("\\(&.\\)|&(?=.)"));
    return text.remove(mnemonic).trimmed();
}

} // namespace Gui
