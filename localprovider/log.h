#pragma once

namespace spdlog {
class logger;
}

namespace LocalProvider {

// The "localprovider" logger from spdlog's registry. The app or the executable registers it;
// where nobody did (tests) a stderr logger at warning level is created on first use.
// One line per request: method, path, status, token counts, duration. Never bodies or keys.
spdlog::logger &log();

} // namespace LocalProvider
