#include "log.h"

#include <spdlog/sinks/stdout_color_sinks.h>
#include <spdlog/spdlog.h>

#include <mutex>

namespace LocalProvider {

spdlog::logger &log()
{
    if (auto logger = spdlog::get("localprovider"))
        return *logger;
    // Two threads may both miss; the mutex makes one of them create it.
    static std::mutex mutex;
    std::lock_guard lock(mutex);
    auto logger = spdlog::get("localprovider");
    if (!logger) {
        logger = spdlog::stderr_color_mt("localprovider");
        logger->set_level(spdlog::level::warn);
    }
    return *logger;
}

} // namespace LocalProvider
