#include "guesscost.h"

#include <algorithm>

namespace Prefetch {

double GuessCost::breakEven(double wasteShare) const
{
    if (wrong <= 0)
        return 0; // a guess that costs nothing always pays
    const double paid = std::max(0.0, wasteShare) * answer;
    return paid > 0 ? wrong / (wrong + paid) : 1.0;
}

Llm::Prices GuessCost::pricesOf(const Llm::ProviderProfile &profile, const QString &model)
{
    const Llm::Prices &prices = profile.pricesFor(model);
    if (!prices.isFree())
        return prices;
    static const Llm::Prices standIn = Llm::builtinProfile(u"local").prices; // built once: every profile
    return standIn;
}

GuessCost GuessCost::of(const RenderedRequest &rendered, const Llm::ProviderProfile &profile, int prefixTokens)
{
    const Llm::ChatRequest &request = rendered.request;
    const Llm::Prices prices = pricesOf(profile, request.model);

    qint64 staticTokens = estimateTokens(request.system);
    for (qsizetype i = 0; i < std::min(request.staticMessageCount, request.messages.size()); ++i)
        staticTokens += estimateTokens(request.messages.at(i).content);
    const qint64 prompt = std::max(rendered.estimatedPromptTokens, staticTokens);
    const bool cached = profile.minCacheableTokens > 0 && staticTokens >= profile.minCacheableTokens;
    const double staticPrice = cached && prices.cacheRead > 0 ? prices.cacheRead : prices.input;
    const double promptCost = double(staticTokens) * staticPrice + double(prompt - staticTokens) * prices.input;

    const int answerTokens = std::min(std::max(1, request.maxTokens), AnswerTokens);
    GuessCost cost;
    cost.wrong = (promptCost + double(std::min(prefixTokens, answerTokens)) * prices.output) / 1e6;
    cost.answer = (promptCost + double(answerTokens) * prices.output) / 1e6;
    return cost;
}

} // namespace Prefetch
