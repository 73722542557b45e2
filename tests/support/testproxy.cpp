#include "testproxy.h"

#include <QHostAddress>
#include <QTcpSocket>
#include <QUrl>

#include <algorithm>

namespace TestSupport {

struct TestProxy::Tunnel {
    QTcpSocket *client = nullptr;
    QTcpSocket *upstream = nullptr;
    QByteArray pending; // from the client, before the upstream is open
    bool piping = false; // head handled: bytes now flow both ways as they are
    qsizetype skip = 0;  // body bytes of a request refused with 407 still to come
};

TestProxy::TestProxy(QObject *parent)
    : QObject(parent)
{
    connect(&m_server, &QTcpServer::newConnection, this, &TestProxy::onNewConnection);
}

TestProxy::~TestProxy()
{
    for (Tunnel *t : std::as_const(m_tunnels))
        delete t; // the sockets are children of this object
}

bool TestProxy::listen()
{
    return m_server.listen(QHostAddress::LocalHost, 0);
}

void TestProxy::requireCredentials(const QByteArray &user, const QByteArray &password)
{
    m_credentials = (user + ':' + password).toBase64();
}

void TestProxy::onNewConnection()
{
    while (QTcpSocket *socket = m_server.nextPendingConnection()) {
        socket->setParent(this);
        auto *tunnel = new Tunnel;
        tunnel->client = socket;
        m_tunnels.append(tunnel);
        connect(socket, &QTcpSocket::readyRead, this, [this, tunnel] { onClientData(tunnel); });
        connect(socket, &QTcpSocket::disconnected, this, [this, tunnel] { close(tunnel); });
    }
}

void TestProxy::onClientData(Tunnel *tunnel)
{
    const QByteArray data = tunnel->client->readAll();
    if (tunnel->piping) {
        if (tunnel->upstream && tunnel->upstream->state() == QAbstractSocket::ConnectedState)
            tunnel->upstream->write(data);
        else
            tunnel->pending += data;
        return;
    }
    tunnel->pending += data;
    // A client refused with 407 may send its next request right behind the refused one's body.
    while (!tunnel->piping) {
        const qsizetype skipped = std::min(tunnel->skip, tunnel->pending.size());
        tunnel->pending.remove(0, skipped);
        tunnel->skip -= skipped;
        const qsizetype end = tunnel->pending.indexOf("\r\n\r\n");
        if (tunnel->skip > 0 || end < 0)
            return;
        const QByteArray head = tunnel->pending.left(end + 4);
        const QByteArray rest = tunnel->pending.mid(end + 4);
        tunnel->pending.clear();
        handleHead(tunnel, head, rest);
        if (tunnel->client->state() != QAbstractSocket::ConnectedState)
            return;
    }
}

void TestProxy::handleHead(Tunnel *tunnel, const QByteArray &head, const QByteArray &rest)
{
    QList<QByteArray> lines = head.left(head.size() - 4).split('\n');
    for (QByteArray &line : lines)
        line = line.trimmed();
    const QByteArray requestLine = lines.value(0);
    m_requestLines.append(requestLine);
    emit requestReceived();
    const QList<QByteArray> parts = requestLine.split(' ');
    if (parts.size() != 3) {
        tunnel->client->write("HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\nConnection: close\r\n\r\n");
        tunnel->client->disconnectFromHost();
        return;
    }
    if (!m_credentials.isEmpty()) {
        bool authorised = false;
        qsizetype contentLength = 0;
        for (const QByteArray &line : lines) {
            const QByteArray lower = line.toLower();
            if (lower.startsWith("proxy-authorization:"))
                authorised = line.mid(line.indexOf(':') + 1).trimmed() == "Basic " + m_credentials;
            else if (lower.startsWith("content-length:"))
                contentLength = line.mid(line.indexOf(':') + 1).trimmed().toLongLong();
        }
        if (!authorised) {
            ++m_challenges;
            // The client may ask again on this connection with credentials; the refused
            // request's body, which may still be coming, is dropped first.
            tunnel->pending = rest.mid(std::min(contentLength, rest.size()));
            tunnel->skip = std::max<qsizetype>(0, contentLength - rest.size());
            tunnel->client->write("HTTP/1.1 407 Proxy Authentication Required\r\n"
                                  "Proxy-Authenticate: Basic realm=\"headstart-test\"\r\n"
                                  "Content-Length: 0\r\n\r\n");
            return;
        }
    }

    const bool connectMethod = parts[0] == "CONNECT";
    QString host;
    QByteArray first; // what goes upstream first
    if (connectMethod) {
        host = QString::fromLatin1(parts[1].left(parts[1].lastIndexOf(':')));
    } else {
        const QUrl url(QString::fromLatin1(parts[1]));
        host = url.host();
        // Origin form, without the proxy's own headers; one request per upstream connection.
        first = parts[0] + ' ' + url.path(QUrl::FullyEncoded).toLatin1()
            + (url.hasQuery() ? '?' + url.query(QUrl::FullyEncoded).toLatin1() : QByteArray()) + ' ' + parts[2] + "\r\n";
        for (qsizetype i = 1; i < lines.size(); ++i) {
            const QByteArray lower = lines[i].toLower();
            if (lines[i].isEmpty() || lower.startsWith("proxy-") || lower.startsWith("connection:"))
                continue;
            first += lines[i] + "\r\n";
        }
        first += "Connection: close\r\n\r\n" + rest;
    }
    const auto route = m_routes.constFind(host.toLower());
    if (route == m_routes.constEnd()) {
        tunnel->client->write("HTTP/1.1 502 Bad Gateway\r\nContent-Length: 0\r\nConnection: close\r\n\r\n");
        tunnel->client->disconnectFromHost();
        return;
    }
    openUpstream(tunnel, *route, connectMethod ? rest : first, connectMethod);
}

void TestProxy::openUpstream(Tunnel *tunnel, quint16 port, const QByteArray &first, bool connectMethod)
{
    tunnel->piping = true;
    tunnel->pending = first;
    tunnel->upstream = new QTcpSocket(this);
    QTcpSocket *upstream = tunnel->upstream;
    connect(upstream, &QTcpSocket::connected, this, [this, tunnel, connectMethod] {
        ++m_forwarded;
        if (connectMethod)
            tunnel->client->write("HTTP/1.1 200 Connection established\r\n\r\n");
        tunnel->upstream->write(tunnel->pending);
        tunnel->pending.clear();
    });
    connect(upstream, &QTcpSocket::readyRead, this, [tunnel] { tunnel->client->write(tunnel->upstream->readAll()); });
    connect(upstream, &QTcpSocket::disconnected, this, [tunnel] {
        tunnel->client->write(tunnel->upstream->readAll());
        tunnel->client->disconnectFromHost();
    });
    connect(upstream, &QTcpSocket::errorOccurred, this, [tunnel](QAbstractSocket::SocketError) {
        if (tunnel->upstream->state() != QAbstractSocket::ConnectedState)
            tunnel->client->disconnectFromHost();
    });
    upstream->connectToHost(QHostAddress::LocalHost, port);
}

void TestProxy::close(Tunnel *tunnel)
{
    if (tunnel->upstream)
        tunnel->upstream->disconnectFromHost();
}

} // namespace TestSupport
