#include "gui/settings/prefetchpage.h"

#include "gui/settings/settingsdialogwidgets.h"

#include "workspace/settings/money.h"

#include <QCheckBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QRadioButton>
#include <QScrollArea>
#include <QSignalBlocker>
#include <QSpinBox>
#include <QStyle>
#include <QToolButton>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

namespace Gui {

using namespace SettingsPages;

namespace {

using Unit = PrefetchParameter::Unit;
using Kind = PrefetchParameter::Kind;
using Group = PrefetchParameter::Group;

// Stored value = shown value × scale (durations are stored in ms, ratios as 0..1).
double scaleOf(Unit unit)
{
    switch (unit) {
    case Unit::Seconds: return 1000.0;
    case Unit::Minutes: return 60'000.0;
    case Unit::Percent: return 0.01;
    default: return 1.0;
    }
}

QString trParameter(const char *text)
{
    return QCoreApplication::translate("Gui::AppSettings", text);
}

} // namespace

PrefetchPage::PrefetchPage(AppSettings &settings, std::function<void()> edited, std::function<void()> forgetLearnt,
                           QWidget *parent)
    : QScrollArea(parent)
    , m_settings(settings)
    , m_edited(std::move(edited))
    , m_forgetLearnt(std::move(forgetLearnt))
{
    makeScrollable(this);
    auto *page = new QWidget(this);
    auto *layout = new QVBoxLayout(page);

    auto *notice = wrappingLabel(
        page, tr("Hover, typing and the early guesses send text to the provider before you press anything: the open "
                 "document when the pointer rests on or heads for an action, when you select text, hold a shortcut's "
                 "keys or have just opened the document, and your draft when you pause typing. A guess that turns out "
                 "wrong still costs its tokens; an early guess asks only for the first few. Warm-up sends the open "
                 "document when you open it, so that the provider can cache it."));
    notice->setObjectName(QStringLiteral("prefetchNotice"));
    layout->addWidget(notice);

    m_consent = new QCheckBox(page);
    m_consent->setObjectName(QStringLiteral("prefetchConsent"));
    connect(m_consent, &QCheckBox::toggled, this, [this](bool allowed) {
        m_settings.setPrefetchConsent(m_settings.providerId, allowed);
        refreshConsent();
        m_edited();
    });
    layout->addWidget(m_consent);
    m_consentNote = wrappingLabel(page);
    m_consentNote->setObjectName(QStringLiteral("consentNote"));
    layout->addWidget(m_consentNote);

    layout->addWidget(createPresetGroup(page));

    // Every parameter, under a disclosure: the presets above are what most users need.
    m_advancedToggle = new QToolButton(page);
    m_advancedToggle->setObjectName(QStringLiteral("advancedToggle"));
    m_advancedToggle->setText(tr("Advanced settings"));
    m_advancedToggle->setCheckable(true);
    m_advancedToggle->setAutoRaise(true);
    m_advancedToggle->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    m_advancedToggle->setArrowType(Qt::RightArrow);
    layout->addWidget(m_advancedToggle);
    m_advanced = new QWidget(page);
    m_advanced->setObjectName(QStringLiteral("advancedSettings"));
    auto *advanced = new QVBoxLayout(m_advanced);
    advanced->setContentsMargins(0, 0, 0, 0);
    advanced->addWidget(createParameterGroup(Group::Warmup, {}, m_advanced));
    advanced->addWidget(createParameterGroup(Group::Hover, {}, m_advanced));
    advanced->addWidget(createParameterGroup(Group::Debounce, {}, m_advanced));
    advanced->addWidget(createParameterGroup(Group::Workflow, {}, m_advanced));
    advanced->addWidget(createParameterGroup(Group::Routing, tr("Fast model"), m_advanced));
    advanced->addWidget(createParameterGroup(Group::Cache, tr("Response cache"), m_advanced));
    advanced->addWidget(createParameterGroup(Group::Speculation, tr("Early guesses"), m_advanced));
    for (Group g : {Group::Trajectory, Group::Selection, Group::Keyboard, Group::Reading, Group::Habits})
        advanced->addWidget(createParameterGroup(g, {}, m_advanced));
    advanced->addWidget(createParameterGroup(Group::Limits, tr("Lanes, buffer and budget"), m_advanced));
    advanced->addWidget(createParameterGroup(Group::Etiquette, tr("Battery and network"), m_advanced));
    advanced->addWidget(createParameterGroup(Group::Alarms, tr("Alarms"), m_advanced));
    advanced->addWidget(createParameterGroup(Group::Metrics, tr("Metrics panel"), m_advanced));
    m_advanced->setVisible(false);
    connect(m_advancedToggle, &QToolButton::toggled, this, [this](bool shown) {
        m_advancedToggle->setArrowType(shown ? Qt::DownArrow : Qt::RightArrow);
        m_advanced->setVisible(shown);
    });
    layout->addWidget(m_advanced);

    auto *restore = new QPushButton(tr("Restore &defaults"), page);
    restore->setObjectName(QStringLiteral("restoreDefaults"));
    restore->setToolTip(tr("Every prefetch setting back to its default; consent is kept."));
    restore->setAutoDefault(false);
    connect(restore, &QPushButton::clicked, this, &PrefetchPage::restoreDefaults);
    auto *forget = new QPushButton(tr("Forget what was &learnt"), page);
    forget->setObjectName(QStringLiteral("forgetLearnt"));
    forget->setToolTip(tr("What the early guesses learnt from what you do (which action follows a document opened, "
                          "a selection or an answer, and how often nothing follows a selection), kept on this "
                          "computer only, is forgotten; they start again from what a new user does."));
    forget->setAutoDefault(false);
    connect(forget, &QPushButton::clicked, this, [this, forget] {
        if (m_forgetLearnt)
            m_forgetLearnt();
        forget->setText(tr("Forgotten"));
        forget->setEnabled(false); // until the dialog is opened again: there is nothing more to forget
    });
    auto *restoreRow = new QHBoxLayout;
    restoreRow->addWidget(restore);
    restoreRow->addWidget(forget);
    restoreRow->addStretch(1);
    layout->addLayout(restoreRow);
    layout->addStretch(1);

    setScrollPage(this, page);
}

void PrefetchPage::showSettings()
{
    refreshConsent();
    refreshParameters();
    refreshMoneyUnit();
}

QWidget *PrefetchPage::createPresetGroup(QWidget *parent)
{
    auto *box = new QGroupBox(tr("Starting answers before you ask"), parent);
    auto *column = new QVBoxLayout(box);
    const struct {
        PrefetchPreset preset;
        const char *id;
        QString text;
        QString description;
    } presets[] = {
        {PrefetchPreset::Off, "presetOff", tr("Off"),
         tr("Nothing is sent before you ask. Answers start when you click, press a shortcut or send.")},
        {PrefetchPreset::Balanced, "presetBalanced", tr("Balanced (recommended)"),
         tr("The open document is kept warm, and answers start while you point at an action, pause typing or "
            "select text. A strategy whose wrong guesses cost more than half of what its answers use pauses itself.")},
        {PrefetchPreset::Eager, "presetEager", tr("Eager"),
         tr("Answers start sooner and more of them are guessed; wrong guesses may cost up to as much as the answers "
            "used, and the hourly budget is two and a half times larger.")},
        {PrefetchPreset::Custom, "presetCustom", tr("Custom"), tr("Set under Advanced settings.")},
    };
    for (const auto &p : presets) {
        auto *radio = new QRadioButton(p.text, box);
        radio->setObjectName(QLatin1String(p.id));
        column->addWidget(radio);
        QLabel *description = wrappingLabel(box, p.description);
        description->setForegroundRole(QPalette::PlaceholderText);
        // Under the button's text, not under its circle.
        description->setContentsMargins(style()->pixelMetric(QStyle::PM_ExclusiveIndicatorWidth)
                                            + style()->pixelMetric(QStyle::PM_RadioButtonLabelSpacing),
                                        0, 0, 0);
        column->addWidget(description);
        radio->setToolTip(p.description);
        m_presetButtons.push_back({p.preset, radio, description});
        if (p.preset == PrefetchPreset::Custom) {
            radio->setEnabled(false); // what the settings below are, not a choice of its own
            continue;
        }
        connect(radio, &QRadioButton::clicked, this, [this, preset = p.preset] {
            PrefetchPresets::apply(preset, m_settings.prefetch);
            refreshParameters();
            m_edited();
        });
    }
    return box;
}

void PrefetchPage::refreshPreset()
{
    const PrefetchPreset current = PrefetchPresets::of(m_settings.prefetch);
    for (const PresetButton &b : m_presetButtons) {
        const QSignalBlocker blocker(b.radio);
        b.radio->setChecked(b.preset == current);
        if (b.preset == PrefetchPreset::Custom) {
            b.radio->setVisible(current == PrefetchPreset::Custom);
            b.description->setVisible(current == PrefetchPreset::Custom);
        }
    }
}

QWidget *PrefetchPage::createParameterGroup(PrefetchParameter::Group group, const QString &title, QWidget *parent)
{
    auto *box = new QGroupBox(title, parent);
    auto *form = new QFormLayout(box);
    for (const PrefetchParameter &p : PrefetchParameters::all()) {
        if (p.group != group)
            continue;
        const bool strategySwitch = p.kind == Kind::Bool && QByteArrayView(p.key).endsWith("/enabled");
        if (strategySwitch) {
            // The strategy's switch is the group's own check box: switching it off greys out
            // its parameters, which keep their values.
            box->setTitle(trParameter(p.label));
            box->setCheckable(true);
            box->setObjectName(QLatin1String(p.key));
            box->setAccessibleName(labelName(trParameter(p.label)));
            box->setAccessibleDescription(trParameter(p.toolTip));
            form->addRow(wrappingLabel(box, trParameter(p.toolTip))); // what it does, in plain words
            connect(box, &QGroupBox::toggled, this, [this, &p](bool on) { applyParameter(p, on ? 1 : 0); });
            m_parameters.push_back({&p, box});
            continue;
        }
        QWidget *control = createParameterControl(p, box);
        if (p.kind == Kind::Bool) {
            form->addRow(control);
        } else {
            auto *label = new QLabel(trParameter(p.label), box);
            label->setBuddy(control);
            label->setToolTip(control->toolTip());
            form->addRow(label, control);
        }
    }
    return box;
}

QWidget *PrefetchPage::createParameterControl(const PrefetchParameter &p, QWidget *parent)
{
    QWidget *control = nullptr;
    const double scale = scaleOf(p.unit);
    if (p.kind == Kind::Bool) {
        auto *check = new QCheckBox(trParameter(p.label), parent);
        connect(check, &QCheckBox::toggled, this, [this, &p](bool on) { applyParameter(p, on ? 1 : 0); });
        control = check;
    } else if (p.kind == Kind::Integer && scale >= 1.0) {
        auto *spin = new QSpinBox(parent);
        spin->setRange(static_cast<int>(std::ceil(p.min / scale)), static_cast<int>(std::floor(p.max / scale)));
        spin->setSuffix(suffixOf(p.unit));
        spin->setGroupSeparatorShown(p.max >= 100'000);
        if (qstrcmp(p.key, "prefetch/hourlyTokenBudget") == 0) {
            spin->setSpecialValueText(tr("Unlimited"));
            spin->setSingleStep(10'000);
        } else if (p.unit == Unit::Milliseconds) {
            spin->setSingleStep(p.max >= 10'000 ? 50 : 10);
        }
        connect(spin, &QSpinBox::valueChanged, this, [this, &p](int value) { applyParameter(p, value); });
        control = spin;
    } else {
        auto *spin = new QDoubleSpinBox(parent);
        const bool percent = p.unit == Unit::Percent;
        spin->setDecimals(percent ? 0 : 2);
        spin->setSingleStep(percent ? 5 : 0.01);
        spin->setRange(p.min / scale, p.max / scale);
        spin->setSuffix(suffixOf(p.unit));
        if (qstrcmp(p.key, "prefetch/debounce/similarityThreshold") == 0)
            spin->setSpecialValueText(tr("Exact match only"));
        if (p.unit == Unit::Money) {
            // Its currency symbol is the provider's: refreshMoneyUnit() sets it.
            spin->setSingleStep(0.10);
            spin->setGroupSeparatorShown(true);
            spin->setSpecialValueText(tr("Unlimited"));
        }
        connect(spin, &QDoubleSpinBox::valueChanged, this, [this, &p](double value) { applyParameter(p, value); });
        control = spin;
    }
    control->setObjectName(QLatin1String(p.key));
    control->setAccessibleName(labelName(trParameter(p.label)));
    QString toolTip = trParameter(p.toolTip);
    if (p.kind != Kind::Bool)
        toolTip += QLatin1Char(' ')
                   + tr("From %1 to %2.")
                         .arg(PrefetchParameters::formatValue(p, p.min), PrefetchParameters::formatValue(p, p.max));
    control->setToolTip(toolTip);
    m_parameters.push_back({&p, control});
    return control;
}

void PrefetchPage::applyParameter(const PrefetchParameter &p, double displayValue)
{
    const double stored = p.kind == Kind::Bool ? displayValue : displayValue * scaleOf(p.unit);
    p.set(m_settings.prefetch, std::clamp(stored, p.min, p.max));
    applyLaneLimits();
    refreshPreset();
    m_edited();
}

void PrefetchPage::applyLaneLimits()
{
    // The prefetch lane never exceeds the foreground lane, and a paused strategy resumes below
    // its ceiling: the controls' ranges follow, and values beyond them are pulled in.
    auto &s = m_settings.prefetch;
    s.prefetchInFlight = std::min(s.prefetchInFlight, s.foregroundInFlight);
    s.extraCostResume = std::min(s.extraCostResume, s.extraCostCeiling);
    for (const ParameterControl &c : m_parameters) {
        if (qstrcmp(c.parameter->key, "prefetch/prefetchInFlight") == 0) {
            auto *spin = static_cast<QSpinBox *>(c.widget);
            const QSignalBlocker blocker(spin);
            spin->setMaximum(s.foregroundInFlight);
            spin->setValue(s.prefetchInFlight);
        } else if (qstrcmp(c.parameter->key, "prefetch/alarms/extraCostResume") == 0) {
            auto *spin = static_cast<QDoubleSpinBox *>(c.widget);
            const QSignalBlocker blocker(spin);
            spin->setMaximum(s.extraCostCeiling / scaleOf(c.parameter->unit));
            spin->setValue(s.extraCostResume / scaleOf(c.parameter->unit));
        }
    }
}

void PrefetchPage::refreshParameters()
{
    for (const ParameterControl &c : m_parameters) {
        const QSignalBlocker blocker(c.widget);
        const double value = c.parameter->get(m_settings.prefetch);
        const double shown = value / scaleOf(c.parameter->unit);
        if (auto *box = qobject_cast<QGroupBox *>(c.widget))
            box->setChecked(value != 0);
        else if (auto *check = qobject_cast<QCheckBox *>(c.widget))
            check->setChecked(value != 0);
        else if (auto *spin = qobject_cast<QSpinBox *>(c.widget))
            spin->setValue(static_cast<int>(std::lround(shown)));
        else if (auto *dspin = qobject_cast<QDoubleSpinBox *>(c.widget))
            dspin->setValue(shown);
    }
    applyLaneLimits();
    refreshPreset();
}

void PrefetchPage::refreshConsent()
{
    const QString id = m_settings.providerId;
    const Llm::ProviderProfile profile = m_settings.profile(id);
    const QSignalBlocker blocker(m_consent);
    if (!AppSettings::needsPrefetchConsent(profile)) {
        m_consent->hide();
        m_consent->setChecked(false);
        m_consentNote->setText((profile.isLocalDemo ? tr("%1 runs inside Headstart: prefetch needs no consent.")
                                                    : tr("%1 runs on this computer: prefetch needs no consent."))
                                   .arg(profile.displayName));
        return;
    }
    m_consent->setText(tr("&Allow early sending to %1").arg(profile.displayName));
    m_consent->setChecked(m_settings.hasPrefetchConsent(id));
    m_consent->show();
    m_consentNote->setText(m_settings.hasPrefetchConsent(id)
                               ? tr("Hover, typing and early-guess prefetch may send text to %1 before you press "
                                    "anything; the switches below decide which of them run.")
                                     .arg(profile.displayName)
                               : tr("Until you allow it, hover, typing and early-guess prefetch stay off for %1, "
                                    "whatever the switches below say.")
                                     .arg(profile.displayName));
}

void PrefetchPage::refreshMoneyUnit()
{
    // The money budget is in the currency of the provider in use.
    const QString currency = m_settings.profile(m_settings.providerId).prices.currency;
    const QString symbol = currencySymbol(currency);
    for (const ParameterControl &c : m_parameters) {
        if (c.parameter->unit != Unit::Money)
            continue;
        static_cast<QDoubleSpinBox *>(c.widget)->setPrefix(symbol == currency ? symbol + QLatin1Char(' ') : symbol);
    }
}

void PrefetchPage::restoreDefaults()
{
    m_settings.prefetch = Prefetch::Settings();
    refreshParameters();
    m_edited();
}

} // namespace Gui
