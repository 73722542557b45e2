#pragma once

#include "workspace/settings/secretstore.h"

#include <QCoreApplication>
#include <QObject>
#include <QString>
#include <QTimer>

#include <functional>

class QCheckBox;
class QFormLayout;
class QLabel;
class QLineEdit;
class QWidget;

namespace Gui {

// The keys on the Providers page: the API key, the prefetch key and more API keys of the
// provider shown, read from the SecretStore and saved there (never into the settings) after a
// pause in typing or when their field is left; Show keys; where the keys are kept, with a
// warning when that is not encrypted; and what the last read or write said. Its rows go into
// the page's form where the page is building it, so they keep their place in the tab order.
//
// No Q_OBJECT, hence no signals: its strings stay in the dialog's translation context (Gui::
// SettingsDialog), where the catalogue has them. GUI thread; a child of the page.
class ProviderKeys : public QObject
{
    Q_DECLARE_TR_FUNCTIONS(Gui::SettingsDialog)

public:
    // `saved(providerId)` follows every key saved to or removed from the store. `secrets` must
    // outlive the page.
    ProviderKeys(SecretStore *secrets, int debounceMs, QWidget *page, QFormLayout *form,
                 std::function<void(const QString &providerId)> saved);

    // Shows the keys stored for `providerId` (read asynchronously), dropping what was typed for
    // the provider before; without a key to ask for (`needsNoKey`), the fields are off.
    void show(const QString &providerId, bool needsNoKey);
    // Saves the keys typed since they were shown or saved, for the provider shown.
    void save();
    // What was typed and not saved yet is forgotten (the provider goes, and its keys with it).
    void discardTyping();
    // The key as typed, saved or not (a connection test tries a key before it is kept).
    QString typed(SecretStore::Secret secret) const;
    // The line under the keys: what a read or write said, or what became of an endpoint's keys.
    void setStatus(const QString &text);

private:
    struct Field {
        SecretStore::Secret secret;
        QLineEdit *edit = nullptr;
        bool dirty = false; // typed since shown or saved
    };

    void addField(Field &field, QWidget *page, QFormLayout *form, const QString &label, const QString &accessible,
                  const QString &toolTip, const char *objectName);
    void refreshStorage();

    SecretStore *m_secrets;
    std::function<void(const QString &)> m_saved;
    QTimer m_timer;
    QString m_providerId;
    int m_generation = 0; // ignores key reads that answer after another provider was shown

    Field m_apiKey{SecretStore::Secret::ApiKey};
    Field m_prefetchKey{SecretStore::Secret::PrefetchKey};
    Field m_moreKeys{SecretStore::Secret::MoreApiKeys};
    QCheckBox *m_showKeys = nullptr;
    QLabel *m_storageIcon = nullptr;
    QLabel *m_storage = nullptr;
    QLabel *m_status = nullptr;
};

} // namespace Gui
