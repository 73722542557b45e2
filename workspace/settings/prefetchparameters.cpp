#include "workspace/settings/prefetchparameters.h"

#include "workspace/settings/settingsvalues.h"

#include <QLocale>
#include <QSettings>
#include <QVariant>

#include <algorithm>
#include <cmath>

// The table of prefetch parameters: what the settings file, the comparison of two settings and
// the dialog's Prefetch page all read (see PrefetchParameter in prefetchparameters.h).

namespace Gui {

namespace {

using Prefetch::Settings;
using std::chrono::milliseconds;
using Kind = PrefetchParameter::Kind;
using Unit = PrefetchParameter::Unit;
using Group = PrefetchParameter::Group;

double toDouble(bool v)
{
    return v ? 1.0 : 0.0;
}
double toDouble(milliseconds v)
{
    return static_cast<double>(v.count());
}
double toDouble(int v)
{
    return v;
}
double toDouble(qint64 v)
{
    return static_cast<double>(v);
}
double toDouble(double v)
{
    return v;
}
void assign(bool &field, double v)
{
    field = v != 0.0;
}
void assign(milliseconds &field, double v)
{
    field = milliseconds(std::llround(v));
}
void assign(int &field, double v)
{
    field = static_cast<int>(std::lround(v));
}
void assign(qint64 &field, double v)
{
    field = std::llround(v);
}
void assign(double &field, double v)
{
    field = v;
}

// A getter and a setter for one member of Prefetch::Settings, converting through double
// (every stored value is below 2^53, so nothing is lost).
#define HS_FIELD(path)                                                                                                 \
    [](const Settings &s) { return toDouble(s.path); }, [](Settings &s, double v) { assign(s.path, v); }

constexpr double MaxDelayMs = 10'000;
constexpr double MinTtlMs = 1'000;
constexpr double MaxTtlMs = 3'600'000;

const PrefetchParameter Parameters[] = {
    {"prefetch/warmup/enabled", Group::Warmup, Kind::Bool, Unit::None, 0, 1,
     QT_TRANSLATE_NOOP("Gui::AppSettings", "warm-up prefetch"), QT_TRANSLATE_NOOP("Gui::AppSettings", "&Warm-up"),
     QT_TRANSLATE_NOOP("Gui::AppSettings",
                       "Sends the open document once, with a one-token request, so the provider caches it "
                       "and every action on it starts sooner."),
     HS_FIELD(warmup.enabled)},
    {"prefetch/warmup/intervalMs", Group::Warmup, Kind::Integer, Unit::Minutes, 60'000, 7'200'000,
     QT_TRANSLATE_NOOP("Gui::AppSettings", "warm-up interval"),
     QT_TRANSLATE_NOOP("Gui::AppSettings", "Re-warm &every:"),
     QT_TRANSLATE_NOOP("Gui::AppSettings",
                       "While a document stays open, its cache is refreshed this often: provider caches "
                       "expire after minutes."),
     HS_FIELD(warmup.interval)},
    {"prefetch/warmup/idleLimitMs", Group::Warmup, Kind::Integer, Unit::Minutes, 60'000, 86'400'000,
     QT_TRANSLATE_NOOP("Gui::AppSettings", "warm-up idle limit"),
     QT_TRANSLATE_NOOP("Gui::AppSettings", "Stop when &idle for:"),
     QT_TRANSLATE_NOOP("Gui::AppSettings",
                       "A document that has been in the background, or open without use, for this long is "
                       "no longer re-warmed; it is warmed again when you come back to it."),
     HS_FIELD(warmup.idleLimit)},

    {"prefetch/hover/enabled", Group::Hover, Kind::Bool, Unit::None, 0, 1,
     QT_TRANSLATE_NOOP("Gui::AppSettings", "hover prefetch"), QT_TRANSLATE_NOOP("Gui::AppSettings", "&Hover prefetch"),
     QT_TRANSLATE_NOOP("Gui::AppSettings",
                       "Resting the pointer on an action starts its answer; clicking takes it over, "
                       "leaving cancels it."),
     HS_FIELD(hover.enabled)},
    {"prefetch/hover/delayMs", Group::Hover, Kind::Integer, Unit::Milliseconds, 0, MaxDelayMs,
     QT_TRANSLATE_NOOP("Gui::AppSettings", "hover delay"),
     QT_TRANSLATE_NOOP("Gui::AppSettings", "Rest &time before starting:"),
     QT_TRANSLATE_NOOP("Gui::AppSettings", "How long the pointer rests on an action before its answer starts."),
     HS_FIELD(hover.delay)},
    {"prefetch/hover/ttlMs", Group::Hover, Kind::Integer, Unit::Seconds, MinTtlMs, MaxTtlMs,
     QT_TRANSLATE_NOOP("Gui::AppSettings", "hover answer lifetime"),
     QT_TRANSLATE_NOOP("Gui::AppSettings", "&Keep an unused answer for:"),
     QT_TRANSLATE_NOOP("Gui::AppSettings", "An early answer nobody asked for is cancelled after this long."),
     HS_FIELD(hover.ttl)},

    {"prefetch/debounce/enabled", Group::Debounce, Kind::Bool, Unit::None, 0, 1,
     QT_TRANSLATE_NOOP("Gui::AppSettings", "debounce prefetch"),
     QT_TRANSLATE_NOOP("Gui::AppSettings", "&Debounce prefetch (typing pauses)"),
     QT_TRANSLATE_NOOP("Gui::AppSettings",
                       "A pause in typing a message that looks finished starts its answer; sending takes "
                       "it over."),
     HS_FIELD(debounce.enabled)},
    {"prefetch/debounce/delayMs", Group::Debounce, Kind::Integer, Unit::Milliseconds, 0, MaxDelayMs,
     QT_TRANSLATE_NOOP("Gui::AppSettings", "typing pause"), QT_TRANSLATE_NOOP("Gui::AppSettings", "Typing &pause:"),
     QT_TRANSLATE_NOOP("Gui::AppSettings", "How long typing must pause before the draft is considered."),
     HS_FIELD(debounce.delay)},
    {"prefetch/debounce/sentenceEndDelayMs", Group::Debounce, Kind::Integer, Unit::Milliseconds, 0, MaxDelayMs,
     QT_TRANSLATE_NOOP("Gui::AppSettings", "pause after a sentence end"),
     QT_TRANSLATE_NOOP("Gui::AppSettings", "Pause after a se&ntence end:"),
     QT_TRANSLATE_NOOP("Gui::AppSettings",
                       "A draft that ends with a question mark or full stop is considered after this "
                       "shorter pause: Enter usually follows within half a second."),
     HS_FIELD(debounce.sentenceEndDelay)},
    {"prefetch/debounce/minChars", Group::Debounce, Kind::Integer, Unit::Characters, 0, 10'000,
     QT_TRANSLATE_NOOP("Gui::AppSettings", "minimum draft length"),
     QT_TRANSLATE_NOOP("Gui::AppSettings", "Minimum draft &length:"),
     QT_TRANSLATE_NOOP("Gui::AppSettings", "Shorter drafts are never sent early, except short follow-ups."),
     HS_FIELD(debounce.minChars)},
    {"prefetch/debounce/shortFollowUps", Group::Debounce, Kind::Bool, Unit::None, 0, 1,
     QT_TRANSLATE_NOOP("Gui::AppSettings", "short follow-ups"),
     QT_TRANSLATE_NOOP("Gui::AppSettings", "Judge short &follow-ups after an answer"),
     QT_TRANSLATE_NOOP("Gui::AppSettings",
                       "Right after an answer, a reply of a word or two (\"why?\", \"shorter\") can be "
                       "sent early too, although it is shorter than the minimum length."),
     HS_FIELD(debounce.shortFollowUps)},
    {"prefetch/debounce/suggestFollowUps", Group::Debounce, Kind::Bool, Unit::None, 0, 1,
     QT_TRANSLATE_NOOP("Gui::AppSettings", "suggested follow-ups"),
     QT_TRANSLATE_NOOP("Gui::AppSettings", "Su&ggest follow-ups after an answer"),
     QT_TRANSLATE_NOOP("Gui::AppSettings", "Offers replies you often send (and a few common ones) under an answer; the "
                                           "first one's answer is started in advance, a few words of it."),
     HS_FIELD(debounce.suggestFollowUps)},
    {"prefetch/debounce/followUpTtlMs", Group::Debounce, Kind::Integer, Unit::Seconds, MinTtlMs, MaxTtlMs,
     QT_TRANSLATE_NOOP("Gui::AppSettings", "suggested follow-up lifetime"),
     QT_TRANSLATE_NOOP("Gui::AppSettings", "Keep a suggestion's &early answer for:"),
     QT_TRANSLATE_NOOP("Gui::AppSettings",
                       "The first suggestion's early answer waits this long for you to read the answer "
                       "before it, then it is dropped."),
     HS_FIELD(debounce.followUpTtl)},
    {"prefetch/debounce/completeDrafts", Group::Debounce, Kind::Bool, Unit::None, 0, 1,
     QT_TRANSLATE_NOOP("Gui::AppSettings", "draft completion"),
     QT_TRANSLATE_NOOP("Gui::AppSettings", "Complete drafts as you t&ype"),
     QT_TRANSLATE_NOOP("Gui::AppSettings",
                       "Shows in grey how a message you sent before, or a word of the conversation or "
                       "document, would go on; Tab or Right accepts it, Esc dismisses it. An accepted "
                       "message's answer is started at once. Nothing is sent to a provider to complete."),
     HS_FIELD(debounce.completeDrafts)},
    {"prefetch/debounce/minConfidence", Group::Debounce, Kind::Real, Unit::Ratio, 0, 1,
     QT_TRANSLATE_NOOP("Gui::AppSettings", "completeness threshold"),
     QT_TRANSLATE_NOOP("Gui::AppSettings", "&Completeness threshold:"),
     QT_TRANSLATE_NOOP("Gui::AppSettings",
                       "A draft is sent early only when the completeness check is at least this sure (0 "
                       "to 1) that you have finished it."),
     HS_FIELD(debounce.minConfidence)},
    {"prefetch/debounce/ttlMs", Group::Debounce, Kind::Integer, Unit::Seconds, MinTtlMs, MaxTtlMs,
     QT_TRANSLATE_NOOP("Gui::AppSettings", "debounce answer lifetime"),
     QT_TRANSLATE_NOOP("Gui::AppSettings", "Keep an &unused answer for:"),
     QT_TRANSLATE_NOOP("Gui::AppSettings", "An early answer nobody asked for is cancelled after this long."),
     HS_FIELD(debounce.ttl)},
    {"prefetch/debounce/similarityThreshold", Group::Debounce, Kind::Real, Unit::Ratio, 0, 1,
     QT_TRANSLATE_NOOP("Gui::AppSettings", "similarity threshold"),
     QT_TRANSLATE_NOOP("Gui::AppSettings", "Take over when &similar:"),
     QT_TRANSLATE_NOOP("Gui::AppSettings",
                       "0: the message sent must equal the draft. Otherwise the minimum similarity (0 to "
                       "1) at which a slightly different message still takes over the early answer."),
     HS_FIELD(debounce.similarityThreshold)},
    {"prefetch/debounce/modelClassifier", Group::Debounce, Kind::Bool, Unit::None, 0, 1,
     QT_TRANSLATE_NOOP("Gui::AppSettings", "model completeness check"),
     QT_TRANSLATE_NOOP("Gui::AppSettings", "Ask the &model whether a draft is complete"),
     QT_TRANSLATE_NOOP("Gui::AppSettings",
                       "Sends the draft to the provider to judge whether it is finished, instead of the "
                       "built-in check; costs a few tokens per pause."),
     HS_FIELD(debounce.modelClassifier)},
    {"prefetch/debounce/warmContext", Group::Debounce, Kind::Bool, Unit::None, 0, 1,
     QT_TRANSLATE_NOOP("Gui::AppSettings", "passage warm-up at a pause"),
     QT_TRANSLATE_NOOP("Gui::AppSettings", "&Warm the library's passages at a pause"),
     QT_TRANSLATE_NOOP("Gui::AppSettings",
                       "In a chat about your library, the passages found for the draft are sent ahead to "
                       "the provider's prompt cache at each typing pause, so the answer starts a little "
                       "sooner; each pause that finds other passages pays for them again. Needs warm-up "
                       "on; not done for Anthropic, whose cache would not keep them."),
     HS_FIELD(debounce.warmContext)},

    {"prefetch/cache/enabled", Group::Cache, Kind::Bool, Unit::None, 0, 1,
     QT_TRANSLATE_NOOP("Gui::AppSettings", "response cache"),
     QT_TRANSLATE_NOOP("Gui::AppSettings", "Answer &repeats from the cache"),
     QT_TRANSLATE_NOOP("Gui::AppSettings",
                       "A question or action asked again exactly as before (the same document, selection, "
                       "conversation and model) gets the answer it got then, at once and without a "
                       "request, marked as from the cache. Regenerate always asks anew."),
     HS_FIELD(cache.enabled)},

    {"prefetch/cache/nearDuplicates", Group::Cache, Kind::Bool, Unit::None, 0, 1,
     QT_TRANSLATE_NOOP("Gui::AppSettings", "near-duplicate chat questions"),
     QT_TRANSLATE_NOOP("Gui::AppSettings", "Show the answer to a &similar chat question as a draft"),
     QT_TRANSLATE_NOOP("Gui::AppSettings",
                       "A chat question close to one already answered in the same context shows the earlier "
                       "answer at once, marked as a draft, while the live answer comes and replaces it. A "
                       "question almost the same as one answered many times is answered from the cache."),
     HS_FIELD(cache.nearDuplicates)},

    {"prefetch/workflow/enabled", Group::Workflow, Kind::Bool, Unit::None, 0, 1,
     QT_TRANSLATE_NOOP("Gui::AppSettings", "workflow prefetch"),
     QT_TRANSLATE_NOOP("Gui::AppSettings", "W&orkflow prefetch"),
     QT_TRANSLATE_NOOP("Gui::AppSettings",
                       "Completing a step of a wizard starts the answer of the next one from the form "
                       "data."),
     HS_FIELD(workflow.enabled)},
    {"prefetch/workflow/ttlMs", Group::Workflow, Kind::Integer, Unit::Seconds, MinTtlMs, MaxTtlMs,
     QT_TRANSLATE_NOOP("Gui::AppSettings", "workflow answer lifetime"),
     QT_TRANSLATE_NOOP("Gui::AppSettings", "Keep an unused answer &for:"),
     QT_TRANSLATE_NOOP("Gui::AppSettings", "An early answer nobody asked for is cancelled after this long."),
     HS_FIELD(workflow.ttl)},

    {"prefetch/speculation/prefixTokens", Group::Speculation, Kind::Integer, Unit::Tokens, 1, 1'000,
     QT_TRANSLATE_NOOP("Gui::AppSettings", "early guess length"),
     QT_TRANSLATE_NOOP("Gui::AppSettings", "&Length of an early guess:"),
     QT_TRANSLATE_NOOP("Gui::AppSettings",
                       "An early guess keeps only this many tokens (it stops there unless you point at or "
                       "choose the action while it streams), so a wrong one costs little; when you ask, "
                       "they show at once while the rest is fetched. Only where the provider can continue "
                       "an answer."),
     HS_FIELD(speculation.prefixTokens)},
    {"prefetch/speculation/maxAnswers", Group::Speculation, Kind::Integer, Unit::None, 1, 5,
     QT_TRANSLATE_NOOP("Gui::AppSettings", "answers guessed at once"),
     QT_TRANSLATE_NOOP("Gui::AppSettings", "Answers &guessed at once:"),
     QT_TRANSLATE_NOOP("Gui::AppSettings",
                       "When a signal leaves several actions possible, this many of the likeliest are "
                       "guessed."),
     HS_FIELD(speculation.maxAnswers)},
    {"prefetch/speculation/wasteShare", Group::Speculation, Kind::Real, Unit::Percent, 0, 1,
     QT_TRANSLATE_NOOP("Gui::AppSettings", "waste allowed per guess"),
     QT_TRANSLATE_NOOP("Gui::AppSettings", "Let wrong guesses &cost at most:"),
     QT_TRANSLATE_NOOP("Gui::AppSettings",
                       "A guess that learns from what you do (after a selection) is made only where its wrong "
                       "guesses are expected to cost at most this share of what the answers it gets right cost, "
                       "at the provider's prices."),
     HS_FIELD(speculation.wasteShare)},

    {"prefetch/trajectory/enabled", Group::Trajectory, Kind::Bool, Unit::None, 0, 1,
     QT_TRANSLATE_NOOP("Gui::AppSettings", "pointer trajectory prefetch"),
     QT_TRANSLATE_NOOP("Gui::AppSettings", "Pointer &trajectory"),
     QT_TRANSLATE_NOOP("Gui::AppSettings",
                       "While the pointer moves, where it is heading is predicted; an action button it "
                       "will arrive on gets an early guess before the pointer is there."),
     HS_FIELD(trajectory.enabled)},
    {"prefetch/trajectory/slopPx", Group::Trajectory, Kind::Integer, Unit::Pixels, 0, 100,
     QT_TRANSLATE_NOOP("Gui::AppSettings", "trajectory margin"),
     QT_TRANSLATE_NOOP("Gui::AppSettings", "&Margin around a button:"),
     QT_TRANSLATE_NOOP("Gui::AppSettings", "A predicted end this close to a button counts as arriving on it."),
     HS_FIELD(trajectory.slopPx)},
    {"prefetch/trajectory/ttlMs", Group::Trajectory, Kind::Integer, Unit::Seconds, MinTtlMs, MaxTtlMs,
     QT_TRANSLATE_NOOP("Gui::AppSettings", "trajectory guess lifetime"),
     QT_TRANSLATE_NOOP("Gui::AppSettings", "Keep an unused &guess for:"),
     QT_TRANSLATE_NOOP("Gui::AppSettings", "An early guess nobody asked for is cancelled after this long."),
     HS_FIELD(trajectory.ttl)},

    {"prefetch/selection/enabled", Group::Selection, Kind::Bool, Unit::None, 0, 1,
     QT_TRANSLATE_NOOP("Gui::AppSettings", "selection prefetch"),
     QT_TRANSLATE_NOOP("Gui::AppSettings", "Finished &selection"),
     QT_TRANSLATE_NOOP("Gui::AppSettings",
                       "Selecting text guesses the action you usually take on a selection (rewrite, "
                       "explain or translate)."),
     HS_FIELD(selection.enabled)},
    {"prefetch/selection/settleMs", Group::Selection, Kind::Integer, Unit::Milliseconds, 0, MaxDelayMs,
     QT_TRANSLATE_NOOP("Gui::AppSettings", "selection settle time"),
     QT_TRANSLATE_NOOP("Gui::AppSettings", "Selection &unchanged for:"),
     QT_TRANSLATE_NOOP("Gui::AppSettings", "A selection that stays this long is finished."),
     HS_FIELD(selection.settle)},
    {"prefetch/selection/ttlMs", Group::Selection, Kind::Integer, Unit::Seconds, MinTtlMs, MaxTtlMs,
     QT_TRANSLATE_NOOP("Gui::AppSettings", "selection guess lifetime"),
     QT_TRANSLATE_NOOP("Gui::AppSettings", "Keep an unused g&uess for:"),
     QT_TRANSLATE_NOOP("Gui::AppSettings", "An early guess nobody asked for is cancelled after this long."),
     HS_FIELD(selection.ttl)},

    {"prefetch/keyboard/enabled", Group::Keyboard, Kind::Bool, Unit::None, 0, 1,
     QT_TRANSLATE_NOOP("Gui::AppSettings", "keyboard prefetch"),
     QT_TRANSLATE_NOOP("Gui::AppSettings", "&Keyboard focus and shortcuts"),
     QT_TRANSLATE_NOOP("Gui::AppSettings",
                       "Moving the keyboard focus onto an action, or holding a shortcut's Ctrl+Alt, "
                       "guesses the action that follows."),
     HS_FIELD(keyboard.enabled)},
    {"prefetch/keyboard/ttlMs", Group::Keyboard, Kind::Integer, Unit::Seconds, MinTtlMs, MaxTtlMs,
     QT_TRANSLATE_NOOP("Gui::AppSettings", "keyboard guess lifetime"),
     QT_TRANSLATE_NOOP("Gui::AppSettings", "Keep an unused gu&ess for:"),
     QT_TRANSLATE_NOOP("Gui::AppSettings", "An early guess nobody asked for is cancelled after this long."),
     HS_FIELD(keyboard.ttl)},

    {"prefetch/reading/enabled", Group::Reading, Kind::Bool, Unit::None, 0, 1,
     QT_TRANSLATE_NOOP("Gui::AppSettings", "opened-document prefetch"),
     QT_TRANSLATE_NOOP("Gui::AppSettings", "&Opened document"),
     QT_TRANSLATE_NOOP("Gui::AppSettings",
                       "A document just opened and being read guesses what you usually do first (a summary, "
                       "a continuation)."),
     HS_FIELD(reading.enabled)},
    {"prefetch/reading/dwellMs", Group::Reading, Kind::Integer, Unit::Milliseconds, 0, MaxDelayMs,
     QT_TRANSLATE_NOOP("Gui::AppSettings", "reading time"),
     QT_TRANSLATE_NOOP("Gui::AppSettings", "Open and unedited &for:"),
     QT_TRANSLATE_NOOP("Gui::AppSettings",
                       "The guess waits until the document has been open this long without an edit."),
     HS_FIELD(reading.dwell)},
    {"prefetch/reading/ttlMs", Group::Reading, Kind::Integer, Unit::Seconds, MinTtlMs, MaxTtlMs,
     QT_TRANSLATE_NOOP("Gui::AppSettings", "opened-document guess lifetime"),
     QT_TRANSLATE_NOOP("Gui::AppSettings", "Keep an unused gue&ss for:"),
     QT_TRANSLATE_NOOP("Gui::AppSettings", "An early guess nobody asked for is cancelled after this long."),
     HS_FIELD(reading.ttl)},

    {"prefetch/habits/enabled", Group::Habits, Kind::Bool, Unit::None, 0, 1,
     QT_TRANSLATE_NOOP("Gui::AppSettings", "habits prefetch"), QT_TRANSLATE_NOOP("Gui::AppSettings", "Your &habits"),
     QT_TRANSLATE_NOOP("Gui::AppSettings",
                       "After an answer, the action you usually take next is guessed. What you usually do "
                       "is counted on this computer only."),
     HS_FIELD(habits.enabled)},
    {"prefetch/habits/minProbability", Group::Habits, Kind::Real, Unit::Percent, 0, 1,
     QT_TRANSLATE_NOOP("Gui::AppSettings", "habit threshold"),
     QT_TRANSLATE_NOOP("Gui::AppSettings", "Guess when at least &this likely:"),
     QT_TRANSLATE_NOOP("Gui::AppSettings", "How often you took that action next, of the times before."),
     HS_FIELD(habits.minProbability)},
    {"prefetch/habits/ttlMs", Group::Habits, Kind::Integer, Unit::Seconds, MinTtlMs, MaxTtlMs,
     QT_TRANSLATE_NOOP("Gui::AppSettings", "habits guess lifetime"),
     QT_TRANSLATE_NOOP("Gui::AppSettings", "Keep an unused guess fo&r:"),
     QT_TRANSLATE_NOOP("Gui::AppSettings", "An early guess nobody asked for is cancelled after this long."),
     HS_FIELD(habits.ttl)},

    {"prefetch/bufferTokens", Group::Limits, Kind::Integer, Unit::Tokens, 10, 10'000,
     QT_TRANSLATE_NOOP("Gui::AppSettings", "buffer cap"),
     QT_TRANSLATE_NOOP("Gui::AppSettings", "&Buffer per early answer:"),
     QT_TRANSLATE_NOOP("Gui::AppSettings",
                       "An early answer nobody has asked for yet stops reading at this many tokens and "
                       "the provider waits; nothing is dropped."),
     HS_FIELD(bufferTokens)},
    {"prefetch/foregroundInFlight", Group::Limits, Kind::Integer, Unit::Requests, 1, 256,
     QT_TRANSLATE_NOOP("Gui::AppSettings", "foreground lane"),
     QT_TRANSLATE_NOOP("Gui::AppSettings", "&Foreground requests at once:"),
     QT_TRANSLATE_NOOP("Gui::AppSettings", "Answers you asked for that may stream at the same time."),
     HS_FIELD(foregroundInFlight)},
    {"prefetch/requestTimeLimitMs", Group::Limits, Kind::Integer, Unit::Minutes, 60'000, 7'200'000,
     QT_TRANSLATE_NOOP("Gui::AppSettings", "time limit per request"),
     QT_TRANSLATE_NOOP("Gui::AppSettings", "T&ime limit per request:"),
     QT_TRANSLATE_NOOP("Gui::AppSettings",
                       "A request still not done after this long fails as a timeout, keeping the text so far: "
                       "a server that only sends keep-alives cannot hold an answer forever."),
     HS_FIELD(requestTimeLimit)},
    {"prefetch/prefetchInFlight", Group::Limits, Kind::Integer, Unit::Requests, 1, 256,
     QT_TRANSLATE_NOOP("Gui::AppSettings", "prefetch lane"),
     QT_TRANSLATE_NOOP("Gui::AppSettings", "&Prefetch requests at once:"),
     QT_TRANSLATE_NOOP("Gui::AppSettings",
                       "Early answers that may stream at the same time; at most the foreground lane. An "
                       "answer you ask for always takes precedence."),
     HS_FIELD(prefetchInFlight)},
    {"prefetch/prefetchQueue", Group::Limits, Kind::Integer, Unit::Requests, 0, 1'000,
     QT_TRANSLATE_NOOP("Gui::AppSettings", "prefetch queue"), QT_TRANSLATE_NOOP("Gui::AppSettings", "Prefetch &queue:"),
     QT_TRANSLATE_NOOP("Gui::AppSettings", "Early answers waiting for a slot; beyond this many they are skipped."),
     HS_FIELD(prefetchQueue)},
    {"prefetch/hourlyTokenBudget", Group::Limits, Kind::Integer, Unit::Tokens, 0, 1'000'000'000,
     QT_TRANSLATE_NOOP("Gui::AppSettings", "hourly prefetch budget"),
     QT_TRANSLATE_NOOP("Gui::AppSettings", "Hourly token b&udget:"),
     QT_TRANSLATE_NOOP("Gui::AppSettings", "Tokens early answers may use in any hour; 0 means unlimited."),
     HS_FIELD(hourlyTokenBudget)},
    {"prefetch/hourlyMoneyBudget", Group::Limits, Kind::Real, Unit::Money, 0, 10'000,
     QT_TRANSLATE_NOOP("Gui::AppSettings", "hourly money budget"),
     QT_TRANSLATE_NOOP("Gui::AppSettings", "Hourly mone&y budget:"),
     QT_TRANSLATE_NOOP("Gui::AppSettings",
                       "What early answers may cost in any hour, at the provider's prices (Providers page) and "
                       "in its currency; 0 means unlimited. An early answer must fit this and the token budget. "
                       "A provider without prices is not limited by it."),
     HS_FIELD(hourlyMoneyBudget)},

    {"prefetch/etiquette/pauseOnBatteryAndMetered", Group::Etiquette, Kind::Bool, Unit::None, 0, 1,
     QT_TRANSLATE_NOOP("Gui::AppSettings", "pause on battery saver and metered connections"),
     QT_TRANSLATE_NOOP("Gui::AppSettings", "Pause prefetch on battery sa&ver and metered connections"),
     QT_TRANSLATE_NOOP("Gui::AppSettings",
                       "While the battery is low or the computer is in power-saver mode, or its network connection is "
                       "metered, no early answers are started; the answers you ask for still come. The status bar "
                       "says when prefetch is paused and why."),
     HS_FIELD(pauseOnBatteryAndMetered)},

    {"prefetch/routing/enabled", Group::Routing, Kind::Bool, Unit::None, 0, 1,
     QT_TRANSLATE_NOOP("Gui::AppSettings", "fast-model routing"),
     QT_TRANSLATE_NOOP("Gui::AppSettings", "Answer small talk and simple &questions with the fast model"),
     QT_TRANSLATE_NOOP("Gui::AppSettings",
                       "In a chat that is not about a document or the library, greetings, thanks and short "
                       "factual questions go to the provider's fast model (Providers page), which answers "
                       "sooner and costs less. The answer is marked, with a button to ask the main model "
                       "instead. Nothing happens where the fast model is the main model."),
     HS_FIELD(routing.enabled)},
    {"prefetch/routing/acknowledge", Group::Routing, Kind::Bool, Unit::None, 0, 1,
     QT_TRANSLATE_NOOP("Gui::AppSettings", "instant acknowledgement"),
     QT_TRANSLATE_NOOP("Gui::AppSettings", "Acknowledge at once while a reasoning model &thinks"),
     QT_TRANSLATE_NOOP("Gui::AppSettings",
                       "Where the main model thinks before it answers (deepseek-reasoner, QwQ, o-series, Claude with "
                       "extended thinking) and the provider has a fast model, the fast model is asked for one line on "
                       "what the question is about, shown above the answer until the answer begins. It is a small "
                       "request more for every such message, counted in the prefetch budget; off by default."),
     HS_FIELD(routing.acknowledge)},
    {"prefetch/routing/fastOpening", Group::Routing, Kind::Bool, Unit::None, 0, 1,
     QT_TRANSLATE_NOOP("Gui::AppSettings", "fast opening"),
     QT_TRANSLATE_NOOP("Gui::AppSettings", "Let the fast model write the first &words of an answer"),
     QT_TRANSLATE_NOOP("Gui::AppSettings",
                       "In a chat that is not about a document or the library, the fast model writes the first "
                       "sentence of an answer meant for the main model, which then continues it. The first words "
                       "come sooner, followed by a pause while the main model takes over; they are marked as the "
                       "fast model's. Only where the provider can continue an answer (not Claude 4.6 and later); "
                       "off by default."),
     HS_FIELD(routing.fastOpening)},
    {"prefetch/routing/openingTokens", Group::Routing, Kind::Integer, Unit::Tokens, 8, 200,
     QT_TRANSLATE_NOOP("Gui::AppSettings", "fast opening length"),
     QT_TRANSLATE_NOOP("Gui::AppSettings", "Length of the &opening:"),
     QT_TRANSLATE_NOOP("Gui::AppSettings",
                       "How much the fast model writes before the main model continues: longer hides more of the "
                       "main model's wait, and more of the answer is the fast model's."),
     HS_FIELD(routing.openingTokens)},

    {"prefetch/alarms/hitRateFloor", Group::Alarms, Kind::Real, Unit::Percent, 0, 1,
     QT_TRANSLATE_NOOP("Gui::AppSettings", "hit-rate alarm"),
     QT_TRANSLATE_NOOP("Gui::AppSettings", "Warn when the hit rate falls &below:"),
     QT_TRANSLATE_NOOP("Gui::AppSettings",
                       "A strategy whose early answers are used less often than this raises an alarm."),
     HS_FIELD(hitRateFloor)},
    {"prefetch/alarms/minAttempts", Group::Alarms, Kind::Integer, Unit::None, 1, 100'000,
     QT_TRANSLATE_NOOP("Gui::AppSettings", "attempts before alarms"),
     QT_TRANSLATE_NOOP("Gui::AppSettings", "Minimum &attempts before alarms:"),
     QT_TRANSLATE_NOOP("Gui::AppSettings", "Alarms wait until a strategy has made this many attempts."),
     HS_FIELD(minAttemptsForAlarm)},
    {"prefetch/alarms/extraCostCeiling", Group::Alarms, Kind::Real, Unit::Percent, 0, 10,
     QT_TRANSLATE_NOOP("Gui::AppSettings", "extra-cost ceiling"),
     QT_TRANSLATE_NOOP("Gui::AppSettings", "Pause a strategy above e&xtra cost:"),
     QT_TRANSLATE_NOOP("Gui::AppSettings",
                       "What unused early answers cost, as a share of what the answers you used cost: in money "
                       "where the provider has prices, in tokens where it has none. Above this the strategy "
                       "pauses itself."),
     HS_FIELD(extraCostCeiling)},
    {"prefetch/alarms/extraCostResume", Group::Alarms, Kind::Real, Unit::Percent, 0, 10,
     QT_TRANSLATE_NOOP("Gui::AppSettings", "extra-cost resume level"),
     QT_TRANSLATE_NOOP("Gui::AppSettings", "&Resume a paused strategy below:"),
     QT_TRANSLATE_NOOP("Gui::AppSettings",
                       "A paused strategy resumes once its extra cost falls below this; at most the "
                       "ceiling. The early guesses (on a selection, the pointer's way, shortcut keys held, "
                       "a document opened) also keep what they add to your bill under it: over it, each "
                       "one must be likelier to pay."),
     HS_FIELD(extraCostResume)},

    {"prefetch/metrics/signalIntervalMs", Group::Metrics, Kind::Integer, Unit::Milliseconds, 10, 10'000,
     QT_TRANSLATE_NOOP("Gui::AppSettings", "metrics refresh interval"),
     QT_TRANSLATE_NOOP("Gui::AppSettings", "Metrics refresh i&nterval:"),
     QT_TRANSLATE_NOOP("Gui::AppSettings", "How often the metrics panel is updated."), HS_FIELD(metricsSignalInterval)},
    {"prefetch/metrics/latencyWindow", Group::Metrics, Kind::Integer, Unit::Samples, 10, 100'000,
     QT_TRANSLATE_NOOP("Gui::AppSettings", "latency samples"),
     QT_TRANSLATE_NOOP("Gui::AppSettings", "Latency samples &kept:"),
     QT_TRANSLATE_NOOP("Gui::AppSettings", "Latencies kept per series for the median and 95th percentile."),
     HS_FIELD(latencyWindow)},
};

#undef HS_FIELD

} // namespace

std::span<const PrefetchParameter> PrefetchParameters::all()
{
    return Parameters;
}

bool PrefetchParameters::same(const Prefetch::Settings &a, const Prefetch::Settings &b)
{
    for (const PrefetchParameter &p : Parameters) {
        if (p.get(a) != p.get(b))
            return false;
    }
    return true;
}

QString PrefetchParameters::formatValue(const PrefetchParameter &p, double value)
{
    const QLocale locale;
    switch (p.unit) {
    case Unit::None:
        if (p.kind == Kind::Bool)
            return value != 0 ? tr("on") : tr("off");
        return locale.toString(static_cast<qint64>(value));
    case Unit::Milliseconds: return tr("%1 ms").arg(locale.toString(static_cast<qint64>(value)));
    case Unit::Seconds: return tr("%1 s").arg(locale.toString(value / 1000.0, 'g', 6));
    case Unit::Minutes: return tr("%1 min").arg(locale.toString(value / 60'000.0, 'g', 6));
    case Unit::Tokens:
        if (value == 0 && qstrcmp(p.key, "prefetch/hourlyTokenBudget") == 0)
            return tr("unlimited");
        return tr("%1 tokens").arg(locale.toString(static_cast<qint64>(value)));
    case Unit::Characters: return tr("%1 characters").arg(locale.toString(static_cast<qint64>(value)));
    case Unit::Requests: return tr("%1 requests").arg(locale.toString(static_cast<qint64>(value)));
    case Unit::Samples: return tr("%1 samples").arg(locale.toString(static_cast<qint64>(value)));
    case Unit::Ratio: return locale.toString(value, 'f', 2);
    case Unit::Percent: return tr("%1 %").arg(locale.toString(value * 100.0, 'g', 4));
    case Unit::Pixels: return tr("%1 px").arg(locale.toString(static_cast<qint64>(value)));
    case Unit::Money:
        // In no currency: the budget is in whichever the provider in use bills in.
        if (value == 0)
            return tr("unlimited");
        return locale.toString(value, 'f', 2);
    }
    return QString::number(value);
}

namespace {

const PrefetchParameter &parameter(const char *key)
{
    for (const PrefetchParameter &p : Parameters) {
        if (qstrcmp(p.key, key) == 0)
            return p;
    }
    Q_UNREACHABLE();
}

QString trName(const char *text)
{
    return QCoreApplication::translate("Gui::AppSettings", text);
}

} // namespace

void PrefetchParameters::load(QSettings &settings, Prefetch::Settings &prefetch, QStringList &problems)
{
    using namespace SettingsValues;
    const Settings defaults;
    for (const PrefetchParameter &p : Parameters) {
        const QString key = QLatin1String(p.key);
        if (!settings.contains(key))
            continue;
        const QVariant raw = settings.value(key);
        const QString name = trName(p.name);
        const QString fallback = formatValue(p, p.get(defaults));
        if (p.kind == Kind::Bool) {
            if (const auto b = parseBool(raw))
                p.set(prefetch, *b ? 1 : 0);
            else
                problems << tr("The on/off value of %1 in the settings file was neither true nor false; using %2.")
                                .arg(name, fallback);
            continue;
        }
        const auto number = parseNumber(raw);
        if (!number) {
            problems << tr("The %1 in the settings file was not a number; using %2.").arg(name, fallback);
        } else if (p.kind == Kind::Integer && std::trunc(*number) != *number) {
            problems << tr("The %1 in the settings file was not a whole number; using %2.").arg(name, fallback);
        } else if (*number < p.min || *number > p.max) {
            problems << tr("The %1 in the settings file (%2) was outside %3 to %4; using %5.")
                            .arg(name, quoted(raw), formatValue(p, p.min), formatValue(p, p.max), fallback);
        } else {
            p.set(prefetch, *number);
        }
    }

    // Rules between two values: the prefetch lane is at most the foreground lane, and a
    // paused strategy resumes below its ceiling, not above it.
    if (prefetch.prefetchInFlight > prefetch.foregroundInFlight) {
        const PrefetchParameter &p = parameter("prefetch/prefetchInFlight");
        const int fixed = std::min(defaults.prefetchInFlight, prefetch.foregroundInFlight);
        problems << tr("The %1 in the settings file (%2) was larger than the %3 (%4); using %5.")
                        .arg(trName(p.name), formatValue(p, prefetch.prefetchInFlight),
                             trName(parameter("prefetch/foregroundInFlight").name),
                             formatValue(p, prefetch.foregroundInFlight), formatValue(p, fixed));
        prefetch.prefetchInFlight = fixed;
    }
    if (prefetch.extraCostResume > prefetch.extraCostCeiling) {
        const PrefetchParameter &p = parameter("prefetch/alarms/extraCostResume");
        const double fixed = std::min(defaults.extraCostResume, prefetch.extraCostCeiling);
        problems << tr("The %1 in the settings file (%2) was larger than the %3 (%4); using %5.")
                        .arg(trName(p.name), formatValue(p, prefetch.extraCostResume),
                             trName(parameter("prefetch/alarms/extraCostCeiling").name),
                             formatValue(p, prefetch.extraCostCeiling), formatValue(p, fixed));
        prefetch.extraCostResume = fixed;
    }
}

void PrefetchParameters::save(QSettings &settings, const Prefetch::Settings &prefetch)
{
    const Settings defaults;
    for (const PrefetchParameter &p : Parameters) {
        const QString key = QLatin1String(p.key);
        const double value = p.get(prefetch);
        if (value == p.get(defaults))
            settings.remove(key);
        else if (p.kind == Kind::Bool)
            settings.setValue(key, value != 0);
        else if (p.kind == Kind::Integer)
            settings.setValue(key, static_cast<qint64>(value));
        else
            settings.setValue(key, value);
    }
}

} // namespace Gui
