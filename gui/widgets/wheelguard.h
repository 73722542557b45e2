#pragma once

#include <QObject>

class QWidget;

namespace Gui {

// Spin boxes, sliders and combo boxes take the mouse wheel only when they have the keyboard
// focus. Otherwise the wheel scrolls the page they are on: a user scrolling a long settings page
// must not change the values passing under the pointer (Qt's default does, and saves them).
class WheelGuard final : public QObject
{
    Q_OBJECT

public:
    // Guards every such control under `root` now; call once its children are built.
    static void protect(QWidget *root);

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    explicit WheelGuard(QObject *parent)
        : QObject(parent)
    {
    }
};

} // namespace Gui
