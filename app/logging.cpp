#include "logging.h"

#include "ui/privatefiles.h"

#include <QDir>

#include <sys/stat.h>

#include <cstdio>

#include <spdlog/sinks/rotating_file_sink.h>
#include <spdlog/sinks/stdout_color_sinks.h>
#include <spdlog/spdlog.h>

namespace App {

namespace {

void forwardQtMessage(QtMsgType type, const QMessageLogContext &, const QString &message)
{
    auto logger = spdlog::get("qt");
    if (!logger)
        return;
    const std::string text = message.toStdString();
    switch (type) {
    case QtDebugMsg: logger->debug("{}", text); break;
    case QtInfoMsg: logger->info("{}", text); break;
    case QtWarningMsg: logger->warn("{}", text); break;
    case QtCriticalMsg: logger->error("{}", text); break;
    case QtFatalMsg: logger->critical("{}", text); break;
    }
}

} // namespace

void setupLogging(const QString &logDir, bool verbose)
{
    std::vector<spdlog::sink_ptr> sinks;
    auto console = std::make_shared<spdlog::sinks::stderr_color_sink_mt>();
    console->set_level(verbose ? spdlog::level::debug : spdlog::level::warn);
    sinks.push_back(console);
    if (!logDir.isEmpty() && Gui::PrivateFiles::makeDirectory(logDir)) {
        Gui::PrivateFiles::tighten(logDir); // logs an earlier version wrote under the umask
        // Every log file (the first and each one rotation starts) is 0600 from the moment it is
        // opened: it names files and providers the user worked with.
        spdlog::file_event_handlers handlers;
        handlers.after_open = [](const spdlog::filename_t &, std::FILE *file) {
            if (file)
                ::fchmod(::fileno(file), S_IRUSR | S_IWUSR);
        };
        try {
            auto file = std::make_shared<spdlog::sinks::rotating_file_sink_mt>(
                QDir(logDir).filePath(QStringLiteral("headstart.log")).toStdString(), 2 * 1024 * 1024, 3, false,
                handlers);
            file->set_level(verbose ? spdlog::level::debug : spdlog::level::info);
            sinks.push_back(file);
        } catch (const spdlog::spdlog_ex &) {
            // An unwritable log directory must not stop the app; the console sink remains.
        }
    }
    for (const char *name : {"app", "ui", "prefetch", "llm", "localprovider", "qt"}) {
        auto logger = std::make_shared<spdlog::logger>(name, sinks.begin(), sinks.end());
        logger->set_level(spdlog::level::debug);
        spdlog::register_logger(logger);
    }
    spdlog::flush_every(std::chrono::seconds(2));
    qInstallMessageHandler(forwardQtMessage);
}

} // namespace App
