#pragma once

#include "serverconfig.h"

#include <QHostAddress>
#include <QString>
#include <QUrl>

#include <memory>

class QThread;

namespace LocalProvider {

class Server;

// Runs a Server in a thread of its own (the app's embedded provider, tests). start() binds on
// the caller's thread, so it returns only once the server listens; the destructor stops the
// thread and deletes the server there.
class ServerThread
{
public:
    explicit ServerThread(ServerConfig config = {});
    ~ServerThread();
    ServerThread(const ServerThread &) = delete;
    ServerThread &operator=(const ServerThread &) = delete;

    // False, with errorString(), if the address cannot be bound or start() was called before.
    bool start(const QHostAddress &address = QHostAddress::LocalHost, quint16 port = 0);

    QUrl url() const; // the root, e.g. http://127.0.0.1:43117/
    // The API base a provider profile points at: <root>/v1/ (OpenAI and Anthropic paths below it).
    QUrl apiUrl() const;
    Stats stats() const;
    qint64 firstTokenWrittenNs(const QByteArray &requestId) const;
    // The generation requests received, oldest first, when ServerConfig::keepRequests is on
    // (tests); thread-safe, like stats().
    ReceivedRequests receivedRequests() const;
    QString errorString() const;

private:
    ServerConfig m_config;
    std::unique_ptr<QThread> m_thread;
    Server *m_server = nullptr; // deleted in m_thread when it finishes
    QUrl m_url;
    QString m_error;
};

} // namespace LocalProvider
