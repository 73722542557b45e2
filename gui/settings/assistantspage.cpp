#include "gui/settings/assistantspage.h"

#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QLocale>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QVBoxLayout>

namespace Gui {

namespace {

// One step below each range stands for "not set": the spin boxes show their special text there.
constexpr double TemperatureOff = AssistantSettings::MinTemperature - 0.1;
constexpr int MaxTokensDefault = AssistantSettings::MinMaxTokens - 1;

} // namespace

AssistantsPage::AssistantsPage(int textDebounceMs, QWidget *parent)
    : QWidget(parent)
{
    setObjectName(QStringLiteral("assistantsPage"));
    auto *intro = new QLabel(tr("An assistant's instructions go with every message of the conversations that use "
                                "it, before the conversation, and are cached with the rest of that prefix. Choose "
                                "a conversation's assistant above the chat."),
                             this);
    intro->setWordWrap(true);
    intro->setTextFormat(Qt::PlainText);

    m_list = new QListWidget(this);
    m_list->setObjectName(QStringLiteral("assistantList"));
    m_list->setAccessibleName(tr("Assistants"));
    auto *listLabel = new QLabel(tr("&Assistants:"), this);
    listLabel->setBuddy(m_list);

    m_add = new QPushButton(tr("A&dd"), this);
    m_add->setObjectName(QStringLiteral("addAssistant"));
    m_remove = new QPushButton(tr("Remo&ve"), this);
    m_remove->setObjectName(QStringLiteral("removeAssistant"));
    m_restore = new QPushButton(tr("Restore &Built-in"), this);
    m_restore->setObjectName(QStringLiteral("restoreAssistant"));
    m_restore->setToolTip(tr("Undo your changes to this built-in assistant"));

    m_name = new QLineEdit(this);
    m_name->setObjectName(QStringLiteral("assistantName"));
    m_name->setAccessibleName(tr("Name"));
    m_name->setMaxLength(int(AssistantSettings::MaxNameLength));
    m_prompt = new QPlainTextEdit(this);
    m_prompt->setObjectName(QStringLiteral("assistantPrompt"));
    m_prompt->setAccessibleName(tr("Instructions"));
    m_prompt->setTabChangesFocus(true);
    m_prompt->setPlaceholderText(tr("None: the chat's own instructions only"));
    m_temperature = new QDoubleSpinBox(this);
    m_temperature->setObjectName(QStringLiteral("assistantTemperature"));
    m_temperature->setAccessibleName(tr("Temperature"));
    m_temperature->setRange(TemperatureOff, AssistantSettings::MaxTemperature);
    m_temperature->setDecimals(1);
    m_temperature->setSingleStep(0.1);
    m_temperature->setSpecialValueText(tr("Provider default"));
    m_temperature->setKeyboardTracking(false);
    m_temperature->setToolTip(tr("Lower is more predictable, higher more varied. Anthropic models take up to 1; "
                                 "a higher value is sent to them as 1."));
    m_maxTokens = new QSpinBox(this);
    m_maxTokens->setObjectName(QStringLiteral("assistantMaxTokens"));
    m_maxTokens->setAccessibleName(tr("Maximum answer length"));
    m_maxTokens->setRange(MaxTokensDefault, AssistantSettings::MaxMaxTokens);
    m_maxTokens->setSingleStep(100);
    m_maxTokens->setSuffix(tr(" tokens"));
    m_maxTokens->setSpecialValueText(
        tr("Default (%1 tokens)").arg(QLocale().toString(Prefetch::GenerationParams().maxTokens)));
    m_maxTokens->setKeyboardTracking(false);
    m_note = new QLabel(this);
    m_note->setObjectName(QStringLiteral("assistantNote"));
    m_note->setWordWrap(true);
    m_note->setTextFormat(Qt::PlainText);

    auto *buttons = new QHBoxLayout;
    buttons->addWidget(m_add);
    buttons->addWidget(m_remove);
    buttons->addWidget(m_restore);
    buttons->addStretch(1);
    auto *left = new QVBoxLayout;
    left->addWidget(listLabel);
    left->addWidget(m_list, 1);
    left->addLayout(buttons);

    auto *form = new QFormLayout;
    auto addRow = [this, form](const QString &text, QWidget *field) {
        auto *label = new QLabel(text, this);
        label->setBuddy(field);
        form->addRow(label, field);
    };
    addRow(tr("&Name:"), m_name);
    addRow(tr("&Instructions:"), m_prompt);
    addRow(tr("Te&mperature:"), m_temperature);
    addRow(tr("Ma&ximum answer length:"), m_maxTokens);
    form->addRow(m_note);

    auto *columns = new QHBoxLayout;
    columns->addLayout(left, 2);
    columns->addLayout(form, 3);
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(intro);
    layout->addLayout(columns, 1);

    m_textTimer.setSingleShot(true);
    m_textTimer.setInterval(textDebounceMs);
    connect(&m_textTimer, &QTimer::timeout, this, &AssistantsPage::applyForm);
    auto typed = [this] {
        if (!m_showing)
            m_textTimer.start();
    };
    connect(m_name, &QLineEdit::textEdited, this, typed);
    connect(m_name, &QLineEdit::editingFinished, this, &AssistantsPage::commitPendingEdits);
    connect(m_prompt, &QPlainTextEdit::textChanged, this, typed);
    auto valueChanged = [this] {
        if (!m_showing)
            applyForm();
    };
    connect(m_temperature, &QDoubleSpinBox::valueChanged, this, valueChanged);
    connect(m_maxTokens, &QSpinBox::valueChanged, this, valueChanged);
    connect(m_list, &QListWidget::currentRowChanged, this, [this] {
        commitPendingEdits(); // what was typed belongs to the assistant selected before
        showSelected();
    });
    connect(m_add, &QPushButton::clicked, this, &AssistantsPage::addAssistant);
    connect(m_remove, &QPushButton::clicked, this, &AssistantsPage::removeSelected);
    connect(m_restore, &QPushButton::clicked, this, &AssistantsPage::restoreSelected);
    fillList(AssistantSettings::GeneralId);
}

void AssistantsPage::showAssistants(const AssistantSettings &assistants)
{
    m_textTimer.stop();
    m_assistants = assistants;
    fillList(selectedId());
}

void AssistantsPage::commitPendingEdits()
{
    if (m_textTimer.isActive()) {
        m_textTimer.stop();
        applyForm();
    }
}

QString AssistantsPage::selectedId() const
{
    const QListWidgetItem *item = m_list->currentItem();
    return item ? item->data(Qt::UserRole).toString() : QString();
}

void AssistantsPage::fillList(const QString &select)
{
    m_showing = true;
    m_list->clear();
    int row = 0;
    const QList<Assistant> all = m_assistants.list();
    for (int i = 0; i < all.size(); ++i) {
        const Assistant &a = all.at(i);
        auto *item = new QListWidgetItem(a.name, m_list);
        item->setData(Qt::UserRole, a.id);
        if (a.id == select)
            row = i;
    }
    m_showing = false;
    m_list->setCurrentRow(row); // shows it
    showSelected();
}

void AssistantsPage::showSelected()
{
    const QString id = selectedId();
    const Assistant a = m_assistants.find(id);
    m_showing = true;
    m_name->setText(a.name);
    if (m_prompt->toPlainText() != a.systemPrompt)
        m_prompt->setPlainText(a.systemPrompt);
    m_temperature->setValue(a.temperature.value_or(TemperatureOff));
    m_maxTokens->setValue(a.maxTokens.value_or(MaxTokensDefault));
    m_showing = false;
    m_remove->setEnabled(!a.builtin);
    m_restore->setEnabled(a.builtin && m_assistants.isModified(a.id));
    m_add->setEnabled(m_assistants.custom.size() < AssistantSettings::MaxCustom);
    if (a.id == AssistantSettings::GeneralId && a.systemPrompt.isEmpty())
        m_note->setText(tr("General adds no instructions: the chat as Headstart has always sent it. A chat about "
                           "a document shares its cached prefix with the document's actions."));
    else if (a.builtin)
        m_note->setText(m_assistants.isModified(a.id) ? tr("Built-in, changed by you.") : tr("Built-in."));
    else
        m_note->setText(tr("Your own assistant."));
}

void AssistantsPage::applyForm()
{
    const QString id = selectedId();
    if (id.isEmpty())
        return;
    Assistant a = m_assistants.find(id);
    a.name = m_name->text();
    a.systemPrompt = m_prompt->toPlainText();
    a.temperature = m_temperature->value() < AssistantSettings::MinTemperature
                        ? std::nullopt
                        : std::optional<double>(m_temperature->value());
    a.maxTokens = m_maxTokens->value() < AssistantSettings::MinMaxTokens ? std::nullopt
                                                                         : std::optional<int>(m_maxTokens->value());
    const AssistantSettings before = m_assistants;
    m_assistants.update(a);
    if (m_assistants == before)
        return;
    // The list shows the new name; the form keeps what is being typed.
    if (QListWidgetItem *item = m_list->currentItem())
        item->setText(m_assistants.find(id).name);
    m_restore->setEnabled(a.builtin && m_assistants.isModified(id));
    emit assistantsEdited(m_assistants);
}

void AssistantsPage::addAssistant()
{
    commitPendingEdits();
    const QString id = m_assistants.add({});
    if (id.isEmpty())
        return;
    changed(id);
    // Straight to naming it.
    m_name->setFocus(Qt::OtherFocusReason);
    m_name->selectAll();
}

void AssistantsPage::removeSelected()
{
    m_textTimer.stop(); // typing into the one going away
    const int row = m_list->currentRow();
    if (!m_assistants.remove(selectedId()))
        return;
    const QList<Assistant> all = m_assistants.list();
    changed(all.value(std::min(row, int(all.size()) - 1)).id);
    m_list->setFocus(Qt::OtherFocusReason);
}

void AssistantsPage::restoreSelected()
{
    m_textTimer.stop();
    const QString id = selectedId();
    m_assistants.restore(id);
    changed(id);
}

void AssistantsPage::changed(const QString &select)
{
    fillList(select);
    emit assistantsEdited(m_assistants);
}

} // namespace Gui
