#pragma once

#include <QByteArray>
#include <QLocalServer>
#include <QObject>
#include <QString>
#include <QStringList>

#include <optional>

namespace App {

// What a second `headstart` process asks the running one to do.
struct OpenRequest {
    QStringList files; // absolute paths
    bool newWindow = false;
    QString providerId;      // recorded only: a running instance keeps its provider
    QString activationToken; // the second process's XDG_ACTIVATION_TOKEN (Wayland)
    QString startupId;       // its DESKTOP_STARTUP_ID (X11 startup notification)
};

// The protocol: one JSON object per line, UTF-8, each side sending one line.
//   request: {"version":1,"files":[...],"newWindow":false,"provider":"","activationToken":"","startupId":""}
//   answer:  {"version":1,"ok":true} or {"version":1,"ok":false,"error":"..."}
// An unknown version is refused with an answer, so a newer and an older Headstart say so
// instead of misreading each other.
constexpr int ProtocolVersion = 1;
QByteArray encodeRequest(const OpenRequest &request);
// Empty, with `error` set, when `line` is not a request this version understands.
std::optional<OpenRequest> decodeRequest(const QByteArray &line, QString *error);

// One running Headstart per user and per settings/data folder: the first process listens on a
// local socket (docs/ui.md, "Single instance"); a later one hands it its files and exits before
// it builds a window, starts the local demo engine or opens the conversation database, which
// two processes must never share.
class SingleInstance : public QObject
{
    Q_OBJECT

public:
    enum class Role {
        Primary,   // this process runs the app (listening, unless errorString() says why not)
        Forwarded, // a running instance took the request: exit 0
        Refused,   // an instance runs but did not take it (errorString()): exit with an error
    };

    explicit SingleInstance(QObject *parent = nullptr);
    ~SingleInstance() override;

    // The socket's name: a path in XDG_RUNTIME_DIR when there is one, else a name Qt puts in
    // the temporary folder; see the definition for why it is unique per user and folders.
    static QString serverName();

    // Hands `request` to a running instance, or becomes the running instance. Blocks for at
    // most a few seconds, so call it before any window exists (nothing else runs yet).
    Role claim(const OpenRequest &request);
    bool isListening() const { return m_server.isListening(); }
    QString errorString() const { return m_error; }

signals:
    // From another process; files not yet opened.
    void openRequested(const App::OpenRequest &request);

private:
    std::optional<Role> forward(const QString &name, const OpenRequest &request);
    void listen(const QString &name);
    void onNewConnection();

    QLocalServer m_server;
    QString m_error;
};

} // namespace App
