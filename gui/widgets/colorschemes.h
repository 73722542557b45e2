#pragma once

#include <QPalette>

namespace Gui {

inline bool isDark(const QPalette &palette)
{
    return palette.color(QPalette::Window).lightnessF() < 0.5;
}

// The application palette for a light or dark window. The desktop's own palette is kept when it
// is already what is asked (a platform theme that follows the desktop, KDE's or a dark GTK
// theme); otherwise the style's standard light palette, or a dark one of ours that reads like
// it: the same roles, contrasts and a highlight that stays visible on both.
QPalette schemePalette(bool dark, const QPalette &desktop, const QPalette &standard);

} // namespace Gui
