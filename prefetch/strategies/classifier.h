#pragma once

#include <QString>
#include <QStringView>

#include <functional>
#include <optional>

class QObject;

namespace Prefetch {

// Debounce prefetch asks, at each typing pause, whether the chat draft looks like a finished
// message the user is about to send. These functions are pure, local and instant (linear in
// the draft, bounded for long drafts); any thread may call them.

// What the conversation says about a draft. Right after an answer, a reply of a few words is
// often the whole message ("why?", "shorter", "an example", "为什么？", "再短一点"): it leans on
// the answer just read for what it leaves out.
struct DraftContext {
    bool afterAnswer = false; // the conversation's last message is an answer
};

// 0..1: how likely is this chat draft a finished message the user is about to send?
// A hand-weighted score over surface signals (ending punctuation, question and request words,
// trailing connectors, unclosed brackets/quotes/fences, length, and after an answer the short
// follow-up forms); the weights are in classifier.cpp and docs/prefetch.md, "Completeness
// classifier".
double heuristicCompleteness(QStringView draft, DraftContext context = {});

// The draft's last character ends a sentence: . ! ? and their CJK and full-width forms (not an
// ellipsis, and not when a space follows). Debounce waits a shorter pause after one.
bool endsSentence(QStringView draft);

// Trims, collapses each run of white space (Unicode, ideographic space included) to one
// ASCII space and drops trailing sentence punctuation (. ! ? … and their CJK and full-width
// forms, with any space between them). Case and everything else are kept.
QString normalizeDraft(QStringView text);

// 0..1 similarity of two normalised drafts: 1 - Levenshtein distance / length of the longer,
// over UTF-16 code units (case counts). The common prefix and suffix are skipped first (typical
// edits are local), then the rest is compared exactly with Myers' bit-parallel algorithm
// (Hyyrö's multi-word form, O(n·m/64)) while that costs no more than two ExactSimilarityLimit-
// unit texts. Beyond that the distance is bounded from above by an alignment on anchors
// (16-unit substrings unique in both texts), so the result never overstates the similarity,
// stays close for near copies and costs O(n) plus the same bounded exact work. 1 for two empty
// strings.
inline constexpr qsizetype ExactSimilarityLimit = 8192;
double draftSimilarity(QStringView a, QStringView b);

// Asynchronous, so that a model-based classifier can sit behind the same interface. `done` is
// always called later from the event loop of `context`'s thread (never from inside classify()),
// at most once, and not at all if `context` is destroyed first.
class CompletenessClassifier
{
public:
    virtual ~CompletenessClassifier() = default;
    virtual void classify(const QString &draft, DraftContext about, QObject *context,
                          std::function<void(double confidence)> done) = 0;
};

// heuristicCompleteness() behind the asynchronous interface: computed at once, delivered queued.
class HeuristicClassifier final : public CompletenessClassifier
{
public:
    void classify(const QString &draft, DraftContext about, QObject *context,
                  std::function<void(double confidence)> done) override;
};

// Parses a small model's answer {"confidence": x}, tolerating code fences, surrounding prose,
// single quotes, a quoted number or a percentage ("85%" -> 0.85). nullopt when there is no
// confidence value in 0..1.
std::optional<double> parseConfidenceReply(QStringView reply);
// The same on the beginning of a reply still streaming: the value once something that cannot
// continue the number follows it ({"confidence": 0.85, ...), nullopt before (the text may end
// inside it: "0." and then "85").
std::optional<double> parseConfidencePrefix(QStringView partial);

} // namespace Prefetch
