#include "gui/settings/settingsdialog.h"

#include "gui/settings/assistantspage.h"
#include "gui/settings/generalpage.h"
#include "gui/settings/librarypage.h"
#include "gui/settings/networkpage.h"
#include "gui/settings/prefetchpage.h"
#include "gui/widgets/wheelguard.h"

#include <QDialogButtonBox>
#include <QScreen>
#include <QSettings>
#include <QTabWidget>
#include <QVBoxLayout>

#include <algorithm>

namespace Gui {

namespace {
// The dialog's own state in the settings file (not part of AppSettings: nothing else reads it).
const QString PageKey = QStringLiteral("settingsDialog/page");
const QString SizeKey = QStringLiteral("settingsDialog/size");
} // namespace

SettingsDialog::SettingsDialog(const AppSettings &settings, Services services, QWidget *parent)
    : QDialog(parent)
    , m_settings(settings)
    , m_emitted(settings)
{
    Q_ASSERT(services.secrets);
    setWindowTitle(tr("Settings"));
    setObjectName(QStringLiteral("settingsDialog"));

    m_tabs = new QTabWidget(this);
    m_tabs->setObjectName(QStringLiteral("pages"));
    SecretStore *secrets = services.secrets;
    const auto edited = [this] { emitIfChanged(); };
    m_providers = new ProvidersPage(m_settings, std::move(services),
                                    {edited,
                                     [this] {
                                         m_prefetch->refreshConsent();
                                         m_prefetch->refreshMoneyUnit();
                                     },
                                     [this] { m_prefetch->refreshConsent(); },
                                     [this](const QString &providerId) { emit keysChanged(providerId); }},
                                    TextDebounceMs, KeyDebounceMs, this);
    m_tabs->addTab(m_providers, tr("&Providers"));
    m_prefetch = new PrefetchPage(
        m_settings, edited, [this] { emit forgetLearntRequested(); }, this);
    m_tabs->addTab(m_prefetch, tr("P&refetch"));
    m_general = new GeneralPage(m_settings, edited, TextDebounceMs, this);
    m_tabs->addTab(m_general, tr("&General"));
    m_network = new NetworkPage(secrets, TextDebounceMs, KeyDebounceMs, m_tabs);
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

    showSettings();
    WheelGuard::protect(this);
    // Where the user left it: its page and size, as the desktop's own settings windows open.
    // First time: sized in text units, so it suits any font size and screen scale, and at least
    // what the pages ask for (the Prices text was clipped at first); never past the screen.
    const QSettings ui;
    const QFontMetrics metrics = fontMetrics();
    QSize size = ui.value(SizeKey).toSize();
    if (!size.isValid())
        size = QSize(metrics.averageCharWidth() * 100, metrics.lineSpacing() * 40).expandedTo(sizeHint());
    if (const QScreen *shown = screen())
        size = size.boundedTo(shown->availableSize());
    resize(size);
    m_tabs->setCurrentIndex(std::clamp(ui.value(PageKey, 0).toInt(), 0, m_tabs->count() - 1));
}

SettingsDialog::~SettingsDialog()
{
    // Hidden here, not by ~QDialog: hiding takes the focus from a field, whose editingFinished
    // calls this dialog's slots, and by then ~QDialog would have it no longer a SettingsDialog
    // (undefined behaviour; a debug build's Qt asserts on it).
    hide();
}

void SettingsDialog::showSettings()
{
    m_providers->showSettings();
    m_prefetch->showSettings();
    m_general->showSettings();
    m_network->showProxy(m_settings.proxy);
    m_library->showFolders(m_settings.libraryFolders);
    m_assistants->showAssistants(m_settings.assistants);
}

void SettingsDialog::setSettings(const AppSettings &settings)
{
    m_settings = settings;
    m_emitted = settings;
    showSettings();
}

void SettingsDialog::setPrefetchConsent(const QString &providerId, bool allowed)
{
    m_settings.setPrefetchConsent(providerId, allowed);
    m_prefetch->refreshConsent();
}

void SettingsDialog::showPage(Page page)
{
    m_tabs->setCurrentIndex(static_cast<int>(page));
}

void SettingsDialog::commitPendingEdits()
{
    m_providers->commitPendingEdits();
    m_general->commitPendingEdits();
    m_network->commitPendingEdits();
    m_assistants->commitPendingEdits();
}

void SettingsDialog::done(int result)
{
    QSettings ui;
    ui.setValue(PageKey, m_tabs->currentIndex());
    ui.setValue(SizeKey, size());
    commitPendingEdits();
    m_providers->cancelConnectionTest();
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
