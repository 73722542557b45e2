#pragma once

#include "llm/llmtypes.h"
#include "llm/pricing.h"
#include "llm/providerprofile.h"

#include <QHash>

namespace Prefetch {

class AnswerFetch;

// What speculation adds to the user's bill, estimated as it runs: everything the provider billed
// (every guess that was never used, every answer the user saw with the early parts it was taken
// over from, warm-ups and side requests) against what the user's answers would have cost had
// nothing been sent early. That second figure is the one the app cannot read off a bill: a wrong
// guess's prompt, written to the provider's cache, makes the user's next answer a cache read, so
// counting the guess as waste and the answer at its billed price counts the write twice (a
// hesitant user's prefetch made the bill smaller while the guesses' own accounts said +265 %:
// docs/prefetch.md, "The time a guess saves"). So each answer is priced again as if only the
// user's own requests had gone out: its prompt read from the provider's cache only as far as one
// of the user's earlier requests, within the cache's life, began the same way (a shadow of the
// provider's cache fed with the user's requests alone), never further than the provider really
// read it.
//
// A request cut before the provider reported its usage (a guess dropped, an answer stopped) has
// its prompt estimated by the answer, with no cache read; priced so, one cut guess on a 12k-token
// document weighs fifty cached ones. Its read is estimated here from a second shadow, fed with
// everything sent: as far as an earlier request began the same way.
//
// Estimates, not a bill: the prompt of an answer fetched in parts is taken as the parts' mean (a
// continuation re-reads the prompt plus a short prefix); the shadows match beginnings in blocks of
// kBlockChars characters of the prompt's text (a provider matches in blocks of tokens); where the
// provider decides how long it keeps a prompt the shadows keep it kCacheLifetimeAssumedMs. A free
// provider is priced as the local demo engine is, as GuessCost does, so that tokens still weigh
// what they weigh on a hosted one. Bounded: at most kMaxBlocks remembered blocks per shadow. GUI
// thread.
class BillEstimate
{
public:
    // Where the provider decides how long it keeps a prompt (OpenAI, DeepSeek, Qwen): an
    // assumption, on the side of spending less. OpenAI's guide (platform.openai.com/docs/guides/
    // prompt-caching, read 2026-12-08) keeps a prefix 5-10 minutes of inactivity and at most an
    // hour in memory, and 24 hours for gpt-5.5 and later; DeepSeek's, hours. A longer life here
    // makes the bill without prefetch smaller and the share added larger, so the hour errs on
    // the side of cutting guesses, not of spending.
    static constexpr qint64 kCacheLifetimeAssumedMs = 60 * 60 * 1000;
    static constexpr qsizetype kBlockChars = 128;
    static constexpr qsizetype kMaxBlocks = 32768;
    // Each new answer keeps this much of what came before: the estimate follows the last few
    // dozen answers, so a user whose habits change is judged by what they do now.
    static constexpr double kDecayPerAnswer = 0.97;
    // Over the bound (Settings::extraCostResume), isOver(); back under bound · kRelief, no longer.
    static constexpr double kRelief = 0.75;

    // Prices and cache rules of `profile`; what was counted is forgotten (other prices).
    void setProfile(const Llm::ProviderProfile &profile);
    void setBound(double bound);

    // Something billed that is no part of an answer the user saw: a guess never used, a warm-up
    // (`request` what it asked), a side request (none). `money` at the provider's prices (0 where
    // it is free). `nowMs` on a monotonic clock.
    void billedAside(const Llm::Usage &usage, double money, const Llm::ChatRequest *request = nullptr,
                     qint64 nowMs = 0);
    // An answer the user saw ended: `fetch` is what fetched it (its parts, its request), null for
    // one the response cache gave (billed nothing, with or without prefetch), `usage` and `money`
    // what the provider billed for every part.
    void answerEnded(const AnswerFetch *fetch, const Llm::Usage &usage, double money, qint64 nowMs);
    // The same for a request fetched in `parts` requests that answered `answer` (answerEnded()
    // and tests): a provider keeps the answer in its cache with the prompt, and the next turn of
    // a conversation, which carries it, reads it from there.
    void answerBilled(const Llm::ChatRequest &request, int parts, const Llm::Usage &usage, double money, qint64 nowMs,
                      const QString &answer = {});

    // Everything billed, and the user's answers priced as if nothing had been sent early, both
    // decayed per answer; in the provider's currency (the stand-in's where it is free).
    double billed() const { return m_billed; }
    double without() const { return m_without; }
    int answers() const { return m_answers; }
    // The same, not decayed: since the profile was set (the replay sets them beside the bill).
    double totalBilled() const { return m_totalBilled; }
    double totalWithout() const { return m_totalWithout; }
    // billed / without - 1; 0 before the first answer that cost anything.
    double extraShare() const;
    // The share added is over the bound (with hysteresis, see kRelief).
    bool isOver() const { return m_over; }

    void clear();

private:
    // A request's text in blocks: the hash of everything up to the end of each block, and its
    // tokens by the estimate.
    using Beginnings = QList<std::pair<size_t, qint64>>;
    static Beginnings beginningsOf(const Llm::ChatRequest &request);
    // What a provider's cache holds: the blocks it saw, each with its tokens and last use.
    struct Shadow {
        struct Block {
            qint64 tokens = 0;
            qint64 lastMs = 0;
        };
        QHash<size_t, Block> blocks;
        // Tokens of the longest of `beginnings` seen within `lifeMs`; 0 for none.
        qint64 shared(const Beginnings &beginnings, qint64 nowMs, qint64 lifeMs) const;
        // Kept (or renewed), the oldest dropped past kMaxBlocks.
        void remember(const Beginnings &beginnings, qint64 nowMs, qint64 lifeMs);
    };

    Llm::Prices pricesOf(const QString &model) const;
    qint64 lifeMs() const;
    // `usage` with its cache read estimated from what was sent before, where the provider did
    // not say (a request cut before its usage came); what it is billed at.
    Llm::Usage withReadEstimated(const Llm::Usage &usage, int parts, const Beginnings &beginnings,
                                 const Llm::ChatRequest &request, qint64 nowMs) const;
    double moneyOf(const Llm::Usage &usage, double money, const QString &model, bool estimated) const;
    void update();

    Llm::ProviderProfile m_profile;
    double m_bound = 0.40;
    Shadow m_sent; // everything sent: the provider's cache as it is
    Shadow m_own;  // the user's own requests: the cache without prefetch
    double m_billed = 0;
    double m_without = 0;
    double m_totalBilled = 0;
    double m_totalWithout = 0;
    int m_answers = 0;
    bool m_over = false;
};

} // namespace Prefetch
