#pragma once

#include <QList>
#include <QObject>
#include <QTimer>

class QTextEdit;
class QToolButton;

namespace Gui {

// A "Copy" button at the top right of every code block shown in a rich-text view. A click puts
// that block's code (only the code, see codeBlockText()) on the clipboard and the button says
// "Copied" for a moment. The buttons are children of the view's viewport and follow the layout:
// they are placed again (once per event-loop pass) when the document's size changes, which
// covers streaming, re-wrapping and resizing. GUI thread; the view owns it.
class CodeCopyButtons : public QObject
{
    Q_OBJECT

public:
    explicit CodeCopyButtons(QTextEdit *view);

    // The buttons shown now, top to bottom.
    QList<QToolButton *> buttons() const;
    // Places the buttons now instead of on the next event-loop pass.
    void place();

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    void copy(QToolButton *button);

    QTextEdit *m_view;
    QList<QToolButton *> m_buttons;
    QList<int> m_firstBlocks; // block number of each button's code block
    QTimer m_place;
};

} // namespace Gui
