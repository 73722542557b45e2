#include "layout.h"

#include "session.h"

namespace Bench::Gen {

namespace {

// The action panel measured offscreen (tst_mainwindow, Sans 9 pt, Fusion): QPushButtons of
// 80, 109, 113, 80 and 111 × 22 px ("Summarize" … "Explain Selection"), 6 px apart, under a
// 19 px menu bar and a 29 px tool bar; a 32 px tab bar; a 22 px status bar; the splitter handle
// 4 px. The column holding the buttons is never narrower than the row.
constexpr std::array<int, 5> BaseButtonWidths = {80, 109, 113, 80, 111};
constexpr int BaseButtonHeight = 22;
constexpr int BaseSpacing = 6;
constexpr int BaseMenuBar = 19;
constexpr int BaseToolBar = 29;
constexpr int BaseTabBar = 32;
constexpr int BaseStatusBar = 22;
constexpr int BaseChatInput = 38;
constexpr int BaseLineHeight = 14;
constexpr int BaseCharWidth = 6;

int scaled(int base, double scale)
{
    return int(std::llround(base * scale));
}

} // namespace

Point Rect::pointIn(Random &rng, int margin) const
{
    const int m = std::min(margin, std::max(0, (std::min(w, h) - 1) / 2));
    return {double(x + m + rng.below(std::max(1, w - 2 * m))), double(y + m + rng.below(std::max(1, h - 2 * m)))};
}

int Layout::buttonAt(qint64 px, qint64 py) const
{
    for (size_t i = 0; i < buttons.size(); ++i) {
        if (buttons[i].contains(px, py))
            return int(i);
    }
    return -1;
}

Rect Layout::tab(int index) const
{
    const int w = std::min(tabBar.w / 2, 20 * charWidth);
    return {tabBar.x + index * w, tabBar.y + 2, w - 2, tabBar.h - 4};
}

Rect Layout::wizardField(int row) const
{
    // Label column on the left, fields on the right; the step's text fills the page from row 4.
    const int left = wizard.x + wizard.w / 3;
    const int rowHeight = buttons[0].h + 10;
    const int top = wizard.y + 3 * rowHeight;
    if (row >= 4)
        return {wizard.x + 20, top, wizard.w - 40, wizard.h - 5 * rowHeight};
    return {left, top + row * rowHeight, wizard.w - (left - wizard.x) - 24, buttons[0].h + 2};
}

Rect Layout::wizardButton(int which) const
{
    const int w = buttons[0].w;
    const int h = buttons[0].h;
    const int right = wizard.x + wizard.w - 12;
    return {right - (3 - which) * (w + 8), wizard.y + wizard.h - h - 12, w, h};
}

Layout drawLayout(Random &rng, double chatVisibleChance)
{
    // Assumption: the app's default window (MainWindow resizes to 1280 × 800), a laptop's and two
    // desktops' maximised windows; styles and fonts that make buttons 24–30 px high (Fusion at
    // 10 pt, Windows 11, Breeze) scale the measured panel by 1.1–1.35.
    struct Screen {
        int w;
        int h;
    };
    constexpr std::array<Screen, 4> Screens = {{{1280, 800}, {1366, 728}, {1440, 900}, {1920, 1040}}};
    const int screen = rng.weighted(std::array<int, 4>{40, 15, 15, 30});
    constexpr std::array<double, 4> Scales = {1.1, 1.2, 1.3, 1.35};
    const double scale = Scales[size_t(rng.below(int(Scales.size())))];

    Layout l;
    l.window = {0, 0, Screens[size_t(screen)].w, Screens[size_t(screen)].h};
    const int width = l.window.w;
    const int height = l.window.h;
    const int top = scaled(BaseMenuBar, scale) + scaled(BaseToolBar, scale);
    const int status = scaled(BaseStatusBar, scale);
    const int spacing = scaled(BaseSpacing, scale);
    const int buttonHeight = scaled(BaseButtonHeight, scale);
    l.lineHeight = scaled(BaseLineHeight, scale);
    l.charWidth = scaled(BaseCharWidth, scale);

    int rowWidth = spacing * 4;
    for (int w : BaseButtonWidths)
        rowWidth += scaled(w, scale);
    // The document keeps room for about 40 columns (MainWindow asks for 30 'm's); the dock gives
    // way to it on a small screen.
    const int minimumDocument = 40 * l.charWidth;
    l.chatVisible = rng.chance(chatVisibleChance);
    const int dockWidth = l.chatVisible ? std::min(std::clamp(int(std::llround(width * 0.307)), 300, 440),
                                                   width - (minimumDocument + 4 + rowWidth + spacing))
                                        : 0;
    const int central = width - dockWidth;
    // The splitter gives the document 3/5 unless the answer column would be narrower than its row.
    const int documentWidth = std::min(int(std::llround(central * 0.6)), central - 4 - rowWidth - spacing);
    const int column = documentWidth + 4;

    int x = column;
    for (size_t i = 0; i < l.buttons.size(); ++i) {
        l.buttons[i] = {x, top, scaled(BaseButtonWidths[i], scale), buttonHeight};
        x += l.buttons[i].w + spacing;
    }
    const int tabBarHeight = scaled(BaseTabBar, scale);
    l.tabBar = {0, top, documentWidth, tabBarHeight};
    l.document = {1, top + tabBarHeight + 1, documentWidth - 2, height - status - (top + tabBarHeight + 1) - 1};
    const int answerTop = top + buttonHeight + spacing;
    l.answer = {column, answerTop, central - column, height - status - buttonHeight - 2 * spacing - answerTop};
    if (l.chatVisible) {
        const int dockX = width - dockWidth;
        const int dockTop = top + scaled(47, scale);
        const int inputHeight = scaled(BaseChatInput, scale);
        const int inputTop = height - status - buttonHeight - 2 * spacing - inputHeight;
        l.conversations = {dockX, dockTop, dockWidth, int(std::llround((height - dockTop) * 0.2))};
        const int transcriptTop = l.conversations.y + l.conversations.h + scaled(30, scale);
        l.transcript = {dockX, transcriptTop, dockWidth, inputTop - scaled(30, scale) - transcriptTop};
        l.chatInput = {dockX, inputTop, dockWidth, inputHeight};
    }
    // Assumption: QWizard's pages here are about 560 × 420 at the measured font, centred on the
    // window, and so below the action row whatever the size.
    const int wizardWidth = scaled(560, scale);
    const int wizardHeight = scaled(420, scale);
    l.wizard = {(width - wizardWidth) / 2, std::max(answerTop + 40, (height - wizardHeight) / 2), wizardWidth,
                wizardHeight};
    return l;
}

void writeLayout(Session &s, const Layout &l)
{
    static const std::array<const char *, 5> names = {"summarize", "continue", "rewrite", "translate", "explain"};
    QList<Field> buttons;
    for (size_t i = 0; i < names.size(); ++i)
        buttons.append(rect(names[i], l.buttons[i]));
    if (l.chatVisible)
        s.write("layout", {object("buttons", buttons), rect("document", l.document), rect("chat_input", l.chatInput)});
    else
        s.write("layout", {object("buttons", buttons), rect("document", l.document)});
}

} // namespace Bench::Gen
