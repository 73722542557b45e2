#include "serverthread.h"

#include "server.h"

#include <QThread>

namespace LocalProvider {

ServerThread::ServerThread(ServerConfig config)
    : m_config(std::move(config))
{
}

ServerThread::~ServerThread()
{
    if (m_thread) {
        m_thread->quit();
        m_thread->wait();
    }
}

bool ServerThread::start(const QHostAddress &address, quint16 port)
{
    if (m_server) {
        m_error = QStringLiteral("already started");
        return false;
    }
    auto server = std::make_unique<Server>(m_config);
    if (!server->listen(address, port)) {
        m_error = server->errorString();
        return false;
    }
    m_url = server->url();
    m_thread = std::make_unique<QThread>();
    m_thread->setObjectName(QStringLiteral("localprovider"));
    // The listening socket moves along with its server and re-arms its notifier in the new thread.
    server->moveToThread(m_thread.get());
    m_server = server.release();
    // Deferred deletes posted from finished() still run in the finishing thread.
    QObject::connect(m_thread.get(), &QThread::finished, m_server, &QObject::deleteLater);
    m_thread->start();
    return true;
}

QUrl ServerThread::url() const
{
    return m_url;
}

QUrl ServerThread::apiUrl() const
{
    return m_url.resolved(QUrl(QStringLiteral("v1")));
}

Stats ServerThread::stats() const
{
    return m_server ? m_server->stats() : Stats();
}

qint64 ServerThread::firstTokenWrittenNs(const QByteArray &requestId) const
{
    return m_server ? m_server->firstTokenWrittenNs(requestId) : -1;
}

ReceivedRequests ServerThread::receivedRequests() const
{
    return m_server ? m_server->receivedRequests() : ReceivedRequests();
}

QString ServerThread::errorString() const
{
    return m_error;
}

} // namespace LocalProvider
