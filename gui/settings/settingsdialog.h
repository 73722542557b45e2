#pragma once

#include "workspace/settings/appsettings.h"
#include "workspace/settings/prefetchparameters.h"
#include "workspace/settings/secretstore.h"

#include <QDialog>
#include <QPointer>
#include <QTimer>

#include <functional>
#include <vector>

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QGroupBox;
class QLabel;
class QLineEdit;
class QNetworkAccessManager;
class QPlainTextEdit;
class QPushButton;
class QSpinBox;
class QTabWidget;

namespace Prefetch { class ConnectionTest; }

namespace Gui {

class EndpointButtons;
class AssistantsPage;
class LibraryPage;
class NetworkPage;
class PriceEditor;
class ModelPicker;
class ThinkingEditor;
class CacheLifetimeBox;
class TimeoutsEditor;

// Settings: providers (profile fields, API keys, timeouts, Test connection), prefetch (every
// strategy and parameter, consent for cloud providers), general (language, Translate's target),
// network (the proxy) and library (the knowledge base's folders).
//
// Every edit applies at once: the dialog emits settingsChanged() with the whole new value
// (text fields after a short pause in typing), and the owner persists it and hands it to the
// services; the dialog owns no QSettings. Keys go to the SecretStore only, never into the
// settings. It holds no network code: Test connection runs through the factory it is given.
class SettingsDialog : public QDialog
{
    Q_OBJECT

public:
    using ConnectionTestFactory = std::function<Prefetch::ConnectionTest *(QObject *parent)>;
    // Completes a profile with what only the app knows (the local engine's address) before a
    // connection test.
    using ProfileResolver = std::function<Llm::ProviderProfile(Llm::ProviderProfile)>;

    struct Services {
        SecretStore *secrets = nullptr;            // required; must outlive the dialog
        ConnectionTestFactory makeConnectionTest;  // empty: the Test button is hidden
        ProfileResolver resolveProfile;            // empty: profiles as AppSettings gives them
        QNetworkAccessManager *network = nullptr;  // for model lists; empty: no Load list button
    };

    enum class Page { Providers, Prefetch, General, Network, Library, Assistants };

    SettingsDialog(const AppSettings &settings, Services services, QWidget *parent = nullptr);
    ~SettingsDialog() override;

    const AppSettings &settings() const { return m_settings; }
    // Replaces what the dialog shows (the settings changed elsewhere); emits nothing.
    void setSettings(const AppSettings &settings);
    // The user answered the consent bar while the dialog is open; emits nothing.
    void setPrefetchConsent(const QString &providerId, bool allowed);
    void showPage(Page page);
    // Applies text fields and keys still waiting for a pause in typing (also done on close).
    void commitPendingEdits();

    // How long typing must pause before a text field or key applies.
    static constexpr int TextDebounceMs = 500;
    static constexpr int KeyDebounceMs = 1000;

signals:
    void settingsChanged(const Gui::AppSettings &settings);
    // A key of `providerId` was saved to or removed from the SecretStore by this dialog. Only
    // while the dialog lives: SecretStore::secretWritten() is the signal to rely on.
    void keysChanged(const QString &providerId);

protected:
    void done(int result) override;

private:
    struct ParameterControl {
        const PrefetchParameter *parameter;
        QWidget *widget; // QGroupBox (a strategy's switch), QCheckBox, QSpinBox or QDoubleSpinBox
    };
    struct KeyField {
        SecretStore::Secret secret;
        QLineEdit *edit = nullptr;
        bool dirty = false; // typed since loaded or saved
    };

    QWidget *createProvidersPage();
    QWidget *createPrefetchPage();
    QWidget *createGeneralPage();
    QWidget *createParameterGroup(PrefetchParameter::Group group, const QString &title, QWidget *parent);
    QWidget *createParameterControl(const PrefetchParameter &p, QWidget *parent);

    void refreshAll();
    void refreshProvider();
    void refreshProviderNote();
    void refreshKeyStorage();
    void refreshConsent();
    void refreshInsecureHttp();
    void refreshMoneyUnit();
    void refreshPrefetch();
    void refreshGeneral();
    void loadKeys();

    void onProviderSelected(int index);
    void fillProviderList();
    void addEndpoint(const QString &name, Llm::ApiFormat format);
    void renameEndpoint(const QString &id, const QString &name);
    void removeEndpoint(const QString &id);
    void applyTextFields();
    void applyParameter(const PrefetchParameter &p, double displayValue);
    void applyTranslateTarget();
    void applyLaneLimits();
    void saveKeys();
    void restorePrefetchDefaults();
    void toggleConnectionTest();
    void onTestFinished(double ttftMs, bool modelAnswered);
    void onTestFailed(const Llm::Error &error);
    void setTestRunning(bool running);
    void emitIfChanged();
    QString currentProviderId() const;

    AppSettings m_settings;
    AppSettings m_emitted; // the last value announced, so an edit that changes nothing stays quiet
    Services m_services;
    QPointer<Prefetch::ConnectionTest> m_test;
    QTimer m_textTimer;
    QTimer m_keyTimer;
    int m_keyGeneration = 0; // ignores key reads that answer after the provider changed

    QTabWidget *m_tabs = nullptr;
    // Providers
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
    KeyField m_apiKey{SecretStore::Secret::ApiKey};
    KeyField m_prefetchKey{SecretStore::Secret::PrefetchKey};
    KeyField m_moreKeys{SecretStore::Secret::MoreApiKeys};
    QCheckBox *m_showKeys = nullptr;
    QLabel *m_keyStorageIcon = nullptr;
    QLabel *m_keyStorage = nullptr;
    QLabel *m_keyStatus = nullptr;
    QPushButton *m_testButton = nullptr;
    QLabel *m_testResult = nullptr;
    PriceEditor *m_prices = nullptr;
    ThinkingEditor *m_thinking = nullptr;
    CacheLifetimeBox *m_cacheLifetime = nullptr;
    TimeoutsEditor *m_timeouts = nullptr;
    // Prefetch
    QLabel *m_consentNote = nullptr;
    QCheckBox *m_consent = nullptr;
    std::vector<ParameterControl> m_parameters;
    // General
    QComboBox *m_language = nullptr;
    QComboBox *m_translateTarget = nullptr;
    QComboBox *m_logDetail = nullptr;
    QSpinBox *m_textSize = nullptr;
    QComboBox *m_colorScheme = nullptr;
    // Network
    NetworkPage *m_network = nullptr;
    // Library
    LibraryPage *m_library = nullptr;
    AssistantsPage *m_assistants = nullptr;
};

} // namespace Gui
