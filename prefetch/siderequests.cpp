#include "siderequests.h"

#include "prefetch/prompts/prompttemplate.h"

#include "llm/providerprofile.h"
#include "llm/providerrequest.h"

#include <algorithm>

namespace Prefetch {

SideRequests::SideRequests(QNetworkAccessManager *network, const Llm::ProviderProfile &profile, Accounting &accounting,
                           Recorder &recorder, QObject *parent)
    : QObject(parent)
    , m_network(network)
    , m_profile(profile)
    , m_accounting(accounting)
    , m_recorder(recorder)
{
}

Llm::ProviderRequest *SideRequests::start(const Llm::ChatRequest &request, QObject *context, Purpose purpose)
{
    Side side;
    side.request = request;
    side.purpose = purpose;
    side.estimatedPrompt = estimatePromptTokens(request);
    const Llm::Prices &prices = m_profile.pricesFor(request.model);
    const auto reservation = m_accounting.reserve(side.estimatedPrompt + std::max(1, request.maxTokens), prices,
                                                  prices.worstCase(side.estimatedPrompt, request.maxTokens));
    if (!reservation) {
        refuse(purpose);
        return nullptr;
    }
    side.reservation = *reservation;

    Llm::StreamOptions options;
    options.prefetch = true;
    options.extraHeaders.append({QByteArrayLiteral("X-Headstart-Purpose"), purpose == Purpose::Classifier
                                                                               ? QByteArrayLiteral("classifier")
                                                                               : QByteArrayLiteral("acknowledgement")});
    auto *stream = new Llm::ProviderRequest(m_network, m_profile, request, options, context);
    m_sides.insert(stream, side);
    // The context may go first (a window closed mid-pause): settle by address, unread.
    // The pointer captured here is only a key: by `destroyed` the object is a QObject no longer
    // a ProviderRequest, and casting the signal's argument back would be undefined (UBSan says so).
    connect(stream, &QObject::destroyed, this, [this, stream] {
        if (const std::optional<Side> unread = take(stream))
            settle(nullptr, *unread, Metrics::SideEnd::Cancelled);
    });
    stream->start();
    return stream;
}

void SideRequests::refuse(Purpose purpose)
{
    m_recorder.sideEnded(purpose, Metrics::SideEnd::Refused);
}

bool SideRequests::end(Llm::ProviderRequest *stream, Metrics::SideEnd end)
{
    const std::optional<Side> side = take(stream);
    if (!side)
        return false;
    if (!stream->isDone())
        stream->cancel(); // what follows the number is not worth paying for
    settle(stream, *side, side->cancelledByEngine ? Metrics::SideEnd::Cancelled : end);
    return true;
}

std::optional<SideRequests::Side> SideRequests::take(Llm::ProviderRequest *stream)
{
    const auto it = m_sides.constFind(stream);
    if (it == m_sides.cend())
        return std::nullopt;
    Side side = *it;
    m_sides.erase(it);
    return side;
}

void SideRequests::settle(Llm::ProviderRequest *stream, const Side &side, Metrics::SideEnd end)
{
    // As the provider bills it: its usage where it reported one; else the prompt estimated and
    // every event received (the provider generated at least those).
    Llm::Usage usage = stream ? stream->usage() : Llm::Usage{};
    if (usage.inputTokens < 0)
        usage.inputTokens = side.estimatedPrompt;
    if (usage.outputTokens < 0)
        usage.outputTokens = stream ? stream->eventCount() : 0;
    const double money = m_profile.pricesFor(side.request.model).cost(usage);
    m_accounting.reconcile(side.reservation, usage.inputTokens + usage.outputTokens, money);
    m_recorder.sideEnded(side.purpose, end, usage.inputTokens, usage.outputTokens, money);
}

void SideRequests::cancel(Llm::ProviderRequest *stream)
{
    const auto it = m_sides.find(stream);
    if (it == m_sides.end())
        return;
    it->cancelledByEngine = true;
    // cancel() reports failed(Cancelled) to the caller, which ends it (Engine::endSideRequest());
    // one that does not, later, is settled here so that its slot is free now.
    stream->cancel();
    if (const std::optional<Side> side = take(stream))
        settle(stream, *side, Metrics::SideEnd::Cancelled);
}

void SideRequests::cancelOne()
{
    if (!m_sides.isEmpty())
        cancel(m_sides.begin().key());
}

void SideRequests::cancelAll()
{
    const QList<Llm::ProviderRequest *> streams = m_sides.keys();
    for (Llm::ProviderRequest *stream : streams)
        cancel(stream);
}

} // namespace Prefetch
