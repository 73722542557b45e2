#pragma once

#include "chatrequest.h"
#include "faultspec.h"
#include "httpconnection.h"
#include "latencyprofile.h"
#include "prompt.h"
#include "slotscheduler.h"
#include "textgenerator.h"
#include "wireformat.h"

#include <QObject>
#include <QTimer>

#include <memory>

namespace LocalProvider {

class HttpConnection;
class ServerState;

// One accepted chat request, from the network round trip to the last token: waits rtt, queues
// for a slot, "prefills" the uncached part of the prompt, then emits one token per decode
// interval, applying the request's faults on the way. It bills like a hosted provider: the input
// once prefill begins, every token generated whether or not the client reads it. A child of its
// connection (it dies with it) and deletes itself when done. Server thread only; timers, never
// sleeps.
class Generation : public QObject
{
    Q_OBJECT

public:
    struct Setup {
        ChatRequest request;
        LatencyProfile profile;
        FaultSpec fault;
        QByteArray requestId; // X-Request-Id as sent, or generated
        QByteArray path;
        QString purpose; // X-Headstart-Purpose, or "unmarked": what the bill is split by
        qint64 receivedNs = 0;
    };

    Generation(HttpConnection *connection, ServerState &state, Setup setup, Prompt prompt);
    ~Generation() override;

    void start();

private:
    enum class Phase { Network, Queued, Prefill, Decode, Done };
    enum class Outcome { Completed, Cancelled, Dropped, Failed };

    void onTimer();
    void onRttElapsed();
    void onSlotGranted();
    void onPrefillDone();
    void decodeTick();
    void scheduleNextTick();
    void endChoice(int choice);
    void complete();
    void failMidResponse();
    bool write(const QByteArray &bytes);
    void finish(Outcome outcome, int status);
    void countGenerated(int tokens);
    // The first token (of the reasoning or the answer) is on the wire: its time, once.
    void noteFirstTokenWritten();
    void cacheWhatWasComputed();
    HttpHeaders responseHeaders() const;
    qint64 ttlMs() const;
    int minimumCacheTokens() const;
    // The service time's factor for this request (LatencyProfile::overheadSigma).
    double overheadFactor() const;
    void billPastTheClose(Outcome outcome);

    HttpConnection *m_connection;
    ServerState &m_state;
    Setup m_setup;
    Prompt m_prompt;
    std::unique_ptr<WireFormat> m_format;
    QList<TextGenerator::Answer> m_answers;
    QStringList m_reasoning; // thought before the answer (a reasoning model)
    qsizetype m_thought = 0; // of it, sent
    QList<qsizetype> m_positions;
    QList<bool> m_choiceDone;
    QTimer m_timer;
    Usage m_usage;
    SlotScheduler::Ticket m_ticket = 0;
    Phase m_phase = Phase::Network;
    quint64 m_serial = 0; // this request's place in the server's order: its jitter's seed
    int m_sent = 0;       // content tokens produced so far, all choices
    int m_cursor = 0;     // next choice in the current decode round
    qint64 m_nextTickNs = 0;
    bool m_stalled = false;
    bool m_malformedSent = false;
    bool m_firstTokenRecorded = false;
    bool m_prefilled = false; // prefill completed: the prompt, and what follows, is computed
};

} // namespace LocalProvider
