#pragma once

#include "serverconfig.h"

#include <QHostAddress>
#include <QObject>
#include <QUrl>

#include <memory>
#include <optional>

class QTcpServer;

namespace LocalProvider {

class HttpConnection;
class ServerState;
struct ApiError;
struct HttpRequest;
enum class Api;

// The local provider: an HTTP/1.1 server speaking the OpenAI chat-completions and Anthropic
// messages formats, with a latency and prefix-cache model and fault injection
// (docs/localprovider.md). It and all its sockets live in one thread; stats(), url(),
// firstTokenWrittenNs() and receivedRequests() may be called from any thread.
class Server : public QObject
{
    Q_OBJECT

public:
    explicit Server(ServerConfig config, QObject *parent = nullptr);
    ~Server() override;

    bool listen(const QHostAddress &address = QHostAddress::LocalHost, quint16 port = 0);
    QString errorString() const;
    // Root URL, e.g. http://127.0.0.1:43117/ (clients append v1/...).
    QUrl url() const;
    Stats stats() const;
    // steady_clock nanoseconds taken right after the first content token's SSE event of the
    // request that carried `X-Request-Id: <id>` was written and flushed; -1 if unknown.
    qint64 firstTokenWrittenNs(const QByteArray &requestId) const;
    // The generation requests kept (ServerConfig::keepRequests); empty when that is off.
    ReceivedRequests receivedRequests() const;

private:
    void onNewConnection();
    void onRequest(HttpConnection *connection, const HttpRequest &request);
    void handleGeneration(HttpConnection *connection, const HttpRequest &request, Api api, qint64 startNs);
    void handleModels(HttpConnection *connection, const HttpRequest &request, qint64 startNs);
    // The accepted key the request carries ("" when none is required), or nothing: a 401.
    std::optional<QString> authorizedKey(const HttpRequest &request) const;
    void respond(HttpConnection *connection, const HttpRequest &request, int status, QByteArrayView contentType,
                 const QByteArray &body, qint64 startNs, bool quiet = false);
    void respondError(HttpConnection *connection, const HttpRequest &request, const ApiError &error, qint64 startNs);
    void reject(HttpConnection *connection, const HttpRequest &request, const ApiError &error, int delayMs,
                qint64 startNs);

    std::unique_ptr<ServerState> m_state;
    QTcpServer *m_tcpServer;
    QUrl m_url;
    int m_connections = 0;
};

} // namespace LocalProvider
