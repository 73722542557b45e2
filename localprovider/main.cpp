// headstart-localprovider: the local provider as a process of its own, for tests, benchmarks
// and trying clients against it. Prints its root URL as the first stdout line, then serves
// until SIGINT or SIGTERM.

#include "faultspec.h"
#include "latencyprofile.h"
#include "server.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QSocketNotifier>

#include <spdlog/sinks/stdout_color_sinks.h>
#include <spdlog/spdlog.h>

#include <cstdio>

#include <signal.h>
#include <sys/socket.h>
#include <unistd.h>

namespace {

int signalPipe[2] = {-1, -1};

void onSignal(int)
{
    // Only async-signal-safe work here; the event loop reads the byte and quits.
    const char byte = 1;
    [[maybe_unused]] const auto written = ::write(signalPipe[0], &byte, 1);
}

bool installSignalHandlers()
{
    if (::socketpair(AF_UNIX, SOCK_STREAM, 0, signalPipe) != 0)
        return false;
    struct sigaction action = {};
    action.sa_handler = onSignal;
    sigemptyset(&action.sa_mask);
    action.sa_flags = SA_RESTART;
    return ::sigaction(SIGINT, &action, nullptr) == 0 && ::sigaction(SIGTERM, &action, nullptr) == 0;
}

int fail(const QString &message)
{
    std::fprintf(stderr, "headstart-localprovider: %s\n", qPrintable(message));
    return 2;
}

} // namespace

int main(int argc, char *argv[])
{
    QCoreApplication app(argc, argv);
    QCoreApplication::setApplicationName(QStringLiteral("headstart-localprovider"));
    QCoreApplication::setApplicationVersion(QStringLiteral(HEADSTART_VERSION));

    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral(
        "Headstart's local provider: an OpenAI- and Anthropic-compatible HTTP server with simulated latency, "
        "a prompt-cache model and fault injection. Its text is generated from the prompt's own words; it is not "
        "a language model."));
    parser.addHelpOption();
    parser.addVersionOption();
    const QCommandLineOption host(QStringLiteral("host"), QStringLiteral("Address to listen on."),
                                  QStringLiteral("address"), QStringLiteral("127.0.0.1"));
    const QCommandLineOption port(QStringLiteral("port"), QStringLiteral("Port to listen on; 0 picks a free one."),
                                  QStringLiteral("port"), QStringLiteral("0"));
    const QCommandLineOption profile(QStringLiteral("profile"),
                                     QStringLiteral("Latency profile: %1.")
                                         .arg(LocalProvider::LatencyProfile::names().join(QStringLiteral(", "))),
                                     QStringLiteral("name"), QStringLiteral("hosted"));
    const QCommandLineOption rtt(QStringLiteral("rtt-ms"), QStringLiteral("Network round trip in ms."),
                                 QStringLiteral("ms"));
    const QCommandLineOption overhead(QStringLiteral("overhead-ms"),
                                      QStringLiteral("Service time before prefill (admission, scheduling) in ms."),
                                      QStringLiteral("ms"));
    const QCommandLineOption prefill(QStringLiteral("prefill-tps"),
                                     QStringLiteral("Prefill rate in prompt tokens per second (0 = no delay)."),
                                     QStringLiteral("rate"));
    const QCommandLineOption decode(QStringLiteral("decode-tps"),
                                    QStringLiteral("Decode rate in output tokens per second (0 = no delay)."),
                                    QStringLiteral("rate"));
    const QCommandLineOption slotsOption(QStringLiteral("slots"),
                                         QStringLiteral("Concurrent generations; more requests queue (0 = unlimited)."),
                                         QStringLiteral("n"));
    const QCommandLineOption context(QStringLiteral("context-tokens"), QStringLiteral("Context window in tokens."),
                                     QStringLiteral("n"));
    const QCommandLineOption ttl(QStringLiteral("cache-ttl-sec"),
                                 QStringLiteral("Prompt-cache entry lifetime in seconds."), QStringLiteral("s"));
    const QCommandLineOption fault(QStringLiteral("fault"),
                                   QStringLiteral("Fault spec for every request (see X-Headstart-Fault)."),
                                   QStringLiteral("spec"));
    const QCommandLineOption maxStreams(QStringLiteral("max-streams"),
                                        QStringLiteral("Refuse streams beyond N open ones with 429."),
                                        QStringLiteral("n"));
    const QCommandLineOption apiKey(QStringLiteral("api-key"),
                                    QStringLiteral("Require this key (Authorization: Bearer or x-api-key); "
                                                   "repeat it to accept several."),
                                    QStringLiteral("key"));
    const QCommandLineOption keyFault(QStringLiteral("key-fault"),
                                      QStringLiteral("KEY=SPEC: the fault spec every request with this key gets, "
                                                     "e.g. sk-a=status=429,retry-after=20; repeatable."),
                                      QStringLiteral("key=spec"));
    const QCommandLineOption allowRemote(QStringLiteral("allow-remote"),
                                         QStringLiteral("Allow listening on a non-loopback address."));
    const QCommandLineOption quiet(QStringLiteral("quiet"), QStringLiteral("Log warnings only, not every request."));
    parser.addOptions({host, port, profile, rtt, overhead, prefill, decode, slotsOption, context, ttl, fault,
                       maxStreams, apiKey, keyFault, allowRemote, quiet});
    parser.process(app);

    LocalProvider::ServerConfig config;
    const auto named = LocalProvider::LatencyProfile::byName(parser.value(profile));
    if (!named)
        return fail(QStringLiteral("unknown profile \"%1\"").arg(parser.value(profile)));
    QStringList overrides;
    const std::pair<const QCommandLineOption *, const char *> mapping[] =
        {{&rtt, "rtt"},           {&overhead, "overhead"}, {&prefill, "prefill"}, {&decode, "decode"},
         {&slotsOption, "slots"}, {&context, "context"},   {&ttl, "ttl"}};
    for (const auto &[option, key] : mapping) {
        if (parser.isSet(*option))
            overrides << QLatin1String(key) + u'=' + parser.value(*option);
    }
    const auto tuned = named->withOverrides(overrides.join(u','));
    if (!tuned)
        return fail(tuned.error());
    config.profile = *tuned;

    if (parser.isSet(fault)) {
        const auto parsed = LocalProvider::FaultSpec::parse(parser.value(fault));
        if (!parsed)
            return fail(QStringLiteral("--fault: %1").arg(parsed.error()));
        config.fault = parser.value(fault);
    }
    if (parser.isSet(maxStreams)) {
        bool ok = false;
        config.maxConcurrentStreams = parser.value(maxStreams).toInt(&ok);
        if (!ok || config.maxConcurrentStreams < 0)
            return fail(QStringLiteral("--max-streams needs a number"));
    }
    const QStringList keys = parser.values(apiKey);
    config.apiKey = keys.value(0);
    config.moreApiKeys = keys.mid(1);
    for (const QString &entry : parser.values(keyFault)) {
        const qsizetype eq = entry.indexOf(u'=');
        const QString key = entry.left(eq);
        if (eq <= 0 || !keys.contains(key))
            return fail(QStringLiteral("--key-fault needs KEY=SPEC with a KEY given by --api-key"));
        const auto parsed = LocalProvider::FaultSpec::parse(QStringView(entry).mid(eq + 1));
        if (!parsed)
            return fail(QStringLiteral("--key-fault: %1").arg(parsed.error()));
        config.keyFaults.insert(key, *parsed);
    }

    const QString hostName = parser.value(host);
    const QHostAddress address = hostName == u"localhost" ? QHostAddress(QHostAddress::LocalHost)
                                                          : QHostAddress(hostName);
    if (address.isNull())
        return fail(QStringLiteral("--host needs an IP address, got \"%1\"").arg(hostName));
    if (!address.isLoopback() && !parser.isSet(allowRemote))
        return fail(QStringLiteral("refusing to listen on %1, which is not loopback: this is a demo server "
                                   "(pass --allow-remote to do it anyway)")
                        .arg(hostName));
    bool portOk = false;
    const uint portNumber = parser.value(port).toUInt(&portOk);
    if (!portOk || portNumber > 65535)
        return fail(QStringLiteral("--port needs a number from 0 to 65535"));

    auto logger = spdlog::stderr_color_mt("localprovider");
    logger->set_level(parser.isSet(quiet) ? spdlog::level::warn : spdlog::level::info);

    if (!installSignalHandlers())
        return fail(QStringLiteral("cannot install signal handlers"));
    QSocketNotifier signalNotifier(signalPipe[1], QSocketNotifier::Read);
    QObject::connect(&signalNotifier, &QSocketNotifier::activated, &app, [] {
        char byte = 0;
        [[maybe_unused]] const auto n = ::read(signalPipe[1], &byte, 1);
        QCoreApplication::quit();
    });

    LocalProvider::Server server(config);
    if (!server.listen(address, static_cast<quint16>(portNumber))) {
        std::fprintf(stderr, "headstart-localprovider: cannot listen on %s:%u: %s\n", qPrintable(hostName), portNumber,
                     qPrintable(server.errorString()));
        return 1;
    }
    // The first stdout line is the contract with whoever started us: the URL, nothing else.
    std::printf("%s\n", server.url().toString().toUtf8().constData());
    std::fflush(stdout);
    logger->info("serving {} with profile {}", server.url().toString().toStdString(),
                 config.profile.name.toStdString());

    const int code = QCoreApplication::exec();
    logger->info("stopped");
    return code;
}
