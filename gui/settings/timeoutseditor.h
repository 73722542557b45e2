#pragma once

#include "workspace/settings/appsettings.h"

#include <QGroupBox>

#include <array>

class QSpinBox;

namespace Gui {

// The timeouts of one provider profile, on the settings dialog's Providers page: reaching the
// server, the first byte of the answer and the longest silence once it flows, in whole seconds,
// each with its built-in value in the tooltip. Reports edits one field at a time and holds no
// settings: the dialog applies them. GUI thread.
class TimeoutsEditor : public QGroupBox
{
    Q_OBJECT

public:
    explicit TimeoutsEditor(QWidget *parent = nullptr);

    // Shows the timeouts of `profile` beside those of `builtin`; emits nothing.
    void showProfile(const Llm::ProviderProfile &profile, const Llm::ProviderProfile &builtin);
    QSpinBox *spinBox(TimeoutField field) const { return m_spins[size_t(field)]; }

signals:
    void timeoutEdited(Gui::TimeoutField field, int seconds);

private:
    std::array<QSpinBox *, 3> m_spins{};
};

} // namespace Gui
