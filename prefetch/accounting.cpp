#include "accounting.h"

#include "answerfetch.h"
#include "answerreader.h"
#include "metrics.h"
#include "prefetchsession.h"
#include "prompttemplate.h"

#include "llm/providerprofile.h"

#include <algorithm>

namespace Prefetch {

Accounting::Accounting(Metrics &metrics, const Settings &settings)
    : m_metrics(metrics)
    , m_budget(settings.hourlyTokenBudget)
    , m_moneyBudget(microUnits(settings.hourlyMoneyBudget))
{
}

void Accounting::setSettings(const Settings &settings)
{
    m_budget.setLimit(settings.hourlyTokenBudget);
    m_moneyBudget.setLimit(microUnits(settings.hourlyMoneyBudget));
}

std::optional<Accounting::Reservation> Accounting::reserve(qint64 tokens, const Llm::Prices &prices, double worstMoney)
{
    const std::optional<quint64> reserved = m_budget.reserve(tokens);
    if (!reserved)
        return std::nullopt;
    Reservation reservation{*reserved, std::nullopt};
    if (m_moneyBudget.limit() > 0 && !prices.isFree()) {
        // As if nothing were cached: the budget errs on the side of spending less.
        reservation.money = m_moneyBudget.reserve(microUnits(worstMoney));
        if (!reservation.money) {
            m_budget.reconcile(*reserved, 0);
            return std::nullopt;
        }
    }
    return reservation;
}

void Accounting::reconcile(const Reservation &reservation, qint64 tokens, double money)
{
    m_budget.reconcile(reservation.tokens, tokens);
    if (reservation.money)
        m_moneyBudget.reconcile(*reservation.money, microUnits(money));
}

void Accounting::hold(const PrefetchSession *session, const Reservation &reservation)
{
    m_held.insert(session, reservation);
}

void Accounting::settle(const PrefetchSession *session, const Llm::Prices &prices, bool wasted)
{
    qint64 spent = 0;
    double money = 0;
    if (session->startedNs() >= 0) {
        const AnswerFetch *answer = session->answer();
        Llm::Usage usage = answer ? answer->usage() : Llm::Usage{};
        if (usage.inputTokens < 0)
            usage.inputTokens = estimatePromptTokens(session->request());
        if (usage.outputTokens < 0)
            usage.outputTokens = session->bufferedTokens();
        spent = usage.inputTokens + usage.outputTokens;
        money = prices.cost(usage);
        if (usage.cacheReadTokens > 0 || usage.cacheWriteTokens > 0)
            m_metrics.recordCache(session->strategy(), std::max<qint64>(0, usage.cacheReadTokens),
                                  std::max<qint64>(0, usage.cacheWriteTokens));
    }
    if (const auto held = m_held.constFind(session); held != m_held.cend()) {
        reconcile(*held, spent, money);
        m_held.erase(held);
    }
    m_metrics.recordTokens(session->strategy(), spent, 0, wasted ? spent : 0);
    // A warm-up's prefill is the one the first answer on the document would have paid without
    // it: set against the cached answers it serves, its money would read as waste. Its extra
    // cost stays in tokens; the replay benchmark compares whole bills instead.
    if (session->strategy() != Strategy::Warmup)
        m_metrics.recordCost(session->strategy(), money, 0, wasted ? money : 0);
}

Llm::Usage Accounting::answerEnded(Strategy strategy, const AnswerReader *handle, const Llm::ProviderProfile &profile)
{
    const AnswerFetch *answer = handle->answer();
    // What the provider bills for the answer, every part of it (estimated for a part cut
    // before its usage arrived).
    const Llm::Usage usage = answer ? answer->usage() : handle->usage();
    if (answer && answer->firstTokenNs() >= 0 && answer->startedNs() >= 0)
        m_metrics.recordTtft(strategy, double(answer->firstTokenNs() - answer->startedNs()) / 1e6);
    const qint64 used = std::max<qint64>(0, usage.inputTokens) + std::max<qint64>(0, usage.outputTokens);
    m_metrics.recordTokens(strategy, 0, used, 0);
    m_metrics.recordCost(strategy, 0, answer ? profile.pricesFor(answer->request().request.model).cost(usage)
                                             : profile.prices.cost(usage), 0);
    if (usage.cacheReadTokens > 0 || usage.cacheWriteTokens > 0)
        m_metrics.recordCache(strategy, std::max<qint64>(0, usage.cacheReadTokens),
                              std::max<qint64>(0, usage.cacheWriteTokens));
    return usage;
}

QJsonObject Accounting::snapshot() const
{
    return QJsonObject{{QStringLiteral("limit"), m_budget.limit()},
                       {QStringLiteral("used"), m_budget.used()},
                       {QStringLiteral("remaining"), m_budget.remaining()},
                       {QStringLiteral("moneyLimit"), double(m_moneyBudget.limit()) / 1e6},
                       {QStringLiteral("moneyUsed"), double(m_moneyBudget.used()) / 1e6}};
}

} // namespace Prefetch
