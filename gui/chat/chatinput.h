#pragma once

#include <QPlainTextEdit>

namespace Gui {

// The chat input. Enter (or Ctrl+Enter) asks to send, with the monotonic time of the key
// press; Shift+Enter adds a line. Grows with its text up to a few lines. Esc is left to the
// window's Stop action. Files dropped onto it or pasted into it (local files, as a file manager
// gives them) are not inserted as text: it reports them, to be attached. An input method's
// pre-edit (the pinyin being composed, not text yet) is reported as it changes.
//
// A completion (how the draft may go on) is shown in grey after the caret while the caret is at
// the end of the text and nothing is composed: Tab or Right accepts it, Esc dismisses it (and is
// then not the Stop shortcut). It is only text in the input: nothing is sent until Enter. Any
// edit clears it; the owner sets the next one.
class ChatInput : public QPlainTextEdit
{
    Q_OBJECT

public:
    explicit ChatInput(QWidget *parent = nullptr);

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

    void setCompletion(const QString &rest, bool wholeMessage);
    QString completion() const { return m_completion; }
    // The completion is visible: there is one, the input has the focus, the caret is at the end
    // and nothing is composed.
    bool isCompletionShown() const;

signals:
    void sendRequested(qint64 activatedNs);
    void focusEntered();
    // Local files were dropped or pasted: their paths, in the order given.
    void filesDropped(const QStringList &paths);
    // The input method's pre-edit changed; empty once it is committed or cancelled (after the
    // text change a commit makes).
    void compositionChanged(const QString &preedit);
    // A completion was accepted (its text is in); `wholeMessage` as given with it.
    void completionAccepted(bool wholeMessage);

protected:
    bool event(QEvent *event) override;
    void paintEvent(QPaintEvent *event) override;
    void keyPressEvent(QKeyEvent *event) override;
    void focusInEvent(QFocusEvent *event) override;
    void focusOutEvent(QFocusEvent *event) override;
    void dropEvent(QDropEvent *event) override;
    bool canInsertFromMimeData(const QMimeData *source) const override;
    void insertFromMimeData(const QMimeData *source) override;
    void inputMethodEvent(QInputMethodEvent *event) override;

private:
    int heightForLines(int lines) const;
    void acceptCompletion();
    void clearCompletion();

    QString m_preedit;
    QString m_completion;
    bool m_wholeMessage = false;
};

} // namespace Gui
