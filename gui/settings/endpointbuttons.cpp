#include "gui/settings/endpointbuttons.h"

#include "gui/settings/endpointdialog.h"

#include <QHBoxLayout>
#include <QMessageBox>
#include <QPushButton>

namespace Gui {

EndpointButtons::EndpointButtons(QWidget *parent)
    : QWidget(parent)
    , m_endpoints(UserEndpoints::none())
{
    auto *layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    auto makeButton = [this, layout](const QString &text, const QString &toolTip, const char *objectName) {
        auto *button = new QPushButton(text, this);
        button->setObjectName(QLatin1String(objectName));
        button->setToolTip(toolTip);
        // Enter in the page's fields must not press these (a QDialog's buttons are auto-default).
        button->setAutoDefault(false);
        layout->addWidget(button);
        return button;
    };
    // No mnemonics: every letter of these words is taken on the page. Tab reaches them right
    // after the provider list.
    m_add = makeButton(tr("Add…"),
                       tr("Add an OpenAI- or Anthropic-compatible server: vLLM, LM Studio, OpenRouter, a "
                          "company gateway"),
                       "addEndpoint");
    m_rename = makeButton(tr("Rename…"), tr("Rename this endpoint; its settings and keys stay with it"),
                          "renameEndpoint");
    m_remove = makeButton(tr("Remove"), tr("Remove this endpoint with its settings and keys"), "removeEndpoint");
    layout->addStretch(1); // left-aligned under the list
    connect(m_add, &QPushButton::clicked, this, &EndpointButtons::askToAdd);
    connect(m_rename, &QPushButton::clicked, this, &EndpointButtons::askToRename);
    connect(m_remove, &QPushButton::clicked, this, &EndpointButtons::askToRemove);
    showProvider(m_endpoints, {});
}

void EndpointButtons::showProvider(const UserEndpoints &endpoints, const QString &id)
{
    m_endpoints = endpoints;
    m_id = id;
    const bool endpoint = m_endpoints.contains(id);
    m_rename->setEnabled(endpoint);
    m_remove->setEnabled(endpoint);
}

void EndpointButtons::askToAdd()
{
    auto *dialog = new EndpointDialog(m_endpoints, {}, this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &QDialog::accepted, this, [this, dialog] { emit addAccepted(dialog->name(), dialog->format()); });
    dialog->open();
}

void EndpointButtons::askToRename()
{
    if (!m_endpoints.contains(m_id))
        return;
    auto *dialog = new EndpointDialog(m_endpoints, m_id, this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &QDialog::accepted, this, [this, dialog, id = m_id] { emit renameAccepted(id, dialog->name()); });
    dialog->open();
}

void EndpointButtons::askToRemove()
{
    const UserEndpoint *endpoint = m_endpoints.find(m_id);
    if (!endpoint)
        return;
    auto *box = new QMessageBox(QMessageBox::Question, tr("Remove Endpoint"),
                                tr("Remove \"%1\" with its base URL, model, headers and prices, and delete its keys "
                                   "from the keychain? Headstart then uses the local demo engine. This cannot be "
                                   "undone.")
                                    .arg(endpoint->name),
                                QMessageBox::NoButton, this);
    box->setObjectName(QStringLiteral("removeEndpointConfirmation"));
    QPushButton *remove = box->addButton(tr("Remove"), QMessageBox::DestructiveRole);
    remove->setObjectName(QStringLiteral("confirmRemoveEndpoint"));
    box->addButton(QMessageBox::Cancel);
    box->setDefaultButton(QMessageBox::Cancel);
    box->setAttribute(Qt::WA_DeleteOnClose);
    connect(box, &QMessageBox::finished, this, [this, box, remove, id = m_id] {
        if (box->clickedButton() == remove)
            emit removeConfirmed(id);
    });
    box->open();
}

} // namespace Gui
