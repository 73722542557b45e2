#pragma once

#include "gui/settings/settingsdialog.h"
#include "workspace/settings/appsettings.h"
#include "workspace/settings/secretstore.h"

#include <QSignalSpy>

#include <memory>

class QWidget;

namespace TestSupport {

// What the settings dialog's suites share, as a base of the suite (not a QObject, so it needs no
// moc): a dialog made on a working copy of settings with the user's keys in memory (never the
// keychain), a spy on its settingsChanged(), its controls found by object name, and the last
// settings it announced. Call closeDialog() in the suite's cleanup(): each test starts with no
// dialog and no keys.
class SettingsDialogSuite
{
protected:
    SettingsDialogSuite();
    ~SettingsDialogSuite();

    // Makes m_dialog on `settings` and spies on it. `services` as the app would pass them;
    // its `secrets` are the suite's m_secrets unless set.
    void makeDialog(const Gui::AppSettings &settings, Gui::SettingsDialog::Services services = {});
    // Drops the spy and the dialog, and starts a fresh key store.
    void closeDialog();
    // Shows `window` and makes it the active one (a window manager's part); false on timeout.
    static bool activate(QWidget *window);

    // A control of the dialog (or of `in`) by object name; null, with a warning naming it, when
    // there is none.
    template <typename T>
    T *find(const char *name) const
    {
        return find<T>(m_dialog.get(), name);
    }
    template <typename T>
    static T *find(QObject *in, const char *name)
    {
        auto *w = in->findChild<T *>(QLatin1String(name));
        if (!w)
            warnMissing(name);
        return w;
    }
    // The settings the last settingsChanged() carried; the defaults when there was none.
    Gui::AppSettings lastEmitted() const;

    std::unique_ptr<Gui::MemorySecretStore> m_secrets;
    std::unique_ptr<Gui::SettingsDialog> m_dialog;
    std::unique_ptr<QSignalSpy> m_changed;

private:
    static void warnMissing(const char *name);
};

} // namespace TestSupport
