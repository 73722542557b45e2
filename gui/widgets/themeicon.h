#pragma once

#include <QIcon>
#include <QStyle>

namespace Gui {

// The desktop icon theme's icon called `name` (freedesktop Icon Naming Specification), else the
// style's standard icon `fallback` (shipped with Qt, so a machine without an icon theme still
// shows one), else none: the action keeps its text.
QIcon themeIcon(const char *name, QStyle::StandardPixmap fallback = QStyle::SP_CustomBase);

} // namespace Gui
