#pragma once

namespace spdlog {
class logger;
}

namespace Llm {

// The logger registered under `name` in spdlog's registry. app/ registers the configured
// loggers ("llm", "prefetch", "ui", "app", ...) at start; where nobody did (tests, tools) a
// stderr logger at warning level is created on first use. Never log keys, headers or bodies.
spdlog::logger &moduleLogger(const char *name);

inline spdlog::logger &log()
{
    return moduleLogger("llm");
}

} // namespace Llm
