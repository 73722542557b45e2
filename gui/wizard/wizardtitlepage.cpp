#include "gui/wizard/wizardtitlepage.h"

#include "gui/wizard/newdocumentwizard.h"

#include <QComboBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSignalBlocker>

namespace Gui {

WizardTitlePage::WizardTitlePage(const Texts &texts, QWidget *parent)
    : WizardGenerationPage(texts, parent)
    , m_title(new QComboBox(this))
{
    m_title->setEditable(true);
    m_title->setInsertPolicy(QComboBox::NoInsert);
    m_title->setAccessibleName(tr("Title"));
    m_title->lineEdit()->setPlaceholderText(tr("Pick an option or type your own title"));
    auto *label = new QLabel(tr("&Title:"), this);
    label->setBuddy(m_title);
    addRow(label, m_title);
    setTabOrder(editor(), m_title);
    setTabOrder(m_title, regenerateButton());

    connect(m_title, &QComboBox::editTextChanged, this, &QWizardPage::completeChanged);
    connect(this, &WizardGenerationPage::generationEnded, this, [this] { updateOptions(true); });
    connect(this, &WizardGenerationPage::userEdited, this, [this] {
        if (!isGenerating())
            updateOptions(false);
    });
}

QString WizardTitlePage::title() const
{
    return m_title->currentText().simplified();
}

bool WizardTitlePage::isComplete() const
{
    return !title().isEmpty();
}

void WizardTitlePage::updateOptions(bool pickFirst)
{
    QStringList options = NewDocumentWizard::splitItems(text());
    for (QString &option : options) {
        if (option.endsWith(QLatin1Char('.')) && !option.endsWith(QLatin1String("..")))
            option.chop(1); // a title is no sentence
    }
    options.removeAll(QString());
    if (options != m_options) {
        const QString typed = m_title->currentText();
        const QSignalBlocker blocker(m_title);
        m_title->clear();
        m_title->addItems(options);
        m_title->setEditText(typed);
        m_options = options;
    }
    if (pickFirst && title().isEmpty() && !options.isEmpty())
        m_title->setEditText(options.first());
    emit completeChanged();
}

} // namespace Gui
