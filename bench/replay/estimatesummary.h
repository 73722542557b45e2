#pragma once

#include <QString>

namespace Bench {

struct Report;

// How far the app's own running estimate of what prefetch adds to the bill
// (Prefetch::BillEstimate, what its early signals keep their guesses under) is from the bill: per
// trace kind and settings, pooled over the runs with prefetch on, what the provider billed against
// the same traces with prefetch off, beside what the app estimated (everything it counted as
// billed against its own pricing of the user's answers without prefetch), and what the app
// counted as billed against what the provider billed. Empty when no run had prefetch on.
QString estimateMarkdown(const Report &report);

} // namespace Bench
