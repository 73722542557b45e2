#include "gui/settings/settingsdialog.h"
#include "gui/settings/settingsdialogwidgets.h"

#include "gui/settings/assistantspage.h"
#include "gui/settings/librarypage.h"
#include "gui/settings/networkpage.h"
#include "gui/widgets/wheelguard.h"

#include "prefetch/connectiontest.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QSignalBlocker>
#include <QSpinBox>
#include <QTabWidget>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

namespace Gui {

using namespace SettingsPages;

namespace {

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
