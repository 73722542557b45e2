#include "singleinstance.h"

#include <QCryptographicHash>
#include <QDeadlineTimer>
#include <QDir>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLocalSocket>
#include <QLockFile>
#include <QSettings>
#include <QStandardPaths>
#include <QTimer>

#include <unistd.h>

namespace App {

namespace {

// A request is a handful of paths; anything longer is not one of ours.
constexpr qsizetype MaxLineBytes = 1024 * 1024;
// Connecting to a live socket is immediate; a stale one fails at once.
constexpr int ConnectTimeoutMs = 2000;
// A running instance answers at once; one still starting (two files opened together from the
// file manager: the first process builds its window, on a loaded machine) answers once its event
// loop runs, which can take seconds. Only a hung instance makes this wait run out.
constexpr int AnswerTimeoutMs = 20'000;
// A client that connects and says nothing is dropped after this.
constexpr int IdleClientTimeoutMs = 10'000;
// Two processes started together: the second waits this long for the first to finish claiming.
constexpr int LockTimeoutMs = 5000;

QByteArray answerLine(const QString &error)
{
    QJsonObject o{{QStringLiteral("version"), ProtocolVersion}, {QStringLiteral("ok"), error.isEmpty()}};
    if (!error.isEmpty())
        o.insert(QStringLiteral("error"), error);
    return QJsonDocument(o).toJson(QJsonDocument::Compact) + '\n';
}

// The socket's file on disk, for the lock next to it.
QString socketFilePath(const QString &name)
{
    return QDir::isAbsolutePath(name) ? name : QDir(QDir::tempPath()).filePath(name);
}

} // namespace

QByteArray encodeRequest(const OpenRequest &request)
{
    const QJsonObject o{{QStringLiteral("version"), ProtocolVersion},
                        {QStringLiteral("files"), QJsonArray::fromStringList(request.files)},
                        {QStringLiteral("newWindow"), request.newWindow},
                        {QStringLiteral("provider"), request.providerId},
                        {QStringLiteral("activationToken"), request.activationToken},
                        {QStringLiteral("startupId"), request.startupId}};
    return QJsonDocument(o).toJson(QJsonDocument::Compact) + '\n';
}

std::optional<OpenRequest> decodeRequest(const QByteArray &line, QString *error)
{
    QJsonParseError parse{};
    const QJsonDocument doc = QJsonDocument::fromJson(line, &parse);
    if (parse.error != QJsonParseError::NoError || !doc.isObject()) {
        *error = QStringLiteral("not a JSON object");
        return std::nullopt;
    }
    const QJsonObject o = doc.object();
    if (o.value(QStringLiteral("version")).toInt() != ProtocolVersion) {
        *error = QStringLiteral("unsupported protocol version %1 (this one speaks %2)")
                     .arg(o.value(QStringLiteral("version")).toInt())
                     .arg(ProtocolVersion);
        return std::nullopt;
    }
    OpenRequest request;
    for (const QJsonValue &v : o.value(QStringLiteral("files")).toArray()) {
        const QString path = v.toString();
        if (!QDir::isAbsolutePath(path)) {
            *error = QStringLiteral("not an absolute path: %1").arg(path);
            return std::nullopt;
        }
        request.files << path;
    }
    request.newWindow = o.value(QStringLiteral("newWindow")).toBool();
    request.providerId = o.value(QStringLiteral("provider")).toString();
    request.activationToken = o.value(QStringLiteral("activationToken")).toString();
    request.startupId = o.value(QStringLiteral("startupId")).toString();
    return request;
}

SingleInstance::SingleInstance(QObject *parent)
    : QObject(parent)
{
    // Only this user may connect, also where the socket lands in the shared temporary folder.
    m_server.setSocketOptions(QLocalServer::UserAccessOption);
    connect(&m_server, &QLocalServer::newConnection, this, &SingleInstance::onNewConnection);
}

SingleInstance::~SingleInstance() = default;

QString SingleInstance::serverName()
{
    // Two processes must meet exactly when they would share files: the settings (config folder),
    // the conversation database and the recovery copies (data folder). Those folders follow
    // XDG_CONFIG_HOME and XDG_DATA_HOME, which the test suites' throw-away homes change (and run
    // in parallel), so a hash of both paths is in the name; the user id keeps two users apart
    // also where the socket lands in the shared /tmp.
    const QString config = QFileInfo(QSettings().fileName()).absolutePath();
    const QString data = QStandardPaths::writableLocation(QStandardPaths::AppLocalDataLocation);
    const QByteArray hash =
        QCryptographicHash::hash((config + QLatin1Char('\n') + data).toUtf8(), QCryptographicHash::Sha256).toHex();
    const QString name = QStringLiteral("headstart-%1-%2").arg(::getuid()).arg(QString::fromLatin1(hash.left(16)));
    // The runtime folder is the user's own (0700, per login session), so nobody else can even
    // see the socket; a Unix socket's path must fit in sun_path's 108 bytes.
    const QString runtime = qEnvironmentVariable("XDG_RUNTIME_DIR");
    if (!runtime.isEmpty() && QFileInfo(runtime).isDir()) {
        const QString path = QDir(runtime).filePath(name);
        if (QFile::encodeName(path).size() < 100)
            return path;
    }
    return name;
}

SingleInstance::Role SingleInstance::claim(const OpenRequest &request)
{
    const QString name = serverName();
    // Held while deciding, so two processes started together do not both find no server, and
    // the later one's removeServer() does not delete the earlier one's fresh socket. A lock a
    // crashed process left is stale at once (its pid is gone).
    QLockFile lock(socketFilePath(name) + QStringLiteral(".lock"));
    const bool locked = lock.tryLock(LockTimeoutMs);
    if (auto role = forward(name, request))
        return *role;
    // Nobody answers: a socket file left by a crash (kill -9) is in the way, or there is none.
    QLocalServer::removeServer(name);
    listen(name);
    if (locked)
        lock.unlock();
    return Role::Primary;
}

std::optional<SingleInstance::Role> SingleInstance::forward(const QString &name, const OpenRequest &request)
{
    QLocalSocket socket;
    socket.connectToServer(name);
    if (!socket.waitForConnected(ConnectTimeoutMs)) {
        // No socket, or one nobody listens on (left by a crash): this process is the first.
        // Anything else (a socket that does not accept in time) may be a live instance, whose
        // socket must not be removed from under it.
        if (socket.error() == QLocalSocket::ServerNotFoundError
            || socket.error() == QLocalSocket::ConnectionRefusedError)
            return std::nullopt;
        m_error = tr("Headstart is already running but did not answer: %1").arg(socket.errorString());
        return Role::Refused;
    }
    // Blocking waits are fine here: this runs before any window or event loop exists.
    socket.write(encodeRequest(request));
    const QDeadlineTimer deadline(AnswerTimeoutMs);
    socket.waitForBytesWritten(AnswerTimeoutMs);
    while (!socket.canReadLine() && !deadline.hasExpired()) {
        if (!socket.waitForReadyRead(int(deadline.remainingTime())))
            break;
    }
    if (!socket.canReadLine()) {
        m_error = tr("Headstart is already running but did not answer: %1")
                      .arg(socket.state() == QLocalSocket::ConnectedState ? tr("timed out") : socket.errorString());
        return Role::Refused;
    }
    const QJsonObject answer = QJsonDocument::fromJson(socket.readLine()).object();
    if (!answer.value(QStringLiteral("ok")).toBool()) {
        m_error = tr("Headstart is already running but did not open the files: %1")
                      .arg(answer.value(QStringLiteral("error")).toString());
        return Role::Refused;
    }
    socket.disconnectFromServer();
    return Role::Forwarded;
}

void SingleInstance::listen(const QString &name)
{
    if (!m_server.listen(name))
        m_error = m_server.errorString();
}

void SingleInstance::onNewConnection()
{
    while (QLocalSocket *socket = m_server.nextPendingConnection()) {
        connect(socket, &QLocalSocket::disconnected, socket, &QObject::deleteLater);
        QTimer::singleShot(IdleClientTimeoutMs, socket, &QLocalSocket::abort);
        connect(socket, &QLocalSocket::readyRead, this, [this, socket] {
            if (!socket->canReadLine()) {
                if (socket->bytesAvailable() > MaxLineBytes)
                    socket->abort();
                return;
            }
            QString error;
            const std::optional<OpenRequest> request = decodeRequest(socket->readLine(MaxLineBytes), &error);
            // Opened before the answer, so the other process's exit 0 means "they are open"
            // (a file that cannot be read shows its message without waiting for the user).
            if (request)
                emit openRequested(*request);
            socket->write(answerLine(error));
            socket->disconnectFromServer(); // after what is written has gone
        });
    }
}

} // namespace App
