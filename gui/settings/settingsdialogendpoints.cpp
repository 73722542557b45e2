// SettingsDialog: the provider list and the user's endpoints (added, renamed, removed through
// EndpointButtons). Apart from settingsdialog.cpp, which builds and refreshes the pages.
#include "gui/settings/settingsdialog.h"

#include "gui/settings/endpointbuttons.h"

#include <QComboBox>
#include <QLabel>
#include <QLineEdit>
#include <QSignalBlocker>

#include "prefetch/connectiontest.h"

#include <iterator>
#include <memory>

namespace Gui {

void SettingsDialog::fillProviderList()
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

void SettingsDialog::addEndpoint(const QString &name, Llm::ApiFormat format)
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

void SettingsDialog::renameEndpoint(const QString &id, const QString &name)
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
    emitIfChanged();
}

void SettingsDialog::removeEndpoint(const QString &id)
{
    const UserEndpoint *endpoint = m_settings.endpoints.find(id);
    if (!endpoint)
        return;
    const QString name = endpoint->name;
    if (id == currentProviderId()) {
        // What was typed for it goes with it: a key saved after the removal would outlive it.
        m_textTimer.stop();
        m_keyTimer.stop();
        m_apiKey.dirty = false;
        m_prefetchKey.dirty = false;
        m_moreKeys.dirty = false;
        if (m_test)
            m_test->cancel();
    }
    // The keys first: if the keychain refuses, the endpoint stays, so nothing is left behind
    // under an id no endpoint has.
    m_endpointButtons->setEnabled(false);
    const SecretStore::Secret secrets[] = {SecretStore::Secret::ApiKey, SecretStore::Secret::PrefetchKey,
                                           SecretStore::Secret::MoreApiKeys};
    auto pending = std::make_shared<int>(int(std::size(secrets)));
    auto failure = std::make_shared<QString>();
    for (SecretStore::Secret secret : secrets) {
        m_services.secrets->remove(id, secret, this,
                                   [this, id, name, pending, failure](const SecretStore::WriteResult &result) {
            if (!result && failure->isEmpty())
                *failure = result.error();
            if (--*pending > 0)
                return;
            m_endpointButtons->setEnabled(true);
            emit keysChanged(id);
            if (!failure->isEmpty()) {
                m_keyStatus->setText(tr("%1 was kept: its keys could not be removed from the keychain: %2")
                                         .arg(name, *failure));
                return;
            }
            m_settings.removeEndpoint(id);
            refreshProvider();
            refreshConsent();
            refreshMoneyUnit();
            m_keyStatus->setText(tr("%1 was removed with its keys.").arg(name));
            emitIfChanged();
            m_provider->setFocus();
        });
    }
}

} // namespace Gui
