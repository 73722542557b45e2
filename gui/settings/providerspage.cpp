#include "gui/settings/providerspage.h"

#include "gui/settings/cachelifetimebox.h"
#include "gui/settings/endpointbuttons.h"
#include "gui/settings/modelpicker.h"
#include "gui/settings/priceeditor.h"
#include "gui/settings/providerkeys.h"
#include "gui/settings/settingsdialogwidgets.h"
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
#include <QSignalBlocker>
#include <QSpinBox>

#include <cmath>
#include <iterator>
#include <memory>

namespace Gui {

using namespace SettingsPages;

using Unit = PrefetchParameter::Unit;

ProvidersPage::ProvidersPage(AppSettings &settings, Services services, Hooks hooks, int textDebounceMs,
                             int keyDebounceMs, QWidget *parent)
    : QScrollArea(parent)
    , m_settings(settings)
    , m_services(std::move(services))
    , m_hooks(std::move(hooks))
{
    Q_ASSERT(m_services.secrets);
    makeScrollable(this);
    m_textTimer.setSingleShot(true);
    m_textTimer.setInterval(textDebounceMs);
    connect(&m_textTimer, &QTimer::timeout, this, &ProvidersPage::applyTextFields);

    auto *page = new QWidget(this);
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
    connect(m_provider, &QComboBox::currentIndexChanged, this, &ProvidersPage::onProviderSelected);
    connect(m_endpointButtons, &EndpointButtons::addAccepted, this, &ProvidersPage::addEndpoint);
    connect(m_endpointButtons, &EndpointButtons::renameAccepted, this, &ProvidersPage::renameEndpoint);
    connect(m_endpointButtons, &EndpointButtons::removeConfirmed, this, &ProvidersPage::removeEndpoint);

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
        m_hooks.edited();
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
        profile.apiKey = m_keys->typed(SecretStore::Secret::ApiKey);
        m_modelPicker->loadList(profile);
    });
    connect(m_modelPicker, &ModelPicker::modelPicked, this, &ProvidersPage::applyTextFields);

    m_fastModel = new QLineEdit(page);
    m_fastModel->setObjectName(QStringLiteral("fastModel"));
    m_fastModel->setAccessibleName(tr("Fast model"));
    m_fastModel->setMaxLength(static_cast<int>(Limits::MaxModelLength));
    m_fastModel->setToolTip(
        tr("A smaller, quicker model of the same provider. With Prefetch, \"Ask the model whether a "
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
        m_hooks.edited();
    });

    m_cacheLifetime = new CacheLifetimeBox(page);
    form->addRow(QString(), m_cacheLifetime);
    connect(m_cacheLifetime, &QCheckBox::toggled, this, [this](bool on) {
        const QString id = currentProviderId();
        m_settings.setLongCacheLifetime(id, on);
        // The cache write price follows the lifetime.
        m_prices->showProfile(m_settings.profile(id), m_settings.baseProfile(id));
        m_hooks.edited();
    });

    m_keys = new ProviderKeys(m_services.secrets, keyDebounceMs, page, form, [this](const QString &id) {
        m_modelPicker->clearList(); // a list (or its "wrong key") was the old key's
        m_hooks.keysChanged(id);
    });

    m_testButton = new QPushButton(tr("&Test connection"), page);
    m_testButton->setObjectName(QStringLiteral("testConnection"));
    m_testButton->setToolTip(tr("Sends a one-token request and reports the time to the first token."));
    m_testButton->setAutoDefault(false);
    connect(m_testButton, &QPushButton::clicked, this, &ProvidersPage::toggleConnectionTest);
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
        m_hooks.edited();
    });

    m_prices = new PriceEditor(page);
    form->addRow(m_prices);
    connect(m_prices, &PriceEditor::priceEdited, this, [this](PriceField field, double perMillion) {
        m_settings.setPrice(currentProviderId(), field, perMillion);
        m_hooks.edited();
    });
    connect(m_prices, &PriceEditor::resetRequested, this, [this] {
        const QString id = currentProviderId();
        m_settings.setPrices(id, m_settings.baseProfile(id).prices);
        m_prices->showProfile(m_settings.profile(id), m_settings.baseProfile(id));
        m_hooks.edited();
    });

    auto onText = [this] { m_textTimer.start(); };
    connect(m_baseUrl, &QLineEdit::textEdited, this, onText);
    // Another address: the list loaded from the old one, or why it failed, no longer applies.
    connect(m_baseUrl, &QLineEdit::textEdited, m_modelPicker, &ModelPicker::clearList);
    connect(m_model, &QLineEdit::textEdited, this, onText);
    connect(m_fastModel, &QLineEdit::textEdited, this, onText);
    connect(m_headers, &QPlainTextEdit::textChanged, this, onText);
    connect(m_baseUrl, &QLineEdit::editingFinished, this, &ProvidersPage::applyTextFields);
    connect(m_model, &QLineEdit::editingFinished, this, &ProvidersPage::applyTextFields);
    connect(m_fastModel, &QLineEdit::editingFinished, this, &ProvidersPage::applyTextFields);
    connect(m_concurrency, &QSpinBox::valueChanged, this, [this](int value) {
        m_settings.setConcurrencyLimit(currentProviderId(), value);
        m_hooks.edited();
    });
    setScrollPage(this, page);
}

void ProvidersPage::showSettings()
{
    m_textTimer.stop();
    refreshProvider();
}

void ProvidersPage::commitPendingEdits()
{
    if (m_textTimer.isActive())
        applyTextFields();
    m_keys->save();
}

void ProvidersPage::cancelConnectionTest()
{
    if (m_test)
        m_test->cancel();
}

void ProvidersPage::onProviderSelected(int index)
{
    const QString id = m_provider->itemData(index).toString();
    if (id.isEmpty() || id == m_settings.providerId)
        return;
    // What was typed belongs to the provider that was shown.
    commitPendingEdits();
    cancelConnectionTest();
    m_settings.providerId = id;
    refreshProvider();
    m_hooks.providerChanged();
    m_hooks.edited();
}

void ProvidersPage::refreshProvider()
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
    m_keys->show(id, profile.isLocalDemo);
}

void ProvidersPage::refreshProviderNote()
{
    const Llm::ProviderProfile profile = m_settings.profile(currentProviderId());
    if (profile.isLocalDemo) {
        m_providerNote->setText(tr("The local demo engine runs inside Headstart and works offline. It is not a "
                                   "language model: it writes placeholder text with realistic timing, so every "
                                   "feature can be tried without a key or a network."));
    } else if (profile.isCloud) {
        m_providerNote->setText(tr("Text you send goes to %1 at %2.")
                                    .arg(profile.displayName, profile.baseUrl.host().isEmpty()
                                                                  ? tr("the base URL below")
                                                                  : profile.baseUrl.host()));
    } else {
        m_providerNote->setText(tr("%1 runs on this computer: text stays on this machine.").arg(profile.displayName));
    }
}

void ProvidersPage::applyTextFields()
{
    m_textTimer.stop();
    const QString id = currentProviderId();
    const Llm::ProviderProfile builtin = m_settings.baseProfile(id);
    const bool wasCloud = m_settings.profile(id).isCloud;
    const QString model = m_model->text().trimmed();
    m_settings.setModel(id, model.isEmpty() ? std::nullopt : std::optional<QString>(model));
    if (builtin.isLocalDemo) { // its address, fast model, headers and limits are its own
        m_hooks.edited();
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
    if (m_settings.profile(id).isCloud != wasCloud)
        m_hooks.consentChanged(); // a local server moved to another host, or back
    refreshProviderNote();        // it names the host
    refreshInsecureHttp();
    m_hooks.edited();
}

void ProvidersPage::refreshInsecureHttp()
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
                 "them.")
                  .arg(host)
            : tr("Warning: %1 is plain http:// to another machine, so the API key and your text would cross the "
                 "network unencrypted. Headstart sends nothing there unless you allow it below; prefer https://.")
                  .arg(host));
}

// ---- The provider list and the user's endpoints -------------------------------------------------

void ProvidersPage::fillProviderList()
{
    // Built-ins, a line, the user's endpoints; rebuilt only when that list changed, never under
    // the user's hands while they pick an entry.
    QList<QPair<QString, QString>> wanted; // id, name; an empty id is the line
    for (const Llm::ProviderProfile &p : builtinProviders())
        wanted.append({p.id, p.displayName});
    if (!m_settings.endpoints.isEmpty())
        wanted.append({QString(), QString()});
    for (const UserEndpoint &e : m_settings.endpoints.list())
        wanted.append({e.id, e.name});

    QList<QPair<QString, QString>> shown;
    for (int i = 0; i < m_provider->count(); ++i)
        shown.append({m_provider->itemData(i).toString(), m_provider->itemText(i)});
    if (shown == wanted)
        return;

    const QSignalBlocker blocker(m_provider);
    m_provider->clear();
    for (const auto &[id, name] : wanted) {
        if (id.isEmpty()) {
            m_provider->insertSeparator(m_provider->count());
            continue;
        }
        m_provider->addItem(name, id);
        m_provider->setItemData(m_provider->count() - 1, tr("On the command line: --provider %1").arg(id),
                                Qt::ToolTipRole);
    }
    m_provider->setCurrentIndex(m_provider->findData(currentProviderId()));
}

void ProvidersPage::addEndpoint(const QString &name, Llm::ApiFormat format)
{
    const auto id = m_settings.endpoints.add(name, format);
    if (!id) // EndpointButtons checked the name against these same endpoints
        return;
    // The new endpoint becomes the provider in use, as if picked from the list (which keeps what
    // was typed for the previous one), and its base URL is the next thing to type.
    fillProviderList();
    m_provider->setCurrentIndex(m_provider->findData(*id));
    m_baseUrl->setFocus();
}

void ProvidersPage::renameEndpoint(const QString &id, const QString &name)
{
    if (!m_settings.endpoints.rename(id, name))
        return;
    // Only the name changes: the fields and keys shown stay as they are (the id is the same).
    fillProviderList();
    {
        const QSignalBlocker blocker(m_provider);
        m_provider->setCurrentIndex(m_provider->findData(currentProviderId()));
    }
    m_endpointButtons->showProvider(m_settings.endpoints, currentProviderId());
    refreshProviderNote();
    m_hooks.edited();
}

void ProvidersPage::removeEndpoint(const QString &id)
{
    const UserEndpoint *endpoint = m_settings.endpoints.find(id);
    if (!endpoint)
        return;
    const QString name = endpoint->name;
    if (id == currentProviderId()) {
        // What was typed for it goes with it: a key saved after the removal would outlive it.
        m_textTimer.stop();
        m_keys->discardTyping();
        cancelConnectionTest();
    }
    // The keys first: if the keychain refuses, the endpoint stays, so nothing is left behind
    // under an id no endpoint has.
    m_endpointButtons->setEnabled(false);
    const SecretStore::Secret secrets[] = {SecretStore::Secret::ApiKey, SecretStore::Secret::PrefetchKey,
                                           SecretStore::Secret::MoreApiKeys};
    auto pending = std::make_shared<int>(int(std::size(secrets)));
    auto failure = std::make_shared<QString>();
    for (SecretStore::Secret secret : secrets) {
        m_services.secrets
            ->remove(id, secret, this, [this, id, name, pending, failure](const SecretStore::WriteResult &result) {
                if (!result && failure->isEmpty())
                    *failure = result.error();
                if (--*pending > 0)
                    return;
                m_endpointButtons->setEnabled(true);
                m_hooks.keysChanged(id);
                if (!failure->isEmpty()) {
                    m_keys->setStatus(
                        tr("%1 was kept: its keys could not be removed from the keychain: %2").arg(name, *failure));
                    return;
                }
                m_settings.removeEndpoint(id);
                refreshProvider();
                m_hooks.providerChanged();
                m_keys->setStatus(tr("%1 was removed with its keys.").arg(name));
                m_hooks.edited();
                m_provider->setFocus();
            });
    }
}

// ---- Connection test ---------------------------------------------------------------------------

void ProvidersPage::toggleConnectionTest()
{
    if (m_test && m_test->isRunning()) {
        m_test->cancel();
        return;
    }
    if (!m_services.makeConnectionTest)
        return;
    applyTextFields();
    m_keys->save();
    if (!m_test) {
        m_test = m_services.makeConnectionTest(this);
        connect(m_test, &Prefetch::ConnectionTest::finished, this, &ProvidersPage::onTestFinished);
        connect(m_test, &Prefetch::ConnectionTest::failed, this, &ProvidersPage::onTestFailed);
    }
    Llm::ProviderProfile profile = m_settings.profile(currentProviderId());
    if (m_services.resolveProfile)
        profile = m_services.resolveProfile(profile);
    // The keys as typed, saved or not: testing a key before keeping it is the point.
    profile.apiKey = m_keys->typed(SecretStore::Secret::ApiKey);
    profile.prefetchApiKey = m_keys->typed(SecretStore::Secret::PrefetchKey);
    profile.moreApiKeys = SecretStore::splitKeys(m_keys->typed(SecretStore::Secret::MoreApiKeys));
    m_testResult->setText(tr("Testing %1…").arg(profile.displayName));
    setTestRunning(true);
    m_test->start(profile);
}

void ProvidersPage::onTestFinished(double ttftMs, bool modelAnswered)
{
    setTestRunning(false);
    const QString ms = QLocale().toString(std::llround(ttftMs));
    m_testResult->setText(modelAnswered ? tr("Connected. First token after %1 ms.").arg(ms)
                                        : tr("Connected: the provider answered after %1 ms but sent no text within one "
                                             "token (a model that thinks first needs more).")
                                              .arg(ms));
}

void ProvidersPage::onTestFailed(const Llm::Error &error)
{
    setTestRunning(false);
    m_testResult->setText(error.code() == Llm::Error::Code::Cancelled ? tr("Test cancelled.") : error.message());
}

void ProvidersPage::setTestRunning(bool running)
{
    m_testButton->setText(running ? tr("Cancel &test") : tr("&Test connection"));
}

} // namespace Gui
