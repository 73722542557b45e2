#include "logging.h"

#include "base/privatefiles.h"

#include <QDir>

#include <sys/stat.h>

#include <cstdio>
#include <cstring>
#include <mutex>
#include <vector>

#include <spdlog/sinks/rotating_file_sink.h>
#include <spdlog/sinks/stdout_color_sinks.h>
#include <spdlog/spdlog.h>

namespace App {

namespace {

// Enough for what Qt says while it starts; a flood before the log exists is not kept whole.
constexpr std::size_t MaxEarlyMessages = 200;

struct EarlyMessage {
    QtMsgType type;
    std::string text;
};

// Shared by the message handlers (any thread) and setupLogging() / setFileLogLevel() (GUI thread).
struct LoggingState {
    std::mutex mutex;
    std::vector<EarlyMessage> early;
    bool capturing = false;
    QtMessageHandler qtDefault = nullptr; // Qt's own handler: prints to stderr
    std::shared_ptr<spdlog::sinks::rotating_file_sink_mt> file;
    QString directory;
    bool verbose = false;
};

LoggingState &state()
{
    static LoggingState s;
    return s;
}

spdlog::level::level_enum levelOf(QtMsgType type)
{
    switch (type) {
    case QtDebugMsg: return spdlog::level::debug;
    case QtInfoMsg: return spdlog::level::info;
    case QtWarningMsg: return spdlog::level::warn;
    case QtCriticalMsg: return spdlog::level::err;
    case QtFatalMsg: return spdlog::level::critical;
    }
    return spdlog::level::warn;
}

// "[qt.network.ssl] message"; plain qWarning() and friends come in the category "default".
std::string withCategory(const QMessageLogContext &context, const QString &message)
{
    if (!context.category || std::strcmp(context.category, "default") == 0)
        return message.toStdString();
    return std::string("[") + context.category + "] " + message.toStdString();
}

void keepEarlyQtMessage(QtMsgType type, const QMessageLogContext &context, const QString &message)
{
    QtMessageHandler print = nullptr;
    {
        LoggingState &s = state();
        std::lock_guard lock(s.mutex);
        if (s.capturing && s.early.size() < MaxEarlyMessages)
            s.early.push_back({type, withCategory(context, message)});
        print = s.qtDefault;
    }
    if (print)
        print(type, context, message);
}

void forwardQtMessage(QtMsgType type, const QMessageLogContext &context, const QString &message)
{
    auto logger = spdlog::get("qt");
    if (!logger) {
        // After spdlog shut down (late at exit): as Qt would have printed it.
        if (QtMessageHandler print = state().qtDefault)
            print(type, context, message);
        return;
    }
    // A fatal message is flushed (flush_on below) before Qt aborts the process.
    logger->log(levelOf(type), "{}", withCategory(context, message));
}

} // namespace

void captureEarlyQtMessages()
{
    LoggingState &s = state();
    {
        std::lock_guard lock(s.mutex);
        s.capturing = true;
    }
    const QtMessageHandler previous = qInstallMessageHandler(keepEarlyQtMessage);
    std::lock_guard lock(s.mutex);
    if (previous != keepEarlyQtMessage && previous != forwardQtMessage)
        s.qtDefault = previous;
}

void setupLogging(const QString &logDir, bool verbose)
{
    LoggingState &s = state();
    std::vector<spdlog::sink_ptr> sinks;
    auto console = std::make_shared<spdlog::sinks::stderr_color_sink_mt>();
    console->set_level(verbose ? spdlog::level::debug : spdlog::level::warn);
    sinks.push_back(console);
    std::shared_ptr<spdlog::sinks::rotating_file_sink_mt> file;
    if (!logDir.isEmpty() && Base::PrivateFiles::makeDirectory(logDir)) {
        Base::PrivateFiles::tighten(logDir); // logs an earlier version wrote under the umask
        // Every log file (the first and each one rotation starts) is 0600 from the moment it is
        // opened: it names files and providers the user worked with.
        spdlog::file_event_handlers handlers;
        handlers.after_open = [](const spdlog::filename_t &, std::FILE *f) {
            if (f)
                ::fchmod(::fileno(f), S_IRUSR | S_IWUSR);
        };
        try {
            file = std::make_shared<spdlog::sinks::rotating_file_sink_mt>(
                QDir(logDir).filePath(QStringLiteral("headstart.log")).toStdString(), 2 * 1024 * 1024, 3, false,
                handlers);
            file->set_level(verbose ? spdlog::level::debug : spdlog::level::info);
            sinks.push_back(file);
        } catch (const spdlog::spdlog_ex &) {
            // An unwritable log directory must not stop the app; the console sink remains.
        }
    }
    for (const char *name : {"app", "ui", "prefetch", "system", "llm", "localprovider", "qt"}) {
        auto logger = std::make_shared<spdlog::logger>(name, sinks.begin(), sinks.end());
        logger->set_level(spdlog::level::debug);
        // Problems reach the file at once: the next line may be the last (a crash, qFatal).
        logger->flush_on(spdlog::level::warn);
        spdlog::register_logger(logger);
    }
    spdlog::flush_every(std::chrono::seconds(2));

    const QtMessageHandler previous = qInstallMessageHandler(forwardQtMessage);
    std::vector<EarlyMessage> early;
    {
        std::lock_guard lock(s.mutex);
        if (previous != keepEarlyQtMessage && previous != forwardQtMessage)
            s.qtDefault = previous;
        s.file = file;
        s.directory = logDir;
        s.verbose = verbose;
        s.capturing = false;
        early.swap(s.early);
    }
    // Qt printed these on stderr already; the file gets them too (after any line Qt wrote since
    // the handler above took over, which is at most a few).
    if (file && !early.empty()) {
        spdlog::logger replay("qt", file);
        replay.set_level(spdlog::level::debug);
        for (const EarlyMessage &m : early)
            replay.log(levelOf(m.type), "{}", m.text);
        replay.flush();
    }
}

QString logDirectory()
{
    LoggingState &s = state();
    std::lock_guard lock(s.mutex);
    return s.directory;
}

void setFileLogLevel(spdlog::level::level_enum level)
{
    LoggingState &s = state();
    std::lock_guard lock(s.mutex);
    if (s.file && !s.verbose)
        s.file->set_level(level);
}

} // namespace App
