// Engine's side requests: small speculative requests of its own on the quick model (the
// completeness classifier's and the instant acknowledgement's), beside the answers and prefetch sessions of engine.cpp.
#include "engine.h"

#include "prompttemplate.h"

#include "llm/providerrequest.h"

namespace Prefetch {

int Engine::sideRequestsInFlight() const
{
    return int(m_sides.size());
}

Llm::ProviderRequest *Engine::startSideRequest(const Llm::ChatRequest &request, QObject *context, SidePurpose purpose)
{
    if (isSpeculationSuspended() || !hasKey())
        return nullptr;
    // Never queued: by the time a slot frees up the typing pause it was asked for is over.
    if (providerInFlight() >= std::max(1, m_profile.concurrencyLimit)) {
        recordSide(purpose, Metrics::SideEnd::Refused);
        return nullptr;
    }
    SideRequest side;
    side.request = request;
    side.purpose = purpose;
    side.estimatedPrompt = estimatePromptTokens(request);
    const qint64 worst = side.estimatedPrompt + std::max(1, request.maxTokens);
    const auto tokens = m_budget.reserve(worst);
    const Llm::Prices &prices = pricesFor(request);
    const bool priced = m_moneyBudget.limit() > 0 && !prices.isFree();
    if (tokens && priced) {
        side.moneyReservation = m_moneyBudget.reserve(microUnits(prices.worstCase(side.estimatedPrompt, request.maxTokens)));
        if (!side.moneyReservation)
            m_budget.reconcile(*tokens, 0);
    }
    if (!tokens || (priced && !side.moneyReservation)) {
        recordSide(purpose, Metrics::SideEnd::Refused);
        return nullptr;
    }
    side.tokenReservation = *tokens;

    Llm::StreamOptions options;
    options.prefetch = true;
    options.extraHeaders.append({QByteArrayLiteral("X-Headstart-Purpose"), purpose == SidePurpose::Classifier
                                                                               ? QByteArrayLiteral("classifier")
                                                                               : QByteArrayLiteral("acknowledgement")});
    auto *stream = new Llm::ProviderRequest(m_network, m_profile, request, options, context);
    m_sides.insert(stream, side);
    // The context may go first (a window closed mid-pause): settle by address, unread.
    // The pointer captured here is only a key: by `destroyed` the object is a QObject no longer
    // a ProviderRequest, and casting the signal's argument back would be undefined (UBSan says so).
    connect(stream, &QObject::destroyed, this, [this, stream] {
        if (const std::optional<SideRequest> unread = takeSide(stream))
            settleSide(nullptr, *unread, Metrics::SideEnd::Cancelled);
    });
    stream->start();
    return stream;
}

void Engine::endSideRequest(Llm::ProviderRequest *stream, Metrics::SideEnd end)
{
    const std::optional<SideRequest> side = takeSide(stream);
    if (!side)
        return;
    if (!stream->isDone())
        stream->cancel(); // what follows the number is not worth paying for
    settleSide(stream, *side, side->cancelledByEngine ? Metrics::SideEnd::Cancelled : end);
    pump(); // its slot is free
}

std::optional<Engine::SideRequest> Engine::takeSide(Llm::ProviderRequest *stream)
{
    const auto it = m_sides.constFind(stream);
    if (it == m_sides.cend())
        return std::nullopt;
    SideRequest side = *it;
    m_sides.erase(it);
    return side;
}

void Engine::settleSide(Llm::ProviderRequest *stream, const SideRequest &side, Metrics::SideEnd end)
{
    // As the provider bills it: its usage where it reported one; else the prompt estimated and
    // every event received (the provider generated at least those).
    Llm::Usage usage = stream ? stream->usage() : Llm::Usage{};
    if (usage.inputTokens < 0)
        usage.inputTokens = side.estimatedPrompt;
    if (usage.outputTokens < 0)
        usage.outputTokens = stream ? stream->eventCount() : 0;
    const double money = pricesFor(side.request).cost(usage);
    m_budget.reconcile(side.tokenReservation, usage.inputTokens + usage.outputTokens);
    if (side.moneyReservation)
        m_moneyBudget.reconcile(*side.moneyReservation, microUnits(money));
    recordSide(side.purpose, end, usage.inputTokens, usage.outputTokens, money);
}

void Engine::recordSide(SidePurpose purpose, Metrics::SideEnd end, qint64 inputTokens, qint64 outputTokens, double cost)
{
    if (purpose == SidePurpose::Classifier)
        m_metrics.recordClassifier(end, inputTokens, outputTokens, cost);
    else
        m_metrics.recordAcknowledgement(end, inputTokens, outputTokens, cost);
}

void Engine::cancelSide(Llm::ProviderRequest *stream)
{
    const auto it = m_sides.find(stream);
    if (it == m_sides.end())
        return;
    it->cancelledByEngine = true;
    // cancel() reports failed(Cancelled) to the caller, which ends it (endSideRequest()); one
    // that does not, later, is settled here so that its slot is free now.
    stream->cancel();
    if (const std::optional<SideRequest> side = takeSide(stream))
        settleSide(stream, *side, Metrics::SideEnd::Cancelled);
}

void Engine::cancelSideRequests()
{
    const QList<Llm::ProviderRequest *> streams = m_sides.keys();
    for (Llm::ProviderRequest *stream : streams)
        cancelSide(stream);
}

} // namespace Prefetch
