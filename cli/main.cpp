#include "chatcommand.h"
#include "replaycommand.h"

#include <QCoreApplication>
#include <QStringList>

#include <cstdio>

namespace {

void printUsage(FILE *to)
{
    std::fputs(
        "usage: headstart-cli <command> [options]\n"
        "\n"
        "commands:\n"
        "  chat --provider NAME [--model M] [--base-url URL] [--max-tokens N] \"prompt\"\n"
        "        stream an answer to stdout; timing and usage go to stderr\n"
        "  replay --format openai|anthropic|sse FILE\n"
        "        decode a recorded SSE transcript and print it as JSON\n"
        "  providers\n"
        "        list the built-in provider profiles\n"
        "\n"
        "Run 'headstart-cli <command> --help' for a command's options.\n",
        to);
}

} // namespace

int main(int argc, char *argv[])
{
    QCoreApplication app(argc, argv);
    QCoreApplication::setApplicationName(QStringLiteral("headstart-cli"));
    QCoreApplication::setOrganizationName(QStringLiteral("Headstart"));

    QStringList args = QCoreApplication::arguments();
    args.removeFirst();
    if (args.isEmpty() || args.first() == QLatin1String("--help") || args.first() == QLatin1String("-h")) {
        printUsage(args.isEmpty() ? stderr : stdout);
        return args.isEmpty() ? 2 : 0;
    }
    const QString command = args.takeFirst();
    if (command == QLatin1String("chat"))
        return Cli::runChat(args);
    if (command == QLatin1String("replay"))
        return Cli::runReplay(args);
    if (command == QLatin1String("providers"))
        return Cli::runProviders(args);
    std::fprintf(stderr, "headstart-cli: unknown command '%s'\n\n", qPrintable(command));
    printUsage(stderr);
    return 2;
}
