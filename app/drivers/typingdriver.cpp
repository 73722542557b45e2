#include "typingdriver.h"

#include <QCoreApplication>
#include <QKeyEvent>

namespace App {

TypingDriver::TypingDriver(QWidget *target, const QString &text, int intervalMs, QObject *parent)
    : QObject(parent)
    , m_target(target)
    , m_text(text)
{
    m_timer.setInterval(intervalMs);
    connect(&m_timer, &QTimer::timeout, this, &TypingDriver::typeNext);
}

void TypingDriver::typeNext()
{
    if (!m_target || m_next >= m_text.size()) {
        m_timer.stop();
        return;
    }
    const QChar c = m_text.at(m_next++);
    const bool enter = c == u'\n';
    const int key = enter ? int(Qt::Key_Return) : int(c.toUpper().unicode());
    const QString typed = enter ? QStringLiteral("\r") : QString(c);
    QCoreApplication::postEvent(m_target, new QKeyEvent(QEvent::KeyPress, key, Qt::NoModifier, typed));
    QCoreApplication::postEvent(m_target, new QKeyEvent(QEvent::KeyRelease, key, Qt::NoModifier, typed));
}

} // namespace App
