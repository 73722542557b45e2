#include "workspace/settings/networksettings.h"

#include <QCoreApplication>
#include <QSettings>

#include <utility>

namespace Gui {

namespace {

using Mode = Llm::ProxySettings::Mode;

const QString ModeKey = QStringLiteral("network/proxy/mode");
const QString HostKey = QStringLiteral("network/proxy/host");
const QString PortKey = QStringLiteral("network/proxy/port");
const QString UserKey = QStringLiteral("network/proxy/user");
constexpr qsizetype MaxHostLength = 253; // the longest DNS name
constexpr qsizetype MaxUserLength = 256;

constexpr std::pair<Mode, const char *> ModeNames[] = {{Mode::System, "system"},
                                                       {Mode::None, "none"},
                                                       {Mode::Http, "http"},
                                                       {Mode::Socks5, "socks5"}};

QString textOf(const QVariant &value)
{
    return value.typeId() == QMetaType::QString ? value.toString().trimmed() : QString();
}

} // namespace

Llm::ProxySettings loadProxySettings(QSettings &settings, QStringList &problems)
{
    Llm::ProxySettings proxy;
    if (settings.contains(ModeKey)) {
        const QString name = textOf(settings.value(ModeKey));
        bool known = false;
        for (const auto &[mode, n] : ModeNames) {
            if (name == QLatin1String(n)) {
                proxy.mode = mode;
                known = true;
            }
        }
        if (!known)
            problems
                << QCoreApplication::translate("Gui::AppSettings",
                                               "The proxy mode in the settings file (%1) is not one of \"system\", "
                                               "\"none\", \"http\" or \"socks5\"; using the system's proxy "
                                               "settings.")
                       .arg(settings.value(ModeKey).toString());
    }
    if (settings.contains(HostKey)) {
        const QString host = textOf(settings.value(HostKey));
        if (!host.isEmpty() && host.size() <= MaxHostLength && !host.contains(QLatin1Char(' ')))
            proxy.host = host;
        else
            problems << QCoreApplication::translate("Gui::AppSettings",
                                                    "The proxy host in the settings file is not a host name or "
                                                    "address; it was ignored.");
    }
    if (settings.contains(PortKey)) {
        bool ok = false;
        const int port = settings.value(PortKey).toString().trimmed().toInt(&ok);
        if (ok && port >= 1 && port <= 65535)
            proxy.port = static_cast<quint16>(port);
        else
            problems << QCoreApplication::translate("Gui::AppSettings",
                                                    "The proxy port in the settings file (%1) is not a number from 1 "
                                                    "to 65535; it was ignored.")
                            .arg(settings.value(PortKey).toString());
    }
    if (settings.contains(UserKey)) {
        const QString user = textOf(settings.value(UserKey));
        if (user.size() <= MaxUserLength)
            proxy.user = user;
        else
            problems << QCoreApplication::translate("Gui::AppSettings",
                                                    "The proxy user name in the settings file is too long; it was "
                                                    "ignored.");
    }
    return proxy;
}

void saveProxySettings(QSettings &settings, const Llm::ProxySettings &proxy)
{
    if (proxy.mode == Mode::System) {
        settings.remove(ModeKey);
    } else {
        for (const auto &[mode, n] : ModeNames) {
            if (mode == proxy.mode)
                settings.setValue(ModeKey, QLatin1String(n));
        }
    }
    // Host, port and user are kept while another mode is chosen: switching back finds them.
    auto put = [&settings](const QString &key, const QVariant &value, bool present) {
        if (present)
            settings.setValue(key, value);
        else
            settings.remove(key);
    };
    put(HostKey, proxy.host, !proxy.host.isEmpty());
    put(PortKey, proxy.port, proxy.port != 0);
    put(UserKey, proxy.user, !proxy.user.isEmpty());
}

QList<QPair<Mode, QString>> proxyModes()
{
    return {{Mode::System, QCoreApplication::translate("Gui::AppSettings", "The system's proxy settings")},
            {Mode::None, QCoreApplication::translate("Gui::AppSettings", "No proxy")},
            {Mode::Http, QCoreApplication::translate("Gui::AppSettings", "HTTP proxy")},
            {Mode::Socks5, QCoreApplication::translate("Gui::AppSettings", "SOCKS5 proxy")}};
}

} // namespace Gui
