#include "benchcommand.h"
#include "chatcommand.h"
#include "replaycommand.h"

#include <QCoreApplication>
#include <QGuiApplication>
#include <QStringList>

#include <cstdio>
#include <cstring>
#include <memory>

namespace {

void printUsage(FILE *to)
{
    std::fputs("usage: headstart-cli <command> [options]\n"
               "       headstart-cli --version\n"
               "\n"
               "commands:\n"
               "  chat --provider NAME [--model M] [--base-url URL] [--max-tokens N] \"prompt\"\n"
               "        stream an answer to stdout; timing and usage go to stderr\n"
               "  replay --format openai|anthropic|sse FILE\n"
               "        decode a recorded SSE transcript and print it as JSON\n"
               "  providers\n"
               "        list the built-in provider profiles\n"
               "  bench --trace FILE... --profile NAME... [--out DIR] [--json]\n"
               "        replay behaviour traces with prefetch off, each strategy alone and all on;\n"
               "        write a Markdown report and PNG charts (bench/README.md)\n"
               "  tracegen --kind KIND [--seed N]\n"
               "        write a generated behaviour trace to stdout\n"
               "\n"
               "Run 'headstart-cli <command> --help' for a command's options.\n",
               to);
}

} // namespace

int main(int argc, char *argv[])
{
    // The benchmark draws PNG charts, and text needs fonts: a GUI application, on the offscreen
    // platform unless told otherwise, so it runs without a display.
    std::unique_ptr<QCoreApplication> app;
    if (argc > 1 && std::strcmp(argv[1], "bench") == 0) {
        if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
            qputenv("QT_QPA_PLATFORM", "offscreen");
        app = std::make_unique<QGuiApplication>(argc, argv);
    } else {
        app = std::make_unique<QCoreApplication>(argc, argv);
    }
    QCoreApplication::setApplicationName(QStringLiteral("headstart-cli"));
    QCoreApplication::setOrganizationName(QStringLiteral("Headstart"));

    QStringList args = QCoreApplication::arguments();
    args.removeFirst();
    if (args.isEmpty() || args.first() == QLatin1String("--help") || args.first() == QLatin1String("-h")) {
        printUsage(args.isEmpty() ? stderr : stdout);
        return args.isEmpty() ? 2 : 0;
    }
    if (args.first() == QLatin1String("--version") || args.first() == QLatin1String("-v")) {
        std::printf("headstart-cli %s\n", HEADSTART_VERSION);
        return 0;
    }
    const QString command = args.takeFirst();
    if (command == QLatin1String("chat"))
        return Cli::runChat(args);
    if (command == QLatin1String("replay"))
        return Cli::runReplay(args);
    if (command == QLatin1String("providers"))
        return Cli::runProviders(args);
    if (command == QLatin1String("bench"))
        return Cli::runBench(args);
    if (command == QLatin1String("tracegen"))
        return Cli::runTraceGen(args);
    std::fprintf(stderr, "headstart-cli: unknown command '%s'\n\n", qPrintable(command));
    printUsage(stderr);
    return 2;
}
