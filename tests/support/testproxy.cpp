#include "testproxy.h"

#include <QHostAddress>
#include <QTcpSocket>
#include <QUrl>

#include <algorithm>

namespace TestSupport {

struct TestProxy::Tunnel {
    QTcpSocket *client = nullptr;
    QTcpSocket *upstream = nullptr;
    QByteArray pending;  // from the client, before the upstream is open
    bool piping = false; // head handled: bytes now flow both ways as they are
    qsizetype skip = 0;  // body bytes of a request refused with 407 still to come
    enum class Socks { No, Greeting, Auth, Request } socks = Socks::No; // a SOCKS5 client's progress
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
    if (tunnel->socks == Tunnel::Socks::No && tunnel->pending.startsWith('\x05'))
        tunnel->socks = Tunnel::Socks::Greeting;
    if (tunnel->socks != Tunnel::Socks::No) {
        handleSocks(tunnel);
        return;
    }
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
                + (url.hasQuery() ? '?' + url.query(QUrl::FullyEncoded).toLatin1() : QByteArray()) + ' ' + parts[2]
                + "\r\n";
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
    openUpstream(tunnel, *route, connectMethod ? rest : first, connectMethod ? Opened::Connect : Opened::Forward);
}

void TestProxy::openUpstream(Tunnel *tunnel, quint16 port, const QByteArray &first, Opened opened)
{
    tunnel->piping = true;
    tunnel->pending = first;
    tunnel->upstream = new QTcpSocket(this);
    QTcpSocket *upstream = tunnel->upstream;
    connect(upstream, &QTcpSocket::connected, this, [this, tunnel, opened] {
        ++m_forwarded;
        if (opened == Opened::Connect)
            tunnel->client->write("HTTP/1.1 200 Connection established\r\n\r\n");
        else if (opened == Opened::Socks5)
            tunnel->client->write(QByteArray("\x05\x00\x00\x01\x7f\x00\x00\x01\x00\x00", 10));
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

void TestProxy::handleSocks(Tunnel *tunnel)
{
    QByteArray &in = tunnel->pending;
    const auto byte = [&in](qsizetype i) { return static_cast<quint8>(in.at(i)); };
    const auto refuse = [tunnel](const QByteArray &reply) {
        tunnel->client->write(reply);
        tunnel->client->disconnectFromHost();
    };
    if (tunnel->socks == Tunnel::Socks::Greeting) {
        if (in.size() < 2 || in.size() < 2 + byte(1))
            return;
        const QByteArray methods = in.mid(2, byte(1));
        in.remove(0, 2 + byte(1));
        const char wanted = m_credentials.isEmpty() ? '\x00' : '\x02';
        if (!methods.contains(wanted))
            return refuse(QByteArray("\x05\xff", 2));
        tunnel->client->write(QByteArray("\x05", 1) + wanted);
        tunnel->socks = m_credentials.isEmpty() ? Tunnel::Socks::Request : Tunnel::Socks::Auth;
    }
    if (tunnel->socks == Tunnel::Socks::Auth) {
        // RFC 1929: version 1, user and password each with a length byte.
        if (in.size() < 2 || in.size() < 3 + byte(1) || in.size() < 3 + byte(1) + byte(2 + byte(1)))
            return;
        const qsizetype userLength = byte(1);
        const QByteArray user = in.mid(2, userLength);
        const QByteArray password = in.mid(3 + userLength, byte(2 + userLength));
        in.remove(0, 3 + userLength + password.size());
        if ((user + ':' + password).toBase64() != m_credentials) {
            ++m_challenges;
            return refuse(QByteArray("\x01\x01", 2));
        }
        tunnel->client->write(QByteArray("\x01\x00", 2));
        tunnel->socks = Tunnel::Socks::Request;
    }
    if (tunnel->socks != Tunnel::Socks::Request || in.size() < 5)
        return;
    QString host;
    qsizetype addressEnd = 0;
    switch (byte(3)) {
    case 1: // IPv4
        addressEnd = 8;
        if (in.size() >= addressEnd)
            host = QStringLiteral("%1.%2.%3.%4").arg(byte(4)).arg(byte(5)).arg(byte(6)).arg(byte(7));
        break;
    case 3: // a host name, for the proxy to resolve
        addressEnd = 5 + byte(4);
        host = QString::fromLatin1(in.mid(5, byte(4)));
        break;
    default: // IPv6: not routed here
        return refuse(QByteArray("\x05\x08\x00\x01\x00\x00\x00\x00\x00\x00", 10));
    }
    if (in.size() < addressEnd + 2)
        return;
    const quint16 port = static_cast<quint16>(byte(addressEnd) << 8 | byte(addressEnd + 1));
    in.remove(0, addressEnd + 2);
    m_requestLines.append("SOCKS5 CONNECT " + host.toLatin1() + ':' + QByteArray::number(port));
    emit requestReceived();
    const auto route = m_routes.constFind(host.toLower());
    if (route == m_routes.constEnd())
        return refuse(QByteArray("\x05\x04\x00\x01\x00\x00\x00\x00\x00\x00", 10)); // host unreachable
    tunnel->socks = Tunnel::Socks::No;
    openUpstream(tunnel, *route, in, Opened::Socks5);
}

void TestProxy::close(Tunnel *tunnel)
{
    if (tunnel->upstream)
        tunnel->upstream->disconnectFromHost();
}

} // namespace TestSupport
