#include "gui/chat/chatinput.h"

#include "llm/clock.h"

#include <QAbstractTextDocumentLayout>
#include <QDropEvent>
#include <QInputMethodEvent>
#include <QKeyEvent>
#include <QMimeData>
#include <QUrl>
#include <QtMath>

namespace Gui {

namespace {
// The input grows up to this many lines, then scrolls.
constexpr int InputMinLines = 2;
constexpr int InputMaxLines = 8;

// The local files in `source`, or none when anything else is in its URL list (a web link is
// text to paste, not a file to attach).
QStringList localFiles(const QMimeData *source)
{
    if (!source || !source->hasUrls())
        return {};
    QStringList paths;
    for (const QUrl &url : source->urls()) {
        if (!url.isLocalFile())
            return {};
        paths.append(url.toLocalFile());
    }
    return paths;
}
} // namespace

ChatInput::ChatInput(QWidget *parent)
    : QPlainTextEdit(parent)
{
    setTabChangesFocus(true);
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Preferred);
    connect(document()->documentLayout(), &QAbstractTextDocumentLayout::documentSizeChanged, this,
            [this] { updateGeometry(); });
}

int ChatInput::heightForLines(int lines) const
{
    const QMargins m = contentsMargins();
    return fontMetrics().lineSpacing() * lines + qCeil(2 * document()->documentMargin()) + m.top() + m.bottom();
}

QSize ChatInput::sizeHint() const
{
    // QPlainTextEdit's document counts lines (wrapped ones included) in its height.
    const int lines = qBound(InputMinLines, int(document()->documentLayout()->documentSize().height()), InputMaxLines);
    return {QPlainTextEdit::sizeHint().width(), heightForLines(lines)};
}

QSize ChatInput::minimumSizeHint() const
{
    return {QPlainTextEdit::minimumSizeHint().width(), heightForLines(InputMinLines)};
}

void ChatInput::keyPressEvent(QKeyEvent *event)
{
    const bool enter = event->key() == Qt::Key_Return || event->key() == Qt::Key_Enter;
    if (enter && !isReadOnly()) {
        const Qt::KeyboardModifiers mods = event->modifiers() & ~Qt::KeypadModifier;
        if (mods == Qt::NoModifier || mods == Qt::ControlModifier) {
            // The moment of the key press is what perceived latency is measured from.
            emit sendRequested(Llm::monotonicNowNs());
            event->accept();
            return;
        }
        if (mods == Qt::ShiftModifier) {
            // A paragraph break, not QPlainTextEdit's line separator (U+2028), so the text
            // reads back with an ordinary '\n'.
            textCursor().insertText(QStringLiteral("\n"));
            ensureCursorVisible();
            event->accept();
            return;
        }
    }
    QPlainTextEdit::keyPressEvent(event);
}

void ChatInput::dropEvent(QDropEvent *event)
{
    // A text drop puts the caret where it lands; files are not text, and the caret stays where
    // the user was typing.
    const QTextCursor caret = textCursor();
    const bool files = !localFiles(event->mimeData()).isEmpty();
    QPlainTextEdit::dropEvent(event);
    if (files)
        setTextCursor(caret);
}

bool ChatInput::canInsertFromMimeData(const QMimeData *source) const
{
    return !localFiles(source).isEmpty() || QPlainTextEdit::canInsertFromMimeData(source);
}

void ChatInput::insertFromMimeData(const QMimeData *source)
{
    if (const QStringList paths = localFiles(source); !paths.isEmpty()) {
        emit filesDropped(paths);
        return;
    }
    QPlainTextEdit::insertFromMimeData(source);
}

void ChatInput::inputMethodEvent(QInputMethodEvent *event)
{
    // The commit (if any) goes into the text first, so that a listener sees the new draft before
    // it hears that composing has ended.
    QPlainTextEdit::inputMethodEvent(event);
    if (event->preeditString() != m_preedit) {
        m_preedit = event->preeditString();
        emit compositionChanged(m_preedit);
    }
}

void ChatInput::focusInEvent(QFocusEvent *event)
{
    QPlainTextEdit::focusInEvent(event);
    emit focusEntered();
}

} // namespace Gui
