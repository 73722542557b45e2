#pragma once

#include <QByteArray>
#include <QHash>
#include <QList>
#include <QObject>
#include <QTcpServer>

class QTcpSocket;

namespace TestSupport {

// A tiny proxy on 127.0.0.1 for the proxy suites. As an HTTP proxy it takes CONNECT host:port
// (a tunnel) and absolute-form requests (GET http://host/path: forwarded in origin form); as a
// SOCKS5 proxy (told apart by the first byte) a CONNECT by IPv4 address or host name. It
// optionally asks for credentials (HTTP Basic with 407, or SOCKS5 user/password), and forwards only to the hosts it was given a route for, each to
// a port on 127.0.0.1: whatever a test names, nothing leaves the machine. An unknown host gets
// 502. Runs in the test's thread; one upstream connection per client connection.
class TestProxy : public QObject
{
    Q_OBJECT

public:
    explicit TestProxy(QObject *parent = nullptr);
    ~TestProxy() override;

    bool listen(); // 127.0.0.1, port 0
    quint16 port() const { return m_server.serverPort(); }

    // Requests for `host` (any port) go to 127.0.0.1:`loopbackPort`.
    void addRoute(const QString &host, quint16 loopbackPort) { m_routes.insert(host.toLower(), loopbackPort); }
    // Non-empty: requests without these credentials are refused (HTTP 407, SOCKS5 status 1).
    void requireCredentials(const QByteArray &user, const QByteArray &password);

    // Each request line as received ("POST http://192.0.2.10:80/v1/chat/completions HTTP/1.1",
    // "CONNECT host:443 HTTP/1.1", "SOCKS5 CONNECT 192.0.2.10:4242"), those refused for their
    // credentials included.
    const QList<QByteArray> &requestLines() const { return m_requestLines; }
    int authChallenges() const { return m_challenges; }
    int forwarded() const { return m_forwarded; }

signals:
    void requestReceived();

private:
    struct Tunnel;
    // What the client is told once the upstream connection is open: nothing (a forwarded
    // request), "200 Connection established", or SOCKS5's success.
    enum class Opened { Forward, Connect, Socks5 };
    void onNewConnection();
    void onClientData(Tunnel *tunnel);
    void handleHead(Tunnel *tunnel, const QByteArray &head, const QByteArray &rest);
    void handleSocks(Tunnel *tunnel);
    void openUpstream(Tunnel *tunnel, quint16 port, const QByteArray &first, Opened opened);
    void close(Tunnel *tunnel);

    QTcpServer m_server;
    QHash<QString, quint16> m_routes;
    QByteArray m_credentials; // "user:password" in base64, or empty
    QList<QByteArray> m_requestLines;
    QList<Tunnel *> m_tunnels;
    int m_challenges = 0;
    int m_forwarded = 0;
};

} // namespace TestSupport
