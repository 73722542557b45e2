#include "documentuser.h"

#include "session.h"

#include "bench/replay/documents.h"

namespace Bench::Gen {

namespace {

// In the toolbar's order (Prefetch::AllDocumentActions): neighbours are neighbours on screen.
constexpr std::array<const char *, 5> Actions = {"summarize", "continue", "rewrite", "translate", "explain"};
constexpr int Rewrite = 2;
// Assumption: a move to a place in the text or the answer aims at a spot of a few lines, not at
// the whole pane (Fitts's W).
constexpr double SpotWidth = 60;
constexpr int Explain = 4;

bool needsSelection(int action)
{
    return action == Rewrite || action == Explain;
}

QString actionName(int action)
{
    return QLatin1String(Actions[size_t(action)]);
}

int actionIndex(const QString &name) // -1: not an action
{
    for (size_t i = 0; i < Actions.size(); ++i) {
        if (name == QLatin1String(Actions[i]))
            return int(i);
    }
    return -1;
}

const QStringList EditWords = {QStringLiteral("we"),         QStringLiteral("measured"), QStringLiteral("the"),
                               QStringLiteral("first"),      QStringLiteral("answer"),   QStringLiteral("again"),
                               QStringLiteral("and"),        QStringLiteral("it"),       QStringLiteral("was"),
                               QStringLiteral("faster"),     QStringLiteral("than"),     QStringLiteral("before"),
                               QStringLiteral("readers"),    QStringLiteral("noticed"),  QStringLiteral("a"),
                               QStringLiteral("difference"), QStringLiteral("in"),       QStringLiteral("every"),
                               QStringLiteral("section"),    QStringLiteral("of"),       QStringLiteral("this"),
                               QStringLiteral("report"),     QStringLiteral("team"),     QStringLiteral("plan")};

// A sentence of about `chars` characters, for timing a document edit.
QString editSentence(Random &rng, int chars)
{
    QString text;
    while (text.size() < chars)
        text += (text.isEmpty() ? QString() : QStringLiteral(" ")) + rng.pick(EditWords);
    return text + u'.';
}

// Stray selections (TraceKnobs::selectionAction < 1). What a paragraph is selected for when
// no action follows: copied (Ctrl+C, then a click elsewhere to paste clears it), typed over,
// or deleted. Assumption, as the mix: no study we know of gives it; copying is taken as the
// commonest. Formatting is not among them: the editor is Markdown, formatting is typing.
constexpr double StrayCopyShare = 0.5;
constexpr double StrayTypeOverShare = 0.3; // the rest are deleted
// Assumption: a look at the selection before the key (as a selection before an action), and
// the time to put the copied text to use before the click that clears it.
constexpr Lognormal StrayLook{700, 0.5, 200, 4000};
constexpr Lognormal StrayUse{2500, 0.5, 800, 10000};
// Assumption: a user who never runs an action on a selection still selects about 1.5 times
// per action (the geometric mean of a 0.6 chance of one more).
constexpr double NeverActingStrayChance = 0.6;

struct OpenDocument {
    QString id;
    QList<int> paragraphChars; // how long each paragraph is, for the selection's geometry
    bool chinese = false;
    int cursor = 0; // the paragraph the user has read up to
    bool selectionValid = false;
};

// One user's session over documents: the pointer, the keyboard and the clock.
class DocumentUser
{
public:
    DocumentUser(Session &s, const DocumentUserParams &p)
        : m_s(s)
        , m_p(p)
        , m_rng(s.rng)
        , m_layout(drawLayout(s.rng, p.chatVisibleChance))
        , m_pointer(s, m_layout, *p.pointer)
    {
    }

    void play();

private:
    enum Token { Pass, HoverClick, ShortcutClick };
    struct Segment {
        QList<bool> passRests; // per pass-over: rest (true) or crossing
        Token click = Pass;    // Pass: the trailing segment, no click
    };

    bool keyboardUser() const { return m_p.hoverClicks.max == 0; }
    OpenDocument open(const QString &id, int tokens, const QString &language);
    Point readingSpot(const Rect &area) { return area.shrunk(std::min(area.w, area.h) / 8).pointIn(m_rng); }
    void read(qint64 ms, const Rect &area);
    void offTheButtons();
    void mouseClickHere(); // press and release where the pointer is, in the text
    void returnToDocument();
    void select(OpenDocument &doc, int paragraph);
    void clearSelection();
    void switchTo(int index);
    void strays(OpenDocument &doc, double moreChance); // stray selections, each with this chance of one more
    void straySelection(OpenDocument &doc);
    void edit(const OpenDocument &doc);
    void passOver(bool rest, int on);
    void hoverClick(int action);
    void shortcutClick(int action);
    void tabWalk(int action);

    Session &m_s;
    const DocumentUserParams &m_p;
    Random &m_rng;
    const Layout m_layout;
    Pointer m_pointer;
};

OpenDocument DocumentUser::open(const QString &id, int tokens, const QString &language)
{
    const int docSeed = 1 + m_rng.below(999999);
    m_s.write("open_document",
              {str("doc", id), num("tokens", tokens), num("seed", docSeed), str("language", language)});
    // DocumentTabs gives the new tab's editor the focus.
    m_s.focus(QStringLiteral("document"));
    OpenDocument doc;
    doc.id = id;
    doc.chinese = language == QLatin1String("zh");
    for (const QString &paragraph : paragraphs(makeDocument(tokens, quint64(docSeed), language)))
        doc.paragraphChars.append(int(paragraph.size()));
    doc.cursor = m_rng.below(std::min(3, int(doc.paragraphChars.size())));
    return doc;
}

void DocumentUser::read(qint64 ms, const Rect &area)
{
    // Readers sometimes move the pointer out of the way or along the text; mostly it rests.
    const qint64 end = m_s.t + ms;
    if (!keyboardUser() && ms > 2500 && m_rng.chance(m_p.readingMoveChance)) {
        m_pointer.rest(m_rng.below(int(ms / 2)));
        m_pointer.moveTo(readingSpot(area), SpotWidth);
    }
    m_pointer.rest(std::max<qint64>(0, end - m_s.t));
}

void DocumentUser::offTheButtons()
{
    // Before a keyboard shortcut the hand leaves the mouse where the text or the answer is.
    if (m_pointer.hovered() >= 0)
        m_pointer.moveTo(readingSpot(m_layout.answer), SpotWidth);
}

void DocumentUser::mouseClickHere()
{
    m_s.t += m_p.settleToPressMs + m_rng.below(80);
    m_s.focus(QStringLiteral("document"));
    m_s.t += m_rng.draw(m_p.pressToClick);
}

void DocumentUser::returnToDocument()
{
    const QString focused = m_s.focused();
    const int on = actionIndex(focused);
    if (focused == QLatin1String("document"))
        return;
    if (!keyboardUser() || on < 0) {
        m_s.focus(QStringLiteral("document")); // not on a button: a click back into the text
        return;
    }
    // Shift+Tab back along the buttons to the text (the focus chain: document, then the buttons).
    m_s.t += m_rng.draw(ShiftModifier.lead);
    m_s.modifiers({QStringLiteral("shift")});
    for (int b = on - 1; b >= -1; --b) {
        m_s.t += m_rng.draw(m_p.tabStep);
        m_s.focus(b >= 0 ? actionName(b) : QStringLiteral("document"));
    }
    m_s.t += m_rng.draw(ShiftModifier.release);
    m_s.modifiers({});
}

void DocumentUser::select(OpenDocument &doc, int paragraph)
{
    // Where the paragraph is on screen: scrolled into the upper part of the view, its lines as
    // long as the text column allows (a Chinese character is two columns wide).
    const Rect &view = m_layout.document;
    const int columns = std::max(20, (view.w - 8) / m_layout.charWidth / (doc.chinese ? 2 : 1));
    const int chars = doc.paragraphChars.at(paragraph);
    const int lines = (chars + columns - 1) / columns;
    const int visibleLines = std::max(1, view.h / m_layout.lineHeight - 1);
    const int firstLine = m_rng.below(std::max(1, std::min(visibleLines - lines, visibleLines * 2 / 3)));
    const int lastColumn = chars - (lines - 1) * columns;
    const double charWidth = m_layout.charWidth * (doc.chinese ? 2 : 1);
    const int shownLines = std::min(lines, visibleLines - firstLine);
    const Point start{view.x + 4.0 + m_rng.below(3), view.y + (firstLine + 0.5) * m_layout.lineHeight};
    const Point end{view.x + 4.0 + std::min(lastColumn, columns) * charWidth,
                    view.y + (firstLine + shownLines - 0.5) * m_layout.lineHeight};

    if (m_p.keyboardSelection) {
        returnToDocument();
        // The cursor goes to the paragraph first: arrows and Page keys, word or paragraph jumps
        // with Ctrl held.
        const qint64 navigate = m_rng.draw(m_p.keyboardNavigate);
        if (m_rng.chance(m_p.navigateWithCtrlChance)) {
            m_s.t += navigate / 3;
            m_s.modifiers({QStringLiteral("ctrl")});
            m_s.t += navigate / 3;
            m_s.modifiers({});
            m_s.t += navigate - 2 * (navigate / 3);
        } else {
            m_s.t += navigate;
        }
        m_s.modifiers({QStringLiteral("shift")});
        m_s.t += m_rng.draw(ShiftModifier.lead);
        m_s.write("selecting"); // the first Shift+Down
        for (int line = 1; line < lines; ++line)
            m_s.t += m_rng.draw(m_p.selectKey);
        m_s.t += m_rng.draw(m_p.selectKey); // Shift+End
        m_s.write("select", {num("paragraph", paragraph)});
        m_s.t += m_rng.draw(ShiftModifier.release);
        m_s.modifiers({});
    } else {
        m_pointer.moveTo(start, m_layout.lineHeight);
        m_s.t += m_p.settleToPressMs + m_rng.below(80);
        m_s.focus(QStringLiteral("document")); // the press in the text
        m_s.write("selecting");
        m_pointer.dragTo(end, m_rng.draw(m_p.selectDrag));
        m_s.t += m_rng.draw(m_p.pressToClick) / 2;
        m_s.write("select", {num("paragraph", paragraph)});
    }
    doc.selectionValid = true;
}

void DocumentUser::clearSelection()
{
    if (m_p.keyboardSelection) {
        returnToDocument();
        m_s.t += m_rng.draw(m_p.selectKey); // an arrow key
    } else {
        m_pointer.moveTo(readingSpot(m_layout.document), m_layout.lineHeight * 3);
        mouseClickHere();
    }
    m_s.write("select", {num("paragraph", -1)});
}

void DocumentUser::strays(OpenDocument &doc, double moreChance)
{
    while (m_rng.chance(moreChance))
        straySelection(doc);
}

void DocumentUser::straySelection(OpenDocument &doc)
{
    // A paragraph near where the user is reading.
    const int paragraph = std::min(int(doc.paragraphChars.size()) - 1, doc.cursor + m_rng.below(3));
    select(doc, paragraph);
    m_s.t += m_rng.draw(StrayLook);
    const double use = m_rng.uniform();
    if (use < StrayCopyShare) {
        chord(m_s, ShortcutModifiers, {QStringLiteral("ctrl")}, [] {}); // Ctrl+C
        m_pointer.rest(m_rng.draw(StrayUse));
        clearSelection();
    } else {
        // The first key replaces the selection; the replay's edits add text at the end, which
        // changes the document as this does (a new revision), if not in the same place.
        m_s.write("select", {num("paragraph", -1)});
        const int tokens = use < StrayCopyShare + StrayTypeOverShare ? m_rng.between(m_p.editTokens) : 1;
        if (tokens > 1)
            m_s.t += typingTime(m_rng, m_p.typing, editSentence(m_rng, tokens * 4));
        m_s.write("edit_document", {str("doc", doc.id), num("append_tokens", tokens)});
    }
    doc.selectionValid = false;
}

void DocumentUser::switchTo(int index)
{
    if (keyboardUser()) {
        chord(m_s, ShortcutModifiers, {QStringLiteral("ctrl")}, [&] {
            m_s.write("switch_document", {str("doc", index == 0 ? QStringLiteral("report") : QStringLiteral("notes"))});
        });
        return;
    }
    m_pointer.acquire(m_layout.tab(index));
    m_s.t += m_p.settleToPressMs + m_rng.below(80);
    m_s.t += m_rng.draw(m_p.pressToClick);
    m_s.write("switch_document", {str("doc", index == 0 ? QStringLiteral("report") : QStringLiteral("notes"))});
}

void DocumentUser::edit(const OpenDocument &doc)
{
    // The end of the text: a click there, or Ctrl+End.
    if (keyboardUser()) {
        returnToDocument();
        chord(m_s, ShortcutModifiers, {QStringLiteral("ctrl")}, [] {});
    } else {
        const Rect &view = m_layout.document;
        const Rect bottom{view.x, view.y + view.h * 2 / 3, view.w * 2 / 3, view.h / 3};
        m_pointer.moveTo(readingSpot(bottom), m_layout.lineHeight * 2);
        mouseClickHere();
    }
    const int tokens = m_rng.between(m_p.editTokens);
    m_s.t += typingTime(m_rng, m_p.typing, editSentence(m_rng, tokens * 4)); // hands on the keys
    m_s.write("edit_document", {str("doc", doc.id), num("append_tokens", tokens)});
}

void DocumentUser::passOver(bool rest, int on)
{
    const Rect &button = m_layout.buttons[size_t(on)];
    if (rest) {
        m_pointer.acquire(button);
        m_pointer.rest(m_rng.draw(m_p.rest));
        return;
    }
    // A crossing: the pointer passes over the button on its way elsewhere and stops beyond it:
    // from below up into the tool bar, from above down into the answer, or, from the row itself,
    // along it and out past the button.
    const Point from = m_pointer.position();
    const Point through = button.shrunk(2).pointIn(m_rng);
    const int overshoot = m_rng.between(m_p.crossingOvershoot);
    Point to;
    if (from.y < button.y - 2 || from.y > button.y + button.h + 1) {
        const bool up = from.y > through.y;
        const double ty = up ? std::max(2.0, button.y - 3 - overshoot / 6.0) : button.y + button.h + 3.0 + overshoot;
        const double k = (ty - from.y) / (through.y - from.y); // > 1: beyond the button
        to = {from.x + (through.x - from.x) * k, ty};
    } else {
        const bool right = through.x >= from.x;
        to = {right ? button.x + button.w + 3.0 + overshoot : button.x - 4.0 - overshoot,
              button.y + button.h + 4.0 + m_rng.below(20)};
    }
    to.x = std::clamp(to.x, 2.0, m_layout.window.w - 3.0);
    if (m_layout.buttonAt(std::llround(to.x), std::llround(to.y)) >= 0)
        to.y = button.y + button.h + 4; // off the row
    m_pointer.moveTo(to, SpotWidth);
    m_pointer.rest(m_rng.draw(m_p.afterCrossing));
}

void DocumentUser::hoverClick(int action)
{
    const Rect &button = m_layout.buttons[size_t(action)];
    if (m_pointer.hovered() == action) // a click needs a fresh hover: off and back on
        m_pointer.moveTo(readingSpot(m_layout.answer), SpotWidth);
    m_pointer.acquire(button);
    Q_ASSERT(m_pointer.hovered() == action);
    const qint64 enteredAt = m_pointer.hoveredSince();
    const qint64 settledAt = m_s.t;
    // instant.page's figures are from hover_enter to the click; the press also waits for the
    // pointer to settle (a lead shorter than the approach is drawn again).
    qint64 lead = 0;
    qint64 pressGap = 0;
    for (int attempt = 0; attempt < 8; ++attempt) {
        lead = m_p.hoverDecisionMs + m_rng.draw(m_p.clickLead);
        pressGap = std::min(m_rng.draw(m_p.pressToClick), lead - 15);
        if (enteredAt + lead - pressGap >= settledAt + m_p.settleToPressMs)
            break;
    }
    m_s.t = std::max(enteredAt + lead - pressGap, settledAt + m_p.settleToPressMs);
    m_s.focus(actionName(action)); // a QPushButton takes the focus on press
    m_s.write("press", {str("action", actionName(action))});
    m_s.t += pressGap;
    m_s.write("click", {str("action", actionName(action))});
}

void DocumentUser::shortcutClick(int action)
{
    offTheButtons();
    m_s.t += m_rng.draw(m_p.beforeShortcut);
    chord(m_s, ShortcutModifiers, {QStringLiteral("ctrl"), QStringLiteral("alt")},
          [&] { m_s.write("click", {str("action", actionName(action))}); });
}

void DocumentUser::tabWalk(int action)
{
    // Tab moves from the text onto the first button and along the row (setTabOrder in
    // MainWindow::createActionPanel); the user stops on one and reads it, then runs the action
    // by its shortcut all the same.
    const int stopOn = m_rng.chance(m_p.tabWalkToTargetChance) ? action : m_rng.below(int(Actions.size()));
    for (int b = 0; b <= stopOn; ++b) {
        m_s.t += m_rng.draw(m_p.tabStep);
        m_s.focus(actionName(b));
    }
    m_s.t += m_rng.draw(m_p.tabWalkPause);
}

void DocumentUser::play()
{
    writeLayout(m_s, m_layout);
    m_pointer.place(readingSpot(m_layout.document));

    // Habits: this user's own preferences among the actions.
    std::array<int, 5> weights = m_p.actionWeights;
    for (int &w : weights)
        w = std::max(1, int(std::llround(w * m_rng.factor(m_p.habitSpread))));
    const double selectionAction = std::clamp(m_s.knobs.selectionAction, 0.0, 1.0);
    const bool neverActs = selectionAction <= 0;
    if (neverActs)
        weights[Rewrite] = weights[Explain] = 0;

    QList<OpenDocument> docs;
    int current = 0;
    m_s.t = std::max(m_s.t, qint64(200 + m_rng.below(600)));
    docs.append(open(QStringLiteral("report"), (m_rng.between(m_p.mainTokens) / 100) * 100, QStringLiteral("en")));
    read(m_rng.draw(m_p.firstRead), m_layout.document);

    // The sequence of hovers: clicks, pass-overs and keyboard shortcuts, shuffled.
    const int hoverClicks = m_rng.between(m_p.hoverClicks);
    const int shortcuts = m_rng.between(m_p.shortcutClicks);
    const double share = m_rng.uniform(m_p.clickShareMin, m_p.clickShareMax);
    const int passes = hoverClicks == 0 ? 0 : int(std::llround(hoverClicks * (1 - share) / share));
    QList<Token> deck;
    deck.fill(Pass, passes);
    deck.append(QList<Token>(hoverClicks, HoverClick));
    deck.append(QList<Token>(shortcuts, ShortcutClick));
    m_rng.shuffle(deck);

    // Split into segments: the pass-overs before each click (and those after the last one).
    QList<Segment> segments(1);
    for (Token token : std::as_const(deck)) {
        if (token == Pass) {
            segments.last().passRests.append(m_rng.chance(m_p.restShare));
        } else {
            segments.last().click = token;
            segments.append(Segment{});
        }
    }
    const int clicks = int(segments.size()) - 1;

    const int secondDocAt = m_rng.chance(m_p.secondDocChance) ? clicks / 4 + m_rng.below(std::max(1, clicks / 4)) : -1;
    QList<bool> editBefore(clicks + 1, false); // before segment i, never before the first action
    QList<int> editSlots;
    for (int i = 1; i < clicks; ++i)
        editSlots.append(i);
    m_rng.shuffle(editSlots);
    for (int e = std::min(m_rng.between(m_p.edits), int(editSlots.size())); e > 0; --e)
        editBefore[editSlots.at(e - 1)] = true;

    int forcedAction = -1;
    bool forceReselect = false;
    qint64 lastClick = 0;
    qint64 readyAt = 0;

    for (int i = 0; i < int(segments.size()); ++i) {
        const Segment &segment = segments.at(i);
        const bool hasClick = segment.click != Pass;
        if (!hasClick && segment.passRests.isEmpty())
            break;
        read(std::max<qint64>(0, readyAt - m_s.t), m_layout.answer);
        if (keyboardUser() && m_rng.chance(m_p.mouseMoveChance))
            m_pointer.moveTo(readingSpot(m_rng.chance(0.5) ? m_layout.answer : m_layout.document), SpotWidth);

        // Documents: open the second one, switch, type an addition.
        if (i == secondDocAt) {
            chord(m_s, ShortcutModifiers, {QStringLiteral("ctrl")}, [] {}); // Ctrl+O
            m_s.t += m_rng.draw(m_p.openDialog);
            const bool chinese = m_rng.chance(m_p.secondChineseChance);
            docs.append(open(QStringLiteral("notes"), (m_rng.between(m_p.secondTokens) / 100) * 100,
                             chinese ? QStringLiteral("zh") : QStringLiteral("en")));
            current = 1;
            read(m_rng.draw(m_p.afterSwitch), m_layout.document);
        } else if (docs.size() == 2 && hasClick && m_rng.chance(m_p.switchChance)) {
            current = 1 - current;
            docs[current].selectionValid = false; // the replay holds one selection for all documents
            switchTo(current);
            read(m_rng.draw(m_p.afterSwitch), m_layout.document);
        }
        OpenDocument &doc = docs[current];
        if (editBefore.at(i))
            edit(doc);

        int action = -1;
        if (hasClick) {
            if (neverActs)
                strays(doc, NeverActingStrayChance);
            action = forcedAction >= 0 ? forcedAction : m_rng.weighted(weights);
            if (needsSelection(action)) {
                const bool reselect = forcedAction >= 0 ? forceReselect : !m_rng.chance(m_p.keepSelectionChance);
                if (!doc.selectionValid || reselect) {
                    doc.cursor += m_rng.between(m_p.paragraphStep);
                    if (doc.cursor >= doc.paragraphChars.size())
                        doc.cursor = m_rng.below(int(doc.paragraphChars.size())); // back to an earlier part
                    if (selectionAction < 1) // (1 - p) / p strays on average: a chance 1 - p of one more
                        strays(doc, 1 - selectionAction);
                    select(doc, doc.cursor);
                }
            } else if (doc.selectionValid && m_rng.chance(m_p.clearSelectionChance)) {
                clearSelection();
                doc.selectionValid = false;
            }
            forcedAction = -1;
        }

        // Pass-overs on the way to the button (or hovering about without clicking).
        int previousHover = -1;
        for (int k = 0; k < segment.passRests.size(); ++k) {
            const bool rest = segment.passRests.at(k);
            if (k > 0 && m_rng.chance(m_p.wanderChance)) {
                m_pointer.moveTo(readingSpot(m_layout.document), SpotWidth); // back to the text,
                m_pointer.rest(m_rng.draw(m_p.wander));
                previousHover = -1;
            }
            // Crossings are mostly on the target's neighbours; a rest may be on the target itself.
            // Never the button just left (nor, right before the click, the target): leaving and
            // re-entering at once is jitter, not a second hover.
            const bool lastBeforeClick = hasClick && k == segment.passRests.size() - 1;
            int on = m_rng.below(5);
            if (action >= 0 && rest && !lastBeforeClick && m_rng.chance(m_p.restOnTargetChance))
                on = action;
            else if (action >= 0 && !rest && m_rng.chance(0.6))
                on = action == 0 ? 1 : action == 4 ? 3 : action + (m_rng.chance(0.5) ? 1 : -1);
            while (on == previousHover || (lastBeforeClick && on == action) || on == m_pointer.hovered())
                on = (on + 1) % 5;
            previousHover = on;
            passOver(rest, on);
        }
        if (!hasClick)
            break;

        // The click.
        if (segment.click == HoverClick) {
            hoverClick(action);
        } else {
            if (keyboardUser() && m_rng.chance(m_p.tabWalkChance))
                tabWalk(action);
            shortcutClick(action);
        }
        lastClick = m_s.t;
        const bool lastOne = i == clicks - 1;
        const bool stop = !lastOne && m_rng.chance(m_p.stopChance);
        const qint64 stopAt = stop ? lastClick + m_rng.draw(m_p.stopAfterClick) : -1;
        if (segment.click == HoverClick) {
            // The pointer leaves for the answer, unless Esc comes first.
            const qint64 leaveAfter = m_rng.draw(m_p.leaveAfterClick);
            if (!stop || lastClick + leaveAfter + 400 < stopAt) {
                m_pointer.rest(leaveAfter);
                m_pointer.moveTo(readingSpot(m_layout.answer), SpotWidth);
            }
        }
        if (stop) {
            m_pointer.rest(std::max<qint64>(0, stopAt - m_s.t));
            m_s.write("stop");
            if (m_pointer.hovered() >= 0) {
                m_pointer.rest(200 + m_rng.below(400));
                m_pointer.moveTo(readingSpot(m_layout.answer), SpotWidth);
            }
            readyAt = m_s.t + m_rng.draw(m_p.afterStop);
            forcedAction = action;
            forceReselect = m_rng.chance(m_p.reselectAfterStopChance);
        } else {
            // The next move waits for the reading; the trace's end does not (see Session::finish).
            readyAt = std::max(lastClick + m_rng.draw(m_p.readAfterClick), m_s.t + 200);
        }
    }

    // Closing the notes waits for the last answer, not for the whole reading.
    offTheButtons();
    read(std::max<qint64>(0, std::min(readyAt, lastClick + 12000) - m_s.t), m_layout.answer);
    if (docs.size() == 2 && m_rng.chance(m_p.closeSecondChance)) {
        if (current == 1) {
            current = 0;
            switchTo(0);
            read(m_rng.draw(m_p.afterSwitch), m_layout.document);
        }
        // Ctrl+W would close the current tab: the notes go by their tab's close button.
        m_pointer.acquire(m_layout.tab(1));
        m_s.t += m_p.settleToPressMs + m_rng.below(80);
        m_s.t += m_rng.draw(m_p.pressToClick);
        m_s.write("close_document", {str("doc", docs.at(1).id)});
    }
}

} // namespace

void playDocumentUser(Session &s, const DocumentUserParams &p)
{
    DocumentUser(s, p).play();
}

} // namespace Bench::Gen
