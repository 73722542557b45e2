#pragma once

#include "gui/wizard/wizardgenerationpage.h"

#include <QStringList>

class QComboBox;

namespace Gui {

// Page 4: the title options stream into the text field (one per line); the user picks one in
// the Title box or types their own. Finish needs a title.
class WizardTitlePage : public WizardGenerationPage
{
    Q_OBJECT

public:
    WizardTitlePage(const Texts &texts, QWidget *parent = nullptr);

    QComboBox *titleBox() const { return m_title; }
    QString title() const;
    bool isComplete() const override;

private:
    void updateOptions(bool pickFirst);

    QComboBox *m_title;
    QStringList m_options;
};

} // namespace Gui
