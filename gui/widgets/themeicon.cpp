#include "gui/widgets/themeicon.h"

#include <QApplication>

namespace Gui {

QIcon themeIcon(const char *name, QStyle::StandardPixmap fallback)
{
    const QIcon shipped = fallback == QStyle::SP_CustomBase ? QIcon() : QApplication::style()->standardIcon(fallback);
    return QIcon::fromTheme(QLatin1String(name), shipped);
}

} // namespace Gui
