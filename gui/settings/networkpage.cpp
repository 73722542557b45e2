#include "gui/settings/networkpage.h"

#include "workspace/settings/networksettings.h"

#include <QComboBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QSignalBlocker>
#include <QSpinBox>

namespace Gui {

namespace {

using Mode = Llm::ProxySettings::Mode;

QLabel *wrappingLabel(QWidget *parent, const QString &text = {})
{
    auto *label = new QLabel(text, parent);
    label->setWordWrap(true);
    label->setTextFormat(Qt::PlainText);
    return label;
}

} // namespace

NetworkPage::NetworkPage(SecretStore *secrets, int textDebounceMs, int passwordDebounceMs, QWidget *parent)
    : QWidget(parent)
    , m_secrets(secrets)
{
    setObjectName(QStringLiteral("networkPage"));
    m_textTimer.setSingleShot(true);
    m_textTimer.setInterval(textDebounceMs);
    connect(&m_textTimer, &QTimer::timeout, this, &NetworkPage::applyFields);
    m_passwordTimer.setSingleShot(true);
    m_passwordTimer.setInterval(passwordDebounceMs);
    connect(&m_passwordTimer, &QTimer::timeout, this, &NetworkPage::savePassword);

    auto *form = new QFormLayout(this);
    form->addRow(wrappingLabel(this, tr("How Headstart reaches the model providers. Connections to this computer "
                                        "(the local demo engine, Ollama or llama.cpp on localhost) never go "
                                        "through a proxy.")));

    m_mode = new QComboBox(this);
    m_mode->setObjectName(QStringLiteral("proxyMode"));
    m_mode->setAccessibleName(tr("Proxy"));
    for (const auto &[mode, name] : proxyModes())
        m_mode->addItem(name, static_cast<int>(mode));
    auto *modeLabel = new QLabel(tr("Pro&xy:"), this);
    modeLabel->setBuddy(m_mode);
    form->addRow(modeLabel, m_mode);

    m_host = new QLineEdit(this);
    m_host->setObjectName(QStringLiteral("proxyHost"));
    m_host->setPlaceholderText(tr("e.g. proxy.example.com or 10.0.0.1"));
    m_host->setAccessibleName(tr("Proxy host"));
    auto *hostLabel = new QLabel(tr("&Host:"), this);
    hostLabel->setBuddy(m_host);
    form->addRow(hostLabel, m_host);

    m_port = new QSpinBox(this);
    m_port->setObjectName(QStringLiteral("proxyPort"));
    m_port->setRange(0, 65535);
    m_port->setSpecialValueText(tr("Not set"));
    m_port->setAccessibleName(tr("Proxy port"));
    auto *portLabel = new QLabel(tr("P&ort:"), this);
    portLabel->setBuddy(m_port);
    form->addRow(portLabel, m_port);

    m_user = new QLineEdit(this);
    m_user->setObjectName(QStringLiteral("proxyUser"));
    m_user->setPlaceholderText(tr("Optional"));
    m_user->setAccessibleName(tr("Proxy user name"));
    auto *userLabel = new QLabel(tr("&User name:"), this);
    userLabel->setBuddy(m_user);
    form->addRow(userLabel, m_user);

    m_password = new QLineEdit(this);
    m_password->setObjectName(QStringLiteral("proxyPassword"));
    m_password->setEchoMode(QLineEdit::Password);
    m_password->setAccessibleName(tr("Proxy password"));
    auto *passwordLabel = new QLabel(tr("Pass&word:"), this);
    passwordLabel->setBuddy(m_password);
    form->addRow(passwordLabel, m_password);

    m_problem = wrappingLabel(this);
    m_problem->setObjectName(QStringLiteral("proxyProblem"));
    form->addRow(QString(), m_problem);
    m_status = wrappingLabel(this);
    m_status->setObjectName(QStringLiteral("proxyStatus"));
    form->addRow(QString(), m_status);

    connect(m_mode, &QComboBox::currentIndexChanged, this, [this] {
        refreshEnabled();
        applyFields();
    });
    connect(m_port, &QSpinBox::valueChanged, this, &NetworkPage::applyFields);
    for (QLineEdit *edit : {m_host, m_user}) {
        connect(edit, &QLineEdit::textEdited, this, [this] { m_textTimer.start(); });
        connect(edit, &QLineEdit::editingFinished, this, &NetworkPage::applyFields);
    }
    connect(m_password, &QLineEdit::textEdited, this, [this] {
        m_passwordDirty = true;
        m_passwordTimer.start();
    });
    connect(m_password, &QLineEdit::editingFinished, this, &NetworkPage::savePassword);
}

Mode NetworkPage::currentMode() const
{
    return static_cast<Mode>(m_mode->currentData().toInt());
}

void NetworkPage::showProxy(const Llm::ProxySettings &proxy)
{
    m_textTimer.stop();
    m_passwordTimer.stop();
    m_proxy = proxy;
    m_proxy.password.clear();
    {
        const QSignalBlocker b1(m_mode), b2(m_port);
        m_mode->setCurrentIndex(std::max(0, m_mode->findData(static_cast<int>(proxy.mode))));
        m_host->setText(proxy.host);
        m_port->setValue(proxy.port);
        m_user->setText(proxy.user);
    }
    m_passwordDirty = false;
    m_password->clear();
    m_status->clear();
    m_password->setPlaceholderText(tr("Loading…"));
    const int generation = ++m_passwordGeneration;
    if (m_secrets) {
        m_secrets->read(SecretStore::NetworkOwner, SecretStore::Secret::ProxyPassword, this,
                        [this, generation](const SecretStore::ReadResult &result) {
                            if (generation != m_passwordGeneration)
                                return;
                            m_password->setPlaceholderText(tr("Optional"));
                            if (!result)
                                m_status->setText(
                                    tr("Could not read the stored proxy password: %1").arg(result.error()));
                            else if (!m_passwordDirty) // typed meanwhile: what the user typed wins
                                m_password->setText(*result);
                        });
    }
    refreshEnabled();
}

void NetworkPage::refreshEnabled()
{
    const Llm::ProxySettings shown{currentMode(), m_host->text().trimmed(), quint16(m_port->value()), {}, {}};
    const bool explicitProxy = shown.isExplicit();
    for (QWidget *w : std::initializer_list<QWidget *>{m_host, m_port, m_user, m_password})
        w->setEnabled(explicitProxy);
    // Said while it is so: nothing goes around the proxy meanwhile, every request fails naming it.
    m_problem->setText(shown.isComplete() ? QString()
                                          : tr("Enter the proxy's host and port: until then, requests to "
                                               "providers fail."));
    m_problem->setVisible(!shown.isComplete());
}

void NetworkPage::applyFields()
{
    m_textTimer.stop();
    Llm::ProxySettings proxy = m_proxy;
    proxy.mode = currentMode();
    proxy.host = m_host->text().trimmed();
    proxy.port = quint16(m_port->value());
    proxy.user = m_user->text().trimmed();
    refreshEnabled();
    if (proxy == m_proxy)
        return;
    m_proxy = proxy;
    emit proxyEdited(m_proxy);
}

void NetworkPage::savePassword()
{
    m_passwordTimer.stop();
    if (!m_passwordDirty || !m_secrets)
        return;
    m_passwordDirty = false;
    const bool removing = m_password->text().isEmpty();
    m_secrets->write(SecretStore::NetworkOwner, SecretStore::Secret::ProxyPassword, m_password->text(), this,
                     [this, removing](const SecretStore::WriteResult &result) {
                         if (!result)
                             m_status->setText(tr("Could not save the proxy password: %1").arg(result.error()));
                         else
                             m_status->setText(removing ? tr("Proxy password removed.") : tr("Proxy password saved."));
                     });
}

void NetworkPage::commitPendingEdits()
{
    if (m_textTimer.isActive())
        applyFields();
    savePassword();
}

} // namespace Gui
