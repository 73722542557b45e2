#pragma once

#include <QLabel>

namespace Gui {

// A label of one line that gives way in a narrow window: its plain text is cut with "…" where
// it does not fit, and then the whole of it is the tooltip (unless one was set). Its minimum
// width is a few characters, so a long text never widens the window. text() stays the whole
// text. With word wrap switched on it is a plain QLabel again (rich text, links, many lines),
// for the rarer message that must be read in full.
class ElidedLabel : public QLabel
{
    Q_OBJECT

public:
    explicit ElidedLabel(QWidget *parent = nullptr);

    // Whether the text is cut at the current width.
    bool isElided() const;

    QSize minimumSizeHint() const override;

protected:
    void paintEvent(QPaintEvent *event) override;
    bool event(QEvent *event) override;

private:
    QString elidedText() const;
};

} // namespace Gui
