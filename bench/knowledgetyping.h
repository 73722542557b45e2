#pragma once

#include <QList>
#include <QString>

namespace Knowledge {
class Library;
}

namespace Bench {

// Retrieval while typing, measured on an indexed library (bench_knowledge, docs/benchmarks.md):
// how often the passages of a draft the typing pause would retrieve for are those of the final
// text, and what retrieval costs between Enter and the request being ready, with and without
// the pause's retrieval.
struct TypingFigures {
    // Drafts, and the share whose five passages are the final text's in the same order (the same
    // request: the prefetch is taken over) and as a set.
    struct Drafts {
        int drafts = 0;
        double sameOrder = 0;
        double sameSet = 0;
    };
    // Per language (0 English, 1 Chinese), by what is still to type: [0] only the closing
    // punctuation, [1] one word (in Chinese: character), [2] two, [3] three to five, [4] more.
    // `all`: every draft at a word end; `paused`: those the debounce would act on (at least
    // minChars, the completeness classifier at minConfidence or more).
    Drafts all[2][5];
    Drafts paused[2][5];
    Drafts lastPaused[2]; // the last draft of each question the debounce would act on
    // Enter → request built (retrieval, the message with its passages, the rendered request), ms.
    double freeP50 = 0, freeP95 = 0;     // the free chat's request: no retrieval at all, the baseline
    double offP50 = 0, offP95 = 0;       // no retrieval while typing: the query runs at Enter
    double pausedP50 = 0, pausedP95 = 0; // the pause retrieved for the final text: kept
    double lateP50 = 0, lateP95 = 0;     // the last pause was on an earlier draft: queried at Enter
    int questions = 0;
    int lateQuestions = 0; // questions with an earlier draft the debounce acts on
    int lateSearched = 0;  // of those, the ones whose final text had other terms: searched at Enter
};

// `finals`: the questions as sent; `chinese[i]`: question i is Chinese (its drafts are every
// character prefix, as an input method commits; English ones end at a space).
TypingFigures measureTyping(Knowledge::Library &library, const QList<QString> &finals, const QList<bool> &chinese);

} // namespace Bench
