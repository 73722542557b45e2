#pragma once

#include "llmtypes.h"

#include <QString>

namespace Llm {

// What a provider charges, per million tokens, in its billing currency (US dollars for every
// built-in profile). All zero: free to use (a server on this machine). A plain value.
struct Prices {
    double input = 0;      // prompt tokens neither read from nor written to the cache
    double cacheWrite = 0; // prompt tokens written to the cache (Anthropic); elsewhere billed as input
    double cacheRead = 0;  // prompt tokens read from the cache
    double output = 0;
    QString currency = QStringLiteral("USD"); // ISO 4217: what the figures above are in

    bool isFree() const { return input == 0 && cacheWrite == 0 && cacheRead == 0 && output == 0; }
    // What `usage` is billed: the uncached input at `input`, cache reads and writes at their
    // prices, the output at `output`. Counts a provider did not report (-1) cost nothing.
    double cost(const Usage &usage) const;
    // What a request is billed at most before it runs: `promptTokens` uncached (the cache may
    // be cold) and `outputTokens` generated.
    double worstCase(qint64 promptTokens, qint64 outputTokens) const;

    friend bool operator==(const Prices &, const Prices &) = default;
};

} // namespace Llm
