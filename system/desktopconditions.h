#pragma once

#include <QDBusConnection>
#include <QFlags>
#include <QObject>
#include <QString>

#include <array>

class QDBusMessage;
class QDBusServiceWatcher;
class QVariant;

namespace System {

// What the desktop says that should make speculation hold back, read over D-Bus: UPower's
// OnBattery and its display device's low-battery warning, power-profiles-daemon's power-saver
// profile (under its old name net.hadess.PowerProfiles and its new one
// org.freedesktop.UPower.PowerProfiles) and NetworkManager's Metered. Each property is read once
// when its service is (or comes) on the bus, then followed through PropertiesChanged. A service
// that is absent, goes away or answers with an error holds nothing back, quietly: most
// machines lack one or two of them. Never starts a service (no D-Bus activation).
// GUI thread; the app owns it, on the system bus (tests give it a private one).
class DesktopConditions : public QObject
{
    Q_OBJECT

public:
    enum class Condition : quint8 {
        OnBattery = 0x1,
        LowBattery = 0x2, // the display device's warning level is low, critical or action
        PowerSaver = 0x4, // the power-saver profile
        Metered = 0x8,    // NetworkManager: metered, or guessed metered
    };
    Q_DECLARE_FLAGS(Conditions, Condition)

    explicit DesktopConditions(const QDBusConnection &bus, QObject *parent = nullptr);
    ~DesktopConditions() override;

    Conditions conditions() const;
    // "on battery", "battery saver", "metered connection", ... translated, in a list of the
    // locale's; empty for none. A low battery says so instead of "on battery".
    static QString describe(Conditions conditions);

signals:
    void conditionsChanged(System::DesktopConditions::Conditions conditions);

private slots:
    // QtDBus connects signals by name only (no function-pointer form).
    void onPropertiesChanged(const QDBusMessage &message);

private:
    static constexpr int WatchCount = 5;
    void read(int watch);
    void set(int watch, Conditions value);
    void serviceAppeared(const QString &service);
    void serviceVanished(const QString &service);

    QDBusConnection m_bus;
    QDBusServiceWatcher *m_services;
    std::array<Conditions, WatchCount> m_values{};
    // Bumped when a watch's service goes or is read again: a late answer for it is dropped.
    std::array<quint64, WatchCount> m_generation{};
};

} // namespace System

Q_DECLARE_OPERATORS_FOR_FLAGS(System::DesktopConditions::Conditions)
