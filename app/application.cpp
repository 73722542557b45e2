// Application: the composition root. Over 600 lines: it builds and wires every part of the app
// (settings, keys, the provider, the engine stack, the windows, the desktop's conditions) and holds
// no logic of its own beyond that order.
#include "application.h"

#include "keychainsecretstore.h"
#include "logging.h"
#include "singleinstance.h"

#include "base/privatefiles.h"
#include "gui/chat/chatdock.h"
#include "gui/mainwindow/consentbar.h"
#include "gui/mainwindow/documenttabs.h"
#include "gui/mainwindow/mainwindow.h"
#include "gui/metrics/metricsdock.h"
#include "gui/settings/settingsdialog.h"
#include "gui/widgets/colorschemes.h"
#include "gui/widgets/tooltipwrapper.h"
#include "knowledge/library.h"
#include "llm/proxy.h"
#include "localprovider/serverthread.h"
#include "prefetch/cache/responsecache.h"
#include "prefetch/connectiontest.h"
#include "prefetch/engine.h"
#include "prefetch/stack.h"
#include "prefetch/strategies/speculator.h"
#include "system/colorscheme.h"
#include "system/desktopconditions.h"
#include "system/speculationetiquette.h"
#include "workspace/conversations/conversationstore.h"
#include "workspace/documents/document.h"
#include "workspace/settings/money.h"
#include "workspace/settings/settingsfile.h"

#include <QApplication>
#include <QDBusConnection>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QGuiApplication>
#include <QIcon>
#include <QLibraryInfo>
#include <QLocale>
#include <QMessageBox>
#include <QNetworkAccessManager>
#include <QSettings>
#include <QStandardPaths>
#include <QStatusBar>
#include <QStyle>
#include <QTranslator>

#include <spdlog/spdlog.h>

namespace App {

namespace {

// The language the catalogues were installed for (installTranslators()).
QLocale &uiLocale()
{
    static QLocale locale;
    return locale;
}

spdlog::level::level_enum logLevelOf(Gui::LogDetail detail)
{
    switch (detail) {
    case Gui::LogDetail::WarningsOnly: return spdlog::level::warn;
    case Gui::LogDetail::Normal: return spdlog::level::info;
    case Gui::LogDetail::Detailed: return spdlog::level::debug;
    }
    return spdlog::level::info;
}

QString dataDirectory()
{
    return QStandardPaths::writableLocation(QStandardPaths::AppLocalDataLocation);
}

// Habits change with every action; writing them at most this often keeps the settings file quiet.
constexpr int HabitsSaveDelayMs = 2000;

} // namespace

Application::Application()
{
    m_habitsSave.setSingleShot(true);
    m_habitsSave.setInterval(HabitsSaveDelayMs);
    connect(&m_habitsSave, &QTimer::timeout, this, &Application::saveHabits);
    // Every window's long tooltips wrap instead of running off the screen.
    qApp->installEventFilter(new Gui::ToolTipWrapper(this));
}

Application::~Application()
{
    if (m_habitsSave.isActive())
        saveHabits(); // at quit, what was learnt since the last write
}

void Application::applyTextSize(int percent)
{
    // Every widget without a font of its own follows the application's, at once.
    QFont font = m_desktopFont;
    if (font.pointSizeF() > 0)
        font.setPointSizeF(font.pointSizeF() * percent / 100.0);
    else if (font.pixelSize() > 0)
        font.setPixelSize(std::max(1, font.pixelSize() * percent / 100));
    QApplication::setFont(font);
}

void Application::applyColorScheme()
{
    using Gui::ColorScheme;
    using Preference = System::ColorSchemePortal::Preference;
    const Preference desktop = m_colorScheme ? m_colorScheme->preference() : Preference::None;
    const ColorScheme chosen = m_settings.colorScheme;
    QPalette palette = m_desktopPalette;
    if (chosen == ColorScheme::Dark || (chosen == ColorScheme::System && desktop == Preference::Dark))
        palette = Gui::schemePalette(true, m_desktopPalette, QApplication::style()->standardPalette());
    else if (chosen == ColorScheme::Light || (chosen == ColorScheme::System && desktop == Preference::Light))
        palette = Gui::schemePalette(false, m_desktopPalette, QApplication::style()->standardPalette());
    // Every widget gets a PaletteChange; the transcript, the Markdown views and the chart
    // recolour themselves from it. Check boxes and radio buttons keep a box that shows.
    QApplication::setPalette(palette);
    for (const char *indicators : {"QCheckBox", "QRadioButton"})
        QApplication::setPalette(Gui::indicatorPalette(palette), indicators);
}

void Application::saveHabits()
{
    m_habitsSave.stop();
    if (!m_stack)
        return;
    QSettings store;
    m_stack->speculator()->habits().save(store);
}

void Application::installTranslators(const QString &language)
{
    const QLocale locale = language.isEmpty() ? QLocale() : QLocale(language);
    // An installed copy finds both catalogues next to itself (<prefix>/share/headstart/
    // translations, packaging/CMakeLists.txt), so wherever it was installed it reads nothing
    // from the build tree or another prefix. Run from the build tree, that folder does not
    // exist: ours is compiled into the binary, Qt's comes from the system.
    const QString installed =
        QDir(QCoreApplication::applicationDirPath()).filePath(QStringLiteral("../share/headstart/translations"));
    const auto install = [&locale, &installed](const QString &catalogue, const QString &fallback) {
        auto *translator = new QTranslator(qApp);
        if (translator->load(locale, catalogue, QStringLiteral("_"), installed)
            || translator->load(locale, catalogue, QStringLiteral("_"), fallback))
            QApplication::installTranslator(translator);
        else
            delete translator;
    };
    // English's plural forms first ("1 document", "2 documents"), for every language: a
    // catalogue installed later is asked first, and a language without one reads English.
    auto *plurals = new QTranslator(qApp);
    if (plurals->load(QStringLiteral("headstart_en"), installed) || plurals->load(QStringLiteral("headstart_en"), QStringLiteral(":/i18n")))
        QApplication::installTranslator(plurals);
    else
        delete plurals;
    install(QStringLiteral("headstart"), QStringLiteral(":/i18n"));
    install(QStringLiteral("qtbase"), QLibraryInfo::path(QLibraryInfo::TranslationsPath));
    uiLocale() = locale;
}

QString Application::welcomeSample()
{
    // The language's own welcome where there is one (":/samples/welcome_zh_CN.md"), else English.
    for (const QString &name : uiLocale().uiLanguages()) {
        const QString path = QStringLiteral(":/samples/welcome_%1.md").arg(QString(name).replace(u'-', u'_'));
        if (QFileInfo::exists(path))
            return path;
    }
    return QStringLiteral(":/samples/welcome.md");
}

void Application::installWindowIcon()
{
    // The theme's icon where one is installed (it follows the desktop's icon theme); else the
    // PNGs compiled into the binary, so no SVG support is needed at run time.
    QIcon fallback;
    fallback.addFile(QStringLiteral(":/icons/headstart-64.png"));
    fallback.addFile(QStringLiteral(":/icons/headstart-256.png"));
    QApplication::setWindowIcon(QIcon::fromTheme(QStringLiteral(HEADSTART_APP_ID), fallback));
}

Gui::MainWindow *Application::window() const
{
    if (m_front)
        return m_front;
    return m_windows.empty() ? nullptr : m_windows.back().get();
}

QList<Gui::MainWindow *> Application::windows() const
{
    QList<Gui::MainWindow *> list;
    for (const auto &w : m_windows)
        list << w.get();
    return list;
}

void Application::showMessage(const QString &message, int timeoutMs)
{
    if (Gui::MainWindow *w = window())
        w->statusBar()->showMessage(message, timeoutMs);
}

Gui::MainWindow *Application::addWindow()
{
    Gui::Services services{m_stack->engine(), m_stack->hover(),      m_stack->debounce(),   m_stack->workflow(),
                           m_stack->warmup(), m_conversations.get(), m_stack->speculator(), m_library.get()};
    m_windows.push_back(std::make_unique<Gui::MainWindow>(services));
    Gui::MainWindow *w = m_windows.back().get();
    w->setTranslateTarget(m_settings.translateTarget);
    if (Gui::ChatDock *chat = w->chatDock())
        chat->setAssistants(m_settings.assistants);
    // One folder for every window's copies: each document's copy is named by its own id.
    w->setRecoveryDirectory(QDir(dataDirectory()).filePath(QStringLiteral("recovery")));
    w->setLogDirectory(logDirectory());
    connect(w, &Gui::MainWindow::settingsRequested, this, &Application::openSettings);
    connect(w, &Gui::MainWindow::librarySettingsRequested, this, &Application::openLibrarySettings);
    w->setPrefetchPause(m_etiquette->reason());
    connect(m_etiquette.get(), &System::SpeculationEtiquette::pauseChanged, w, &Gui::MainWindow::setPrefetchPause);
    connect(w, &Gui::MainWindow::newWindowRequested, this, [this] {
        Gui::MainWindow *added = addWindow();
        added->newDocument();
        bringToFront(added, {});
    });
    connect(w, &Gui::MainWindow::quitRequested, this, &Application::quit);
    connect(w, &Gui::MainWindow::consentAnswered, this, &Application::onConsentAnswered);
    connect(w, &Gui::MainWindow::closeFinished, this, [this, w](bool closed) {
        if (closed)
            onWindowClosed(w);
        else
            m_quitting = false; // Cancel: this window stays, and the ones after it too
    });
    m_front = w;
    refreshConsent();
    return w;
}

void Application::onWindowClosed(Gui::MainWindow *window)
{
    const auto open = std::count_if(m_windows.cbegin(), m_windows.cend(),
                                    [window](const auto &w) { return w.get() != window; });
    if (open == 0) {
        if (!m_quitting)
            saveSession(); // Quit saved every window's already
        return; // the last one: the application quits, and destroys it in order with the rest
    }
    const auto it = std::find_if(m_windows.begin(), m_windows.end(),
                                 [window](const auto &w) { return w.get() == window; });
    if (it == m_windows.end())
        return;
    // Deleted from the event loop: this runs inside the window's closeEvent().
    it->release()->deleteLater();
    m_windows.erase(it);
    if (m_front == window)
        m_front = m_windows.back().get();
    if (m_quitting) {
        QMetaObject::invokeMethod(this, &Application::closeNextWindow, Qt::QueuedConnection);
        return;
    }
    // Its Save question suspended speculation; the other windows go on.
    m_stack->engine()->setSpeculationSuspended(Prefetch::Engine::Suspension::Closing, false);
}

void Application::terminate(int signalNumber)
{
    if (auto log = spdlog::get("app"))
        log->warn("signal {}: keeping every change and closing", signalNumber);
    for (const auto &w : m_windows)
        w->tabs()->writeRecoveryCopies(); // a large one in the thread pool, which exit waits for
    saveSession();
    QCoreApplication::exit(0);
}

void Application::quit()
{
    m_quitting = true;
    saveSession(); // before the windows go; a Cancel keeps them open, and the next quit saves again
    closeNextWindow();
}

void Application::saveSession()
{
    QStringList paths;
    for (const auto &w : m_windows) {
        for (const Gui::Document *document : w->tabs()->documents()) {
            // Files only: an untitled text is the recovery copies' (asked about if unsaved).
            if (const QString path = document->filePath(); !path.isEmpty() && !path.startsWith(u':'))
                paths << path;
        }
    }
    QSettings store;
    Gui::SettingsFile::setSessionFiles(store, paths);
}

void Application::closeNextWindow()
{
    if (!m_quitting)
        return;
    if (Gui::MainWindow *w = window())
        w->closeToQuit(); // asks, then closeFinished(); the last one's close quits the application
}

void Application::openFiles(Gui::MainWindow *window, const QStringList &paths)
{
    auto log = spdlog::get("app");
    for (const QString &path : paths) {
        // A file that cannot be read says so in a message (DocumentTabs); the others still open.
        // tests/tst_singleinstance.cpp reads these lines to see which process opened what.
        const bool opened = window->openFile(path);
        if (log && opened)
            log->info("opened {}", path.toStdString());
        else if (log)
            log->warn("could not open {}", path.toStdString());
    }
}

void Application::openRequested(const OpenRequest &request)
{
    auto log = spdlog::get("app");
    if (log) {
        log->info("another headstart process asked to open {} file(s){}", request.files.size(),
                  request.newWindow ? " in a new window" : "");
        if (!request.providerId.isEmpty() && request.providerId != m_settings.providerId)
            log->info("--provider {} ignored: this instance is running with {}", request.providerId.toStdString(),
                      m_settings.providerId.toStdString());
    }
    if (m_windows.empty())
        return;
    Gui::MainWindow *target = window();
    if (request.newWindow) {
        target = addWindow();
        if (request.files.isEmpty())
            target->newDocument();
        if (log)
            log->info("opened a new window");
    }
    openFiles(target, request.files);
    bringToFront(target, !request.activationToken.isEmpty() ? request.activationToken : request.startupId);
}

void Application::bringToFront(Gui::MainWindow *window, const QString &activationToken)
{
    // Qt 6.4's Wayland plugin activates with the token in XDG_ACTIVATION_TOKEN when the window
    // asks for activation; the token is the second process's, which the desktop gave it for
    // this launch. On X11 the startup id goes unused: Qt's xcb plugin ends a startup
    // notification only when a window is first shown (docs/ui.md, "Single instance").
    if (!activationToken.isEmpty() && QGuiApplication::platformName() == QLatin1String("wayland"))
        qputenv("XDG_ACTIVATION_TOKEN", activationToken.toUtf8());
    if (window->isMinimized())
        window->setWindowState((window->windowState() & ~Qt::WindowMinimized) | Qt::WindowActive);
    window->show();
    window->raise();
    window->activateWindow(); // QWindow::requestActivate(): on X11 a _NET_ACTIVE_WINDOW request
}

bool Application::ensureLocalProvider()
{
    if (m_localProvider)
        return true;
    LocalProvider::ServerConfig config;
    if (auto p = LocalProvider::LatencyProfile::byName(m_latencyProfile))
        config.profile = *p;
    m_localProvider = std::make_unique<LocalProvider::ServerThread>(config);
    if (!m_localProvider->start()) {
        const QString message = tr("The local demo engine could not start: %1").arg(m_localProvider->errorString());
        if (Gui::MainWindow *w = window()) {
            // Chosen in Settings while answers may be streaming: never a nested event loop.
            auto *box = new QMessageBox(QMessageBox::Critical, tr("Headstart"), message, QMessageBox::Ok, w);
            box->setAttribute(Qt::WA_DeleteOnClose);
            box->open();
        } else {
            QMessageBox::critical(nullptr, tr("Headstart"), message); // at start: nothing runs yet, and the app exits
        }
        m_localProvider.reset();
        return false;
    }
    if (auto log = spdlog::get("app"))
        log->info("local demo engine listening on {}", m_localProvider->url().toString().toStdString());
    return true;
}

void Application::resolveProfile(const QString &id, std::function<void(Llm::ProviderProfile)> done)
{
    Llm::ProviderProfile profile = m_settings.profile(id);
    if (profile.isLocalDemo) {
        if (ensureLocalProvider())
            profile.baseUrl = m_localProvider->apiUrl();
        done(profile);
        return;
    }
    const quint64 generation = ++m_profileGeneration;
    m_secrets->fillKeys(profile, this, [this, generation, done](Llm::ProviderProfile filled, const QString &error) {
        if (generation != m_profileGeneration)
            return; // another provider was chosen meanwhile
        // Keys set in the environment still work, as they do for headstart-cli.
        if (filled.apiKey.isEmpty() && !filled.apiKeyEnvVar.isEmpty())
            filled.apiKey = qEnvironmentVariable(filled.apiKeyEnvVar.toLocal8Bit().constData());
        if (!error.isEmpty())
            showMessage(error, 8000);
        done(filled);
    });
}

void Application::applyProfile(const Llm::ProviderProfile &profile)
{
    if (profile.needsApiKey() && profile.apiKey.isEmpty())
        showMessage(tr("%1 needs an API key: add it in Settings, Providers.").arg(profile.displayName), 10000);
    // Debounce's classifier asks the new provider's quick model while the settings say so.
    m_stack->engine()->setProfile(profile);
    for (const auto &w : m_windows)
        w->providerChanged();
    refreshConsent();
}

void Application::refreshConsent()
{
    const Prefetch::Consent consent = m_settings.prefetchConsent(m_settings.providerId);
    const Llm::ProviderProfile &active = m_stack->engine()->profile();
    // Asked only once the provider is in use with its key: before that nothing could be sent,
    // and the question would come before the user has finished choosing.
    const bool ask = consent == Prefetch::Consent::NotAnswered && active.id == m_settings.providerId
                     && !active.apiKey.isEmpty();
    const double budget = m_settings.prefetch.hourlyMoneyBudget;
    const QString hourly = budget > 0 && !active.prices.isFree() ? Gui::formatMoney(budget, active.prices.currency)
                                                                 : QString();
    for (const auto &w : m_windows) {
        w->setConsent(consent);
        if (ask)
            w->consentBar()->ask(active.id, active.displayName, hourly, m_stack->engine()->canContinue());
        else
            w->consentBar()->withdraw();
    }
}

void Application::onConsentAnswered(const QString &providerId, bool allowed)
{
    m_settings.setPrefetchConsent(providerId, allowed);
    QSettings store;
    Gui::SettingsFile::save(store, m_settings);
    if (auto log = spdlog::get("app"))
        log->info("early sending to {}: {}", providerId.toStdString(), allowed ? "allowed" : "not now");
    if (m_dialog)
        m_dialog->setPrefetchConsent(providerId, allowed); // its copy, so its OK keeps the answer
    m_stack->engine()->setSettings(m_settings.effectivePrefetch(m_settings.providerId));
    refreshConsent();
}

void Application::applySettings(const Gui::AppSettings &settings)
{
    const Gui::AppSettings old = m_settings;
    m_settings = settings;
    QSettings store;
    Gui::SettingsFile::save(store, m_settings);
    setFileLogLevel(logLevelOf(settings.logDetail));
    if (old.textSizePercent != settings.textSizePercent)
        applyTextSize(settings.textSizePercent);
    if (old.colorScheme != settings.colorScheme)
        applyColorScheme();

    const bool providerChanged =
        old.providerId != settings.providerId
        || old.profile(old.providerId).baseUrl != settings.profile(settings.providerId).baseUrl
        || old.profile(old.providerId).model != settings.profile(settings.providerId).model
        || old.profile(old.providerId).fastModel != settings.profile(settings.providerId).fastModel
        || old.profile(old.providerId).extraHeaders != settings.profile(settings.providerId).extraHeaders
        || old.profile(old.providerId).concurrencyLimit != settings.profile(settings.providerId).concurrencyLimit
        // A renamed endpoint: the windows and messages name it.
        || old.profile(old.providerId).displayName != settings.profile(settings.providerId).displayName
        || old.prefetch.debounce.modelClassifier != settings.prefetch.debounce.modelClassifier;
    m_stack->engine()->setSettings(settings.effectivePrefetch(settings.providerId));
    refreshConsent(); // a provider changed, or consent given in Settings
    m_etiquette->setEnabled(settings.prefetch.pauseOnBatteryAndMetered);
    if (providerChanged) {
        resolveProfile(settings.providerId, [this](Llm::ProviderProfile p) { applyProfile(p); });
    } else {
        const Llm::ProviderProfile profile = settings.profile(settings.providerId);
        const Llm::ProviderProfile &current = m_stack->engine()->profile();
        if (profile.prices != current.prices || profile.fastPrices != current.fastPrices) {
            // Edited prices price what is billed from now on; nothing in flight needs to stop.
            m_stack->engine()->setPrices(profile.prices, profile.fastPrices);
            for (const auto &w : m_windows)
                w->metricsDock()->refresh();
        }
        // Likewise timeouts: the next request waits as long as they say.
        m_stack->engine()->setTimeouts(profile.timeouts);
    }
    if (old.proxy != settings.proxy)
        applyProxy();
    if (m_library && old.libraryFolders != settings.libraryFolders)
        m_library->setFolders(settings.libraryFolders);
    for (const auto &w : m_windows) {
        w->setTranslateTarget(settings.translateTarget);
        if (Gui::ChatDock *chat = w->chatDock()) {
            chat->setAssistants(settings.assistants);
            chat->prefetchSettingsChanged(); // the follow-ups offered, switched off or on
        }
    }
    if (old.uiLanguage != settings.uiLanguage)
        showMessage(tr("The new language takes effect when Headstart starts again."), 8000);
}

void Application::applyProxy()
{
    Llm::ProxySettings proxy = m_settings.proxy;
    proxy.password = m_proxyPassword;
    // Requests started from now on ask the factory again. Qt keys its kept-alive connections
    // by proxy too, so none made under the old choice carries them; those in flight finish as
    // they are (clearConnectionCache() would stop Qt's HTTP thread under them, and block).
    m_proxy->setSettings(proxy);
    if (auto log = spdlog::get("app")) {
        // Host and port only: never the user name or password.
        static const char *const modes[] = {"system", "none", "http", "socks5"};
        log->info("proxy for model traffic: {}{}", modes[static_cast<int>(proxy.mode)],
                  proxy.isExplicit() ? " " + Llm::proxyAddress(proxy.toNetworkProxy()).toStdString() : std::string());
    }
}

void Application::loadProxyPassword()
{
    m_secrets->read(Gui::SecretStore::NetworkOwner, Gui::SecretStore::Secret::ProxyPassword, this,
                    [this](const Gui::SecretStore::ReadResult &result) {
                        if (!result) {
                            showMessage(tr("Could not read the proxy password: %1").arg(result.error()), 8000);
                            return;
                        }
                        if (*result == m_proxyPassword)
                            return;
                        m_proxyPassword = *result;
                        applyProxy();
                    });
}

void Application::openSettings()
{
    if (m_dialog) {
        m_dialog->raise();
        m_dialog->activateWindow();
        return;
    }
    Gui::SettingsDialog::Services services;
    services.secrets = m_secrets.get();
    services.makeConnectionTest = [this](QObject *parent) {
        return new Prefetch::ConnectionTest(m_network.get(), parent);
    };
    services.network = m_network.get();
    services.resolveProfile = [this](Llm::ProviderProfile p) {
        if (p.isLocalDemo && ensureLocalProvider())
            p.baseUrl = m_localProvider->apiUrl();
        return p;
    };
    m_dialog = new Gui::SettingsDialog(m_settings, services, window());
    m_dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(m_dialog, &Gui::SettingsDialog::settingsChanged, this, &Application::applySettings);
    connect(m_dialog, &Gui::SettingsDialog::forgetLearntRequested, this, [this] {
        m_stack->speculator()->forget();
        saveHabits(); // at once: a reset that a crash could undo is not one
        if (auto log = spdlog::get("app"))
            log->info("the early guesses' habits were forgotten (Settings, Prefetch)");
    });
    m_dialog->show();
}

void Application::openLibrarySettings()
{
    openSettings();
    m_dialog->showPage(Gui::SettingsDialog::Page::Library);
}

bool Application::start(const Options &options)
{
    m_options = options;
    m_latencyProfile = options.latencyProfile.isEmpty() ? QStringLiteral("hosted") : options.latencyProfile;
    auto log = spdlog::get("app");
    if (log) {
        // The first line of every run: what a bug report needs to know about this one.
        log->info("Headstart {} starting (Qt {}, {} platform)", QApplication::applicationVersion().toStdString(),
                  qVersion(), QApplication::platformName().toStdString());
    }

    QSettings store;
    // Owner-only whatever the umask, before anything is written: the settings file (made now if
    // missing, so QSettings' later writes keep its mode), and what an earlier version left
    // readable in the settings and data folders.
    const QString configFolder = QFileInfo(store.fileName()).absolutePath();
    Base::PrivateFiles::makeDirectory(configFolder);
    Base::PrivateFiles::tighten(configFolder);
    Base::PrivateFiles::makeFile(store.fileName());
    Base::PrivateFiles::makeDirectory(dataDirectory());
    Base::PrivateFiles::tighten(dataDirectory());
    const Gui::SettingsFile::LoadResult loaded = options.settings ? *options.settings : Gui::SettingsFile::load(store);
    m_settings = loaded.settings;
    if (loaded.damaged) {
        // The unreadable lines are reported below and the file as it was is kept aside; written
        // again now, the next start reads a clean file instead of copying the damage again.
        Gui::SettingsFile::save(store, m_settings);
    }
    setFileLogLevel(logLevelOf(m_settings.logDetail));
    m_desktopFont = QApplication::font();
    applyTextSize(m_settings.textSizePercent);
    m_desktopPalette = QApplication::palette();
    m_colorScheme = std::make_unique<System::ColorSchemePortal>(QDBusConnection::sessionBus());
    connect(m_colorScheme.get(), &System::ColorSchemePortal::preferenceChanged, this, &Application::applyColorScheme);
    applyColorScheme();
    QStringList problems = loaded.problems;
    // The translators are in place already (main() installs them before parsing the command line).
    installWindowIcon();
    if (!options.providerId.isEmpty()) {
        // An id, or the name of one provider (an endpoint's, say); the user's endpoints included.
        if (const auto id = m_settings.findProvider(options.providerId))
            m_settings.providerId = *id; // for this run; not saved unless changed in Settings
        else
            problems << tr("%1 Using the one from the settings.").arg(id.error());
    }
    if (!LocalProvider::LatencyProfile::byName(m_latencyProfile)) {
        problems << tr("Unknown latency profile \"%1\"; using \"hosted\".").arg(m_latencyProfile);
        m_latencyProfile = QStringLiteral("hosted");
    }

    m_network = std::make_unique<QNetworkAccessManager>();
    m_proxy = new Llm::ProxyFactory;
    m_network->setProxyFactory(m_proxy); // the manager owns it
    m_secrets = std::make_unique<KeychainSecretStore>();
    applyProxy();
    // Asked before the keys, so a proxy with a password has it before the first request leaves.
    loadProxyPassword();
    Llm::ProviderProfile initial = m_settings.selectedProfile();
    if (initial.isLocalDemo) {
        if (!ensureLocalProvider())
            return false;
        initial.baseUrl = m_localProvider->apiUrl();
    }
    // One stack for the whole run (a new provider is the engine's setProfile()), so the engine
    // gets the response cache once. A damaged file is left alone and the cache works in memory
    // for this run (it logged why).
    Prefetch::Stack::Options stackOptions;
    stackOptions.responseCachePath = QDir(dataDirectory()).filePath(QStringLiteral("responses.sqlite"));
    m_stack = std::make_unique<Prefetch::Stack>(m_network.get(), initial,
                                                m_settings.effectivePrefetch(m_settings.providerId), stackOptions);
    Prefetch::Engine *engine = m_stack->engine();
    // A refusal the model catalogue did not foresee is kept for the next start (Settings keeps
    // it per base URL and model; changing the model forgets it).
    connect(engine, &Prefetch::Engine::featureRefused, this,
            [this, engine](Llm::RefusedFeature feature, const QString &model) {
                const QString id = engine->profile().id;
                if (engine->profile().isLocalDemo || !m_settings.knowsProvider(id))
                    return;
                m_settings.learnRefusal(id, model, feature);
                QSettings file;
                Gui::SettingsFile::save(file, m_settings);
                if (auto appLog = spdlog::get("app"))
                    appLog->info("{} refused {} for {}: not sent to it again", id.toStdString(),
                                 Llm::featureId(feature), model.toStdString());
            });
    if (!initial.isLocalDemo)
        engine->awaitKey(); // until resolveProfile() below brings what the key store holds
    // This user's own, kept on this machine only; what a damaged file spoilt starts from the prior.
    if (const int dropped = m_stack->speculator()->habits().load(store); dropped > 0) {
        if (auto appLog = spdlog::get("app"))
            appLog->warn("{} damaged habit values in the settings file were dropped; the early guesses "
                         "start from what a new user does there",
                         dropped);
    }
    connect(m_stack->speculator(), &Prefetch::Speculator::habitsChanged, this, [this] {
        if (!m_habitsSave.isActive())
            m_habitsSave.start();
    });
    // Battery, power-saver profile and metered network, from the system bus (none: nothing pauses).
    m_conditions = std::make_unique<System::DesktopConditions>(QDBusConnection::systemBus());
    m_etiquette = std::make_unique<System::SpeculationEtiquette>(engine, m_conditions.get());
    m_etiquette->setEnabled(m_settings.prefetch.pauseOnBatteryAndMetered);
    m_conversations = std::make_unique<Gui::ConversationStore>(
        QDir(dataDirectory()).filePath(QStringLiteral("conversations.sqlite")));
    Knowledge::Library::Options libraryOptions;
    libraryOptions.databasePath = QDir(dataDirectory()).filePath(QStringLiteral("knowledge/index.sqlite"));
    m_library = std::make_unique<Knowledge::Library>(libraryOptions);
    connect(m_library.get(), &Knowledge::Library::failed, this,
            [this](const QString &message) { showMessage(message, 8000); });
    m_library->setFolders(m_settings.libraryFolders);

    Gui::MainWindow *first = addWindow();
    // The window in front is the one the user turned to last (a dialog counts as its window's).
    connect(qApp, &QApplication::focusChanged, this, [this] {
        for (QWidget *w = QApplication::activeWindow(); w; w = w->parentWidget()) {
            if (auto *main = qobject_cast<Gui::MainWindow *>(w)) {
                m_front = main;
                return;
            }
        }
    });
    // The store reports every saved key, also those whose write ends after the dialog closed.
    connect(m_secrets.get(), &Gui::SecretStore::secretWritten, this, [this](const QString &providerId) {
        if (providerId == Gui::SecretStore::NetworkOwner)
            loadProxyPassword();
        else if (providerId == m_settings.providerId)
            resolveProfile(providerId, [this](Llm::ProviderProfile p) { applyProfile(p); });
    });
    // Keys live in the keychain and arrive asynchronously; the engine gets them then.
    if (!initial.isLocalDemo)
        resolveProfile(initial.id, [this](Llm::ProviderProfile p) { applyProfile(p); });

    first->show();
    if (!m_stack->responseCache()->isPersistent())
        showMessage(tr("Answers are remembered for this session only: the response cache file could not be used."),
                    8000);
    openFiles(first, options.documentPaths);
    if (m_settings.firstRun) {
        m_settings.firstRun = false;
        Gui::SettingsFile::save(store, m_settings);
    }
    if (!m_conversations->recoveryMessage().isEmpty())
        problems << m_conversations->recoveryMessage();
    for (const QString &p : std::as_const(problems)) {
        if (log)
            log->warn("{}", p.toStdString());
    }
    // One question at a time, none of them blocking: recovery first, then what was reset.
    QPointer<Gui::MainWindow> firstWindow = first;
    auto afterRecovery = [this, problems, firstWindow, welcome = options.documentPaths.isEmpty()](int recovered) {
        if (!firstWindow)
            return;
        // No file named: the files open when Headstart last quit, those still there; the
        // welcome text when there are none (and nothing was recovered).
        if (welcome) {
            QSettings session;
            QStringList previous = Gui::SettingsFile::sessionFiles(session);
            previous.removeIf([](const QString &path) { return !QFileInfo(path).isFile(); });
            if (!previous.isEmpty())
                openFiles(firstWindow, previous);
            if (previous.isEmpty() && recovered == 0) {
                QFile sample(welcomeSample());
                if (sample.open(QIODevice::ReadOnly))
                    firstWindow->openText(tr("Welcome"), QString::fromUtf8(sample.readAll()));
            }
        }
        if (!problems.isEmpty()) {
            auto *box = new QMessageBox(QMessageBox::Warning, tr("Headstart"), problems.join(QLatin1Char('\n')),
                                        QMessageBox::Ok, firstWindow);
            box->setAttribute(Qt::WA_DeleteOnClose);
            box->open();
        }
    };
    // Only the first window offers what an earlier session left: the copies are every window's.
    if (options.offerRecovery)
        first->offerRecovery(afterRecovery);
    else
        afterRecovery(0);
    return true;
}

} // namespace App
