#pragma once

#include <QPlainTextEdit>

namespace Gui {

// The chat input. Enter (or Ctrl+Enter) asks to send, with the monotonic time of the key
// press; Shift+Enter adds a line. Grows with its text up to a few lines. Esc is left to the
// window's Stop action. Files dropped onto it or pasted into it (local files, as a file manager
// gives them) are not inserted as text: it reports them, to be attached. An input method's
// pre-edit (the pinyin being composed, not text yet) is reported as it changes.
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
    // Local files were dropped or pasted: their paths, in the order given.
    void filesDropped(const QStringList &paths);
    // The input method's pre-edit changed; empty once it is committed or cancelled (after the
    // text change a commit makes).
    void compositionChanged(const QString &preedit);

protected:
    void keyPressEvent(QKeyEvent *event) override;
    void focusInEvent(QFocusEvent *event) override;
    void dropEvent(QDropEvent *event) override;
    bool canInsertFromMimeData(const QMimeData *source) const override;
    void insertFromMimeData(const QMimeData *source) override;
    void inputMethodEvent(QInputMethodEvent *event) override;

private:
    int heightForLines(int lines) const;

    QString m_preedit;
};

} // namespace Gui
