#include "pricing.h"

#include <algorithm>

namespace Llm {

double Prices::cost(const Usage &usage) const
{
    const qint64 read = std::max<qint64>(0, usage.cacheReadTokens);
    const qint64 written = std::max<qint64>(0, usage.cacheWriteTokens);
    const qint64 uncached = std::max<qint64>(0, std::max<qint64>(0, usage.inputTokens) - read - written);
    const qint64 out = std::max<qint64>(0, usage.outputTokens);
    return (double(uncached) * input + double(read) * cacheRead + double(written) * cacheWrite + double(out) * output)
           / 1e6;
}

double Prices::worstCase(qint64 promptTokens, qint64 outputTokens) const
{
    const double promptPrice = std::max(input, cacheWrite);
    return (double(std::max<qint64>(0, promptTokens)) * promptPrice
            + double(std::max<qint64>(0, outputTokens)) * output)
           / 1e6;
}

} // namespace Llm
