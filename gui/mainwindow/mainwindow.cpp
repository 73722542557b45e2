// MainWindow: the shell. Over 600 lines: it composes the window's parts, each a class of its own
// (DocumentTabs, AnswerArea, WindowMenus, WindowStatusBar, ActionSignals, DocumentActions, FindBar,
// the docks), and what is left is their actions and wiring, which read best in one place.
#include "gui/mainwindow/mainwindow.h"
#include "workspace/documents/documentactions.h"

#include "gui/answer/answerpane.h"
#include "gui/mainwindow/answerarea.h"
#include "gui/chat/chatdock.h"
#include "gui/library/librarydock.h"
#include "gui/mainwindow/actionsignals.h"
#include "gui/mainwindow/consentbar.h"
#include "gui/mainwindow/documenttab.h"
#include "gui/mainwindow/documenttabs.h"
#include "gui/mainwindow/findbar.h"
#include "gui/mainwindow/windowmenus.h"
#include "gui/mainwindow/windowstatusbar.h"
#include "gui/metrics/metricsdock.h"
#include "gui/widgets/mnemonic.h"
#include "gui/widgets/themeicon.h"
#include "gui/wizard/newdocumentwizard.h"
#include "workspace/documents/document.h"

#include "llm/clock.h"
#include "prefetch/engine.h"
#include "prefetch/metrics.h"
#include "prefetch/strategies/hoverstrategy.h"
#include "prefetch/strategies/warmupstrategy.h"
#include "prefetch/stream/answerreader.h"

#include <QAction>
#include <QApplication>
#include <QClipboard>
#include <QCloseEvent>
#include <QDesktopServices>
#include <QDir>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFile>
#include <QFileInfo>
#include <QLabel>
#include <QMimeData>
#include <QPushButton>
#include <QResizeEvent>
#include <QSplitter>
#include <QStatusBar>
#include <QStyleOption>
#include <QTabWidget>
#include <QTextCursor>
#include <QTextDocument>
#include <QUrl>
#include <QVBoxLayout>

#include <algorithm>

namespace Gui {

MainWindow::MainWindow(const Services &services, QWidget *parent)
    : QMainWindow(parent)
    , m_services(services)
    , m_tabs(new DocumentTabs(this))
    , m_status(new WindowStatusBar(services.engine, this))
    , m_documentActions(new DocumentActions(services.engine, services.hover, services.warmup, this))
{
    connect(m_documentActions, &DocumentActions::started, this,
            [this](Document *document, Prefetch::AnswerReader *answer) {
                m_answers->paneOf(document)->follow(answer, m_services.engine->profile().displayName);
                updateRunningState();
            });
    connect(m_documentActions, &DocumentActions::preparing, this, [this](Document *document) {
        m_answers->paneOf(document)->reset(tr("Preparing the document…"));
        updateRunningState();
    });
    connect(m_documentActions, &DocumentActions::failed, this, [this](Document *document, const Llm::Error &error) {
        m_answers->paneOf(document)->reset(error.message(), true);
        updateRunningState();
    });
    setWindowTitle(tr("Headstart"));
    setAcceptDrops(true);
    connect(m_tabs, &DocumentTabs::titlesChanged, this, &MainWindow::updateTitle);
    connect(m_tabs, &DocumentTabs::tabCreated, this, [this](DocumentTab *tab) {
        connect(tab, &QPlainTextEdit::selectionChanged, this, &MainWindow::updateActionStates);
        connect(tab, &QPlainTextEdit::textChanged, this, &MainWindow::updateActionStates);
        m_answers->addTab(tab);
    });
    setStatusBar(m_status);
    connect(m_tabs, &DocumentTabs::statusMessage, m_status, &QStatusBar::showMessage);
    connect(m_tabs, &DocumentTabs::documentLoaded, this, [this](Document *document) {
        if (document != currentDocument())
            return;
        if (m_chat)
            m_chat->setDocument(document);
        updateActionStates();
        warmUpCurrent();
    });
    connect(m_tabs, &DocumentTabs::documentEdited, this, [this](Document *document) {
        // The chat's prefetched answer was made for the old text.
        if (m_chat && document == currentDocument())
            m_chat->documentChanged();
    });
    connect(m_tabs, &DocumentTabs::documentClosing, this, [this](Document *document) {
        // A run waiting for it or answering into its pane (which goes with the tab) stops.
        m_documentActions->documentClosing(document);
        updateRunningState();
    });
    connect(m_tabs, &QTabWidget::currentChanged, this, [this] {
        if (m_findBar)
            m_findBar->setEditor(currentTab());
        m_answers->showPaneOf(currentTab());
        updateTitle();
        updateActionStates();
        warmUpCurrent();
        if (m_chat)
            m_chat->setDocument(currentDocument());
    });

    createActions();
    m_answers = new AnswerArea(m_actions, {m_insert, m_replace, m_copy, m_regenerate}, this);
    connect(m_answers, &AnswerArea::currentChanged, this, &MainWindow::updateActionStates);
    connect(m_answers, &AnswerArea::answerEnded, this, &MainWindow::updateRunningState);
    connect(m_answers, &AnswerArea::answerEnded, this, &MainWindow::answerEnded);
    connect(m_answers, &AnswerArea::firstTokenPainted, this, &MainWindow::updateRunningState);

    // The documents, with the find bar under them.
    auto *documentBox = new QWidget(this);
    auto *documentLayout = new QVBoxLayout(documentBox);
    documentLayout->setContentsMargins(0, 0, 0, 0);
    documentLayout->setSpacing(0);
    documentLayout->addWidget(m_tabs, 1);
    m_findBar = new FindBar(documentBox);
    m_findBar->setEditor(currentTab());
    documentLayout->addWidget(m_findBar);

    auto *splitter = new QSplitter(Qt::Horizontal, this);
    splitter->addWidget(documentBox);
    splitter->addWidget(m_answers);
    splitter->setStretchFactor(0, 3);
    splitter->setStretchFactor(1, 2);
    splitter->setChildrenCollapsible(false);
    // Room for about 40 columns of text on the document side, whatever the font and DPI; with the
    // chat and the library beside it the window still fits in 800 pixels.
    m_tabs->setMinimumWidth(fontMetrics().horizontalAdvance(QLatin1Char('m')) * 22);
    splitter->setSizes({3000, 2000});
    // The consent question, when a cloud provider asks it, sits above the documents.
    auto *central = new QWidget(this);
    auto *centralLayout = new QVBoxLayout(central);
    centralLayout->setContentsMargins(0, 0, 0, 0);
    m_consentBar = new ConsentBar(central);
    connect(m_consentBar, &ConsentBar::answered, this, [this] {
        // Answered with the pointer or from the bar's text: the user goes back to writing.
        if (m_consentBar->isAncestorOf(QApplication::focusWidget()) && currentTab())
            currentTab()->setFocus(Qt::OtherFocusReason);
    });
    connect(m_consentBar, &ConsentBar::answered, this, &MainWindow::consentAnswered);
    centralLayout->addWidget(m_consentBar);
    centralLayout->addWidget(splitter, 1);
    setCentralWidget(central);

    if (m_services.conversations && m_services.debounce) {
        m_chat = new ChatDock(m_services.engine, m_services.debounce, m_services.conversations, this);
        m_chat->setObjectName(QStringLiteral("chatDock"));
        m_chat->setDocument(currentDocument());
        connect(m_chat, &ChatDock::openDocumentRequested, this, [this](const QString &path) { openFile(path); });
        addDockWidget(Qt::RightDockWidgetArea, m_chat);
        if (m_services.library) {
            m_chat->setLibrary(m_services.library);
            connect(m_chat, &ChatDock::passageRequested, this, &MainWindow::openPassage);
        }
    }
    m_metrics = new MetricsDock(m_services.engine, this);
    m_metrics->setObjectName(QStringLiteral("metricsDock"));
    m_metrics->setSpeculator(m_services.speculator);
    // The chat keeps its full height when the metrics open: they take theirs from the documents.
    setCorner(Qt::BottomRightCorner, Qt::RightDockWidgetArea);
    addDockWidget(Qt::BottomDockWidgetArea, m_metrics);
    m_metrics->hide();
    connect(m_metrics, &QDockWidget::visibilityChanged, this, [this](bool visible) {
        // A share of the window, set once: from its size hint, the chart would take most of it.
        if (visible && !std::exchange(m_metricsSized, true))
            resizeDocks({m_metrics}, {height() / 3}, Qt::Vertical);
    });

    if (m_services.library) {
        m_library = new LibraryDock(m_services.library, this);
        m_library->setObjectName(QStringLiteral("libraryDock"));
        addDockWidget(Qt::LeftDockWidgetArea, m_library);
        m_library->hide();
        connect(m_library, &LibraryDock::settingsRequested, this, &MainWindow::librarySettingsRequested);
    }

    m_menus = new WindowMenus(this, {m_insert, m_replace, m_copy, m_regenerate}, m_services.conversations);

    // The status bar's figures change with the metrics, and so may what Stop stops.
    connect(&m_services.engine->metrics(), &Prefetch::Metrics::changed, this, &MainWindow::updateStopAction);
    // The chat's and the wizard's answers are Stop's too, wherever the focus is.
    connect(m_services.engine, &Prefetch::Engine::answersChanged, this, &MainWindow::updateStopAction);
    connect(m_services.engine, &Prefetch::Engine::sessionsChanged, this, &MainWindow::updateStopAction);
    connect(m_services.hover, &Prefetch::HoverStrategy::readyChanged, this,
            [this](Prefetch::DocumentAction action, bool ready) {
                // A subtle mark on the button whose answer is already on its way: in the window the
                // pointer rests in (the strategy is the application's; another window's button did not
                // ask for this answer).
                m_answers->setReady(action, ready && m_documentActions->hoveredAction() == action);
            });

    m_signals = new ActionSignals(this, m_services.speculator);

    providerChanged();
    updateRunningState();
    resize(1280, 800);
    if (m_chat) {
        // A size of its own from the start: left to its size hint, the dock would widen and
        // narrow with what it shows (a status line, a longer title) while the user types.
        resizeDocks({m_chat}, {int(width() * m_chatShare)}, Qt::Horizontal);
    }
}

bool MainWindow::event(QEvent *event)
{
    const bool handled = QMainWindow::event(event);
    // A release on the window itself ends a drag of a dock's edge (QMainWindow takes those
    // presses for its separators): the chat's width is its share of the window now.
    if (event->type() == QEvent::MouseButtonRelease && m_chat && m_chat->isVisible() && !m_chat->isFloating()
        && width() > 0)
        m_chatShare = std::clamp(double(m_chat->width()) / width(), 0.15, 0.7);
    return handled;
}

void MainWindow::resizeEvent(QResizeEvent *event)
{
    QMainWindow::resizeEvent(event);
    // The chat keeps its share of the window (the documents would take all of a change).
    if (m_chat && m_chat->isVisible() && !m_chat->isFloating() && event->oldSize().width() > 0
        && event->size().width() != event->oldSize().width())
        resizeDocks({m_chat}, {int(width() * m_chatShare)}, Qt::Horizontal);
}

MainWindow::~MainWindow()
{
    delete std::exchange(m_signals, nullptr); // before the tabs it follows go
    // The engine outlives the window, and the children going next may end its sessions (the
    // chat's guess of a follow-up): its signals must not reach this half-destroyed window.
    if (m_services.engine)
        disconnect(m_services.engine, nullptr, this, nullptr);
    // This window's documents are no longer kept warm; another window's still are.
    for (const Document *document : m_tabs->documents())
        m_services.warmup->documentClosed(document->documentId());
}

// --- actions and menus --------------------------------------------------------------------

void MainWindow::createActions()
{
    struct Spec {
        Prefetch::DocumentAction action;
        const char *text;
        const char *tip;
        QKeySequence keys;
    };
    const Spec specs[] = {
        {Prefetch::DocumentAction::Summarize, QT_TR_NOOP("&Summarize"), QT_TR_NOOP("Summarize the document"),
         QKeySequence(Qt::CTRL | Qt::ALT | Qt::Key_S)},
        {Prefetch::DocumentAction::ContinueWriting, QT_TR_NOOP("&Continue Writing"),
         QT_TR_NOOP("Continue writing from the end of the document"), QKeySequence(Qt::CTRL | Qt::ALT | Qt::Key_C)},
        {Prefetch::DocumentAction::RewriteSelection, QT_TR_NOOP("&Rewrite Selection"),
         QT_TR_NOOP("Rewrite the selected text more clearly"), QKeySequence(Qt::CTRL | Qt::ALT | Qt::Key_R)},
        {Prefetch::DocumentAction::Translate, QT_TR_NOOP("&Translate"),
         QT_TR_NOOP("Translate the selection, or the whole document"), QKeySequence(Qt::CTRL | Qt::ALT | Qt::Key_T)},
        {Prefetch::DocumentAction::ExplainSelection, QT_TR_NOOP("E&xplain Selection"),
         QT_TR_NOOP("Explain the selected text"), QKeySequence(Qt::CTRL | Qt::ALT | Qt::Key_E)},
    };
    for (const Spec &spec : specs) {
        auto *act = new QAction(tr(spec.text), this);
        act->setShortcut(spec.keys);
        act->setToolTip(tr("%1 (%2)").arg(tr(spec.tip), spec.keys.toString(QKeySequence::NativeText)));
        const Prefetch::DocumentAction which = spec.action;
        connect(act, &QAction::triggered, this, [this, which] { run(which); });
        m_actions.insert(spec.action, act);
    }

    m_stop = new QAction(tr("S&top"), this); // its icon and tip follow what runs (updateStopAction())
    m_stop->setShortcut(QKeySequence(Qt::Key_Escape));
    updateStopAction();
    connect(m_stop, &QAction::triggered, this, &MainWindow::stop);

    m_regenerate = new QAction(themeIcon("view-refresh", QStyle::SP_BrowserReload), tr("Re&generate"), this);
    m_regenerate->setShortcut(QKeySequence(Qt::CTRL | Qt::ALT | Qt::Key_G));
    m_regenerate->setToolTip(tr("Ask again (Ctrl+Alt+G)"));
    connect(m_regenerate, &QAction::triggered, this, &MainWindow::regenerate);

    m_insert = new QAction(themeIcon("insert-text"), tr("&Insert Answer"), this);
    m_insert->setShortcut(QKeySequence(Qt::CTRL | Qt::ALT | Qt::Key_I));
    m_insert->setToolTip(tr("Insert the answer at the cursor, as one undo step (Ctrl+Alt+I)"));
    connect(m_insert, &QAction::triggered, this, &MainWindow::insertAnswer);

    m_replace = new QAction(tr("Re&place Selection"), this);
    m_replace->setShortcut(QKeySequence(Qt::CTRL | Qt::ALT | Qt::Key_P));
    m_replace->setToolTip(tr("Replace the selected text with the answer, as one undo step (Ctrl+Alt+P)"));
    connect(m_replace, &QAction::triggered, this, &MainWindow::replaceSelection);

    m_copy = new QAction(themeIcon("edit-copy"), tr("Cop&y Answer"), this);
    m_copy->setShortcut(QKeySequence(Qt::CTRL | Qt::ALT | Qt::Key_Y));
    m_copy->setToolTip(tr("Copy the answer to the clipboard (Ctrl+Alt+Y)"));
    connect(m_copy, &QAction::triggered, this, &MainWindow::copyAnswer);
}

// --- running actions ----------------------------------------------------------------------

void MainWindow::run(Prefetch::DocumentAction action)
{
    start(action, false);
}

void MainWindow::start(Prefetch::DocumentAction action, bool fresh)
{
    const qint64 activated = Llm::monotonicNowNs();
    DocumentTab *tab = currentTab();
    if (!tab || tab->model()->isBlank()) {
        statusBar()->showMessage(tr("The document is empty: write or open something first."), 5000);
        return;
    }
    if (Prefetch::actionNeedsSelection(action) && !tab->textCursor().hasSelection()) {
        statusBar()->showMessage(tr("Select the text to work on first."), 5000);
        return;
    }
    m_documentActions->run(action, tab->model(), tab->selectedText(), activated, fresh);
    m_answers->setAction(m_answers->paneOf(tab->model()), action);
    updateActionStates();
    // After run(): a guess of this answer is taken over before the others are dropped.
    emit actionStarted(action);
}

void MainWindow::regenerate()
{
    // Asked anew: the answer it replaces may be the response cache's, or a prefetch's. The
    // current tab's own answer's action, never another tab's.
    if (const auto action = m_answers->actionOf(m_answers->current()))
        start(*action, true);
}

void MainWindow::stop()
{
    if (Document *pending = m_documentActions->cancelPending())
        m_answers->paneOf(pending)->reset(tr("Stopped."));
    // This window's answers (its documents', its chat's, its wizard's) and every prefetch.
    m_services.engine->stop(this);
    updateRunningState();
}

void MainWindow::insertAnswer()
{
    DocumentTab *tab = currentTab(); // its own answer, in its own pane
    const QString text = m_answers->current()->text();
    if (!tab || text.isEmpty())
        return;
    QTextCursor cursor = tab->textCursor();
    cursor.beginEditBlock(); // one undo step, whatever the answer's length
    cursor.clearSelection();
    cursor.insertText(text);
    cursor.endEditBlock();
    tab->setTextCursor(cursor);
    m_tabs->setCurrentWidget(tab);
    tab->setFocus(Qt::OtherFocusReason); // back to the text: Ctrl+Z undoes it at once
}

void MainWindow::replaceSelection()
{
    DocumentTab *tab = currentTab(); // its own answer, in its own pane
    const QString text = m_answers->current()->text();
    if (!tab || text.isEmpty() || !tab->textCursor().hasSelection())
        return;
    QTextCursor cursor = tab->textCursor();
    cursor.beginEditBlock();
    cursor.insertText(text);
    cursor.endEditBlock();
    tab->setTextCursor(cursor);
    m_tabs->setCurrentWidget(tab);
    tab->setFocus(Qt::OtherFocusReason); // back to the text: Ctrl+Z undoes it at once
}

void MainWindow::copyAnswer()
{
    const QString text = m_answers->current()->text();
    if (text.isEmpty())
        return;
    QApplication::clipboard()->setText(text);
    // Copying shows nothing by itself; say that it happened and how much.
    statusBar()->showMessage(tr("Answer copied to the clipboard (%n character(s))", nullptr, int(text.size())), 4000);
}

void MainWindow::showWizard()
{
    auto *wizard = new NewDocumentWizard(m_services.engine, m_services.workflow, this);
    wizard->setAttribute(Qt::WA_DeleteOnClose);
    connect(wizard, &NewDocumentWizard::documentCreated, this,
            [this](const QString &title, const QString &markdown) {
                // Named by its title until saved, and Save As proposes it.
                if (DocumentTab *tab = newDocument(markdown))
                    tab->model()->setTitle(title);
            });
    wizard->open();
}

// --- documents ----------------------------------------------------------------------------

QString MainWindow::prefetchPause() const
{
    return m_status->pause();
}

QLabel *MainWindow::speculationLabel() const
{
    return m_status->speculationLabel();
}

AnswerPane *MainWindow::answerPane() const
{
    return m_answers->current();
}

QPushButton *MainWindow::actionButton(Prefetch::DocumentAction a) const
{
    return m_answers->actionButton(a);
}

QPushButton *MainWindow::insertButton() const
{
    return m_answers->insertButton();
}

QPushButton *MainWindow::replaceButton() const
{
    return m_answers->replaceButton();
}

DocumentTab *MainWindow::currentTab() const
{
    return m_tabs->currentTab();
}

Document *MainWindow::currentDocument() const
{
    return m_tabs->currentDocument();
}

DocumentTab *MainWindow::newDocument(const QString &text)
{
    return m_tabs->newDocument(text);
}

void MainWindow::setDocumentText(const QString &text)
{
    DocumentTab *tab = currentTab();
    if (!tab)
        tab = newDocument();
    tab->model()->setText(text);
    updateActionStates();
    warmUpCurrent();
}

bool MainWindow::openFile(const QString &path)
{
    return m_tabs->openFile(path);
}

void MainWindow::openText(const QString &title, const QString &text)
{
    m_tabs->openText(title, text);
}

bool MainWindow::openPassage(const Knowledge::Passage &passage)
{
    if (passage.page > 0) {
        // A PDF is not text a tab can show: the desktop's viewer opens it. It cannot be told the
        // page portably, so the citation's tooltip names the page.
        const QString name = QDir::toNativeSeparators(passage.path);
        if (!QFileInfo::exists(passage.path)) {
            statusBar()->showMessage(tr("%1 is no longer there.").arg(name), 5000);
            return false;
        }
        if (!QDesktopServices::openUrl(QUrl::fromLocalFile(passage.path))) {
            statusBar()->showMessage(tr("No application opens %1 here.").arg(name), 5000);
            return false;
        }
        statusBar()->showMessage(tr("Opened %1 in your PDF viewer: the passage is on page %2.")
                                     .arg(name, QString::number(passage.page)),
                                 5000);
        return true;
    }
    if (!m_tabs->openFile(passage.path))
        return false; // the tabs said why (moved, unreadable)
    DocumentTab *tab = m_tabs->currentTab();
    if (!tab)
        return false;
    // Offsets are into the text as the index decoded it; a file edited since may be shorter.
    const int length = tab->document()->characterCount() - 1;
    QTextCursor cursor(tab->document());
    cursor.setPosition(std::clamp(int(passage.start), 0, length));
    cursor.setPosition(std::clamp(int(passage.end), 0, length), QTextCursor::KeepAnchor);
    tab->setTextCursor(cursor);
    tab->centerCursor();
    tab->setFocus();
    return true;
}

void MainWindow::closeToQuit()
{
    m_quitting = true;
    close();
}

void MainWindow::closeEvent(QCloseEvent *event)
{
    if (!m_closeConfirmed) {
        // Ask (asynchronously) about every unsaved document, then close for real.
        event->ignore();
        if (m_closing)
            return; // already asking
        m_closing = true;
        // Nothing new is guessed or warmed while the Save questions are up (each one makes its
        // document current), and nothing already guessed is needed any more (suspending cancels it).
        m_services.engine->setSpeculationSuspended(Prefetch::Engine::Suspension::Closing, true);
        m_tabs->confirmCloseAll(m_quitting ? tr("Quit") : tr("Close Window"), [this](bool mayClose) {
            m_closing = false;
            m_quitting = false;
            if (!mayClose) {
                m_services.engine->setSpeculationSuspended(Prefetch::Engine::Suspension::Closing, false);
                emit closeFinished(false);
                return;
            }
            m_closeConfirmed = true;
            close();
        });
        return;
    }
    stop();
    m_tabs->removeRecoveryCopies();
    event->accept();
    emit closeFinished(true);
}

void MainWindow::dragEnterEvent(QDragEnterEvent *event)
{
    if (event->mimeData()->hasUrls())
        event->acceptProposedAction();
}

void MainWindow::dropEvent(QDropEvent *event)
{
    for (const QUrl &url : event->mimeData()->urls()) {
        if (url.isLocalFile())
            openFile(url.toLocalFile());
    }
    event->acceptProposedAction();
}

void MainWindow::setRecoveryDirectory(const QString &directory)
{
    m_tabs->setRecoveryDirectory(directory);
}

void MainWindow::setLogDirectory(const QString &directory)
{
    m_menus->setLogDirectory(directory);
}

void MainWindow::offerRecovery(std::function<void(int restored)> done)
{
    m_tabs->offerRecovery(std::move(done));
}

// --- state --------------------------------------------------------------------------------

void MainWindow::setTranslateTarget(const QString &language)
{
    if (language == m_documentActions->translateTarget())
        return;
    m_documentActions->setTranslateTarget(language);
    if (m_signals)
        m_signals->requestsChanged();
}

void MainWindow::setPrefetchPause(const QString &reason)
{
    if (reason == m_status->pause())
        return;
    const bool resumed = reason.isEmpty() && !m_status->pause().isEmpty();
    m_status->setPause(reason);
    if (m_metrics)
        m_metrics->setPrefetchPause(reason);
    updateStopAction();
    // The warm-up skipped while paused: the provider's cache may have expired meanwhile.
    if (resumed)
        warmUpCurrent();
}

void MainWindow::providerChanged()
{
    for (AnswerPane *pane : m_answers->panes())
        pane->clearStaleError(m_services.engine->profile().displayName);
    if (m_signals)
        m_signals->requestsChanged();
    updateStatusBar();
    if (m_metrics)
        m_metrics->refresh(); // the money column follows the provider's prices and currency
    if (m_chat)
        m_chat->profileChanged();
    warmUpCurrent();
}

void MainWindow::warmUpCurrent()
{
    m_documentActions->warmUp(currentDocument());
}

void MainWindow::updateActionStates()
{
    const DocumentTab *tab = currentTab();
    const bool hasText = tab && !tab->model()->isBlank();
    const bool hasSelection = tab && tab->textCursor().hasSelection();
    for (Prefetch::DocumentAction a : Prefetch::AllDocumentActions)
        m_actions.value(a)->setEnabled(hasText && (!Prefetch::actionNeedsSelection(a) || hasSelection));
    const bool hasAnswer = !m_answers->current()->text().isEmpty();
    m_insert->setEnabled(hasAnswer && tab);
    m_replace->setEnabled(hasAnswer && hasSelection);
    m_copy->setEnabled(hasAnswer);
    m_regenerate->setEnabled(tab && m_answers->actionOf(m_answers->current()));
}

void MainWindow::updateRunningState()
{
    const Prefetch::AnswerReader *current = m_documentActions->current();
    const bool preparing = m_documentActions->isPreparing();
    const bool running = preparing || (current && !current->isDone());
    updateStopAction();
    if (!running)
        m_status->setAnswerState(tr("Ready"));
    else if (preparing)
        m_status->setAnswerState(tr("Preparing the document"));
    else if (current->firstContentNs() >= 0)
        m_status->setAnswerState(tr("Streaming"));
    else
        m_status->setAnswerState(tr("Waiting for the provider"));
    updateActionStates();
}

void MainWindow::updateStatusBar()
{
    m_status->refresh();
    updateStopAction();
}

void MainWindow::setConsent(Prefetch::Consent consent)
{
    if (m_metrics)
        m_metrics->setConsent(consent);
    m_status->setConsent(consent);
}

// The stop icon without its colour, as the style greys a disabled one: it reads as "there is
// something to stop" in light and dark schemes alike (the theme's media-playback-stop, or
// Fusion's fallback, is a black square that vanishes on a dark toolbar).
QIcon MainWindow::quietStopIcon() const
{
    const QIcon red = themeIcon("process-stop", QStyle::SP_BrowserStop);
    QStyleOption option; // the style reads the palette's disabled colours from it
    option.initFrom(this);
    QIcon quiet;
    for (const int side : {16, 22, 24, 32, 48}) {
        const QPixmap normal = red.pixmap(QSize(side, side));
        if (!normal.isNull())
            quiet.addPixmap(style()->generatedIconPixmap(QIcon::Disabled, normal, &option));
    }
    return quiet.isNull() ? red : quiet;
}

void MainWindow::updateStopAction()
{
    const Prefetch::AnswerReader *current = m_documentActions->current();
    const bool answering = m_documentActions->isPreparing() || (current && !current->isDone())
                           || m_services.engine->hasLiveAnswers(this);
    const bool background = !m_services.engine->liveSessions().isEmpty();
    m_stop->setEnabled(answering || background);
    // Red while an answer the user asked for runs; while only guesses and warm-ups do, the
    // theme's plain stop, so the toolbar does not signal urgency for work nobody waits on.
    if (answering != m_stopShowsAnswer || m_stop->icon().isNull()) {
        m_stopShowsAnswer = answering;
        m_stop->setIcon(answering ? themeIcon("process-stop", QStyle::SP_BrowserStop) : quietStopIcon());
        m_stop->setToolTip(answering ? tr("Stop the answer and everything started in the background (Esc)")
                                     : tr("Stop what is being prepared in the background (Esc)"));
    }
}

void MainWindow::updateTitle()
{
    const Document *document = currentDocument();
    setWindowTitle(document
                       ? tr("%1 – Headstart")
                             .arg(document->displayName() + (document->isModified() ? QStringLiteral(" *") : QString()))
                       : tr("Headstart"));
}

} // namespace Gui
