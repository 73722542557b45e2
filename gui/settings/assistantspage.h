#pragma once

#include "workspace/settings/assistants.h"

#include <QTimer>
#include <QWidget>

class QDoubleSpinBox;
class QLabel;
class QLineEdit;
class QListWidget;
class QPlainTextEdit;
class QPushButton;
class QSpinBox;

namespace Gui {

// The settings dialog's Assistants page: the list of assistants (built-ins first), Add, Remove
// (the user's own), Restore Built-in (a changed built-in as shipped), and the selected one's
// name, instructions, temperature (off or 0 to 2) and answer length (the default or a number of
// tokens). Every change is reported through assistantsEdited() for the dialog to apply at once,
// like every other setting; typing in the name or instructions is applied once it pauses.
// GUI thread.
class AssistantsPage : public QWidget
{
    Q_OBJECT

public:
    AssistantsPage(int textDebounceMs, QWidget *parent = nullptr);

    // Shows `assistants`, keeping the selection where it can; emits nothing.
    void showAssistants(const AssistantSettings &assistants);
    const AssistantSettings &assistants() const { return m_assistants; }
    // Applies typing that is still waiting for its pause (the dialog is closing).
    void commitPendingEdits();

signals:
    void assistantsEdited(const Gui::AssistantSettings &assistants);

private:
    QString selectedId() const;
    void fillList(const QString &select);
    void showSelected();
    // Reads the form into the selected assistant and reports the change.
    void applyForm();
    void addAssistant();
    void removeSelected();
    void restoreSelected();
    void changed(const QString &select);

    AssistantSettings m_assistants;
    QListWidget *m_list = nullptr;
    QPushButton *m_add = nullptr;
    QPushButton *m_remove = nullptr;
    QPushButton *m_restore = nullptr;
    QLineEdit *m_name = nullptr;
    QPlainTextEdit *m_prompt = nullptr;
    QDoubleSpinBox *m_temperature = nullptr;
    QSpinBox *m_maxTokens = nullptr;
    QLabel *m_note = nullptr;
    QTimer m_textTimer;
    bool m_showing = false; // the form is being filled from the list: no edit to report
};

} // namespace Gui
