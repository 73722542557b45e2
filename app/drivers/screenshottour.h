#pragma once

#include <QDir>
#include <QObject>

#include <functional>

namespace App {

class Application;

// Drives the running app through its main views as a user would — hovers and clicks
// Summarize, asks the chat a question, opens the metrics dock, walks into the wizard, opens
// the settings — and saves a PNG of each into a folder, named <view>-<suffix>.png. Used by
// scripts/screenshots for docs/screenshots/; runs on the offscreen platform. Quits when done.
class ScreenshotTour : public QObject
{
    Q_OBJECT

public:
    ScreenshotTour(Application *app, const QString &directory, const QString &suffix);
    void start();

private:
    using Step = std::function<void()>;
    // Calls `then` once `condition` holds, checking every 50 ms; gives up after `timeoutMs`.
    void when(std::function<bool()> condition, int timeoutMs, Step then);
    void save(QWidget *widget, const QString &view);
    void mainWindow();
    void chat();
    void metrics();
    void wizard();
    void settings();
    void finish();

    Application *m_app;
    QDir m_dir;
    QString m_suffix;
    int m_failures = 0;
};

} // namespace App
