#include "gui/chat/chattranscript.h"

#include "gui/answer/markdownview.h"
#include "gui/widgets/elidedlabel.h"
#include "gui/widgets/flowlayout.h"
#include "gui/widgets/themeicon.h"
#include "gui/widgets/uicolors.h"

#include <QCoreApplication>
#include <QEvent>
#include <QHBoxLayout>
#include <QLabel>
#include <QLocale>
#include <QStyle>
#include <QToolButton>
#include <QVBoxLayout>

// AnswerWidget, one answer of the chat's transcript (declared in chattranscript.h, beside the
// transcript that lays them out).

namespace Gui {

AnswerWidget::AnswerWidget(QWidget *parent)
    : QFrame(parent)
    , m_timing(new ElidedLabel(this))
    , m_view(new MarkdownView(this))
    , m_errorRow(new QWidget(this))
    , m_errorIcon(new QLabel(m_errorRow))
    , m_error(new QLabel(m_errorRow))
    , m_status(mutedLabel({}, this))
    , m_usage(mutedLabel({}, this))
    , m_copy(messageButton(MessageAction::Copy, this))
    , m_regenerate(messageButton(MessageAction::Regenerate, this))
    , m_delete(messageButton(MessageAction::Delete, this))
    , m_quick(mutedLabel({}, this))
    , m_opening(mutedLabel({}, this))
    , m_askMain(new QToolButton(this))
    , m_acknowledgement(mutedLabel({}, this))
    , m_cacheMark(mutedLabel({}, this))
{
    m_acknowledgement->setObjectName(QStringLiteral("chatAcknowledgement"));
    m_acknowledgement->setWordWrap(true);
    m_acknowledgement->setTextFormat(Qt::PlainText);
    QFont italic = m_acknowledgement->font();
    italic.setItalic(true);
    m_acknowledgement->setFont(italic);
    m_acknowledgement->setToolTip(QCoreApplication::translate(
        "Gui::ChatDock", "A first line from the fast model while the reasoning model thinks. It is not the answer "
                         "and goes when the answer begins (Settings, Prefetch, \"Acknowledge at once while a "
                         "reasoning model thinks\")."));
    m_acknowledgement->hide();
    m_cacheMark->setObjectName(QStringLiteral("chatFromCache"));
    m_cacheMark->setWordWrap(false);
    m_cacheMark->hide();
    m_quick->setObjectName(QStringLiteral("chatQuickAnswer"));
    m_quick->setWordWrap(false);
    m_quick->hide();
    m_opening->setObjectName(QStringLiteral("chatOpening"));
    m_opening->setWordWrap(false);
    m_opening->hide();
    m_askMain->setObjectName(QStringLiteral("chatAskMainModel"));
    m_askMain->setAutoRaise(true);
    m_askMain->setToolButtonStyle(Qt::ToolButtonTextOnly);
    m_askMain->hide();
    m_timing->setObjectName(QStringLiteral("chatTiming"));
    // One line that gives way in a narrow chat (the whole in its tooltip) rather than set the
    // transcript's width: what the early start did makes it long.
    m_timing->setForegroundRole(QPalette::PlaceholderText);
    m_timing->setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Preferred); // a FlowLayout's item
    m_timing->setAlignment(Qt::AlignRight | Qt::AlignVCenter);
    m_error->setObjectName(QStringLiteral("chatError"));
    m_error->setWordWrap(true);
    m_error->setTextFormat(Qt::PlainText);
    m_error->setTextInteractionFlags(Qt::TextSelectableByMouse | Qt::TextSelectableByKeyboard);
    m_error->setAccessibleName(QCoreApplication::translate("Gui::ChatDock", "Error"));
    m_status->setObjectName(QStringLiteral("chatStatus"));
    m_status->hide();
    m_usage->setObjectName(QStringLiteral("chatUsage"));
    m_usage->setAccessibleName(QCoreApplication::translate("Gui::ChatDock", "Usage"));
    m_usage->hide();

    // Who, how fast and the buttons wrap onto a second line in a narrow chat instead of setting
    // the transcript's minimum width: that would push the text under the dock's edge.
    auto *header = new FlowLayout;
    m_sender = senderLabel(QCoreApplication::translate("Gui::ChatDock", "Assistant"), {}, this);
    header->addWidget(m_sender);
    header->addWidget(m_timing);
    header->addWidget(m_quick);
    header->addWidget(m_opening);
    header->addWidget(m_cacheMark);
    header->addWidget(m_askMain);
    header->addWidget(m_copy);
    header->addWidget(m_regenerate);
    header->addWidget(m_delete);
    auto *errorLayout = new QHBoxLayout(m_errorRow);
    errorLayout->setContentsMargins(0, 0, 0, 0);
    errorLayout->addWidget(m_errorIcon, 0, Qt::AlignTop);
    errorLayout->addWidget(m_error, 1);
    m_errorRow->hide();

    auto *layout = new QVBoxLayout(this);
    layout->addLayout(header);
    layout->addWidget(m_acknowledgement);
    layout->addWidget(m_view);
    layout->addWidget(m_errorRow);
    layout->addWidget(m_status);
    layout->addWidget(m_usage);
    applyErrorStyle();
}

void AnswerWidget::setTiming(double firstTokenMs, bool early, bool ready)
{
    QString text = QCoreApplication::translate("Gui::ChatDock", "First token after %1 ms")
                       .arg(QLocale().toString(firstTokenMs, 'f', 0));
    // What the early start did, in words: "prefetched" beside a long wait read as "instant".
    if (early) {
        text = ready ? QCoreApplication::translate("Gui::ChatDock", "%1 · started before you sent: it was ready").arg(text)
                     : QCoreApplication::translate("Gui::ChatDock",
                                                   "%1 · started before you sent: not early enough to be ready")
                           .arg(text);
        m_timing->setToolTip(
            text + u'\n'
            + QCoreApplication::translate("Gui::ChatDock",
                                          "This answer was started while you paused typing, before you pressed Enter."));
    }
    m_timing->setText(text);
}

void AnswerWidget::setUsage(const MessageUsage &usage)
{
    const QString line = usageLine(usage);
    m_usage->setText(line);
    m_usage->setToolTip(line.isEmpty() ? QString() : usageDetails(usage));
    m_usage->setVisible(!line.isEmpty());
    setOpening(usage.openingModel, usage.model);
}

QString AnswerWidget::usageText() const
{
    return m_usage->text();
}

void AnswerWidget::setTime(const QDateTime &when)
{
    if (when.isValid())
        m_sender->setToolTip(QLocale().toString(when.toLocalTime(), QLocale::LongFormat));
}

void AnswerWidget::setAcknowledgement(const QString &line, const QString &fastModel, const QString &mainModel)
{
    if (line.isEmpty()) {
        if (m_acknowledgement->isHidden())
            return; // every piece of the answer says so
        m_acknowledgement->clear();
        m_acknowledgement->hide();
        return;
    }
    m_acknowledgement->setText(
        QCoreApplication::translate("Gui::ChatDock", "%1, while %2 thinks: %3").arg(fastModel, mainModel, line));
    m_acknowledgement->show();
}

void AnswerWidget::setStatus(const QString &text)
{
    m_status->setText(text);
    m_status->setVisible(!text.isEmpty());
}

void AnswerWidget::setError(const QString &message)
{
    m_error->setText(message);
    m_errorRow->setVisible(!message.isEmpty());
}

QString AnswerWidget::errorText() const
{
    return m_errorRow->isVisible() ? m_error->text() : QString();
}

QString AnswerWidget::text() const
{
    return m_view->plainText();
}

QString AnswerWidget::markdown() const
{
    return m_view->markdown();
}

void AnswerWidget::setFastModel(const QString &fastModel, const QString &mainModel)
{
    m_fastModel = fastModel;
    m_quick->setText(QCoreApplication::translate("Gui::ChatDock", "Quick answer · %1").arg(fastModel));
    m_quick->setToolTip(
        QCoreApplication::translate("Gui::ChatDock",
                                    "Small talk and simple questions are answered by the provider's fast model, which "
                                    "answers sooner and costs less (Settings, Prefetch, Fast model)."));
    m_quick->setVisible(!fastModel.isEmpty());
    const QString ask = QCoreApplication::translate("Gui::ChatDock", "Ask %1").arg(mainModel);
    m_askMain->setText(ask);
    m_askMain->setAccessibleName(ask);
    m_askMain->setToolTip(QCoreApplication::translate("Gui::ChatDock", "Replace this answer with one from %1, the "
                                                                       "main model")
                              .arg(mainModel));
    if (fastModel.isEmpty())
        m_askMain->hide();
}

void AnswerWidget::setOpening(const QString &fastModel, const QString &mainModel)
{
    m_openingModel = fastModel;
    m_opening->setText(QCoreApplication::translate("Gui::ChatDock", "First words · %1").arg(fastModel));
    // As a paragraph, so that the tooltip wraps instead of running off the screen.
    m_opening->setToolTip(
        QStringLiteral("<p>%1</p>")
            .arg(QCoreApplication::translate("Gui::ChatDock", "The first sentence of this answer was written by %1, "
                                                              "the provider's fast model, so that it began sooner; %2 "
                                                              "wrote the rest (Settings, Prefetch, Fast model).")
                     .arg(fastModel, mainModel)
                     .toHtmlEscaped()));
    m_opening->setVisible(!fastModel.isEmpty());
}

void AnswerWidget::setCached(CachedAnswer cached)
{
    m_cached = cached;
    switch (cached) {
    case CachedAnswer::None: break;
    case CachedAnswer::Exact:
        m_cacheMark->setText(QCoreApplication::translate("Gui::ChatDock", "From the cache"));
        m_cacheMark->setToolTip(QCoreApplication::translate(
            "Gui::ChatDock", "This question was asked before in this same conversation and context: this is the "
                             "answer it got then, and nothing was sent. Regenerate asks the model anew."));
        break;
    case CachedAnswer::Similar:
        m_cacheMark->setText(QCoreApplication::translate("Gui::ChatDock", "From the cache · a similar question"));
        m_cacheMark->setToolTip(QCoreApplication::translate(
            "Gui::ChatDock", "A question almost the same as this one was answered before in this context, and "
                             "its answer held each time: it is given again, and nothing was sent. Regenerate "
                             "asks the model anew."));
        break;
    case CachedAnswer::Draft:
        m_cacheMark->setText(QCoreApplication::translate("Gui::ChatDock", "Draft from a similar question"));
        m_cacheMark->setToolTip(QCoreApplication::translate(
            "Gui::ChatDock", "The answer a similar question got before, shown while this one's answer is on its "
                             "way; the live answer replaces it."));
        break;
    }
    m_cacheMark->setVisible(cached != CachedAnswer::None);
    // A draft reads as one: its text in the muted colour until the live answer replaces it.
    QPalette palette;
    if (cached == CachedAnswer::Draft) {
        palette = m_view->palette();
        palette.setColor(QPalette::Text, palette.color(QPalette::PlaceholderText));
        palette.setColor(QPalette::WindowText, palette.color(QPalette::PlaceholderText));
    }
    m_view->setPalette(palette); // a default palette: the inherited one again
}

QToolButton *AnswerWidget::button(MessageAction action) const
{
    switch (action) {
    case MessageAction::Copy: return m_copy;
    case MessageAction::Regenerate: return m_regenerate;
    case MessageAction::Delete: return m_delete;
    case MessageAction::AskMainModel: return m_askMain;
    case MessageAction::Edit: break;
    }
    return nullptr;
}

void AnswerWidget::changeEvent(QEvent *event)
{
    QFrame::changeEvent(event);
    if (event->type() == QEvent::PaletteChange || event->type() == QEvent::StyleChange)
        applyErrorStyle();
}

void AnswerWidget::applyErrorStyle()
{
    QPalette p = m_error->palette();
    p.setColor(QPalette::WindowText, errorColor(palette()));
    m_error->setPalette(p);
    m_error->setForegroundRole(QPalette::WindowText); // not the Text role a Base background implies
    const int size = style()->pixelMetric(QStyle::PM_SmallIconSize, nullptr, this);
    m_errorIcon->setPixmap(style()
                               ->standardIcon(QStyle::SP_MessageBoxWarning, nullptr, this)
                               .pixmap(QSize(size, size), devicePixelRatioF()));
}

} // namespace Gui
