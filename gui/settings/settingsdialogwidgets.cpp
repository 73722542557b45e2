#include "gui/settings/settingsdialogwidgets.h"

#include "gui/settings/settingsdialog.h"
#include "gui/widgets/mnemonic.h"

#include <QFrame>
#include <QLabel>
#include <QScrollArea>

namespace Gui::SettingsPages {

using Unit = PrefetchParameter::Unit;

QString suffixOf(Unit unit)
{
    switch (unit) {
    case Unit::Milliseconds: return SettingsDialog::tr(" ms");
    case Unit::Seconds: return SettingsDialog::tr(" s");
    case Unit::Minutes: return SettingsDialog::tr(" min");
    case Unit::Tokens: return SettingsDialog::tr(" tokens");
    case Unit::Characters: return SettingsDialog::tr(" characters");
    case Unit::Requests: return SettingsDialog::tr(" requests");
    case Unit::Samples: return SettingsDialog::tr(" samples");
    case Unit::Percent: return SettingsDialog::tr(" %");
    case Unit::Pixels: return SettingsDialog::tr(" px");
    case Unit::Money: // a prefix, the provider's currency symbol
    case Unit::None:
    case Unit::Ratio: break;
    }
    return {};
}

QString labelName(const QString &label)
{
    QString text = withoutMnemonic(label);
    while (text.endsWith(QLatin1Char(':')) || text.endsWith(QChar(0xFF1A)))
        text.chop(1);
    return text.trimmed();
}

void makeScrollable(QScrollArea *scroll)
{
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
}

void setScrollPage(QScrollArea *scroll, QWidget *page)
{
    scroll->setWidget(page);
    // setWidget() makes the page paint the window colour; the tab's own background should show,
    // as on pages that do not scroll.
    page->setAutoFillBackground(false);
    scroll->viewport()->setAutoFillBackground(false);
}

QLabel *wrappingLabel(QWidget *parent, const QString &text)
{
    auto *label = new QLabel(text, parent);
    label->setWordWrap(true);
    label->setTextFormat(Qt::PlainText);
    return label;
}

} // namespace Gui::SettingsPages
