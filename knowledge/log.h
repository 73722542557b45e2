#pragma once

#include "llm/log.h"

namespace Knowledge {

inline spdlog::logger &log()
{
    return Llm::moduleLogger("knowledge");
}

} // namespace Knowledge
