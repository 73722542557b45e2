// The proxy of model traffic (Llm::ProxyFactory): loopback always direct, other hosts through
// the chosen proxy, the system's answer in system mode; end to end through a loopback HTTP
// proxy (tests/support/testproxy.h) to the local provider, with and without credentials; and a
// proxy that refuses, named in the error. The remote host is 192.0.2.10 (TEST-NET-1): only the
// test proxy, which forwards it to 127.0.0.1, ever sees it, and each test checks the factory's
// decision before a request is sent, so nothing leaves the machine even when the factory is wrong.
#include "support/localproviderfixture.h"
#include "support/testproxy.h"

#include "llm/providerprofile.h"
#include "llm/providerrequest.h"
#include "llm/proxy.h"

#include <QNetworkAccessManager>
#include <QSignalSpy>
#include <QTcpServer>
#include <QTest>

using namespace Llm;
using Mode = ProxySettings::Mode;

static const QString RemoteHost = QStringLiteral("192.0.2.10");

class tst_Proxy : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void loopbackIsAlwaysDirect_data();
    void loopbackIsAlwaysDirect();
    void otherHostsUseTheChosenProxy_data();
    void otherHostsUseTheChosenProxy();
    void systemModeAsksTheSystem();
    void incompleteProxyIsNotBypassed();
    void streamGoesThroughTheProxy();
    void proxyCredentials();
    void streamGoesThroughASocks5Proxy();
    void refusingProxyIsNamed();

private:
    // The local provider's profile, addressed as the remote host the test proxy routes to it.
    ProviderProfile remoteProfile(quint16 port) const;
    ChatRequest request(const QString &prompt) const;
    // Runs `stream` to its end; false on timeout.
    static bool run(ProviderRequest &stream, int timeoutMs = 10000);

    TestSupport::LocalProviderFixture m_local;
};

void tst_Proxy::initTestCase()
{
    QVERIFY2(m_local.start(), qPrintable(m_local.errorString()));
}

ProviderProfile tst_Proxy::remoteProfile(quint16 port) const
{
    ProviderProfile profile = m_local.profile();
    profile.displayName = QStringLiteral("Remote");
    profile.baseUrl = QUrl(QStringLiteral("http://%1:%2/v1").arg(RemoteHost).arg(port));
    profile.allowInsecureHttp = true; // plain http:// to the test proxy's pretend remote host
    return profile;
}

ChatRequest tst_Proxy::request(const QString &prompt) const
{
    ChatRequest r;
    r.model = m_local.profile().model;
    r.messages.append({Role::User, prompt});
    r.maxTokens = 8;
    return r;
}

bool tst_Proxy::run(ProviderRequest &stream, int timeoutMs)
{
    QSignalSpy finished(&stream, &ProviderRequest::finished);
    QSignalSpy failed(&stream, &ProviderRequest::failed);
    stream.start();
    return QTest::qWaitFor([&] { return finished.count() + failed.count() > 0; }, timeoutMs);
}

void tst_Proxy::loopbackIsAlwaysDirect_data()
{
    QTest::addColumn<int>("mode");
    QTest::addColumn<QString>("url");
    for (Mode mode : {Mode::System, Mode::None, Mode::Http, Mode::Socks5}) {
        for (const char *url :
             {"http://127.0.0.1:8080/v1", "http://localhost:11434/v1", "https://[::1]/v1", "http://127.3.4.5/v1"})
            QTest::addRow("%d %s", int(mode), url) << int(mode) << QString::fromLatin1(url);
    }
}

void tst_Proxy::loopbackIsAlwaysDirect()
{
    QFETCH(int, mode);
    QFETCH(QString, url);
    ProxyFactory factory({Mode(mode), QStringLiteral("10.0.0.1"), 8080, {}, {}});
    const QList<QNetworkProxy> proxies = factory.queryProxy(QNetworkProxyQuery(QUrl(url)));
    QCOMPARE(proxies.size(), 1);
    QCOMPARE(proxies.first().type(), QNetworkProxy::NoProxy);
}

void tst_Proxy::otherHostsUseTheChosenProxy_data()
{
    QTest::addColumn<int>("mode");
    QTest::addColumn<int>("type");
    QTest::addRow("http") << int(Mode::Http) << int(QNetworkProxy::HttpProxy);
    QTest::addRow("socks5") << int(Mode::Socks5) << int(QNetworkProxy::Socks5Proxy);
    QTest::addRow("none") << int(Mode::None) << int(QNetworkProxy::NoProxy);
}

void tst_Proxy::otherHostsUseTheChosenProxy()
{
    QFETCH(int, mode);
    QFETCH(int, type);
    ProxyFactory factory({Mode(mode), QStringLiteral(" 10.0.0.1 "), 8080, QStringLiteral("ann"), QStringLiteral("pw")});
    for (const char *url : {"https://api.deepseek.com/v1/chat/completions", "http://192.168.1.20:11434/v1"}) {
        const QList<QNetworkProxy> proxies = factory.queryProxy(QNetworkProxyQuery(QUrl(QString::fromLatin1(url))));
        QCOMPARE(proxies.size(), 1);
        const QNetworkProxy &proxy = proxies.first();
        QCOMPARE(int(proxy.type()), type);
        if (proxy.type() == QNetworkProxy::NoProxy)
            continue;
        QCOMPARE(proxy.hostName(), QStringLiteral("10.0.0.1"));
        QCOMPARE(proxy.port(), quint16(8080));
        QCOMPARE(proxy.user(), QStringLiteral("ann"));
        QCOMPARE(proxy.password(), QStringLiteral("pw"));
        QCOMPARE(proxyAddress(proxy), QStringLiteral("10.0.0.1:8080"));
    }
    // Changed while installed (Settings): the next query has it.
    factory.setSettings({Mode::None, {}, 0, {}, {}});
    QCOMPARE(factory.queryProxy(QNetworkProxyQuery(QUrl(QStringLiteral("https://api.openai.com/v1")))).first().type(),
             QNetworkProxy::NoProxy);
}

void tst_Proxy::systemModeAsksTheSystem()
{
    // On Linux the system's answer comes from http_proxy / https_proxy / no_proxy (or libproxy,
    // which reads them too): give it one to find.
    const QByteArray saved = qgetenv("http_proxy");
    qputenv("http_proxy", "http://10.9.8.7:3128");
    ProxyFactory factory; // system mode is the default
    QCOMPARE(factory.settings().mode, Mode::System);
    const QNetworkProxyQuery remote(QUrl(QStringLiteral("http://api.example.com/v1")));
    const QList<QNetworkProxy> system = QNetworkProxyFactory::systemProxyForQuery(remote);
    QCOMPARE(factory.queryProxy(remote), system);
    QVERIFY2(system.first().hostName() == QLatin1String("10.9.8.7"), qPrintable(system.first().hostName()));
    // Even where the system would send loopback through the proxy, it goes direct.
    QCOMPARE(factory.queryProxy(QNetworkProxyQuery(QUrl(QStringLiteral("http://127.0.0.1:9/v1")))).first().type(),
             QNetworkProxy::NoProxy);
    if (saved.isNull())
        qunsetenv("http_proxy");
    else
        qputenv("http_proxy", saved);
}

void tst_Proxy::incompleteProxyIsNotBypassed()
{
    // HTTP chosen, host not typed yet: requests must fail, not go around the proxy.
    ProxyFactory factory({Mode::Http, {}, 0, {}, {}});
    QVERIFY(!factory.settings().isComplete());
    const QNetworkProxy proxy =
        factory.queryProxy(QNetworkProxyQuery(QUrl(QStringLiteral("https://api.openai.com/v1")))).first();
    QCOMPARE(proxy.type(), QNetworkProxy::HttpProxy);
}

void tst_Proxy::streamGoesThroughTheProxy()
{
    TestSupport::TestProxy proxy;
    QVERIFY(proxy.listen());
    proxy.addRoute(RemoteHost, quint16(m_local.server().url().port()));
    QNetworkAccessManager network;
    auto *factory = new ProxyFactory({Mode::Http, QStringLiteral("127.0.0.1"), proxy.port(), {}, {}});
    network.setProxyFactory(factory);

    const ProviderProfile profile = remoteProfile(4242);
    QCOMPARE(factory->queryProxy(QNetworkProxyQuery(profile.endpoint())).first().port(), proxy.port());
    ProviderRequest stream(&network, profile, request(QStringLiteral("Through the proxy, please.")));
    QVERIFY(run(stream));
    QVERIFY2(!stream.error(), stream.error() ? qPrintable(stream.error()->message()) : "");
    QVERIFY(!stream.text().isEmpty());
    QCOMPARE(proxy.requestLines(), QList<QByteArray>{"POST http://192.0.2.10:4242/v1/chat/completions HTTP/1.1"});
    QCOMPARE(proxy.forwarded(), 1);

    // The local provider itself, on loopback, through the same manager: direct.
    ProviderRequest direct(&network, m_local.profile(), request(QStringLiteral("Straight to loopback.")));
    QVERIFY(run(direct));
    QVERIFY2(!direct.error(), direct.error() ? qPrintable(direct.error()->message()) : "");
    QCOMPARE(proxy.requestLines().size(), 1);
}

void tst_Proxy::proxyCredentials()
{
    TestSupport::TestProxy proxy;
    QVERIFY(proxy.listen());
    proxy.addRoute(RemoteHost, quint16(m_local.server().url().port()));
    proxy.requireCredentials("ann", "s3cret pass");
    const ProviderProfile profile = remoteProfile(4242);

    {
        QNetworkAccessManager network;
        network.setProxyFactory(new ProxyFactory({Mode::Http, QStringLiteral("127.0.0.1"), proxy.port(),
                                                  QStringLiteral("ann"), QStringLiteral("s3cret pass")}));
        ProviderRequest stream(&network, profile, request(QStringLiteral("With the right password.")));
        QVERIFY(run(stream));
        QVERIFY2(!stream.error(), stream.error() ? qPrintable(stream.error()->message()) : "");
        QVERIFY(!stream.text().isEmpty());
        QCOMPARE(proxy.forwarded(), 1);
    }
    {
        QNetworkAccessManager network;
        network.setProxyFactory(new ProxyFactory(
            {Mode::Http, QStringLiteral("127.0.0.1"), proxy.port(), QStringLiteral("ann"), QStringLiteral("wrong")}));
        ProviderRequest stream(&network, profile, request(QStringLiteral("With the wrong password.")));
        QVERIFY(run(stream));
        QVERIFY(stream.error());
        const Error error = *stream.error();
        QCOMPARE(error.code(), Error::Code::ProxyAuth);
        const QString address = QStringLiteral("127.0.0.1:%1").arg(proxy.port());
        QVERIFY2(error.message().contains(address), qPrintable(error.message()));
        QVERIFY2(!error.message().contains(QLatin1String("wrong")), qPrintable(error.message()));
        QCOMPARE(proxy.forwarded(), 1); // nothing got past the proxy
    }
}

void tst_Proxy::streamGoesThroughASocks5Proxy()
{
    TestSupport::TestProxy proxy;
    QVERIFY(proxy.listen());
    proxy.addRoute(RemoteHost, quint16(m_local.server().url().port()));
    proxy.requireCredentials("ann", "socks pass");
    const ProviderProfile profile = remoteProfile(4242);
    {
        QNetworkAccessManager network;
        auto *factory = new ProxyFactory({Mode::Socks5, QStringLiteral("127.0.0.1"), proxy.port(),
                                          QStringLiteral("ann"), QStringLiteral("socks pass")});
        network.setProxyFactory(factory);
        QCOMPARE(factory->queryProxy(QNetworkProxyQuery(profile.endpoint())).first().type(),
                 QNetworkProxy::Socks5Proxy);
        ProviderRequest stream(&network, profile, request(QStringLiteral("Through SOCKS5, please.")));
        QVERIFY(run(stream));
        QVERIFY2(!stream.error(), stream.error() ? qPrintable(stream.error()->message()) : "");
        QVERIFY(!stream.text().isEmpty());
        QCOMPARE(proxy.requestLines(), QList<QByteArray>{"SOCKS5 CONNECT 192.0.2.10:4242"});
    }
    {
        QNetworkAccessManager network;
        network.setProxyFactory(new ProxyFactory(
            {Mode::Socks5, QStringLiteral("127.0.0.1"), proxy.port(), QStringLiteral("ann"), QStringLiteral("wrong")}));
        ProviderRequest stream(&network, profile, request(QStringLiteral("With the wrong password.")));
        QVERIFY(run(stream));
        QVERIFY(stream.error());
        QVERIFY2(stream.error()->code() == Error::Code::ProxyAuth, qPrintable(stream.error()->message()));
        QVERIFY(stream.error()->message().contains(QStringLiteral("127.0.0.1:%1").arg(proxy.port())));
        QCOMPARE(proxy.authChallenges(), 1);
        QCOMPARE(proxy.forwarded(), 1);
    }
}

void tst_Proxy::refusingProxyIsNamed()
{
    quint16 closed = 0;
    {
        QTcpServer probe;
        QVERIFY(probe.listen(QHostAddress::LocalHost));
        closed = probe.serverPort();
    } // closed again: nothing listens on the port now
    QNetworkAccessManager network;
    network.setProxyFactory(new ProxyFactory({Mode::Http, QStringLiteral("127.0.0.1"), closed, {}, {}}));
    ProviderRequest stream(&network, remoteProfile(4242), request(QStringLiteral("Anyone there?")));
    QVERIFY(run(stream));
    QVERIFY(stream.error());
    const Error error = *stream.error();
    QCOMPARE(error.code(), Error::Code::ProxyRefused);
    const QString expected = QStringLiteral("Cannot reach Remote: the proxy 127.0.0.1:%1 refused the connection — "
                                            "check Settings → Network.")
                                 .arg(closed);
    QCOMPARE(error.message(), expected);

    // The same through SOCKS5, which Qt 6.4 reports only as an unknown network error: the
    // proxy could not be reached.
    QNetworkAccessManager socks;
    socks.setProxyFactory(new ProxyFactory({Mode::Socks5, QStringLiteral("127.0.0.1"), closed, {}, {}}));
    ProviderRequest viaSocks(&socks, remoteProfile(4242), request(QStringLiteral("Anyone there?")));
    QVERIFY(run(viaSocks));
    QVERIFY(viaSocks.error());
    QCOMPARE(viaSocks.error()->code(), Error::Code::ProxyUnreachable);
    QVERIFY(viaSocks.error()->message().contains(QStringLiteral("127.0.0.1:%1").arg(closed)));
}

QTEST_GUILESS_MAIN(tst_Proxy)
#include "tst_proxy.moc"
