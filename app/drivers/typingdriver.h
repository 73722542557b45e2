#pragma once

#include <QObject>
#include <QPointer>
#include <QString>
#include <QTimer>
#include <QWidget>

namespace App {

// Types `text` into `target` as a keyboard does: one key press and release per character,
// posted through the event loop, so the edit takes the widget's own path (undo, modified
// state, autosave; Enter sends in the chat input). For the hidden --type-document and
// --type-chat options, with which tests/tst_killrecovery.cpp drives the real binary on the
// offscreen platform, where no one can type. Stops when the text is done or the widget gone.
class TypingDriver : public QObject
{
    Q_OBJECT

public:
    TypingDriver(QWidget *target, const QString &text, int intervalMs, QObject *parent = nullptr);
    void start() { m_timer.start(); }

private:
    void typeNext();

    QPointer<QWidget> m_target;
    QString m_text;
    qsizetype m_next = 0;
    QTimer m_timer;
};

} // namespace App
