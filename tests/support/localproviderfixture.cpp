#include "localproviderfixture.h"

#include "prefetch/stream/answerreader.h"

#include "llm/clock.h"

#include <QCoreApplication>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QSignalSpy>
#include <QTest>
#include <QTimer>

namespace TestSupport {

namespace {

LocalProvider::ServerConfig configFor(QStringView latencyProfile, const LocalProviderFixture::Configure &configure)
{
    const auto profile = LocalProvider::LatencyProfile::byName(latencyProfile);
    if (!profile)
        qFatal("unknown latency profile %s", qPrintable(latencyProfile.toString()));
    LocalProvider::ServerConfig config;
    config.profile = *profile;
    if (configure)
        configure(config);
    return config;
}

} // namespace

LocalProviderFixture::LocalProviderFixture(QStringView latencyProfile, const Configure &configure)
    : m_config(configFor(latencyProfile, configure))
    , m_server(m_config)
{
}

bool LocalProviderFixture::start()
{
    return m_server.start();
}

QString LocalProviderFixture::errorString() const
{
    return m_server.errorString();
}

LocalProvider::Stats LocalProviderFixture::stats() const
{
    return m_server.stats();
}

Llm::ProviderProfile LocalProviderFixture::profile(const QByteArray &latency, const QByteArray &fault) const
{
    Llm::ProviderProfile p = Llm::builtinProfile(u"local");
    p.baseUrl = m_server.apiUrl();
    p.apiKey = m_config.apiKey;
    if (!latency.isEmpty())
        p.extraHeaders.append({"X-Headstart-Latency", latency});
    if (!fault.isEmpty())
        p.extraHeaders.append({"X-Headstart-Fault", fault});
    return p;
}

std::unique_ptr<Prefetch::Engine> LocalProviderFixture::makeEngine(QNetworkAccessManager *network,
                                                                   const QByteArray &latency,
                                                                   const Prefetch::Settings &settings,
                                                                   int concurrencyLimit) const
{
    Llm::ProviderProfile p = profile(latency);
    if (concurrencyLimit > 0)
        p.concurrencyLimit = concurrencyLimit;
    return std::make_unique<Prefetch::Engine>(network, p, settings);
}

std::unique_ptr<Prefetch::Stack> LocalProviderFixture::makeStack(QNetworkAccessManager *network,
                                                                 const QByteArray &latency,
                                                                 const Prefetch::Settings &settings,
                                                                 int concurrencyLimit,
                                                                 const Prefetch::Stack::Options &options) const
{
    Llm::ProviderProfile p = profile(latency);
    if (concurrencyLimit > 0)
        p.concurrencyLimit = concurrencyLimit;
    return std::make_unique<Prefetch::Stack>(network, p, settings, options);
}

bool LocalProviderFixture::waitForNoOpenStream(int timeoutMs) const
{
    return QTest::qWaitFor([this] { return stats().streamsOpen == 0; }, timeoutMs);
}

bool LocalProviderFixture::settle(QNetworkAccessManager *network, int afterMs, int timeoutMs) const
{
    // Timers of one thread fire in the order they are due, so this one comes after those.
    QTimer after;
    after.setSingleShot(true);
    after.setTimerType(Qt::PreciseTimer);
    QSignalSpy fired(&after, &QTimer::timeout);
    after.start(afterMs);
    if (!fired.wait(afterMs + timeoutMs))
        return false;
    // What those timers queued in the same pass (a classifier's answer) runs before the probe.
    QCoreApplication::processEvents();
    const QUrl health = m_server.url().resolved(QUrl(QStringLiteral("health")));
    const std::unique_ptr<QNetworkReply> reply(network->get(QNetworkRequest(health)));
    return QTest::qWaitFor([&] { return reply->isFinished(); }, timeoutMs) && reply->error() == QNetworkReply::NoError;
}

QString drain(Prefetch::AnswerReader *handle, int timeoutMs)
{
    // isDone(): the handle may have ended while another handle was being drained.
    if (!QTest::qWaitFor([handle] { return handle->isDone(); }, timeoutMs))
        return QStringLiteral("<timeout>");
    if (handle->error())
        return QStringLiteral("<failed: %1>").arg(handle->error()->message());
    return handle->text();
}

QString freshText(QNetworkAccessManager *network, const Llm::ProviderProfile &profile,
                  const Prefetch::RenderedRequest &request, int timeoutMs)
{
    Prefetch::Engine fresh(network, profile);
    // Deleted before the engine that made it.
    const std::unique_ptr<Prefetch::AnswerReader> handle(
        fresh.request(Prefetch::Strategy::None, request, Llm::monotonicNowNs(), nullptr));
    return drain(handle.get(), timeoutMs);
}

QString freshText(QNetworkAccessManager *network, const Llm::ProviderProfile &profile, const Llm::ChatRequest &request,
                  int timeoutMs)
{
    return freshText(network, profile, Prefetch::Engine(network, profile).render(request), timeoutMs);
}

} // namespace TestSupport
