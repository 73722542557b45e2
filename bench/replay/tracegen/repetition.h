#pragma once

#include "random.h"

#include <QString>

namespace Bench::Gen {

// How the repeat-user comes back to what it asked or did before: the response cache's case.
// Each question is the first of a new conversation (so an earlier answer is on the same context:
// no history, the same system prompt); some are an earlier question again, word for word or in
// other words; a document is closed and reopened unchanged and summarized again. Sources beside
// each value in repetition.cpp; bench/README.md lists them.
struct RepetitionParams {
    IntRange conversations;       // new conversations in the trace, one question each
    int freshFirst;               // the first questions are always new (nothing to repeat yet)
    double repeatShare;           // of the later questions: an earlier one asked again
    double exactShareOfRepeats;   // asked again in the same words (the rest reworded)
    double restyleShareOfRewords; // reworded only in case and final mark: the same words to the matcher
    double chineseShare;          // new questions asked in Chinese, through the pinyin IME
    IntRange docTokens;           // the document summarized, closed, reopened and summarized again
    IntRange otherDocTokens;      // the document open meanwhile (the reopened one is not current when closed)
    Lognormal readSummary;        // Summarize's click → the user's next move
    Lognormal reopenAfter;        // the document closed → opened again
};

extern const RepetitionParams Repetition;

// `question` in other words, as a user asks it again: `chinese` questions are IME-segmented
// ('|' where a candidate is committed) and stay so. `restyleOnly`: only the first letter's case
// and the final mark change.
QString rephrase(Random &rng, const QString &question, bool chinese, bool restyleOnly);

} // namespace Bench::Gen
