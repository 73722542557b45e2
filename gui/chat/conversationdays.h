#pragma once

#include <QDate>
#include <QDateTime>
#include <QStyledItemDelegate>

namespace Gui {

// The conversation list's days: a heading above the first conversation of each stretch of time
// ("Today", "Yesterday", "Previous 7 Days", "Previous 30 Days", then each month), as the clients
// people chat in group their history. The delegate draws it in the row of that conversation, so
// each row stays one conversation: the keys, the selection and the list's count are the
// conversations' alone. Items carry their last change in UpdatedRole. GUI thread.
class ConversationDays : public QStyledItemDelegate
{
    Q_OBJECT

public:
    // A QDateTime (UTC): when the item's conversation last changed.
    static constexpr int UpdatedRole = Qt::UserRole + 1;

    explicit ConversationDays(QObject *parent = nullptr);

    // The heading of a conversation last changed at `updated`, seen on `today` (local dates).
    static QString groupOf(const QDateTime &updated, QDate today);
    // The heading drawn above `index`: empty where the row before is of the same stretch.
    QString headingAbove(const QModelIndex &index) const;

    QSize sizeHint(const QStyleOptionViewItem &option, const QModelIndex &index) const override;
    void paint(QPainter *painter, const QStyleOptionViewItem &option, const QModelIndex &index) const override;
    // The title editor (rename in place) goes over the conversation, under its heading.
    void updateEditorGeometry(QWidget *editor, const QStyleOptionViewItem &option,
                              const QModelIndex &index) const override;

private:
    int headingHeight(const QStyleOptionViewItem &option, const QModelIndex &index) const;
};

} // namespace Gui
