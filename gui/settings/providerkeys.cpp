#include "gui/settings/providerkeys.h"

#include "gui/settings/settingsdialogwidgets.h"

#include <QCheckBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QStyle>

namespace Gui {

using namespace SettingsPages;

ProviderKeys::ProviderKeys(SecretStore *secrets, int debounceMs, QWidget *page, QFormLayout *form,
                           std::function<void(const QString &)> saved)
    : QObject(page)
    , m_secrets(secrets)
    , m_saved(std::move(saved))
{
    m_timer.setSingleShot(true);
    m_timer.setInterval(debounceMs);
    connect(&m_timer, &QTimer::timeout, this, &ProviderKeys::save);

    addField(m_apiKey, page, form, tr("API &key:"), tr("API key"),
             tr("Stored in the system keychain, never in the settings file."), "apiKey");
    addField(m_prefetchKey, page, form, tr("Pre&fetch key:"), tr("Prefetch key"),
             tr("Optional. Early answers use this key, so they never eat the main key's rate limit."), "prefetchKey");
    addField(m_moreKeys, page, form, tr("M&ore keys:"), tr("More API keys"),
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
    m_storageIcon = new QLabel(page);
    m_storageIcon->setAlignment(Qt::AlignTop);
    m_storage = wrappingLabel(page);
    m_storage->setObjectName(QStringLiteral("keyStorage"));
    m_storage->setTextInteractionFlags(Qt::TextSelectableByMouse);
    storageRow->addWidget(m_storageIcon);
    storageRow->addWidget(m_storage, 1);
    form->addRow(tr("Keys are kept in:"), storageRow);

    m_status = wrappingLabel(page);
    m_status->setObjectName(QStringLiteral("keyStatus"));
    form->addRow(QString(), m_status);

    connect(m_secrets, &SecretStore::backendChanged, this, &ProviderKeys::refreshStorage);
}

void ProviderKeys::addField(Field &field, QWidget *page, QFormLayout *form, const QString &label,
                            const QString &accessible, const QString &toolTip, const char *objectName)
{
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
        m_timer.start();
    });
    connect(field.edit, &QLineEdit::editingFinished, this, &ProviderKeys::save);
}

void ProviderKeys::show(const QString &providerId, bool needsNoKey)
{
    m_timer.stop();
    m_providerId = providerId;
    const int generation = ++m_generation;
    m_status->clear();
    for (Field *field : {&m_apiKey, &m_prefetchKey, &m_moreKeys}) {
        field->dirty = false;
        field->edit->clear();
        field->edit->setEnabled(!needsNoKey);
        if (needsNoKey) {
            field->edit->setPlaceholderText(tr("Not needed"));
            continue;
        }
        field->edit->setPlaceholderText(tr("Loading…"));
        m_secrets->read(providerId, field->secret, this,
                        [this, field, generation](const SecretStore::ReadResult &result) {
                            if (generation != m_generation)
                                return; // another provider is shown by now
                            field->edit->setPlaceholderText(field->secret == SecretStore::Secret::ApiKey ? tr("Not set")
                                                            : field->secret == SecretStore::Secret::PrefetchKey
                                                                ? tr("Not set: prefetches use the API key")
                                                                : tr("None: only the API key"));
                            if (!result) {
                                m_status->setText(tr("Could not read the stored key: %1").arg(result.error()));
                                return;
                            }
                            if (!field->dirty) // typed meanwhile: what the user typed wins
                                field->edit->setText(field->secret == SecretStore::Secret::MoreApiKeys
                                                         ? SecretStore::splitKeys(*result).join(QStringLiteral(", "))
                                                         : *result);
                        });
    }
    refreshStorage();
}

void ProviderKeys::save()
{
    m_timer.stop();
    const QString id = m_providerId;
    for (Field *field : {&m_apiKey, &m_prefetchKey, &m_moreKeys}) {
        if (!field->dirty)
            continue;
        field->dirty = false;
        // More keys are stored one per line, however they were separated when typed.
        const QString value = field->secret == SecretStore::Secret::MoreApiKeys
                                  ? SecretStore::splitKeys(field->edit->text()).join(QLatin1Char('\n'))
                                  : field->edit->text().trimmed();
        const bool removing = value.isEmpty();
        m_secrets->write(id, field->secret, value, this, [this, id, removing](const SecretStore::WriteResult &result) {
            if (!result) {
                m_status->setText(tr("Could not save the key: %1").arg(result.error()));
                return;
            }
            m_status->setText(removing ? tr("Key removed.") : tr("Key saved."));
            m_saved(id);
        });
    }
}

void ProviderKeys::discardTyping()
{
    m_timer.stop();
    m_apiKey.dirty = false;
    m_prefetchKey.dirty = false;
    m_moreKeys.dirty = false;
}

QString ProviderKeys::typed(SecretStore::Secret secret) const
{
    switch (secret) {
    case SecretStore::Secret::ApiKey: return m_apiKey.edit->text().trimmed();
    case SecretStore::Secret::PrefetchKey: return m_prefetchKey.edit->text().trimmed();
    case SecretStore::Secret::MoreApiKeys: return m_moreKeys.edit->text();
    case SecretStore::Secret::ProxyPassword: break; // the Network page's
    }
    return {};
}

void ProviderKeys::setStatus(const QString &text)
{
    m_status->setText(text);
}

void ProviderKeys::refreshStorage()
{
    const bool secure = m_secrets->isSecure();
    m_storage->setText(secure ? m_secrets->backendDescription()
                              : tr("%1. Start a keychain service, such as GNOME Keyring or KWallet, to keep keys "
                                   "encrypted.")
                                    .arg(m_secrets->backendDescription()));
    if (secure) {
        m_storageIcon->clear();
        m_storageIcon->hide();
    } else {
        QStyle *style = m_storageIcon->style();
        const int size = style->pixelMetric(QStyle::PM_SmallIconSize, nullptr, m_storageIcon);
        m_storageIcon->setPixmap(style->standardIcon(QStyle::SP_MessageBoxWarning, nullptr, m_storageIcon)
                                     .pixmap(QSize(size, size), m_storageIcon->devicePixelRatioF()));
        m_storageIcon->show();
    }
    m_storage->setAccessibleName(secure ? tr("Key storage") : tr("Warning: key storage is not encrypted"));
}

} // namespace Gui
