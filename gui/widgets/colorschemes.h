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

// `palette` for check boxes and radio buttons (QApplication::setPalette(…, "QCheckBox")). Fusion
// fills their box with Base and outlines it a shade darker than Window: on a dark palette both
// are near-black on near-black and the box all but vanishes (the find bar's "Match case"). Dark,
// the box gets a Base as much lighter than Window as the text field's is darker; light, unchanged.
QPalette indicatorPalette(const QPalette &palette);

} // namespace Gui
