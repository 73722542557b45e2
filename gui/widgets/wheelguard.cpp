#include "gui/widgets/wheelguard.h"

#include <QAbstractScrollArea>
#include <QAbstractSlider>
#include <QAbstractSpinBox>
#include <QComboBox>
#include <QCoreApplication>
#include <QEvent>
#include <QWidget>

namespace Gui {

void WheelGuard::protect(QWidget *root)
{
    auto *guard = new WheelGuard(root);
    const auto widgets = root->findChildren<QWidget *>();
    for (QWidget *w : widgets) {
        const bool wheelSensitive = qobject_cast<QAbstractSpinBox *>(w) || qobject_cast<QComboBox *>(w)
                                    || (qobject_cast<QAbstractSlider *>(w) && !w->inherits("QScrollBar"));
        if (!wheelSensitive)
            continue;
        // WheelFocus (the spin boxes' default) would hand them the focus on the first turn.
        if (w->focusPolicy() == Qt::WheelFocus)
            w->setFocusPolicy(Qt::StrongFocus);
        w->installEventFilter(guard);
    }
}

bool WheelGuard::eventFilter(QObject *watched, QEvent *event)
{
    if (event->type() == QEvent::Wheel) {
        auto *w = static_cast<QWidget *>(watched);
        if (!w->hasFocus()) {
            // Not the control's: the page it is on scrolls instead (a filter that swallows an
            // event ends its propagation, so it is handed to the scroll area's viewport).
            for (QWidget *p = w->parentWidget(); p; p = p->parentWidget()) {
                if (auto *area = qobject_cast<QAbstractScrollArea *>(p)) {
                    QCoreApplication::sendEvent(area->viewport(), event);
                    break;
                }
            }
            return true;
        }
    }
    return QObject::eventFilter(watched, event);
}

} // namespace Gui
