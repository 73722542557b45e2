#include "application.h"
#include "commandline.h"
#include "drivers/screenshottour.h"
#include "drivers/smoketest.h"
#include "drivers/typingdriver.h"
#include "logging.h"
#include "singleinstance.h"

#include "base/terminationsignals.h"
#include "gui/chat/chatdock.h"
#include "gui/chat/chatinput.h"
#include "gui/mainwindow/documenttab.h"
#include "gui/mainwindow/mainwindow.h"
#include "workspace/settings/settingsfile.h"

#include <QApplication>
#include <QSettings>
#include <QStandardPaths>

#include <spdlog/spdlog.h>

#include <csignal>
#include <cstdio>
#include <memory>

int main(int argc, char *argv[])
{
    App::captureEarlyQtMessages(); // what Qt says while QApplication starts goes to the log too
    // What the desktop gave this launch to bring a window to the front; read before Qt's
    // platform plugin consumes them, for a running instance that shows the files instead.
    const QString activationToken = qEnvironmentVariable("XDG_ACTIVATION_TOKEN");
    const QString startupId = qEnvironmentVariable("DESKTOP_STARTUP_ID");

    QStringList arguments;
    for (int i = 0; i < argc; ++i)
        arguments << QString::fromLocal8Bit(argv[i]);
    // Printed and exited from parseCommandLine(), before any window: no display needed.
    if (App::asksOnlyForText(arguments))
        qputenv("QT_QPA_PLATFORM", "offscreen");

    QApplication app(argc, argv);
    QApplication::setApplicationName(QStringLiteral("Headstart"));
    QApplication::setOrganizationName(QStringLiteral("Headstart"));
    QApplication::setApplicationVersion(QStringLiteral(HEADSTART_VERSION));
    QApplication::setDesktopFileName(QStringLiteral(HEADSTART_APP_ID));

    // The settings file is read once per start, here: the language is needed before any text is
    // built, and a damaged file must be reported (and copied aside) once, by the window.
    Gui::SettingsFile::LoadResult settings;
    {
        QSettings store;
        settings = Gui::SettingsFile::load(store);
    }
    const QString language = App::languageArgument(arguments);
    App::Application::installTranslators(language.isEmpty() ? settings.settings.uiLanguage : language);
    const App::CommandLine commandLine = App::parseCommandLine(app);

    // Before the log, the window, the local demo engine and the database: a second process
    // touches none of them.
    App::SingleInstance instance;
    App::OpenRequest request;
    request.files = commandLine.files;
    request.newWindow = commandLine.newWindow;
    request.providerId = commandLine.providerId;
    request.activationToken = activationToken;
    request.startupId = startupId;
    const App::SingleInstance::Role role = instance.claim(request);
    if (role == App::SingleInstance::Role::Refused) {
        std::fprintf(stderr, "%s\n", qPrintable(instance.errorString()));
        return 1;
    }
    if (role == App::SingleInstance::Role::Forwarded) {
        // These run their own window and quit; handed to a running instance they would not run.
        if (commandLine.screenshotsFolder) {
            std::fprintf(stderr, "%s\n",
                         qPrintable(QApplication::translate(
                             "Main", "Headstart is already running; close it to take the screenshots.")));
            return 1;
        }
        if (commandLine.smokeTest) {
            std::fprintf(stderr, "smoke: another headstart is running with these settings\n");
            return 1;
        }
        return 0;
    }

    App::setupLogging(QStandardPaths::writableLocation(QStandardPaths::AppLocalDataLocation) + QStringLiteral("/logs"),
                      commandLine.verbose);
    if (auto log = spdlog::get("app")) {
        if (instance.isListening())
            log->info("single instance listening on {}", App::SingleInstance::serverName().toStdString());
        else
            log->warn("not listening for other headstart processes ({}): each will start its own window",
                      instance.errorString().toStdString());
    }

    App::Options options;
    options.settings = std::move(settings);
    options.language = commandLine.language;
    options.providerId = commandLine.providerId;
    options.latencyProfile = commandLine.latencyProfile;
    options.documentPaths = commandLine.files;
    if (commandLine.screenshotsFolder)
        options.offerRecovery = false; // a tour must not stop at a question

    App::Application application;
    QObject::connect(&instance, &App::SingleInstance::openRequested, &application, &App::Application::openRequested);
    // Before start(): a signal that comes while it runs is acted on once the event loop runs,
    // not by the default action that ends the process on the spot.
    Base::TerminationSignals terminations({SIGINT, SIGTERM, SIGHUP});
    QObject::connect(&terminations, &Base::TerminationSignals::received, &application, &App::Application::terminate);
    if (!application.start(options))
        return 1;
    std::unique_ptr<App::SmokeTest> smoke;
    if (commandLine.smokeTest)
        smoke = std::make_unique<App::SmokeTest>(&application, *commandLine.smokeTest);
    std::unique_ptr<App::ScreenshotTour> tour;
    if (commandLine.screenshotsFolder) {
        const QString suffix = options.language.isEmpty() ? QStringLiteral("en") : options.language;
        tour = std::make_unique<App::ScreenshotTour>(&application, *commandLine.screenshotsFolder, suffix);
        tour->start();
    }
    std::unique_ptr<App::TypingDriver> typing;
    constexpr int KeyIntervalMs = 30; // a fast typist
    if (commandLine.typeDocument && application.window()->currentTab()) {
        typing = std::make_unique<App::TypingDriver>(application.window()->currentTab(), *commandLine.typeDocument,
                                                     KeyIntervalMs);
    } else if (commandLine.typeChat && application.window()->chatDock()) {
        application.window()->chatDock()->show();
        typing = std::make_unique<App::TypingDriver>(application.window()->chatDock()->input(), *commandLine.typeChat,
                                                     KeyIntervalMs);
    }
    if (typing)
        typing->start();
    return app.exec();
}
