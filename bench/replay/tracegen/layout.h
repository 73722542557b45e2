#pragma once

#include "random.h"

#include <array>

namespace Bench::Gen {

class Session;

struct Point {
    double x = 0;
    double y = 0;
};

// A widget's rectangle in window pixels. A pixel (px, py) is inside when x <= px < x + w and
// y <= py < y + h, as QRect::contains() has it.
struct Rect {
    int x = 0;
    int y = 0;
    int w = 0;
    int h = 0;

    bool contains(qint64 px, qint64 py) const { return px >= x && px < x + w && py >= y && py < y + h; }
    Point centre() const { return {x + (w - 1) / 2.0, y + (h - 1) / 2.0}; }
    Rect shrunk(int by) const { return {x + by, y + by, std::max(1, w - 2 * by), std::max(1, h - 2 * by)}; }
    // A point drawn uniformly inside, `margin` pixels from the edges.
    Point pointIn(Random &rng, int margin = 0) const;
};

// The main window as the app lays it out (ui/mainwindow.cpp): the document tabs on the left, the
// answer column (the five action buttons in a row above the answer pane) in the middle, the chat
// dock on the right; and the new-document wizard, a dialog centred on the window.
struct Layout {
    Rect window;
    std::array<Rect, 5> buttons; // toolbar order: summarize, continue, rewrite, translate, explain
    Rect tabBar;
    Rect document; // the document's text (the editor's viewport)
    Rect answer;   // the answer pane
    bool chatVisible = false;
    Rect conversations; // the chat dock's conversation list
    Rect transcript;
    Rect chatInput;
    Rect wizard;        // the wizard dialog, when it is open
    int lineHeight = 0; // of the document's text
    int charWidth = 0;

    // The button under a pixel, or -1.
    int buttonAt(qint64 px, qint64 py) const;
    // The first document tab is index 0, the second 1.
    Rect tab(int index) const;
    // Where the wizard's fields and buttons are (inside `wizard`).
    Rect wizardField(int row) const;    // 0 topic, 1 audience, 2 tone, 3 length; the step's text
    Rect wizardButton(int which) const; // 0 Back, 1 Next / Finish, 2 Cancel
};

// A window size, style and dock state drawn for one trace (users' screens and desktops differ).
Layout drawLayout(Random &rng, double chatVisibleChance);

// The "layout" line: buttons, document and, with the dock shown, chat_input.
void writeLayout(Session &s, const Layout &layout);

} // namespace Bench::Gen
