#pragma once

#include <QTextBrowser>

namespace Gui {

// Read-only rich text that grows with its content instead of scrolling, so a transcript of
// many of them scrolls as one; wheel events go to that transcript. Click focus only: a long
// transcript would otherwise be a long chain of Tab stops. No undo history (streamed text).
class FittedTextBrowser : public QTextBrowser
{
    Q_OBJECT

public:
    explicit FittedTextBrowser(QWidget *parent = nullptr);

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

protected:
    void wheelEvent(QWheelEvent *event) override;

private:
    int contentHeight() const;
};

} // namespace Gui
