#include "settingsdialog.h"

#include "cachelifetimebox.h"
#include "endpointbuttons.h"
#include "mnemonic.h"
#include "money.h"
#include "assistantspage.h"
#include "librarypage.h"
#include "networkpage.h"
#include "priceeditor.h"
#include "modelpicker.h"
#include "thinkingeditor.h"
#include "timeoutseditor.h"
#include "wheelguard.h"

#include "prefetch/connectiontest.h"

#include <QApplication>
#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QGroupBox>
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
#include <QTabWidget>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

namespace Gui {

namespace {

using Unit = PrefetchParameter::Unit;
using Kind = PrefetchParameter::Kind;
using Group = PrefetchParameter::Group;

// Stored value = shown value × scale (durations are stored in ms, ratios as 0..1).
double scaleOf(Unit unit)
{
    switch (unit) {
    case Unit::Seconds: return 1000.0;
    case Unit::Minutes: return 60'000.0;
    case Unit::Percent: return 0.01;
    default: return 1.0;
    }
}

QString suffixOf(Unit unit)
{
    switch (unit) {
    case Unit::Milliseconds: return SettingsDialog::tr(" ms");
    case Unit::Seconds: return SettingsDialog::tr(" s");
    case Unit::Minutes: return SettingsDialog::tr(" min");
    case Unit::Tokens: return SettingsDialog::tr(" tokens");
    case Unit::Characters: return SettingsDialog::tr(" characters");
    case Unit::Requests: return SettingsDialog::tr(" requests");
    case Unit::Samples: return SettingsDialog::tr(" samples");
    case Unit::Percent: return SettingsDialog::tr(" %");
    case Unit::Pixels: return SettingsDialog::tr(" px");
    case Unit::Money: // a prefix, the provider's currency symbol
    case Unit::None:
    case Unit::Ratio: break;
    }
    return {};
}

// "&Delay:" → "Delay", "延迟(&D)：" → "延迟": for accessible names.
QString labelName(const QString &label)
{
    QString text = withoutMnemonic(label);
    while (text.endsWith(QLatin1Char(':')) || text.endsWith(QChar(0xFF1A)))
        text.chop(1);
    return text.trimmed();
}

QString trParameter(const char *text)
{
    return QCoreApplication::translate("Gui::AppSettings", text);
}

// The languages Translate offers; any other name can be typed. Stored and sent to the model
// in English, shown translated.
constexpr const char *TranslateTargets[] = {
    QT_TRANSLATE_NOOP("Gui::SettingsDialog", "English"),
    QT_TRANSLATE_NOOP("Gui::SettingsDialog", "Simplified Chinese"),
    QT_TRANSLATE_NOOP("Gui::SettingsDialog", "Traditional Chinese"),
    QT_TRANSLATE_NOOP("Gui::SettingsDialog", "Japanese"),
    QT_TRANSLATE_NOOP("Gui::SettingsDialog", "Korean"),
    QT_TRANSLATE_NOOP("Gui::SettingsDialog", "French"),
    QT_TRANSLATE_NOOP("Gui::SettingsDialog", "German"),
    QT_TRANSLATE_NOOP("Gui::SettingsDialog", "Spanish"),
    QT_TRANSLATE_NOOP("Gui::SettingsDialog", "Portuguese"),
    QT_TRANSLATE_NOOP("Gui::SettingsDialog", "Italian"),
    QT_TRANSLATE_NOOP("Gui::SettingsDialog", "Russian"),
    QT_TRANSLATE_NOOP("Gui::SettingsDialog", "Arabic"),
};

// Pages scroll vertically instead of clipping when the window is small or the font large;
// they never scroll sideways, since every long text wraps.
QScrollArea *scrollable(QWidget *parent)
{
    auto *scroll = new QScrollArea(parent);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    return scroll;
}

void setScrollPage(QScrollArea *scroll, QWidget *page)
{
    scroll->setWidget(page);
    // setWidget() makes the page paint the window colour; the tab's own background should show,
    // as on pages that do not scroll.
    page->setAutoFillBackground(false);
    scroll->viewport()->setAutoFillBackground(false);
}

QLabel *wrappingLabel(QWidget *parent, const QString &text = {})
{
    auto *label = new QLabel(text, parent);
    label->setWordWrap(true);
    label->setTextFormat(Qt::PlainText);
    return label;
}

} // namespace

SettingsDialog::SettingsDialog(const AppSettings &settings, Services services, QWidget *parent)
    : QDialog(parent)
    , m_settings(settings)
    , m_emitted(settings)
    , m_services(std::move(services))
{
    Q_ASSERT(m_services.secrets);
    setWindowTitle(tr("Settings"));
    setObjectName(QStringLiteral("settingsDialog"));

    m_textTimer.setSingleShot(true);
    m_textTimer.setInterval(TextDebounceMs);
    connect(&m_textTimer, &QTimer::timeout, this, [this] {
        applyTextFields();
        applyTranslateTarget();
    });
    m_keyTimer.setSingleShot(true);
    m_keyTimer.setInterval(KeyDebounceMs);
    connect(&m_keyTimer, &QTimer::timeout, this, &SettingsDialog::saveKeys);

    m_tabs = new QTabWidget(this);
    m_tabs->setObjectName(QStringLiteral("pages"));
    m_tabs->addTab(createProvidersPage(), tr("&Providers"));
    m_tabs->addTab(createPrefetchPage(), tr("P&refetch"));
    m_tabs->addTab(createGeneralPage(), tr("&General"));
    m_network = new NetworkPage(m_services.secrets, TextDebounceMs, KeyDebounceMs, m_tabs);
    m_tabs->addTab(m_network, tr("N&etwork"));
    connect(m_network, &NetworkPage::proxyEdited, this, [this](const Llm::ProxySettings &proxy) {
        m_settings.proxy = proxy;
        emitIfChanged();
    });
    m_library = new LibraryPage(m_tabs);
    m_tabs->addTab(m_library, tr("&Library"));
    connect(m_library, &LibraryPage::foldersEdited, this, [this](const QStringList &folders) {
        m_settings.libraryFolders = folders;
        emitIfChanged();
    });
    m_assistants = new AssistantsPage(TextDebounceMs, m_tabs);
    m_tabs->addTab(m_assistants, tr("Assis&tants"));
    connect(m_assistants, &AssistantsPage::assistantsEdited, this, [this](const AssistantSettings &assistants) {
        m_settings.assistants = assistants;
        emitIfChanged();
    });

    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    // Changes already apply as they are made; Close only closes.
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);

    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_tabs, 1);
    layout->addWidget(buttons);

    connect(m_services.secrets, &SecretStore::backendChanged, this, &SettingsDialog::refreshKeyStorage);
    refreshAll();
    WheelGuard::protect(this);
    // Sized in text units, so it suits any font size and screen scale; the pages scroll beyond.
    const QFontMetrics metrics = fontMetrics();
    resize(metrics.averageCharWidth() * 100, metrics.lineSpacing() * 40);
}

SettingsDialog::~SettingsDialog()
{
    // Hidden here, not by ~QDialog: hiding takes the focus from a field, whose editingFinished
    // calls this dialog's slots, and by then ~QDialog would have it no longer a SettingsDialog
    // (undefined behaviour; a debug build's Qt asserts on it).
    hide();
}

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
    m_modelPicker->setEnabled(editable);
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
    m_headers->setPlainText(AppSettings::formatHeaders(profile.extraHeaders));
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
    if (builtin.isLocalDemo)
        return;

    const QString urlText = m_baseUrl->text().trimmed();
    if (urlText.isEmpty()) {
        m_settings.setBaseUrl(id, std::nullopt);
        m_baseUrlError->hide();
    } else if (const auto url = AppSettings::parseBaseUrl(urlText)) {
        m_settings.setBaseUrl(id, url);
        m_baseUrlError->hide();
    } else {
        // Keep the last good URL in use; say what is wrong with this one.
        m_baseUrlError->setText(tr("Enter an address starting with http:// or https://, such as %1.")
                                    .arg(builtin.baseUrl.isEmpty() ? QStringLiteral("https://example.com/v1")
                                                                   : builtin.baseUrl.toString()));
        m_baseUrlError->show();
    }

    const QString model = m_model->text().trimmed();
    m_settings.setModel(id, model.isEmpty() ? std::nullopt : std::optional<QString>(model));
    const QString fastModel = m_fastModel->text().trimmed();
    m_settings.setFastModel(id, fastModel.isEmpty() ? std::nullopt : std::optional<QString>(fastModel));

    const auto headers = AppSettings::parseHeaders(m_headers->toPlainText());
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

// ---- Prefetch ----------------------------------------------------------------------------------

QWidget *SettingsDialog::createPrefetchPage()
{
    auto *scroll = scrollable(this);
    auto *page = new QWidget(scroll);
    auto *layout = new QVBoxLayout(page);

    auto *notice = wrappingLabel(page, tr(
        "Hover, typing and the early guesses send text to the provider before you press anything: the open "
        "document when the pointer rests on or heads for an action, when you select text, hold a shortcut's "
        "keys or have just opened the document, and your draft when you pause typing. A guess that turns out "
        "wrong still costs its tokens; an early guess asks only for the first few. Warm-up sends the open "
        "document when you open it, so that the provider can cache it."));
    notice->setObjectName(QStringLiteral("prefetchNotice"));
    layout->addWidget(notice);

    m_consent = new QCheckBox(page);
    m_consent->setObjectName(QStringLiteral("prefetchConsent"));
    connect(m_consent, &QCheckBox::toggled, this, [this](bool allowed) {
        m_settings.setPrefetchConsent(currentProviderId(), allowed);
        refreshConsent();
        emitIfChanged();
    });
    layout->addWidget(m_consent);
    m_consentNote = wrappingLabel(page);
    m_consentNote->setObjectName(QStringLiteral("consentNote"));
    layout->addWidget(m_consentNote);

    layout->addWidget(createParameterGroup(Group::Warmup, {}, page));
    layout->addWidget(createParameterGroup(Group::Hover, {}, page));
    layout->addWidget(createParameterGroup(Group::Debounce, {}, page));
    layout->addWidget(createParameterGroup(Group::Workflow, {}, page));
    layout->addWidget(createParameterGroup(Group::Routing, tr("Fast model"), page));
    layout->addWidget(createParameterGroup(Group::Cache, tr("Response cache"), page));
    layout->addWidget(createParameterGroup(Group::Speculation, tr("Early guesses"), page));
    for (Group g : {Group::Trajectory, Group::Selection, Group::Keyboard, Group::Reading, Group::Habits})
        layout->addWidget(createParameterGroup(g, {}, page));
    layout->addWidget(createParameterGroup(Group::Limits, tr("Lanes, buffer and budget"), page));
    layout->addWidget(createParameterGroup(Group::Etiquette, tr("Battery and network"), page));
    layout->addWidget(createParameterGroup(Group::Alarms, tr("Alarms"), page));
    layout->addWidget(createParameterGroup(Group::Metrics, tr("Metrics panel"), page));

    auto *restore = new QPushButton(tr("Restore &defaults"), page);
    restore->setObjectName(QStringLiteral("restoreDefaults"));
    restore->setToolTip(tr("Every prefetch setting back to its default; consent is kept."));
    restore->setAutoDefault(false);
    connect(restore, &QPushButton::clicked, this, &SettingsDialog::restorePrefetchDefaults);
    auto *restoreRow = new QHBoxLayout;
    restoreRow->addWidget(restore);
    restoreRow->addStretch(1);
    layout->addLayout(restoreRow);
    layout->addStretch(1);

    setScrollPage(scroll, page);
    return scroll;
}

QWidget *SettingsDialog::createParameterGroup(PrefetchParameter::Group group, const QString &title, QWidget *parent)
{
    auto *box = new QGroupBox(title, parent);
    auto *form = new QFormLayout(box);
    for (const PrefetchParameter &p : AppSettings::prefetchParameters()) {
        if (p.group != group)
            continue;
        const bool strategySwitch = p.kind == Kind::Bool && QByteArrayView(p.key).endsWith("/enabled");
        if (strategySwitch) {
            // The strategy's switch is the group's own check box: switching it off greys out
            // its parameters, which keep their values.
            box->setTitle(trParameter(p.label));
            box->setCheckable(true);
            box->setObjectName(QLatin1String(p.key));
            box->setAccessibleName(labelName(trParameter(p.label)));
            box->setAccessibleDescription(trParameter(p.toolTip));
            form->addRow(wrappingLabel(box, trParameter(p.toolTip))); // what it does, in plain words
            connect(box, &QGroupBox::toggled, this, [this, &p](bool on) { applyParameter(p, on ? 1 : 0); });
            m_parameters.push_back({&p, box});
            continue;
        }
        QWidget *control = createParameterControl(p, box);
        if (p.kind == Kind::Bool) {
            form->addRow(control);
        } else {
            auto *label = new QLabel(trParameter(p.label), box);
            label->setBuddy(control);
            label->setToolTip(control->toolTip());
            form->addRow(label, control);
        }
    }
    return box;
}

QWidget *SettingsDialog::createParameterControl(const PrefetchParameter &p, QWidget *parent)
{
    QWidget *control = nullptr;
    const double scale = scaleOf(p.unit);
    if (p.kind == Kind::Bool) {
        auto *check = new QCheckBox(trParameter(p.label), parent);
        connect(check, &QCheckBox::toggled, this, [this, &p](bool on) { applyParameter(p, on ? 1 : 0); });
        control = check;
    } else if (p.kind == Kind::Integer && scale >= 1.0) {
        auto *spin = new QSpinBox(parent);
        spin->setRange(static_cast<int>(std::ceil(p.min / scale)), static_cast<int>(std::floor(p.max / scale)));
        spin->setSuffix(suffixOf(p.unit));
        spin->setGroupSeparatorShown(p.max >= 100'000);
        if (qstrcmp(p.key, "prefetch/hourlyTokenBudget") == 0) {
            spin->setSpecialValueText(tr("Unlimited"));
            spin->setSingleStep(10'000);
        } else if (p.unit == Unit::Milliseconds) {
            spin->setSingleStep(p.max >= 10'000 ? 50 : 10);
        }
        connect(spin, &QSpinBox::valueChanged, this, [this, &p](int value) { applyParameter(p, value); });
        control = spin;
    } else {
        auto *spin = new QDoubleSpinBox(parent);
        const bool percent = p.unit == Unit::Percent;
        spin->setDecimals(percent ? 0 : 2);
        spin->setSingleStep(percent ? 5 : 0.01);
        spin->setRange(p.min / scale, p.max / scale);
        spin->setSuffix(suffixOf(p.unit));
        if (qstrcmp(p.key, "prefetch/debounce/similarityThreshold") == 0)
            spin->setSpecialValueText(tr("Exact match only"));
        if (p.unit == Unit::Money) {
            // Its currency symbol is the provider's: refreshMoneyUnit() sets it.
            spin->setSingleStep(0.10);
            spin->setGroupSeparatorShown(true);
            spin->setSpecialValueText(tr("Unlimited"));
        }
        connect(spin, &QDoubleSpinBox::valueChanged, this, [this, &p](double value) { applyParameter(p, value); });
        control = spin;
    }
    control->setObjectName(QLatin1String(p.key));
    control->setAccessibleName(labelName(trParameter(p.label)));
    QString toolTip = trParameter(p.toolTip);
    if (p.kind != Kind::Bool)
        toolTip += QLatin1Char(' ')
            + tr("From %1 to %2.").arg(AppSettings::formatValue(p, p.min), AppSettings::formatValue(p, p.max));
    control->setToolTip(toolTip);
    m_parameters.push_back({&p, control});
    return control;
}

void SettingsDialog::applyParameter(const PrefetchParameter &p, double displayValue)
{
    const double stored = p.kind == Kind::Bool ? displayValue : displayValue * scaleOf(p.unit);
    p.set(m_settings.prefetch, std::clamp(stored, p.min, p.max));
    applyLaneLimits();
    emitIfChanged();
}

void SettingsDialog::applyLaneLimits()
{
    // The prefetch lane never exceeds the foreground lane, and a paused strategy resumes below
    // its ceiling: the controls' ranges follow, and values beyond them are pulled in.
    auto &s = m_settings.prefetch;
    s.prefetchInFlight = std::min(s.prefetchInFlight, s.foregroundInFlight);
    s.extraCostResume = std::min(s.extraCostResume, s.extraCostCeiling);
    for (const ParameterControl &c : m_parameters) {
        if (qstrcmp(c.parameter->key, "prefetch/prefetchInFlight") == 0) {
            auto *spin = static_cast<QSpinBox *>(c.widget);
            const QSignalBlocker blocker(spin);
            spin->setMaximum(s.foregroundInFlight);
            spin->setValue(s.prefetchInFlight);
        } else if (qstrcmp(c.parameter->key, "prefetch/alarms/extraCostResume") == 0) {
            auto *spin = static_cast<QDoubleSpinBox *>(c.widget);
            const QSignalBlocker blocker(spin);
            spin->setMaximum(s.extraCostCeiling / scaleOf(c.parameter->unit));
            spin->setValue(s.extraCostResume / scaleOf(c.parameter->unit));
        }
    }
}

void SettingsDialog::refreshPrefetch()
{
    for (const ParameterControl &c : m_parameters) {
        const QSignalBlocker blocker(c.widget);
        const double value = c.parameter->get(m_settings.prefetch);
        const double shown = value / scaleOf(c.parameter->unit);
        if (auto *box = qobject_cast<QGroupBox *>(c.widget))
            box->setChecked(value != 0);
        else if (auto *check = qobject_cast<QCheckBox *>(c.widget))
            check->setChecked(value != 0);
        else if (auto *spin = qobject_cast<QSpinBox *>(c.widget))
            spin->setValue(static_cast<int>(std::lround(shown)));
        else if (auto *dspin = qobject_cast<QDoubleSpinBox *>(c.widget))
            dspin->setValue(shown);
    }
    applyLaneLimits();
}

void SettingsDialog::refreshConsent()
{
    const QString id = currentProviderId();
    const Llm::ProviderProfile profile = m_settings.profile(id);
    const QSignalBlocker blocker(m_consent);
    if (!AppSettings::needsPrefetchConsent(profile)) {
        m_consent->hide();
        m_consent->setChecked(false);
        m_consentNote->setText(
            (profile.isLocalDemo ? tr("%1 runs inside Headstart: prefetch needs no consent.")
                                 : tr("%1 runs on this computer: prefetch needs no consent."))
                .arg(profile.displayName));
        return;
    }
    m_consent->setText(tr("&Allow early sending to %1").arg(profile.displayName));
    m_consent->setChecked(m_settings.hasPrefetchConsent(id));
    m_consent->show();
    m_consentNote->setText(m_settings.hasPrefetchConsent(id)
                               ? tr("Hover, typing and early-guess prefetch may send text to %1 before you press "
                                    "anything; the switches below decide which of them run.")
                                     .arg(profile.displayName)
                               : tr("Until you allow it, hover, typing and early-guess prefetch stay off for %1, "
                                    "whatever the switches below say.")
                                     .arg(profile.displayName));
}

void SettingsDialog::refreshMoneyUnit()
{
    // The money budget is in the currency of the provider in use.
    const QString currency = m_settings.profile(currentProviderId()).prices.currency;
    const QString symbol = currencySymbol(currency);
    for (const ParameterControl &c : m_parameters) {
        if (c.parameter->unit != Unit::Money)
            continue;
        static_cast<QDoubleSpinBox *>(c.widget)->setPrefix(symbol == currency ? symbol + QLatin1Char(' ') : symbol);
    }
}

void SettingsDialog::restorePrefetchDefaults()
{
    m_settings.prefetch = Prefetch::Settings();
    refreshPrefetch();
    emitIfChanged();
}

// ---- General -----------------------------------------------------------------------------------

QWidget *SettingsDialog::createGeneralPage()
{
    auto *page = new QWidget(this);
    auto *form = new QFormLayout(page);

    m_language = new QComboBox(page);
    m_language->setObjectName(QStringLiteral("uiLanguage"));
    for (const auto &[code, name] : AppSettings::uiLanguages())
        m_language->addItem(name, code);
    m_language->setAccessibleName(tr("User interface language"));
    auto *languageLabel = new QLabel(tr("&Language:"), page);
    languageLabel->setBuddy(m_language);
    form->addRow(languageLabel, m_language);
    form->addRow(QString(), wrappingLabel(page, tr("Takes effect the next time Headstart starts.")));
    connect(m_language, &QComboBox::currentIndexChanged, this, [this](int index) {
        m_settings.uiLanguage = m_language->itemData(index).toString();
        emitIfChanged();
    });

    m_translateTarget = new QComboBox(page);
    m_translateTarget->setObjectName(QStringLiteral("translateTarget"));
    m_translateTarget->setEditable(true);
    m_translateTarget->setInsertPolicy(QComboBox::NoInsert);
    // First, stored as "": the default, which follows the text (Prefetch::automaticTranslateTarget()).
    m_translateTarget->addItem(tr("Automatic (the other of English and Chinese)"), QString());
    for (const char *name : TranslateTargets)
        m_translateTarget->addItem(tr(name), QLatin1String(name));
    m_translateTarget->setAccessibleName(tr("Translate into"));
    m_translateTarget->setToolTip(tr("Pick a language or type any other."));
    auto *targetLabel = new QLabel(tr("&Translate into:"), page);
    targetLabel->setBuddy(m_translateTarget);
    form->addRow(targetLabel, m_translateTarget);
    connect(m_translateTarget, &QComboBox::activated, this, [this] { applyTranslateTarget(); });
    connect(m_translateTarget->lineEdit(), &QLineEdit::textEdited, this, [this] { m_textTimer.start(); });
    connect(m_translateTarget->lineEdit(), &QLineEdit::editingFinished, this, &SettingsDialog::applyTranslateTarget);

    m_textSize = new QSpinBox(page);
    m_textSize->setObjectName(QStringLiteral("textSize"));
    m_textSize->setRange(AppSettings::MinTextSizePercent, AppSettings::MaxTextSizePercent);
    m_textSize->setSingleStep(10);
    m_textSize->setSuffix(tr(" %"));
    m_textSize->setAccessibleName(tr("Text size"));
    m_textSize->setToolTip(tr("The size of all text, in percent of the desktop's font size."));
    auto *sizeLabel = new QLabel(tr("Te&xt size:"), page);
    sizeLabel->setBuddy(m_textSize);
    form->addRow(sizeLabel, m_textSize);
    connect(m_textSize, &QSpinBox::valueChanged, this, [this](int percent) {
        m_settings.textSizePercent = percent;
        emitIfChanged();
    });

    m_colorScheme = new QComboBox(page);
    m_colorScheme->setObjectName(QStringLiteral("colorScheme"));
    for (const auto &[scheme, name] : AppSettings::colorSchemes())
        m_colorScheme->addItem(name, static_cast<int>(scheme));
    m_colorScheme->setAccessibleName(tr("Colour scheme"));
    m_colorScheme->setToolTip(tr("Light or dark windows. \"As the desktop\" follows the desktop's light or dark "
                                 "style as it changes."));
    auto *schemeLabel = new QLabel(tr("Colour sc&heme:"), page);
    schemeLabel->setBuddy(m_colorScheme);
    form->addRow(schemeLabel, m_colorScheme);
    connect(m_colorScheme, &QComboBox::currentIndexChanged, this, [this](int index) {
        m_settings.colorScheme = static_cast<ColorScheme>(m_colorScheme->itemData(index).toInt());
        emitIfChanged();
    });

    m_logDetail = new QComboBox(page);
    m_logDetail->setObjectName(QStringLiteral("logDetail"));
    for (const auto &[detail, name] : AppSettings::logDetails())
        m_logDetail->addItem(name, static_cast<int>(detail));
    m_logDetail->setAccessibleName(tr("Log detail"));
    auto *logLabel = new QLabel(tr("Log &detail:"), page);
    logLabel->setBuddy(m_logDetail);
    form->addRow(logLabel, m_logDetail);
    form->addRow(QString(), wrappingLabel(page, tr("The log (Help, Open Log Folder) never records your API keys, "
                                                   "prompts, documents or answers. Detailed records more about each "
                                                   "request and about prefetching, for a bug report.")));
    connect(m_logDetail, &QComboBox::currentIndexChanged, this, [this](int index) {
        m_settings.logDetail = static_cast<LogDetail>(m_logDetail->itemData(index).toInt());
        emitIfChanged();
    });
    return page;
}

void SettingsDialog::applyTranslateTarget()
{
    const QString text = m_translateTarget->currentText().trimmed();
    if (text.isEmpty())
        return;
    // A listed language is stored under its English name, whatever language shows it.
    const int index = m_translateTarget->findText(text, Qt::MatchFixedString);
    m_settings.translateTarget = index >= 0 ? m_translateTarget->itemData(index).toString() : text;
    emitIfChanged();
}

void SettingsDialog::refreshGeneral()
{
    const QSignalBlocker b1(m_language), b2(m_translateTarget), b3(m_logDetail), b4(m_textSize), b5(m_colorScheme);
    m_textSize->setValue(m_settings.textSizePercent);
    const int scheme = m_colorScheme->findData(static_cast<int>(m_settings.colorScheme));
    m_colorScheme->setCurrentIndex(scheme >= 0 ? scheme : 0);
    const int detail = m_logDetail->findData(static_cast<int>(m_settings.logDetail));
    m_logDetail->setCurrentIndex(detail >= 0 ? detail : 0);
    const int language = m_language->findData(m_settings.uiLanguage);
    m_language->setCurrentIndex(language >= 0 ? language : 0);
    const int target = m_translateTarget->findData(m_settings.translateTarget);
    if (target >= 0)
        m_translateTarget->setCurrentIndex(target);
    else
        m_translateTarget->setEditText(m_settings.translateTarget);
}

// ---- Whole dialog ------------------------------------------------------------------------------

void SettingsDialog::refreshAll()
{
    refreshProvider();
    refreshConsent();
    refreshPrefetch();
    refreshMoneyUnit();
    refreshGeneral();
    m_network->showProxy(m_settings.proxy);
    m_library->showFolders(m_settings.libraryFolders);
    m_assistants->showAssistants(m_settings.assistants);
}

void SettingsDialog::setSettings(const AppSettings &settings)
{
    m_textTimer.stop();
    m_settings = settings;
    m_emitted = settings;
    refreshAll();
}

void SettingsDialog::showPage(Page page)
{
    m_tabs->setCurrentIndex(static_cast<int>(page));
}

void SettingsDialog::commitPendingEdits()
{
    if (m_textTimer.isActive()) {
        applyTextFields();
        applyTranslateTarget();
    }
    saveKeys();
    m_network->commitPendingEdits();
    m_assistants->commitPendingEdits();
}

void SettingsDialog::done(int result)
{
    commitPendingEdits();
    if (m_test)
        m_test->cancel();
    QDialog::done(result);
}

void SettingsDialog::emitIfChanged()
{
    if (m_settings == m_emitted)
        return;
    m_emitted = m_settings;
    emit settingsChanged(m_settings);
}

} // namespace Gui
