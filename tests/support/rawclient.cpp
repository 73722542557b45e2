#include "support/rawclient.h"

#include <QElapsedTimer>
#include <QSignalSpy>

#include <utility>

using namespace Qt::StringLiterals;

namespace TestSupport::Wire {

RawClient::RawClient(const QUrl &url)
{
    m_socket.connectToHost(u"127.0.0.1"_s, static_cast<quint16>(url.port()));
}

bool RawClient::waitConnected()
{
    QSignalSpy connected(&m_socket, &QTcpSocket::connected);
    return m_socket.state() == QAbstractSocket::ConnectedState || connected.wait(5000);
}

bool RawClient::readResponse(QByteArray *head, QByteArray *body, int timeoutMs)
{
    QElapsedTimer timer;
    timer.start();
    for (;;) {
        m_buffer += m_socket.readAll();
        const qsizetype end = m_buffer.indexOf("\r\n\r\n");
        if (end >= 0) {
            const QByteArray h = m_buffer.left(end);
            qsizetype length = 0;
            for (const QByteArray &line : h.split('\n')) {
                if (line.toLower().startsWith("content-length:"))
                    length = line.mid(15).trimmed().toLongLong();
            }
            if (m_buffer.size() >= end + 4 + length) {
                *head = h;
                *body = m_buffer.mid(end + 4, length);
                m_buffer.remove(0, end + 4 + length);
                return true;
            }
        }
        if (timer.hasExpired(timeoutMs) || m_socket.state() != QAbstractSocket::ConnectedState)
            return false;
        QSignalSpy spy(&m_socket, &QTcpSocket::readyRead);
        spy.wait(100);
    }
}

QByteArray RawClient::readUntilClosed(int timeoutMs)
{
    QSignalSpy disconnected(&m_socket, &QTcpSocket::disconnected);
    if (m_socket.state() != QAbstractSocket::UnconnectedState)
        disconnected.wait(timeoutMs);
    return std::exchange(m_buffer, {}) + m_socket.readAll();
}

bool RawClient::waitDisconnected(int timeoutMs)
{
    QSignalSpy disconnected(&m_socket, &QTcpSocket::disconnected);
    return m_socket.state() == QAbstractSocket::UnconnectedState || disconnected.wait(timeoutMs);
}

QByteArray httpPost(const QByteArray &path, const QByteArray &body, const QByteArray &extra)
{
    return "POST " + path + " HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: "
           + QByteArray::number(body.size()) + "\r\n" + extra + "\r\n" + body;
}

} // namespace TestSupport::Wire
