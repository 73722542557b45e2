#include "chatcommand.h"
#include "terminaltext.h"

#include "base/processmemory.h"
#include "base/terminationsignals.h"

#include "llm/clock.h"
#include "llm/providerprofile.h"
#include "llm/providerrequest.h"
#include "localprovider/serverthread.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QEventLoop>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QNetworkAccessManager>

#include <csignal>
#include <cstdio>
#include <memory>
#include <sys/resource.h>
#include <unistd.h>

namespace Cli {

namespace {

void writeOut(const QString &text)
{
    const QByteArray bytes = text.toUtf8();
    std::fwrite(bytes.constData(), 1, size_t(bytes.size()), stdout);
    std::fflush(stdout);
}

// The most memory this program held. Linux's VmHWM, not getrusage(): ru_maxrss also counts the
// image of whatever process forked this one (a test, a shell grown large), as it stood before
// exec, so a 25 MB CLI started from a 100 MB parent reports 100 MB.
qint64 peakResidentKb()
{
    if (const qint64 peak = Base::processStatusKb("VmHWM"); peak >= 0)
        return peak;
    struct rusage usage = {};
    return ::getrusage(RUSAGE_SELF, &usage) == 0 ? qint64(usage.ru_maxrss) : -1;
}

double ms(qint64 fromNs, qint64 toNs)
{
    return fromNs < 0 || toNs < 0 ? -1.0 : double(toNs - fromNs) / 1e6;
}

QString readPrompt(const QStringList &positional, bool *ok)
{
    *ok = true;
    if (!positional.isEmpty() && positional != QStringList{QStringLiteral("-")})
        return positional.join(QLatin1Char(' '));
    if (positional.isEmpty() && ::isatty(STDIN_FILENO)) {
        *ok = false;
        return {};
    }
    QFile in;
    if (!in.open(stdin, QIODevice::ReadOnly)) {
        *ok = false;
        return {};
    }
    return QString::fromUtf8(in.readAll()).trimmed();
}

} // namespace

int runChat(const QStringList &arguments)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(
        QStringLiteral("Streams an answer to stdout; then time to first token, speed and usage to stderr."));
    parser.addHelpOption();
    const QCommandLineOption providerOpt(QStringLiteral("provider"),
                                         QStringLiteral(
                                             "Provider profile (see 'headstart-cli providers'). Default: local."),
                                         QStringLiteral("name"), QStringLiteral("local"));
    const QCommandLineOption modelOpt(QStringLiteral("model"), QStringLiteral("Model name."), QStringLiteral("model"));
    const QCommandLineOption
        baseUrlOpt(QStringLiteral("base-url"),
                   QStringLiteral("API base URL. For --provider local: the root URL a running headstart-localprovider "
                                  "printed (otherwise one is started in-process)."),
                   QStringLiteral("url"));
    const QCommandLineOption maxTokensOpt(QStringLiteral("max-tokens"), QStringLiteral("Answer length limit."),
                                          QStringLiteral("n"), QStringLiteral("1024"));
    const QCommandLineOption systemOpt(QStringLiteral("system"), QStringLiteral("System prompt."),
                                       QStringLiteral("text"));
    const QCommandLineOption temperatureOpt(QStringLiteral("temperature"), QStringLiteral("Sampling temperature."),
                                            QStringLiteral("t"));
    const QCommandLineOption seedOpt(QStringLiteral("seed"), QStringLiteral("Sampling seed."), QStringLiteral("n"));
    const QCommandLineOption keyEnvOpt(
        QStringLiteral("api-key-env"),
        QStringLiteral("Environment variable holding the API key (default: the profile's, e.g. DEEPSEEK_API_KEY)."),
        QStringLiteral("name"));
    const QCommandLineOption latencyOpt(QStringLiteral("latency-profile"),
                                        QStringLiteral("Latency profile of the in-process local provider."),
                                        QStringLiteral("name"), QStringLiteral("hosted"));
    const QCommandLineOption headerOpt(QStringLiteral("header"),
                                       QStringLiteral("Extra request header 'Name: value' (repeatable)."),
                                       QStringLiteral("header"));
    const QCommandLineOption statsJsonOpt(QStringLiteral("stats-json"),
                                          QStringLiteral("Print the closing statistics as one JSON line on stderr."));
    const QCommandLineOption quietOpt(QStringLiteral("quiet"), QStringLiteral("Do not print the answer."));
    const QCommandLineOption
        repeatOpt(QStringLiteral("repeat"),
                  QStringLiteral("Send the request N times, one after the other, in this process (the connection is "
                                 "kept alive between them, as in the app); statistics are printed after each."),
                  QStringLiteral("n"), QStringLiteral("1"));
    const QCommandLineOption
        rawOpt(QStringLiteral("raw"),
               QStringLiteral("Print the answer exactly as it came, terminal control sequences included (by default "
                              "they are removed, so an answer cannot retitle the window or write the clipboard)."));
    const QCommandLineOption
        insecureOpt(QStringLiteral("allow-insecure-http"),
                    QStringLiteral("Send the key and the text over plain http:// to a host that is not this machine "
                                   "(refused otherwise; docs/transport.md)."));
    parser.addOptions({providerOpt, modelOpt, baseUrlOpt, maxTokensOpt, systemOpt, temperatureOpt, seedOpt, keyEnvOpt,
                       latencyOpt, headerOpt, statsJsonOpt, quietOpt, repeatOpt, rawOpt, insecureOpt});
    parser.addPositionalArgument(QStringLiteral("prompt"), QStringLiteral("The prompt; '-' or nothing reads stdin."));

    if (!parser.parse(QStringList{QStringLiteral("headstart-cli chat")} + arguments)) {
        std::fprintf(stderr, "headstart-cli chat: %s\n", qPrintable(parser.errorText()));
        return 2;
    }
    if (parser.isSet(QStringLiteral("help"))) {
        writeOut(parser.helpText());
        return 0;
    }

    Llm::ProviderProfile profile = Llm::builtinProfile(parser.value(providerOpt));
    if (profile.id.isEmpty()) {
        std::fprintf(stderr, "headstart-cli chat: unknown provider '%s' (see 'headstart-cli providers')\n",
                     qPrintable(parser.value(providerOpt)));
        return 2;
    }
    bool ok = false;
    const int maxTokens = parser.value(maxTokensOpt).toInt(&ok);
    if (!ok || maxTokens <= 0) {
        std::fprintf(stderr, "headstart-cli chat: --max-tokens needs a positive number\n");
        return 2;
    }
    const int repeat = parser.value(repeatOpt).toInt(&ok);
    if (!ok || repeat <= 0) {
        std::fprintf(stderr, "headstart-cli chat: --repeat needs a positive number\n");
        return 2;
    }
    const QString prompt = readPrompt(parser.positionalArguments(), &ok);
    if (!ok || prompt.isEmpty()) {
        std::fprintf(stderr, "headstart-cli chat: no prompt (give it as an argument or on stdin)\n");
        return 2;
    }

    profile.allowInsecureHttp = parser.isSet(insecureOpt);
    std::unique_ptr<LocalProvider::ServerThread> localServer;
    if (parser.isSet(baseUrlOpt)) {
        QUrl url = QUrl::fromUserInput(parser.value(baseUrlOpt));
        if (!url.isValid() || url.host().isEmpty()) {
            std::fprintf(stderr, "headstart-cli chat: --base-url is not a URL\n");
            return 2;
        }
        // The local provider prints its root URL; the API lives under v1/.
        if (profile.isLocalDemo)
            url = url.resolved(QUrl(QStringLiteral("v1")));
        profile.baseUrl = url;
    } else if (profile.isLocalDemo) {
        LocalProvider::ServerConfig config;
        const auto latency = LocalProvider::LatencyProfile::byName(parser.value(latencyOpt));
        if (!latency) {
            std::fprintf(stderr, "headstart-cli chat: unknown latency profile '%s' (one of: %s)\n",
                         qPrintable(parser.value(latencyOpt)),
                         qPrintable(LocalProvider::LatencyProfile::names().join(QStringLiteral(", "))));
            return 2;
        }
        config.profile = *latency;
        localServer = std::make_unique<LocalProvider::ServerThread>(config);
        if (!localServer->start()) {
            std::fprintf(stderr, "headstart-cli chat: the local provider could not start: %s\n",
                         qPrintable(localServer->errorString()));
            return 1;
        }
        profile.baseUrl = localServer->apiUrl();
    }
    if (parser.isSet(modelOpt))
        profile.model = parser.value(modelOpt);
    const QString keyEnv = parser.isSet(keyEnvOpt) ? parser.value(keyEnvOpt) : profile.apiKeyEnvVar;
    if (!keyEnv.isEmpty())
        profile.apiKey = qEnvironmentVariable(keyEnv.toLocal8Bit().constData());
    if (profile.needsApiKey() && profile.apiKey.isEmpty()) {
        std::fprintf(stderr, "headstart-cli chat: %s needs an API key in the environment variable %s\n",
                     qPrintable(profile.displayName), qPrintable(keyEnv));
        return 2;
    }

    Llm::ChatRequest request;
    request.model = profile.model;
    request.system = parser.value(systemOpt);
    request.messages.append({Llm::Role::User, prompt});
    request.maxTokens = maxTokens;
    if (parser.isSet(temperatureOpt))
        request.temperature = parser.value(temperatureOpt).toDouble();
    if (parser.isSet(seedOpt))
        request.seed = parser.value(seedOpt).toLongLong();

    Llm::StreamOptions options;
    for (const QString &header : parser.values(headerOpt)) {
        const qsizetype colon = header.indexOf(QLatin1Char(':'));
        if (colon <= 0) {
            std::fprintf(stderr, "headstart-cli chat: --header needs 'Name: value'\n");
            return 2;
        }
        options.extraHeaders.append(
            {header.left(colon).trimmed().toLatin1(), header.mid(colon + 1).trimmed().toUtf8()});
    }

    // One network access manager for every repetition: like the app, later requests reuse the
    // kept-alive connection.
    QNetworkAccessManager network;
    const bool quiet = parser.isSet(quietOpt);
    const bool raw = parser.isSet(rawOpt);
    bool interrupted = false;
    bool stop = false;
    int exitCode = 0;
    // Ctrl-C (or a TERM) goes through the event loop: the connection is closed cleanly and the
    // statistics still print.
    Base::TerminationSignals interrupts({SIGINT, SIGTERM});

    for (int round = 0; round < repeat && !interrupted && !stop; ++round) {
        Llm::ProviderRequest stream(&network, profile, request, options);
        qint64 textEvents = 0;
        TerminalText terminal;
        QEventLoop loop;
        QObject::connect(&interrupts, &Base::TerminationSignals::received, &stream, [&] {
            interrupted = true;
            stream.cancel();
        });
        QObject::connect(&stream, &Llm::ProviderRequest::eventReceived, &stream, [&](const Llm::StreamEvent &e) {
            if (e.choice != 0)
                return;
            if (e.type == Llm::StreamEvent::Type::TextDelta || e.type == Llm::StreamEvent::Type::RefusalDelta) {
                ++textEvents;
                if (!quiet)
                    writeOut(raw ? e.text : terminal.filter(e.text));
            }
        });
        QObject::connect(&stream, &Llm::ProviderRequest::finished, &loop, &QEventLoop::quit);
        QObject::connect(&stream, &Llm::ProviderRequest::failed, &loop, [&](const Llm::Error &) { loop.quit(); });
        stream.start();
        loop.exec();

        if (!quiet && !stream.text().isEmpty() && !stream.text().endsWith(QLatin1Char('\n')))
            writeOut(QStringLiteral("\n"));

        const auto &t = stream.timestamps();
        const Llm::Usage usage = stream.usage();
        const qint64 outputTokens = usage.outputTokens >= 0 ? usage.outputTokens : textEvents;
        const double ttftMs = ms(t.started, t.firstToken);
        const double streamSeconds = t.firstToken > 0 && t.finished > t.firstToken
                                         ? double(t.finished - t.firstToken) / 1e9
                                         : 0;
        const double tokensPerSecond = streamSeconds > 0 && outputTokens > 1 ? double(outputTokens - 1) / streamSeconds
                                                                             : 0;

        if (auto error = stream.error()) {
            if (error->code() == Llm::Error::Code::Cancelled) {
                std::fprintf(stderr, "-- interrupted; the connection was closed.\n");
                exitCode = interrupted ? 130 : 1;
            } else {
                std::fprintf(stderr, "-- error (%s): %s\n", error->codeName(), qPrintable(error->message()));
                exitCode = 1;
            }
            stop = true; // a failed repetition ends the run
        }
        if (parser.isSet(statsJsonOpt)) {
            QJsonObject stats{
                {QStringLiteral("provider"), profile.id},
                {QStringLiteral("model"), profile.model},
                {QStringLiteral("ttft_ms"), ttftMs},
                {QStringLiteral("headers_ms"), ms(t.started, t.headers)},
                {QStringLiteral("total_ms"), ms(t.started, t.finished)},
                {QStringLiteral("tokens_per_second"), tokensPerSecond},
                {QStringLiteral("finish_reason"), stream.finishReason()},
                {QStringLiteral("usage"), QJsonObject{{QStringLiteral("input"), usage.inputTokens},
                                                      {QStringLiteral("output"), usage.outputTokens},
                                                      {QStringLiteral("cache_read"), usage.cacheReadTokens},
                                                      {QStringLiteral("cache_write"), usage.cacheWriteTokens}}},
                {QStringLiteral("error"), stream.error() ? QString::fromLatin1(stream.error()->codeName()) : QString()},
                // The most this process has held in memory so far (tests bound it against
                // servers that never stop sending).
                {QStringLiteral("max_rss_kb"), peakResidentKb()},
            };
            std::fprintf(stderr, "%s\n", QJsonDocument(stats).toJson(QJsonDocument::Compact).constData());
        } else {
            if (ttftMs >= 0)
                std::fprintf(stderr, "-- time to first token: %.0f ms\n", ttftMs);
            if (tokensPerSecond > 0)
                std::fprintf(stderr, "-- speed: %.1f tokens/s (%lld tokens)\n", tokensPerSecond,
                             static_cast<long long>(outputTokens));
            if (!usage.isEmpty()) {
                std::fprintf(
                    stderr,
                    "-- usage: %lld prompt tokens (%lld read from cache, %lld written to cache), %lld completion tokens\n",
                    static_cast<long long>(usage.inputTokens),
                    static_cast<long long>(std::max<qint64>(0, usage.cacheReadTokens)),
                    static_cast<long long>(std::max<qint64>(0, usage.cacheWriteTokens)),
                    static_cast<long long>(usage.outputTokens));
            }
            if (!stream.finishReason().isEmpty())
                std::fprintf(stderr, "-- finish: %s\n", qPrintable(stream.finishReason()));
        }
    }
    return exitCode;
}

int runProviders(const QStringList &arguments)
{
    if (!arguments.isEmpty() && arguments.first() != QLatin1String("--help")) {
        std::fprintf(stderr, "headstart-cli providers: takes no arguments\n");
        return 2;
    }
    for (const Llm::ProviderProfile &p : Llm::builtinProfiles()) {
        std::printf("%-10s %-50s %-40s %-18s %s\n", qPrintable(p.id), qPrintable(p.displayName),
                    qPrintable(p.baseUrl.isEmpty() ? QStringLiteral("(in-process)") : p.baseUrl.toString()),
                    qPrintable(p.model.isEmpty() ? QStringLiteral("-") : p.model),
                    qPrintable(p.apiKeyEnvVar.isEmpty() ? QStringLiteral("no key") : p.apiKeyEnvVar));
    }
    return 0;
}

} // namespace Cli
