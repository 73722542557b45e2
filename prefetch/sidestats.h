#pragma once

#include <QJsonObject>
#include <QtGlobal>

namespace Prefetch {

// The lines of the engine's own side requests on the fast model (Engine::startSideRequest): the
// completeness classifier's and the instant acknowledgement's, apart from the strategies' rows
// (Metrics holds one of each).

// How a side request ended. For the classifier: one of its counters' kinds (ClassifierStats).
enum class SideEnd { Refused, Answered, Truncated, Fallback, Cancelled };

// The completeness classifier's own line (Engine::startSideRequest): what asking the fast model
// whether a draft is finished sends and costs, apart from the answers the strategies guess.
struct ClassifierStats {
    qint64 requests = 0;                      // sent
    qint64 refused = 0;                       // not sent: no free slot, or the budget; the heuristic answered
    qint64 answered = 0;                      // a confidence came, and the stream ended on its own
    qint64 truncated = 0;                     // a confidence came, and the stream was closed right after it
    qint64 fallbacks = 0;                     // no usable confidence in time: the heuristic answered
    qint64 cancelled = 0;                     // Stop, a suspension, or the answer that needed its slot
    qint64 inputTokens = 0, outputTokens = 0; // billed (estimated where no usage came)
    double cost = 0;                          // in the provider's currency, at the fast model's prices

    void record(SideEnd ended, qint64 inputTokens, qint64 outputTokens, double cost);
};

// The instant acknowledgement's own line (prefetch/acknowledgement.h): while a reasoning model
// thinks, the fast model's one line on what it is thinking about.
struct AcknowledgementStats {
    qint64 requests = 0;  // sent
    qint64 refused = 0;   // not sent: no free slot, the budget, or speculation paused
    qint64 shown = 0;     // its line came before the answer's first text, and was shown
    qint64 late = 0;      // the answer's text came first (or nothing usable came): closed, not shown
    qint64 cancelled = 0; // Stop, the answer ending, or a suspension
    qint64 inputTokens = 0, outputTokens = 0; // billed (estimated where no usage came)
    double cost = 0;                          // at the fast model's prices
    double shownMsTotal = 0;                  // sending to the line shown, over `shown`
    double leadMsTotal = 0;                   // the line shown to the answer's first text, over `leads`
    qint64 leads = 0;

    // Answered and Truncated had the line (counted by recordShown()); Fallback was too late or
    // unusable.
    void record(SideEnd ended, qint64 inputTokens, qint64 outputTokens, double cost);
    void recordShown(double afterMs); // sending to the line shown; ignored when not a time
    void recordLead(double leadMs);   // the line shown to the answer's first text

    // The means of those two (0 before the first).
    double shownMsMean() const { return shown > 0 ? shownMsTotal / double(shown) : 0.0; }
    double leadMsMean() const { return leads > 0 ? leadMsTotal / double(leads) : 0.0; }
};

QJsonObject toJson(const ClassifierStats &stats);
QJsonObject toJson(const AcknowledgementStats &stats);

} // namespace Prefetch
