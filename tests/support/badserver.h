#pragma once

#include <QByteArray>
#include <QList>
#include <QObject>
#include <QTcpServer>
#include <QUrl>

#include <functional>

class QTcpSocket;

namespace TestSupport {

// A misbehaving HTTP server on 127.0.0.1 for transport tests: it reads each request (head and
// Content-Length body) and hands it to a responder that writes whatever bytes the test wants —
// a redirect, an HTML page, garbage, endless keep-alives, huge headers. Runs in the test's
// thread; the client under test must be asynchronous (QNetworkAccessManager is). One request
// per connection: the responder writes and usually closes.
class BadServer : public QObject
{
    Q_OBJECT

public:
    struct Request {
        QByteArray method;
        QByteArray target; // as sent: a path, or an absolute URL when the server is used as a proxy
        QList<QPair<QByteArray, QByteArray>> headers;
        QByteArray body;
        QByteArray header(const QByteArray &name) const; // case-insensitive; empty when absent
    };
    using Responder = std::function<void(QTcpSocket *socket, const Request &request)>;

    explicit BadServer(QObject *parent = nullptr);

    bool listen(); // 127.0.0.1, port 0
    quint16 port() const { return m_server.serverPort(); }
    QUrl baseUrl() const; // http://127.0.0.1:<port>/v1

    void setResponder(Responder responder) { m_responder = std::move(responder); }
    // Writes `raw` (a whole response, status line included) and closes the connection.
    void respondWith(const QByteArray &raw);
    // Writes `head` (status line, headers and any first bytes), then `repeated` every
    // `intervalMs` until the client goes: keep-alives, or an answer that never ends.
    void respondWithDrip(const QByteArray &head, const QByteArray &repeated, int intervalMs);

    int connectionCount() const { return m_connections; }
    const QList<Request> &requests() const { return m_requests; }

    // A complete response with the given status line tail, headers and body; Content-Length
    // and Connection: close are added.
    static QByteArray response(const QByteArray &status, const QList<QPair<QByteArray, QByteArray>> &headers,
                               const QByteArray &body);

signals:
    void requestReceived();

private:
    void onNewConnection();

    QTcpServer m_server;
    Responder m_responder;
    QList<Request> m_requests;
    int m_connections = 0;
};

} // namespace TestSupport
