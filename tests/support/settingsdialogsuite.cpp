#include "settingsdialogsuite.h"

#include <QApplication>
#include <QSettings>
#include <QTest>
#include <QWidget>

namespace TestSupport {

SettingsDialogSuite::SettingsDialogSuite()
    : m_secrets(std::make_unique<Gui::MemorySecretStore>())
{
}

SettingsDialogSuite::~SettingsDialogSuite() = default;

void SettingsDialogSuite::makeDialog(const Gui::AppSettings &settings, Gui::SettingsDialog::Services services)
{
    m_changed.reset();
    m_dialog.reset();
    if (!services.secrets)
        services.secrets = m_secrets.get();
    QSettings().remove(QStringLiteral("settingsDialog")); // each test opens it as a first time would
    m_dialog = std::make_unique<Gui::SettingsDialog>(settings, services);
    m_changed = std::make_unique<QSignalSpy>(m_dialog.get(), &Gui::SettingsDialog::settingsChanged);
}

void SettingsDialogSuite::closeDialog()
{
    m_changed.reset();
    m_dialog.reset();
    m_secrets = std::make_unique<Gui::MemorySecretStore>();
}

bool SettingsDialogSuite::activate(QWidget *window)
{
    window->show();
    if (!QTest::qWaitForWindowExposed(window))
        return false;
    // What a window manager does; the offscreen platform activates a window only when it is
    // first shown, not when a dialog above it closes.
    QApplication::setActiveWindow(window);
    return QTest::qWaitForWindowActive(window);
}

Gui::AppSettings SettingsDialogSuite::lastEmitted() const
{
    if (!m_changed || m_changed->isEmpty())
        return {};
    return m_changed->constLast().constFirst().value<Gui::AppSettings>();
}

void SettingsDialogSuite::warnMissing(const char *name)
{
    qWarning("no control named %s", name);
}

} // namespace TestSupport
