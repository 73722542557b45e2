#pragma once

#include "llm/log.h"

namespace Prefetch {

inline spdlog::logger &log()
{
    return Llm::moduleLogger("prefetch");
}

} // namespace Prefetch
