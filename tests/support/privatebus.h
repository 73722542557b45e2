#pragma once

#include <QProcess>
#include <QString>
#include <QTemporaryDir>

namespace TestSupport {

// A D-Bus bus of a test's own: dbus-daemon with a configuration written to a temporary folder,
// listening there only, on which anyone may own any name (the fakes claim the real services'
// names). No bus of the machine is used. Stopped when destroyed.
class PrivateBus
{
public:
    static constexpr int TimeoutMs = 5000;

    PrivateBus() = default;
    ~PrivateBus();
    PrivateBus(const PrivateBus &) = delete;
    PrivateBus &operator=(const PrivateBus &) = delete;

    // Starts the daemon and waits for its address; false with errorString() if it cannot.
    bool start();
    QString address() const { return m_address; }
    QString errorString() const { return m_error; }

private:
    QTemporaryDir m_dir;
    QProcess m_daemon;
    QString m_address;
    QString m_error;
};

} // namespace TestSupport
