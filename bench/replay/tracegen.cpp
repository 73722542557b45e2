#include "tracegen.h"

#include "documents.h"
#include "tracegen/random.h"
#include "tracegen/session.h"

#include <QHash>
#include <QList>

#include <algorithm>
#include <array>
#include <cmath>
#include <initializer_list>

namespace Bench {

namespace {

using namespace Gen;

// --- typing --------------------------------------------------------------------------------------

// Key-by-key timing. Source: Dhakal et al., "Observations on typing from 136 million keystrokes"
// (CHI 2018): 52 WPM on average over 168,000 people, i.e. about 230 ms between keys, with wide
// spread (under 20 to over 120 WPM) and longer pauses between words and phrases (PREFETCH.md).
// How that mean splits into in-word keys, word starts and phrase starts is an assumption, set so
// that the whole mix averages about 230–240 ms between keys (median about 190 ms, as a
// lognormal's median sits below its mean).
struct TypingCadence {
    Lognormal withinWord;       // the next letter of the same word
    Lognormal wordStart;        // the first letter after a space: choosing the next word
    Lognormal afterPunctuation; // the first letter after ", " or ". ": a new phrase
    double thinkingPauseChance; // per word start, a pause to think on top of it
    Lognormal thinkingPause;
    Lognormal backspace;        // one key held or tapped repeatedly: faster than typing
};

constexpr TypingCadence DhakalTyping{
    .withinWord = {165, 0.45, 40, 1500},
    .wordStart = {290, 0.5, 70, 3000},
    .afterPunctuation = {600, 0.5, 150, 5000},
    // Assumption: about one word in fifteen starts after a pause of 0.5–6 s (looking back at the
    // text, choosing a phrase); these are the mid-message pauses longer than a debounce.
    .thinkingPauseChance = 0.07,
    .thinkingPause = {1200, 0.6, 400, 6000},
    // Assumption: repeated Backspace runs near key-repeat speed, ~8 keys/s.
    .backspace = {120, 0.35, 50, 600},
};

bool endsPhrase(QChar c)
{
    return c == u',' || c == u'.' || c == u';' || c == u':' || c == u'!' || c == u'?';
}

// The time between the last key of `before` and the next key.
qint64 keyGap(Random &rng, const TypingCadence &c, const QString &before)
{
    if (before.isEmpty() || !before.back().isSpace())
        return rng.draw(c.withinWord);
    const bool phrase = before.size() >= 2 && endsPhrase(before.at(before.size() - 2));
    qint64 gap = rng.draw(phrase ? c.afterPunctuation : c.wordStart);
    if (rng.chance(c.thinkingPauseChance))
        gap += rng.draw(c.thinkingPause);
    return gap;
}

// How long typing `text` takes, from its first key to its last, when only the result is in the
// trace (form fields, document edits).
qint64 typingTime(Random &rng, const TypingCadence &c, const QString &text)
{
    qint64 total = 0;
    for (qsizetype i = 1; i < text.size(); ++i)
        total += keyGap(rng, c, text.left(i));
    return total;
}

// --- documents and actions ----------------------------------------------------------------------

// In the toolbar's order (Prefetch::AllDocumentActions): neighbours are neighbours on screen.
constexpr std::array<const char *, 5> Actions = {"summarize", "continue", "rewrite", "translate", "explain"};
constexpr int Rewrite = 2;
constexpr int Explain = 4;

bool needsSelection(int action)
{
    return action == Rewrite || action == Explain;
}

// What a user of the kind does with documents and the action buttons. writer-long-doc and
// hesitant-user are two instances of it.
struct DocumentUserParams {
    const char *description;

    // Documents.
    IntRange mainTokens;           // the long document opened first
    double secondDocChance;        // a second document is opened after a quarter to half of the actions
    IntRange secondTokens;
    double secondChineseChance;    // the second document is Chinese (the translate case)
    double switchChance;           // per activation once both are open: switch to the other one
    double closeSecondChance;      // the second document is closed before the end
    Lognormal firstRead;           // opening → first move
    Lognormal afterSwitch;         // switching → next move

    // Activations. The trace holds exactly hoverClicks + shortcutClicks clicks; pass-overs are
    // added so that a share drawn from [clickShareMin, clickShareMax] of hovers end in a click,
    // and all of them are shuffled into the sequence the user goes through.
    IntRange hoverClicks;
    IntRange shortcutClicks;       // bare clicks (Ctrl+Alt+S/C/R/T/E), no hover before them
    double clickShareMin;
    double clickShareMax;
    std::array<int, 5> actionWeights; // toolbar order

    // Hover and click.
    qint64 hoverDecisionMs;        // hover time after which the click chance is measured
    Lognormal clickLead;           // further time to the click
    Lognormal pressToClick;        // press → release
    Lognormal leaveAfterClick;     // click → pointer leaves the button
    double restShare;              // share of pass-overs that are rests rather than crossings
    Lognormal crossing;            // the pointer crosses the button on its way elsewhere
    Lognormal rest;                // the pointer rests on it (reading the label, hesitating)
    double restOnTargetChance;     // a rest is on the button clicked next (not just before the click)
    Lognormal approach;            // from the text to the toolbar (or to the keyboard shortcut)
    Lognormal betweenButtons;      // from one button to the next
    double wanderChance;           // after a pass-over, the pointer goes back to the text a while
    Lognormal wander;

    // Selection (rewrite and explain need one; the others use none).
    Lognormal selectDrag;          // dragging over a paragraph
    IntRange paragraphStep;        // the next selection is this many paragraphs further on
    double keepSelectionChance;    // rewrite/explain again on the paragraph still selected
    double clearSelectionChance;   // click into the text (selection cleared) before other actions

    // Reading and Stop.
    Lognormal readAfterClick;      // click → the user's next move
    double stopChance;             // per click: Stop mid-answer, then the same action again
    Lognormal stopAfterClick;
    Lognormal afterStop;           // Stop → next move (re-select, re-click)
    double reselectAfterStopChance;

    // Edits: the user types a sentence or two at the end of the current document.
    IntRange edits;
    IntRange editTokens;           // ~4 characters per token (the engine's estimate)
    TypingCadence typing;
};

const DocumentUserParams WriterLongDoc{
    .description = "A writer revising a long English document (about 12k tokens), sometimes with a second "
                   "one open: reads, selects paragraphs, types additions and runs 15 to 18 document actions; "
                   "about half of the hovers on an action button end in a click.",
    // The brief: a long document of about 12k tokens.
    .mainTokens = {11500, 12500},
    // Assumption: writers often keep notes or a source open next to the draft, sometimes in
    // another language (which is when they translate), and go back and forth a few times.
    .secondDocChance = 0.7,
    .secondTokens = {3000, 6000},
    .secondChineseChance = 0.3,
    .switchChance = 0.2,
    .closeSecondChance = 0.5,
    // Assumption: a glance over the opened document before the first action, and over the
    // other one after a switch.
    .firstRead = {5000, 0.4, 2000, 15000},
    .afterSwitch = {2500, 0.4, 1000, 8000},

    // The brief: 15–25 actions. 15–18 in all (with the shortcuts) is what fits in 4 minutes
    // with 5–40 s of reading after each.
    .hoverClicks = {14, 16},
    // Assumption: about one action in ten comes from the keyboard.
    .shortcutClicks = {1, 2},
    // instant.page (Web Performance Calendar 2019): after 65 ms of hover, about 1 in 2 hovers
    // ends in a click.
    .clickShareMin = 0.45,
    .clickShareMax = 0.55,
    // Assumption: revising favours the selection actions.
    .actionWeights = {15, 15, 35, 15, 20},

    // instant.page: after 65 ms of hover, more than 300 ms remain on average before the click;
    // press → release about 80 ms.
    .hoverDecisionMs = 65,
    .clickLead = {300, 0.5, 100, 3000},    // mean ≈ 340 ms
    .pressToClick = {80, 0.25, 40, 150},
    // Assumption: the pointer leaves soon after a click, or rests there while the answer streams.
    .leaveAfterClick = {500, 0.8, 60, 4000},
    // Assumption: no published split of pass-overs by length. With 4 in 10 being rests (and all
    // of them over 150 ms), a 150 ms hover delay would see about 70 % of its prefetches used, the
    // top of PREFETCH.md's reported 55–70 % hover hit rate; the crossings stay under 150 ms.
    .restShare = 0.4,
    .crossing = {70, 0.45, 20, 149},
    .rest = {700, 0.6, 200, 5000},
    // Assumption: some rests are second thoughts on the button clicked a moment later.
    .restOnTargetChance = 0.4,
    // Assumption: pointing movements of 0.2–1.5 s across a window, 30 ms–1.5 s from a button to
    // its neighbour; now and then the pointer goes back to the text for a few seconds.
    .approach = {500, 0.5, 150, 3000},
    .betweenButtons = {150, 0.5, 30, 1500},
    .wanderChance = 0.1,
    .wander = {2500, 0.6, 800, 10000},

    // Assumption: a drag over one paragraph takes about a second; the writer works forward
    // through the text a few paragraphs at a time, sometimes acting on the same paragraph again,
    // and clicks the selection away before some of the actions that need none.
    .selectDrag = {900, 0.4, 300, 4000},
    .paragraphStep = {1, 5},
    .keepSelectionChance = 0.3,
    .clearSelectionChance = 0.3,

    // The brief: an answer streams for about 10 s (400 tokens at 40 tokens/s); users read for
    // 5–40 s before the next action, often moving on before a long answer ends.
    .readAfterClick = {7500, 0.4, 5000, 40000},
    // Assumption: one answer in eight is the wrong one, stopped after its first lines (1–6 s)
    // and asked again, half the time on another paragraph.
    .stopChance = 0.12,
    .stopAfterClick = {2500, 0.4, 1200, 6000},
    .afterStop = {1500, 0.5, 500, 5000},
    .reselectAfterStopChance = 0.5,

    // Assumption: two or three additions of 4–12 tokens (16–48 characters), typed at the
    // Dhakal et al. cadence; their typing time is in the trace, the keys are not.
    .edits = {2, 3},
    .editTokens = {4, 12},
    .typing = DhakalTyping,
};

// Values without a comment are the writer's, with the writer's sources.
const DocumentUserParams HesitantUser{
    .description = "An unpredictable user on the same kind of long document: hovers over the action buttons "
                   "and rests on them far more often than they click (about 15 % of hovers end in a click), "
                   "runs a few actions, some through keyboard shortcuts.",
    .mainTokens = {11500, 12500},
    // Assumption: less often a second document.
    .secondDocChance = 0.3,
    .secondTokens = {3000, 6000},
    .secondChineseChance = 0.3,
    .switchChance = 0.2,
    .closeSecondChance = 0.5,
    .firstRead = {6000, 0.4, 2000, 15000},
    .afterSwitch = {2500, 0.4, 1000, 8000},

    // The brief: a few actions.
    .hoverClicks = {6, 8},
    // Assumption: a user who avoids committing with the pointer uses the keyboard more often.
    .shortcutClicks = {2, 3},
    // PREFETCH.md, "When not to prefetch": unpredictable users, hit rates of 10–20 %.
    .clickShareMin = 0.12,
    .clickShareMax = 0.18,
    .actionWeights = {15, 15, 35, 15, 20},

    .hoverDecisionMs = 65,
    // Assumption: hesitant users take longer to commit than instant.page's average visitor.
    .clickLead = {500, 0.6, 120, 4000},
    .pressToClick = {80, 0.25, 40, 150},
    .leaveAfterClick = {500, 0.8, 60, 4000},
    // Assumption: half of the pass-overs are rests, longer than the writer's: reading the
    // tooltip, deciding against it.
    .restShare = 0.5,
    .crossing = {70, 0.45, 20, 149},
    .rest = {1100, 0.6, 250, 6000},
    .restOnTargetChance = 0.5,
    .approach = {500, 0.5, 150, 3000},
    .betweenButtons = {200, 0.5, 30, 1500},
    // Assumption: moves back to the text three times as often between hovers.
    .wanderChance = 0.3,
    .wander = {2500, 0.6, 800, 10000},

    .selectDrag = {1000, 0.4, 300, 4000},
    .paragraphStep = {1, 5},
    .keepSelectionChance = 0.3,
    .clearSelectionChance = 0.3,

    .readAfterClick = {7500, 0.4, 5000, 40000},
    .stopChance = 0.1, // assumption: a little rarer than the writer, with fewer actions to regret
    .stopAfterClick = {2500, 0.4, 1200, 6000},
    .afterStop = {1500, 0.5, 500, 5000},
    .reselectAfterStopChance = 0.5,

    .edits = {1, 2}, // assumption: fewer, as fewer actions
    .editTokens = {4, 12},
    .typing = DhakalTyping,
};

const QStringList EditWords = {
    QStringLiteral("we"), QStringLiteral("measured"), QStringLiteral("the"), QStringLiteral("first"),
    QStringLiteral("answer"), QStringLiteral("again"), QStringLiteral("and"), QStringLiteral("it"),
    QStringLiteral("was"), QStringLiteral("faster"), QStringLiteral("than"), QStringLiteral("before"),
    QStringLiteral("readers"), QStringLiteral("noticed"), QStringLiteral("a"), QStringLiteral("difference"),
    QStringLiteral("in"), QStringLiteral("every"), QStringLiteral("section"), QStringLiteral("of"),
    QStringLiteral("this"), QStringLiteral("report"), QStringLiteral("team"), QStringLiteral("plan")};

// A sentence of about `chars` characters, for timing a document edit.
QString editSentence(Random &rng, int chars)
{
    QString text;
    while (text.size() < chars)
        text += (text.isEmpty() ? QString() : QStringLiteral(" ")) + rng.pick(EditWords);
    return text + u'.';
}

struct OpenDocument {
    QString id;
    int paragraphs = 0;
    int cursor = 0;     // the paragraph the user has read up to
    bool selectionValid = false;
};

void playDocumentUser(Session &s, const DocumentUserParams &p)
{
    Random &rng = s.rng;

    auto open = [&](const QString &id, int tokens, const QString &language) {
        const int docSeed = 1 + rng.below(999999);
        s.write("open_document", {str("doc", id), num("tokens", tokens), num("seed", docSeed),
                                  str("language", language)});
        OpenDocument doc;
        doc.id = id;
        doc.paragraphs = int(paragraphs(makeDocument(tokens, quint64(docSeed), language)).size());
        doc.cursor = rng.below(std::min(3, doc.paragraphs));
        return doc;
    };

    QList<OpenDocument> docs;
    int current = 0;
    s.t = 200 + rng.below(600);
    docs.append(open(QStringLiteral("report"), (rng.between(p.mainTokens) / 100) * 100, QStringLiteral("en")));
    s.t += rng.draw(p.firstRead);

    // The sequence of hovers: clicks, pass-overs and keyboard shortcuts, shuffled.
    enum Token { Pass, HoverClick, ShortcutClick };
    const int hoverClicks = rng.between(p.hoverClicks);
    const int shortcuts = rng.between(p.shortcutClicks);
    const double share = rng.uniform(p.clickShareMin, p.clickShareMax);
    const int passes = int(std::llround(hoverClicks * (1 - share) / share));
    QList<Token> deck;
    deck.fill(Pass, passes);
    deck.append(QList<Token>(hoverClicks, HoverClick));
    deck.append(QList<Token>(shortcuts, ShortcutClick));
    rng.shuffle(deck);

    // Split into segments: the pass-overs before each click (and those after the last one).
    struct Segment {
        QList<bool> passRests; // per pass-over: rest (true) or crossing
        Token click = Pass;    // Pass: the trailing segment, no click
    };
    QList<Segment> segments(1);
    for (Token token : std::as_const(deck)) {
        if (token == Pass) {
            segments.last().passRests.append(rng.chance(p.restShare));
        } else {
            segments.last().click = token;
            segments.append(Segment{});
        }
    }
    const int clicks = int(segments.size()) - 1;

    const int secondDocAt = rng.chance(p.secondDocChance) ? clicks / 4 + rng.below(std::max(1, clicks / 4)) : -1;
    QList<bool> editBefore(clicks + 1, false); // before segment i, never before the first action
    QList<int> editSlots;
    for (int i = 1; i < clicks; ++i)
        editSlots.append(i);
    rng.shuffle(editSlots);
    for (int e = std::min(rng.between(p.edits), int(editSlots.size())); e > 0; --e)
        editBefore[editSlots.at(e - 1)] = true;

    int forcedAction = -1;
    bool forceReselect = false;
    qint64 lastClick = 0;
    qint64 readyAt = 0;
    auto hover = [&](int action, qint64 dwell) {
        s.write("hover_enter", {str("action", QLatin1String(Actions[size_t(action)]))});
        s.t += dwell;
        s.write("hover_leave", {str("action", QLatin1String(Actions[size_t(action)]))});
    };

    for (int i = 0; i < int(segments.size()); ++i) {
        const Segment &segment = segments.at(i);
        const bool hasClick = segment.click != Pass;
        if (!hasClick && segment.passRests.isEmpty())
            break;
        s.t = std::max(s.t, readyAt);

        // Documents: open the second one, switch, type an addition.
        if (i == secondDocAt) {
            const bool chinese = rng.chance(p.secondChineseChance);
            docs.append(open(QStringLiteral("notes"), (rng.between(p.secondTokens) / 100) * 100,
                             chinese ? QStringLiteral("zh") : QStringLiteral("en")));
            current = 1;
            s.t += rng.draw(p.afterSwitch);
        } else if (docs.size() == 2 && hasClick && rng.chance(p.switchChance)) {
            current = 1 - current;
            docs[current].selectionValid = false; // the replay holds one selection for all documents
            s.write("switch_document", {str("doc", docs.at(current).id)});
            s.t += rng.draw(p.afterSwitch);
        }
        OpenDocument &doc = docs[current];
        if (editBefore.at(i)) {
            s.t += rng.draw(p.approach); // click at the end of the text
            const int tokens = rng.between(p.editTokens);
            s.t += typingTime(rng, p.typing, editSentence(rng, tokens * 4));
            s.write("edit_document", {str("doc", doc.id), num("append_tokens", tokens)});
        }

        int action = -1;
        if (hasClick) {
            action = forcedAction >= 0 ? forcedAction : rng.weighted(p.actionWeights);
            if (needsSelection(action)) {
                const bool reselect = forcedAction >= 0 ? forceReselect : !rng.chance(p.keepSelectionChance);
                if (!doc.selectionValid || reselect) {
                    doc.cursor += rng.between(p.paragraphStep);
                    if (doc.cursor >= doc.paragraphs)
                        doc.cursor = rng.below(doc.paragraphs); // back to an earlier part
                    s.t += rng.draw(p.selectDrag);
                    s.write("select", {num("paragraph", doc.cursor)});
                    doc.selectionValid = true;
                }
            } else if (doc.selectionValid && rng.chance(p.clearSelectionChance)) {
                s.t += rng.draw(p.selectDrag) / 3;
                s.write("select", {num("paragraph", -1)});
                doc.selectionValid = false;
            }
            forcedAction = -1;
        }

        // Pass-overs on the way to the button (or hovering about without clicking).
        int previousHover = -1;
        for (int k = 0; k < segment.passRests.size(); ++k) {
            const bool rest = segment.passRests.at(k);
            if (k == 0) {
                s.t += rng.draw(p.approach);
            } else if (rng.chance(p.wanderChance)) {
                s.t += rng.draw(p.wander); // back to the text,
                s.t += rng.draw(p.approach); // and back to the toolbar
                previousHover = -1;
            } else {
                s.t += rng.draw(p.betweenButtons);
            }
            // Crossings are mostly on the target's neighbours; a rest may be on the target itself.
            // Never the button just left (nor, right before the click, the target): leaving and
            // re-entering at once is jitter, not a second hover.
            const bool lastBeforeClick = hasClick && k == segment.passRests.size() - 1;
            int on = rng.below(5);
            if (action >= 0 && rest && !lastBeforeClick && rng.chance(p.restOnTargetChance))
                on = action;
            else if (action >= 0 && !rest && rng.chance(0.6))
                on = action == 0 ? 1 : action == 4 ? 3 : action + (rng.chance(0.5) ? 1 : -1);
            while (on == previousHover || (lastBeforeClick && on == action))
                on = (on + 1) % 5;
            previousHover = on;
            hover(on, rng.draw(rest ? p.rest : p.crossing));
        }
        if (!hasClick)
            break;

        // The click.
        const QLatin1String name(Actions[size_t(action)]);
        s.t += segment.passRests.isEmpty() ? rng.draw(p.approach) : rng.draw(p.betweenButtons);
        qint64 leaveAt = -1;
        if (segment.click == HoverClick) {
            s.write("hover_enter", {str("action", name)});
            const qint64 lead = p.hoverDecisionMs + rng.draw(p.clickLead);
            const qint64 pressGap = std::min(rng.draw(p.pressToClick), lead - 15);
            s.writeAt(s.t + lead - pressGap, "press", {str("action", name)});
            s.t += lead;
            leaveAt = s.t + rng.draw(p.leaveAfterClick);
        }
        s.write("click", {str("action", name)});
        lastClick = s.t;
        const bool lastOne = i == clicks - 1;
        if (!lastOne && rng.chance(p.stopChance)) {
            const qint64 stopAt = lastClick + rng.draw(p.stopAfterClick);
            if (leaveAt >= 0)
                s.writeAt(std::min(leaveAt, stopAt - 50), "hover_leave", {str("action", name)});
            s.t = stopAt;
            s.write("stop");
            readyAt = s.t + rng.draw(p.afterStop);
            forcedAction = action;
            forceReselect = rng.chance(p.reselectAfterStopChance);
        } else {
            if (leaveAt >= 0)
                s.writeAt(leaveAt, "hover_leave", {str("action", name)});
            // The next move waits for the reading; the trace's end does not (see Session::finish).
            readyAt = std::max(lastClick + rng.draw(p.readAfterClick), leaveAt + 200);
        }
    }

    // Closing the notes waits for the last answer, not for the whole reading.
    s.t = std::max(s.t, std::min(readyAt, lastClick + 12000));
    if (docs.size() == 2 && rng.chance(p.closeSecondChance)) {
        if (current == 1) {
            current = 0;
            s.write("switch_document", {str("doc", docs.at(0).id)});
            s.t += rng.draw(p.afterSwitch);
        }
        s.write("close_document", {str("doc", docs.at(1).id)});
    }
}

// --- chat ----------------------------------------------------------------------------------------

struct ChatSessionParams {
    const char *description;
    IntRange docTokens;               // the document the first conversation is about
    Lognormal firstRead;              // opening the document → opening the chat
    double secondConversationChance;  // a free-mode conversation follows the document one
    IntRange messages;
    double firstConversationShareMin; // of the messages, when there are two conversations
    double firstConversationShareMax;
    Lognormal focusInput;             // chat_open → first key
    Lognormal readAfterSend;          // Enter → first key of the next message
    Lognormal reviewBeforeSend;       // last key → Enter
    double correctionChance;          // per message: a word typed, then deleted and replaced
    Lognormal noticePause;            // the pause before the Backspaces
    double dropQuestionMarkChance;
    double dropFullStopChance;
    TypingCadence typing;
};

const ChatSessionParams ChatSession{
    .description = "Chat about a 3k-token English document, then (usually) a free conversation: 10 to 12 "
                   "questions and requests about writing, typed key by key at about 52 WPM with pauses "
                   "between words and phrases, some corrected mid-message.",
    // The brief: document mode on a ~3k-token document.
    .docTokens = {2600, 3400},
    // Assumption: a look at the document before asking about it.
    .firstRead = {4000, 0.4, 1500, 12000},
    // The brief: one or two conversations.
    .secondConversationChance = 0.75,
    // The brief: ~10–14 messages; 12 at most keeps the trace under 4 minutes.
    .messages = {10, 12},
    // Assumption: the document conversation is the main one.
    .firstConversationShareMin = 0.5,
    .firstConversationShareMax = 0.7,
    // Assumption: a pointing movement (or a shortcut) into the message field.
    .focusInput = {900, 0.4, 300, 4000},
    // The brief: an answer streams for ~10 s, users read 5–40 s before the next action; the next
    // message is typed after that, so Enter comes 10 s or more after the previous one.
    .readAfterSend = {6000, 0.35, 5000, 40000},
    // Assumption: a glance over the message before Enter.
    .reviewBeforeSend = {450, 0.5, 120, 3000},
    // Assumption: one message in four has a word replaced after a pause (Dhakal et al. report
    // frequent corrections; the share of whole-word replacements is not published).
    .correctionChance = 0.25,
    .noticePause = {800, 0.5, 360, 4000},
    // Assumption: casual chat often drops the final punctuation.
    .dropQuestionMarkChance = 0.25,
    .dropFullStopChance = 0.4,
    .typing = DhakalTyping,
};

// Message templates: 22 about the open document, 18 free; {slot}s are filled from the lists
// below, and a slot named like another with a 2 gets a different value from the same list.
const QList<const char *> DocumentTemplates = {
    "Summarize {part} in {count} sentences.",
    "What is the main argument of {part}?",
    "Is {part} too long for {audience}?",
    "Suggest a better title for {part}.",
    "Make {part} sound more {tone}.",
    "Which sentences in {part} could I cut?",
    "Does {part} contradict {part2}?",
    "List the key terms in {part}.",
    "How can I make {part} easier to follow?",
    "Shorten the first sentence of {part}.",
    "What evidence supports {part}?",
    "What would a reader ask about {part}?",
    "Is the tone of {part} right for {audience}?",
    "Point out any repetition in {part}.",
    "Where could {part} use an example?",
    "Explain {part} simply.",
    "Should I move {part} before {part2}?",
    "Check {part} for unclear pronouns.",
    "Draft a transition from {part} to {part2}.",
    "What is the weakest point in {part}?",
    "Turn {part} into a bulleted list.",
    "What is missing from {part}?",
};

const QList<const char *> FreeTemplates = {
    "How do I open {genre}?",
    "What is the difference between {pair}?",
    "Give me {count} synonyms for {word}.",
    "How long should {genre} be?",
    "Outline {genre} about {topic}.",
    "What tone works best for {audience}?",
    "Can I start a sentence with {starter}?",
    "Suggest a title for {genre} about {topic}.",
    "How should I end {genre}?",
    "What are common mistakes in {genre}?",
    "When do I use a semicolon?",
    "Help me say no politely to {audience}.",
    "Fix this sentence: {sentence}",
    "How formal should {genre} be?",
    "Give me a friendlier way to say {phrase}.",
    "What makes {genre} persuasive?",
    "Which is clearer, {phrase} or {phrase2}?",
    "Turn {topic} into a catchy headline.",
};

const QHash<QString, QStringList> &slotValues()
{
    static const QHash<QString, QStringList> values{
        {QStringLiteral("part"),
         {QStringLiteral("the introduction"), QStringLiteral("the second section"), QStringLiteral("the conclusion"),
          QStringLiteral("this chapter"), QStringLiteral("the methods"), QStringLiteral("the summary"),
          QStringLiteral("the last paragraph"), QStringLiteral("the results")}},
        {QStringLiteral("count"), {QStringLiteral("two"), QStringLiteral("three"), QStringLiteral("five")}},
        {QStringLiteral("audience"),
         {QStringLiteral("new customers"), QStringLiteral("our engineers"), QStringLiteral("a general reader"),
          QStringLiteral("the board"), QStringLiteral("students"), QStringLiteral("my manager")}},
        {QStringLiteral("tone"),
         {QStringLiteral("friendly"), QStringLiteral("formal"), QStringLiteral("confident"),
          QStringLiteral("neutral"), QStringLiteral("persuasive")}},
        {QStringLiteral("genre"),
         {QStringLiteral("a cover letter"), QStringLiteral("a product update"), QStringLiteral("a blog post"),
          QStringLiteral("a short story"), QStringLiteral("a project proposal"), QStringLiteral("a thank-you email"),
          QStringLiteral("release notes")}},
        {QStringLiteral("topic"),
         {QStringLiteral("prompt caching"), QStringLiteral("remote work"), QStringLiteral("our spring release"),
          QStringLiteral("city gardens"), QStringLiteral("saving energy"), QStringLiteral("a team offsite")}},
        {QStringLiteral("pair"),
         {QStringLiteral("affect and effect"), QStringLiteral("fewer and less"), QStringLiteral("which and that"),
          QStringLiteral("imply and infer"), QStringLiteral("ensure and insure")}},
        {QStringLiteral("word"),
         {QStringLiteral("important"), QStringLiteral("quickly"), QStringLiteral("improve"), QStringLiteral("clear"),
          QStringLiteral("show")}},
        {QStringLiteral("starter"),
         {QStringLiteral("and"), QStringLiteral("but"), QStringLiteral("because"), QStringLiteral("so")}},
        {QStringLiteral("sentence"),
         {QStringLiteral("the results was better than we expected."),
          QStringLiteral("me and the team finished early."),
          QStringLiteral("their going to ship it next week.")}},
        {QStringLiteral("phrase"),
         {QStringLiteral("'we cannot do that'"), QStringLiteral("'please respond asap'"),
          QStringLiteral("'this is wrong'"), QStringLiteral("'you missed the deadline'")}},
    };
    return values;
}

// Words a user might type first and then replace (the correction in a message).
const QStringList SecondThoughts = {
    QStringLiteral("section"), QStringLiteral("part"), QStringLiteral("paragraph"), QStringLiteral("text"),
    QStringLiteral("draft"), QStringLiteral("intro"), QStringLiteral("story"), QStringLiteral("email"),
    QStringLiteral("version"), QStringLiteral("really"), QStringLiteral("maybe")};

QString fillTemplate(Random &rng, const char *pattern)
{
    const QString text = QLatin1String(pattern);
    QString out;
    QHash<QString, QString> chosen;
    qsizetype i = 0;
    while (i < text.size()) {
        const qsizetype open = text.indexOf(u'{', i);
        if (open < 0) {
            out += text.mid(i);
            break;
        }
        const qsizetype close = text.indexOf(u'}', open);
        out += text.mid(i, open - i);
        const QString slot = text.mid(open + 1, close - open - 1);
        const bool second = slot.endsWith(u'2');
        const QString base = second ? slot.chopped(1) : slot;
        QStringList options = slotValues().value(base);
        if (second)
            options.removeAll(chosen.value(base));
        const QString value = rng.pick(options);
        chosen.insert(slot, value);
        out += value;
        i = close + 1;
    }
    return out;
}

QString chatMessage(Random &rng, const ChatSessionParams &p, bool aboutDocument)
{
    QString text = fillTemplate(rng, rng.pick(aboutDocument ? DocumentTemplates : FreeTemplates));
    if (text.endsWith(u'?') && rng.chance(p.dropQuestionMarkChance))
        text.chop(1);
    else if (text.endsWith(u'.') && rng.chance(p.dropFullStopChance))
        text.chop(1);
    return text;
}

// Types `message` key by key (one "type" event each, with the whole draft) from an empty draft,
// the first key at s.t.
void typeMessage(Session &s, const ChatSessionParams &p, const QString &message)
{
    Random &rng = s.rng;
    const QStringList words = message.split(u' ');
    // A word in the middle is first typed as something else, then deleted and retyped.
    const int corrected = words.size() >= 4 && rng.chance(p.correctionChance) ? 2 + rng.below(int(words.size()) - 3)
                                                                               : -1;
    QString draft;
    auto key = [&](QChar c) {
        if (!draft.isEmpty())
            s.t += keyGap(rng, p.typing, draft);
        draft += c;
        s.write("type", {str("text", draft)});
    };
    for (int w = 0; w < words.size(); ++w) {
        if (w > 0)
            key(u' ');
        if (w == corrected) {
            QStringList others = SecondThoughts;
            others.removeAll(words.at(w));
            const QString wrong = rng.pick(others);
            for (QChar c : wrong)
                key(c);
            s.t += rng.draw(p.noticePause);
            for (qsizetype k = 0; k < wrong.size(); ++k) {
                if (k > 0)
                    s.t += rng.draw(p.typing.backspace);
                draft.chop(1);
                s.write("type", {str("text", draft)});
            }
        }
        for (QChar c : words.at(w))
            key(c);
    }
}

void playChat(Session &s, const ChatSessionParams &p)
{
    Random &rng = s.rng;
    s.t = 200 + rng.below(600);
    const int tokens = (rng.between(p.docTokens) / 100) * 100;
    s.write("open_document", {str("doc", QStringLiteral("brief")), num("tokens", tokens),
                              num("seed", 1 + rng.below(999999)), str("language", QStringLiteral("en"))});
    s.t += rng.draw(p.firstRead);

    const int total = rng.between(p.messages);
    const bool two = rng.chance(p.secondConversationChance);
    const int inFirst = two ? int(std::llround(total * rng.uniform(p.firstConversationShareMin,
                                                                      p.firstConversationShareMax)))
                            : total;
    for (int m = 0; m < total; ++m) {
        if (m == 0 || m == inFirst) {
            const bool document = m == 0;
            s.write("chat_open", {str("conversation", document ? QStringLiteral("about-brief") : QStringLiteral("free")),
                                  str("mode", document ? QStringLiteral("document") : QStringLiteral("free"))});
            s.t += rng.draw(p.focusInput);
        }
        typeMessage(s, p, chatMessage(rng, p, m < inFirst));
        s.t += rng.draw(p.reviewBeforeSend);
        s.write("send");
        s.t += rng.draw(p.readAfterSend);
    }
}

// --- wizard --------------------------------------------------------------------------------------

struct WizardSessionParams {
    const char *description;
    IntRange runs;
    Lognormal startToTyping;    // wizard_start → first key of the topic
    Lognormal fieldToField;     // Tab or click into the next field
    double changeToneChance;    // the defaults are neutral and medium
    double changeLengthChance;
    Lognormal comboChoice;      // open a combo box and choose
    Lognormal toNext;           // done reading → Next (or Finish) pressed
    // Generation time on the hosted profile, for the reading to start after it.
    qint64 firstTokenMs;
    int tokensPerSecond;
    int stepTokens;             // outline and introduction
    int titleTokens;
    Lognormal readStep;         // reading the finished outline / introduction
    Lognormal readTitle;
    double editOutlineChance;
    double editIntroductionChance;
    Lognormal afterEdit;        // the edit typed → moving on to Next (the edit settles meanwhile)
    Lognormal cancelAfter;      // step opened → Cancel, in the run that is abandoned
    Lognormal betweenRuns;
    TypingCadence typing;
};

const WizardSessionParams WizardSession{
    .description = "Three runs of the new-document wizard (topic form, outline, introduction, title), "
                   "with the form typed at about 52 WPM, each generated step read before Next, some outlines "
                   "edited; one run is cancelled midway.",
    // The brief: 2–3 runs, one of them cancelled midway. Two (one cancelled) take under the
    // two minutes a trace should last, so three.
    .runs = {3, 3},
    // Assumption: a few seconds to decide on a topic.
    .startToTyping = {2500, 0.5, 800, 10000},
    // Assumption: Tab or a click, and a moment to think about the answer.
    .fieldToField = {900, 0.4, 250, 4000},
    // Assumption: most users keep a default, some change it.
    .changeToneChance = 0.5,
    .changeLengthChance = 0.4,
    .comboChoice = {1500, 0.4, 600, 5000},
    // Assumption: a pointing movement to Next, or Alt+N.
    .toNext = {800, 0.4, 250, 4000},
    // The hosted profile: ~750 ms to the first token (localprovider), ~40 tokens/s; the brief:
    // a step generates up to 400 tokens, the title step 120.
    .firstTokenMs = 750,
    .tokensPerSecond = 40,
    .stepTokens = 400,
    .titleTokens = 120,
    // The brief: the outline is read for 8–20 s.
    .readStep = {11000, 0.3, 8000, 20000},
    // Assumption: a title is read in a few seconds.
    .readTitle = {3000, 0.4, 1500, 8000},
    // Assumption: half of the outlines get a line added, a fifth of the introductions a
    // sentence; the user rereads the edit for a second or two.
    .editOutlineChance = 0.5,
    .editIntroductionChance = 0.2,
    .afterEdit = {1500, 0.5, 400, 5000},
    // Assumption: the abandoned run is given up within seconds to half a minute of the step.
    .cancelAfter = {7000, 0.5, 2000, 25000},
    // Assumption: a look at the new document before starting the next one.
    .betweenRuns = {4000, 0.5, 1500, 15000},
    .typing = DhakalTyping,
};

const QStringList WizardTopics = {
    QStringLiteral("Prompt caching in desktop apps"), QStringLiteral("Our spring product launch"),
    QStringLiteral("Saving energy at the office"), QStringLiteral("A beginner's guide to city gardening"),
    QStringLiteral("Why we moved to remote-first work"), QStringLiteral("Onboarding checklist for new hires"),
    QStringLiteral("Quarterly results for the sales team"), QStringLiteral("How to run a good code review"),
    QStringLiteral("Planning a team offsite"), QStringLiteral("Writing clear release notes")};
const QStringList WizardAudiences = {
    QStringLiteral("new engineers"), QStringLiteral("customers"), QStringLiteral("the leadership team"),
    QStringLiteral("students"), QStringLiteral("a general audience"), QStringLiteral("volunteers"),
    QStringLiteral("our sales team")};
const QStringList WizardTones = {QStringLiteral("neutral"), QStringLiteral("friendly"), QStringLiteral("formal"),
                                 QStringLiteral("persuasive"), QStringLiteral("playful")};
const QStringList WizardLengths = {QStringLiteral("short"), QStringLiteral("medium"), QStringLiteral("long")};
const QStringList OutlineAdditions = {
    QStringLiteral("\n- A section with real examples"), QStringLiteral("\n- Costs and risks"),
    QStringLiteral("\n- What we learned"), QStringLiteral("\n- Next steps and owners"),
    QStringLiteral("\n- A short FAQ")};
const QStringList IntroductionAdditions = {
    QStringLiteral(" We wrote this after a year of trying both ways."),
    QStringLiteral(" It takes about ten minutes to read."),
    QStringLiteral(" Questions are welcome at the end.")};

void playWizard(Session &s, const WizardSessionParams &p)
{
    Random &rng = s.rng;
    const int runs = rng.between(p.runs);
    const int cancelledRun = rng.below(runs);
    const int cancelAtStep = 2 + rng.below(2); // while the outline or the introduction is shown
    s.t = 300 + rng.below(700);

    for (int run = 0; run < runs; ++run) {
        if (run > 0)
            s.t += rng.draw(p.betweenRuns);
        s.write("wizard_start");
        const QString topic = rng.pick(WizardTopics);
        QString audience;
        QString tone = QStringLiteral("neutral");
        QString length = QStringLiteral("medium");
        auto field = [&] {
            s.write("wizard_field", {num("step", 1), object("data", {str("topic", topic), str("audience", audience),
                                                                     str("tone", tone), str("length", length)})});
        };
        // One draw per statement: the operands of + are evaluated in no fixed order, and the
        // random numbers must be drawn in the same order by every compiler.
        s.t += rng.draw(p.startToTyping);
        s.t += typingTime(rng, p.typing, topic);
        field();
        const QString typedAudience = rng.pick(WizardAudiences);
        s.t += rng.draw(p.fieldToField);
        s.t += typingTime(rng, p.typing, typedAudience);
        audience = typedAudience;
        field();
        if (rng.chance(p.changeToneChance)) {
            s.t += rng.draw(p.comboChoice);
            tone = WizardTones.at(1 + rng.below(int(WizardTones.size()) - 1));
            field();
        }
        if (rng.chance(p.changeLengthChance)) {
            s.t += rng.draw(p.comboChoice);
            QStringList others = WizardLengths;
            others.removeAll(length);
            length = rng.pick(others);
            field();
        }

        bool cancelled = false;
        for (int step = 2; step <= 4; ++step) {
            s.t += rng.draw(p.toNext);
            s.write("wizard_next", {num("step", step)});
            const qint64 opened = s.t;
            if (run == cancelledRun && step == cancelAtStep) {
                s.t = opened + rng.draw(p.cancelAfter);
                s.write("wizard_cancel");
                cancelled = true;
                break;
            }
            const int tokens = step == 4 ? p.titleTokens : p.stepTokens;
            const qint64 generation = p.firstTokenMs + qint64(tokens) * 1000 / p.tokensPerSecond;
            s.t = opened + generation + rng.draw(step == 4 ? p.readTitle : p.readStep);
            const double editChance = step == 2 ? p.editOutlineChance : step == 3 ? p.editIntroductionChance : 0;
            if (rng.chance(editChance)) {
                const QString added = rng.pick(step == 2 ? OutlineAdditions : IntroductionAdditions);
                s.t += rng.draw(p.fieldToField);
                s.t += typingTime(rng, p.typing, added);
                s.write("wizard_edit", {num("step", step), str("append", added)});
                s.t += rng.draw(p.afterEdit);
            }
        }
        if (!cancelled) {
            s.t += rng.draw(p.toNext);
            s.write("wizard_finish");
        }
    }
    s.t += 1000;
}

// --- kinds -------------------------------------------------------------------------------------

struct Kind {
    const char *name;
    const char *description;
    void (*play)(Session &);
};

const std::array<Kind, 4> Kinds = {{
    {"writer-long-doc", WriterLongDoc.description, [](Session &s) { playDocumentUser(s, WriterLongDoc); }},
    {"chat-session", ChatSession.description, [](Session &s) { playChat(s, ChatSession); }},
    {"wizard-session", WizardSession.description, [](Session &s) { playWizard(s, WizardSession); }},
    {"hesitant-user", HesitantUser.description, [](Session &s) { playDocumentUser(s, HesitantUser); }},
}};

// Every trace lasts 2–4 minutes: long enough for a kind's behaviour to show, short enough for a
// benchmark of several traces, profiles and modes. A seed whose trace falls outside is played
// again with the next attempt's random numbers (rarely more than once; deterministic all the same).
constexpr qint64 MinDurationMs = 120000;
constexpr qint64 MaxDurationMs = 240000;
constexpr int MaxAttempts = 100;

} // namespace

QStringList traceKinds()
{
    QStringList names;
    for (const Kind &kind : Kinds)
        names.append(QLatin1String(kind.name));
    return names;
}

std::expected<QByteArray, QString> generateTrace(const QString &kind, quint64 seed)
{
    for (const Kind &k : Kinds) {
        if (kind != QLatin1String(k.name))
            continue;
        QByteArray text;
        for (int attempt = 0; attempt < MaxAttempts; ++attempt) {
            Session session(k.name, seed, quint64(attempt), k.description);
            k.play(session);
            text = session.finish();
            if (session.durationMs() >= MinDurationMs && session.durationMs() <= MaxDurationMs)
                break;
        }
        return text;
    }
    return std::unexpected(QStringLiteral("unknown trace kind \"%1\" (known: %2)")
                               .arg(kind, traceKinds().join(QStringLiteral(", "))));
}

} // namespace Bench
