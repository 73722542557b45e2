#include "gui/widgets/tooltipwrapper.h"

#include <QAbstractItemView>
#include <QHeaderView>
#include <QHelpEvent>
#include <QTextDocument>
#include <QToolTip>

namespace Gui {

namespace {

// Under this many characters a tooltip fits on a line anywhere.
constexpr qsizetype LongTip = 60;

} // namespace

QString ToolTipWrapper::wrapped(const QString &text)
{
    return Qt::convertFromPlainText(text, Qt::WhiteSpaceNormal);
}

bool ToolTipWrapper::eventFilter(QObject *watched, QEvent *event)
{
    if (event->type() != QEvent::ToolTip || !watched->isWidgetType())
        return QObject::eventFilter(watched, event);
    auto *widget = static_cast<QWidget *>(watched);
    const auto *help = static_cast<QHelpEvent *>(event);
    QString text;
    QRect area; // where the tooltip stays while the pointer is in it; empty: the widget
    auto *view = qobject_cast<QAbstractItemView *>(widget->parentWidget());
    if (view && view->viewport() == widget && view->model()) {
        if (const auto *header = qobject_cast<QHeaderView *>(view)) {
            const int section = header->logicalIndexAt(help->pos());
            if (section < 0)
                return false;
            text = header->model()->headerData(section, header->orientation(), Qt::ToolTipRole).toString();
        } else {
            const QModelIndex index = view->indexAt(help->pos());
            if (!index.isValid())
                return false;
            text = index.data(Qt::ToolTipRole).toString();
            area = view->visualRect(index);
        }
    } else {
        text = widget->toolTip();
    }
    if (text.size() < LongTip || Qt::mightBeRichText(text))
        return false; // Qt's own handling
    QToolTip::showText(help->globalPos(), wrapped(text), widget, area);
    return true;
}

} // namespace Gui
