#include "gui/settings/priceeditor.h"

#include "workspace/settings/money.h"

#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QSignalBlocker>

namespace Gui {

namespace {

// Six decimals take any published price (DeepSeek's $0.003625); the text drops the zeros
// beyond the cents, so $15 reads "15.00" and not "15.000000".
class PriceSpinBox : public QDoubleSpinBox
{
public:
    using QDoubleSpinBox::QDoubleSpinBox;

    QString textFromValue(double value) const override
    {
        QLocale l = locale();
        l.setNumberOptions(l.numberOptions() | QLocale::OmitGroupSeparator);
        QString text = l.toString(value, 'f', decimals());
        const qsizetype point = text.indexOf(l.decimalPoint());
        if (point < 0)
            return text;
        const QString zero = l.zeroDigit();
        while (text.size() > point + l.decimalPoint().size() + 2 * zero.size() && text.endsWith(zero))
            text.chop(zero.size());
        return text;
    }
};

struct FieldText {
    PriceField field;
    const char *objectName;
    const char *label; // with its mnemonic, unique on the Providers page
    const char *accessible;
    const char *what; // the tooltip's first sentence
};

const FieldText Fields[] = {
    {PriceField::Input, "price/input", QT_TRANSLATE_NOOP("Gui::PriceEditor", "I&nput:"),
     QT_TRANSLATE_NOOP("Gui::PriceEditor", "Input price"),
     QT_TRANSLATE_NOOP("Gui::PriceEditor", "Prompt tokens the provider neither read from its cache nor wrote to it.")},
    {PriceField::CacheWrite, "price/cacheWrite", QT_TRANSLATE_NOOP("Gui::PriceEditor", "Cache &write:"),
     QT_TRANSLATE_NOOP("Gui::PriceEditor", "Cache write price"),
     QT_TRANSLATE_NOOP("Gui::PriceEditor", "Prompt tokens written to the provider's cache. Where writing is not "
                                           "billed apart, this is the input price.")},
    {PriceField::CacheRead, "price/cacheRead", QT_TRANSLATE_NOOP("Gui::PriceEditor", "Cache rea&d:"),
     QT_TRANSLATE_NOOP("Gui::PriceEditor", "Cache read price"),
     QT_TRANSLATE_NOOP("Gui::PriceEditor", "Prompt tokens read from the provider's cache, usually a fraction of "
                                           "the input price.")},
    {PriceField::Output, "price/output", QT_TRANSLATE_NOOP("Gui::PriceEditor", "&Output:"),
     QT_TRANSLATE_NOOP("Gui::PriceEditor", "Output price"),
     QT_TRANSLATE_NOOP("Gui::PriceEditor", "Tokens the model generated, those of a guess nobody used included.")},
};

} // namespace

PriceEditor::PriceEditor(QWidget *parent)
    : QGroupBox(tr("Prices"), parent)
    , m_note(new QLabel(this))
    , m_reset(new QPushButton(tr("&Built-in prices"), this))
{
    setObjectName(QStringLiteral("prices"));
    auto *form = new QFormLayout(this);
    form->setRowWrapPolicy(QFormLayout::WrapLongRows);

    m_note->setObjectName(QStringLiteral("pricesNote"));
    m_note->setWordWrap(true);
    m_note->setTextFormat(Qt::PlainText);
    form->addRow(m_note);

    for (const FieldText &f : Fields) {
        auto *spin = new PriceSpinBox(this);
        spin->setObjectName(QLatin1String(f.objectName));
        spin->setDecimals(6);
        spin->setRange(0, Limits::MaxPricePerMillion);
        spin->setSingleStep(0.01);
        spin->setAccessibleName(tr(f.accessible));
        auto *label = new QLabel(tr(f.label), this);
        label->setBuddy(spin);
        form->addRow(label, spin);
        m_spins[size_t(f.field)] = spin;
        connect(spin, &QDoubleSpinBox::valueChanged, this, [this, field = f.field](double value) {
            updateReset();
            emit priceEdited(field, value);
        });
    }

    m_reset->setObjectName(QStringLiteral("resetPrices"));
    m_reset->setAutoDefault(false);
    connect(m_reset, &QPushButton::clicked, this, &PriceEditor::resetRequested);
    auto *resetRow = new QHBoxLayout;
    resetRow->addWidget(m_reset);
    resetRow->addStretch(1);
    form->addRow(resetRow);
}

void PriceEditor::showProfile(const Llm::ProviderProfile &profile, const Llm::ProviderProfile &builtin)
{
    const QString currency = profile.prices.currency;
    const QString symbol = currencySymbol(currency);
    for (const FieldText &f : Fields) {
        QDoubleSpinBox *spin = m_spins[size_t(f.field)];
        const QSignalBlocker blocker(spin);
        spin->setPrefix(symbol == currency ? symbol + QLatin1Char(' ') : symbol);
        spin->setSuffix(tr(" / M tokens"));
        spin->setValue(priceOf(profile.prices, f.field));
        spin->setToolTip(
            tr(f.what) + QLatin1Char(' ')
            + tr("Built-in: %1.")
                  .arg(ProviderOverrides::formatPrice(priceOf(builtin.prices, f.field), builtin.prices.currency)));
    }
    m_builtin = builtin.prices;
    updateReset();
    m_reset->setToolTip(tr("Every price of %1 back to Headstart's built-in one.").arg(profile.displayName));

    // What the defaults are, and what the prices are for.
    QString note;
    if (builtin.isLocalDemo)
        note = tr("The local demo engine bills nothing. It is priced as DeepSeek is by default, so that its cost "
                  "figures mean something.");
    else if (builtin.prices.isFree())
        note = tr("%1 bills nothing by default, as a server on your own machine does. Enter prices if yours "
                  "charges.")
                   .arg(profile.displayName);
    else
        note = tr("By default, the prices %1 publishes, as of the date Headstart's documentation gives. Change "
                  "them if your model or account is billed otherwise.")
                   .arg(profile.displayName);
    note += QLatin1Char(' ')
            + tr("The metrics panel's cost in money and the hourly money budget use these prices, with cache "
                 "discounts applied.");
    m_note->setText(note);
}

void PriceEditor::updateReset()
{
    bool changed = false;
    for (PriceField field : PriceFields)
        changed = changed || m_spins[size_t(field)]->value() != priceOf(m_builtin, field);
    m_reset->setEnabled(changed);
}

} // namespace Gui
