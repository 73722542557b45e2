#pragma once

#include "prefetch/stream/retrypolicy.h"

#include <QtGlobal>

#include <chrono>

namespace Prefetch {

using std::chrono::milliseconds;
using namespace std::chrono_literals;

// Every parameter of the engine and its strategies, with the defaults of PREFETCH.md.
// A value type: the app loads it from settings and hands a copy to the engine.
struct Settings {
    struct Warmup {
        bool enabled = true;
        // Re-warm while the document stays open; sooner where the provider keeps its cache for
        // less (Anthropic's five minutes: Llm::ProviderProfile::cacheLifetime()).
        milliseconds interval = 10min;
        // A document not current, or current and untouched, for this long is not re-warmed:
        // its cache is paid for again every interval and nobody is using it.
        milliseconds idleLimit = 30min;
    } warmup;

    struct Hover {
        bool enabled = true;
        milliseconds delay = 150ms; // pointer rests this long before the prefetch starts
        milliseconds ttl = 30s;
    } hover;

    struct Debounce {
        bool enabled = true;
        milliseconds delay = 350ms; // a typing pause this long asks the classifier
        // ... or this long when the draft ends a sentence ("?", "."): Enter usually follows
        // within 200-600 ms, so waiting the full pause would leave the answer little lead.
        // A final "?" is hardly ever followed by more text: at 30 ms instead of 120 the replay's
        // chat kinds bill the same and get their answer ~80 ms sooner (docs/benchmarks.md).
        // Not 0: the events of the same keystroke (an input method's commit) land first.
        milliseconds sentenceEndDelay = 30ms;
        int minChars = 10;
        // Right after an answer, drafts shorter than minChars are judged too (at least two
        // characters): a follow-up of a word or two ("why?", "shorter", "为什么？") is often the
        // whole message (issue 39). Off, a draft is judged alone, as before.
        bool shortFollowUps = true;
        // After an answer, the chat offers follow-ups (the user's own frequent replies, then a
        // few built-in ones; workspace/chat/followups.h) and guesses the first one's answer as a
        // weak signal (a prefix): a click on it, or typing it, takes that answer over (issue 39).
        // Off, nothing is offered or guessed.
        bool suggestFollowUps = true;
        // The first suggestion's guess is kept this long: it is read after the answer, which
        // takes a while (a 600-word answer is ~2.5 minutes at 240 words a minute; Brysbaert 2019,
        // "How many words do we read per minute?"). Kept, it costs nothing more: its prefix
        // arrived long before.
        milliseconds followUpTtl = 300s;
        // The chat input completes the draft in grey (workspace/chat/draftcompleter.h): a message
        // the user sent before or a suggestion (accepted, its answer starts at once, as a draft
        // that is complete), else the word being typed from the conversation and the document.
        // Local: nothing is asked of a provider. Off, nothing is shown (issue 39).
        bool completeDrafts = true;
        double minConfidence = 0.72; // completeness classifier threshold
        milliseconds ttl = 45s;
        // 0 = off: the sent text must equal the draft after normalisation. Otherwise the
        // minimum similarity (0..1) at which a different sent text still takes over.
        double similarityThreshold = 0.0;
        bool modelClassifier = false; // ask a small model for {"confidence": x} instead
        // At a pause, warm the provider's cache with what the draft's request carries before
        // the draft itself (a library question's passages), long before the draft looks
        // complete: the answer's prefill then reads them from the cache. A warm-up, so the
        // warm-up switch applies too. Only while the draft does not look finished: a finished
        // one's answer carries the same context. Off: on the replay's library questions it cut
        // the hosted p50 by ~100-190 ms and more than doubled what they cost, since a draft's
        // passages change with most words typed (docs/benchmarks.md, "Warming the passages").
        bool warmContext = false;
    } debounce;

    struct Workflow {
        bool enabled = true;
        milliseconds ttl = 120s;
    } workflow;

    // The earlier, weaker signals (Strategy::Trajectory ... Habits). Each guesses with a prefix
    // of speculation.prefixTokens, and only where the provider can continue an answer.
    struct Trajectory {
        bool enabled = true;
        // The pointer is predicted to arrive on a button whose rectangle grown by this much
        // contains the predicted end of its movement.
        int slopPx = 6;
        // A guess is kept this long after the prediction stops pointing at its button (the
        // pointer brakes and turns a little before it lands).
        milliseconds grace = 300ms;
        milliseconds ttl = 20s;
    } trajectory;
    struct Selection {
        bool enabled = true;
        // A selection unchanged this long is finished, where nothing says so sooner: letting go
        // of the mouse button or of Shift does (Speculator::selectionFinished()), and gives
        // the guess these 200 ms more lead.
        milliseconds settle = 200ms;
        milliseconds ttl = 60s;
    } selection;
    struct Keyboard {
        bool enabled = true;
        milliseconds ttl = 20s;
    } keyboard;
    struct Reading {
        bool enabled = true;
        milliseconds dwell = 400ms; // a document open and unedited this long is being read
        milliseconds ttl = 120s;
    } reading;
    struct Habits {
        bool enabled = true;
        // After an answer, the action this user usually takes next is guessed when at least
        // this likely (from their own counts, kept on this machine). At 0.6 it takes two
        // observations of the same next action (0.47 after one, 0.59 after two, with the prior):
        // at 0.35 one was enough, and 1 guess in 21 was used in the replay benchmark.
        double minProbability = 0.6;
        milliseconds ttl = 120s;
    } habits;

    // Buffering of a session that nobody consumes yet.
    int bufferTokens = 200; // at the cap the session stops reading (back-pressure)

    // Speculating on weak signals (where the provider can continue an answer).
    struct Speculation {
        // A weak signal's guess keeps this many tokens: the connection closes there unless a
        // stronger signal or the click comes first (then it streams on). It asks for
        // bufferTokens, which bounds its cost at the provider; what it keeps is what a provider
        // that stops on a closed connection bills when the guess is wrong. About the tokens a
        // steady reveal shows while the continuation's first token is on its way (its time to
        // first token × the provider's rate). See Engine::prefetch.
        int prefixTokens = 32;
        // At most this many answers are guessed at once for one weak signal (the likeliest).
        int maxAnswers = 2;
        // A weak signal that learns how often it is right (a finished selection, the modifiers
        // held, the pointer heading for a button, a document just opened) guesses an answer
        // only where its wrong guesses are expected to cost at most this share of what
        // the answers it is right about cost, at the provider's prices (GuessCost): the guess
        // must be at least GuessCost::breakEven(wasteShare) likely. At 1 a guess pays while its
        // expected waste is at most what it is right about: 22 % likely on a 12k-token document
        // at DeepSeek's prices. 0.40, the share issue 40 bounds the whole bill by, was tried
        // first: it kept every sweep point under 40 % but guessed a new user's likeliest action
        // on a selection (1 in 3) too rarely, and the keyboard user waited 205 ms instead of 1
        // (docs/benchmarks.md, "Selections that lead to an action").
        double wasteShare = 1.0;
    } speculation;

    // The response cache (ResponseCache): the answer already given to exactly this request
    // (the same document revision, selection, action, model and parameters) is given again at
    // once, marked as such, Regenerate one click away. On by default: the request is the same
    // byte for byte, so the only thing a new one would change is the sampling, and what the
    // user gets is the same answer without the wait or the cost. Near-duplicate chat questions
    // show the earlier answer as a draft until the live one replaces it.
    struct Cache {
        bool enabled = true;
        bool nearDuplicates = true;
    } cache;

    // Speculation etiquette: no guess goes out while the desktop is on battery (or low on it),
    // in power-saver mode or on a metered connection. Read by System::SpeculationEtiquette,
    // which the app puts in front of the engine; the engine and the benchmarks do not see the
    // desktop's conditions.
    bool pauseOnBatteryAndMetered = true;

    // Fast/slow routing (messageroute.h): in free chat, small talk and simple factual questions
    // go to the profile's fast model where it names one apart from the main model
    // (Llm::ProviderProfile::hasDistinctFastModel); the answer says so, one click from asking
    // the main model. Documents, the library and attached files always go to the main model.
    // With a reasoning main model (Llm::ProviderProfile::thinksFirst) the fast model may also
    // write one line on what the main model is thinking about, shown in the answer until its
    // text begins (the instant acknowledgement, prefetch/acknowledgement.h). Off by default: it
    // is a request more for every message.
    //
    // The fast opening: in the same chats, a message that goes to the main model has its first
    // openingTokens written by the fast model, shown at once and marked as the fast model's,
    // and the main model continues from them (where the provider can continue an answer; not
    // Claude 4.6 and later). Off by default: the replay benchmark finds the first token sooner
    // and a pause where the main model takes over (docs/benchmarks.md, "The fast opening").
    struct Routing {
        bool enabled = true;
        bool acknowledge = false;
        bool fastOpening = false;
        int openingTokens = 32; // about a sentence
    } routing;

    // Lanes, per provider.
    int foregroundInFlight = 10;
    int prefetchInFlight = 2; // at most 20 % of the foreground lane
    int prefetchQueue = 5;    // beyond this a prefetch is rejected

    // Foreground answers that fail before their first token because the provider is busy are
    // asked for again (see RetryPolicy); prefetches never are: a failed guess is a miss.
    RetryPolicy retry;
    // How long a streaming answer may go without data before it fails as a timeout; 0: the
    // transport's default (Llm::StreamOptions::idleTimeout). Tests shorten it.
    milliseconds streamIdleTimeout{0};
    // The longest any one request may take, start to end (time paused at a prefetch's cap not
    // counted): a server that sends keep-alives and nothing else would otherwise hold the
    // answer forever. Ten minutes is well past the longest answer a hosted model streams.
    milliseconds requestTimeLimit{600'000};

    // Sliding one-hour budget for prefetch traffic, in tokens and in money (the provider's
    // currency, its price table applied); 0 = unlimited. A guess must fit both. Prompt tokens
    // count in full (a cached read too), so a 12k-token document costs 12k a guess: an intense
    // writer (~270 actions an hour, every strategy on) has its prefetches read 5-10M tokens an
    // hour, mostly from the cache, about $0.20 on the deepseek prices (the replay benchmark,
    // docs/benchmarks.md). The defaults leave that alone and stop a runaway at twice and five
    // times it. 200k, the first default, was spent in an intense writer's first minute.
    qint64 hourlyTokenBudget = 20'000'000;
    double hourlyMoneyBudget = 1.0;

    // Alarms.
    double hitRateFloor = 0.35;     // alarm below this hit rate ...
    int minAttemptsForAlarm = 20;   // ... once a strategy has this many attempts
    double extraCostCeiling = 0.50; // degrade (pause) above this extra cost ...
    double extraCostResume = 0.40;  // ... and resume below this (hysteresis)

    milliseconds metricsSignalInterval = 100ms;
    int latencyWindow = 200; // samples kept per series for p50/p95
};

} // namespace Prefetch
