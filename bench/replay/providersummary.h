#pragma once

#include <QString>

namespace Bench {

struct Report;

// Issue 37's reading of a run over the providers' profiles (deepseek, openai, anthropic, qwen):
// per provider and per class of activation (document actions, chat, wizard), over the seeds
// held out, the figures a user feels (p50, p95, mean, the share answered within 100 and 300 ms,
// stall p95) and pays (extra cost in that provider's prices); the response cache's effect and
// prefetch's gain with the cache off as well as on; the targets. Empty when no run was
// on a provider's profile.
QString providerMarkdown(const Report &report);

} // namespace Bench
