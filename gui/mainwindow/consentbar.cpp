#include "gui/mainwindow/consentbar.h"

#include "gui/widgets/themeicon.h"
#include "gui/widgets/uicolors.h"

#include <QApplication>
#include <QEvent>
#include <QHBoxLayout>
#include <QKeyEvent>
#include <QLabel>
#include <QPushButton>
#include <QStyle>
#include <QVBoxLayout>

namespace Gui {

ConsentBar::ConsentBar(QWidget *parent)
    : QFrame(parent)
    , m_icon(new QLabel(this))
    , m_text(new QLabel(this))
    , m_allow(new QPushButton(tr("A&llow early answers"), this))
    , m_notNow(new QPushButton(tr("&Not now"), this))
{
    setObjectName(QStringLiteral("consentBar"));
    setFrameShape(QFrame::StyledPanel);
    setAutoFillBackground(true);
    setAccessibleName(tr("Early answers"));
    const int size = style()->pixelMetric(QStyle::PM_SmallIconSize, nullptr, this);
    m_icon->setPixmap(themeIcon("dialog-information", QStyle::SP_MessageBoxInformation).pixmap(size, size));
    m_icon->setAlignment(Qt::AlignTop);
    m_text->setWordWrap(true);
    m_text->setTextFormat(Qt::RichText);
    m_text->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_allow->setObjectName(QStringLiteral("consentAllow"));
    m_notNow->setObjectName(QStringLiteral("consentNotNow"));
    m_allow->setDefault(true);
    connect(m_allow, &QPushButton::clicked, this, [this] { answer(true); });
    connect(m_notNow, &QPushButton::clicked, this, [this] { answer(false); });

    auto *buttons = new QVBoxLayout;
    buttons->addWidget(m_allow);
    buttons->addWidget(m_notNow);
    buttons->addStretch();
    auto *layout = new QHBoxLayout(this);
    layout->addWidget(m_icon);
    layout->addWidget(m_text, 1);
    layout->addLayout(buttons);
    applyColors();
    hide();
}

void ConsentBar::ask(const QString &providerId, const QString &providerName, const QString &hourlyBudget,
                     bool continues)
{
    m_providerId = providerId;
    const QString name = providerName.toHtmlEscaped();
    const QString question =
        tr("<b>Start answers before you ask, with %1?</b> Headstart can send %1 what it expects you "
           "to ask about a moment before you ask: the document when the pointer rests on an action, "
           "your chat message while you pause typing%2.")
            .arg(name, continues ? tr(", and the first words of likely answers when you select text or "
                                      "head for a button")
                                 : QString());
    const QString cost = hourlyBudget.isEmpty()
                             ? tr("Guesses you do not use are billed by %1 like any other request.").arg(name)
                             : tr("Guesses you do not use cost at most %1 an hour (the budget in Settings, Prefetch).")
                                   .arg(hourlyBudget.toHtmlEscaped());
    const QString until =
        tr("Until you allow it, only the document you open is sent early, to warm %1's cache.").arg(name);
    // One pattern for the three sentences: languages differ in what goes between sentences.
    const QString text = tr("%1 %2 %3", "the consent question's three sentences").arg(question, cost, until);
    m_text->setText(text);
    show();
}

void ConsentBar::withdraw()
{
    m_providerId.clear();
    hide();
}

void ConsentBar::answer(bool allowed)
{
    // Answered while still shown, so that whoever hears it can move the focus out of the bar
    // (MainWindow: back to the document) before the bar hides.
    emit answered(m_providerId, allowed);
    withdraw();
}

bool ConsentBar::event(QEvent *event)
{
    // Esc is the window's Stop wherever the focus is; in the bar it answers the question.
    if (event->type() == QEvent::ShortcutOverride && static_cast<QKeyEvent *>(event)->key() == Qt::Key_Escape
        && static_cast<QKeyEvent *>(event)->modifiers() == Qt::NoModifier) {
        event->accept();
        return true;
    }
    return QFrame::event(event);
}

void ConsentBar::keyPressEvent(QKeyEvent *event)
{
    if (event->key() == Qt::Key_Escape) {
        answer(false);
        return;
    }
    QFrame::keyPressEvent(event);
}

void ConsentBar::changeEvent(QEvent *event)
{
    QFrame::changeEvent(event);
    if (event->type() == QEvent::PaletteChange && !property("applyingColors").toBool())
        applyColors();
}

void ConsentBar::applyColors()
{
    // A tint of the highlight colour on the window's background: noticed, not alarming, and
    // readable in a dark scheme as in a light one.
    setProperty("applyingColors", true);
    // From the parent's palette, not this bar's own: its Window role is the tint already.
    const QPalette from = parentWidget() ? parentWidget()->palette() : QApplication::palette();
    QPalette p = palette();
    const QColor base = from.color(QPalette::Window);
    const QColor accent = from.color(QPalette::Highlight);
    p.setColor(QPalette::Window, QColor::fromRgbF(base.redF() * 0.85f + accent.redF() * 0.15f,
                                                  base.greenF() * 0.85f + accent.greenF() * 0.15f,
                                                  base.blueF() * 0.85f + accent.blueF() * 0.15f));
    setPalette(p);
    setProperty("applyingColors", false);
}

} // namespace Gui
