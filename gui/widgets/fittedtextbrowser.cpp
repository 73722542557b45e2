#include "gui/widgets/fittedtextbrowser.h"

#include <QAbstractTextDocumentLayout>
#include <QWheelEvent>
#include <QtMath>

namespace Gui {

FittedTextBrowser::FittedTextBrowser(QWidget *parent)
    : QTextBrowser(parent)
{
    setFrameShape(QFrame::NoFrame);
    setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Fixed);
    setTabChangesFocus(true);
    setFocusPolicy(Qt::ClickFocus);
    viewport()->setAutoFillBackground(false);
    document()->setUndoRedoEnabled(false);
    connect(document()->documentLayout(), &QAbstractTextDocumentLayout::documentSizeChanged, this,
            [this] { updateGeometry(); });
}

QSize FittedTextBrowser::sizeHint() const
{
    return {QTextBrowser::sizeHint().width(), contentHeight()};
}

QSize FittedTextBrowser::minimumSizeHint() const
{
    return {QTextBrowser::minimumSizeHint().width(), contentHeight()};
}

void FittedTextBrowser::wheelEvent(QWheelEvent *event)
{
    event->ignore(); // nothing to scroll here: the transcript scrolls
}

int FittedTextBrowser::contentHeight() const
{
    const QMargins m = contentsMargins();
    return qCeil(document()->size().height()) + m.top() + m.bottom();
}

} // namespace Gui
