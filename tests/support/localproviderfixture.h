#pragma once

#include "localprovider/serverthread.h"
#include "prefetch/engine.h"
#include "prefetch/settings.h"
#include "prefetch/stack.h"

#include "llm/llmtypes.h"
#include "llm/providerprofile.h"

#include <QByteArray>
#include <QString>
#include <QStringView>

#include <functional>
#include <memory>

class QNetworkAccessManager;

namespace Prefetch {
class AnswerReader;
} // namespace Prefetch

namespace TestSupport {

// The local provider on loopback for one suite or benchmark, with the provider profile and
// engines that talk to it and waits on its state. The server runs in a thread of its own;
// everything else here is for the test's (GUI) thread. Held by value by the test object,
// declared before the network manager and engines that use it, so that they go first.
class LocalProviderFixture
{
public:
    // Adjusts the server's configuration after the named latency profile is loaded (a slower
    // decode, an API key, a stream limit).
    using Configure = std::function<void(LocalProvider::ServerConfig &)>;

    // `latencyProfile` is a LocalProvider::LatencyProfile name; an unknown one is a fatal error.
    explicit LocalProviderFixture(QStringView latencyProfile = u"instant", const Configure &configure = {});

    // Listens on 127.0.0.1, port 0. False, with errorString(), if it cannot.
    bool start();
    QString errorString() const;

    const LocalProvider::ServerThread &server() const { return m_server; }
    const LocalProvider::ServerConfig &config() const { return m_config; }
    LocalProvider::Stats stats() const;

    // Llm::builtinProfile(u"local") pointed at the server, with the API key it requires, if any.
    // A non-empty `latency` (LatencyProfile::withOverrides syntax, "rtt=300,decode=400") or
    // `fault` (FaultSpec syntax, "status=500") goes with every request as X-Headstart-Latency
    // or X-Headstart-Fault.
    Llm::ProviderProfile profile(const QByteArray &latency = {}, const QByteArray &fault = {}) const;

    // An engine on `network` for profile(latency); `concurrencyLimit` > 0 replaces the
    // profile's. `network` must outlive it.
    std::unique_ptr<Prefetch::Engine> makeEngine(QNetworkAccessManager *network, const QByteArray &latency = {},
                                                 const Prefetch::Settings &settings = {},
                                                 int concurrencyLimit = 0) const;
    // The engine stack as the app assembles it (Prefetch::Stack: the engine, the strategies, the
    // Speculator; no response cache unless `options` names a file) for profile(latency);
    // `concurrencyLimit` > 0 replaces the profile's. `network` must outlive it. A suite with a
    // profile of its own makes a Prefetch::Stack the same way.
    std::unique_ptr<Prefetch::Stack> makeStack(QNetworkAccessManager *network, const QByteArray &latency = {},
                                               const Prefetch::Settings &settings = {}, int concurrencyLimit = 0,
                                               const Prefetch::Stack::Options &options = {}) const;

    // Spins the event loop until the server has no stream open (what the previous test
    // cancelled has closed); false on timeout.
    bool waitForNoOpenStream(int timeoutMs) const;

    // For "nothing was sent" checks. Spins the event loop until a timer of `afterMs` started
    // now has fired: by then every timer of this thread started before it with a shorter
    // interval (a hover delay, a typing pause) has fired or was stopped, and what it queued has
    // run, which QTest::qWait does not promise after a stall. Then sends GET /health through
    // `network` and waits for the answer (not counted in stats()): a request `network` was
    // given before went out first and has reached the server, so stats() checked next does
    // not race the loopback. False if either wait passes `timeoutMs`.
    bool settle(QNetworkAccessManager *network, int afterMs, int timeoutMs) const;

private:
    LocalProvider::ServerConfig m_config;
    LocalProvider::ServerThread m_server;
};

// Spins the event loop until `handle` has ended; returns the text it delivered, "<timeout>",
// or "<failed: message>".
QString drain(Prefetch::AnswerReader *handle, int timeoutMs = 15000);

// The text a user asking `request` with no prefetch would read: a fresh request on a new
// engine for `profile`, drained. The ChatRequest form is rendered by that engine.
QString freshText(QNetworkAccessManager *network, const Llm::ProviderProfile &profile,
                  const Prefetch::RenderedRequest &request, int timeoutMs = 15000);
QString freshText(QNetworkAccessManager *network, const Llm::ProviderProfile &profile, const Llm::ChatRequest &request,
                  int timeoutMs = 15000);

} // namespace TestSupport
