#include "smoketest.h"

#include "app/application.h"

#include "gui/answer/answerpane.h"
#include "gui/mainwindow/mainwindow.h"

#include <QCoreApplication>
#include <QGuiApplication>
#include <QIcon>

#include <cstdio>

namespace App {

namespace {
// Generous: the suite runs under ctest -j2 on two busy cores; an instant-profile answer takes
// well under a second.
constexpr int TimeoutMs = 60000;
} // namespace

SmokeTest::SmokeTest(Application *app, const QString &path)
    : m_app(app)
    , m_path(path)
{
    m_timeout.setSingleShot(true);
    m_timeout.setInterval(TimeoutMs);
    connect(&m_timeout, &QTimer::timeout, this, [this] {
        fail(QStringLiteral("no answer within %1 s (status: %2)")
                 .arg(TimeoutMs / 1000)
                 .arg(m_app->window()->answerPane()->statusText()));
    });
    // From the event loop: the window and its first document are set up by then.
    QTimer::singleShot(0, this, &SmokeTest::run);
}

void SmokeTest::run()
{
    Gui::MainWindow *window = m_app->window();
    // The theme's icon or the one compiled in: never none, installed or not.
    if (const QIcon icon = QGuiApplication::windowIcon(); icon.isNull() || icon.availableSizes().isEmpty()) {
        fail(QStringLiteral("no window icon"));
        return;
    }
    if (!window->openFile(m_path)) {
        fail(QStringLiteral("cannot open %1").arg(m_path));
        return;
    }
    connect(window->answerPane(), &Gui::AnswerPane::answerEnded, this, [this, window](bool ok) {
        m_timeout.stop();
        Gui::AnswerPane *pane = window->answerPane();
        const QString firstLine = pane->text().section(QLatin1Char('\n'), 0, 0);
        if (!ok || firstLine.trimmed().isEmpty()) {
            fail(QStringLiteral("the answer failed: %1").arg(pane->statusText()));
            return;
        }
        std::printf("%s\nsmoke: ok\n", qPrintable(firstLine));
        std::fflush(stdout);
        QCoreApplication::exit(0);
    });
    m_timeout.start();
    window->summarize();
}

void SmokeTest::fail(const QString &why)
{
    std::fprintf(stderr, "smoke: %s\n", qPrintable(why));
    QCoreApplication::exit(1);
}

} // namespace App
