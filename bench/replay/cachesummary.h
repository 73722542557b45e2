#pragma once

#include <QString>

namespace Bench {

struct Report;

// The response cache's section of the report (issue 15): each profile × mode × settings with the
// cache on, exact only and off side by side, the levels that answered, perceived latency with a
// near-duplicate's draft counted at the live answer and at the draft, and the bill against the
// same runs with the cache off. Empty when no run had a cache hit or a cache setting of its own.
QString cacheMarkdown(const Report &report);

} // namespace Bench
