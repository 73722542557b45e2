#include "throwawayhome.h"

#include <QDir>
#include <QFile>

namespace TestSupport {

QProcessEnvironment throwawayHome(const QString &root)
{
    const QDir dir(root);
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    const std::pair<const char *, const char *> folders[] = {{"XDG_CONFIG_HOME", "config"},
                                                             {"XDG_DATA_HOME", "data"},
                                                             {"XDG_STATE_HOME", "state"},
                                                             {"XDG_CACHE_HOME", "cache"},
                                                             {"XDG_RUNTIME_DIR", "runtime"}};
    for (const auto &[variable, name] : folders) {
        const QString path = dir.filePath(QLatin1String(name));
        if (!QDir().mkpath(path))
            return {};
        env.insert(QLatin1String(variable), path);
    }
    // Qt refuses a runtime folder others can enter.
    QFile::setPermissions(dir.filePath(QStringLiteral("runtime")),
                          QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
    env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
    // No system bus: the machine running the tests being on battery or a metered connection
    // must not pause the app's prefetch (System::DesktopConditions finds no bus and holds
    // nothing back). The path is never created.
    env.insert(QStringLiteral("DBUS_SYSTEM_BUS_ADDRESS"),
               QStringLiteral("unix:path=") + dir.filePath(QStringLiteral("runtime/no-system-bus")));
    // Nor the session's: the desktop's dark preference (System::ColorSchemePortal) stays out of
    // it too, and nothing is started on a bus that may not exist.
    env.insert(QStringLiteral("DBUS_SESSION_BUS_ADDRESS"),
               QStringLiteral("unix:path=") + dir.filePath(QStringLiteral("runtime/no-session-bus")));
    return env;
}

} // namespace TestSupport
