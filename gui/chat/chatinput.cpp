#include "gui/chat/chatinput.h"

#include "llm/clock.h"

#include <QAbstractTextDocumentLayout>
#include <QDropEvent>
#include <QInputMethodEvent>
#include <QKeyEvent>
#include <QMimeData>
#include <QPainter>
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
    // Before the owner's own connection (made after construction), which sets the next one.
    connect(this, &QPlainTextEdit::textChanged, this, &ChatInput::clearCompletion);
    connect(this, &QPlainTextEdit::cursorPositionChanged, viewport(), qOverload<>(&QWidget::update));
}

void ChatInput::setCompletion(const QString &rest, bool wholeMessage)
{
    if (rest == m_completion && wholeMessage == m_wholeMessage)
        return;
    m_completion = rest;
    m_wholeMessage = wholeMessage;
    viewport()->update();
}

void ChatInput::clearCompletion()
{
    setCompletion({}, false);
}

bool ChatInput::isCompletionShown() const
{
    const QTextCursor caret = textCursor();
    // Where the user types: not behind a dialog or while the focus is elsewhere.
    return !m_completion.isEmpty() && m_preedit.isEmpty() && !isReadOnly() && hasFocus() && !caret.hasSelection()
           && caret.atEnd();
}

void ChatInput::acceptCompletion()
{
    const QString rest = m_completion;
    const bool whole = m_wholeMessage;
    clearCompletion();
    QTextCursor caret = textCursor();
    // Its own step to undo, apart from the letters typed before it.
    caret.beginEditBlock();
    caret.insertText(rest);
    caret.endEditBlock();
    setTextCursor(caret);
    ensureCursorVisible();
    emit completionAccepted(whole);
}

bool ChatInput::event(QEvent *event)
{
    // Tab is taken before keyPressEvent() (it moves the focus) and Esc is a window shortcut:
    // while a completion shows, they are its keys.
    if (event->type() == QEvent::KeyPress || event->type() == QEvent::ShortcutOverride) {
        const auto *key = static_cast<QKeyEvent *>(event);
        const bool plain = (key->modifiers() & ~Qt::KeypadModifier) == Qt::NoModifier;
        if (plain && isCompletionShown()) {
            if (key->key() == Qt::Key_Escape && event->type() == QEvent::ShortcutOverride) {
                event->accept(); // delivered as a key press, below
                return true;
            }
            if (key->key() == Qt::Key_Tab && event->type() == QEvent::KeyPress) {
                acceptCompletion();
                return true;
            }
        }
    }
    return QPlainTextEdit::event(event);
}

void ChatInput::paintEvent(QPaintEvent *event)
{
    QPlainTextEdit::paintEvent(event);
    if (!isCompletionShown())
        return;
    // The first line of it, after the caret, as far as the line has room.
    const QRect caret = cursorRect();
    const int x = caret.left() + cursorWidth();
    const int room = viewport()->width() - x - qCeil(document()->documentMargin());
    if (room <= 0)
        return;
    const qsizetype lineEnd = m_completion.indexOf(QLatin1Char('\n'));
    const QString line = lineEnd < 0 ? m_completion : m_completion.left(lineEnd) + QStringLiteral(" …");
    QPainter painter(viewport());
    painter.setFont(font());
    painter.setPen(palette().color(QPalette::PlaceholderText));
    painter.drawText(QRect(x, caret.top(), room, caret.height()), Qt::AlignLeft | Qt::AlignVCenter,
                     fontMetrics().elidedText(line, Qt::ElideRight, room));
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
    if ((event->modifiers() & ~Qt::KeypadModifier) == Qt::NoModifier && isCompletionShown()) {
        if (event->key() == Qt::Key_Right) {
            acceptCompletion();
            event->accept();
            return;
        }
        if (event->key() == Qt::Key_Escape) {
            clearCompletion();
            event->accept();
            return;
        }
    }
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

void ChatInput::focusOutEvent(QFocusEvent *event)
{
    QPlainTextEdit::focusOutEvent(event);
    viewport()->update(); // the completion goes with the focus
}

void ChatInput::focusInEvent(QFocusEvent *event)
{
    QPlainTextEdit::focusInEvent(event);
    viewport()->update(); // and comes back with it
    emit focusEntered();
}

} // namespace Gui
