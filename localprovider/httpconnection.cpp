#include "httpconnection.h"

#include "apierror.h"

#include <QDateTime>
#include <QLocale>
#include <QTcpSocket>

#include <sys/socket.h>

namespace LocalProvider {

namespace {

// A keep-alive connection or a stalled request holds memory; nobody waits a minute on loopback.
constexpr int IdleTimeoutMs = 60000;
constexpr qsizetype MaxRequestLine = 8192;

bool isTokenChar(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')
           || QByteArrayView("!#$%&'*+-.^_`|~").contains(c);
}

bool isToken(QByteArrayView s)
{
    if (s.isEmpty())
        return false;
    for (char c : s) {
        if (!isTokenChar(c))
            return false;
    }
    return true;
}

QByteArray httpDate()
{
    return QLocale::c()
        .toString(QDateTime::currentDateTimeUtc(), QStringLiteral("ddd, dd MMM yyyy hh:mm:ss 'GMT'"))
        .toLatin1();
}

} // namespace

QByteArray HttpRequest::header(QByteArrayView lowerCaseName) const
{
    for (const auto &[name, value] : headers) {
        if (name == lowerCaseName)
            return value;
    }
    return {};
}

HttpConnection::HttpConnection(QTcpSocket *socket, QObject *parent)
    : QObject(parent)
    , m_socket(socket)
{
    m_socket->setParent(this);
    // Event streams are many small writes; Nagle would hold each one back for an ACK.
    m_socket->setSocketOption(QAbstractSocket::LowDelayOption, 1);
    connect(m_socket, &QTcpSocket::readyRead, this, &HttpConnection::onReadyRead);
    connect(m_socket, &QTcpSocket::disconnected, this, &HttpConnection::onDisconnected);
    connect(m_socket, &QTcpSocket::bytesWritten, this, &HttpConnection::bytesWritten);
    connect(m_socket, &QTcpSocket::errorOccurred, this, [this](QAbstractSocket::SocketError) { onDisconnected(); });

    m_idleTimer.setSingleShot(true);
    m_idleTimer.setInterval(IdleTimeoutMs);
    connect(&m_idleTimer, &QTimer::timeout, this, [this] {
        if (m_state == State::Responding || m_state == State::Streaming)
            m_idleTimer.start(); // the response is in progress; its own timers drive it
        else
            abort();
    });
    m_idleTimer.start();
}

HttpConnection::~HttpConnection()
{
    disconnect(m_socket, nullptr, this, nullptr);
    m_socket->abort();
}

void HttpConnection::onReadyRead()
{
    const QByteArray data = m_socket->readAll();
    if (!isOpen())
        return;
    m_idleTimer.start();
    // Pipelined bytes wait until the current response is done; bound what they may hold.
    if (m_buffer.size() + data.size() > MaxHeaderBytes + MaxBodyBytes) {
        abort();
        return;
    }
    m_buffer += data;
    if (m_state == State::Headers || m_state == State::Body)
        processBuffer();
}

void HttpConnection::processBuffer()
{
    while (m_state == State::Headers || m_state == State::Body) {
        if (m_state == State::Headers) {
            // Empty lines before a request line are allowed (RFC 9112, 2.2).
            qsizetype skip = 0;
            while (skip < m_buffer.size() && (m_buffer[skip] == '\r' || m_buffer[skip] == '\n'))
                ++skip;
            if (skip > 0) {
                m_buffer.remove(0, skip);
                m_headerScanned = 0;
            }
            if (m_buffer.isEmpty())
                return;
            // Resume the search where the last read stopped, so a byte-at-a-time sender costs
            // linear time, not quadratic.
            const qsizetype from = qMax<qsizetype>(0, m_headerScanned - 3);
            const qsizetype crlf = m_buffer.indexOf("\r\n\r\n", from);
            const qsizetype lf = m_buffer.indexOf("\n\n", from);
            qsizetype end = -1;
            qsizetype separator = 0;
            if (crlf >= 0 && (lf < 0 || crlf < lf)) {
                end = crlf;
                separator = 4;
            } else if (lf >= 0) {
                end = lf;
                separator = 2;
            }
            m_headerScanned = m_buffer.size();
            if (end < 0) {
                const qsizetype firstLine = m_buffer.indexOf('\n');
                if ((firstLine < 0 && m_buffer.size() > MaxRequestLine) || firstLine > MaxRequestLine)
                    rejectFraming(414, QStringLiteral("The request line is too long."));
                else if (m_buffer.size() > MaxHeaderBytes)
                    rejectFraming(431, QStringLiteral("The request headers are too large."));
                return;
            }
            if (end > MaxHeaderBytes) {
                rejectFraming(431, QStringLiteral("The request headers are too large."));
                return;
            }
            parseHeaders(end, separator);
            continue;
        }
        if (m_buffer.size() < m_bodyLength)
            return;
        m_request.body = m_buffer.left(m_bodyLength);
        m_buffer.remove(0, m_bodyLength);
        dispatch();
    }
}

void HttpConnection::parseHeaders(qsizetype headerEnd, qsizetype separatorLength)
{
    const QByteArray head = m_buffer.left(headerEnd);
    m_buffer.remove(0, headerEnd + separatorLength);
    m_headerScanned = 0;
    m_request = HttpRequest();

    QList<QByteArray> lines = head.split('\n');
    for (QByteArray &line : lines) {
        if (line.endsWith('\r'))
            line.chop(1);
    }
    const QByteArray &requestLine = lines.first();
    if (requestLine.size() > MaxRequestLine)
        return rejectFraming(414, QStringLiteral("The request line is too long."));
    const QList<QByteArray> parts = requestLine.split(' ');
    if (parts.size() != 3 || !isToken(parts[0]))
        return rejectFraming(400, QStringLiteral("Malformed HTTP request line."));
    m_request.method = parts[0];

    QByteArray target = parts[1];
    if (target.startsWith("http://") || target.startsWith("https://")) {
        const qsizetype slash = target.indexOf('/', target.indexOf("//") + 2);
        target = slash < 0 ? QByteArray("/") : target.mid(slash);
    }
    if (!target.startsWith('/'))
        return rejectFraming(400, QStringLiteral("Malformed request target."));
    const qsizetype question = target.indexOf('?');
    m_request.path = question < 0 ? target : target.left(question);
    m_request.query = question < 0 ? QByteArray() : target.mid(question + 1);

    const QByteArray &version = parts[2];
    if (version == "HTTP/1.1")
        m_request.minorVersion = 1;
    else if (version == "HTTP/1.0")
        m_request.minorVersion = 0;
    else if (version.startsWith("HTTP/"))
        return rejectFraming(505, QStringLiteral("Only HTTP/1.0 and HTTP/1.1 are supported."));
    else
        return rejectFraming(400, QStringLiteral("Malformed HTTP version."));

    qsizetype contentLength = -1;
    bool hasTransferEncoding = false;
    for (qsizetype i = 1; i < lines.size(); ++i) {
        const QByteArray &line = lines[i];
        if (line.startsWith(' ') || line.startsWith('\t'))
            return rejectFraming(400, QStringLiteral("Folded header lines are not allowed."));
        const qsizetype colon = line.indexOf(':');
        if (colon <= 0 || !isToken(QByteArrayView(line).first(colon)))
            return rejectFraming(400, QStringLiteral("Malformed header line."));
        const QByteArray name = line.left(colon).toLower();
        const QByteArray value = line.mid(colon + 1).trimmed();
        if (name == "content-length") {
            bool ok = value.size() <= 18 && !value.isEmpty();
            for (char c : value)
                ok = ok && c >= '0' && c <= '9';
            const qsizetype length = ok ? value.toLongLong() : -1;
            if (!ok || (contentLength >= 0 && contentLength != length))
                return rejectFraming(400, QStringLiteral("Invalid Content-Length."));
            contentLength = length;
        } else if (name == "transfer-encoding") {
            hasTransferEncoding = true;
        }
        m_request.headers.append({name, value});
    }

    const QByteArray connection = m_request.header("connection").toLower();
    m_request.keepAlive = m_request.minorVersion >= 1 ? !connection.contains("close")
                                                      : connection.contains("keep-alive");

    if (hasTransferEncoding) {
        return rejectFraming(
            411,
            QStringLiteral("Chunked (Transfer-Encoding) request bodies are not supported; send a Content-Length."));
    }
    if (contentLength > MaxBodyBytes)
        return rejectFraming(413, QStringLiteral("The request body is larger than 64 MiB."));
    m_bodyLength = qMax<qsizetype>(0, contentLength);
    if (m_bodyLength > m_buffer.size() && m_request.header("expect").toLower() == "100-continue") {
        m_socket->write("HTTP/1.1 100 Continue\r\n\r\n");
        m_socket->flush();
    }
    m_state = State::Body;
}

void HttpConnection::rejectFraming(int status, const QString &message)
{
    // The rest of the bytes cannot be framed reliably: answer, then close.
    m_request.protocolError = status;
    m_request.protocolErrorMessage = message;
    m_request.keepAlive = false;
    m_buffer.clear();
    dispatch();
}

void HttpConnection::dispatch()
{
    m_state = State::Responding;
    m_keepAlive = m_request.keepAlive;
    m_minorVersion = m_request.minorVersion;
    m_idleTimer.start();
    const HttpRequest request = std::exchange(m_request, HttpRequest());
    emit requestReceived(this, request);
}

QByteArray HttpConnection::responseHead(int status, QByteArrayView contentType, const HttpHeaders &extra) const
{
    QByteArray head = "HTTP/1.1 " + QByteArray::number(status) + ' ' + reasonPhrase(status) + "\r\n";
    head += "Server: headstart-localprovider\r\nDate: " + httpDate() + "\r\n";
    if (!contentType.isEmpty())
        head += "Content-Type: " + contentType.toByteArray() + "\r\n";
    for (const auto &[name, value] : extra)
        head += name + ": " + value + "\r\n";
    head += m_keepAlive ? "Connection: keep-alive\r\n" : "Connection: close\r\n";
    return head;
}

void HttpConnection::sendResponse(int status, QByteArrayView contentType, const QByteArray &body,
                                  const HttpHeaders &extra)
{
    if (m_state != State::Responding)
        return;
    QByteArray out = responseHead(status, contentType, extra);
    out += "Content-Length: " + QByteArray::number(body.size()) + "\r\n\r\n";
    out += body;
    m_socket->write(out);
    m_socket->flush();
    finishResponse();
}

void HttpConnection::beginStream(int status, QByteArrayView contentType, const HttpHeaders &extra)
{
    if (m_state != State::Responding)
        return;
    // HTTP/1.0 has no chunked encoding: the end of the stream is the end of the connection.
    m_chunked = m_minorVersion >= 1;
    if (!m_chunked)
        m_keepAlive = false;
    QByteArray out = responseHead(status, contentType, extra);
    out += "Cache-Control: no-cache\r\nX-Accel-Buffering: no\r\n";
    if (m_chunked)
        out += "Transfer-Encoding: chunked\r\n";
    out += "\r\n";
    m_state = State::Streaming;
    m_socket->write(out);
    m_socket->flush();
}

bool HttpConnection::writeStream(const QByteArray &data)
{
    if (m_state != State::Streaming)
        return false;
    if (m_chunked)
        m_socket->write(QByteArray::number(data.size(), 16) + "\r\n" + data + "\r\n");
    else
        m_socket->write(data);
    m_socket->flush();
    return m_state == State::Streaming;
}

qint64 HttpConnection::queuedBytes() const
{
    return m_socket->bytesToWrite();
}

void HttpConnection::endStream()
{
    if (m_state != State::Streaming)
        return;
    if (m_chunked) {
        m_socket->write("0\r\n\r\n");
        m_socket->flush();
    }
    finishResponse();
}

void HttpConnection::finishResponse()
{
    if (!isOpen())
        return;
    if (!m_keepAlive) {
        m_state = State::Closing;
        m_socket->disconnectFromHost(); // after the pending bytes are written
        return;
    }
    m_state = State::Headers;
    // Queued: a handler that answered synchronously must return before the next request starts.
    if (!m_buffer.isEmpty())
        QMetaObject::invokeMethod(this, &HttpConnection::processBuffer, Qt::QueuedConnection);
}

void HttpConnection::abort()
{
    markClosed();
    // Linger 0 turns the close into a reset: a dropped provider connection, not a polite end
    // that a client might mistake for the end of the response.
    const qintptr fd = m_socket->socketDescriptor();
    if (fd >= 0) {
        const linger reset{1, 0};
        ::setsockopt(static_cast<int>(fd), SOL_SOCKET, SO_LINGER, &reset, sizeof reset);
    }
    m_socket->abort();
}

void HttpConnection::onDisconnected()
{
    markClosed();
}

void HttpConnection::markClosed()
{
    if (m_state == State::Closed)
        return;
    m_state = State::Closed;
    m_buffer.clear();
    m_idleTimer.stop();
    // Queued: a failed write can report the disconnect from inside writeStream(), in the middle
    // of a handler's work; the handler sees writeStream() return false and the signal comes after.
    QMetaObject::invokeMethod(
        this, [this] { emit closed(this); }, Qt::QueuedConnection);
}

} // namespace LocalProvider
