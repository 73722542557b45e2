#include "commandline.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QDir>

namespace App {

namespace {

// The options, added to `parser` in the order --help lists them.
struct Definitions {
    explicit Definitions(QCommandLineParser &parser);
    QCommandLineOption provider;
    QCommandLineOption newWindow;
    QCommandLineOption latency;
    QCommandLineOption language;
    QCommandLineOption verbose;
    QCommandLineOption screenshots;
    QCommandLineOption typeDocument;
    QCommandLineOption typeChat;
    QCommandLineOption smokeTest;
};

// Every description is in the catalogue's "CommandLine" context (the hidden ones excepted).
Definitions::Definitions(QCommandLineParser &parser)
    : provider(QStringLiteral("provider"),
               QCoreApplication::translate(
                   "CommandLine", "Provider: local, deepseek, qwen, openai, anthropic, ollama, llamacpp, or the id or "
                                  "name of an endpoint added in Settings (custom at first)."),
               QStringLiteral("id"))
    , newWindow(QStringLiteral("new-window"),
                QCoreApplication::translate("CommandLine", "Open the files in a new window. Headstart has one window "
                                                           "for now: they open in the running one."))
    , latency(QStringLiteral("latency-profile"),
              QCoreApplication::translate(
                  "CommandLine",
                  "Latency profile of the local demo engine: hosted, hosted-long-doc, local-gpu, instant."),
              QStringLiteral("name"), QStringLiteral("hosted"))
    , language(QStringLiteral("language"),
               QCoreApplication::translate("CommandLine", "User interface language, e.g. zh_CN (default: the one in "
                                                          "Settings, else the system's)."),
               QStringLiteral("code"))
    , verbose(QStringLiteral("verbose"),
              QCoreApplication::translate("CommandLine", "Log debug messages to stderr and the log file."))
    , screenshots(QStringLiteral("screenshots"),
                  QCoreApplication::translate(
                      "CommandLine", "Walk through the main views and save a PNG of each into this folder, then quit."),
                  QStringLiteral("folder"))
    // Hidden, for tests that drive the real binary without a display (tests/tst_killrecovery.cpp,
    // docs/reliability.md): type this text into the open document / the chat input ("\n" sends).
    // Never shown, so never translated.
    , typeDocument(QStringLiteral("type-document"), QStringLiteral("Type text into the document."),
                   QStringLiteral("text"))
    , typeChat(QStringLiteral("type-chat"), QStringLiteral("Type text into the chat."), QStringLiteral("text"))
    // Hidden, for tests/install/: open this document, summarize it, print the answer, quit.
    , smokeTest(QStringLiteral("smoke-test"), QStringLiteral("Summarize this document and quit."),
                QStringLiteral("file"))
{
    parser.setApplicationDescription(
        QCoreApplication::translate("CommandLine",
                                    "Headstart: AI writing and chat that starts the answer before you ask."));
    parser.addHelpOption();
    parser.addVersionOption();
    typeDocument.setFlags(QCommandLineOption::HiddenFromHelp);
    typeChat.setFlags(QCommandLineOption::HiddenFromHelp);
    smokeTest.setFlags(QCommandLineOption::HiddenFromHelp);
    parser.addOptions(
        {provider, newWindow, latency, language, verbose, screenshots, typeDocument, typeChat, smokeTest});
    parser.addPositionalArgument(
        QStringLiteral("files"),
        QCoreApplication::translate("CommandLine", "Markdown or text documents to open, each in its own tab."),
        QStringLiteral("[files...]"));
}

} // namespace

QString languageArgument(const QStringList &arguments)
{
    const QString name = QStringLiteral("--language");
    const QString prefix = name + QLatin1Char('=');
    QString found;
    // The parser takes the last one given; so does this. Scanning stops at "--" as it does.
    for (qsizetype i = 1; i < arguments.size(); ++i) {
        const QString &a = arguments.at(i);
        if (a == QLatin1String("--"))
            break;
        if (a == name && i + 1 < arguments.size())
            found = arguments.at(++i);
        else if (a.startsWith(prefix))
            found = a.mid(prefix.size());
    }
    return found;
}

bool asksOnlyForText(const QStringList &arguments)
{
    // What parseCommandLine() prints and exits with: an error, the help or the version. Parsed
    // without an application object (the texts are not needed yet, so untranslated is fine).
    QCommandLineParser parser;
    const Definitions options(parser);
    return !parser.parse(arguments) || parser.isSet(QStringLiteral("help")) || parser.isSet(QStringLiteral("help-all"))
           || parser.isSet(QStringLiteral("version"));
}

CommandLine parseCommandLine(const QCoreApplication &app)
{
    QCommandLineParser parser;
    const Definitions options(parser);
    parser.process(app);

    CommandLine out;
    // Made absolute here, in the caller's working directory: a running instance that opens them
    // has its own.
    for (const QString &file : parser.positionalArguments())
        out.files << QDir::cleanPath(QDir::current().absoluteFilePath(file));
    out.providerId = parser.value(options.provider);
    out.latencyProfile = parser.value(options.latency);
    out.language = parser.value(options.language);
    out.newWindow = parser.isSet(options.newWindow);
    out.verbose = parser.isSet(options.verbose);
    if (parser.isSet(options.screenshots))
        out.screenshotsFolder = parser.value(options.screenshots);
    if (parser.isSet(options.typeDocument))
        out.typeDocument = parser.value(options.typeDocument);
    if (parser.isSet(options.typeChat))
        out.typeChat = parser.value(options.typeChat);
    if (parser.isSet(options.smokeTest))
        out.smokeTest = parser.value(options.smokeTest);
    return out;
}

} // namespace App
