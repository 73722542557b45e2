#include "gui/settings/modelpicker.h"

#include "llm/modellist.h"

#include <QComboBox>
#include <QCompleter>
#include <QGridLayout>
#include <QLabel>
#include <QLineEdit>
#include <QNetworkAccessManager>
#include <QPushButton>
#include <QSignalBlocker>

namespace Gui {

ModelPicker::ModelPicker(QWidget *parent)
    : QWidget(parent)
{
    setObjectName(QStringLiteral("modelPicker"));
    auto *grid = new QGridLayout(this);
    grid->setContentsMargins(0, 0, 0, 0);

    m_combo = new QComboBox(this);
    m_combo->setObjectName(QStringLiteral("model"));
    m_combo->setEditable(true);
    // Enter keeps what was typed as the model; it does not grow the provider's list.
    m_combo->setInsertPolicy(QComboBox::NoInsert);
    m_combo->setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Fixed);
    // A list of long ids must not widen the dialog past the screen.
    m_combo->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_combo->setMinimumContentsLength(20);
    m_combo->lineEdit()->setObjectName(QStringLiteral("modelEdit"));

    // Model ids are long and share their beginnings ("gpt-4o-…", "anthropic/claude-…" at
    // OpenRouter): any part of the name finds it.
    m_completer = new QCompleter(m_combo->model(), this);
    m_completer->setObjectName(QStringLiteral("modelSearch"));
    m_completer->setFilterMode(Qt::MatchContains);
    m_completer->setCaseSensitivity(Qt::CaseInsensitive);
    m_completer->setCompletionMode(QCompleter::PopupCompletion);
    m_combo->setCompleter(m_completer);

    m_load = new QPushButton(tr("Load list"), this);
    m_load->setObjectName(QStringLiteral("loadModels"));
    m_load->setAutoDefault(false);
    m_load->setToolTip(tr("Asks the provider which models it serves (GET /models), with the key below."));
    m_load->hide();

    m_status = new QLabel(this);
    m_status->setObjectName(QStringLiteral("modelListStatus"));
    m_status->setWordWrap(true);
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_status->hide();

    grid->addWidget(m_combo, 0, 0);
    grid->addWidget(m_load, 0, 1);
    grid->addWidget(m_status, 1, 0, 1, 2);
    setFocusProxy(m_combo);

    connect(m_load, &QPushButton::clicked, this, [this] {
        if (m_fetch)
            m_fetch->cancel();
        else
            emit listRequested();
    });
    // A pick from the search comes through the combo's activated() too.
    connect(m_combo, &QComboBox::activated, this, [this](int index) { emit modelPicked(m_combo->itemText(index)); });
}

ModelPicker::~ModelPicker() = default;

void ModelPicker::setNetwork(QNetworkAccessManager *network)
{
    m_network = network;
    m_load->setVisible(network != nullptr);
}

QLineEdit *ModelPicker::lineEdit() const
{
    return m_combo->lineEdit();
}

void ModelPicker::loadList(const Llm::ProviderProfile &profile)
{
    if (!m_network)
        return;
    delete m_fetch;
    m_fetch = new Llm::ModelListFetch(m_network, profile, this);
    connect(m_fetch, &Llm::ModelListFetch::finished, this, &ModelPicker::onListLoaded);
    connect(m_fetch, &Llm::ModelListFetch::failed, this, &ModelPicker::onListFailed);
    m_status->setText(tr("Loading the models of %1…").arg(profile.displayName));
    m_status->show();
    setLoading(true);
    m_fetch->start();
}

void ModelPicker::clearList()
{
    delete m_fetch;
    m_fetch = nullptr;
    setLoading(false);
    const QString text = m_combo->currentText();
    const QSignalBlocker blocker(m_combo);
    m_combo->clear();
    m_combo->setEditText(text);
    m_status->clear();
    m_status->hide();
}

void ModelPicker::onListLoaded(const QStringList &models)
{
    m_fetch->deleteLater();
    m_fetch = nullptr;
    setLoading(false);
    // Filling the combo selects its first entry, which would replace the model typed.
    const QString text = m_combo->currentText();
    {
        const QSignalBlocker blocker(m_combo);
        m_combo->clear();
        m_combo->addItems(models);
        m_combo->setCurrentIndex(-1);
        m_combo->setEditText(text);
    }
    m_status->setText(models.isEmpty()
                          ? tr("The provider lists no models; type the model's name.")
                          : tr("Models listed by the provider: %1. Open the list, or type part of a name to "
                               "search it.")
                                .arg(models.size()));
    m_status->show();
}

void ModelPicker::onListFailed(const Llm::Error &error)
{
    m_fetch->deleteLater();
    m_fetch = nullptr;
    setLoading(false);
    m_status->setText(error.code() == Llm::Error::Code::Cancelled
                          ? tr("Loading the model list was cancelled.")
                          : tr("No model list: %1 The model can still be typed.").arg(error.message()));
    m_status->show();
}

void ModelPicker::setLoading(bool loading)
{
    m_load->setText(loading ? tr("Cancel loading") : tr("Load list"));
}

} // namespace Gui
