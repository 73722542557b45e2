#pragma once

#include "llm/log.h"

namespace System {

inline spdlog::logger &log()
{
    return Llm::moduleLogger("system");
}

} // namespace System
