#include "gui/settings/thinkingeditor.h"

#include "workspace/settings/appsettings.h"

#include <QCheckBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QSignalBlocker>
#include <QSpinBox>

namespace Gui {

namespace {

// What the budget shows when thinking is switched on for the first time: Anthropic's examples
// use 10 000, enough for a considered answer without minutes of silence.
constexpr int SuggestedBudget = 10'000;

} // namespace

ThinkingEditor::ThinkingEditor(QWidget *parent)
    : QWidget(parent)
{
    setObjectName(QStringLiteral("thinking"));
    auto *row = new QHBoxLayout(this);
    row->setContentsMargins(0, 0, 0, 0);
    m_enabled = new QCheckBox(tr("Extended thinking"), this);
    m_enabled->setObjectName(QStringLiteral("thinkingEnabled"));
    m_enabled->setToolTip(tr("The model thinks before it answers; the thinking is shown folded above the answer. "
                             "Thinking tokens are billed as output. An answer cannot be continued while it is "
                             "on."));
    m_budget = new QSpinBox(this);
    m_budget->setObjectName(QStringLiteral("thinkingBudget"));
    m_budget->setRange(Limits::MinThinkingBudgetTokens, Limits::MaxThinkingBudgetTokens);
    m_budget->setSingleStep(1024);
    m_budget->setValue(SuggestedBudget);
    m_budget->setSuffix(tr(" tokens"));
    m_budget->setAccessibleName(tr("Thinking budget"));
    m_budget->setToolTip(tr("The most tokens the model may think for, from %1 to %2. They come on top of the "
                            "answer's length limit.")
                             .arg(Limits::MinThinkingBudgetTokens)
                             .arg(Limits::MaxThinkingBudgetTokens));
    m_budget->setEnabled(false);
    row->addWidget(m_enabled);
    row->addWidget(m_budget);
    row->addStretch(1);

    connect(m_enabled, &QCheckBox::toggled, this, [this](bool on) {
        m_budget->setEnabled(on);
        emitBudget();
    });
    connect(m_budget, &QSpinBox::valueChanged, this, &ThinkingEditor::emitBudget);
}

void ThinkingEditor::showProfile(const Llm::ProviderProfile &profile)
{
    const QSignalBlocker b1(m_enabled), b2(m_budget);
    const int budget = profile.encodeOptions.thinkingBudgetTokens;
    setVisible(profile.format == Llm::ApiFormat::AnthropicMessages);
    m_enabled->setChecked(budget > 0);
    m_budget->setEnabled(budget > 0);
    m_budget->setValue(budget > 0 ? budget : SuggestedBudget);
}

void ThinkingEditor::emitBudget()
{
    emit budgetEdited(m_enabled->isChecked() ? m_budget->value() : 0);
}

} // namespace Gui
