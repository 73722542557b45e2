#include "billestimate.h"

#include "prefetch/prompts/prompttemplate.h"
#include "prefetch/strategies/guesscost.h"
#include "prefetch/stream/answerfetch.h"

#include "base/tokenestimate.h"

#include <algorithm>

namespace Prefetch {

namespace {

qint64 count(qint64 reported)
{
    return std::max<qint64>(0, reported);
}

// The provider read the whole prompt, and keeps it: it reported the usage, or began the answer.
// A request cut before its first token was cut in its prefill, and (measured on the local
// provider, which keeps what it finished) leaves nothing for the next one to read.
bool prefilled(const Llm::Usage &usage)
{
    return usage.cacheReadTokens >= 0 || usage.outputTokens > 0;
}

QString messageText(const Llm::ChatMessage &message)
{
    return u'\x1e' + QString::number(int(message.role)) + u'\x1f' + message.content;
}

// The prompt's text as the provider reads it, in order; the separators keep one message's end
// from passing for another's beginning.
QString promptText(const Llm::ChatRequest &request)
{
    QString text = request.model + u'\x1f' + request.system;
    for (const Llm::ToolDefinition &tool : request.tools)
        text += u'\x1f' + tool.name + u'\x1f' + tool.description + u'\x1f' + QString::fromUtf8(tool.parametersSchema);
    for (const Llm::ChatMessage &message : request.messages)
        text += messageText(message);
    return text;
}

// The hash of everything up to the end of each whole block of `text`, and its tokens. A text
// that begins with another has the other's blocks first.
QList<std::pair<size_t, qint64>> blocksOf(QStringView text)
{
    QList<std::pair<size_t, qint64>> blocks;
    blocks.reserve(text.size() / BillEstimate::kBlockChars + 1);
    size_t hash = 0;
    qint64 tokens = 0;
    for (qsizetype at = 0; at + BillEstimate::kBlockChars <= text.size(); at += BillEstimate::kBlockChars) {
        const QStringView block = text.mid(at, BillEstimate::kBlockChars); // a provider caches whole blocks
        hash = qHash(block, hash);
        tokens += estimateTokens(block);
        blocks.append({hash, tokens});
    }
    return blocks;
}

} // namespace

void BillEstimate::setProfile(const Llm::ProviderProfile &profile)
{
    m_profile = profile;
    clear();
}

void BillEstimate::setBound(double bound)
{
    m_bound = std::max(0.0, bound);
    update();
}

void BillEstimate::clear()
{
    m_sent = {};
    m_own = {};
    m_billed = 0;
    m_without = 0;
    m_totalBilled = 0;
    m_totalWithout = 0;
    m_answers = 0;
    m_over = false;
}

qint64 BillEstimate::lifeMs() const
{
    const std::chrono::milliseconds life = m_profile.cacheLifetime();
    return life.count() > 0 ? qint64(life.count()) : kCacheLifetimeAssumedMs;
}

Llm::Prices BillEstimate::pricesOf(const QString &model) const
{
    return GuessCost::pricesOf(m_profile, model); // a free provider as GuessCost weighs it
}

double BillEstimate::moneyOf(const Llm::Usage &usage, double money, const QString &model, bool estimated) const
{
    // The provider's prices gave `money` for the usage as it was reported; with a read estimated
    // here, or at a free provider, it is priced again.
    if (!estimated && !m_profile.pricesFor(model).isFree())
        return std::max(0.0, money);
    return pricesOf(model).cost(usage);
}

BillEstimate::Beginnings BillEstimate::beginningsOf(const Llm::ChatRequest &request)
{
    return blocksOf(promptText(request));
}

qint64 BillEstimate::Shadow::shared(const Beginnings &beginnings, qint64 nowMs, qint64 lifeMs) const
{
    // Beginnings nest: the longest one held ends the match.
    for (auto it = beginnings.crbegin(); it != beginnings.crend(); ++it) {
        const auto known = blocks.constFind(it->first);
        if (known != blocks.cend() && nowMs - known->lastMs <= lifeMs)
            return it->second;
    }
    return 0;
}

void BillEstimate::Shadow::remember(const Beginnings &beginnings, qint64 nowMs, qint64 lifeMs)
{
    for (const auto &[hash, tokens] : beginnings)
        blocks.insert(hash, {tokens, nowMs});
    if (blocks.size() <= kMaxBlocks)
        return;
    blocks.removeIf([&](QHash<size_t, Block>::iterator it) { return nowMs - it->lastMs > lifeMs; });
    if (blocks.size() <= kMaxBlocks)
        return;
    // All alive: keep the newest.
    QList<qint64> ages;
    ages.reserve(blocks.size());
    for (const Block &block : std::as_const(blocks))
        ages.append(block.lastMs);
    std::nth_element(ages.begin(), ages.begin() + (ages.size() - kMaxBlocks), ages.end());
    const qint64 oldestKept = ages.at(ages.size() - kMaxBlocks);
    blocks.removeIf([&](QHash<size_t, Block>::iterator it) { return it->lastMs < oldestKept; });
}

Llm::Usage BillEstimate::withReadEstimated(const Llm::Usage &usage, int parts, const Beginnings &beginnings,
                                           const Llm::ChatRequest &request, qint64 nowMs) const
{
    // Reported for every part (one part that reported, or parts that all read at least what was
    // sent before): as it was.
    Llm::Usage read = usage;
    if ((usage.cacheReadTokens >= 0 && parts <= 1) || usage.inputTokens <= 0 || pricesOf(request.model).cacheRead <= 0)
        return read;
    const qint64 estimated = std::max<qint64>(1, estimatePromptTokens(request));
    const qint64 shared = m_sent.shared(beginnings, nowMs, lifeMs());
    if (shared < std::max(1, m_profile.minCacheableTokens))
        return read;
    // Each part's prompt begins with what was sent before. The usage of an answer in parts is
    // their sum, and a part closed before its usage came (a guess's prefix cut at its length)
    // counted no read in it: at least this much was read.
    const double prompt = double(usage.inputTokens) / std::max(1, parts);
    const qint64 atLeast = qint64(std::min(prompt, prompt * double(shared) / double(estimated))) * std::max(1, parts);
    read.cacheReadTokens = std::max(usage.cacheReadTokens, atLeast);
    return read;
}

void BillEstimate::billedAside(const Llm::Usage &usage, double money, const Llm::ChatRequest *request, qint64 nowMs)
{
    double billed = 0;
    if (request) {
        const Beginnings beginnings = beginningsOf(*request);
        const Llm::Usage read = withReadEstimated(usage, 1, beginnings, *request, nowMs);
        billed = moneyOf(read, money, request->model, read.cacheReadTokens != usage.cacheReadTokens);
        if (prefilled(usage))
            m_sent.remember(beginnings, nowMs, lifeMs());
    } else {
        billed = moneyOf(usage, money, {}, false);
    }
    m_billed += billed;
    m_totalBilled += billed;
    update();
}

void BillEstimate::answerEnded(const AnswerFetch *fetch, const Llm::Usage &usage, double money, qint64 nowMs)
{
    if (!fetch) {
        billedAside(usage, money); // the response cache's: nothing billed either way
        return;
    }
    // The fast opening is the user's own request's first part, prefetch or not.
    const int ownParts = fetch->openingModel().isEmpty() ? 1 : 2;
    const int parts = std::max(1, fetch->parts());
    Llm::ChatRequest request = fetch->request().request;
    request.continuation.clear();
    answerBilled(request, std::max(0, parts - ownParts) + 1, usage, money, nowMs, fetch->text());
}

void BillEstimate::answerBilled(const Llm::ChatRequest &request, int parts, const Llm::Usage &reported, double money,
                                qint64 nowMs, const QString &answer)
{
    parts = std::max(1, parts);
    // The prompt and the answer after it: a provider keeps both, and the prompt's own blocks are
    // the first of them.
    const QString prompted = promptText(request);
    const qsizetype promptBlocks = prompted.size() / kBlockChars;
    const Beginnings kept = blocksOf(answer.isEmpty() ? prompted
                                                      : prompted + messageText({Llm::Role::Assistant, answer}));
    const Beginnings beginnings = kept.first(std::min(promptBlocks, kept.size()));
    const Llm::Usage usage = withReadEstimated(reported, parts, beginnings, request, nowMs);
    m_billed *= kDecayPerAnswer;
    m_without *= kDecayPerAnswer;
    const double billed = moneyOf(usage, money, request.model, usage.cacheReadTokens != reported.cacheReadTokens);
    m_billed += billed;
    m_totalBilled += billed;

    // The answer asked once: one prompt (the parts' mean: a continuation re-reads the prompt and
    // a short beginning) and all of the text.
    const Llm::Prices prices = pricesOf(request.model);
    const double prompt = double(count(usage.inputTokens)) / parts;
    const double read = double(count(usage.cacheReadTokens)) / parts;
    const double written = double(count(usage.cacheWriteTokens)) / parts;
    const qint64 estimated = std::max<qint64>(1, estimatePromptTokens(request));
    const qint64 shared = m_own.shared(beginnings, nowMs, lifeMs());
    // Read from the cache without prefetch: as far as one of the user's own earlier requests
    // began the same way, in the provider's tokens, never more than the provider read with
    // prefetch (guesses only add to what it holds), nothing under its least cacheable prompt.
    const double readWithout = shared >= std::max(1, m_profile.minCacheableTokens)
                                   ? std::clamp(prompt * double(shared) / double(estimated), 0.0, read)
                                   : 0.0;
    // Where the provider bills writes apart (Anthropic), what was read and would not have been
    // is written by the user's request instead.
    const double writtenWithout = prices.cacheWrite > 0 ? written + (read - readWithout) : 0;
    const double uncached = std::max(0.0, prompt - readWithout - writtenWithout);
    const double without = (uncached * prices.input + readWithout * prices.cacheRead
                            + writtenWithout * prices.cacheWrite + double(count(usage.outputTokens)) * prices.output)
                           / 1e6;
    m_without += without;
    m_totalWithout += without;
    ++m_answers;
    if (prefilled(reported)) {
        m_own.remember(kept, nowMs, lifeMs());
        m_sent.remember(kept, nowMs, lifeMs());
    }
    update();
}

double BillEstimate::extraShare() const
{
    return m_without > 0 ? m_billed / m_without - 1.0 : 0.0;
}

void BillEstimate::update()
{
    const double share = extraShare();
    if (!m_over && share > m_bound)
        m_over = true;
    else if (m_over && share < m_bound * kRelief)
        m_over = false;
}

} // namespace Prefetch
