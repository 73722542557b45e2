#pragma once

#include "knowledge/types.h"

#include "prefetch/prompts/actionprompts.h"
#include "prefetch/speculationplan.h"

#include <QHash>
#include <QMainWindow>
#include <QMap>
#include <QPointer>
#include <QTimer>

#include <functional>
#include <optional>

class QAction;
class QLabel;
class QMenu;
class QPushButton;
class QToolButton;

namespace Knowledge {
class Library;
}
namespace Prefetch {
class DebounceStrategy;
class Engine;
class HoverStrategy;
class AnswerReader;
class Speculator;
class WarmupStrategy;
class WorkflowStrategy;
struct RenderedRequest;
} // namespace Prefetch

namespace Gui {

class ActionSignals;
class AnswerArea;
class AnswerPane;
class ChatDock;
class ConsentBar;
class ConversationStore;
class Document;
class DocumentActions;
class DocumentTab;
class DocumentTabs;
class FindBar;
class LibraryDock;
class MetricsDock;
class WindowMenus;
class WindowStatusBar;

// What the window works with; the composition root owns all of it.
struct Services {
    Prefetch::Engine *engine = nullptr;
    Prefetch::HoverStrategy *hover = nullptr;
    Prefetch::DebounceStrategy *debounce = nullptr;
    Prefetch::WorkflowStrategy *workflow = nullptr;
    Prefetch::WarmupStrategy *warmup = nullptr;
    ConversationStore *conversations = nullptr; // may be null: no chat dock
    Prefetch::Speculator *speculator = nullptr; // may be null: no early signals
    Knowledge::Library *library = nullptr;      // may be null: no Library panel
};

// The main window: documents in tabs, the AI actions on them with their answer pane, the chat
// and metrics docks and the new-document wizard. It forwards what the user does to the
// prefetch strategies (through ActionSignals, resting on or pressing an action button starts its
// answer and the earlier signals go to the Speculator; opening or switching to a document warms
// the provider's cache) and takes answers from the engine; it holds no network code. Inserting
// an answer into a document happens only on the user's command, as one undo step.
class MainWindow : public QMainWindow
{
    Q_OBJECT

public:
    explicit MainWindow(const Services &services, QWidget *parent = nullptr);
    ~MainWindow() override;

    // Where crash-recovery copies of unsaved documents go; empty disables them.
    void setRecoveryDirectory(const QString &directory);
    // The folder Help, Open Log Folder opens (app/ writes the log there); empty disables it.
    void setLogDirectory(const QString &directory);
    // Offers to restore the copies a previous session left behind; `done(restored)`.
    void offerRecovery(std::function<void(int restored)> done);
    void setTranslateTarget(const QString &language);
    // Speculation is paused for `reason` ("metered connection", translated), or resumed (empty):
    // the status bar and the metrics panel say so, and on resuming the document is warmed again.
    void setPrefetchPause(const QString &reason);
    QString prefetchPause() const;
    // Whether the provider in use may be sent text early (the application keeps the answer):
    // the status bar and the metrics panel say what runs and why.
    void setConsent(Prefetch::Consent consent);
    // The question a cloud provider asks once, above the documents (ConsentBar::answered is
    // forwarded as consentAnswered()).
    ConsentBar *consentBar() const { return m_consentBar; }
    // "Early answers: on", or why not; its tooltip has each strategy.
    QLabel *speculationLabel() const;
    // The provider or settings changed: recompile prompts, re-warm, refresh labels.
    void providerChanged();

    bool openFile(const QString &path);
    // `text` as an unmodified document with no file, called `title` (the welcome text).
    void openText(const QString &title, const QString &text);
    // Opens the passage's file (or turns to its tab) and selects the passage; a PDF's passage
    // (page > 0) opens the PDF in the desktop's viewer instead.
    bool openPassage(const Knowledge::Passage &passage);
    DocumentTab *newDocument(const QString &text = {});
    void setDocumentText(const QString &text);

    DocumentTab *currentTab() const;
    Document *currentDocument() const;
    DocumentTabs *tabs() const { return m_tabs; }
    AnswerPane *answerPane() const; // the current tab's
    QAction *action(Prefetch::DocumentAction a) const { return m_actions.value(a); }
    QAction *summarizeAction() const { return action(Prefetch::DocumentAction::Summarize); }
    QAction *stopAction() const { return m_stop; }
    QPushButton *actionButton(Prefetch::DocumentAction a) const;
    QPushButton *summarizeButton() const { return actionButton(Prefetch::DocumentAction::Summarize); }
    QPushButton *insertButton() const;
    QPushButton *replaceButton() const;
    ChatDock *chatDock() const { return m_chat; }
    MetricsDock *metricsDock() const { return m_metrics; }
    LibraryDock *libraryDock() const { return m_library; }
    FindBar *findBar() const { return m_findBar; }

    // The document actions' requests, runs and hover signals (widget-free, shared with the replay).
    DocumentActions *documentActions() const { return m_documentActions; }

public slots:
    void run(Prefetch::DocumentAction action);
    void summarize() { run(Prefetch::DocumentAction::Summarize); }
    void stop();
    void regenerate();
    void insertAnswer();
    void replaceSelection();
    void copyAnswer();
    void showWizard();
    // close(), as part of quitting the application: the questions about unsaved documents are
    // titled "Quit".
    void closeToQuit();

signals:
    void settingsRequested();
    // The Library panel's Edit Folders…: Settings, opened on its Library page.
    void librarySettingsRequested();
    // The user ran `action` (button, menu or shortcut) and its answer is on its way: taken
    // over, started, or waiting for the document's prompt.
    void actionStarted(Prefetch::DocumentAction action);
    // A document answer ended, in whichever tab's pane (AnswerPane::answerEnded).
    void answerEnded(bool ok);
    // File, New Window and Quit: windows are the application's to make and to close in turn.
    void newWindowRequested();
    void quitRequested();
    // A close asked about the unsaved documents: `closed` false when the user cancelled. While
    // speculation is suspended for the question, a closed window leaves it suspended (the
    // application is usually quitting); whoever goes on resumes it.
    void closeFinished(bool closed);
    // The user answered the consent bar for `providerId`.
    void consentAnswered(const QString &providerId, bool allowed);

protected:
    void closeEvent(QCloseEvent *event) override;
    void resizeEvent(QResizeEvent *event) override;
    bool event(QEvent *event) override;
    void dragEnterEvent(QDragEnterEvent *event) override;
    void dropEvent(QDropEvent *event) override;

private:
    void createActions();
    // run() and regenerate(): `fresh` asks the provider anew, past any prefetch or cached answer.
    void start(Prefetch::DocumentAction action, bool fresh);
    void updateActionStates();
    void updateRunningState();
    void updateStatusBar();
    void updateStopAction();
    void updateTitle();
    void warmUpCurrent();

    Services m_services;
    DocumentTabs *m_tabs;
    FindBar *m_findBar = nullptr;
    AnswerArea *m_answers = nullptr;
    WindowStatusBar *m_status;
    ChatDock *m_chat = nullptr;
    MetricsDock *m_metrics = nullptr;
    LibraryDock *m_library = nullptr;
    ActionSignals *m_signals = nullptr; // the pointer and keys, to the hover and the Speculator
    QMap<Prefetch::DocumentAction, QAction *> m_actions;
    ConsentBar *m_consentBar = nullptr;
    QAction *m_stop = nullptr;
    QAction *m_regenerate = nullptr;
    bool m_stopShowsAnswer = false; // m_stop's icon is the red one (updateStopAction())
    QIcon quietStopIcon() const;
    QAction *m_insert = nullptr;
    QAction *m_replace = nullptr;
    QAction *m_copy = nullptr;
    WindowMenus *m_menus = nullptr;
    bool m_metricsSized = false;   // the metrics dock got its first height
    double m_chatShare = 0.3;      // of the window's width, kept through its resizes
    bool m_closing = false;        // asking about unsaved documents before closing
    bool m_quitting = false;       // ... because the application quits (closeToQuit())
    bool m_closeConfirmed = false; // they were answered: the next close is for real
    DocumentActions *m_documentActions;
};

} // namespace Gui
