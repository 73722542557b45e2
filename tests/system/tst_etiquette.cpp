// Speculation etiquette against a private D-Bus bus this test starts itself (dbus-daemon with a
// configuration of its own, in a temporary folder), with small fake UPower, power-profiles-daemon
// (both names) and NetworkManager services on it; no bus of the machine is used. Each condition
// pauses speculation when its property changes and resumes it when it changes back; what a
// service says when it is already there is read; a service that goes away holds nothing back and
// one that comes back is read again; absent services cost no warning. While paused the engine
// starts no prefetch (the provider sees no request) but a chosen answer goes; a prefetch in flight
// is cancelled when the pause begins. The app's closing and the etiquette suspend the engine each
// for its own reason, and the setting switches the etiquette off.
#include "support/localproviderfixture.h"
#include "support/privatebus.h"

#include "prefetch/engine.h"
#include "prefetch/prefetchsession.h"
#include "prefetch/stream/answerreader.h"
#include "system/desktopconditions.h"
#include "system/speculationetiquette.h"

#include "llm/clock.h"

#include <QDBusConnection>
#include <QDBusConnectionInterface>
#include <QDBusMessage>
#include <QLocale>
#include <QNetworkAccessManager>
#include <QPointer>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTest>

#include <memory>

using namespace Prefetch;
using namespace std::chrono_literals;
using System::DesktopConditions;
using System::SpeculationEtiquette;
using Condition = DesktopConditions::Condition;

// The fakes: one object per D-Bus object, exporting the one property the app reads. QtDBus
// answers org.freedesktop.DBus.Properties.Get from the Q_PROPERTY; the test sends the
// PropertiesChanged signal the real services send.
class FakeUPower : public QObject
{
    Q_OBJECT
    Q_CLASSINFO("D-Bus Interface", "org.freedesktop.UPower")
    Q_PROPERTY(bool OnBattery READ onBattery)
public:
    bool onBattery() const { return value; }
    bool value = false;
};

class FakeDisplayDevice : public QObject
{
    Q_OBJECT
    Q_CLASSINFO("D-Bus Interface", "org.freedesktop.UPower.Device")
    Q_PROPERTY(uint WarningLevel READ warningLevel)
public:
    uint warningLevel() const { return value; }
    uint value = 1; // none
};

// power-profiles-daemon before 0.20.
class FakeHadessProfiles : public QObject
{
    Q_OBJECT
    Q_CLASSINFO("D-Bus Interface", "net.hadess.PowerProfiles")
    Q_PROPERTY(QString ActiveProfile READ activeProfile)
public:
    QString activeProfile() const { return value; }
    QString value = QStringLiteral("balanced");
};

// power-profiles-daemon from 0.20.
class FakeUPowerProfiles : public QObject
{
    Q_OBJECT
    Q_CLASSINFO("D-Bus Interface", "org.freedesktop.UPower.PowerProfiles")
    Q_PROPERTY(QString ActiveProfile READ activeProfile)
public:
    QString activeProfile() const { return value; }
    QString value = QStringLiteral("balanced");
};

class FakeNetworkManager : public QObject
{
    Q_OBJECT
    Q_CLASSINFO("D-Bus Interface", "org.freedesktop.NetworkManager")
    Q_PROPERTY(uint Metered READ metered)
public:
    uint metered() const { return value; }
    uint value = 4; // guessed not metered
};

namespace {

const QString UPowerService = QStringLiteral("org.freedesktop.UPower");
const QString UPowerPath = QStringLiteral("/org/freedesktop/UPower");
const QString DisplayDevicePath = QStringLiteral("/org/freedesktop/UPower/devices/DisplayDevice");
const QString HadessService = QStringLiteral("net.hadess.PowerProfiles");
const QString HadessPath = QStringLiteral("/net/hadess/PowerProfiles");
const QString ProfilesService = QStringLiteral("org.freedesktop.UPower.PowerProfiles");
const QString ProfilesPath = QStringLiteral("/org/freedesktop/UPower/PowerProfiles");
const QString NetworkService = QStringLiteral("org.freedesktop.NetworkManager");
const QString NetworkPath = QStringLiteral("/org/freedesktop/NetworkManager");

constexpr int BusTimeoutMs = TestSupport::PrivateBus::TimeoutMs;

} // namespace

class tst_Etiquette : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void init();
    void cleanup();

    void absentServicesHoldNothingBackQuietly();
    void eachConditionPausesAndResumes_data();
    void eachConditionPausesAndResumes();
    void whatIsAlreadySoIsRead();
    void invalidatedPropertyIsReadAgain();
    void serviceGoingAwayResumesAndComingBackIsRead();
    void reasonsCombine();
    void pausedEngineStartsNoPrefetchButChosenAnswersGo();
    void closingAndEtiquetteDoNotUndoEachOther();
    void settingOffOverrides();

private:
    // Claims `service` on the fakes' connection with `object` at `path`.
    bool publish(const QString &service, const QString &path, QObject *object);
    // What the real services do when a property changes: the new value, then PropertiesChanged with it.
    void announce(const QString &path, const QString &interface, const QString &property, const QVariant &value);
    // All five fakes on the bus, with values that hold nothing back.
    bool publishAll();
    std::unique_ptr<Engine> makeEngine();
    // What the app side (DesktopConditions) is given: the system bus in the app.
    QDBusConnection monitorBus() const { return QDBusConnection(m_monitorName); }
    Llm::ChatRequest request(int n, int maxTokens = 20) const;

    TestSupport::LocalProviderFixture m_local{u"instant", [](LocalProvider::ServerConfig &c) {
                                                  c.profile.decodeTokensPerSec =
                                                      40; // a prefetch is still streaming when the pause begins
                                              }};
    QNetworkAccessManager m_network;
    TestSupport::PrivateBus m_bus;
    QString m_address;
    int m_round = 0;
    QString m_serviceName; // the fakes' connection
    QString m_monitorName; // the app side's connection
    FakeUPower m_upower;
    FakeDisplayDevice m_display;
    FakeHadessProfiles m_hadess;
    FakeUPowerProfiles m_profiles;
    FakeNetworkManager m_networkManager;
};

void tst_Etiquette::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);
    QLocale::setDefault(QLocale(QLocale::English, QLocale::UnitedStates)); // reasons are compared word for word
    QVERIFY2(m_local.start(), qPrintable(m_local.errorString()));
    QVERIFY2(m_bus.start(), qPrintable(m_bus.errorString()));
    m_address = m_bus.address();
}

void tst_Etiquette::init()
{
    // Fresh connections per test: closing the fakes' connection releases every name it held.
    ++m_round;
    m_serviceName = QStringLiteral("fakes-%1").arg(m_round);
    m_monitorName = QStringLiteral("monitor-%1").arg(m_round);
    QVERIFY(QDBusConnection::connectToBus(m_address, m_serviceName).isConnected());
    QVERIFY(QDBusConnection::connectToBus(m_address, m_monitorName).isConnected());
    m_upower.value = false;
    m_display.value = 1;
    m_hadess.value = QStringLiteral("balanced");
    m_profiles.value = QStringLiteral("balanced");
    m_networkManager.value = 4;
    QVERIFY(m_local.waitForNoOpenStream(2000));
}

void tst_Etiquette::cleanup()
{
    QDBusConnection::disconnectFromBus(m_serviceName);
    QDBusConnection::disconnectFromBus(m_monitorName);
}

bool tst_Etiquette::publish(const QString &service, const QString &path, QObject *object)
{
    QDBusConnection bus(m_serviceName);
    return bus.registerObject(path, object, QDBusConnection::ExportAllProperties) && bus.registerService(service);
}

bool tst_Etiquette::publishAll()
{
    // UPower's display device is a second object of the same service: its object first, so
    // that it is there when the service's name appears.
    return QDBusConnection(m_serviceName)
               .registerObject(DisplayDevicePath, &m_display, QDBusConnection::ExportAllProperties)
           && publish(UPowerService, UPowerPath, &m_upower) && publish(HadessService, HadessPath, &m_hadess)
           && publish(ProfilesService, ProfilesPath, &m_profiles)
           && publish(NetworkService, NetworkPath, &m_networkManager);
}

void tst_Etiquette::announce(const QString &path, const QString &interface, const QString &property,
                             const QVariant &value)
{
    // The fake's value first, as a service's property has its new value before it says so: a
    // Get answered after this signal must not contradict it.
    if (path == UPowerPath)
        m_upower.value = value.toBool();
    else if (path == DisplayDevicePath)
        m_display.value = value.toUInt();
    else if (path == HadessPath)
        m_hadess.value = value.toString();
    else if (path == ProfilesPath)
        m_profiles.value = value.toString();
    else if (path == NetworkPath)
        m_networkManager.value = value.toUInt();
    QDBusMessage signal = QDBusMessage::createSignal(path, QStringLiteral("org.freedesktop.DBus.Properties"),
                                                     QStringLiteral("PropertiesChanged"));
    signal << interface << QVariantMap{{property, value}} << QStringList();
    QVERIFY(QDBusConnection(m_serviceName).send(signal));
}

std::unique_ptr<Engine> tst_Etiquette::makeEngine()
{
    return m_local.makeEngine(&m_network, {}, {}, 16);
}

Llm::ChatRequest tst_Etiquette::request(int n, int maxTokens) const
{
    Llm::ChatRequest r;
    r.model = m_local.profile().model;
    r.messages.append({Llm::Role::User, QStringLiteral("Question %1 asked on a metered connection.").arg(n)});
    r.maxTokens = maxTokens;
    return r;
}

void tst_Etiquette::absentServicesHoldNothingBackQuietly()
{
    // A machine without UPower, power-profiles-daemon or NetworkManager (or a container without
    // any of them): every read fails with ServiceUnknown, which is no reason to pause, nor to warn.
    QTest::failOnWarning(QRegularExpression(QStringLiteral(".*")));
    auto engine = makeEngine();
    DesktopConditions conditions(monitorBus());
    SpeculationEtiquette etiquette(engine.get(), &conditions);
    QSignalSpy changed(&conditions, &DesktopConditions::conditionsChanged);
    // The fakes appear after the failed reads: a NetworkManager saying "metered" is then the
    // first change, so nothing was believed before it.
    m_networkManager.value = 1;
    QVERIFY(publish(NetworkService, NetworkPath, &m_networkManager));
    QVERIFY(changed.wait(BusTimeoutMs));
    QCOMPARE(changed.count(), 1);
    QCOMPARE(conditions.conditions(), DesktopConditions::Conditions(Condition::Metered));
    QVERIFY(etiquette.isPaused());

    // A connection to no bus at all (the app where there is no system bus) is the same.
    DesktopConditions nowhere{QDBusConnection(QStringLiteral("never-connected"))};
    QCOMPARE(nowhere.conditions(), DesktopConditions::Conditions());
}

void tst_Etiquette::eachConditionPausesAndResumes_data()
{
    QTest::addColumn<QString>("path");
    QTest::addColumn<QString>("interface");
    QTest::addColumn<QString>("property");
    QTest::addColumn<QVariant>("on");
    QTest::addColumn<QVariant>("off");
    QTest::addColumn<QString>("reason"); // empty: `on` is no reason to pause

    const auto u = [](uint v) { return QVariant::fromValue(v); };
    const auto s = [](const char *v) { return QVariant(QString::fromLatin1(v)); };
    // On battery alone is no reason: a low battery is (as browsers pause).
    QTest::addRow("on battery") << UPowerPath << UPowerService << "OnBattery" << QVariant(true) << QVariant(false)
                                << "";
    QTest::addRow("low battery") << DisplayDevicePath << "org.freedesktop.UPower.Device"
                                 << "WarningLevel" << u(3) << u(1) << "low battery";
    QTest::addRow("critical battery") << DisplayDevicePath << "org.freedesktop.UPower.Device"
                                      << "WarningLevel" << u(4) << u(1) << "low battery";
    QTest::addRow("discharging UPS") << DisplayDevicePath << "org.freedesktop.UPower.Device"
                                     << "WarningLevel" << u(2) << u(1) << "";
    QTest::addRow("power saver, old name")
        << HadessPath << HadessService << "ActiveProfile" << s("power-saver") << s("balanced") << "battery saver";
    QTest::addRow("power saver, new name") << ProfilesPath << ProfilesService << "ActiveProfile" << s("power-saver")
                                           << s("performance") << "battery saver";
    QTest::addRow("performance profile") << ProfilesPath << ProfilesService << "ActiveProfile" << s("performance")
                                         << s("balanced") << "";
    QTest::addRow("metered") << NetworkPath << NetworkService << "Metered" << u(1) << u(2) << "metered connection";
    QTest::addRow("guessed metered") << NetworkPath << NetworkService << "Metered" << u(3) << u(4)
                                     << "metered connection";
    QTest::addRow("metered unknown") << NetworkPath << NetworkService << "Metered" << u(0) << u(4) << "";
}

void tst_Etiquette::eachConditionPausesAndResumes()
{
    QFETCH(QString, path);
    QFETCH(QString, interface);
    QFETCH(QString, property);
    QFETCH(QVariant, on);
    QFETCH(QVariant, off);
    QFETCH(QString, reason);

    QVERIFY(publishAll());
    auto engine = makeEngine();
    DesktopConditions conditions(monitorBus());
    SpeculationEtiquette etiquette(engine.get(), &conditions);
    QSignalSpy paused(&etiquette, &SpeculationEtiquette::pauseChanged);
    QVERIFY(!etiquette.isPaused());

    announce(path, interface, property, on);
    if (reason.isEmpty()) {
        // Nothing to hold back: a change that does pause, sent after it, is the first signal.
        announce(NetworkPath, NetworkService, QStringLiteral("Metered"), QVariant::fromValue(1u));
        QVERIFY(paused.wait(BusTimeoutMs));
        QCOMPARE(paused.count(), 1);
        QCOMPARE(paused.first().first().toString(), QStringLiteral("metered connection"));
        return;
    }
    QVERIFY(paused.wait(BusTimeoutMs));
    QCOMPARE(paused.count(), 1);
    QCOMPARE(paused.first().first().toString(), reason);
    QCOMPARE(etiquette.reason(), reason);
    QVERIFY(engine->isSpeculationSuspended());

    announce(path, interface, property, off);
    QVERIFY(paused.wait(BusTimeoutMs));
    QCOMPARE(paused.count(), 2);
    QCOMPARE(paused.last().first().toString(), QString());
    QVERIFY(!etiquette.isPaused());
    QVERIFY(!engine->isSpeculationSuspended());
}

void tst_Etiquette::whatIsAlreadySoIsRead()
{
    // Started on battery saver and a metered connection: no signal comes, the first reads say so.
    m_profiles.value = QStringLiteral("power-saver");
    m_networkManager.value = 1;
    QVERIFY(publishAll());
    auto engine = makeEngine();
    DesktopConditions conditions(monitorBus());
    SpeculationEtiquette etiquette(engine.get(), &conditions);
    QTRY_COMPARE_WITH_TIMEOUT(etiquette.reason(), QStringLiteral("battery saver and metered connection"), BusTimeoutMs);
    QCOMPARE(conditions.conditions(), Condition::PowerSaver | Condition::Metered);
    QVERIFY(engine->isSpeculationSuspended());
}

void tst_Etiquette::invalidatedPropertyIsReadAgain()
{
    // A service may say only that a property changed, not its value: it is asked for it.
    QVERIFY(publishAll());
    DesktopConditions conditions(monitorBus());
    QSignalSpy changed(&conditions, &DesktopConditions::conditionsChanged);
    m_upower.value = true;
    QDBusMessage signal = QDBusMessage::createSignal(UPowerPath, QStringLiteral("org.freedesktop.DBus.Properties"),
                                                     QStringLiteral("PropertiesChanged"));
    signal << UPowerService << QVariantMap() << QStringList{QStringLiteral("OnBattery")};
    QVERIFY(QDBusConnection(m_serviceName).send(signal));
    QVERIFY(changed.wait(BusTimeoutMs));
    QCOMPARE(conditions.conditions(), DesktopConditions::Conditions(Condition::OnBattery));
}

void tst_Etiquette::serviceGoingAwayResumesAndComingBackIsRead()
{
    m_networkManager.value = 1;
    QVERIFY(publishAll());
    auto engine = makeEngine();
    DesktopConditions conditions(monitorBus());
    SpeculationEtiquette etiquette(engine.get(), &conditions);
    QTRY_VERIFY_WITH_TIMEOUT(etiquette.isPaused(), BusTimeoutMs);

    // NetworkManager stops (or crashes): what it said no longer holds.
    QVERIFY(QDBusConnection(m_serviceName).unregisterService(NetworkService));
    QTRY_VERIFY_WITH_TIMEOUT(!etiquette.isPaused(), BusTimeoutMs);
    QVERIFY(!engine->isSpeculationSuspended());

    // It starts again, still on the metered connection: read again, paused again.
    QVERIFY(QDBusConnection(m_serviceName).registerService(NetworkService));
    QTRY_COMPARE_WITH_TIMEOUT(etiquette.reason(), QStringLiteral("metered connection"), BusTimeoutMs);
    QVERIFY(engine->isSpeculationSuspended());
}

void tst_Etiquette::reasonsCombine()
{
    using C = DesktopConditions::Conditions;
    QCOMPARE(DesktopConditions::describe(C()), QString());
    QCOMPARE(DesktopConditions::describe(C(Condition::OnBattery)), QStringLiteral("on battery"));
    // A low battery says more than "on battery", and says it alone.
    QCOMPARE(DesktopConditions::describe(Condition::OnBattery | Condition::LowBattery), QStringLiteral("low battery"));
    QCOMPARE(DesktopConditions::describe(Condition::OnBattery | Condition::PowerSaver | Condition::Metered),
             QStringLiteral("on battery, battery saver, and metered connection"));

    // Over the bus: two conditions at once, one ending leaves the other.
    QVERIFY(publishAll());
    auto engine = makeEngine();
    DesktopConditions conditions(monitorBus());
    SpeculationEtiquette etiquette(engine.get(), &conditions);
    announce(DisplayDevicePath, QStringLiteral("org.freedesktop.UPower.Device"), QStringLiteral("WarningLevel"),
             QVariant::fromValue(3u));
    announce(NetworkPath, NetworkService, QStringLiteral("Metered"), QVariant::fromValue(1u));
    QTRY_COMPARE_WITH_TIMEOUT(etiquette.reason(), QStringLiteral("low battery and metered connection"), BusTimeoutMs);
    announce(DisplayDevicePath, QStringLiteral("org.freedesktop.UPower.Device"), QStringLiteral("WarningLevel"),
             QVariant::fromValue(1u));
    QTRY_COMPARE_WITH_TIMEOUT(etiquette.reason(), QStringLiteral("metered connection"), BusTimeoutMs);
    QVERIFY(engine->isSpeculationSuspended());
}

void tst_Etiquette::pausedEngineStartsNoPrefetchButChosenAnswersGo()
{
    QVERIFY(publishAll());
    auto engine = makeEngine();
    DesktopConditions conditions(monitorBus());
    SpeculationEtiquette etiquette(engine.get(), &conditions);

    // A guess streaming when the connection turns metered is cancelled at once.
    QPointer<PrefetchSession> streaming = engine->prefetch(Strategy::Hover, engine->render(request(1, 200)), 30s);
    QVERIFY(streaming);
    QTRY_COMPARE_WITH_TIMEOUT(m_local.stats().streamsOpen, 1, BusTimeoutMs);
    announce(NetworkPath, NetworkService, QStringLiteral("Metered"), QVariant::fromValue(1u));
    QTRY_VERIFY_WITH_TIMEOUT(etiquette.isPaused(), BusTimeoutMs);
    QVERIFY(!streaming || !streaming->isLive());
    QCOMPARE(engine->metrics().stats(Strategy::Hover).cancelled, 1);
    QTRY_COMPARE_WITH_TIMEOUT(m_local.stats().streamsOpen, 0, 2000);

    // No new guess goes out, of any strength or strategy.
    const auto before = m_local.stats();
    QVERIFY(!engine->prefetch(Strategy::Hover, engine->render(request(2)), 30s));
    QVERIFY(!engine->prefetch(Strategy::Warmup, engine->render(request(3)), 30s));
    QVERIFY(!engine->prefetch(Strategy::Selection, engine->render(request(4)), 30s, SignalStrength::Weak));
    QVERIFY(m_local.settle(&m_network, 0, BusTimeoutMs));
    QCOMPARE(m_local.stats().requestsServed, before.requestsServed);
    QCOMPARE(m_local.stats().prefetchRequests, before.prefetchRequests);

    // What the user asks for still goes, and in full.
    const RenderedRequest asked = engine->render(request(5));
    const QString text = TestSupport::drain(engine->request(Strategy::Hover, asked, Llm::monotonicNowNs(), this));
    QVERIFY2(!text.startsWith(QLatin1Char('<')), qPrintable(text));
    QCOMPARE(text, TestSupport::freshText(&m_network, m_local.profile(), asked));
    // So does the click on an action whose guess the pause refused: a miss, answered fresh.
    const QString clicked = TestSupport::drain(
        engine->consume(nullptr, asked, Llm::monotonicNowNs(), this, Strategy::Hover));
    QCOMPARE(clicked, text);
    QCOMPARE(m_local.stats().prefetchRequests, before.prefetchRequests);

    // Unmetered again: guesses go out again.
    announce(NetworkPath, NetworkService, QStringLiteral("Metered"), QVariant::fromValue(2u));
    QTRY_VERIFY_WITH_TIMEOUT(!etiquette.isPaused(), BusTimeoutMs);
    QPointer<PrefetchSession> again = engine->prefetch(Strategy::Hover, engine->render(request(6)), 30s);
    QVERIFY(again);
    QTRY_COMPARE_WITH_TIMEOUT(m_local.stats().prefetchRequests, before.prefetchRequests + 1, BusTimeoutMs);
    engine->stopAll();
}

void tst_Etiquette::closingAndEtiquetteDoNotUndoEachOther()
{
    using S = Engine::Suspension;
    QVERIFY(publishAll());
    auto engine = makeEngine();
    DesktopConditions conditions(monitorBus());
    SpeculationEtiquette etiquette(engine.get(), &conditions);
    announce(NetworkPath, NetworkService, QStringLiteral("Metered"), QVariant::fromValue(1u));
    QTRY_VERIFY_WITH_TIMEOUT(etiquette.isPaused(), BusTimeoutMs);

    // The user closes the window and then cancels at a Save question: the metered connection
    // still holds speculation back.
    engine->setSpeculationSuspended(S::Closing, true);
    QCOMPARE(engine->speculationSuspensions(), S::Closing | S::Etiquette);
    engine->setSpeculationSuspended(S::Closing, false);
    QVERIFY(engine->isSpeculationSuspended());
    QVERIFY(!engine->prefetch(Strategy::Hover, engine->render(request(10)), 30s));

    // The connection stops being metered while the Save questions are up: nothing resumes
    // until they are answered.
    engine->setSpeculationSuspended(S::Closing, true);
    announce(NetworkPath, NetworkService, QStringLiteral("Metered"), QVariant::fromValue(2u));
    QTRY_VERIFY_WITH_TIMEOUT(!etiquette.isPaused(), BusTimeoutMs);
    QCOMPARE(engine->speculationSuspensions(), Engine::Suspensions(S::Closing));
    QVERIFY(!engine->prefetch(Strategy::Hover, engine->render(request(11)), 30s));
    engine->setSpeculationSuspended(S::Closing, false);
    QVERIFY(!engine->isSpeculationSuspended());
    QVERIFY(engine->prefetch(Strategy::Hover, engine->render(request(12)), 30s));
    engine->stopAll();
}

void tst_Etiquette::settingOffOverrides()
{
    m_upower.value = true;
    m_display.value = 3; // low
    QVERIFY(publishAll());
    auto engine = makeEngine();
    DesktopConditions conditions(monitorBus());
    SpeculationEtiquette etiquette(engine.get(), &conditions);
    QTRY_VERIFY_WITH_TIMEOUT(etiquette.isPaused(), BusTimeoutMs);
    QSignalSpy paused(&etiquette, &SpeculationEtiquette::pauseChanged);

    // Off: speculation goes on, low battery or not, and later changes do not pause it either.
    etiquette.setEnabled(false);
    QCOMPARE(paused.count(), 1);
    QCOMPARE(paused.last().first().toString(), QString());
    QVERIFY(!engine->isSpeculationSuspended());
    QSignalSpy changed(&conditions, &DesktopConditions::conditionsChanged);
    announce(NetworkPath, NetworkService, QStringLiteral("Metered"), QVariant::fromValue(1u));
    QVERIFY(changed.wait(BusTimeoutMs));
    QVERIFY(!etiquette.isPaused());
    QVERIFY(engine->prefetch(Strategy::Hover, engine->render(request(20)), 30s));

    // On again: the conditions that hold now pause it at once.
    etiquette.setEnabled(true);
    QCOMPARE(etiquette.reason(), QStringLiteral("low battery and metered connection"));
    QVERIFY(engine->isSpeculationSuspended());
    QVERIFY(engine->liveSessions().isEmpty());
}

QTEST_GUILESS_MAIN(tst_Etiquette)
#include "tst_etiquette.moc"
