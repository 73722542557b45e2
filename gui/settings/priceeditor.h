#pragma once

#include "workspace/settings/appsettings.h"

#include <QGroupBox>

#include <array>

class QDoubleSpinBox;
class QLabel;
class QPushButton;

namespace Gui {

// The price table of one provider profile, on the settings dialog's Providers page: input,
// cache write, cache read and output, per million tokens in the profile's currency, each with
// its built-in price in the tooltip, and a button back to those. It reports edits one figure
// at a time and holds no settings: the dialog applies them. GUI thread.
class PriceEditor : public QGroupBox
{
    Q_OBJECT

public:
    explicit PriceEditor(QWidget *parent = nullptr);

    // Shows what `profile` (as the user set it up) costs beside `builtin`, its defaults; emits
    // nothing.
    void showProfile(const Llm::ProviderProfile &profile, const Llm::ProviderProfile &builtin);
    QDoubleSpinBox *spinBox(PriceField field) const { return m_spins[size_t(field)]; }

signals:
    // The user changed one figure (per million tokens).
    void priceEdited(Gui::PriceField field, double perMillion);
    // The user asked for the built-in prices back.
    void resetRequested();

private:
    void updateReset();

    Llm::Prices m_builtin;
    std::array<QDoubleSpinBox *, 4> m_spins{};
    QLabel *m_note = nullptr;
    QPushButton *m_reset = nullptr;
};

} // namespace Gui
