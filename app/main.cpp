#include "application.h"
#include "logging.h"
#include "screenshottour.h"
#include "smoketest.h"
#include "typingdriver.h"

#include "ui/chatdock.h"
#include "ui/chatinput.h"
#include "ui/documenttab.h"
#include "ui/mainwindow.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QStandardPaths>

#include <memory>

int main(int argc, char *argv[])
{
    App::captureEarlyQtMessages(); // what Qt says while QApplication starts goes to the log too
    QApplication app(argc, argv);
    QApplication::setApplicationName(QStringLiteral("Headstart"));
    QApplication::setOrganizationName(QStringLiteral("Headstart"));
    QApplication::setApplicationVersion(QStringLiteral(HEADSTART_VERSION));
    QApplication::setDesktopFileName(QStringLiteral(HEADSTART_APP_ID));

    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral("Headstart: AI writing and chat that starts the answer before you ask."));
    parser.addHelpOption();
    parser.addVersionOption();
    const QCommandLineOption provider(QStringLiteral("provider"),
        QStringLiteral("Provider: local, deepseek, qwen, openai, anthropic, ollama, llamacpp, custom."),
        QStringLiteral("id"));
    const QCommandLineOption latency(QStringLiteral("latency-profile"),
        QStringLiteral("Latency profile of the local demo engine: hosted, hosted-long-doc, local-gpu, instant."),
        QStringLiteral("name"), QStringLiteral("hosted"));
    const QCommandLineOption language(QStringLiteral("language"),
        QStringLiteral("User interface language, e.g. zh_CN (default: the one in Settings, else the system's)."),
        QStringLiteral("code"));
    const QCommandLineOption verbose(QStringLiteral("verbose"), QStringLiteral("Log debug messages to stderr."));
    const QCommandLineOption screenshots(QStringLiteral("screenshots"),
        QStringLiteral("Walk through the main views and save a PNG of each into this folder, then quit."),
        QStringLiteral("folder"));
    // Hidden, for tests that drive the real binary without a display (tests/tst_killrecovery.cpp,
    // docs/reliability.md): type this text into the open document / the chat input ("\n" sends).
    QCommandLineOption typeDocument(QStringLiteral("type-document"), QStringLiteral("Type text into the document."),
                                    QStringLiteral("text"));
    QCommandLineOption typeChat(QStringLiteral("type-chat"), QStringLiteral("Type text into the chat."),
                                QStringLiteral("text"));
    // Hidden, for tests/install/: open this document, summarize it, print the answer, quit.
    QCommandLineOption smokeTest(QStringLiteral("smoke-test"), QStringLiteral("Summarize this document and quit."),
                                 QStringLiteral("file"));
    typeDocument.setFlags(QCommandLineOption::HiddenFromHelp);
    typeChat.setFlags(QCommandLineOption::HiddenFromHelp);
    smokeTest.setFlags(QCommandLineOption::HiddenFromHelp);
    parser.addOptions({provider, latency, language, verbose, screenshots, typeDocument, typeChat, smokeTest});
    parser.addPositionalArgument(QStringLiteral("document"), QStringLiteral("A Markdown or text document to open."),
                                 QStringLiteral("[document]"));
    parser.process(app);

    App::setupLogging(QStandardPaths::writableLocation(QStandardPaths::AppLocalDataLocation)
                          + QStringLiteral("/logs"),
                      parser.isSet(verbose));
    App::Options options;
    options.language = parser.value(language);
    options.providerId = parser.value(provider);
    options.latencyProfile = parser.value(latency);
    if (!parser.positionalArguments().isEmpty())
        options.documentPath = parser.positionalArguments().constFirst();

    if (parser.isSet(screenshots))
        options.offerRecovery = false; // a tour must not stop at a question

    App::Application application;
    if (!application.start(options))
        return 1;
    std::unique_ptr<App::SmokeTest> smoke;
    if (parser.isSet(smokeTest))
        smoke = std::make_unique<App::SmokeTest>(&application, parser.value(smokeTest));
    std::unique_ptr<App::ScreenshotTour> tour;
    if (parser.isSet(screenshots)) {
        const QString suffix = options.language.isEmpty() ? QStringLiteral("en") : options.language;
        tour = std::make_unique<App::ScreenshotTour>(&application, parser.value(screenshots), suffix);
        tour->start();
    }
    std::unique_ptr<App::TypingDriver> typing;
    constexpr int KeyIntervalMs = 30; // a fast typist
    if (parser.isSet(typeDocument) && application.window()->currentTab()) {
        typing = std::make_unique<App::TypingDriver>(application.window()->currentTab(), parser.value(typeDocument),
                                                     KeyIntervalMs);
    } else if (parser.isSet(typeChat) && application.window()->chatDock()) {
        application.window()->chatDock()->show();
        typing = std::make_unique<App::TypingDriver>(application.window()->chatDock()->input(), parser.value(typeChat),
                                                     KeyIntervalMs);
    }
    if (typing)
        typing->start();
    return app.exec();
}
