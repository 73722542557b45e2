#pragma once

#include <QString>

namespace App {

// Creates the module loggers ("app", "ui", "prefetch", "llm", "localprovider", "qt") with one
// stderr sink and, when `logDir` is not empty, a rotating file in it; forwards Qt's own messages
// into the "qt" logger. Call once, first thing in main().
void setupLogging(const QString &logDir, bool verbose);

} // namespace App
