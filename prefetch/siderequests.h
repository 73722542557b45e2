#pragma once

#include "accounting.h"
#include "metrics.h"
#include "recorder.h"

#include "llm/llmtypes.h"

#include <QHash>
#include <QObject>

#include <optional>

class QNetworkAccessManager;

namespace Llm {
class ProviderRequest;
struct ProviderProfile;
} // namespace Llm

namespace Prefetch {

// The engine's small requests of its own to the provider's quick model: the completeness
// classifier's question and the instant acknowledgement's line (Engine::startSideRequest()).
// Nobody reads them as answers, so each goes now or not at all; each is charged to the prefetch
// budgets at its model's prices and told to the Recorder (its purpose's own line) when it ends. One of the engine's parts (Engine decides whether one may go: a free slot, a key, no
// suspension); GUI thread.
class SideRequests : public QObject
{
    Q_OBJECT

public:
    using Purpose = SidePurpose;

    // `profile` is the engine's (it changes with it: what ends is billed at the prices then).
    SideRequests(QNetworkAccessManager *network, const Llm::ProviderProfile &profile, Accounting &accounting,
                 Recorder &recorder, QObject *parent = nullptr);

    // Sends `request` to the provider, the stream a child of `context`, when the budgets allow
    // it; null (counted as refused) otherwise.
    Llm::ProviderRequest *start(const Llm::ChatRequest &request, QObject *context, Purpose purpose);
    // Not sent: no slot was free (counted as refused).
    void refuse(Purpose purpose);
    // The caller saw `stream` end (see Engine::endSideRequest()). False when it is not a side
    // request in flight (ended already).
    bool end(Llm::ProviderRequest *stream, Metrics::SideEnd end);
    int inFlight() const { return int(m_sides.size()); }
    // Gives way: one of them, or all, cancelled; they no longer count against the provider's
    // limit when this returns.
    void cancelOne();
    void cancelAll();

private:
    struct Side {
        Llm::ChatRequest request;
        Purpose purpose = Purpose::Classifier;
        qint64 estimatedPrompt = 0;
        Accounting::Reservation reservation;
        bool cancelledByEngine = false;
    };
    // Removes the side request of `stream` and returns it; nullopt if it has none.
    std::optional<Side> take(Llm::ProviderRequest *stream);
    // Settles its budgets and metrics from what `stream` (null: destroyed) billed.
    void settle(Llm::ProviderRequest *stream, const Side &side, Metrics::SideEnd end);
    void cancel(Llm::ProviderRequest *stream);

    QNetworkAccessManager *m_network;
    const Llm::ProviderProfile &m_profile;
    Accounting &m_accounting;
    Recorder &m_recorder;
    // Side requests not ended yet, by their stream (the key is never dereferenced after the
    // stream is gone: `destroyed` settles it by address).
    QHash<Llm::ProviderRequest *, Side> m_sides;
};

} // namespace Prefetch
