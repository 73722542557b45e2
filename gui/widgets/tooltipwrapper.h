#pragma once

#include <QObject>

namespace Gui {

// Long plain-text tooltips as paragraphs that wrap: Qt shows a plain tooltip on one line, and a
// sentence or two of explanation (the metrics' columns, the settings' switches) ran off the
// screen. Installed on the application, it takes every widget's tooltip and every item view's
// and header's (their text comes from the model, not from toolTip()); short and rich-text ones
// are left to Qt.
class ToolTipWrapper : public QObject
{
    Q_OBJECT

public:
    using QObject::QObject;

    // `text` as rich text that wraps (its line breaks kept).
    static QString wrapped(const QString &text);

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;
};

} // namespace Gui
