#include "sidestats.h"

#include <QJsonObject>

#include <algorithm>
#include <cmath>

namespace Prefetch {

namespace {

// What every side request adds to its line: what it billed.
template <typename Stats>
void addBilled(Stats &stats, qint64 inputTokens, qint64 outputTokens, double cost)
{
    stats.inputTokens += std::max<qint64>(0, inputTokens);
    stats.outputTokens += std::max<qint64>(0, outputTokens);
    if (std::isfinite(cost))
        stats.cost += std::max(0.0, cost);
}

} // namespace

void ClassifierStats::record(SideEnd ended, qint64 inputTokens, qint64 outputTokens, double cost)
{
    ClassifierStats &c = *this;
    switch (ended) {
    case SideEnd::Refused: ++c.refused; break;
    case SideEnd::Answered: ++c.answered; break;
    case SideEnd::Truncated: ++c.truncated; break;
    case SideEnd::Fallback: ++c.fallbacks; break;
    case SideEnd::Cancelled: ++c.cancelled; break;
    }
    if (ended != SideEnd::Refused)
        ++c.requests;
    addBilled(c, inputTokens, outputTokens, cost);
}

void AcknowledgementStats::record(SideEnd ended, qint64 inputTokens, qint64 outputTokens, double cost)
{
    AcknowledgementStats &a = *this;
    switch (ended) {
    case SideEnd::Refused: ++a.refused; break;
    case SideEnd::Answered:
    case SideEnd::Truncated: break; // shown or not, recordShown() says
    case SideEnd::Fallback: ++a.late; break;
    case SideEnd::Cancelled: ++a.cancelled; break;
    }
    if (ended != SideEnd::Refused)
        ++a.requests;
    addBilled(a, inputTokens, outputTokens, cost);
}

void AcknowledgementStats::recordShown(double afterMs)
{
    if (!std::isfinite(afterMs) || afterMs < 0)
        return;
    ++shown;
    shownMsTotal += afterMs;
}

void AcknowledgementStats::recordLead(double leadMs)
{
    if (!std::isfinite(leadMs) || leadMs < 0)
        return;
    ++leads;
    leadMsTotal += leadMs;
}

QJsonObject toJson(const ClassifierStats &c)
{
    return QJsonObject{{QStringLiteral("requests"), double(c.requests)},
                       {QStringLiteral("refused"), double(c.refused)},
                       {QStringLiteral("answered"), double(c.answered)},
                       {QStringLiteral("truncated"), double(c.truncated)},
                       {QStringLiteral("fallbacks"), double(c.fallbacks)},
                       {QStringLiteral("cancelled"), double(c.cancelled)},
                       {QStringLiteral("inputTokens"), double(c.inputTokens)},
                       {QStringLiteral("outputTokens"), double(c.outputTokens)},
                       {QStringLiteral("cost"), c.cost}};
}

QJsonObject toJson(const AcknowledgementStats &a)
{
    return QJsonObject{{QStringLiteral("requests"), double(a.requests)},
                       {QStringLiteral("refused"), double(a.refused)},
                       {QStringLiteral("shown"), double(a.shown)},
                       {QStringLiteral("late"), double(a.late)},
                       {QStringLiteral("cancelled"), double(a.cancelled)},
                       {QStringLiteral("inputTokens"), double(a.inputTokens)},
                       {QStringLiteral("outputTokens"), double(a.outputTokens)},
                       {QStringLiteral("cost"), a.cost},
                       {QStringLiteral("shownMsMean"), a.shownMsMean()},
                       {QStringLiteral("leadMsMean"), a.leadMsMean()}};
}

} // namespace Prefetch
