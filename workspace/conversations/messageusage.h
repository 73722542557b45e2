#pragma once

#include "llm/llmtypes.h"
#include "llm/pricing.h"

#include <QString>

namespace Prefetch {
class AnswerReader;
}

namespace Gui {

// What one answer cost and how fast it came, stored with the message (ConversationStore) so
// the transcript shows it after a restart too. -1 (and an empty currency) mean "not known":
// a provider that reports no usage, an answer stopped before its first token, an old message.
struct MessageUsage {
    Llm::Usage tokens;           // as the provider billed them, every part of the answer summed
    double firstTokenMs = -1;    // the provider's time to first token: request sent → first content
    double tokensPerSecond = -1; // output tokens over first content → end
    double cost = -1;            // what the provider bills, in `currency`; 0: a free provider
    QString currency;            // ISO 4217, Llm::Prices::currency
    QString model;               // the model that answered (schema 6); empty for older answers
    // The fast opening (schema 7): the fast model that wrote the answer's first openingChars
    // characters, `model` the rest; empty and 0 for an answer it did not begin.
    QString openingModel;
    qint64 openingChars = 0;

    bool isEmpty() const { return tokens.isEmpty() && firstTokenMs < 0 && cost < 0; }
    friend bool operator==(const MessageUsage &, const MessageUsage &) = default;
};

// The usage of the answer `stream` delivered, billed at `prices`. A taken-over prefetch counts
// from the prefetch's own request: that is what the provider served and bills.
MessageUsage measureUsage(const Prefetch::AnswerReader &stream, const Llm::Prices &prices);

// "1,204 in (1,024 cached) · 310 out · 0.42 s · 58 tok/s · $0.0031": the compact line under an
// answer; parts not known are left out. Empty when nothing is known.
QString usageLine(const MessageUsage &usage);
// Every figure on its own line, with what it means (the line's tooltip).
QString usageDetails(const MessageUsage &usage);

} // namespace Gui
