#pragma once

#include <QByteArray>
#include <QHash>
#include <QList>
#include <QObject>
#include <QTcpServer>

class QTcpSocket;

namespace TestSupport {

// A tiny HTTP proxy on 127.0.0.1 for the proxy suites: it takes CONNECT host:port (a tunnel)
// and absolute-form requests (GET http://host/path: forwarded in origin form), optionally asks
// for Basic credentials (407), and forwards only to the hosts it was given a route for, each to
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
    // Non-empty: requests without these Basic credentials get 407.
    void requireCredentials(const QByteArray &user, const QByteArray &password);

    // Each request line as received ("POST http://192.0.2.10:80/v1/chat/completions HTTP/1.1",
    // "CONNECT host:443 HTTP/1.1"), those refused with 407 included.
    const QList<QByteArray> &requestLines() const { return m_requestLines; }
    int authChallenges() const { return m_challenges; }
    int forwarded() const { return m_forwarded; }

signals:
    void requestReceived();

private:
    struct Tunnel;
    void onNewConnection();
    void onClientData(Tunnel *tunnel);
    void handleHead(Tunnel *tunnel, const QByteArray &head, const QByteArray &rest);
    void openUpstream(Tunnel *tunnel, quint16 port, const QByteArray &first, bool connectMethod);
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
