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
    return env;
}

} // namespace TestSupport
