// The Providers page's endpoints, driven as a person drives them (issue 14): Add… by clicks and
// by the keyboard, the base URL typed, a key stored under the endpoint's id, Rename… (the id and
// the key stay), the endpoint picked from the list again, Test connection passing against the
// local provider on loopback (which requires that key), Remove confirmed (both keys leave the
// SecretStore, the local engine is in use again) or cancelled. Built-ins cannot be renamed or
// removed; a taken name is refused in the dialog; a keychain that refuses keeps the endpoint.
#include "support/localproviderfixture.h"
#include "support/settingsdialogsuite.h"
#include "gui/settings/endpointdialog.h"
#include "prefetch/connectiontest.h"

#include <QApplication>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QNetworkAccessManager>
#include <QPushButton>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTest>

#include <memory>

using Gui::AppSettings;
using Gui::EndpointDialog;
using Gui::SecretStore;
using Gui::SettingsDialog;

namespace {

const QString Key = QStringLiteral("sk-lab-0123456789");
const QString PrefetchKey = QStringLiteral("sk-lab-prefetch-42");

} // namespace

class tst_SettingsEndpoints : public QObject, private TestSupport::SettingsDialogSuite
{
    Q_OBJECT

private slots:
    void initTestCase();
    void cleanup();

    void addRenameSelectTestAndRemove();
    void anthropicEndpointFromTheKeyboardOnly();
    void builtinsCanBeNeitherRenamedNorRemoved();
    void aTakenNameIsRefusedAndCancelChangesNothing();
    void removalCancelledOrRefusedKeepsTheEndpoint();

private:
    // The dialog on `settings`, with Test connection on the suite's network.
    void openDialog(const AppSettings &settings);
    // The Add or Rename dialog once it is open and active; null if it never opened.
    void waitForEndpointDialog(EndpointDialog *&dialog);
    QString keyEntry(const QString &id, const char *which) const
    {
        return QStringLiteral("provider/%1/%2").arg(id, QLatin1String(which));
    }
    QString urlOfLocalProvider() const { return m_local.server().apiUrl().toString(); }

    TestSupport::LocalProviderFixture m_local{u"instant", [](LocalProvider::ServerConfig &c) { c.apiKey = Key; }};
    QNetworkAccessManager m_network;
};

void tst_SettingsEndpoints::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);
    QVERIFY2(m_local.start(), qPrintable(m_local.errorString()));
}

void tst_SettingsEndpoints::cleanup()
{
    closeDialog();
}

void tst_SettingsEndpoints::openDialog(const AppSettings &settings)
{
    SettingsDialog::Services services;
    services.makeConnectionTest = [this](QObject *parent) { return new Prefetch::ConnectionTest(&m_network, parent); };
    makeDialog(settings, services);
}

void tst_SettingsEndpoints::waitForEndpointDialog(EndpointDialog *&dialog)
{
    dialog = nullptr;
    QTRY_VERIFY_WITH_TIMEOUT(m_dialog->findChild<EndpointDialog *>()
                                 && m_dialog->findChild<EndpointDialog *>()->isVisible(),
                             5000);
    dialog = m_dialog->findChild<EndpointDialog *>();
    if (!activate(dialog))
        dialog = nullptr;
}

void tst_SettingsEndpoints::addRenameSelectTestAndRemove()
{
    openDialog({});
    QVERIFY(activate(m_dialog.get()));
    auto *provider = find<QComboBox>(m_dialog.get(), "provider");
    auto *add = find<QPushButton>(m_dialog.get(), "addEndpoint");
    auto *rename = find<QPushButton>(m_dialog.get(), "renameEndpoint");
    auto *remove = find<QPushButton>(m_dialog.get(), "removeEndpoint");
    QCOMPARE(provider->currentData().toString(), QStringLiteral("local"));
    QVERIFY(add->isEnabled() && !rename->isEnabled() && !remove->isEnabled());

    // Add…: a name and the format offered first (OpenAI-compatible), Enter.
    QTest::mouseClick(add, Qt::LeftButton);
    EndpointDialog *dialog = nullptr;
    waitForEndpointDialog(dialog);
    QVERIFY(dialog);
    QVERIFY(dialog->isModal() || dialog->windowModality() != Qt::NonModal);
    auto *name = find<QLineEdit>(dialog, "endpointName");
    QVERIFY(name->hasFocus());
    QCOMPARE(find<QComboBox>(dialog, "endpointFormat")->currentText(),
             QStringLiteral("OpenAI-compatible (chat completions)"));
    QTest::keyClicks(name, QStringLiteral("  Lab box "));
    QTest::keyClick(name, Qt::Key_Return);
    QTRY_VERIFY_WITH_TIMEOUT(!m_dialog->findChild<EndpointDialog *>(), 5000); // closed and deleted
    QVERIFY(activate(m_dialog.get()));                                        // the settings window is active again

    // It is the provider in use, listed last, and its base URL is the next thing to type.
    const QString id = m_dialog->settings().providerId;
    QVERIFY2(id.startsWith(QLatin1String("custom-")), qPrintable(id));
    QCOMPARE(provider->currentText(), QStringLiteral("Lab box"));
    QCOMPARE(provider->currentData().toString(), id);
    QCOMPARE(provider->itemData(provider->count() - 1).toString(), id);
    QVERIFY(rename->isEnabled() && remove->isEnabled());
    QCOMPARE(m_changed->count(), 1);
    QCOMPARE(m_changed->constLast().constFirst().value<AppSettings>().profile(id).displayName,
             QStringLiteral("Lab box"));
    auto *baseUrl = find<QLineEdit>(m_dialog.get(), "baseUrl");
    QTRY_VERIFY_WITH_TIMEOUT(baseUrl->hasFocus(), 5000);
    QTest::keyClicks(baseUrl, urlOfLocalProvider());
    QTest::keyClick(baseUrl, Qt::Key_Tab);
    QCOMPARE(m_dialog->settings().profile(id).baseUrl, m_local.server().apiUrl());
    auto *model = find<QLineEdit>(m_dialog.get(), "modelEdit");
    model->setFocus();
    QTest::keyClicks(model, QStringLiteral("headstart-local"));
    QTest::keyClick(model, Qt::Key_Tab);
    QCOMPARE(m_dialog->settings().profile(id).model, QStringLiteral("headstart-local"));
    // The keys, stored under the endpoint's id.
    auto *apiKey = find<QLineEdit>(m_dialog.get(), "apiKey");
    auto *prefetchKey = find<QLineEdit>(m_dialog.get(), "prefetchKey");
    QTRY_COMPARE_WITH_TIMEOUT(apiKey->placeholderText(), QStringLiteral("Not set"), 5000);
    apiKey->setFocus();
    QTest::keyClicks(apiKey, Key);
    QTest::keyClick(apiKey, Qt::Key_Tab);
    QTest::keyClicks(prefetchKey, PrefetchKey);
    QTest::keyClick(prefetchKey, Qt::Key_Tab);
    QTRY_COMPARE_WITH_TIMEOUT(m_secrets->entries().value(keyEntry(id, "api-key")), Key, 5000);
    QTRY_COMPARE_WITH_TIMEOUT(m_secrets->entries().value(keyEntry(id, "prefetch-key")), PrefetchKey, 5000);

    // Rename…: the name is filled in and selected; typing replaces it.
    QTest::mouseClick(rename, Qt::LeftButton);
    waitForEndpointDialog(dialog);
    QVERIFY(dialog);
    name = find<QLineEdit>(dialog, "endpointName");
    QCOMPARE(name->text(), QStringLiteral("Lab box"));
    QCOMPARE(name->selectedText(), QStringLiteral("Lab box"));
    QVERIFY(!dialog->findChild<QComboBox *>()); // the format stays what it is
    QTest::keyClicks(name, QStringLiteral("Lab vLLM"));
    QTest::keyClick(name, Qt::Key_Return);
    QTRY_VERIFY_WITH_TIMEOUT(!m_dialog->findChild<EndpointDialog *>(), 5000);
    QCOMPARE(m_dialog->settings().providerId, id); // the same id
    QCOMPARE(provider->currentText(), QStringLiteral("Lab vLLM"));
    QCOMPARE(m_changed->constLast().constFirst().value<AppSettings>().profile(id).displayName,
             QStringLiteral("Lab vLLM"));
    QCOMPARE(m_dialog->settings().profile(id).baseUrl, m_local.server().apiUrl());
    QCOMPARE(m_secrets->entries().value(keyEntry(id, "api-key")), Key);
    QCOMPARE(find<QLabel>(m_dialog.get(), "providerNote")->text(),
             QStringLiteral("Text you send goes to Lab vLLM at 127.0.0.1."));

    // Picked again from the list: away to the local engine, back with End (the last entry).
    provider->setFocus();
    QTest::keyClick(provider, Qt::Key_Home);
    QCOMPARE(m_dialog->settings().providerId, QStringLiteral("local"));
    QVERIFY(!rename->isEnabled() && !remove->isEnabled());
    QTest::keyClick(provider, Qt::Key_End);
    QCOMPARE(m_dialog->settings().providerId, id);
    // Its key comes back from the store, under the id it always had.
    QTRY_COMPARE_WITH_TIMEOUT(apiKey->text(), Key, 5000);
    QCOMPARE(prefetchKey->text(), PrefetchKey);

    // Test connection: the local provider refuses every request without that key.
    auto *test = find<QPushButton>(m_dialog.get(), "testConnection");
    auto *result = find<QLabel>(m_dialog.get(), "testResult");
    QTest::mouseClick(test, Qt::LeftButton);
    QCOMPARE(result->text(), QStringLiteral("Testing Lab vLLM…"));
    QTRY_VERIFY_WITH_TIMEOUT(result->text().startsWith(QLatin1String("Connected")), 10000);

    // Remove, confirmed: the keys leave the store, the local engine is in use again.
    const int before = static_cast<int>(m_changed->count());
    QTest::mouseClick(remove, Qt::LeftButton);
    QMessageBox *box = nullptr;
    QTRY_VERIFY_WITH_TIMEOUT((box = m_dialog->findChild<QMessageBox *>(QStringLiteral("removeEndpointConfirmation")))
                                 && box->isVisible(),
                             5000);
    QVERIFY(box->text().contains(QLatin1String("Remove \"Lab vLLM\"")));
    QCOMPARE(box->defaultButton(), box->button(QMessageBox::Cancel)); // Enter does not remove
    QTest::mouseClick(find<QPushButton>(box, "confirmRemoveEndpoint"), Qt::LeftButton);
    QTRY_VERIFY_WITH_TIMEOUT(!m_secrets->entries().contains(keyEntry(id, "api-key")), 5000);
    QVERIFY(!m_secrets->entries().contains(keyEntry(id, "prefetch-key")));
    QTRY_COMPARE_WITH_TIMEOUT(m_dialog->settings().providerId, QStringLiteral("local"), 5000);
    QVERIFY(!m_dialog->settings().endpoints.contains(id));
    QVERIFY(!m_dialog->settings().providers.contains(id));
    QCOMPARE(provider->findData(id), -1);
    QCOMPARE(provider->currentData().toString(), QStringLiteral("local"));
    QCOMPARE(find<QLabel>(m_dialog.get(), "keyStatus")->text(), QStringLiteral("Lab vLLM was removed with its keys."));
    QCOMPARE(m_changed->count(), before + 1);
    const AppSettings announced = m_changed->constLast().constFirst().value<AppSettings>();
    QVERIFY(announced == m_dialog->settings());
    QVERIFY(announced.endpoints.contains(QStringLiteral("custom"))); // the other endpoint stays
}

void tst_SettingsEndpoints::anthropicEndpointFromTheKeyboardOnly()
{
    AppSettings s;
    s.providerId = QStringLiteral("deepseek");
    openDialog(s);
    QVERIFY(activate(m_dialog.get()));
    auto *provider = find<QComboBox>(m_dialog.get(), "provider");
    provider->setFocus();
    // Tab from the list reaches Add…; Space presses it.
    QTest::keyClick(provider, Qt::Key_Tab);
    QCOMPARE(QApplication::focusWidget()->objectName(), QStringLiteral("addEndpoint"));
    QTest::keyClick(QApplication::focusWidget(), Qt::Key_Space);
    EndpointDialog *dialog = nullptr;
    waitForEndpointDialog(dialog);
    QVERIFY(dialog);
    QTest::keyClicks(QApplication::focusWidget(), QStringLiteral("Company gateway"));
    QTest::keyClick(QApplication::focusWidget(), Qt::Key_Tab);
    auto *format = find<QComboBox>(dialog, "endpointFormat");
    QCOMPARE(QApplication::focusWidget(), format);
    QTest::keyClick(format, Qt::Key_Down);
    QCOMPARE(format->currentText(), QStringLiteral("Anthropic-compatible (messages)"));
    QTest::keyClick(format, Qt::Key_Return);
    QTRY_VERIFY_WITH_TIMEOUT(!m_dialog->findChild<EndpointDialog *>(), 5000);
    QVERIFY(activate(m_dialog.get()));

    const QString id = m_dialog->settings().providerId;
    QVERIFY(m_dialog->settings().endpoints.contains(id));
    QCOMPARE(m_dialog->settings().profile(id).format, Llm::ApiFormat::AnthropicMessages);
    QTRY_VERIFY_WITH_TIMEOUT(QApplication::focusWidget() == find<QLineEdit>(m_dialog.get(), "baseUrl"), 5000);
    QTest::keyClicks(QApplication::focusWidget(), urlOfLocalProvider());
    // Tab on through the form to the key field, typing where it is due.
    QTest::keyClick(QApplication::focusWidget(), Qt::Key_Tab);
    QCOMPARE(QApplication::focusWidget()->objectName(), QStringLiteral("model")); // the picker, typed into
    QTest::keyClicks(QApplication::focusWidget(), QStringLiteral("headstart-local"));
    while (QApplication::focusWidget()->objectName() != QLatin1String("apiKey"))
        QTest::keyClick(QApplication::focusWidget(), Qt::Key_Tab);
    QTest::keyClicks(QApplication::focusWidget(), Key);
    while (QApplication::focusWidget()->objectName() != QLatin1String("testConnection"))
        QTest::keyClick(QApplication::focusWidget(), Qt::Key_Tab);
    QCOMPARE(m_dialog->settings().profile(id).endpoint().path(), QStringLiteral("/v1/messages"));
    QTest::keyClick(QApplication::focusWidget(), Qt::Key_Space);
    auto *result = find<QLabel>(m_dialog.get(), "testResult");
    QTRY_VERIFY_WITH_TIMEOUT(result->text().startsWith(QLatin1String("Connected")), 10000);
    QCOMPARE(m_secrets->entries().value(keyEntry(id, "api-key")), Key);
}

void tst_SettingsEndpoints::builtinsCanBeNeitherRenamedNorRemoved()
{
    openDialog({});
    m_dialog->show();
    auto *provider = find<QComboBox>(m_dialog.get(), "provider");
    auto *add = find<QPushButton>(m_dialog.get(), "addEndpoint");
    auto *rename = find<QPushButton>(m_dialog.get(), "renameEndpoint");
    auto *remove = find<QPushButton>(m_dialog.get(), "removeEndpoint");
    int builtins = 0;
    int endpoints = 0;
    for (int i = 0; i < provider->count(); ++i) {
        const QString id = provider->itemData(i).toString();
        if (id.isEmpty())
            continue; // the line between built-ins and endpoints
        provider->setCurrentIndex(i);
        QCOMPARE(m_dialog->settings().providerId, id);
        const bool endpoint = m_dialog->settings().endpoints.contains(id);
        QVERIFY2(add->isEnabled(), qPrintable(id));
        QVERIFY2(rename->isEnabled() == endpoint && remove->isEnabled() == endpoint, qPrintable(id));
        ++(endpoint ? endpoints : builtins);
    }
    QCOMPARE(builtins, 7);
    QCOMPARE(endpoints, 1); // "custom", an endpoint now
}

void tst_SettingsEndpoints::aTakenNameIsRefusedAndCancelChangesNothing()
{
    openDialog({});
    QVERIFY(activate(m_dialog.get()));
    QTest::mouseClick(find<QPushButton>(m_dialog.get(), "addEndpoint"), Qt::LeftButton);
    EndpointDialog *dialog = nullptr;
    waitForEndpointDialog(dialog);
    QVERIFY(dialog);
    auto *name = find<QLineEdit>(dialog, "endpointName");
    auto *error = find<QLabel>(dialog, "endpointNameError");
    QPushButton *ok = find<QDialogButtonBox>(dialog, "")->button(QDialogButtonBox::Ok);
    QVERIFY(!ok->isEnabled()); // nothing typed yet, and nothing pointed out
    QVERIFY(error->isHidden());
    QTest::keyClicks(name, QStringLiteral("deepseek"));
    QVERIFY(!ok->isEnabled());
    QCOMPARE(error->text(), QStringLiteral("A built-in provider is called \"DeepSeek\"."));
    QVERIFY(error->isVisible());
    QTest::keyClick(name, Qt::Key_Return); // refused: OK is off
    QVERIFY(dialog->isVisible());
    name->clear();
    QTest::keyClicks(name, QStringLiteral("CUSTOM (openai-compatible)"));
    QCOMPARE(error->text(), QStringLiteral("Another endpoint is called \"Custom (OpenAI-compatible)\"."));
    name->clear();
    QTest::keyClicks(name, QStringLiteral("Fine name"));
    QVERIFY(ok->isEnabled());
    QVERIFY(error->isHidden());
    QTest::keyClick(name, Qt::Key_Escape);
    QTRY_VERIFY_WITH_TIMEOUT(!m_dialog->findChild<EndpointDialog *>(), 5000);
    QCOMPARE(m_changed->count(), 0);
    QCOMPARE(m_dialog->settings().endpoints.list().size(), 1);
}

void tst_SettingsEndpoints::removalCancelledOrRefusedKeepsTheEndpoint()
{
    AppSettings s;
    const auto id = s.endpoints.add(QStringLiteral("OpenRouter"), Llm::ApiFormat::OpenAiChat);
    QVERIFY(id);
    s.providerId = *id;
    m_secrets->write(*id, SecretStore::Secret::ApiKey, Key, nullptr, {});
    openDialog(s);
    QVERIFY(activate(m_dialog.get()));
    auto *remove = find<QPushButton>(m_dialog.get(), "removeEndpoint");

    // Cancelled with Escape (the default button is Cancel, too).
    QTest::mouseClick(remove, Qt::LeftButton);
    QMessageBox *box = nullptr;
    QTRY_VERIFY_WITH_TIMEOUT((box = m_dialog->findChild<QMessageBox *>()) && box->isVisible(), 5000);
    QVERIFY(activate(box));
    QTest::keyClick(box, Qt::Key_Escape);
    QTRY_VERIFY_WITH_TIMEOUT(!m_dialog->findChild<QMessageBox *>(), 5000);
    QVERIFY(m_dialog->settings().endpoints.contains(*id));
    QCOMPARE(m_secrets->entries().value(keyEntry(*id, "api-key")), Key);
    QCOMPARE(m_changed->count(), 0);

    // Confirmed, but the keychain refuses: the endpoint stays, with its key, and says why.
    m_secrets->setFailure(QStringLiteral("The keychain is locked."));
    QTest::mouseClick(remove, Qt::LeftButton);
    QTRY_VERIFY_WITH_TIMEOUT((box = m_dialog->findChild<QMessageBox *>()) && box->isVisible(), 5000);
    QTest::mouseClick(find<QPushButton>(box, "confirmRemoveEndpoint"), Qt::LeftButton);
    auto *status = find<QLabel>(m_dialog.get(), "keyStatus");
    QTRY_COMPARE_WITH_TIMEOUT(status->text(),
                              QStringLiteral(
                                  "OpenRouter was kept: its keys could not be removed from the keychain: The "
                                  "keychain is locked."),
                              5000);
    QVERIFY(m_dialog->settings().endpoints.contains(*id));
    QCOMPARE(m_dialog->settings().providerId, *id);
    QCOMPARE(m_secrets->entries().value(keyEntry(*id, "api-key")), Key);
    QCOMPARE(m_changed->count(), 0);
    QVERIFY(remove->isEnabled()); // it can be tried again
}

QTEST_MAIN(tst_SettingsEndpoints)
#include "tst_settingsendpoints.moc"
