#include "gui/settings/generalpage.h"

#include "gui/settings/settingsdialogwidgets.h"

#include <QComboBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QSignalBlocker>
#include <QSpinBox>

namespace Gui {

using namespace SettingsPages;

namespace {

// The languages Translate offers; any other name can be typed. Stored and sent to the model
// in English, shown translated.
constexpr const char *TranslateTargets[] = {
    QT_TRANSLATE_NOOP("Gui::SettingsDialog", "English"),
    QT_TRANSLATE_NOOP("Gui::SettingsDialog", "Simplified Chinese"),
    QT_TRANSLATE_NOOP("Gui::SettingsDialog", "Traditional Chinese"),
    QT_TRANSLATE_NOOP("Gui::SettingsDialog", "Japanese"),
    QT_TRANSLATE_NOOP("Gui::SettingsDialog", "Korean"),
    QT_TRANSLATE_NOOP("Gui::SettingsDialog", "French"),
    QT_TRANSLATE_NOOP("Gui::SettingsDialog", "German"),
    QT_TRANSLATE_NOOP("Gui::SettingsDialog", "Spanish"),
    QT_TRANSLATE_NOOP("Gui::SettingsDialog", "Portuguese"),
    QT_TRANSLATE_NOOP("Gui::SettingsDialog", "Italian"),
    QT_TRANSLATE_NOOP("Gui::SettingsDialog", "Russian"),
    QT_TRANSLATE_NOOP("Gui::SettingsDialog", "Arabic"),
};

} // namespace

GeneralPage::GeneralPage(AppSettings &settings, std::function<void()> edited, int textDebounceMs, QWidget *parent)
    : QWidget(parent)
    , m_settings(settings)
    , m_edited(std::move(edited))
{
    m_textTimer.setSingleShot(true);
    m_textTimer.setInterval(textDebounceMs);
    connect(&m_textTimer, &QTimer::timeout, this, &GeneralPage::applyTranslateTarget);

    auto *form = new QFormLayout(this);

    m_language = new QComboBox(this);
    m_language->setObjectName(QStringLiteral("uiLanguage"));
    for (const auto &[code, name] : AppSettings::uiLanguages())
        m_language->addItem(name, code);
    m_language->setAccessibleName(tr("User interface language"));
    auto *languageLabel = new QLabel(tr("&Language:"), this);
    languageLabel->setBuddy(m_language);
    form->addRow(languageLabel, m_language);
    form->addRow(QString(), wrappingLabel(this, tr("Takes effect the next time Headstart starts.")));
    connect(m_language, &QComboBox::currentIndexChanged, this, [this](int index) {
        m_settings.uiLanguage = m_language->itemData(index).toString();
        m_edited();
    });

    m_translateTarget = new QComboBox(this);
    m_translateTarget->setObjectName(QStringLiteral("translateTarget"));
    m_translateTarget->setEditable(true);
    m_translateTarget->setInsertPolicy(QComboBox::NoInsert);
    // First, stored as "": the default, which follows the text (Prefetch::automaticTranslateTarget()).
    m_translateTarget->addItem(tr("Automatic (the other of English and Chinese)"), QString());
    for (const char *name : TranslateTargets)
        m_translateTarget->addItem(tr(name), QLatin1String(name));
    m_translateTarget->setAccessibleName(tr("Translate into"));
    m_translateTarget->setToolTip(tr("Pick a language or type any other."));
    auto *targetLabel = new QLabel(tr("&Translate into:"), this);
    targetLabel->setBuddy(m_translateTarget);
    form->addRow(targetLabel, m_translateTarget);
    connect(m_translateTarget, &QComboBox::activated, this, [this] { applyTranslateTarget(); });
    connect(m_translateTarget->lineEdit(), &QLineEdit::textEdited, this, [this] { m_textTimer.start(); });
    connect(m_translateTarget->lineEdit(), &QLineEdit::editingFinished, this, &GeneralPage::applyTranslateTarget);

    m_textSize = new QSpinBox(this);
    m_textSize->setObjectName(QStringLiteral("textSize"));
    m_textSize->setRange(AppSettings::MinTextSizePercent, AppSettings::MaxTextSizePercent);
    m_textSize->setSingleStep(10);
    m_textSize->setSuffix(tr(" %"));
    m_textSize->setAccessibleName(tr("Text size"));
    m_textSize->setToolTip(tr("The size of all text, in percent of the desktop's font size."));
    auto *sizeLabel = new QLabel(tr("Te&xt size:"), this);
    sizeLabel->setBuddy(m_textSize);
    form->addRow(sizeLabel, m_textSize);
    connect(m_textSize, &QSpinBox::valueChanged, this, [this](int percent) {
        m_settings.textSizePercent = percent;
        m_edited();
    });

    m_colorScheme = new QComboBox(this);
    m_colorScheme->setObjectName(QStringLiteral("colorScheme"));
    for (const auto &[scheme, name] : AppSettings::colorSchemes())
        m_colorScheme->addItem(name, static_cast<int>(scheme));
    m_colorScheme->setAccessibleName(tr("Colour scheme"));
    m_colorScheme->setToolTip(tr("Light or dark windows. \"As the desktop\" follows the desktop's light or dark "
                                 "style as it changes."));
    auto *schemeLabel = new QLabel(tr("Colour sc&heme:"), this);
    schemeLabel->setBuddy(m_colorScheme);
    form->addRow(schemeLabel, m_colorScheme);
    connect(m_colorScheme, &QComboBox::currentIndexChanged, this, [this](int index) {
        m_settings.colorScheme = static_cast<ColorScheme>(m_colorScheme->itemData(index).toInt());
        m_edited();
    });

    m_logDetail = new QComboBox(this);
    m_logDetail->setObjectName(QStringLiteral("logDetail"));
    for (const auto &[detail, name] : AppSettings::logDetails())
        m_logDetail->addItem(name, static_cast<int>(detail));
    m_logDetail->setAccessibleName(tr("Log detail"));
    auto *logLabel = new QLabel(tr("Log &detail:"), this);
    logLabel->setBuddy(m_logDetail);
    form->addRow(logLabel, m_logDetail);
    form->addRow(QString(), wrappingLabel(this, tr("The log (Help, Open Log Folder) never records your API keys, "
                                                   "prompts, documents or answers. Detailed records more about each "
                                                   "request and about prefetching, for a bug report.")));
    connect(m_logDetail, &QComboBox::currentIndexChanged, this, [this](int index) {
        m_settings.logDetail = static_cast<LogDetail>(m_logDetail->itemData(index).toInt());
        m_edited();
    });
}

void GeneralPage::commitPendingEdits()
{
    if (m_textTimer.isActive())
        applyTranslateTarget();
}

void GeneralPage::applyTranslateTarget()
{
    const QString text = m_translateTarget->currentText().trimmed();
    if (text.isEmpty())
        return;
    // A listed language is stored under its English name, whatever language shows it.
    const int index = m_translateTarget->findText(text, Qt::MatchFixedString);
    m_settings.translateTarget = index >= 0 ? m_translateTarget->itemData(index).toString() : text;
    m_edited();
}

void GeneralPage::showSettings()
{
    m_textTimer.stop();
    const QSignalBlocker b1(m_language), b2(m_translateTarget), b3(m_logDetail), b4(m_textSize), b5(m_colorScheme);
    m_textSize->setValue(m_settings.textSizePercent);
    const int scheme = m_colorScheme->findData(static_cast<int>(m_settings.colorScheme));
    m_colorScheme->setCurrentIndex(scheme >= 0 ? scheme : 0);
    const int detail = m_logDetail->findData(static_cast<int>(m_settings.logDetail));
    m_logDetail->setCurrentIndex(detail >= 0 ? detail : 0);
    const int language = m_language->findData(m_settings.uiLanguage);
    m_language->setCurrentIndex(language >= 0 ? language : 0);
    const int target = m_translateTarget->findData(m_settings.translateTarget);
    if (target >= 0)
        m_translateTarget->setCurrentIndex(target);
    else
        m_translateTarget->setEditText(m_settings.translateTarget);
}

} // namespace Gui
