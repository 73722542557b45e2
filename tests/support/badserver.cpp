#include "badserver.h"

#include <QTcpSocket>
#include <QTimer>

#include <memory>

namespace TestSupport {

QByteArray BadServer::Request::header(const QByteArray &name) const
{
    for (const auto &[n, v] : headers) {
        if (n.compare(name, Qt::CaseInsensitive) == 0)
            return v;
    }
    return {};
}

BadServer::BadServer(QObject *parent)
    : QObject(parent)
{
    connect(&m_server, &QTcpServer::newConnection, this, &BadServer::onNewConnection);
}

bool BadServer::listen()
{
    return m_server.listen(QHostAddress::LocalHost, 0);
}

QUrl BadServer::baseUrl() const
{
    return QUrl(QStringLiteral("http://127.0.0.1:%1/v1").arg(port()));
}

void BadServer::respondWith(const QByteArray &raw)
{
    setResponder([raw](QTcpSocket *socket, const Request &) {
        socket->write(raw);
        socket->disconnectFromHost();
    });
}

void BadServer::respondWithDrip(const QByteArray &head, const QByteArray &repeated, int intervalMs)
{
    setResponder([head, repeated, intervalMs](QTcpSocket *socket, const Request &) {
        socket->write(head);
        auto *timer = new QTimer(socket);
        QObject::connect(timer, &QTimer::timeout, socket, [socket, repeated] { socket->write(repeated); });
        timer->start(intervalMs);
    });
}

QByteArray BadServer::response(const QByteArray &status, const QList<QPair<QByteArray, QByteArray>> &headers,
                               const QByteArray &body)
{
    QByteArray out = "HTTP/1.1 " + status + "\r\n";
    for (const auto &[name, value] : headers)
        out += name + ": " + value + "\r\n";
    out += "Content-Length: " + QByteArray::number(body.size()) + "\r\nConnection: close\r\n\r\n";
    return out + body;
}

void BadServer::onNewConnection()
{
    while (QTcpSocket *socket = m_server.nextPendingConnection()) {
        ++m_connections;
        connect(socket, &QTcpSocket::disconnected, socket, &QObject::deleteLater);
        auto buffer = std::make_shared<QByteArray>();
        connect(socket, &QTcpSocket::readyRead, this, [this, socket, buffer] {
            buffer->append(socket->readAll());
            const qsizetype headEnd = buffer->indexOf("\r\n\r\n");
            if (headEnd < 0)
                return;
            Request request;
            const QList<QByteArray> lines = buffer->left(headEnd).split('\n');
            const QList<QByteArray> first = lines.value(0).trimmed().split(' ');
            request.method = first.value(0);
            request.target = first.value(1);
            qsizetype length = 0;
            for (qsizetype i = 1; i < lines.size(); ++i) {
                const qsizetype colon = lines[i].indexOf(':');
                if (colon <= 0)
                    continue;
                const QByteArray name = lines[i].left(colon).trimmed();
                const QByteArray value = lines[i].mid(colon + 1).trimmed();
                request.headers.append({name, value});
                if (name.compare("Content-Length", Qt::CaseInsensitive) == 0)
                    length = value.toLongLong();
            }
            if (buffer->size() < headEnd + 4 + length)
                return; // the body is still coming
            request.body = buffer->mid(headEnd + 4, length);
            buffer->clear();
            disconnect(socket, &QTcpSocket::readyRead, this, nullptr);
            m_requests.append(request);
            if (m_responder)
                m_responder(socket, request);
            emit requestReceived();
        });
    }
}

} // namespace TestSupport
