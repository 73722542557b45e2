#include "gui/answer/codecopybuttons.h"

#include "gui/answer/codehighlighter.h"
#include "gui/widgets/themeicon.h"

#include <QAbstractTextDocumentLayout>
#include <QApplication>
#include <QClipboard>
#include <QEvent>
#include <QScrollBar>
#include <QTextBlock>
#include <QTextDocument>
#include <QTextEdit>
#include <QToolButton>

namespace Gui {

namespace {

// How long a button says "Copied" before it offers to copy again.
constexpr int CopiedFeedbackMs = 1500;

QString copyText()
{
    return QCoreApplication::translate("Gui::CodeCopyButtons", "Copy");
}

} // namespace

CodeCopyButtons::CodeCopyButtons(QTextEdit *view)
    : QObject(view)
    , m_view(view)
{
    m_place.setSingleShot(true);
    m_place.setInterval(0); // after the edit that changed the layout, once per batch of edits
    connect(&m_place, &QTimer::timeout, this, &CodeCopyButtons::place);
    connect(view->document()->documentLayout(), &QAbstractTextDocumentLayout::documentSizeChanged, &m_place,
            qOverload<>(&QTimer::start));
    connect(view->verticalScrollBar(), &QScrollBar::valueChanged, &m_place, qOverload<>(&QTimer::start));
    view->viewport()->installEventFilter(this);
}

QList<QToolButton *> CodeCopyButtons::buttons() const
{
    return m_buttons;
}

bool CodeCopyButtons::eventFilter(QObject *watched, QEvent *event)
{
    if (watched == m_view->viewport() && event->type() == QEvent::Resize)
        m_place.start();
    return QObject::eventFilter(watched, event);
}

void CodeCopyButtons::place()
{
    m_place.stop();
    QTextDocument *doc = m_view->document();
    QAbstractTextDocumentLayout *layout = doc->documentLayout();
    QList<int> firsts;
    QList<QRectF> rects;
    QString previousLanguage;
    bool previousWasCode = false;
    for (QTextBlock block = doc->begin(); block.isValid(); block = block.next()) {
        const QTextBlockFormat format = block.blockFormat();
        const bool code = isCodeBlock(format);
        const QString language = format.stringProperty(QTextFormat::BlockCodeLanguage);
        // codeBlockText() reads a block as far as this grouping goes: the same rule.
        if (code && (!previousWasCode || language != previousLanguage)) {
            firsts << block.blockNumber();
            rects << layout->blockBoundingRect(block);
        }
        previousWasCode = code;
        previousLanguage = language;
    }

    while (m_buttons.size() < firsts.size()) {
        auto *button = new QToolButton(m_view->viewport());
        button->setObjectName(QStringLiteral("codeCopyButton"));
        button->setIcon(themeIcon("edit-copy"));
        button->setText(copyText());
        button->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
        button->setAutoRaise(true);
        button->setCursor(Qt::ArrowCursor); // not the text view's I-beam
        button->setToolTip(QCoreApplication::translate("Gui::CodeCopyButtons", "Copy this code to the clipboard"));
        button->setAccessibleName(QCoreApplication::translate("Gui::CodeCopyButtons", "Copy code"));
        connect(button, &QToolButton::clicked, this, [this, button] { copy(button); });
        m_buttons << button;
    }
    while (m_buttons.size() > firsts.size())
        delete m_buttons.takeLast();
    m_firstBlocks = firsts;

    const int scrolled = m_view->verticalScrollBar()->value();
    const int width = m_view->viewport()->width();
    for (qsizetype i = 0; i < m_buttons.size(); ++i) {
        QToolButton *button = m_buttons.at(i);
        const QSize size = button->sizeHint();
        button->resize(size);
        const QRectF rect = rects.at(i);
        button->move(qMax(0, qMin(width, int(rect.right())) - size.width()), int(rect.top()) - scrolled);
        button->show();
        button->raise();
    }
}

void CodeCopyButtons::copy(QToolButton *button)
{
    const qsizetype index = m_buttons.indexOf(button);
    if (index < 0)
        return;
    const QTextBlock first = m_view->document()->findBlockByNumber(m_firstBlocks.at(index));
    QApplication::clipboard()->setText(codeBlockText(first));
    // Copying shows nothing by itself: the button says it happened.
    button->setText(QCoreApplication::translate("Gui::CodeCopyButtons", "Copied"));
    QTimer::singleShot(CopiedFeedbackMs, button, [button] { button->setText(copyText()); });
}

} // namespace Gui
