#pragma once

#include "pointer.h"
#include "typing.h"

namespace Bench::Gen {

class Session;

// Runs of the new-document wizard (NewDocumentWizard): the topic form, then Next to the outline,
// the introduction and the title, each generated and read; bench/README.md has the sources.
struct WizardSessionParams {
    const char *description;
    const PointerParams *pointer;
    IntRange runs;
    double shortcutStartChance; // Ctrl+Shift+W rather than File → New from Wizard
    Lognormal startToTyping;    // wizard_start → first key of the topic
    Lognormal fieldToField;     // Tab or click into the next field, and a moment to think
    double clickFieldChance;    // the next field by a click rather than Tab
    double changeToneChance;    // the defaults are neutral and medium
    double changeLengthChance;
    Lognormal comboChoice; // open a combo box and choose
    Lognormal beforeNext;  // done reading → the move to Next (or Finish) starts
    double altNChance;     // Next by Alt+N rather than the button
    // Generation time on the hosted profile, for the reading to start after it.
    qint64 firstTokenMs;
    int tokensPerSecond;
    int stepTokens; // outline and introduction
    int titleTokens;
    Lognormal readStep; // reading the finished outline / introduction
    Lognormal readTitle;
    double editOutlineChance;
    double editIntroductionChance;
    Lognormal afterEdit;       // the edit typed → moving on to Next (the edit settles meanwhile)
    Lognormal cancelAfter;     // step opened → Cancel, in the run that is abandoned
    double escapeCancelChance; // Esc rather than the Cancel button
    Lognormal betweenRuns;
    TypingCadence typing;
};

extern const WizardSessionParams WizardSession;

void playWizard(Session &s, const WizardSessionParams &p);

} // namespace Bench::Gen
