#pragma once

#include "workspace/settings/settingsfile.h"

#include <QFont>
#include <QObject>
#include <QPalette>
#include <QPointer>
#include <QString>
#include <QStringList>
#include <QTimer>

#include <memory>
#include <vector>

class QNetworkAccessManager;
class QTranslator;

namespace Knowledge {
class Library;
}
namespace Llm {
class ProxyFactory;
}

namespace LocalProvider {
class ServerThread;
}
namespace Prefetch {
class Stack;
} // namespace Prefetch
namespace System {
class ColorSchemePortal;
class DesktopConditions;
class SpeculationEtiquette;
} // namespace System
namespace Gui {
class ConversationStore;
class MainWindow;
class SecretStore;
class SettingsDialog;
} // namespace Gui

namespace App {

struct OpenRequest;

struct Options {
    // The settings as main() read them (once per start); unset: read by start().
    std::optional<Gui::SettingsFile::LoadResult> settings;
    QString providerId;        // empty: the one saved in settings
    QString latencyProfile;    // the local provider's latency profile
    QString language;          // empty: the one saved in settings, else the system's
    QStringList documentPaths; // each opened in a tab at start; none: the welcome sample on first run
    bool offerRecovery = true;
};

// The composition root: loads the settings, builds the services in dependency order, wires
// them to the UI and applies setting changes as they happen. Members are declared in
// construction order, so they are destroyed window first, local provider last.
class Application : public QObject
{
    Q_OBJECT

public:
    Application();
    ~Application() override;

    // Returns false (after telling the user) when the app cannot start.
    bool start(const Options &options);
    // The session ends or someone sent a TERM: no question can be asked. Every changed document
    // gets its recovery copy (offered at the next start), and the application quits through
    // its destructors, which save a streaming answer as it stands and close the conversation
    // file cleanly.
    void terminate(int signalNumber);
    // The window in front: the active one, else the one active last.
    Gui::MainWindow *window() const;
    // Every window, oldest first (File, New Window and --new-window add one).
    QList<Gui::MainWindow *> windows() const;
    const Gui::AppSettings &settings() const { return m_settings; }
    void openSettings();
    void openLibrarySettings();
    // From a second `headstart` process (SingleInstance): opens its files here, in a new window
    // for --new-window, and brings that window to the front.
    void openRequested(const App::OpenRequest &request);

    // Installs the app's and Qt's catalogues for `language` (empty: the system's). Static and
    // called by main() before anything builds a user-visible text (the --help output, too).
    static void installTranslators(const QString &language);

private:
    // The welcome text in the language installTranslators() chose, else English (a resource).
    static QString welcomeSample();
    void installWindowIcon();
    Gui::MainWindow *addWindow();
    void onWindowClosed(Gui::MainWindow *window);
    // File, Quit: every window in turn, front first, each asking about its unsaved documents;
    // a Cancel ends the quit there.
    void quit();
    void closeNextWindow();
    // The files open in every window, for the next start that names none
    // (SettingsFile::sessionFiles): at Quit, at the last window's close and at a signal's end.
    void saveSession();
    void showMessage(const QString &message, int timeoutMs);
    void openFiles(Gui::MainWindow *window, const QStringList &paths);
    void bringToFront(Gui::MainWindow *window, const QString &activationToken);
    bool ensureLocalProvider();
    // The selected provider's profile with its address and keys; `done` gets it when the keys
    // have been read (asynchronously, from the keychain).
    void resolveProfile(const QString &id, std::function<void(Llm::ProviderProfile)> done);
    void applySettings(const Gui::AppSettings &settings);
    void applyProfile(const Llm::ProviderProfile &profile);
    // Every window's status bar and metrics learn it, and the consent bar asks the question
    // once a cloud provider with a key is in use and the user has not answered for it.
    void refreshConsent();
    void onConsentAnswered(const QString &providerId, bool allowed);
    // The proxy of the settings, with the password from the key store, on the network manager.
    void applyProxy();
    void loadProxyPassword();
    void saveHabits();
    void applyTextSize(int percent);
    // The palette of the settings' colour scheme, or of the desktop's preference.
    void applyColorScheme();

    Options m_options;
    Gui::AppSettings m_settings;
    QString m_latencyProfile;
    std::unique_ptr<LocalProvider::ServerThread> m_localProvider;
    std::unique_ptr<QNetworkAccessManager> m_network;
    Llm::ProxyFactory *m_proxy = nullptr; // owned by m_network
    QString m_proxyPassword;              // from the key store; never logged
    std::unique_ptr<Gui::SecretStore> m_secrets;
    // The engine, its strategies and the Speculator, and the answers already given beside the
    // conversations (responses.sqlite, cleared with them).
    std::unique_ptr<Prefetch::Stack> m_stack;
    std::unique_ptr<System::ColorSchemePortal> m_colorScheme;
    std::unique_ptr<System::DesktopConditions> m_conditions;
    std::unique_ptr<System::SpeculationEtiquette> m_etiquette;
    QTimer m_habitsSave; // what the habits learnt goes to the settings a little later, in one write
    std::unique_ptr<Gui::ConversationStore> m_conversations;
    // The knowledge base: its index under the data folder, its folders from m_settings. Made
    // before the windows, which show it, and destroyed after them.
    std::unique_ptr<Knowledge::Library> m_library;
    std::vector<std::unique_ptr<Gui::MainWindow>> m_windows; // open ones; the last closed stays till the end
    QPointer<Gui::MainWindow> m_front;
    bool m_quitting = false;
    QPointer<Gui::SettingsDialog> m_dialog;
    QFont m_desktopFont;             // the application font before the text size setting scaled it
    QPalette m_desktopPalette;       // the palette the platform gave, before a colour scheme replaced it
    quint64 m_profileGeneration = 0; // drops key reads for a provider no longer selected
};

} // namespace App
