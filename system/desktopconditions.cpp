#include "desktopconditions.h"

#include "log.h"

#include <QCoreApplication>
#include <QDBusArgument>
#include <QDBusMessage>
#include <QDBusPendingCallWatcher>
#include <QDBusPendingReply>
#include <QDBusServiceWatcher>
#include <QDBusVariant>
#include <QLocale>
#include <QStringList>
#include <QVariantMap>

#include <spdlog/spdlog.h>

#include <string>
#include <utility>

namespace System {

namespace {

using Condition = DesktopConditions::Condition;
using Conditions = DesktopConditions::Conditions;

const QString PropertiesInterface = QStringLiteral("org.freedesktop.DBus.Properties");

// UPower's WarningLevel: 0 unknown, 1 none, 2 discharging (a UPS only), 3 low, 4 critical, 5 action.
constexpr uint LowWarningLevel = 3;
// NetworkManager's NMMetered: 0 unknown, 1 yes, 2 no, 3 guessed yes, 4 guessed no.
constexpr uint MeteredYes = 1;
constexpr uint MeteredGuessYes = 3;

Conditions onBattery(const QVariant &v)
{
    return v.toBool() ? Condition::OnBattery : Conditions();
}
Conditions lowBattery(const QVariant &v)
{
    return v.toUInt() >= LowWarningLevel ? Condition::LowBattery : Conditions();
}
Conditions powerSaver(const QVariant &v)
{
    return v.toString() == QLatin1String("power-saver") ? Condition::PowerSaver : Conditions();
}
Conditions metered(const QVariant &v)
{
    const uint m = v.toUInt();
    return m == MeteredYes || m == MeteredGuessYes ? Condition::Metered : Conditions();
}

// One property of one object of one service, and what its value means.
struct Watch {
    const char *service;
    const char *path;
    const char *interface;
    const char *property;
    Conditions (*evaluate)(const QVariant &);
};

constexpr Watch Watches[] = {
    {"org.freedesktop.UPower", "/org/freedesktop/UPower", "org.freedesktop.UPower", "OnBattery", onBattery},
    {"org.freedesktop.UPower", "/org/freedesktop/UPower/devices/DisplayDevice", "org.freedesktop.UPower.Device",
     "WarningLevel", lowBattery},
    // power-profiles-daemon before and after 0.20 renamed it; a system may run either.
    {"net.hadess.PowerProfiles", "/net/hadess/PowerProfiles", "net.hadess.PowerProfiles", "ActiveProfile", powerSaver},
    {"org.freedesktop.UPower.PowerProfiles", "/org/freedesktop/UPower/PowerProfiles",
     "org.freedesktop.UPower.PowerProfiles", "ActiveProfile", powerSaver},
    {"org.freedesktop.NetworkManager", "/org/freedesktop/NetworkManager", "org.freedesktop.NetworkManager", "Metered",
     metered},
};

// For the log, in English whatever the UI language.
std::string logNames(Conditions conditions)
{
    std::string names;
    for (auto [c, name] :
         {std::pair{Condition::OnBattery, "on battery"}, std::pair{Condition::LowBattery, "low battery"},
          std::pair{Condition::PowerSaver, "power saver"}, std::pair{Condition::Metered, "metered"}}) {
        if (conditions.testFlag(c))
            names += names.empty() ? name : std::string(", ") + name;
    }
    return names.empty() ? "none" : names;
}

QString trCondition(const char *text)
{
    return QCoreApplication::translate("System::DesktopConditions", text);
}

} // namespace

static_assert(std::size(Watches) == 5, "DesktopConditions::WatchCount follows the table");

DesktopConditions::DesktopConditions(const QDBusConnection &bus, QObject *parent)
    : QObject(parent)
    , m_bus(bus)
    , m_services(new QDBusServiceWatcher(this))
{
    if (!m_bus.isConnected()) {
        // A container or a minimal session without a system bus: nothing is known, nothing held back.
        log().info("no D-Bus connection ({}): battery and network conditions are not followed",
                   m_bus.lastError().message().toStdString());
        return;
    }
    m_services->setConnection(m_bus);
    m_services->setWatchMode(QDBusServiceWatcher::WatchForOwnerChange);
    QStringList services;
    for (const Watch &w : Watches) {
        const QString service = QLatin1String(w.service);
        if (!services.contains(service))
            services << service;
        m_bus.connect(service, QLatin1String(w.path), PropertiesInterface, QStringLiteral("PropertiesChanged"), this,
                      SLOT(onPropertiesChanged(QDBusMessage)));
    }
    m_services->setWatchedServices(services);
    connect(m_services, &QDBusServiceWatcher::serviceRegistered, this, &DesktopConditions::serviceAppeared);
    connect(m_services, &QDBusServiceWatcher::serviceUnregistered, this, &DesktopConditions::serviceVanished);
    for (int i = 0; i < WatchCount; ++i)
        read(i);
}

DesktopConditions::~DesktopConditions() = default;

DesktopConditions::Conditions DesktopConditions::conditions() const
{
    Conditions all;
    for (Conditions c : m_values)
        all |= c;
    return all;
}

QString DesktopConditions::describe(Conditions conditions)
{
    QStringList reasons;
    if (conditions.testFlag(Condition::LowBattery))
        reasons << trCondition(QT_TRANSLATE_NOOP("System::DesktopConditions", "low battery"));
    else if (conditions.testFlag(Condition::OnBattery))
        reasons << trCondition(QT_TRANSLATE_NOOP("System::DesktopConditions", "on battery"));
    if (conditions.testFlag(Condition::PowerSaver))
        reasons << trCondition(QT_TRANSLATE_NOOP("System::DesktopConditions", "battery saver"));
    if (conditions.testFlag(Condition::Metered))
        reasons << trCondition(QT_TRANSLATE_NOOP("System::DesktopConditions", "metered connection"));
    return QLocale().createSeparatedList(reasons);
}

void DesktopConditions::read(int watch)
{
    const Watch &w = Watches[watch];
    QDBusMessage call = QDBusMessage::createMethodCall(QLatin1String(w.service), QLatin1String(w.path),
                                                       PropertiesInterface, QStringLiteral("Get"));
    call << QString::fromLatin1(w.interface) << QString::fromLatin1(w.property);
    // An absent service stays absent: asking must not start power-profiles-daemon or UPower.
    call.setAutoStartService(false);
    const quint64 generation = ++m_generation[watch];
    auto *pending = new QDBusPendingCallWatcher(m_bus.asyncCall(call), this);
    connect(pending, &QDBusPendingCallWatcher::finished, this, [this, watch, generation](QDBusPendingCallWatcher *p) {
        p->deleteLater();
        if (generation != m_generation[watch])
            return; // the service went, or was read again, meanwhile
        const QDBusPendingReply<QDBusVariant> reply = *p;
        if (reply.isError()) {
            // Absent (ServiceUnknown) on most machines for one service or another: not worth more.
            log().debug("{} {}: {}", Watches[watch].service, Watches[watch].property,
                        reply.error().name().toStdString());
            set(watch, {});
            return;
        }
        set(watch, Watches[watch].evaluate(reply.value().variant()));
    });
}

void DesktopConditions::set(int watch, Conditions value)
{
    const Conditions before = conditions();
    m_values[watch] = value;
    const Conditions after = conditions();
    if (after == before)
        return;
    log().info("desktop conditions: {}", logNames(after));
    emit conditionsChanged(after);
}

void DesktopConditions::onPropertiesChanged(const QDBusMessage &message)
{
    // (interface, changed a{sv}, invalidated as); anything else is not a PropertiesChanged.
    const QList<QVariant> args = message.arguments();
    if (args.size() < 3)
        return;
    const QString interface = args.at(0).toString();
    const QVariantMap changed = qdbus_cast<QVariantMap>(args.at(1));
    const QStringList invalidated = qdbus_cast<QStringList>(args.at(2));
    for (int i = 0; i < WatchCount; ++i) {
        const Watch &w = Watches[i];
        if (message.path() != QLatin1String(w.path) || interface != QLatin1String(w.interface))
            continue;
        const QString property = QLatin1String(w.property);
        // A service answers in order: a Get answered after this signal answers with what it says
        // or newer, so whichever arrives last is right, and nothing needs dropping here.
        if (const auto it = changed.constFind(property); it != changed.constEnd())
            set(i, w.evaluate(*it));
        else if (invalidated.contains(property))
            read(i); // changed, value not sent
    }
}

void DesktopConditions::serviceAppeared(const QString &service)
{
    for (int i = 0; i < WatchCount; ++i) {
        if (service == QLatin1String(Watches[i].service))
            read(i);
    }
}

void DesktopConditions::serviceVanished(const QString &service)
{
    for (int i = 0; i < WatchCount; ++i) {
        if (service != QLatin1String(Watches[i].service))
            continue;
        ++m_generation[i];
        set(i, {});
    }
}

} // namespace System
