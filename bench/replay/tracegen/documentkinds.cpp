// The parameters of the four document kinds. "The brief" is the benchmark's design; instant.page
// and Dhakal et al. are PREFETCH.md's "Figures about people"; "assumption" marks a value no
// published figure gives, with why it is plausible. bench/README.md has the same in tables.
#include "documentuser.h"

namespace Bench::Gen {

const DocumentUserParams WriterLongDoc{
    .description = "A writer revising a long English document (about 12k tokens), sometimes with a second "
                   "one open: reads, selects paragraphs, types additions and runs 15 to 18 document actions; "
                   "about half of the hovers on an action button end in a click.",
    // The app shows the chat dock by default; assumption: a quarter of writers close it.
    .chatVisibleChance = 0.75,
    .pointer = &MouseUser,

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
    // other one after a switch; a few seconds in the file dialog.
    .firstRead = {5000, 0.4, 2000, 15000},
    .afterSwitch = {2500, 0.4, 1000, 8000},
    .openDialog = {2500, 0.4, 1000, 8000},

    // The brief: 15–25 actions. 15–18 in all (with the shortcuts) is what fits in 4 minutes
    // with 5–40 s of reading after each.
    .hoverClicks = {14, 16},
    // Assumption: about one action in ten comes from the keyboard.
    .shortcutClicks = {1, 2},
    // Assumption: as long as the move to the toolbar would have taken (the former "approach").
    .beforeShortcut = {500, 0.5, 150, 3000},
    // instant.page (Web Performance Calendar 2019): after 65 ms of hover, about 1 in 2 hovers
    // ends in a click. These are the planned hovers; the path adds some of its own (a neighbour
    // clipped on the way, an overshoot), so 50–60 % planned gives about 50 % measured.
    .clickShareMin = 0.5,
    .clickShareMax = 0.6,
    // Assumption: revising favours the selection actions; each user has favourites of their own.
    .actionWeights = {15, 15, 35, 15, 20},
    .habitSpread = 0.3,

    // instant.page: after 65 ms of hover, more than 300 ms remain on average before the click;
    // press → release about 80 ms.
    .hoverDecisionMs = 65,
    .clickLead = {300, 0.5, 100, 3000}, // mean ≈ 340 ms
    // Assumption: the button goes down once the pointer has stopped, not during the approach.
    .settleToPressMs = 40,
    .pressToClick = {80, 0.25, 40, 150},
    // Assumption: the pointer leaves soon after a click, or rests there while the answer streams.
    .leaveAfterClick = {500, 0.8, 60, 4000},
    // Assumption: no published split of pass-overs by kind. With 4 in 10 being rests (all over
    // 150 ms), a 150 ms hover delay would see about 70 % of its prefetches used, the top of
    // PREFETCH.md's reported 55–70 % hover hit rate; crossings mostly stay under 150 ms.
    .restShare = 0.4,
    .rest = {700, 0.6, 200, 5000},
    // Assumption: some rests are second thoughts on the button clicked a moment later.
    .restOnTargetChance = 0.4,
    // Assumption: a crossing is a move across the button to somewhere 20–120 px beyond it, where
    // the pointer stops a moment; now and then it goes back to the text for a few seconds.
    .crossingOvershoot = {20, 120},
    .afterCrossing = {300, 0.6, 80, 2000},
    .wanderChance = 0.1,
    .wander = {2500, 0.6, 800, 10000},

    // Assumption: a drag over one paragraph takes about a second; the writer works forward
    // through the text a few paragraphs at a time, sometimes acting on the same paragraph again,
    // and clicks the selection away before some of the actions that need none.
    .keyboardSelection = false,
    .selectDrag = {900, 0.4, 300, 4000},
    .keyboardNavigate = {1500, 0.5, 400, 6000},
    .navigateWithCtrlChance = 0,
    .selectKey = {170, 0.35, 60, 600},
    .paragraphStep = {1, 5},
    .keepSelectionChance = 0.3,
    .clearSelectionChance = 0.3,

    .tabWalkChance = 0,
    .tabWalkToTargetChance = 0,
    .tabStep = {260, 0.35, 120, 900},
    .tabWalkPause = {700, 0.5, 200, 3000},
    .mouseMoveChance = 0,

    // The brief: an answer streams for about 10 s (400 tokens at 40 tokens/s); users read for
    // 5–40 s before the next action, often moving on before a long answer ends. Assumption: in
    // one reading in three the pointer moves to another spot.
    .readAfterClick = {7500, 0.4, 5000, 40000},
    .readingMoveChance = 0.3,
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

// Fields not set here are the writer's, with its sources; those set here without a comment
// are this kind's own assumptions.
const DocumentUserParams HesitantUser = [] {
    DocumentUserParams p = WriterLongDoc;
    p.description = "An unpredictable user on the same kind of long document: hovers over the action buttons "
                    "and rests on them far more often than they click (about 15 % of hovers end in a click), "
                    "runs a few actions, some through keyboard shortcuts.";
    // Assumption: less often a second document.
    p.secondDocChance = 0.3;
    p.firstRead = {6000, 0.4, 2000, 15000};
    // The brief: a few actions.
    p.hoverClicks = {6, 8};
    // Assumption: a user who avoids committing with the pointer uses the keyboard more often.
    p.shortcutClicks = {2, 3};
    // PREFETCH.md, "When not to prefetch": unpredictable users, hit rates of 10–20 %.
    p.clickShareMin = 0.12;
    p.clickShareMax = 0.18;
    // Assumption: hesitant users take longer to commit than instant.page's average visitor.
    p.clickLead = {500, 0.6, 120, 4000};
    // Assumption: half of the pass-overs are rests, longer than the writer's: reading the
    // tooltip, deciding against it.
    p.restShare = 0.5;
    p.rest = {1100, 0.6, 250, 6000};
    p.restOnTargetChance = 0.5;
    p.afterCrossing = {400, 0.6, 80, 2500};
    // Assumption: moves back to the text three times as often between hovers.
    p.wanderChance = 0.3;
    p.selectDrag = {1000, 0.4, 300, 4000};
    p.readingMoveChance = 0.4; // assumption: a restless pointer
    p.stopChance = 0.1;        // assumption: a little rarer than the writer, with fewer actions to regret
    p.edits = {1, 2};          // assumption: fewer, as fewer actions
    return p;
}();

// Fields not set here are the writer's, with its sources; those set here without a comment
// are this kind's own assumptions.
const DocumentUserParams DecisiveWriter = [] {
    DocumentUserParams p = WriterLongDoc;
    p.description = "A writer who knows what they want, on a long English document: goes straight to the "
                    "button and clicks about 200 ms after reaching it, rarely passes over another one, "
                    "and works mostly on selections (rewrite, explain).";
    p.secondDocChance = 0.5;
    // Assumption: a shorter look before starting.
    p.firstRead = {4000, 0.4, 2000, 12000};
    p.afterSwitch = {2000, 0.4, 800, 6000};
    p.openDialog = {2000, 0.4, 800, 6000};
    // The brief: 15–25 actions, as the writer.
    p.hoverClicks = {15, 17};
    p.shortcutClicks = {0, 1};
    p.beforeShortcut = {350, 0.5, 100, 2000};
    // The brief: few pass-overs. Assumption: four hovers in five end in a click.
    p.clickShareMin = 0.75;
    p.clickShareMax = 0.85;
    // The brief: more actions on selections.
    p.actionWeights = {8, 8, 45, 9, 30};
    // The brief: clicks a median 150–250 ms after the pointer arrives on the button (assumption:
    // the quicker part of instant.page's visitors, who average over 365 ms).
    p.clickLead = {100, 0.45, 30, 1500};
    p.settleToPressMs = 20;
    p.pressToClick = {75, 0.25, 40, 150};
    p.leaveAfterClick = {350, 0.7, 60, 3000};
    p.restShare = 0.3;
    p.rest = {500, 0.5, 150, 3000};
    p.restOnTargetChance = 0.3;
    p.crossingOvershoot = {20, 100};
    p.afterCrossing = {250, 0.5, 80, 1500};
    p.wanderChance = 0.05;
    p.wander = {2000, 0.6, 800, 8000};
    // Assumption: quicker drags.
    p.selectDrag = {700, 0.35, 250, 3000};
    p.paragraphStep = {1, 4};
    p.keepSelectionChance = 0.35;
    p.readingMoveChance = 0.2;
    // Assumption: fewer regrets.
    p.stopChance = 0.08;
    p.afterStop = {1200, 0.5, 400, 4000};
    return p;
}();

// Fields not set here are the writer's, with its sources; those set here without a comment
// are this kind's own assumptions.
const DocumentUserParams KeyboardUser = [] {
    DocumentUserParams p = WriterLongDoc;
    p.description = "A keyboard user on a long English document: selects with Shift+arrows, runs every "
                    "action by its shortcut (Ctrl+Alt+S/C/R/T/E), now and then tabs along the action "
                    "buttons first; the mouse barely moves.";
    p.chatVisibleChance = 0.5;
    p.secondDocChance = 0.5;
    // Assumption: closes the notes less often (it takes the mouse: Ctrl+W would close the
    // current tab).
    p.closeSecondChance = 0.2;
    p.openDialog = {2000, 0.4, 800, 6000};
    // The brief: every action by its shortcut; as many as the writer's.
    p.hoverClicks = {0, 0};
    p.shortcutClicks = {15, 18};
    // Assumption: a moment between the selection (or the reading) and the chord.
    p.beforeShortcut = {400, 0.5, 120, 2500};
    p.clickShareMin = 1;
    p.clickShareMax = 1;
    p.wanderChance = 0;
    // The brief: Shift+arrows. Assumption: 0.4–6 s of arrow and Page keys to the paragraph, half
    // the time with word or paragraph jumps (Ctrl held); one Shift+Down per line at about the
    // speed of in-word typing, and Shift+End for the last one.
    p.keyboardSelection = true;
    p.navigateWithCtrlChance = 0.5;
    // The brief: moves focus with Tab sometimes. Assumption: before one shortcut in five the
    // user tabs along the buttons (a Tab every quarter second), mostly to the action about to
    // run, and reads it; and moves the mouse out of the way before one action in ten.
    p.tabWalkChance = 0.2;
    p.tabWalkToTargetChance = 0.6;
    p.mouseMoveChance = 0.1;
    p.readingMoveChance = 0;
    return p;
}();

} // namespace Bench::Gen
