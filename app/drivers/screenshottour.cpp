#include "screenshottour.h"

#include "app/application.h"

#include "gui/answer/answerpane.h"
#include "gui/chat/chatdock.h"
#include "gui/mainwindow/documenttab.h"
#include "gui/mainwindow/mainwindow.h"
#include "gui/metrics/metricsdock.h"
#include "gui/settings/settingsdialog.h"
#include "gui/wizard/newdocumentwizard.h"
#include "llm/clock.h"

#include <QApplication>
#include <QComboBox>
#include <QDockWidget>
#include <QElapsedTimer>
#include <QEnterEvent>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QTimer>

#include <cstdio>
#include <memory>

namespace App {

ScreenshotTour::ScreenshotTour(Application *app, const QString &directory, const QString &suffix)
    : m_app(app)
    , m_dir(directory)
    , m_suffix(suffix)
{
    m_dir.mkpath(QStringLiteral("."));
}

void ScreenshotTour::start()
{
    Gui::MainWindow *w = m_app->window();
    w->resize(1360, 820);
    // A user reads the document before acting: long enough for its warm-up (about a second on
    // the hosted profile) to be in the provider's cache, as it would be.
    QTimer::singleShot(2500, this, &ScreenshotTour::mainWindow);
}

void ScreenshotTour::when(std::function<bool()> condition, int timeoutMs, Step then)
{
    auto clock = std::make_shared<QElapsedTimer>();
    clock->start();
    auto poll = std::make_shared<std::function<void()>>();
    *poll = [this, condition, timeoutMs, then, clock, poll] {
        if (condition() || clock->elapsed() > timeoutMs) {
            if (!condition()) {
                ++m_failures;
                std::fprintf(stderr, "screenshots: a step timed out; the picture may be incomplete\n");
            }
            then();
            return;
        }
        QTimer::singleShot(50, this, *poll);
    };
    (*poll)();
}

void ScreenshotTour::save(QWidget *widget, const QString &view)
{
    const QString path = m_dir.filePath(view + QLatin1Char('-') + m_suffix + QStringLiteral(".png"));
    if (!widget->grab().save(path)) {
        ++m_failures;
        std::fprintf(stderr, "screenshots: cannot write %s\n", qPrintable(path));
        return;
    }
    std::printf("%s\n", qPrintable(path));
}

void ScreenshotTour::mainWindow()
{
    Gui::MainWindow *w = m_app->window();
    if (w->chatDock())
        w->chatDock()->hide();
    QPushButton *button = w->summarizeButton();
    // Rest on Summarize, as a user about to click would; the answer starts now.
    QEnterEvent enter(QPointF(4, 4), button->mapTo(w, QPointF(4, 4)), button->mapToGlobal(QPointF(4, 4)));
    QApplication::sendEvent(button, &enter);
    QTimer::singleShot(600, this, [this, w, button] {
        button->click();
        auto ended = std::make_shared<bool>(false);
        connect(w->answerPane(), &Gui::AnswerPane::answerEnded, this, [ended] { *ended = true; });
        when([ended] { return *ended; }, 30000,
             [this, w] {
                 save(w, QStringLiteral("main"));
                 chat();
             });
    });
}

void ScreenshotTour::chat()
{
    Gui::MainWindow *w = m_app->window();
    Gui::ChatDock *dock = w->chatDock();
    if (!dock) {
        metrics();
        return;
    }
    dock->show();
    dock->setMode(Gui::ConversationMode::Document);
    dock->input()->setFocus();
    // Typed, then a pause: the answer is prefetched before Enter.
    dock->input()->setPlainText(
        QCoreApplication::translate("App::ScreenshotTour", "What does the local demo engine model faithfully?"));
    QTimer::singleShot(1200, this, [this, w, dock] {
        auto ended = std::make_shared<bool>(false);
        connect(dock, &Gui::ChatDock::answerEnded, this, [ended] { *ended = true; });
        dock->sendMessage(Llm::monotonicNowNs());
        when([ended] { return *ended; }, 30000,
             [this, w] {
                 save(w, QStringLiteral("chat"));
                 metrics();
             });
    });
}

void ScreenshotTour::metrics()
{
    Gui::MainWindow *w = m_app->window();
    w->metricsDock()->show();
    QTimer::singleShot(400, this, [this, w] {
        save(w, QStringLiteral("metrics"));
        w->metricsDock()->hide();
        wizard();
    });
}

void ScreenshotTour::wizard()
{
    Gui::MainWindow *w = m_app->window();
    w->showWizard();
    auto *wizard = w->findChild<Gui::NewDocumentWizard *>();
    if (!wizard) {
        settings();
        return;
    }
    wizard->resize(820, 620);
    wizard->topicPage()->topicEdit()->setText(
        QCoreApplication::translate("App::ScreenshotTour", "Why the first token matters"));
    wizard->topicPage()->audienceEdit()->setText(
        QCoreApplication::translate("App::ScreenshotTour", "people who build writing tools"));
    // A pause on the completed step prefetches the outline; Next then shows it at once.
    QTimer::singleShot(1500, this, [this, wizard] {
        wizard->next();
        when(
            [wizard] {
                return !wizard->outlinePage()->isGenerating()
                       && !wizard->outlinePage()->editor()->toPlainText().isEmpty();
            },
            30000,
            [this, wizard] {
                save(wizard, QStringLiteral("wizard"));
                wizard->reject();
                settings();
            });
    });
}

void ScreenshotTour::settings()
{
    m_app->openSettings();
    auto *dialog = m_app->window()->findChild<Gui::SettingsDialog *>();
    if (!dialog) {
        finish();
        return;
    }
    dialog->resize(760, 640);
    dialog->showPage(Gui::SettingsDialog::Page::Prefetch);
    QTimer::singleShot(400, this, [this, dialog] {
        save(dialog, QStringLiteral("settings"));
        dialog->reject();
        finish();
    });
}

void ScreenshotTour::finish()
{
    QCoreApplication::exit(m_failures == 0 ? 0 : 1);
}

} // namespace App
