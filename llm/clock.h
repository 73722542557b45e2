#pragma once

#include <QtGlobal>

#include <chrono>

namespace Llm {

// Monotonic nanoseconds, comparable across threads of one process (steady_clock).
inline qint64 monotonicNowNs()
{
    return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch())
        .count();
}

} // namespace Llm
