#pragma once

#include <QString>
#include <QStringList>

#include <optional>

class QCoreApplication;

namespace App {

// What the user asked for on the command line (docs/ui.md, "Command line").
struct CommandLine {
    QStringList files;      // absolute, resolved against the caller's working directory
    QString providerId;     // empty: the one saved in settings
    QString latencyProfile; // the local demo engine's
    QString language;       // empty: the one saved in settings, else the system's
    bool newWindow = false;
    bool verbose = false;
    std::optional<QString> screenshotsFolder;
    // Hidden, for tests that drive the real binary (tests/tst_killrecovery.cpp).
    std::optional<QString> typeDocument;
    std::optional<QString> typeChat;
    // Hidden, for tests/install/: summarize this document, print the answer, quit (SmokeTest).
    std::optional<QString> smokeTest;
};

// The value of `--language X` or `--language=X` in `arguments` (argv), found before the parser
// runs: the parser's own texts (--help) are in the language the translators installed first.
QString languageArgument(const QStringList &arguments);

// Whether `arguments` ask only for text: --help, --version, or a mistake (an unknown option, a
// missing value) to report. main() answers those on the offscreen platform, without a display
// (a terminal over ssh, help2man).
bool asksOnlyForText(const QStringList &arguments);

// Parses the application's arguments. --help, --version and errors (an unknown option, a
// missing value) print to the terminal and exit, as QCommandLineParser::process does; build it
// after the translators are installed, so the help is in the user's language.
CommandLine parseCommandLine(const QCoreApplication &app);

} // namespace App
