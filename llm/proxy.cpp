#include "proxy.h"

#include "providerprofile.h"

#include <QHostAddress>
#include <QMutexLocker>

namespace Llm {

QNetworkProxy ProxySettings::toNetworkProxy() const
{
    switch (mode) {
    case Mode::Http: return QNetworkProxy(QNetworkProxy::HttpProxy, host.trimmed(), port, user, password);
    case Mode::Socks5:
        // Qt's SOCKS5 client sends the host name for the proxy to resolve: names that only the
        // proxy's network knows work, and this machine's resolver learns nothing.
        return QNetworkProxy(QNetworkProxy::Socks5Proxy, host.trimmed(), port, user, password);
    case Mode::System:
    case Mode::None: break;
    }
    return QNetworkProxy(QNetworkProxy::NoProxy);
}

QString proxyAddress(const QNetworkProxy &proxy)
{
    const QString host = proxy.hostName();
    const bool ipv6 = QHostAddress(host).protocol() == QAbstractSocket::IPv6Protocol;
    return QStringLiteral("%1:%2").arg(ipv6 ? QLatin1Char('[') + host + QLatin1Char(']') : host).arg(proxy.port());
}

ProxyFactory::ProxyFactory(ProxySettings settings)
    : m_settings(std::move(settings))
{
}

void ProxyFactory::setSettings(const ProxySettings &settings)
{
    QMutexLocker lock(&m_mutex);
    m_settings = settings;
}

ProxySettings ProxyFactory::settings() const
{
    QMutexLocker lock(&m_mutex);
    return m_settings;
}

QList<QNetworkProxy> ProxyFactory::queryProxy(const QNetworkProxyQuery &query)
{
    // A proxy would see (and could log) what goes to a server on this machine, and most
    // proxies cannot reach this machine's loopback anyway.
    if (isLoopbackHost(query.peerHostName()))
        return {QNetworkProxy(QNetworkProxy::NoProxy)};
    const ProxySettings settings = this->settings();
    switch (settings.mode) {
    case ProxySettings::Mode::System: return systemProxyForQuery(query);
    case ProxySettings::Mode::None: return {QNetworkProxy(QNetworkProxy::NoProxy)};
    case ProxySettings::Mode::Http:
    case ProxySettings::Mode::Socks5: break;
    }
    return {settings.toNetworkProxy()};
}

} // namespace Llm
