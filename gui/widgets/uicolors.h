#pragma once

#include "gui/widgets/colorschemes.h"

#include <QColor>
#include <QPalette>

namespace Gui {

// No palette role means "error" or "alarm": a red whose lightness follows the palette, so it
// stays readable on light and dark windows alike.
inline QColor errorColor(const QPalette &palette)
{
    return QColor::fromHslF(0.0f, 0.75f, isDark(palette) ? 0.72f : 0.38f);
}

} // namespace Gui
