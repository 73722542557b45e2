#pragma once

#include <QByteArray>
#include <QList>
#include <QObject>
#include <QString>
#include <QTimer>

#include <utility>

class QTcpSocket;

namespace LocalProvider {

using HttpHeaders = QList<std::pair<QByteArray, QByteArray>>;

struct HttpRequest {
    QByteArray method;
    QByteArray path; // without the query
    QByteArray query;
    int minorVersion = 1;
    HttpHeaders headers; // names in lower case
    QByteArray body;
    bool keepAlive = true;
    // Non-zero when the bytes could not be framed as a request; respond with this status and
    // the connection closes.
    int protocolError = 0;
    QString protocolErrorMessage;

    QByteArray header(QByteArrayView lowerCaseName) const;
};

// One HTTP/1.1 connection: frames requests (Content-Length bodies, keep-alive, pipelining)
// and writes responses, whole or as a chunked stream. Exactly one response per request;
// the next request is delivered after the previous response is complete.
// Lives in the server's thread and owns its socket.
class HttpConnection : public QObject
{
    Q_OBJECT

public:
    static constexpr qsizetype MaxBodyBytes = 64 * 1024 * 1024;
    static constexpr qsizetype MaxHeaderBytes = 64 * 1024;

    HttpConnection(QTcpSocket *socket, QObject *parent);
    ~HttpConnection() override;

    void sendResponse(int status, QByteArrayView contentType, const QByteArray &body, const HttpHeaders &extra = {});
    void beginStream(int status, QByteArrayView contentType, const HttpHeaders &extra = {});
    // Writes and flushes at once: event streams must not wait in a buffer. False once the
    // connection is gone.
    bool writeStream(const QByteArray &data);
    void endStream();
    // Closes at once without finishing the response (the client sees a broken stream).
    void abort();

    bool isOpen() const { return m_state != State::Closing && m_state != State::Closed; }
    // Bytes written but not yet taken by the kernel: what a writer that paces itself to the
    // client (the flood fault) waits on, with bytesWritten().
    qint64 queuedBytes() const;

Q_SIGNALS:
    void requestReceived(LocalProvider::HttpConnection *connection, const LocalProvider::HttpRequest &request);
    // The peer went away or the connection was closed; emitted once.
    void closed(LocalProvider::HttpConnection *connection);
    // The socket handed bytes to the kernel; queuedBytes() is lower.
    void bytesWritten();

private:
    enum class State { Headers, Body, Responding, Streaming, Closing, Closed };

    void onReadyRead();
    void processBuffer();
    void parseHeaders(qsizetype headerEnd, qsizetype separatorLength);
    void dispatch();
    void rejectFraming(int status, const QString &message);
    void finishResponse();
    void onDisconnected();
    void markClosed();
    QByteArray responseHead(int status, QByteArrayView contentType, const HttpHeaders &extra) const;

    QTcpSocket *m_socket;
    QTimer m_idleTimer;
    QByteArray m_buffer;
    HttpRequest m_request;
    qsizetype m_bodyLength = 0;
    qsizetype m_headerScanned = 0;
    State m_state = State::Headers;
    int m_minorVersion = 1;
    bool m_keepAlive = true;
    bool m_chunked = false;
};

} // namespace LocalProvider
