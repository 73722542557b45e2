#include "gui/chat/conversationdays.h"

#include <QLocale>
#include <QPainter>

namespace Gui {

ConversationDays::ConversationDays(QObject *parent)
    : QStyledItemDelegate(parent)
{
}

QString ConversationDays::groupOf(const QDateTime &updated, QDate today)
{
    const QDate day = updated.toLocalTime().date();
    const qint64 daysAgo = day.daysTo(today);
    if (daysAgo <= 0) // today, or a clock set back: not in the future
        return tr("Today");
    if (daysAgo == 1)
        return tr("Yesterday");
    if (daysAgo <= 7)
        return tr("Previous 7 Days");
    if (daysAgo <= 30)
        return tr("Previous 30 Days");
    //: A month of the conversation list, as a QDate format: MMMM the month's name, yyyy the year
    //: (Chinese: yyyy年M月).
    return QLocale().toString(QDate(day.year(), day.month(), 1), tr("MMMM yyyy"));
}

QString ConversationDays::headingAbove(const QModelIndex &index) const
{
    if (!index.isValid())
        return {};
    const QDate today = QDate::currentDate();
    const QString group = groupOf(index.data(UpdatedRole).toDateTime(), today);
    const QModelIndex before = index.siblingAtRow(index.row() - 1);
    if (before.isValid() && groupOf(before.data(UpdatedRole).toDateTime(), today) == group)
        return {};
    return group;
}

namespace {

// The room `heading` takes above a row: a line of text with a little air above it (none above
// the first row); none without a heading.
int heightOf(const QString &heading, const QStyleOptionViewItem &option, const QModelIndex &index)
{
    if (heading.isEmpty())
        return 0;
    return option.fontMetrics.height() + (index.row() > 0 ? option.fontMetrics.height() / 2 : 2);
}

} // namespace

int ConversationDays::headingHeight(const QStyleOptionViewItem &option, const QModelIndex &index) const
{
    return heightOf(headingAbove(index), option, index);
}

QSize ConversationDays::sizeHint(const QStyleOptionViewItem &option, const QModelIndex &index) const
{
    QSize size = QStyledItemDelegate::sizeHint(option, index);
    size.rheight() += headingHeight(option, index);
    return size;
}

void ConversationDays::paint(QPainter *painter, const QStyleOptionViewItem &option, const QModelIndex &index) const
{
    const QString title = headingAbove(index);
    const int heading = heightOf(title, option, index);
    if (heading == 0) {
        QStyledItemDelegate::paint(painter, option, index);
        return;
    }
    QRect text = option.rect;
    text.setHeight(heading);
    text.adjust(4, 0, -4, -1);
    painter->save();
    QFont font = option.font;
    font.setBold(true);
    painter->setFont(font);
    painter->setPen(option.palette.color(QPalette::PlaceholderText));
    painter->drawText(text, Qt::AlignLeft | Qt::AlignBottom,
                      QFontMetrics(font).elidedText(title, Qt::ElideRight, text.width()));
    painter->restore();

    QStyleOptionViewItem below = option;
    below.rect.setTop(option.rect.top() + heading);
    QStyledItemDelegate::paint(painter, below, index);
}

void ConversationDays::updateEditorGeometry(QWidget *editor, const QStyleOptionViewItem &option,
                                            const QModelIndex &index) const
{
    QStyleOptionViewItem below = option;
    below.rect.setTop(option.rect.top() + headingHeight(option, index));
    QStyledItemDelegate::updateEditorGeometry(editor, below, index);
}

} // namespace Gui
