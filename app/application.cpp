#include "application.h"

#include "localprovider/serverthread.h"
#include "prefetch/engine.h"
#include "prefetch/hoverstrategy.h"
#include "prefetch/warmupstrategy.h"
#include "ui/mainwindow.h"

#include <QCoreApplication>
#include <QFile>
#include <QMessageBox>
#include <QNetworkAccessManager>
#include <QSettings>

#include <spdlog/spdlog.h>

namespace App {

Application::Application() = default;
Application::~Application() = default;

Llm::ProviderProfile Application::resolveProfile(const Options &options, QString *warning)
{
    QString id = options.providerId;
    if (id.isEmpty())
        id = QSettings().value(QStringLiteral("provider/id"), QStringLiteral("local")).toString();
    Llm::ProviderProfile profile = Llm::builtinProfile(id);
    if (profile.id.isEmpty()) {
        *warning = QCoreApplication::translate("App::Application",
                                               "Unknown provider \"%1\"; using the local demo engine.")
                       .arg(id);
        return Llm::builtinProfile(u"local");
    }
    if (profile.needsApiKey()) {
        profile.apiKey = qEnvironmentVariable(profile.apiKeyEnvVar.toLocal8Bit().constData());
        if (profile.apiKey.isEmpty()) {
            *warning = QCoreApplication::translate(
                           "App::Application",
                           "%1 needs an API key: set the environment variable %2. Using the local demo engine meanwhile.")
                           .arg(profile.displayName, profile.apiKeyEnvVar);
            return Llm::builtinProfile(u"local");
        }
    }
    return profile;
}

bool Application::start(const Options &options)
{
    auto log = spdlog::get("app");
    QString warning;
    Llm::ProviderProfile profile = resolveProfile(options, &warning);

    if (profile.isLocalDemo) {
        LocalProvider::ServerConfig config;
        const QString latency = options.latencyProfile.isEmpty() ? QStringLiteral("hosted")
                                                                 : options.latencyProfile;
        if (auto p = LocalProvider::LatencyProfile::byName(latency)) {
            config.profile = *p;
        } else {
            warning = QCoreApplication::translate("App::Application",
                                                  "Unknown latency profile \"%1\"; using \"hosted\".")
                          .arg(latency);
        }
        m_localProvider = std::make_unique<LocalProvider::ServerThread>(config);
        if (!m_localProvider->start()) {
            QMessageBox::critical(nullptr, QCoreApplication::translate("App::Application", "Headstart"),
                                  QCoreApplication::translate("App::Application",
                                                              "The local demo engine could not start: %1")
                                      .arg(m_localProvider->errorString()));
            return false;
        }
        profile.baseUrl = m_localProvider->url().resolved(QUrl(QStringLiteral("v1")));
        if (log)
            log->info("local demo engine listening on {}", m_localProvider->url().toString().toStdString());
    }

    m_network = std::make_unique<QNetworkAccessManager>();
    m_engine = std::make_unique<Prefetch::Engine>(m_network.get(), profile);
    m_hover = std::make_unique<Prefetch::HoverStrategy>(m_engine.get());
    m_warmup = std::make_unique<Prefetch::WarmupStrategy>(m_engine.get());
    m_window = std::make_unique<Ui::MainWindow>(m_engine.get(), m_hover.get(), m_warmup.get());

    const QString document = options.documentPath.isEmpty() ? QStringLiteral(":/samples/welcome.md")
                                                            : options.documentPath;
    if (!m_window->openFile(document) && !options.documentPath.isEmpty())
        m_window->openFile(QStringLiteral(":/samples/welcome.md"));
    m_window->show();
    if (!warning.isEmpty()) {
        if (log)
            log->warn("{}", warning.toStdString());
        QMessageBox::warning(m_window.get(), QCoreApplication::translate("App::Application", "Headstart"), warning);
    }
    return true;
}

} // namespace App
