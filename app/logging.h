#pragma once

#include <QString>

#include <spdlog/common.h>

namespace App {

// Keeps what Qt reports before setupLogging() (while QApplication starts, the platform plugin
// loads), still printing it as Qt would, so that setupLogging() can write it to the log file
// too. Call first thing in main(), before QApplication exists.
void captureEarlyQtMessages();

// Creates the module loggers ("app", "ui", "prefetch", "llm", "localprovider", "qt") with one
// stderr sink and, when `logDir` is not empty, a rotating file in it; forwards Qt's own messages
// (with their category) into the "qt" logger. `verbose` (--verbose): debug on stderr and in the
// file for this run, whatever setFileLogLevel() is asked later. Call once, early in main().
void setupLogging(const QString &logDir, bool verbose);

// The folder setupLogging() was given (where the log files are), or empty.
QString logDirectory();

// What the log file records from now on (info unless changed): the level in Settings, General.
// Ignored in a --verbose run.
void setFileLogLevel(spdlog::level::level_enum level);

} // namespace App
