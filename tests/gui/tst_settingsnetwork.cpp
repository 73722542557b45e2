// The settings dialog's timeouts (Providers page) and proxy (Network page), driven with keys
// and clicks: each edit is announced with the whole new settings, the proxy password goes to
// the secret store and never into the settings, and an incomplete proxy says so.
#include "support/settingsdialogsuite.h"
#include "workspace/settings/secretstore.h"
#include "workspace/settings/settingsfile.h"

#include <QApplication>
#include <QComboBox>
#include <QFile>
#include <QLabel>
#include <QLineEdit>
#include <QSettings>
#include <QSignalSpy>
#include <QSpinBox>
#include <QStandardPaths>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTest>

#include <memory>

using Gui::AppSettings;
using Gui::SecretStore;
using Gui::SettingsDialog;
using Gui::SettingsFile;
using Mode = Llm::ProxySettings::Mode;
using namespace std::chrono_literals;

class tst_SettingsNetwork : public QObject, private TestSupport::SettingsDialogSuite
{
    Q_OBJECT

private slots:
    void initTestCase();
    void cleanup();
    void timeoutsApplyPerProvider();
    void proxyAppliesAndItsPasswordGoesToTheStore();
    void incompleteProxySaysSo();
    void storedProxyIsShown();

private:
    QTemporaryDir m_dir;
};

void tst_SettingsNetwork::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);
    QVERIFY(m_dir.isValid());
}

void tst_SettingsNetwork::cleanup()
{
    closeDialog();
}

void tst_SettingsNetwork::timeoutsApplyPerProvider()
{
    AppSettings s;
    s.providerId = QStringLiteral("deepseek");
    makeDialog(s);
    QVERIFY(activate(m_dialog.get()));
    auto *firstByte = find<QSpinBox>("timeout/firstByte");
    QCOMPARE(firstByte->value(), 300);
    QCOMPARE(firstByte->minimum(), 5);
    QCOMPARE(firstByte->maximum(), 3600);
    QVERIFY(firstByte->toolTip().contains(QLatin1String("300 s")));

    // Its label's mnemonic leads to it; typing replaces the value.
    QTest::keyClick(m_dialog.get(), Qt::Key_Y, Qt::AltModifier);
    QTRY_COMPARE_WITH_TIMEOUT(QApplication::focusWidget(), static_cast<QWidget *>(firstByte), 2000);
    QTest::keyClick(firstByte, Qt::Key_A, Qt::ControlModifier);
    QTest::keyClicks(firstByte, QStringLiteral("1200"));
    QTest::keyClick(firstByte, Qt::Key_Tab);
    QCOMPARE(firstByte->value(), 1200);
    QVERIFY(lastEmitted().profile(QStringLiteral("deepseek")).timeouts == (Llm::Timeouts{15s, 1200s, 60s}));

    auto *idle = find<QSpinBox>("timeout/idle");
    idle->setFocus();
    QTest::keyClick(idle, Qt::Key_Up);
    QCOMPARE(lastEmitted().profile(QStringLiteral("deepseek")).timeouts.idle, 61s);

    // Another provider keeps its own; coming back shows the edited ones.
    auto *provider = find<QComboBox>("provider");
    provider->setCurrentIndex(provider->findData(QStringLiteral("openai")));
    QCOMPARE(firstByte->value(), 300);
    QVERIFY(lastEmitted().profile(QStringLiteral("openai")).timeouts == Llm::Timeouts{});
    provider->setCurrentIndex(provider->findData(QStringLiteral("deepseek")));
    QCOMPARE(firstByte->value(), 1200);
    QCOMPARE(idle->value(), 61);
}

void tst_SettingsNetwork::proxyAppliesAndItsPasswordGoesToTheStore()
{
    makeDialog({});
    QVERIFY(activate(m_dialog.get()));
    // Alt+E: the Network tab.
    QTest::keyClick(m_dialog.get(), Qt::Key_E, Qt::AltModifier);
    auto *tabs = find<QTabWidget>("pages");
    QCOMPARE(tabs->currentWidget()->objectName(), QStringLiteral("networkPage"));
    auto *mode = find<QComboBox>("proxyMode");
    auto *host = find<QLineEdit>("proxyHost");
    auto *port = find<QSpinBox>("proxyPort");
    auto *user = find<QLineEdit>("proxyUser");
    auto *password = find<QLineEdit>("proxyPassword");
    QCOMPARE(mode->currentData().toInt(), int(Mode::System));
    QVERIFY(!host->isEnabled() && !port->isEnabled() && !user->isEnabled() && !password->isEnabled());
    QCOMPARE(password->echoMode(), QLineEdit::Password);

    // System → None → HTTP with the keyboard.
    mode->setFocus();
    QTest::keyClick(mode, Qt::Key_Down);
    QCOMPARE(lastEmitted().proxy.mode, Mode::None);
    QTest::keyClick(mode, Qt::Key_Down);
    QCOMPARE(lastEmitted().proxy.mode, Mode::Http);
    QVERIFY(host->isEnabled() && password->isEnabled());

    QTest::mouseClick(host, Qt::LeftButton);
    QTest::keyClicks(host, QStringLiteral("10.0.0.1"));
    QTest::keyClick(host, Qt::Key_Tab); // editing finished: applied without waiting
    QCOMPARE(QApplication::focusWidget(), static_cast<QWidget *>(port));
    QTest::keyClick(port, Qt::Key_A, Qt::ControlModifier);
    QTest::keyClicks(port, QStringLiteral("8080"));
    QTest::keyClick(port, Qt::Key_Tab);
    QTest::keyClicks(user, QStringLiteral("ann"));
    QTest::keyClick(user, Qt::Key_Tab);
    QTest::keyClicks(password, QStringLiteral("pr0xy secret"));
    m_dialog->close(); // saves what waits for a pause in typing

    const Llm::ProxySettings expected{Mode::Http, QStringLiteral("10.0.0.1"), 8080, QStringLiteral("ann"), {}};
    QCOMPARE(lastEmitted().proxy, expected);
    QTRY_COMPARE_WITH_TIMEOUT(m_secrets->entries().value(QStringLiteral("network/proxy-password")),
                              QStringLiteral("pr0xy secret"), 5000);
    QTRY_COMPARE_WITH_TIMEOUT(find<QLabel>("proxyStatus")->text(), QStringLiteral("Proxy password saved."), 5000);

    // What the dialog announced, saved as the app saves it, holds no password.
    const QString file = m_dir.filePath(QStringLiteral("proxy.conf"));
    {
        QSettings settings(file, QSettings::IniFormat);
        SettingsFile::save(settings, lastEmitted());
    }
    QFile f(file);
    QVERIFY(f.open(QIODevice::ReadOnly));
    const QByteArray bytes = f.readAll();
    QVERIFY(bytes.contains("10.0.0.1"));
    QVERIFY(!bytes.contains("secret"));
}

void tst_SettingsNetwork::incompleteProxySaysSo()
{
    makeDialog({});
    m_dialog->showPage(SettingsDialog::Page::Network);
    QVERIFY(activate(m_dialog.get()));
    auto *problem = find<QLabel>("proxyProblem");
    QVERIFY(!problem->isVisible());
    auto *mode = find<QComboBox>("proxyMode");
    mode->setCurrentIndex(mode->findData(int(Mode::Socks5)));
    QVERIFY(problem->isVisible());
    QVERIFY2(problem->text().contains(QLatin1String("host and port")), qPrintable(problem->text()));
    auto *host = find<QLineEdit>("proxyHost");
    host->setFocus();
    QTest::keyClicks(host, QStringLiteral("socks.example.com"));
    QTest::keyClick(host, Qt::Key_Tab);
    QVERIFY(problem->isVisible()); // the port still missing
    auto *port = find<QSpinBox>("proxyPort");
    QTest::keyClick(port, Qt::Key_A, Qt::ControlModifier);
    QTest::keyClicks(port, QStringLiteral("1080"));
    QVERIFY(!problem->isVisible());
    QCOMPARE(lastEmitted().proxy.port, quint16(1080));
}

void tst_SettingsNetwork::storedProxyIsShown()
{
    QObject context;
    bool written = false;
    m_secrets->write(SecretStore::NetworkOwner, SecretStore::Secret::ProxyPassword, QStringLiteral("kept"), &context,
                     [&written](const SecretStore::WriteResult &) { written = true; });
    QTRY_VERIFY_WITH_TIMEOUT(written, 2000);
    AppSettings s;
    s.proxy = {Mode::Socks5, QStringLiteral("socks.example.com"), 1080, QStringLiteral("bob"), {}};
    makeDialog(s);
    m_dialog->showPage(SettingsDialog::Page::Network);
    QVERIFY(activate(m_dialog.get()));
    QCOMPARE(find<QComboBox>("proxyMode")->currentData().toInt(), int(Mode::Socks5));
    QCOMPARE(find<QLineEdit>("proxyHost")->text(), QStringLiteral("socks.example.com"));
    QCOMPARE(find<QSpinBox>("proxyPort")->value(), 1080);
    QCOMPARE(find<QLineEdit>("proxyUser")->text(), QStringLiteral("bob"));
    QTRY_COMPARE_WITH_TIMEOUT(find<QLineEdit>("proxyPassword")->text(), QStringLiteral("kept"), 2000);
    QCOMPARE(m_changed->count(), 0); // showing is not editing
}

QTEST_MAIN(tst_SettingsNetwork)
#include "tst_settingsnetwork.moc"
