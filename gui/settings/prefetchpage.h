#pragma once

#include "workspace/settings/appsettings.h"
#include "workspace/settings/prefetchparameters.h"
#include "workspace/settings/prefetchpresets.h"

#include <QCoreApplication>
#include <QScrollArea>

#include <functional>
#include <vector>

class QCheckBox;
class QLabel;
class QRadioButton;
class QToolButton;

namespace Gui {

// The settings dialog's Prefetch page: what prefetching sends and when, the consent for the
// provider in use (a cloud provider's), one switch (Off, Balanced, Eager: PrefetchPresets), then
// under "Advanced settings" one group of controls per PrefetchParameter::Group,
// built from the parameter table, Restore defaults, and Forget what was learnt (the habits the
// early guesses learn from what the user does: `forgetLearnt` is called, the owner clears them).
// Edits go straight into the dialog's AppSettings and each is reported through `edited`.
//
// No Q_OBJECT, hence a callback rather than a signal: its strings stay in the dialog's
// translation context (Gui::SettingsDialog), where the catalogue has them. GUI thread.
class PrefetchPage : public QScrollArea
{
    Q_DECLARE_TR_FUNCTIONS(Gui::SettingsDialog)

public:
    // `settings` is the dialog's and must outlive the page.
    PrefetchPage(AppSettings &settings, std::function<void()> edited, std::function<void()> forgetLearnt,
                 QWidget *parent = nullptr);

    // Shows what the settings hold now: the consent, every parameter and the budget's currency.
    void showSettings();
    // The consent shown is that of the provider in use, as the settings hold it now.
    void refreshConsent();
    // The money budget is shown in the currency of the provider in use.
    void refreshMoneyUnit();

private:
    struct ParameterControl {
        const PrefetchParameter *parameter;
        QWidget *widget; // QGroupBox (a strategy's switch), QCheckBox, QSpinBox or QDoubleSpinBox
    };

    // Off, Balanced, Eager (PrefetchPresets), and Custom while the settings are none of them.
    QWidget *createPresetGroup(QWidget *parent);
    void refreshPreset();
    QWidget *createParameterGroup(PrefetchParameter::Group group, const QString &title, QWidget *parent);
    QWidget *createParameterControl(const PrefetchParameter &p, QWidget *parent);
    void applyParameter(const PrefetchParameter &p, double displayValue);
    void applyLaneLimits();
    void refreshParameters();
    void restoreDefaults();

    AppSettings &m_settings;
    std::function<void()> m_edited;
    std::function<void()> m_forgetLearnt;
    QLabel *m_consentNote = nullptr;
    QCheckBox *m_consent = nullptr;
    std::vector<ParameterControl> m_parameters;
    struct PresetButton {
        PrefetchPreset preset;
        QRadioButton *radio;
        QLabel *description;
    };
    std::vector<PresetButton> m_presetButtons;
    QToolButton *m_advancedToggle = nullptr;
    QWidget *m_advanced = nullptr; // every parameter, shown by m_advancedToggle
};

} // namespace Gui
