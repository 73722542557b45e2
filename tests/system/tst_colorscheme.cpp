// The desktop's light/dark preference against a private D-Bus bus this test starts itself, with
// a fake XDG desktop portal on it (version 2 with ReadOne, and an older one with Read only); no
// bus of the machine is used. What the portal says at start is read before the constructor
// returns (no window opens light and turns dark), SettingChanged is followed and other keys are
// not, an unknown value is no preference, and no portal is no preference. Then the palettes:
// asked dark on a light desktop gives a dark palette with readable text, and a desktop palette
// that is already as asked is kept as it is.
#include "support/privatebus.h"

#include "gui/widgets/colorschemes.h"
#include "system/colorscheme.h"

#include <QApplication>
#include <QCheckBox>
#include <QDBusConnection>
#include <QDBusMessage>
#include <QDBusVariant>
#include <QSignalSpy>
#include <QStyle>
#include <QStyleOptionButton>
#include <QTest>
#include <QThread>

#include <atomic>
#include <cmath>
#include <utility>

using System::ColorSchemePortal;
using Preference = ColorSchemePortal::Preference;

namespace {

const QString PortalService = QStringLiteral("org.freedesktop.portal.Desktop");
const QString PortalPath = QStringLiteral("/org/freedesktop/portal/desktop");
constexpr int Timeout = TestSupport::PrivateBus::TimeoutMs;

} // namespace

// The portal's Settings interface as version 2 has it. It lives on a thread of its own: the
// app's first read waits for the answer, which a fake on the same thread could never give.
class FakePortal : public QObject
{
    Q_OBJECT
    Q_CLASSINFO("D-Bus Interface", "org.freedesktop.portal.Settings")
public:
    std::atomic<uint> value = 0;
    std::atomic<int> reads = 0;
public slots:
    QDBusVariant ReadOne(const QString &nameSpace, const QString &key)
    {
        ++reads;
        if (nameSpace == QLatin1String("org.freedesktop.appearance") && key == QLatin1String("color-scheme"))
            return QDBusVariant(uint(value));
        return QDBusVariant(QString());
    }
};

// A portal before version 2: Read() only, its value wrapped in one more variant.
class FakeOldPortal : public QObject
{
    Q_OBJECT
    Q_CLASSINFO("D-Bus Interface", "org.freedesktop.portal.Settings")
public:
    std::atomic<uint> value = 0;
public slots:
    QDBusVariant Read(const QString &, const QString &)
    {
        return QDBusVariant(QVariant::fromValue(QDBusVariant(uint(value))));
    }
};

class tst_ColorScheme : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void init();
    void cleanup();
    void cleanupTestCase();
    void readAtStartAndFollowed();
    void olderPortalWithReadOnly();
    void noPortalIsNoPreference();
    void darkPaletteOnALightDesktop();
    void aCheckBoxShowsItsBoxOnTheDarkPalette();
    void desktopPaletteKeptWhenAlreadyAsAsked();

private:
    bool publish(QObject *portal);
    void sendChanged(const QString &nameSpace, const QString &key, const QVariant &value);
    QDBusConnection appBus() const { return QDBusConnection(m_appName); }

    TestSupport::PrivateBus m_bus;
    QThread m_portalThread;
    int m_round = 0;
    QString m_portalName; // the fake portal's connection
    QString m_appName;    // the app side's connection
};

void tst_ColorScheme::initTestCase()
{
    QVERIFY2(m_bus.start(), qPrintable(m_bus.errorString()));
    m_portalThread.start();
}

void tst_ColorScheme::cleanupTestCase()
{
    m_portalThread.quit();
    m_portalThread.wait();
}

void tst_ColorScheme::init()
{
    ++m_round;
    m_portalName = QStringLiteral("portal-%1").arg(m_round);
    m_appName = QStringLiteral("app-%1").arg(m_round);
    QVERIFY(QDBusConnection::connectToBus(m_bus.address(), m_portalName).isConnected());
    QVERIFY(QDBusConnection::connectToBus(m_bus.address(), m_appName).isConnected());
}

void tst_ColorScheme::cleanup()
{
    // Closing the portal's connection releases its name.
    QDBusConnection::disconnectFromBus(m_portalName);
    QDBusConnection::disconnectFromBus(m_appName);
}

bool tst_ColorScheme::publish(QObject *portal)
{
    portal->moveToThread(&m_portalThread);
    QDBusConnection bus(m_portalName);
    return bus.registerObject(PortalPath, portal, QDBusConnection::ExportAllSlots)
           && bus.registerService(PortalService);
}

void tst_ColorScheme::sendChanged(const QString &nameSpace, const QString &key, const QVariant &value)
{
    QDBusMessage signal = QDBusMessage::createSignal(PortalPath, QStringLiteral("org.freedesktop.portal.Settings"),
                                                     QStringLiteral("SettingChanged"));
    signal << nameSpace << key << QVariant::fromValue(QDBusVariant(value));
    QVERIFY(QDBusConnection(m_portalName).send(signal));
}

void tst_ColorScheme::readAtStartAndFollowed()
{
    auto *portal = new FakePortal;
    portal->value = 1;
    QVERIFY(publish(portal));
    {
        ColorSchemePortal scheme(appBus());
        QCOMPARE(scheme.preference(), Preference::Dark); // read before the constructor returned
        QCOMPARE(portal->reads.load(), 1);
        QSignalSpy changed(&scheme, &ColorSchemePortal::preferenceChanged);

        // Another key of the same namespace, and the same key of another: not ours.
        sendChanged(QStringLiteral("org.freedesktop.appearance"), QStringLiteral("accent-color"), uint(2));
        sendChanged(QStringLiteral("org.gnome.desktop.interface"), QStringLiteral("color-scheme"), uint(2));
        sendChanged(QStringLiteral("org.freedesktop.appearance"), QStringLiteral("color-scheme"), uint(2));
        QVERIFY(changed.wait(Timeout));
        QCOMPARE(changed.size(), 1); // the two others came first, on the same connection, and changed nothing
        QCOMPARE(changed.first().first().value<Preference>(), Preference::Light);
        QCOMPARE(scheme.preference(), Preference::Light);

        // A value the portal may add one day: no preference.
        sendChanged(QStringLiteral("org.freedesktop.appearance"), QStringLiteral("color-scheme"), uint(7));
        QVERIFY(changed.wait(Timeout));
        QCOMPARE(scheme.preference(), Preference::None);
        sendChanged(QStringLiteral("org.freedesktop.appearance"), QStringLiteral("color-scheme"), uint(1));
        QVERIFY(changed.wait(Timeout));
        QCOMPARE(scheme.preference(), Preference::Dark);
    }
    QDBusConnection(m_portalName).unregisterObject(PortalPath);
    portal->deleteLater();
}

void tst_ColorScheme::olderPortalWithReadOnly()
{
    auto *portal = new FakeOldPortal;
    portal->value = 2;
    QVERIFY(publish(portal));
    ColorSchemePortal scheme(appBus());
    QCOMPARE(scheme.preference(), Preference::Light);
    QDBusConnection(m_portalName).unregisterObject(PortalPath);
    portal->deleteLater();
}

void tst_ColorScheme::noPortalIsNoPreference()
{
    ColorSchemePortal scheme(appBus());
    QCOMPARE(scheme.preference(), Preference::None);

    ColorSchemePortal nowhere{QDBusConnection(QStringLiteral("never-connected"))};
    QCOMPARE(nowhere.preference(), Preference::None);
}

void tst_ColorScheme::darkPaletteOnALightDesktop()
{
    const QPalette standard = QApplication::style()->standardPalette();
    QVERIFY(!Gui::isDark(standard)); // Fusion's, offscreen: the light desktop of this test
    const QPalette dark = Gui::schemePalette(true, standard, standard);
    QVERIFY(Gui::isDark(dark));
    // Text on its background reads (a lightness apart of more than half the scale), enabled
    // and disabled text differ, and the highlight stands out from the base.
    for (const auto &[fore, back] :
         {std::pair{QPalette::WindowText, QPalette::Window}, std::pair{QPalette::Text, QPalette::Base},
          std::pair{QPalette::ButtonText, QPalette::Button},
          std::pair{QPalette::HighlightedText, QPalette::Highlight}}) {
        const double contrast = dark.color(fore).lightnessF() - dark.color(back).lightnessF();
        QVERIFY2(contrast > 0.5, qPrintable(QStringLiteral("role %1 on %2: %3").arg(fore).arg(back).arg(contrast)));
    }
    QVERIFY(dark.color(QPalette::Disabled, QPalette::Text) != dark.color(QPalette::Active, QPalette::Text));
    QVERIFY(dark.color(QPalette::Highlight) != dark.color(QPalette::Base));
    // Asked light on that light desktop: the desktop's own, unchanged.
    QVERIFY(Gui::schemePalette(false, standard, standard) == standard);
}

void tst_ColorScheme::aCheckBoxShowsItsBoxOnTheDarkPalette()
{
    const QPalette standard = QApplication::style()->standardPalette();
    const QPalette dark = Gui::schemePalette(true, standard, standard);
    // Drawn as Fusion draws it, the middle of an unchecked box against the window beside it.
    const auto boxContrast = [](const QPalette &palette) {
        QCheckBox box(QStringLiteral("Match case"));
        box.setPalette(palette);
        box.resize(box.sizeHint());
        const QImage image = box.grab().toImage();
        QStyleOptionButton option;
        option.initFrom(&box);
        const QRect indicator = box.style()->subElementRect(QStyle::SE_CheckBoxIndicator, &option, &box);
        const QColor inside = image.pixelColor(indicator.center());
        const QColor window = palette.color(QPalette::Window);
        return std::abs(inside.lightnessF() - window.lightnessF());
    };
    const double before = boxContrast(dark);
    const double after = boxContrast(Gui::indicatorPalette(dark));
    qInfo("check box against the window, dark palette: %.3f, with indicatorPalette: %.3f", before, after);
    QVERIFY2(after > 0.12, qPrintable(QStringLiteral("box %1 against the window (was %2)").arg(after).arg(before)));
    QVERIFY(after > before);
    // Light: nothing to change.
    QVERIFY(Gui::indicatorPalette(standard) == standard);
}

void tst_ColorScheme::desktopPaletteKeptWhenAlreadyAsAsked()
{
    // A desktop whose platform theme is dark already (KDE's, a dark GTK theme): kept as it is,
    // its own colours, not ours.
    QPalette desktopDark(QColor(20, 40, 30), QColor(10, 30, 20));
    QVERIFY(Gui::isDark(desktopDark));
    const QPalette standard = QApplication::style()->standardPalette();
    QVERIFY(Gui::schemePalette(true, desktopDark, standard) == desktopDark);
    // Asked light there: the style's standard light palette.
    const QPalette light = Gui::schemePalette(false, desktopDark, standard);
    QVERIFY(!Gui::isDark(light));
    QVERIFY(light == standard);
}

QTEST_MAIN(tst_ColorScheme)
#include "tst_colorscheme.moc"
