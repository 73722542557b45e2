#pragma once

#include "llm/providerprofile.h"

#include <QString>

#include <memory>

class QNetworkAccessManager;

namespace LocalProvider { class ServerThread; }
namespace Prefetch {
class Engine;
class HoverStrategy;
class WarmupStrategy;
} // namespace Prefetch
namespace Ui { class MainWindow; }

namespace App {

struct Options {
    QString providerId;      // empty: the one saved in settings, else the local demo engine
    QString latencyProfile;  // the local provider's latency profile
    QString documentPath;    // opened at start; empty: the welcome sample
};

// The composition root: builds the services in dependency order and wires them to the UI.
// Members are declared in construction order, so they are destroyed window first, local
// provider last.
class Application
{
public:
    Application();
    ~Application();

    // Returns false (after telling the user) when the app cannot start.
    bool start(const Options &options);

private:
    Llm::ProviderProfile resolveProfile(const Options &options, QString *warning);

    std::unique_ptr<LocalProvider::ServerThread> m_localProvider;
    std::unique_ptr<QNetworkAccessManager> m_network;
    std::unique_ptr<Prefetch::Engine> m_engine;
    std::unique_ptr<Prefetch::HoverStrategy> m_hover;
    std::unique_ptr<Prefetch::WarmupStrategy> m_warmup;
    std::unique_ptr<Ui::MainWindow> m_window;
};

} // namespace App
