#include "gui/wizard/wizardtopicpage.h"

#include "gui/wizard/wizardsettle.h"

#include <QComboBox>
#include <QEvent>
#include <QFormLayout>
#include <QLineEdit>

namespace Gui {

WizardTopicPage::WizardTopicPage(QWidget *parent)
    : QWizardPage(parent)
    , m_topic(new QLineEdit(this))
    , m_audience(new QLineEdit(this))
    , m_tone(new QComboBox(this))
    , m_length(new QComboBox(this))
{
    setTitle(tr("Topic and audience"));
    setSubTitle(tr("Say what the document is about and who will read it. The outline starts as soon as you pause."));

    m_topic->setPlaceholderText(tr("What the document is about (required)"));
    m_topic->setAccessibleName(tr("Topic"));
    m_audience->setPlaceholderText(tr("Who will read it, e.g. engineers new to the project"));
    m_audience->setAccessibleName(tr("Audience"));
    // The data is a stable English key: the prompt must not depend on the UI language.
    m_tone->addItem(tr("Neutral"), QStringLiteral("neutral"));
    m_tone->addItem(tr("Friendly"), QStringLiteral("friendly"));
    m_tone->addItem(tr("Formal"), QStringLiteral("formal"));
    m_tone->addItem(tr("Persuasive"), QStringLiteral("persuasive"));
    m_tone->addItem(tr("Playful"), QStringLiteral("playful"));
    m_tone->setAccessibleName(tr("Tone"));
    m_length->addItem(tr("Short (about 500 words)"), QStringLiteral("short"));
    m_length->addItem(tr("Medium (about 1,500 words)"), QStringLiteral("medium"));
    m_length->addItem(tr("Long (about 3,000 words)"), QStringLiteral("long"));
    m_length->setCurrentIndex(1);
    m_length->setAccessibleName(tr("Length"));

    // The wizard's buttons own Alt+B, Alt+N and Alt+F; these mnemonics avoid them.
    auto *form = new QFormLayout(this);
    form->addRow(tr("&Topic:"), m_topic);
    form->addRow(tr("&Audience:"), m_audience);
    form->addRow(tr("T&one:"), m_tone);
    form->addRow(tr("&Length:"), m_length);

    m_pause.setSingleShot(true);
    m_pause.setInterval(WizardSettleDelay);
    connect(&m_pause, &QTimer::timeout, this, &WizardTopicPage::settled);
    connect(m_topic, &QLineEdit::textChanged, this, [this] {
        emit completeChanged();
        onEdited();
    });
    connect(m_audience, &QLineEdit::textChanged, this, &WizardTopicPage::onEdited);
    connect(m_tone, &QComboBox::currentIndexChanged, this, &WizardTopicPage::onEdited);
    connect(m_length, &QComboBox::currentIndexChanged, this, &WizardTopicPage::onEdited);
    for (QWidget *field : {static_cast<QWidget *>(m_topic), static_cast<QWidget *>(m_audience),
                           static_cast<QWidget *>(m_tone), static_cast<QWidget *>(m_length)})
        field->installEventFilter(this);
}

QString WizardTopicPage::topic() const
{
    return m_topic->text().trimmed();
}

QString WizardTopicPage::audience() const
{
    return m_audience->text().trimmed();
}

QString WizardTopicPage::tone() const
{
    return m_tone->currentData().toString();
}

QString WizardTopicPage::length() const
{
    return m_length->currentData().toString();
}

bool WizardTopicPage::isComplete() const
{
    return !topic().isEmpty();
}

void WizardTopicPage::onEdited()
{
    m_pause.start();
}

bool WizardTopicPage::eventFilter(QObject *watched, QEvent *event)
{
    // Moving on to another field (or to Next) settles a pending change at once.
    if (event->type() == QEvent::FocusOut && m_pause.isActive()) {
        m_pause.stop();
        emit settled();
    }
    return QWizardPage::eventFilter(watched, event);
}

} // namespace Gui
