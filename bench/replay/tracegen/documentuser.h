#pragma once

#include "pointer.h"
#include "typing.h"

namespace Bench::Gen {

class Session;

// What a user of a document kind does with documents, the action buttons and the keyboard.
// writer-long-doc, hesitant-user, decisive-writer and keyboard-user are instances of it
// (documentkinds.cpp); bench/README.md lists the values and their sources.
struct DocumentUserParams {
    const char *description;

    // Screen and mouse.
    double chatVisibleChance; // the chat dock is shown (it narrows the document)
    const PointerParams *pointer;

    // Documents.
    IntRange mainTokens;    // the long document opened first
    double secondDocChance; // a second document is opened after a quarter to half of the actions
    IntRange secondTokens;
    double secondChineseChance; // the second document is Chinese (the translate case)
    double switchChance;        // per activation once both are open: switch to the other one
    double closeSecondChance;   // the second document is closed before the end
    Lognormal firstRead;        // opening → first move
    Lognormal afterSwitch;      // switching → next move
    Lognormal openDialog;       // Ctrl+O → the file chosen in the dialog

    // Activations. The trace holds exactly hoverClicks + shortcutClicks clicks; pass-overs are
    // added so that a share drawn from [clickShareMin, clickShareMax] of the planned hovers end in
    // a click, and all of them are shuffled into the sequence the user goes through.
    IntRange hoverClicks;
    IntRange shortcutClicks;  // Ctrl+Alt+S/C/R/T/E, no hover before them
    Lognormal beforeShortcut; // ready (reading done, selection made) → the modifiers go down
    double clickShareMin;
    double clickShareMax;
    std::array<int, 5> actionWeights; // toolbar order
    double habitSpread;               // per trace, each weight × exp(σ·N(0,1)): users have favourites

    // Hover and click. The pointer's movements between them come from `pointer` (Fitts's law).
    qint64 hoverDecisionMs;     // hover time after which the click chance is measured
    Lognormal clickLead;        // further time from hover_enter to the click
    qint64 settleToPressMs;     // the press comes at least this long after the pointer settles
    Lognormal pressToClick;     // press → release
    Lognormal leaveAfterClick;  // click → the pointer moves off the button
    double restShare;           // share of pass-overs that are rests rather than crossings
    Lognormal rest;             // the pointer rests on a button it does not click
    double restOnTargetChance;  // a rest is on the button clicked next (not just before the click)
    IntRange crossingOvershoot; // px: a crossing ends this far beyond the button it crossed
    Lognormal afterCrossing;    // the pointer stops there a moment
    double wanderChance;        // after a pass-over, the pointer goes back to the text a while
    Lognormal wander;

    // Selection (rewrite and explain need one; the others use none).
    bool keyboardSelection;        // Shift+arrows instead of a drag
    Lognormal selectDrag;          // dragging over a paragraph
    Lognormal keyboardNavigate;    // arrows and Page keys to the paragraph
    double navigateWithCtrlChance; // the navigation jumps words or paragraphs, Ctrl held
    Lognormal selectKey;           // one Shift+Down (or the final Shift+End)
    IntRange paragraphStep;        // the next selection is this many paragraphs further on
    double keepSelectionChance;    // rewrite/explain again on the paragraph still selected
    double clearSelectionChance;   // click into the text (selection cleared) before other actions

    // The keyboard user's focus and mouse.
    double tabWalkChance;         // per shortcut: first tab along the buttons
    double tabWalkToTargetChance; // the walk stops on the action about to run
    Lognormal tabStep;            // one Tab (or Shift+Tab)
    Lognormal tabWalkPause;       // at the end of the walk
    double mouseMoveChance;       // per action, the mouse is moved out of the way at all

    // Reading and Stop.
    Lognormal readAfterClick; // click → the user's next move
    double readingMoveChance; // the pointer moves to another spot while reading
    double stopChance;        // per click: Stop mid-answer, then the same action again
    Lognormal stopAfterClick;
    Lognormal afterStop; // Stop → next move (re-select, re-click)
    double reselectAfterStopChance;

    // Edits: the user types a sentence or two at the end of the current document.
    IntRange edits;
    IntRange editTokens; // ~4 characters per token (the engine's estimate)
    TypingCadence typing;
};

extern const DocumentUserParams WriterLongDoc;
extern const DocumentUserParams HesitantUser;
extern const DocumentUserParams DecisiveWriter;
extern const DocumentUserParams KeyboardUser;

void playDocumentUser(Session &s, const DocumentUserParams &p);

} // namespace Bench::Gen
