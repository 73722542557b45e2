#include "gui/settings/endpointdialog.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QVBoxLayout>

namespace Gui {

EndpointDialog::EndpointDialog(const UserEndpoints &endpoints, const QString &renaming, QWidget *parent)
    : QDialog(parent)
    , m_endpoints(endpoints)
    , m_renaming(renaming)
{
    setObjectName(QStringLiteral("endpointDialog"));
    const bool adding = renaming.isEmpty();
    setWindowTitle(adding ? tr("Add Endpoint") : tr("Rename Endpoint"));

    auto *layout = new QVBoxLayout(this);
    if (adding) {
        auto *intro = new QLabel(tr("A server that speaks OpenAI's chat completions (vLLM, LM Studio, OpenRouter and "
                                    "most gateways) or Anthropic's messages. Its base URL, model and key are set on "
                                    "the Providers page once it is added."),
                                 this);
        intro->setWordWrap(true);
        intro->setTextFormat(Qt::PlainText);
        layout->addWidget(intro);
    }

    auto *form = new QFormLayout;
    m_name = new QLineEdit(this);
    m_name->setObjectName(QStringLiteral("endpointName"));
    m_name->setAccessibleName(tr("Endpoint name"));
    m_name->setMaxLength(static_cast<int>(UserEndpoints::MaxNameLength) + 20); // a little over: trimmed, then checked
    m_name->setPlaceholderText(tr("e.g. Company gateway"));
    if (const UserEndpoint *endpoint = m_endpoints.find(renaming)) {
        m_name->setText(endpoint->name);
        m_name->selectAll();
    }
    auto *nameLabel = new QLabel(tr("&Name:"), this);
    nameLabel->setBuddy(m_name);
    form->addRow(nameLabel, m_name);

    if (adding) {
        m_format = new QComboBox(this);
        m_format->setObjectName(QStringLiteral("endpointFormat"));
        m_format->setAccessibleName(tr("Wire format"));
        for (const auto &[format, text] : UserEndpoints::formats())
            m_format->addItem(text, static_cast<int>(format));
        m_format->setToolTip(tr("How requests are written: to <base URL>/chat/completions or to <base URL>/messages. "
                                "It cannot be changed later."));
        auto *formatLabel = new QLabel(tr("&Format:"), this);
        formatLabel->setBuddy(m_format);
        form->addRow(formatLabel, m_format);
    }
    layout->addLayout(form);

    m_error = new QLabel(this);
    m_error->setObjectName(QStringLiteral("endpointNameError"));
    m_error->setWordWrap(true);
    m_error->setTextFormat(Qt::PlainText);
    m_error->hide();
    layout->addWidget(m_error);

    m_buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    m_buttons->button(QDialogButtonBox::Ok)->setText(adding ? tr("Add") : tr("Rename"));
    m_buttons->button(QDialogButtonBox::Ok)->setDefault(true); // Enter in the name field
    connect(m_buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(m_buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    layout->addWidget(m_buttons);

    connect(m_name, &QLineEdit::textChanged, this, &EndpointDialog::check);
    check();
}

QString EndpointDialog::name() const
{
    return m_name->text().trimmed();
}

Llm::ApiFormat EndpointDialog::format() const
{
    return m_format ? static_cast<Llm::ApiFormat>(m_format->currentData().toInt()) : Llm::ApiFormat::OpenAiChat;
}

void EndpointDialog::check()
{
    const auto checked = m_endpoints.checkName(m_name->text(), m_renaming);
    m_buttons->button(QDialogButtonBox::Ok)->setEnabled(checked.has_value());
    // Nothing typed yet is not a mistake to point out.
    const bool show = !checked && !m_name->text().trimmed().isEmpty();
    m_error->setText(show ? checked.error() : QString());
    m_error->setVisible(show);
}

} // namespace Gui
