#pragma once

#include <QLayout>
#include <QList>

namespace Gui {

// Lays its items out in a row, left to right, and wraps onto another row when the row is full,
// as text does: a row of buttons that stays whole in a narrow window instead of setting the
// window's minimum width. Its minimum width is its widest item's; its height follows its width
// (heightForWidth). Spacing is the style's layout spacing unless set.
class FlowLayout : public QLayout
{
public:
    explicit FlowLayout(QWidget *parent = nullptr);
    ~FlowLayout() override;

    void addItem(QLayoutItem *item) override;
    int count() const override;
    QLayoutItem *itemAt(int index) const override;
    QLayoutItem *takeAt(int index) override;

    Qt::Orientations expandingDirections() const override;
    bool hasHeightForWidth() const override;
    int heightForWidth(int width) const override;
    QSize minimumSize() const override;
    QSize sizeHint() const override;
    void setGeometry(const QRect &rect) override;

private:
    // Places the items in `rect` (or only measures, when `apply` is false); returns the height used.
    int arrange(const QRect &rect, bool apply) const;
    int horizontalGap() const;
    int verticalGap() const;

    QList<QLayoutItem *> m_items;
};

} // namespace Gui
