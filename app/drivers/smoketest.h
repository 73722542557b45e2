#pragma once

#include <QObject>
#include <QString>
#include <QTimer>

namespace App {

class Application;

// For the hidden --smoke-test option, with which tests/install/ checks an installed copy end
// to end: checks the window has an icon, opens `path`, runs Summarize, and once the answer has
// ended prints its first line and "smoke: ok" to stdout and quits with 0. A failure (no icon,
// the file does not open, the answer fails or does not end within 60 s) is printed to stderr
// and quits with 1.
class SmokeTest : public QObject
{
    Q_OBJECT

public:
    SmokeTest(Application *app, const QString &path);

private:
    void run();
    void fail(const QString &why);

    Application *m_app;
    QString m_path;
    QTimer m_timeout;
};

} // namespace App
