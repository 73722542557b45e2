#include "gui/widgets/elidedlabel.h"

#include "gui/widgets/tooltipwrapper.h"

#include <QHelpEvent>
#include <QPainter>
#include <QStyle>
#include <QToolTip>

namespace Gui {

ElidedLabel::ElidedLabel(QWidget *parent)
    : QLabel(parent)
{
    setTextFormat(Qt::PlainText);
    setWordWrap(false);
    // Its width is what the layout has left: it never widens a window (in a FlowLayout, where
    // an Ignored width counts as none, give it Preferred).
    setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
}

QString ElidedLabel::elidedText() const
{
    return fontMetrics().elidedText(text(), Qt::ElideRight, contentsRect().width());
}

bool ElidedLabel::isElided() const
{
    return !wordWrap() && elidedText() != text();
}

QSize ElidedLabel::minimumSizeHint() const
{
    if (wordWrap())
        return QLabel::minimumSizeHint();
    const QMargins margins = contentsMargins();
    return {fontMetrics().averageCharWidth() * 6 + margins.left() + margins.right(), QLabel::minimumSizeHint().height()};
}

void ElidedLabel::paintEvent(QPaintEvent *event)
{
    if (wordWrap()) {
        QLabel::paintEvent(event);
        return;
    }
    QPainter painter(this);
    drawFrame(&painter);
    style()->drawItemText(&painter, contentsRect(), int(alignment()) | Qt::TextSingleLine, palette(), isEnabled(),
                          elidedText(), foregroundRole());
}

bool ElidedLabel::event(QEvent *event)
{
    // The whole text when it is cut, where no tooltip of its own was set.
    if (event->type() == QEvent::ToolTip && toolTip().isEmpty() && isElided()) {
        QToolTip::showText(static_cast<QHelpEvent *>(event)->globalPos(), ToolTipWrapper::wrapped(text()), this);
        return true;
    }
    return QLabel::event(event);
}

} // namespace Gui
