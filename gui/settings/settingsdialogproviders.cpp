// SettingsDialog: the Providers page (profile, key, endpoint, limits, prices, timeouts) and its
// connection test. The dialog itself is built in settingsdialog.cpp.
#include "gui/settings/settingsdialog.h"
#include "gui/settings/settingsdialogwidgets.h"

#include "gui/settings/cachelifetimebox.h"
#include "gui/settings/endpointbuttons.h"
#include "gui/settings/priceeditor.h"
#include "gui/settings/modelpicker.h"
#include "gui/settings/thinkingeditor.h"
#include "gui/settings/timeoutseditor.h"

#include "prefetch/connectiontest.h"

#include <QCheckBox>
#include <QComboBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QScrollArea>
#include <QSignalBlocker>
#include <QSpinBox>
#include <QStyle>

#include <algorithm>
#include <cmath>

namespace Gui {

using namespace SettingsPages;

using Unit = PrefetchParameter::Unit;

// ---- Providers -------------------------------------------------------------------------------

QWidget *SettingsDialog::createProvidersPage()
{
    auto *scroll = scrollable(this);
    auto *page = new QWidget(scroll);
    auto *form = new QFormLayout(page);
    form->setRowWrapPolicy(QFormLayout::WrapLongRows);

    m_provider = new QComboBox(page);
    m_provider->setObjectName(QStringLiteral("provider"));
    m_provider->setAccessibleName(tr("Provider in use"));
    auto *providerLabel = new QLabel(tr("Provider &in use:"), page);
    providerLabel->setBuddy(m_provider);
    m_endpointButtons = new EndpointButtons(page);
    // The buttons under the list, not beside it: beside, they left the list too narrow to show
    // a provider's name whole.
    form->addRow(providerLabel, m_provider);
    form->addRow(QString(), m_endpointButtons);
    connect(m_provider, &QComboBox::currentIndexChanged, this, &SettingsDialog::onProviderSelected);
    connect(m_endpointButtons, &EndpointButtons::addAccepted, this, &SettingsDialog::addEndpoint);
    connect(m_endpointButtons, &EndpointButtons::renameAccepted, this, &SettingsDialog::renameEndpoint);
    connect(m_endpointButtons, &EndpointButtons::removeConfirmed, this, &SettingsDialog::removeEndpoint);

    m_providerNote = wrappingLabel(page);
    m_providerNote->setObjectName(QStringLiteral("providerNote"));
    form->addRow(m_providerNote);

    m_baseUrl = new QLineEdit(page);
    m_baseUrl->setObjectName(QStringLiteral("baseUrl"));
    m_baseUrl->setAccessibleName(tr("Base URL"));
    m_baseUrl->setToolTip(tr("Up to and including the version segment, e.g. https://api.deepseek.com/v1. "
                             "Empty: the provider's default."));
    auto *baseUrlLabel = new QLabel(tr("Base &URL:"), page);
    baseUrlLabel->setBuddy(m_baseUrl);
    form->addRow(baseUrlLabel, m_baseUrl);
    m_baseUrlError = wrappingLabel(page);
    m_baseUrlError->setObjectName(QStringLiteral("baseUrlError"));
    m_baseUrlError->hide();
    form->addRow(QString(), m_baseUrlError);
    // Only for a URL that needs it (refreshInsecureHttp), so https providers keep a short form.
    m_insecureWarning = wrappingLabel(page);
    m_insecureWarning->setObjectName(QStringLiteral("insecureHttpWarning"));
    form->addRow(QString(), m_insecureWarning);
    m_allowInsecureHttp = new QCheckBox(tr("Allow unencrypted &HTTP to this address"), page);
    m_allowInsecureHttp->setObjectName(QStringLiteral("allowInsecureHttp"));
    connect(m_allowInsecureHttp, &QCheckBox::toggled, this, [this](bool allow) {
        m_settings.setAllowInsecureHttp(currentProviderId(), allow);
        refreshInsecureHttp();
        emitIfChanged();
    });
    form->addRow(QString(), m_allowInsecureHttp);

    m_modelPicker = new ModelPicker(page);
    m_modelPicker->setNetwork(m_services.network);
    m_model = m_modelPicker->lineEdit();
    m_model->setAccessibleName(tr("Model"));
    m_modelPicker->comboBox()->setAccessibleName(tr("Model"));
    m_model->setMaxLength(static_cast<int>(Limits::MaxModelLength));
    auto *modelLabel = new QLabel(tr("&Model:"), page);
    modelLabel->setBuddy(m_modelPicker->comboBox());
    form->addRow(modelLabel, m_modelPicker);
    connect(m_modelPicker, &ModelPicker::listRequested, this, [this] {
        applyTextFields();
        Llm::ProviderProfile profile = m_settings.profile(currentProviderId());
        if (m_services.resolveProfile)
            profile = m_services.resolveProfile(profile);
        // The key as typed, saved or not, as the connection test uses it.
        profile.apiKey = m_apiKey.edit->text().trimmed();
        m_modelPicker->loadList(profile);
    });
    connect(m_modelPicker, &ModelPicker::modelPicked, this, &SettingsDialog::applyTextFields);

    m_fastModel = new QLineEdit(page);
    m_fastModel->setObjectName(QStringLiteral("fastModel"));
    m_fastModel->setAccessibleName(tr("Fast model"));
    m_fastModel->setMaxLength(static_cast<int>(Limits::MaxModelLength));
    m_fastModel->setToolTip(tr("A smaller, quicker model of the same provider. With Prefetch, \"Ask the model whether a "
                               "draft is complete\" on, it is the model asked. A model Headstart does not know is "
                               "priced as the main model."));
    auto *fastModelLabel = new QLabel(tr("F&ast model:"), page);
    fastModelLabel->setBuddy(m_fastModel);
    form->addRow(fastModelLabel, m_fastModel);

    m_headers = new QPlainTextEdit(page);
    m_headers->setObjectName(QStringLiteral("extraHeaders"));
    m_headers->setAccessibleName(tr("Extra headers"));
    m_headers->setTabChangesFocus(true); // Tab moves on, as in every other field of the form
    m_headers->setPlaceholderText(tr("Name: value, one per line"));
    // Four lines of the current font: a few headers fit, and the form does not become a page of them.
    m_headers->setFixedHeight(m_headers->fontMetrics().lineSpacing() * 4 + 2 * m_headers->frameWidth()
                              + static_cast<int>(2 * m_headers->document()->documentMargin()));
    m_headers->setToolTip(tr("Sent with every request, e.g. for a gateway. Stored in the settings file in plain "
                             "text: put API keys in the key fields below, which keep them in the keychain."));
    auto *headersLabel = new QLabel(tr("E&xtra headers:"), page);
    headersLabel->setBuddy(m_headers);
    form->addRow(headersLabel, m_headers);
    m_headersError = wrappingLabel(page);
    m_headersError->setObjectName(QStringLiteral("headersError"));
    m_headersError->hide();
    form->addRow(QString(), m_headersError);

    m_concurrency = new QSpinBox(page);
    m_concurrency->setObjectName(QStringLiteral("concurrencyLimit"));
    m_concurrency->setRange(Limits::MinConcurrency, Limits::MaxConcurrency);
    m_concurrency->setSuffix(suffixOf(Unit::Requests));
    m_concurrency->setAccessibleName(tr("Concurrent requests"));
    m_concurrency->setToolTip(tr("How many requests the provider accepts at once; prefetches give way to your "
                                 "requests at this limit."));
    auto *concurrencyLabel = new QLabel(tr("&Concurrent requests:"), page);
    concurrencyLabel->setBuddy(m_concurrency);
    form->addRow(concurrencyLabel, m_concurrency);

    m_thinking = new ThinkingEditor(page);
    form->addRow(QString(), m_thinking);
    connect(m_thinking, &ThinkingEditor::budgetEdited, this, [this](int budgetTokens) {
        m_settings.setThinkingBudget(currentProviderId(), budgetTokens);
        emitIfChanged();
    });

    m_cacheLifetime = new CacheLifetimeBox(page);
    form->addRow(QString(), m_cacheLifetime);
    connect(m_cacheLifetime, &QCheckBox::toggled, this, [this](bool on) {
        const QString id = currentProviderId();
        m_settings.setLongCacheLifetime(id, on);
        // The cache write price follows the lifetime.
        m_prices->showProfile(m_settings.profile(id), m_settings.baseProfile(id));
        emitIfChanged();
    });

    auto makeKeyField = [this, page, form](KeyField &field, const QString &label, const QString &accessible,
                                           const QString &toolTip, const char *objectName) {
        field.edit = new QLineEdit(page);
        field.edit->setObjectName(QLatin1String(objectName));
        field.edit->setEchoMode(QLineEdit::Password);
        field.edit->setAccessibleName(accessible);
        field.edit->setToolTip(toolTip);
        // Keys are pasted, never dictated: no completion, no input method guesses.
        field.edit->setInputMethodHints(Qt::ImhHiddenText | Qt::ImhSensitiveData | Qt::ImhNoPredictiveText);
        auto *l = new QLabel(label, page);
        l->setBuddy(field.edit);
        form->addRow(l, field.edit);
        connect(field.edit, &QLineEdit::textEdited, this, [this, &field] {
            field.dirty = true;
            m_keyTimer.start();
        });
        connect(field.edit, &QLineEdit::editingFinished, this, &SettingsDialog::saveKeys);
    };
    makeKeyField(m_apiKey, tr("API &key:"), tr("API key"),
                 tr("Stored in the system keychain, never in the settings file."), "apiKey");
    makeKeyField(m_prefetchKey, tr("Pre&fetch key:"), tr("Prefetch key"),
                 tr("Optional. Early answers use this key, so they never eat the main key's rate limit."),
                 "prefetchKey");
    makeKeyField(m_moreKeys, tr("M&ore keys:"), tr("More API keys"),
                 tr("Optional. More keys of this provider, separated by commas: when it refuses a key with a rate "
                    "limit (HTTP 429), the request goes again at once with the next one."),
                 "moreApiKeys");

    m_showKeys = new QCheckBox(tr("&Show keys"), page);
    m_showKeys->setObjectName(QStringLiteral("showKeys"));
    connect(m_showKeys, &QCheckBox::toggled, this, [this](bool show) {
        const auto mode = show ? QLineEdit::Normal : QLineEdit::Password;
        m_apiKey.edit->setEchoMode(mode);
        m_prefetchKey.edit->setEchoMode(mode);
        m_moreKeys.edit->setEchoMode(mode);
    });
    form->addRow(QString(), m_showKeys);

    auto *storageRow = new QHBoxLayout;
    m_keyStorageIcon = new QLabel(page);
    m_keyStorageIcon->setAlignment(Qt::AlignTop);
    m_keyStorage = wrappingLabel(page);
    m_keyStorage->setObjectName(QStringLiteral("keyStorage"));
    m_keyStorage->setTextInteractionFlags(Qt::TextSelectableByMouse);
    storageRow->addWidget(m_keyStorageIcon);
    storageRow->addWidget(m_keyStorage, 1);
    form->addRow(tr("Keys are kept in:"), storageRow);

    m_keyStatus = wrappingLabel(page);
    m_keyStatus->setObjectName(QStringLiteral("keyStatus"));
    form->addRow(QString(), m_keyStatus);

    m_testButton = new QPushButton(tr("&Test connection"), page);
    m_testButton->setObjectName(QStringLiteral("testConnection"));
    m_testButton->setToolTip(tr("Sends a one-token request and reports the time to the first token."));
    m_testButton->setAutoDefault(false);
    connect(m_testButton, &QPushButton::clicked, this, &SettingsDialog::toggleConnectionTest);
    m_testResult = wrappingLabel(page);
    m_testResult->setObjectName(QStringLiteral("testResult"));
    m_testResult->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_testResult->setAccessibleName(tr("Connection test result"));
    auto *testRow = new QHBoxLayout;
    testRow->addWidget(m_testButton, 0, Qt::AlignTop);
    testRow->addWidget(m_testResult, 1);
    form->addRow(testRow);
    if (!m_services.makeConnectionTest) {
        m_testButton->hide();
        m_testResult->hide();
    }

    m_timeouts = new TimeoutsEditor(page);
    form->addRow(m_timeouts);
    connect(m_timeouts, &TimeoutsEditor::timeoutEdited, this, [this](TimeoutField field, int seconds) {
        m_settings.setTimeout(currentProviderId(), field, seconds);
        emitIfChanged();
    });

    m_prices = new PriceEditor(page);
    form->addRow(m_prices);
    connect(m_prices, &PriceEditor::priceEdited, this, [this](PriceField field, double perMillion) {
        m_settings.setPrice(currentProviderId(), field, perMillion);
        emitIfChanged();
    });
    connect(m_prices, &PriceEditor::resetRequested, this, [this] {
        const QString id = currentProviderId();
        m_settings.setPrices(id, m_settings.baseProfile(id).prices);
        m_prices->showProfile(m_settings.profile(id), m_settings.baseProfile(id));
        emitIfChanged();
    });

    auto onText = [this] { m_textTimer.start(); };
    connect(m_baseUrl, &QLineEdit::textEdited, this, onText);
    connect(m_model, &QLineEdit::textEdited, this, onText);
    connect(m_fastModel, &QLineEdit::textEdited, this, onText);
    connect(m_headers, &QPlainTextEdit::textChanged, this, onText);
    connect(m_baseUrl, &QLineEdit::editingFinished, this, &SettingsDialog::applyTextFields);
    connect(m_model, &QLineEdit::editingFinished, this, &SettingsDialog::applyTextFields);
    connect(m_fastModel, &QLineEdit::editingFinished, this, &SettingsDialog::applyTextFields);
    connect(m_concurrency, &QSpinBox::valueChanged, this, [this](int value) {
        m_settings.setConcurrencyLimit(currentProviderId(), value);
        emitIfChanged();
    });
    setScrollPage(scroll, page);
    return scroll;
}

QString SettingsDialog::currentProviderId() const
{
    return m_settings.providerId;
}

void SettingsDialog::onProviderSelected(int index)
{
    const QString id = m_provider->itemData(index).toString();
    if (id.isEmpty() || id == m_settings.providerId)
        return;
    // What was typed belongs to the provider that was shown.
    commitPendingEdits();
    if (m_test)
        m_test->cancel();
    m_settings.providerId = id;
    refreshProvider();
    refreshConsent();
    refreshMoneyUnit();
    emitIfChanged();
}

void SettingsDialog::refreshProvider()
{
    const QString id = currentProviderId();
    const Llm::ProviderProfile builtin = m_settings.baseProfile(id);
    const Llm::ProviderProfile profile = m_settings.profile(id);

    const QSignalBlocker b1(m_provider), b2(m_baseUrl), b3(m_model), b4(m_headers), b5(m_concurrency), b6(m_fastModel);
    fillProviderList();
    m_provider->setCurrentIndex(m_provider->findData(profile.id));
    m_endpointButtons->showProvider(m_settings.endpoints, profile.id);

    refreshProviderNote();

    const bool editable = !profile.isLocalDemo;
    m_baseUrl->setEnabled(editable);
    // The local demo engine has its models too (Load list): headstart-local, the reasoning
    // headstart-local-reasoner and the fast headstart-local-small.
    m_modelPicker->setEnabled(true);
    m_modelPicker->clearList();
    m_fastModel->setEnabled(editable);
    m_headers->setEnabled(editable);
    m_concurrency->setEnabled(editable);
    if (profile.isLocalDemo) {
        const QUrl url = m_services.resolveProfile ? m_services.resolveProfile(profile).baseUrl : QUrl();
        m_baseUrl->setText(url.toString());
        m_baseUrl->setPlaceholderText(tr("Chosen by Headstart when the engine starts"));
    } else {
        const auto o = m_settings.providers.value(id);
        m_baseUrl->setText(o.baseUrl ? o.baseUrl->toString() : QString());
        m_baseUrl->setPlaceholderText(builtin.baseUrl.isEmpty() ? tr("e.g. https://example.com/v1")
                                                                : builtin.baseUrl.toString());
    }
    m_baseUrlError->hide();
    const auto o = m_settings.providers.value(id);
    m_model->setText(o.model.value_or(QString()));
    m_model->setPlaceholderText(builtin.model.isEmpty() ? tr("the model's name at the provider") : builtin.model);
    m_fastModel->setText(o.fastModel.value_or(QString()));
    m_fastModel->setPlaceholderText(builtin.fastModel.isEmpty() ? tr("none") : builtin.fastModel);
    m_headers->setPlainText(ProviderOverrides::formatHeaders(profile.extraHeaders));
    m_headersError->hide();
    m_concurrency->setValue(profile.concurrencyLimit);
    m_thinking->showProfile(profile);
    m_cacheLifetime->showProfile(profile);
    m_timeouts->showProfile(profile, builtin);
    m_prices->showProfile(profile, builtin);
    refreshInsecureHttp();

    m_testResult->clear();
    setTestRunning(false);
    loadKeys();
}

void SettingsDialog::refreshProviderNote()
{
    const Llm::ProviderProfile profile = m_settings.profile(currentProviderId());
    if (profile.isLocalDemo) {
        m_providerNote->setText(tr("The local demo engine runs inside Headstart and works offline. It is not a "
                                   "language model: it writes placeholder text with realistic timing, so every "
                                   "feature can be tried without a key or a network."));
    } else if (profile.isCloud) {
        m_providerNote->setText(tr("Text you send goes to %1 at %2.")
                                    .arg(profile.displayName,
                                         profile.baseUrl.host().isEmpty() ? tr("the base URL below")
                                                                          : profile.baseUrl.host()));
    } else {
        m_providerNote->setText(tr("%1 runs on this computer: text stays on this machine.").arg(profile.displayName));
    }
}

void SettingsDialog::loadKeys()
{
    m_keyTimer.stop();
    const int generation = ++m_keyGeneration;
    const QString id = currentProviderId();
    const bool needsNoKey = m_settings.profile(id).isLocalDemo;
    m_keyStatus->clear();
    for (KeyField *field : {&m_apiKey, &m_prefetchKey, &m_moreKeys}) {
        field->dirty = false;
        field->edit->clear();
        field->edit->setEnabled(!needsNoKey);
        if (needsNoKey) {
            field->edit->setPlaceholderText(tr("Not needed"));
            continue;
        }
        field->edit->setPlaceholderText(tr("Loading…"));
        m_services.secrets->read(id, field->secret, this,
                                 [this, field, generation](const SecretStore::ReadResult &result) {
            if (generation != m_keyGeneration)
                return; // another provider is shown by now
            field->edit->setPlaceholderText(field->secret == SecretStore::Secret::ApiKey        ? tr("Not set")
                                            : field->secret == SecretStore::Secret::PrefetchKey ? tr("Not set: prefetches use the API key")
                                                                                                : tr("None: only the API key"));
            if (!result) {
                m_keyStatus->setText(tr("Could not read the stored key: %1").arg(result.error()));
                return;
            }
            if (!field->dirty) // typed meanwhile: what the user typed wins
                field->edit->setText(field->secret == SecretStore::Secret::MoreApiKeys
                                         ? SecretStore::splitKeys(*result).join(QStringLiteral(", "))
                                         : *result);
        });
    }
    refreshKeyStorage();
}

void SettingsDialog::saveKeys()
{
    m_keyTimer.stop();
    const QString id = currentProviderId();
    for (KeyField *field : {&m_apiKey, &m_prefetchKey, &m_moreKeys}) {
        if (!field->dirty)
            continue;
        field->dirty = false;
        // More keys are stored one per line, however they were separated when typed.
        const QString value = field->secret == SecretStore::Secret::MoreApiKeys
            ? SecretStore::splitKeys(field->edit->text()).join(QLatin1Char('\n'))
            : field->edit->text().trimmed();
        const bool removing = value.isEmpty();
        m_services.secrets->write(id, field->secret, value, this,
                                  [this, id, removing](const SecretStore::WriteResult &result) {
            if (!result) {
                m_keyStatus->setText(tr("Could not save the key: %1").arg(result.error()));
                return;
            }
            m_keyStatus->setText(removing ? tr("Key removed.") : tr("Key saved."));
            emit keysChanged(id);
        });
    }
}

void SettingsDialog::refreshKeyStorage()
{
    const bool secure = m_services.secrets->isSecure();
    m_keyStorage->setText(secure ? m_services.secrets->backendDescription()
                                 : tr("%1. Start a keychain service, such as GNOME Keyring or KWallet, to keep "
                                      "keys encrypted.")
                                       .arg(m_services.secrets->backendDescription()));
    if (secure) {
        m_keyStorageIcon->clear();
        m_keyStorageIcon->hide();
    } else {
        const int size = style()->pixelMetric(QStyle::PM_SmallIconSize, nullptr, this);
        m_keyStorageIcon->setPixmap(style()->standardIcon(QStyle::SP_MessageBoxWarning, nullptr, this)
                                        .pixmap(QSize(size, size), devicePixelRatioF()));
        m_keyStorageIcon->show();
    }
    m_keyStorage->setAccessibleName(secure ? tr("Key storage") : tr("Warning: key storage is not encrypted"));
}

void SettingsDialog::applyTextFields()
{
    m_textTimer.stop();
    const QString id = currentProviderId();
    const Llm::ProviderProfile builtin = m_settings.baseProfile(id);
    const QString model = m_model->text().trimmed();
    m_settings.setModel(id, model.isEmpty() ? std::nullopt : std::optional<QString>(model));
    if (builtin.isLocalDemo) { // its address, fast model, headers and limits are its own
        emitIfChanged();
        return;
    }

    const QString urlText = m_baseUrl->text().trimmed();
    if (urlText.isEmpty()) {
        m_settings.setBaseUrl(id, std::nullopt);
        m_baseUrlError->hide();
    } else if (const auto url = ProviderOverrides::parseBaseUrl(urlText)) {
        m_settings.setBaseUrl(id, url);
        m_baseUrlError->hide();
    } else {
        // Keep the last good URL in use; say what is wrong with this one.
        m_baseUrlError->setText(tr("Enter an address starting with http:// or https://, such as %1.")
                                    .arg(builtin.baseUrl.isEmpty() ? QStringLiteral("https://example.com/v1")
                                                                   : builtin.baseUrl.toString()));
        m_baseUrlError->show();
    }

    const QString fastModel = m_fastModel->text().trimmed();
    m_settings.setFastModel(id, fastModel.isEmpty() ? std::nullopt : std::optional<QString>(fastModel));

    const auto headers = ProviderOverrides::parseHeaders(m_headers->toPlainText());
    if (headers) {
        m_settings.setExtraHeaders(id, *headers);
        m_headersError->hide();
    } else {
        m_headersError->setText(tr("Not applied: %1").arg(headers.error()));
        m_headersError->show();
    }
    if (m_settings.profile(id).isCloud != m_emitted.profile(id).isCloud)
        refreshConsent(); // a local server moved to another host, or back
    refreshProviderNote(); // it names the host
    refreshInsecureHttp();
    emitIfChanged();
}

void SettingsDialog::refreshInsecureHttp()
{
    const Llm::ProviderProfile profile = m_settings.profile(currentProviderId());
    const bool insecure = !profile.isLocalDemo && Llm::isInsecureRemote(profile.baseUrl);
    const QSignalBlocker blocker(m_allowInsecureHttp);
    m_allowInsecureHttp->setChecked(profile.allowInsecureHttp);
    // Shown while it matters, and while allowed, so that it can be taken back.
    m_allowInsecureHttp->setVisible(insecure || profile.allowInsecureHttp);
    m_insecureWarning->setVisible(insecure);
    if (!insecure)
        return;
    const QString host = profile.baseUrl.host();
    m_insecureWarning->setText(
        profile.allowInsecureHttp
            ? tr("Warning: the API key and your text go to %1 unencrypted; anyone on the network between can read "
                 "them.").arg(host)
            : tr("Warning: %1 is plain http:// to another machine, so the API key and your text would cross the "
                 "network unencrypted. Headstart sends nothing there unless you allow it below; prefer https://.")
                  .arg(host));
}

// ---- Connection test ---------------------------------------------------------------------------

void SettingsDialog::toggleConnectionTest()
{
    if (m_test && m_test->isRunning()) {
        m_test->cancel();
        return;
    }
    if (!m_services.makeConnectionTest)
        return;
    applyTextFields();
    saveKeys();
    if (!m_test) {
        m_test = m_services.makeConnectionTest(this);
        connect(m_test, &Prefetch::ConnectionTest::finished, this, &SettingsDialog::onTestFinished);
        connect(m_test, &Prefetch::ConnectionTest::failed, this, &SettingsDialog::onTestFailed);
    }
    Llm::ProviderProfile profile = m_settings.profile(currentProviderId());
    if (m_services.resolveProfile)
        profile = m_services.resolveProfile(profile);
    // The keys as typed, saved or not: testing a key before keeping it is the point.
    profile.apiKey = m_apiKey.edit->text().trimmed();
    profile.prefetchApiKey = m_prefetchKey.edit->text().trimmed();
    profile.moreApiKeys = SecretStore::splitKeys(m_moreKeys.edit->text());
    m_testResult->setText(tr("Testing %1…").arg(profile.displayName));
    setTestRunning(true);
    m_test->start(profile);
}

void SettingsDialog::onTestFinished(double ttftMs, bool modelAnswered)
{
    setTestRunning(false);
    const QString ms = QLocale().toString(std::llround(ttftMs));
    m_testResult->setText(modelAnswered
                              ? tr("Connected. First token after %1 ms.").arg(ms)
                              : tr("Connected: the provider answered after %1 ms but sent no text within one "
                                   "token (a model that thinks first needs more).")
                                    .arg(ms));
}

void SettingsDialog::onTestFailed(const Llm::Error &error)
{
    setTestRunning(false);
    m_testResult->setText(error.code() == Llm::Error::Code::Cancelled ? tr("Test cancelled.") : error.message());
}

void SettingsDialog::setTestRunning(bool running)
{
    m_testButton->setText(running ? tr("Cancel &test") : tr("&Test connection"));
}

} // namespace Gui
