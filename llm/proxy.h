#pragma once

#include <QMutex>
#include <QNetworkProxy>
#include <QNetworkProxyFactory>
#include <QString>

namespace Llm {

// The proxy model traffic goes through, as the user chose it (Settings, Network). A value type;
// the password comes from the key store and is never logged or written to the settings.
struct ProxySettings {
    enum class Mode {
        System, // what the desktop or the environment (http_proxy, https_proxy, no_proxy) says
        None,   // always direct
        Http,
        Socks5,
    };
    Mode mode = Mode::System;
    QString host;
    quint16 port = 0;
    QString user; // empty: no credentials
    QString password;

    // Http or Socks5 with a host and a port.
    bool isExplicit() const { return mode == Mode::Http || mode == Mode::Socks5; }
    bool isComplete() const { return !isExplicit() || (!host.trimmed().isEmpty() && port != 0); }
    // The QNetworkProxy of an explicit mode (NoProxy otherwise).
    QNetworkProxy toNetworkProxy() const;

    friend bool operator==(const ProxySettings &, const ProxySettings &) = default;
};

// "host:port" of `proxy`, as messages name it ("[::1]:1080" for an IPv6 address).
QString proxyAddress(const QNetworkProxy &proxy);

// Decides the proxy of every request of the network manager it is installed on
// (QNetworkAccessManager::setProxyFactory, which takes ownership). Loopback hosts
// (Llm::isLoopbackHost: the local demo engine, Ollama or llama.cpp on this machine) always go
// direct, whatever the mode; other hosts go through the chosen proxy. An explicit proxy that
// is incomplete is still returned, so the request fails naming it instead of quietly going
// around the proxy the user asked for.
//
// Qt may ask from the thread of a network manager's HTTP delegate: queries and setSettings()
// are serialised by a mutex.
class ProxyFactory : public QNetworkProxyFactory
{
public:
    explicit ProxyFactory(ProxySettings settings = {});

    void setSettings(const ProxySettings &settings);
    ProxySettings settings() const;

    QList<QNetworkProxy> queryProxy(const QNetworkProxyQuery &query = QNetworkProxyQuery()) override;

private:
    mutable QMutex m_mutex;
    ProxySettings m_settings;
};

} // namespace Llm
