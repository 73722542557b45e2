#pragma once

#include "workspace/settings/appsettings.h"
#include "workspace/settings/secretstore.h"

#include <QCoreApplication>
#include <QPointer>
#include <QScrollArea>
#include <QTimer>

#include <functional>

class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QPushButton;
class QNetworkAccessManager;
class QSpinBox;

namespace Llm {
class Error;
}
namespace Prefetch {
class ConnectionTest;
}

namespace Gui {

class CacheLifetimeBox;
class EndpointButtons;
class ModelPicker;
class PriceEditor;
class ProviderKeys;
class ThinkingEditor;
class TimeoutsEditor;

// The settings dialog's Providers page: the provider in use and the user's endpoints (added,
// renamed, removed with their keys), the chosen provider's fields (base URL, models, extra
// headers, concurrency, thinking, cache lifetime, timeouts, prices, plain http:// where allowed),
// its keys (ProviderKeys) and Test connection. Edits go straight into the dialog's AppSettings,
// text fields after a pause in typing, and each is reported through Hooks::edited.
//
// No Q_OBJECT, hence hooks rather than signals: its strings stay in the dialog's translation
// context (Gui::SettingsDialog), where the catalogue has them. GUI thread.
class ProvidersPage : public QScrollArea
{
    Q_DECLARE_TR_FUNCTIONS(Gui::SettingsDialog)

public:
    using ConnectionTestFactory = std::function<Prefetch::ConnectionTest *(QObject *parent)>;
    using ProfileResolver = std::function<Llm::ProviderProfile(Llm::ProviderProfile)>;

    // What the page needs from the app (SettingsDialog::Services).
    struct Services {
        SecretStore *secrets = nullptr;           // required; must outlive the page
        ConnectionTestFactory makeConnectionTest; // empty: the Test button is hidden
        ProfileResolver resolveProfile;           // empty: profiles as AppSettings gives them
        QNetworkAccessManager *network = nullptr; // for model lists; empty: no Load list button
    };
    struct Hooks {
        std::function<void()> edited;                     // the settings may have changed
        std::function<void()> providerChanged;            // another provider is in use
        std::function<void()> consentChanged;             // the one in use moved to or from this machine
        std::function<void(const QString &)> keysChanged; // a key of that provider was saved or removed
    };

    // `settings` is the dialog's and must outlive the page.
    ProvidersPage(AppSettings &settings, Services services, Hooks hooks, int textDebounceMs, int keyDebounceMs,
                  QWidget *parent = nullptr);

    // Shows what the settings hold now, dropping text typed and not applied yet; reports nothing.
    void showSettings();
    // Applies the text fields and saves the keys still waiting for a pause in typing.
    void commitPendingEdits();
    void cancelConnectionTest();

private:
    QString currentProviderId() const { return m_settings.providerId; }
    void onProviderSelected(int index);
    void refreshProvider();
    void refreshProviderNote();
    void refreshInsecureHttp();
    void applyTextFields();

    // The provider list and the user's endpoints.
    void fillProviderList();
    void addEndpoint(const QString &name, Llm::ApiFormat format);
    void renameEndpoint(const QString &id, const QString &name);
    void removeEndpoint(const QString &id);

    void toggleConnectionTest();
    void onTestFinished(double ttftMs, bool modelAnswered);
    void onTestFailed(const Llm::Error &error);
    void setTestRunning(bool running);

    AppSettings &m_settings;
    Services m_services;
    Hooks m_hooks;
    QTimer m_textTimer;
    QPointer<Prefetch::ConnectionTest> m_test;

    QComboBox *m_provider = nullptr;
    EndpointButtons *m_endpointButtons = nullptr;
    QLabel *m_providerNote = nullptr;
    QLineEdit *m_baseUrl = nullptr;
    QLabel *m_baseUrlError = nullptr;
    QLabel *m_insecureWarning = nullptr; // plain http:// to another machine
    QCheckBox *m_allowInsecureHttp = nullptr;
    ModelPicker *m_modelPicker = nullptr;
    QLineEdit *m_model = nullptr; // the picker's editor
    QLineEdit *m_fastModel = nullptr;
    QPlainTextEdit *m_headers = nullptr;
    QLabel *m_headersError = nullptr;
    QSpinBox *m_concurrency = nullptr;
    ThinkingEditor *m_thinking = nullptr;
    CacheLifetimeBox *m_cacheLifetime = nullptr;
    ProviderKeys *m_keys = nullptr;
    QPushButton *m_testButton = nullptr;
    QLabel *m_testResult = nullptr;
    TimeoutsEditor *m_timeouts = nullptr;
    PriceEditor *m_prices = nullptr;
};

} // namespace Gui
