#include "gui/widgets/flowlayout.h"

#include <QStyle>
#include <QWidget>

#include <algorithm>

namespace Gui {

FlowLayout::FlowLayout(QWidget *parent)
    : QLayout(parent)
{
}

FlowLayout::~FlowLayout()
{
    while (QLayoutItem *item = takeAt(0))
        delete item;
}

void FlowLayout::addItem(QLayoutItem *item)
{
    m_items.append(item);
    invalidate();
}

int FlowLayout::count() const
{
    return int(m_items.size());
}

QLayoutItem *FlowLayout::itemAt(int index) const
{
    return m_items.value(index);
}

QLayoutItem *FlowLayout::takeAt(int index)
{
    if (index < 0 || index >= m_items.size())
        return nullptr;
    QLayoutItem *item = m_items.takeAt(index);
    invalidate();
    return item;
}

Qt::Orientations FlowLayout::expandingDirections() const
{
    return {};
}

bool FlowLayout::hasHeightForWidth() const
{
    return true;
}

int FlowLayout::heightForWidth(int width) const
{
    return arrange(QRect(0, 0, width, 0), false);
}

QSize FlowLayout::minimumSize() const
{
    QSize size;
    for (const QLayoutItem *item : m_items) {
        if (!item->isEmpty())
            size = size.expandedTo(item->minimumSize());
    }
    const QMargins m = contentsMargins();
    return size + QSize(m.left() + m.right(), m.top() + m.bottom());
}

QSize FlowLayout::sizeHint() const
{
    // One row: what the items ask for side by side.
    int width = 0;
    int height = 0;
    int visible = 0;
    for (const QLayoutItem *item : m_items) {
        if (item->isEmpty())
            continue;
        const QSize hint = item->sizeHint();
        width += hint.width();
        height = std::max(height, hint.height());
        ++visible;
    }
    if (visible > 1)
        width += (visible - 1) * horizontalGap();
    const QMargins m = contentsMargins();
    return {width + m.left() + m.right(), height + m.top() + m.bottom()};
}

void FlowLayout::setGeometry(const QRect &rect)
{
    QLayout::setGeometry(rect);
    arrange(rect, true);
}

int FlowLayout::arrange(const QRect &rect, bool apply) const
{
    const QRect area = rect.marginsRemoved(contentsMargins());
    int x = area.x();
    int y = area.y();
    int rowHeight = 0;
    for (QLayoutItem *item : m_items) {
        if (item->isEmpty())
            continue; // a hidden widget takes no room
        QSize size = item->sizeHint();
        // An item wider than a whole row (a label that can cut its text) gets the row, down to
        // its minimum: at its size hint it would run past the edge.
        size.setWidth(std::max(std::min(size.width(), area.width()), item->minimumSize().width()));
        if (x > area.x() && x + size.width() > area.right() + 1) {
            // Full: the next row.
            x = area.x();
            y += rowHeight + verticalGap();
            rowHeight = 0;
        }
        if (apply)
            item->setGeometry(QRect(QPoint(x, y), size));
        x += size.width() + horizontalGap();
        rowHeight = std::max(rowHeight, size.height());
    }
    const QMargins m = contentsMargins();
    return y + rowHeight - rect.y() + m.bottom();
}

namespace {

// The style's gap between two buttons: its metric, or (styles that answer -1 there, Fusion
// among them) its spacing for that pair of controls.
int styleGap(const QWidget *widget, QStyle::PixelMetric metric, Qt::Orientation orientation)
{
    if (!widget)
        return 6;
    const int gap = widget->style()->pixelMetric(metric, nullptr, widget);
    if (gap >= 0)
        return gap;
    return std::max(0, widget->style()->layoutSpacing(QSizePolicy::PushButton, QSizePolicy::PushButton, orientation,
                                                      nullptr, widget));
}

} // namespace

int FlowLayout::horizontalGap() const
{
    return spacing() >= 0 ? spacing() : styleGap(parentWidget(), QStyle::PM_LayoutHorizontalSpacing, Qt::Horizontal);
}

int FlowLayout::verticalGap() const
{
    return spacing() >= 0 ? spacing() : styleGap(parentWidget(), QStyle::PM_LayoutVerticalSpacing, Qt::Vertical);
}

} // namespace Gui
