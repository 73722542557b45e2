#pragma once

#include <QDBusConnection>
#include <QObject>

class QDBusVariant;

namespace System {

// The desktop's light/dark preference, from the XDG desktop portal's Settings interface
// (org.freedesktop.appearance color-scheme), which GNOME, KDE Plasma and others publish on the
// session bus. Qt 6.4 does not follow it (QStyleHints::colorScheme() came in 6.5), so without
// this a dark desktop gets a light Headstart. Read once at start (waiting for the answer), then
// followed through SettingChanged. No portal, or an error, is "no preference", quietly.
// GUI thread; the app owns it, on the session bus (tests give it a private one).
class ColorSchemePortal : public QObject
{
    Q_OBJECT

public:
    // The portal's own values: 0 no preference, 1 prefer dark, 2 prefer light.
    enum class Preference : quint8 { None = 0, Dark = 1, Light = 2 };
    Q_ENUM(Preference)

    explicit ColorSchemePortal(const QDBusConnection &bus, QObject *parent = nullptr);

    Preference preference() const { return m_preference; }

signals:
    void preferenceChanged(System::ColorSchemePortal::Preference preference);

private slots:
    // QtDBus connects signals by name only (no function-pointer form).
    void onSettingChanged(const QString &nameSpace, const QString &key, const QDBusVariant &value);

private:
    void read();
    void set(const QVariant &value);

    QDBusConnection m_bus;
    Preference m_preference = Preference::None;
};

} // namespace System
