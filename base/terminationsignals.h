#pragma once

#include <QObject>

#include <initializer_list>
#include <memory>

class QSocketNotifier;

namespace Base {

// SIGINT, SIGTERM and SIGHUP (a Ctrl-C, a logout, `kill`, a closed terminal) as a Qt signal in
// the thread that made this object, so that the process ends through its event loop and its
// destructors: stores closed, recovery copies written, connections closed. The handler itself
// only writes a byte to a socket pair (the one async-signal-safe thing it needs). One instance
// at a time; the default handlers come back when it is destroyed.
class TerminationSignals : public QObject
{
    Q_OBJECT

public:
    explicit TerminationSignals(std::initializer_list<int> signalNumbers, QObject *parent = nullptr);
    ~TerminationSignals() override;

    // The handlers are installed (false: no socket pair could be made).
    bool isActive() const { return m_notifier != nullptr; }

signals:
    void received(int signalNumber);

private:
    std::unique_ptr<QSocketNotifier> m_notifier;
    QList<int> m_signals;
};

} // namespace Base
