#include "textbatcher.h"

#include <QScrollBar>
#include <QTextCursor>
#include <QTextDocument>

namespace Gui {

void appendStreamed(QTextDocument *document, QScrollBar *bar, const QString &text)
{
    const bool atBottom = bar->value() >= bar->maximum() - 2;
    QTextCursor cursor(document);
    cursor.movePosition(QTextCursor::End);
    cursor.insertText(text);
    if (atBottom)
        bar->setValue(bar->maximum());
}

namespace {
// One frame at 60 Hz: fast enough to look live, slow enough to batch tokens.
constexpr int FrameMs = 16;
} // namespace

TextBatcher::TextBatcher(QObject *parent)
    : QObject(parent)
{
    m_timer.setSingleShot(true);
    m_timer.setInterval(FrameMs);
    connect(&m_timer, &QTimer::timeout, this, &TextBatcher::flush);
}

void TextBatcher::append(const QString &text)
{
    if (text.isEmpty())
        return;
    m_pending += text;
    if (m_first)
        flush();
    else if (!m_timer.isActive())
        m_timer.start();
}

void TextBatcher::flush()
{
    m_timer.stop();
    if (m_pending.isEmpty())
        return;
    const bool first = std::exchange(m_first, false);
    emit flushed(std::exchange(m_pending, QString()), first);
}

void TextBatcher::reset()
{
    m_timer.stop();
    m_pending.clear();
    m_first = true;
}

} // namespace Gui
