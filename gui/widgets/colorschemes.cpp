#include "gui/widgets/colorschemes.h"

#include <QColor>

namespace Gui {

namespace {

QPalette darkPalette()
{
    const QColor window(45, 45, 48);
    const QColor base(30, 30, 32);
    const QColor text(228, 228, 228);
    const QColor disabledText(128, 128, 132);
    const QColor button(56, 56, 60);
    QPalette p(button, window);
    p.setColor(QPalette::WindowText, text);
    p.setColor(QPalette::Base, base);
    p.setColor(QPalette::AlternateBase, window);
    p.setColor(QPalette::Text, text);
    p.setColor(QPalette::Button, button);
    p.setColor(QPalette::ButtonText, text);
    p.setColor(QPalette::BrightText, QColor(255, 110, 110));
    p.setColor(QPalette::ToolTipBase, QColor(64, 64, 68));
    p.setColor(QPalette::ToolTipText, text);
    p.setColor(QPalette::PlaceholderText, QColor(150, 150, 154));
    p.setColor(QPalette::Light, button.lighter(150));
    p.setColor(QPalette::Midlight, button.lighter(125));
    p.setColor(QPalette::Mid, button.darker(130));
    p.setColor(QPalette::Dark, button.darker(160));
    p.setColor(QPalette::Shadow, QColor(10, 10, 10));
    // Blues a little lighter than the light palette's, so links read on a dark base.
    p.setColor(QPalette::Highlight, QColor(42, 110, 196));
    p.setColor(QPalette::HighlightedText, QColor(255, 255, 255));
    p.setColor(QPalette::Link, QColor(110, 170, 255));
    p.setColor(QPalette::LinkVisited, QColor(180, 140, 255));
    for (const auto role : {QPalette::WindowText, QPalette::Text, QPalette::ButtonText})
        p.setColor(QPalette::Disabled, role, disabledText);
    p.setColor(QPalette::Disabled, QPalette::Base, window);
    p.setColor(QPalette::Disabled, QPalette::Highlight, QColor(80, 80, 84));
    p.setColor(QPalette::Disabled, QPalette::HighlightedText, disabledText);
    return p;
}

} // namespace

QPalette indicatorPalette(const QPalette &palette)
{
    if (!isDark(palette))
        return palette;
    QPalette out = palette;
    for (const auto group : {QPalette::Active, QPalette::Inactive, QPalette::Disabled}) {
        const QColor window = palette.color(group, QPalette::Window);
        out.setColor(group, QPalette::Base, group == QPalette::Disabled ? window.lighter(130) : window.lighter(190));
    }
    return out;
}

QPalette schemePalette(bool dark, const QPalette &desktop, const QPalette &standard)
{
    if (isDark(desktop) == dark)
        return desktop;
    if (isDark(standard) == dark)
        return standard;
    return dark ? darkPalette() : standard;
}

} // namespace Gui
