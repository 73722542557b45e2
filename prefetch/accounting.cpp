#include "accounting.h"

#include "prefetch/prompts/prompttemplate.h"
#include "prefetch/stream/answerfetch.h"
#include "prefetchsession.h"
#include "recorder.h"

namespace Prefetch {

Accounting::Accounting(Recorder &recorder, const Settings &settings)
    : m_recorder(recorder)
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

void Accounting::settle(const PrefetchSession *session, const Llm::ProviderProfile &priced, bool wasted)
{
    // Never sent: nothing billed.
    Llm::Usage billed;
    billed.inputTokens = 0;
    billed.outputTokens = 0;
    double money = 0;
    if (session->startedNs() >= 0) {
        const AnswerFetch *answer = session->answer();
        billed = answer ? answer->usage() : Llm::Usage{};
        if (billed.inputTokens < 0)
            billed.inputTokens = estimatePromptTokens(session->request());
        if (billed.outputTokens < 0)
            billed.outputTokens = session->bufferedTokens();
        money = answer ? answer->costOf(billed, priced) : priced.pricesFor(session->request().model).cost(billed);
    }
    if (const auto held = m_held.constFind(session); held != m_held.cend()) {
        reconcile(*held, billed.inputTokens + billed.outputTokens, money);
        m_held.erase(held);
    }
    m_recorder.guessBilled(session->strategy(), session->request(), billed, money, wasted);
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
