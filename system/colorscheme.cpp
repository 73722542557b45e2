#include "colorscheme.h"

#include "log.h"

#include <QDBusMessage>
#include <QDBusVariant>

#include <spdlog/spdlog.h>

namespace System {

namespace {

const QString PortalService = QStringLiteral("org.freedesktop.portal.Desktop");
const QString PortalPath = QStringLiteral("/org/freedesktop/portal/desktop");
const QString SettingsInterface = QStringLiteral("org.freedesktop.portal.Settings");
const QString AppearanceNamespace = QStringLiteral("org.freedesktop.appearance");
const QString ColorSchemeKey = QStringLiteral("color-scheme");
// A portal that does not answer in this time is taken as absent; its SettingChanged still counts.
constexpr int ReadTimeoutMs = 300;

// Read() (every portal version) wraps the value in one more variant than ReadOne() (version 2).
QVariant unwrapped(QVariant value)
{
    while (value.canConvert<QDBusVariant>() && value.userType() == qMetaTypeId<QDBusVariant>())
        value = qvariant_cast<QDBusVariant>(value).variant();
    return value;
}

const char *logName(ColorSchemePortal::Preference p)
{
    switch (p) {
    case ColorSchemePortal::Preference::Dark: return "dark";
    case ColorSchemePortal::Preference::Light: return "light";
    case ColorSchemePortal::Preference::None: break;
    }
    return "no preference";
}

} // namespace

ColorSchemePortal::ColorSchemePortal(const QDBusConnection &bus, QObject *parent)
    : QObject(parent)
    , m_bus(bus)
{
    if (!m_bus.isConnected()) {
        log().info("no session bus ({}): the desktop's light/dark preference is not followed",
                   m_bus.lastError().message().toStdString());
        return;
    }
    // QtDBus finds the slot by its parameters' types, by name: QDBusVariant must be known to
    // the meta-type system before the first message that carries one.
    qRegisterMetaType<QDBusVariant>();
    m_bus.connect(PortalService, PortalPath, SettingsInterface, QStringLiteral("SettingChanged"), this,
                  SLOT(onSettingChanged(QString, QString, QDBusVariant)));
    read();
}

void ColorSchemePortal::read()
{
    // Once, at start, before the first window shows: waiting for the answer (a few ms where
    // the portal runs) is better than a window that opens light and turns dark.
    for (const char *method : {"ReadOne", "Read"}) {
        QDBusMessage call = QDBusMessage::createMethodCall(PortalService, PortalPath, SettingsInterface,
                                                           QLatin1String(method));
        call << AppearanceNamespace << ColorSchemeKey;
        const QDBusMessage reply = m_bus.call(call, QDBus::Block, ReadTimeoutMs);
        if (reply.type() == QDBusMessage::ReplyMessage && !reply.arguments().isEmpty()) {
            set(reply.arguments().constFirst());
            return;
        }
        // A portal older than version 2 has Read() only; no portal at all is common in
        // containers and minimal sessions, and says nothing.
        if (reply.errorName() != QLatin1String("org.freedesktop.DBus.Error.UnknownMethod")) {
            log().debug("color-scheme: {}", reply.errorName().toStdString());
            return;
        }
    }
}

void ColorSchemePortal::onSettingChanged(const QString &nameSpace, const QString &key, const QDBusVariant &value)
{
    if (nameSpace != AppearanceNamespace || key != ColorSchemeKey)
        return;
    set(value.variant());
}

void ColorSchemePortal::set(const QVariant &value)
{
    const QVariant v = unwrapped(value);
    bool ok = false;
    const uint raw = v.toUInt(&ok);
    // Values the portal may add later mean nothing to us yet: no preference.
    const Preference p = ok && raw <= 2 ? static_cast<Preference>(raw) : Preference::None;
    if (p == m_preference)
        return;
    m_preference = p;
    log().info("desktop colour scheme: {}", logName(p));
    emit preferenceChanged(p);
}

} // namespace System
