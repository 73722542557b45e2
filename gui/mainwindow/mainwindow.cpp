// MainWindow: the shell. Over 600 lines: it composes the window's parts, each a class of its own
// (DocumentTabs, ActionSignals, DocumentActions, AnswerPane, FindBar, EditMenu, the docks), and what is
// left is their menus, shortcuts and wiring, which read best in one place.
#include "gui/mainwindow/mainwindow.h"
#include "workspace/documents/documentactions.h"

#include "gui/answer/answerpane.h"
#include "gui/chat/chatdock.h"
#include "gui/chat/salvageexport.h"
#include "gui/library/librarydock.h"
#include "gui/mainwindow/actionsignals.h"
#include "gui/mainwindow/consentbar.h"
#include "gui/mainwindow/documenttab.h"
#include "gui/mainwindow/documenttabs.h"
#include "gui/mainwindow/editmenu.h"
#include "gui/mainwindow/findbar.h"
#include "gui/mainwindow/helpdialogs.h"
#include "gui/mainwindow/logfolder.h"
#include "gui/metrics/metricsdock.h"
#include "gui/widgets/flowlayout.h"
#include "gui/widgets/mnemonic.h"
#include "gui/widgets/themeicon.h"
#include "gui/wizard/newdocumentwizard.h"
#include "workspace/conversations/conversationstore.h"
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
#include <QHBoxLayout>
#include <QLabel>
#include <QLocale>
#include <QMenuBar>
#include <QMimeData>
#include <QPushButton>
#include <QResizeEvent>
#include <QSplitter>
#include <QStackedWidget>
#include <QStatusBar>
#include <QStyleOption>
#include <QTabWidget>
#include <QTextCursor>
#include <QTextDocument>
#include <QToolBar>
#include <QUrl>
#include <QVBoxLayout>

#include <algorithm>

namespace Gui {

namespace {

// After an action's name while its answer is ready behind the button (a hover prefetch).
const QString ReadyMark = QStringLiteral(" \u2022");

} // namespace

MainWindow::MainWindow(const Services &services, QWidget *parent)
    : QMainWindow(parent)
    , m_services(services)
    , m_tabs(new DocumentTabs(this))
    , m_answers(new QStackedWidget(this))
    , m_noDocumentPane(new AnswerPane(this))
    , m_answer(m_noDocumentPane)
    , m_providerLabel(new QLabel(this))
    , m_stateLabel(new QLabel(this))
    , m_budgetLabel(new QLabel(this))
    , m_pauseLabel(new QLabel(this))
    , m_speculationLabel(new QLabel(this))
    , m_documentActions(new DocumentActions(services.engine, services.hover, services.warmup, this))
{
    connect(m_documentActions, &DocumentActions::started, this,
            [this](Document *document, Prefetch::AnswerReader *answer) {
                paneOf(document)->follow(answer, m_services.engine->profile().displayName);
                updateRunningState();
            });
    connect(m_documentActions, &DocumentActions::preparing, this, [this](Document *document) {
        paneOf(document)->reset(tr("Preparing the document…"));
        updateRunningState();
    });
    connect(m_documentActions, &DocumentActions::failed, this, [this](Document *document, const Llm::Error &error) {
        paneOf(document)->reset(error.message(), true);
        updateRunningState();
    });
    setWindowTitle(tr("Headstart"));
    setAcceptDrops(true);
    connect(m_tabs, &DocumentTabs::titlesChanged, this, &MainWindow::updateTitle);
    connect(m_tabs, &DocumentTabs::tabCreated, this, [this](DocumentTab *tab) {
        connect(tab, &QPlainTextEdit::selectionChanged, this, &MainWindow::updateActionStates);
        connect(tab, &QPlainTextEdit::textChanged, this, &MainWindow::updateActionStates);
        auto *pane = new AnswerPane(m_answers);
        m_answers->addWidget(pane);
        m_panes.insert(tab, pane);
        connectPane(pane);
        // The pane goes with its tab; an answer still streaming into it is stopped first.
        connect(tab, &QObject::destroyed, pane, [this, tab, pane] {
            m_panes.remove(tab);
            m_paneActions.remove(pane);
            if (m_answer == pane)
                showPaneOf(nullptr);
            pane->deleteLater();
        });
    });
    connect(m_tabs, &DocumentTabs::statusMessage, statusBar(), &QStatusBar::showMessage);
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
        showPaneOf(currentTab());
        updateTitle();
        updateActionStates();
        warmUpCurrent();
        if (m_chat)
            m_chat->setDocument(currentDocument());
    });

    createActions();

    auto *answerBox = new QWidget(this);
    auto *answerLayout = new QVBoxLayout(answerBox);
    answerLayout->setContentsMargins(0, 0, 0, 0);
    answerLayout->addWidget(createActionPanel());
    // One answer pane per document tab, so each keeps its own answer and status line; this
    // first one is shown while no document is open.
    m_answers->addWidget(m_noDocumentPane);
    answerLayout->addWidget(m_answers, 1);
    // Wraps in a narrow window rather than widen it (FlowLayout).
    auto *answerButtons = new FlowLayout;
    answerButtons->setContentsMargins(0, 0, 0, 0);
    m_insertButton = new QPushButton(withoutMnemonic(m_insert->text()), this);
    m_replaceButton = new QPushButton(withoutMnemonic(m_replace->text()), this);
    m_copyButton = new QPushButton(withoutMnemonic(m_copy->text()), this);
    m_regenerateButton = new QPushButton(withoutMnemonic(m_regenerate->text()), this);
    for (auto [button, act] : {std::pair{m_insertButton, m_insert}, std::pair{m_replaceButton, m_replace},
                               std::pair{m_copyButton, m_copy}, std::pair{m_regenerateButton, m_regenerate}}) {
        button->setToolTip(act->toolTip());
        button->setIcon(act->icon());
        connect(button, &QPushButton::clicked, act, &QAction::trigger);
        connect(act, &QAction::enabledChanged, button, &QWidget::setEnabled);
        button->setEnabled(act->isEnabled());
        answerButtons->addWidget(button);
    }
    answerLayout->addLayout(answerButtons);

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
    splitter->addWidget(answerBox);
    splitter->setStretchFactor(0, 3);
    splitter->setStretchFactor(1, 2);
    splitter->setChildrenCollapsible(false);
    // Room for about 50 columns of text on the document side, whatever the font and DPI; with the
    // chat beside it the window still fits in 800 pixels.
    m_tabs->setMinimumWidth(fontMetrics().horizontalAdvance(QLatin1Char('m')) * 26);
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

    createMenus();

    // The labels give way in a narrow window (their text in the tooltip) instead of setting its
    // minimum width.
    for (QLabel *label : {m_providerLabel, m_budgetLabel}) {
        label->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
        label->setMinimumWidth(fontMetrics().averageCharWidth() * 8);
    }
    statusBar()->addWidget(m_providerLabel, 2);
    m_pauseLabel->setObjectName(QStringLiteral("prefetchPauseLabel"));
    m_pauseLabel->setVisible(false);
    statusBar()->addPermanentWidget(m_pauseLabel);
    m_speculationLabel->setObjectName(QStringLiteral("speculationLabel"));
    statusBar()->addPermanentWidget(m_speculationLabel);
    connect(m_services.engine, &Prefetch::Engine::suspensionsChanged, this, &MainWindow::updateStatusBar);
    statusBar()->addPermanentWidget(m_budgetLabel, 1);
    statusBar()->addPermanentWidget(m_stateLabel);
    connect(&m_services.engine->metrics(), &Prefetch::Metrics::changed, this, &MainWindow::updateStatusBar);
    connectPane(m_answer);
    // The chat's and the wizard's answers are Stop's too, wherever the focus is.
    connect(m_services.engine, &Prefetch::Engine::answersChanged, this, &MainWindow::updateStopAction);
    connect(m_services.engine, &Prefetch::Engine::sessionsChanged, this, &MainWindow::updateStopAction);
    connect(m_services.hover, &Prefetch::HoverStrategy::readyChanged, this,
            [this](Prefetch::DocumentAction action, bool ready) {
                // A subtle mark on the button whose answer is already on its way: in the window the
                // pointer rests in (the strategy is the application's; another window's button did not
                // ask for this answer).
                m_buttons.value(action)->setProperty("prefetchReady",
                                                     ready && m_documentActions->hoveredAction() == action);
                for (Prefetch::DocumentAction a : Prefetch::AllDocumentActions) {
                    QPushButton *b = m_buttons.value(a);
                    const QString plain = withoutMnemonic(m_actions.value(a)->text());
                    b->setText(b->property("prefetchReady").toBool() ? plain + ReadyMark : plain);
                }
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

void MainWindow::createMenus()
{
    QMenu *file = menuBar()->addMenu(tr("&File"));
    file->addAction(themeIcon("document-new", QStyle::SP_FileIcon), tr("&New"), QKeySequence::New, this,
                    [this] { newDocument(); });
    // No shortcut: Ctrl+Shift+N, the usual one, is New Conversation's.
    file->addAction(themeIcon("window-new"), tr("New Win&dow"), this, &MainWindow::newWindowRequested);
    file->addAction(tr("New from &Wizard…"), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_W), this,
                    &MainWindow::showWizard);
    file->addAction(themeIcon("document-open", QStyle::SP_DialogOpenButton), tr("&Open…"), QKeySequence::Open, m_tabs,
                    &DocumentTabs::openWithDialog);
    m_tabs->setRecentMenu(file->addMenu(tr("Open &Recent")));
    file->addSeparator();
    file->addAction(themeIcon("document-save", QStyle::SP_DialogSaveButton), tr("&Save"), QKeySequence::Save, this,
                    [this] {
                        if (DocumentTab *tab = currentTab())
                            m_tabs->save(tab, false);
                    });
    QAction *saveAs = file->addAction(themeIcon("document-save-as"), tr("Save &As…"), this, [this] {
        if (DocumentTab *tab = currentTab())
            m_tabs->save(tab, true);
    });
    saveAs->setShortcuts(standardShortcuts(QKeySequence::SaveAs, QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_S)));
    QAction *closeDocument = file->addAction(themeIcon("document-close"), tr("&Close Document"), this, [this] {
        if (DocumentTab *tab = currentTab())
            m_tabs->closeDocument(tab);
    });
    // Every binding (Ctrl+W and Ctrl+F4): a StandardKey given to addAction() keeps only the first.
    closeDocument->setShortcuts(standardShortcuts(QKeySequence::Close, QKeySequence(Qt::CTRL | Qt::Key_W)));
    file->addSeparator();
    if (m_chat) {
        file->addAction(m_chat->clearHistoryAction());
        file->addSeparator();
    }
    // Only after a damaged conversation file was moved aside at start (its message names this).
    if (const ConversationStore *store = m_services.conversations; store && !store->movedAsidePath().isEmpty()) {
        file->addAction(tr("&Export Damaged Conversations…"), this,
                        [this, damaged = store->movedAsidePath()] { exportSalvagedConversations(this, damaged); });
        file->addSeparator();
    }
    QAction *settings = file->addAction(themeIcon("preferences-system"), tr("Se&ttings…"),
                                        QKeySequence(Qt::CTRL | Qt::Key_Comma), this, &MainWindow::settingsRequested);
    settings->setMenuRole(QAction::PreferencesRole);
    file->addSeparator();
    file->addAction(themeIcon("window-close"), tr("C&lose Window"), this,
                    &QWidget::close); // Ctrl+Shift+W is the wizard's
    // Every window: the application decides the order they are asked in (quitRequested()).
    QAction *quit = file->addAction(themeIcon("application-exit"), tr("&Quit"), QKeySequence::Quit, this,
                                    &MainWindow::quitRequested);
    quit->setMenuRole(QAction::QuitRole);

    new EditMenu(
        menuBar()->addMenu(tr("&Edit")), [this]() -> QPlainTextEdit * { return currentTab(); }, m_findBar);

    QMenu *ai = menuBar()->addMenu(tr("&AI"));
    for (Prefetch::DocumentAction a : Prefetch::AllDocumentActions)
        ai->addAction(m_actions.value(a));
    ai->addSeparator();
    ai->addAction(m_insert);
    ai->addAction(m_replace);
    ai->addAction(m_copy);
    ai->addAction(m_regenerate);
    ai->addSeparator();
    ai->addAction(m_stop);

    QMenu *view = menuBar()->addMenu(tr("&View"));
    if (m_chat) {
        // Also from the menu, so it works while the dock is hidden.
        file->insertAction(file->actions().at(1), m_chat->newConversationAction());
        QAction *chat = m_chat->toggleViewAction();
        chat->setText(tr("&Chat"));
        chat->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_C));
        view->addAction(chat);
    }
    QAction *metrics = m_metrics->toggleViewAction();
    metrics->setText(tr("&Metrics"));
    metrics->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_M));
    view->addAction(metrics);
    if (m_library) {
        QAction *library = m_library->toggleViewAction();
        library->setText(tr("&Library"));
        library->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_L));
        view->addAction(library);
    }

    // Ctrl+PageDown/PageUp, as browsers and editors switch tabs; around the ends.
    view->addSeparator();
    const auto step = [this](int by) {
        if (m_tabs->count() > 1)
            m_tabs->setCurrentIndex((m_tabs->currentIndex() + by + m_tabs->count()) % m_tabs->count());
        if (DocumentTab *tab = currentTab())
            tab->setFocus();
    };
    QAction *next = view->addAction(tr("&Next Document"), QKeySequence(Qt::CTRL | Qt::Key_PageDown), this,
                                    [step] { step(1); });
    next->setObjectName(QStringLiteral("nextDocument"));
    QAction *previous = view->addAction(tr("&Previous Document"), QKeySequence(Qt::CTRL | Qt::Key_PageUp), this,
                                        [step] { step(-1); });
    previous->setObjectName(QStringLiteral("previousDocument"));

    QMenu *help = menuBar()->addMenu(tr("&Help"));
    QAction *guide = help->addAction(themeIcon("help-contents", QStyle::SP_DialogHelpButton), tr("&User Guide"), this,
                                     [this] {
                                         // In a tab: it is Markdown, and a question about it can go to the chat.
                                         if (const QString path = userGuidePath(); path.isEmpty())
                                             showGuideMissing(this);
                                         else
                                             openFile(path);
                                     });
    guide->setShortcuts(QKeySequence::keyBindings(QKeySequence::HelpContents));
    help->addAction(tr("&Keyboard Shortcuts"), QKeySequence(Qt::CTRL | Qt::Key_Slash), this,
                    [this] { showShortcutsDialog(this); });
    help->addSeparator();
    m_openLogFolder = help->addAction(themeIcon("folder-open", QStyle::SP_DirOpenIcon), tr("Open &Log Folder"), this,
                                      [this] { openLogFolder(this, m_logDirectory); });
    m_openLogFolder->setObjectName(QStringLiteral("openLogFolder"));
    m_openLogFolder->setEnabled(false); // until setLogDirectory()
    help->addSeparator();
    QAction *about = help->addAction(themeIcon("help-about", QStyle::SP_MessageBoxInformation), tr("&About Headstart"),
                                     this, [this] { showAboutDialog(this); });
    about->setMenuRole(QAction::AboutRole);

    QToolBar *toolbar = addToolBar(tr("Main"));
    toolbar->setObjectName(QStringLiteral("mainToolBar"));
    toolbar->setToolButtonStyle(Qt::ToolButtonTextBesideIcon); // the AI actions have text only
    toolbar->addAction(m_actions.value(Prefetch::DocumentAction::Summarize));
    toolbar->addAction(m_stop);
}

QWidget *MainWindow::createActionPanel()
{
    auto *panel = new QWidget(this);
    auto *layout = new FlowLayout(panel); // wraps in a narrow window
    layout->setContentsMargins(0, 0, 0, 0);
    QWidget *previous = nullptr;
    for (Prefetch::DocumentAction a : Prefetch::AllDocumentActions) {
        QAction *act = m_actions.value(a);
        auto *button = new QPushButton(withoutMnemonic(act->text()), panel);
        button->setToolTip(act->toolTip());
        button->setAccessibleName(withoutMnemonic(act->text()));
        button->setObjectName(QLatin1String(Prefetch::documentActionId(a)) + QStringLiteral("Button"));
        connect(button, &QPushButton::clicked, act, &QAction::trigger);
        connect(act, &QAction::enabledChanged, button, &QWidget::setEnabled);
        // Wide enough for the "ready" mark from the start: the mark must not move the row.
        button->setMinimumWidth(QPushButton(withoutMnemonic(act->text()) + ReadyMark).sizeHint().width());
        m_buttons.insert(a, button);
        layout->addWidget(button);
        if (previous)
            setTabOrder(previous, button);
        previous = button;
    }
    return panel;
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
    AnswerPane *pane = paneOf(tab->model());
    m_paneActions.insert(pane, action);
    pane->setHeading(withoutMnemonic(m_actions.value(action)->text()));
    updateActionStates();
    // After run(): a guess of this answer is taken over before the others are dropped.
    emit actionStarted(action);
}

AnswerPane *MainWindow::paneOf(const Document *document) const
{
    for (auto it = m_panes.cbegin(); it != m_panes.cend(); ++it) {
        if (it.key()->model() == document)
            return it.value();
    }
    return m_noDocumentPane;
}

void MainWindow::showPaneOf(const DocumentTab *tab)
{
    AnswerPane *pane = tab ? m_panes.value(tab, m_noDocumentPane) : m_noDocumentPane;
    m_answer = pane;
    m_answers->setCurrentWidget(pane);
    updateActionStates();
}

void MainWindow::connectPane(AnswerPane *pane)
{
    connect(pane, &AnswerPane::answerEnded, this, &MainWindow::updateRunningState);
    connect(pane, &AnswerPane::answerEnded, this, &MainWindow::answerEnded);
    connect(pane, &AnswerPane::firstTokenPainted, this, &MainWindow::updateRunningState);
    // Tab from the answer goes on to the actions above it, as it did with one pane, and on
    // along them (a pane made for a new tab comes last in the chain otherwise).
    QWidget *previous = pane->view();
    for (Prefetch::DocumentAction a : Prefetch::AllDocumentActions) {
        if (QPushButton *button = m_buttons.value(a)) {
            QWidget::setTabOrder(previous, button);
            previous = button;
        }
    }
}

void MainWindow::regenerate()
{
    // Asked anew: the answer it replaces may be the response cache's, or a prefetch's. The
    // current tab's own answer's action, never another tab's.
    if (const auto it = m_paneActions.constFind(m_answer); it != m_paneActions.cend())
        start(*it, true);
}

void MainWindow::stop()
{
    if (Document *pending = m_documentActions->cancelPending())
        paneOf(pending)->reset(tr("Stopped."));
    // This window's answers (its documents', its chat's, its wizard's) and every prefetch.
    m_services.engine->stop(this);
    updateRunningState();
}

void MainWindow::insertAnswer()
{
    DocumentTab *tab = currentTab(); // its own answer, in its own pane
    const QString text = m_answer->text();
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
    const QString text = m_answer->text();
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
    const QString text = m_answer->text();
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
    m_logDirectory = directory;
    m_openLogFolder->setEnabled(!directory.isEmpty());
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
    if (reason == m_prefetchPause)
        return;
    const bool resumed = reason.isEmpty() && !m_prefetchPause.isEmpty();
    m_prefetchPause = reason;
    m_pauseLabel->setText(reason.isEmpty() ? QString() : tr("Prefetch paused: %1").arg(reason));
    m_pauseLabel->setToolTip(reason.isEmpty() ? QString()
                                              : tr("No early answers start until this ends; the answers you ask for "
                                                   "still come. Settings, Prefetch, Battery and network switches "
                                                   "this off."));
    m_pauseLabel->setVisible(!reason.isEmpty());
    if (m_metrics)
        m_metrics->setPrefetchPause(reason);
    updateStatusBar();
    // The warm-up skipped while paused: the provider's cache may have expired meanwhile.
    if (resumed)
        warmUpCurrent();
}

void MainWindow::providerChanged()
{
    m_noDocumentPane->clearStaleError(m_services.engine->profile().displayName);
    for (AnswerPane *pane : std::as_const(m_panes))
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
    const bool hasAnswer = !m_answer->text().isEmpty();
    m_insert->setEnabled(hasAnswer && tab);
    m_replace->setEnabled(hasAnswer && hasSelection);
    m_copy->setEnabled(hasAnswer);
    m_regenerate->setEnabled(tab && m_paneActions.contains(m_answer));
}

void MainWindow::updateRunningState()
{
    const Prefetch::AnswerReader *current = m_documentActions->current();
    const bool preparing = m_documentActions->isPreparing();
    const bool running = preparing || (current && !current->isDone());
    updateStopAction();
    if (!running)
        m_stateLabel->setText(tr("Ready"));
    else if (preparing)
        m_stateLabel->setText(tr("Preparing the document"));
    else if (current->firstContentNs() >= 0)
        m_stateLabel->setText(tr("Streaming"));
    else
        m_stateLabel->setText(tr("Waiting for the provider"));
    updateActionStates();
}

void MainWindow::updateStatusBar()
{
    const auto &p = m_services.engine->profile();
    m_providerLabel->setText(tr("Provider: %1 · Model: %2").arg(p.displayName, p.model));
    m_providerLabel->setToolTip(m_providerLabel->text()); // cut short in a narrow window
    const qint64 limit = m_services.engine->budget().limit();
    if (limit <= 0)
        m_budgetLabel->setText(tr("Prefetch budget: unlimited"));
    else
        m_budgetLabel->setText(
            tr("Prefetch budget left: %1 of %2 tokens this hour")
                .arg(QLocale().toString(m_services.engine->budget().remaining()), QLocale().toString(limit)));
    m_budgetLabel->setToolTip(m_budgetLabel->text());
    // What speculation does here, and why not; the etiquette's pause has its own label.
    const Prefetch::SpeculationPlan plan = Prefetch::SpeculationPlan::of(*m_services.engine, m_consent,
                                                                         m_prefetchPause);
    m_speculationLabel->setText(plan.summary());
    QStringList notes;
    for (Prefetch::Strategy s : Prefetch::AllStrategies)
        notes << QStringLiteral("%1: %2").arg(Prefetch::Metrics::strategyName(s), plan.entry(s).note);
    m_speculationLabel->setToolTip(notes.join(QLatin1Char('\n')));
    m_speculationLabel->setVisible(m_prefetchPause.isEmpty());
    updateStopAction();
}

void MainWindow::setConsent(Prefetch::Consent consent)
{
    m_consent = consent;
    if (m_metrics)
        m_metrics->setConsent(consent);
    updateStatusBar();
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
