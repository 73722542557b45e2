#pragma once

#include "gui/settings/providerspage.h"

#include "workspace/settings/appsettings.h"
#include "workspace/settings/secretstore.h"

#include <QDialog>

class QTabWidget;

namespace Gui {

class AssistantsPage;
class GeneralPage;
class LibraryPage;
class NetworkPage;
class PrefetchPage;

// Settings: providers (profile fields, API keys, timeouts, Test connection), prefetch (every
// strategy and parameter, consent for cloud providers), general (language, Translate's target),
// network (the proxy), library (the knowledge base's folders) and assistants, a page each
// (ProvidersPage, PrefetchPage, GeneralPage, NetworkPage, LibraryPage, AssistantsPage).
//
// Every edit applies at once: the dialog emits settingsChanged() with the whole new value
// (text fields after a short pause in typing), and the owner persists it and hands it to the
// services; the dialog owns no QSettings. Keys go to the SecretStore only, never into the
// settings. It holds no network code: Test connection runs through the factory it is given.
class SettingsDialog : public QDialog
{
    Q_OBJECT

public:
    using ConnectionTestFactory = ProvidersPage::ConnectionTestFactory;
    // Completes a profile with what only the app knows (the local engine's address) before a
    // connection test.
    using ProfileResolver = ProvidersPage::ProfileResolver;
    // The key store, the connection test's factory, the profile resolver and the network for
    // model lists (ProvidersPage::Services says what each is for).
    using Services = ProvidersPage::Services;

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
    // Prefetch, "Forget what was learnt": the owner clears the early guesses' habits.
    void forgetLearntRequested();

protected:
    void done(int result) override;

private:
    void showSettings();
    void emitIfChanged();

    // The pages edit this value; the dialog announces it when it differs from the last one.
    AppSettings m_settings;
    AppSettings m_emitted; // the last value announced, so an edit that changes nothing stays quiet

    QTabWidget *m_tabs = nullptr;
    ProvidersPage *m_providers = nullptr;
    PrefetchPage *m_prefetch = nullptr;
    GeneralPage *m_general = nullptr;
    NetworkPage *m_network = nullptr;
    LibraryPage *m_library = nullptr;
    AssistantsPage *m_assistants = nullptr;
};

} // namespace Gui
