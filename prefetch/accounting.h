#pragma once

#include "budget.h"
#include "settings.h"
#include "strategy.h"

#include "llm/llmtypes.h"
#include "llm/pricing.h"
#include "llm/providerprofile.h"

#include <QHash>
#include <QJsonObject>

#include <optional>

namespace Prefetch {

class PrefetchSession;
class Recorder;

// What speculation spends: the hourly token and money budgets a guess or a side request reserves
// from before it is sent and reconciles with what the provider billed when it ends, and what
// each guess cost (told to the Recorder). One of the engine's parts (Engine is the façade); GUI
// thread.
class Accounting
{
public:
    // What one request holds of the budgets until it is reconciled: its tokens, and its money
    // where a money budget is set and the model has prices.
    struct Reservation {
        quint64 tokens = 0;
        std::optional<quint64> money;
    };

    Accounting(Recorder &recorder, const Settings &settings);

    // New budget limits; what was reserved and charged stays.
    void setSettings(const Settings &settings);

    TokenBudget &budget() { return m_budget; }
    const TokenBudget &budget() const { return m_budget; }
    // In millionths of the provider's currency (see Settings::hourlyMoneyBudget).
    TokenBudget &moneyBudget() { return m_moneyBudget; }
    const TokenBudget &moneyBudget() const { return m_moneyBudget; }

    // Reserves `tokens`, and `worstMoney` at `prices` where the money budget is on and the
    // prices are not free; nullopt (nothing held) when either budget refuses.
    std::optional<Reservation> reserve(qint64 tokens, const Llm::Prices &prices, double worstMoney);
    // Replaces what `reservation` held with what was billed.
    void reconcile(const Reservation &reservation, qint64 tokens, double money);

    // A guess's reservation, held until settle() reconciles it.
    void hold(const PrefetchSession *session, const Reservation &reservation);
    // A guess ended or was taken over: what it cost up to now (its input as the provider
    // reported it, or estimated when the stream was cut before usage arrived, plus every token
    // received) reconciles its reservation and is recorded for its strategy, as wasted when it
    // was never used. Taken over, the rest of the answer is the user's.
    void settle(const PrefetchSession *session, const Llm::ProviderProfile &priced, bool wasted);

    // The budgets, machine-readable (Engine::snapshot()'s "budget").
    QJsonObject snapshot() const;

private:
    Recorder &m_recorder;
    TokenBudget m_budget;
    TokenBudget m_moneyBudget; // micro-units of the currency
    // Reservations of guesses not settled yet, by session (the key is never dereferenced).
    QHash<const PrefetchSession *, Reservation> m_held;
};

} // namespace Prefetch
