#pragma once

#include <QPlainTextEdit>

namespace Gui {

// The chat input. Enter (or Ctrl+Enter) asks to send, with the monotonic time of the key
// press; Shift+Enter adds a line. Grows with its text up to a few lines. Esc is left to the
// window's Stop action.
class ChatInput : public QPlainTextEdit
{
    Q_OBJECT

public:
    explicit ChatInput(QWidget *parent = nullptr);

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

signals:
    void sendRequested(qint64 activatedNs);
    void focusEntered();

protected:
    void keyPressEvent(QKeyEvent *event) override;
    void focusInEvent(QFocusEvent *event) override;

private:
    int heightForLines(int lines) const;
};

} // namespace Gui
