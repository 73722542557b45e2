#pragma once

#include <QWidget>

class QCheckBox;
class QSpinBox;

namespace Llm {
struct ProviderProfile;
}

namespace Gui {

// Anthropic extended thinking for one provider profile, on the settings dialog's Providers page:
// a switch and the budget in tokens. Hidden for profiles that speak another wire format. Reports
// edits (0: off) and holds no settings: the dialog applies them. GUI thread.
class ThinkingEditor : public QWidget
{
    Q_OBJECT

public:
    explicit ThinkingEditor(QWidget *parent = nullptr);

    // Shows the thinking setting of `profile`, or hides itself when it has none; emits nothing.
    void showProfile(const Llm::ProviderProfile &profile);
    QCheckBox *enabledBox() const { return m_enabled; }
    QSpinBox *budgetBox() const { return m_budget; }

signals:
    void budgetEdited(int budgetTokens);

private:
    void emitBudget();

    QCheckBox *m_enabled = nullptr;
    QSpinBox *m_budget = nullptr;
};

} // namespace Gui
