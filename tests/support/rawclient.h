#pragma once

#include <QByteArray>
#include <QTcpSocket>
#include <QUrl>

namespace TestSupport::Wire {

// A raw HTTP/1.1 client for what QNetworkAccessManager will not do: byte-level writes,
// pipelining, garbage. Connects to 127.0.0.1 at `url`'s port.
class RawClient
{
public:
    explicit RawClient(const QUrl &url);

    bool waitConnected();
    QTcpSocket &socket() { return m_socket; }

    // The next complete response (Content-Length framed), or an empty status line on timeout.
    bool readResponse(QByteArray *head, QByteArray *body, int timeoutMs = 5000);

    // Everything the server sends until it closes the connection.
    QByteArray readUntilClosed(int timeoutMs = 5000);

    bool waitDisconnected(int timeoutMs = 5000);

private:
    QTcpSocket m_socket;
    QByteArray m_buffer;
};

// A complete POST of a JSON `body` to `path`; `extra` holds further header lines, each ending
// in CRLF.
QByteArray httpPost(const QByteArray &path, const QByteArray &body, const QByteArray &extra = {});

} // namespace TestSupport::Wire
