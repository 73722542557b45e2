#include "mainwindow.h"

#include "answerpane.h"
#include "chatdock.h"
#include "documenttab.h"
#include "metricsdock.h"
#include "newdocumentwizard.h"

#include "llm/clock.h"
#include "prefetch/engine.h"
#include "prefetch/hoverstrategy.h"
#include "prefetch/metrics.h"
#include "prefetch/responsestream.h"
#include "prefetch/warmupstrategy.h"

#include <QAction>
#include <QApplication>
#include <QClipboard>
#include <QCloseEvent>
#include <QDir>
#include <QDirIterator>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QLocale>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QPushButton>
#include <QRegularExpression>
#include <QSettings>
#include <QSplitter>
#include <QStatusBar>
#include <QTabWidget>
#include <QTextDocument>
#include <QToolBar>
#include <QVBoxLayout>

namespace Gui {

namespace {

constexpr int MaxRecentFiles = 10;
// Unsaved text reaches the recovery copy at most this late after the last edit.
constexpr int AutosaveIntervalMs = 5000;

QString actionId(Prefetch::DocumentAction action)
{
    switch (action) {
    case Prefetch::DocumentAction::Summarize: return QStringLiteral("summarize");
    case Prefetch::DocumentAction::ContinueWriting: return QStringLiteral("continue");
    case Prefetch::DocumentAction::RewriteSelection: return QStringLiteral("rewrite");
    case Prefetch::DocumentAction::Translate: return QStringLiteral("translate");
    case Prefetch::DocumentAction::ExplainSelection: return QStringLiteral("explain");
    }
    return {};
}

constexpr Prefetch::DocumentAction AllActions[] = {
    Prefetch::DocumentAction::Summarize, Prefetch::DocumentAction::ContinueWriting,
    Prefetch::DocumentAction::RewriteSelection, Prefetch::DocumentAction::Translate,
    Prefetch::DocumentAction::ExplainSelection};

// A button repeats its action's text without the menu mnemonic ("&Summarize", "总结(&S)").
QString withoutMnemonic(QString text)
{
    static const QRegularExpression mnemonic(QStringLiteral("\\(&.\\)|&(?=.)"));
    return text.remove(mnemonic);
}

} // namespace

MainWindow::MainWindow(const Services &services, QWidget *parent)
    : QMainWindow(parent)
    , m_services(services)
    , m_tabs(new QTabWidget(this))
    , m_answer(new AnswerPane(this))
    , m_providerLabel(new QLabel(this))
    , m_stateLabel(new QLabel(this))
    , m_budgetLabel(new QLabel(this))
{
    setWindowTitle(tr("Headstart"));
    setAcceptDrops(true);
    m_tabs->setDocumentMode(true);
    m_tabs->setTabsClosable(true);
    m_tabs->setMovable(true);
    m_tabs->setAccessibleName(tr("Documents"));
    connect(m_tabs, &QTabWidget::tabCloseRequested, this, [this](int index) {
        if (maybeCloseTab(index))
            closeTab(index);
    });
    connect(m_tabs, &QTabWidget::currentChanged, this, [this] {
        updateTitle();
        updateActionStates();
        warmUpCurrent();
        if (m_chat) {
            const DocumentTab *tab = currentDocument();
            m_chat->setDocumentPath(tab ? tab->filePath() : QString());
            m_chat->documentChanged();
        }
    });

    createActions();

    auto *answerBox = new QWidget(this);
    auto *answerLayout = new QVBoxLayout(answerBox);
    answerLayout->setContentsMargins(0, 0, 0, 0);
    answerLayout->addWidget(createActionPanel());
    answerLayout->addWidget(m_answer, 1);
    auto *answerButtons = new QHBoxLayout;
    m_insertButton = new QPushButton(withoutMnemonic(m_insert->text()), this);
    m_replaceButton = new QPushButton(withoutMnemonic(m_replace->text()), this);
    m_copyButton = new QPushButton(withoutMnemonic(m_copy->text()), this);
    m_regenerateButton = new QPushButton(withoutMnemonic(m_regenerate->text()), this);
    for (auto [button, act] : {std::pair{m_insertButton, m_insert}, std::pair{m_replaceButton, m_replace},
                               std::pair{m_copyButton, m_copy}, std::pair{m_regenerateButton, m_regenerate}}) {
        button->setToolTip(act->toolTip());
        connect(button, &QPushButton::clicked, act, &QAction::trigger);
        connect(act, &QAction::enabledChanged, button, &QWidget::setEnabled);
        button->setEnabled(act->isEnabled());
        answerButtons->addWidget(button);
    }
    answerButtons->addStretch(1);
    answerLayout->addLayout(answerButtons);

    auto *splitter = new QSplitter(Qt::Horizontal, this);
    splitter->addWidget(m_tabs);
    splitter->addWidget(answerBox);
    splitter->setStretchFactor(0, 3);
    splitter->setStretchFactor(1, 2);
    splitter->setChildrenCollapsible(false);
    // Room for about 60 columns of text on the document side, whatever the font and DPI.
    m_tabs->setMinimumWidth(fontMetrics().horizontalAdvance(QLatin1Char('m')) * 30);
    splitter->setSizes({3000, 2000});
    setCentralWidget(splitter);

    if (m_services.conversations && m_services.debounce) {
        m_chat = new ChatDock(m_services.engine, m_services.debounce, m_services.conversations, this);
        m_chat->setObjectName(QStringLiteral("chatDock"));
        m_chat->setDocumentProvider([this] {
            const DocumentTab *tab = currentDocument();
            return tab ? tab->toPlainText() : QString();
        });
        addDockWidget(Qt::RightDockWidgetArea, m_chat);
    }
    m_metrics = new MetricsDock(m_services.engine, this);
    m_metrics->setObjectName(QStringLiteral("metricsDock"));
    addDockWidget(Qt::BottomDockWidgetArea, m_metrics);
    m_metrics->hide();

    createMenus();

    statusBar()->addWidget(m_providerLabel, 1);
    statusBar()->addPermanentWidget(m_budgetLabel);
    statusBar()->addPermanentWidget(m_stateLabel);
    connect(&m_services.engine->metrics(), &Prefetch::Metrics::changed, this, &MainWindow::updateStatusBar);
    connect(m_answer, &AnswerPane::answerEnded, this, &MainWindow::updateRunningState);
    connect(m_answer, &AnswerPane::firstTokenPainted, this, &MainWindow::updateRunningState);
    connect(m_services.hover, &Prefetch::HoverStrategy::readyChanged, this, [this](const QString &id, bool ready) {
        // A subtle mark on the button whose answer is already on its way.
        for (Prefetch::DocumentAction a : AllActions) {
            if (actionId(a) == id)
                m_buttons.value(a)->setProperty("prefetchReady", ready);
        }
        for (Prefetch::DocumentAction a : AllActions) {
            QPushButton *b = m_buttons.value(a);
            const QString plain = withoutMnemonic(m_actions.value(a)->text());
            b->setText(b->property("prefetchReady").toBool() ? plain + QStringLiteral(" \u2022") : plain);
        }
    });

    m_autosave.setInterval(AutosaveIntervalMs);
    connect(&m_autosave, &QTimer::timeout, this, [this] {
        for (int i = 0; i < m_tabs->count(); ++i)
            static_cast<DocumentTab *>(m_tabs->widget(i))->writeRecoveryCopy();
    });
    m_autosave.start();

    providerChanged();
    updateRunningState();
    resize(1280, 800);
}

MainWindow::~MainWindow()
{
    m_services.warmup->closeAll();
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

    m_stop = new QAction(tr("S&top"), this);
    m_stop->setShortcut(QKeySequence(Qt::Key_Escape));
    m_stop->setToolTip(tr("Stop the answer and everything started in the background (Esc)"));
    connect(m_stop, &QAction::triggered, this, &MainWindow::stop);

    m_regenerate = new QAction(tr("Re&generate"), this);
    m_regenerate->setShortcut(QKeySequence(Qt::CTRL | Qt::ALT | Qt::Key_G));
    m_regenerate->setToolTip(tr("Ask again (Ctrl+Alt+G)"));
    connect(m_regenerate, &QAction::triggered, this, &MainWindow::regenerate);

    m_insert = new QAction(tr("&Insert Answer"), this);
    m_insert->setShortcut(QKeySequence(Qt::CTRL | Qt::ALT | Qt::Key_I));
    m_insert->setToolTip(tr("Insert the answer at the cursor, as one undo step (Ctrl+Alt+I)"));
    connect(m_insert, &QAction::triggered, this, &MainWindow::insertAnswer);

    m_replace = new QAction(tr("Re&place Selection"), this);
    m_replace->setShortcut(QKeySequence(Qt::CTRL | Qt::ALT | Qt::Key_P));
    m_replace->setToolTip(tr("Replace the selected text with the answer, as one undo step (Ctrl+Alt+P)"));
    connect(m_replace, &QAction::triggered, this, &MainWindow::replaceSelection);

    m_copy = new QAction(tr("Cop&y Answer"), this);
    m_copy->setShortcut(QKeySequence(Qt::CTRL | Qt::ALT | Qt::Key_Y));
    m_copy->setToolTip(tr("Copy the answer to the clipboard (Ctrl+Alt+Y)"));
    connect(m_copy, &QAction::triggered, this, &MainWindow::copyAnswer);
}

void MainWindow::createMenus()
{
    QMenu *file = menuBar()->addMenu(tr("&File"));
    file->addAction(tr("&New"), QKeySequence::New, this, [this] { newDocument(); });
    file->addAction(tr("New from &Wizard…"), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_W), this, &MainWindow::showWizard);
    file->addAction(tr("&Open…"), QKeySequence::Open, this, &MainWindow::openFileDialog);
    m_recentMenu = file->addMenu(tr("Open &Recent"));
    rebuildRecentMenu();
    file->addSeparator();
    file->addAction(tr("&Save"), QKeySequence::Save, this, [this] {
        if (DocumentTab *tab = currentDocument())
            saveDocument(tab, false);
    });
    file->addAction(tr("Save &As…"), QKeySequence::SaveAs, this, [this] {
        if (DocumentTab *tab = currentDocument())
            saveDocument(tab, true);
    });
    file->addAction(tr("&Close Document"), QKeySequence::Close, this, [this] {
        const int index = m_tabs->currentIndex();
        if (index >= 0 && maybeCloseTab(index))
            closeTab(index);
    });
    file->addSeparator();
    QAction *settings = file->addAction(tr("Se&ttings…"), QKeySequence(Qt::CTRL | Qt::Key_Comma), this,
                                        &MainWindow::settingsRequested);
    settings->setMenuRole(QAction::PreferencesRole);
    QAction *quit = file->addAction(tr("&Quit"), QKeySequence::Quit, this, &QWidget::close);
    quit->setMenuRole(QAction::QuitRole);

    QMenu *ai = menuBar()->addMenu(tr("&AI"));
    for (Prefetch::DocumentAction a : AllActions)
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

    QToolBar *toolbar = addToolBar(tr("Main"));
    toolbar->setObjectName(QStringLiteral("mainToolBar"));
    toolbar->addAction(m_actions.value(Prefetch::DocumentAction::Summarize));
    toolbar->addAction(m_stop);
}

QWidget *MainWindow::createActionPanel()
{
    auto *panel = new QWidget(this);
    auto *layout = new QHBoxLayout(panel);
    layout->setContentsMargins(0, 0, 0, 0);
    QWidget *previous = nullptr;
    for (Prefetch::DocumentAction a : AllActions) {
        QAction *act = m_actions.value(a);
        auto *button = new QPushButton(withoutMnemonic(act->text()), panel);
        button->setToolTip(act->toolTip());
        button->setAccessibleName(withoutMnemonic(act->text()));
        button->setObjectName(actionId(a) + QStringLiteral("Button"));
        // Resting on the button or pressing it starts the answer before the click lands.
        button->installEventFilter(this);
        connect(button, &QPushButton::clicked, act, &QAction::trigger);
        connect(act, &QAction::enabledChanged, button, &QWidget::setEnabled);
        m_buttons.insert(a, button);
        layout->addWidget(button);
        if (previous)
            setTabOrder(previous, button);
        previous = button;
    }
    layout->addStretch(1);
    return panel;
}

// --- running actions ----------------------------------------------------------------------

bool MainWindow::actionNeedsSelection(Prefetch::DocumentAction action) const
{
    return action == Prefetch::DocumentAction::RewriteSelection || action == Prefetch::DocumentAction::ExplainSelection;
}

Prefetch::RenderedRequest MainWindow::actionRequest(Prefetch::DocumentAction action)
{
    DocumentTab *tab = currentDocument();
    const QString selection = tab ? tab->textCursor().selectedText().replace(QChar::ParagraphSeparator, QLatin1Char('\n'))
                                  : QString();
    if (tab) {
        if (const Prefetch::CompiledPrompt *prompt = tab->compiledPrompt(m_services.engine->profile())) {
            if (auto rendered = Prefetch::renderAction(*prompt, action, selection, m_translateTarget))
                return *rendered;
        }
    }
    // Still compiling (a very large document) or not renderable: the engine encodes it itself.
    Prefetch::RenderedRequest plain;
    plain.request = Prefetch::buildActionRequest(action, tab ? tab->toPlainText() : QString(), selection,
                                                 m_services.engine->profile().model, m_translateTarget);
    return plain;
}

void MainWindow::run(Prefetch::DocumentAction action)
{
    const qint64 activated = Llm::monotonicNowNs();
    DocumentTab *tab = currentDocument();
    if (!tab || tab->isBlank()) {
        statusBar()->showMessage(tr("The document is empty: write or open something first."), 5000);
        return;
    }
    if (actionNeedsSelection(action) && !tab->textCursor().hasSelection()) {
        statusBar()->showMessage(tr("Select the text to work on first."), 5000);
        return;
    }
    if (m_current)
        m_current->cancel();
    m_lastAction = action;
    m_lastDocument = tab;
    m_current = m_services.hover->activate(actionId(action), [this, action] { return actionRequest(action); },
                                           activated, this);
    connect(m_current, &Prefetch::ResponseStream::finished, m_current, &QObject::deleteLater);
    connect(m_current, &Prefetch::ResponseStream::failed, m_current, &QObject::deleteLater);
    m_answer->follow(m_current, m_services.engine->profile().displayName);
    updateRunningState();
}

void MainWindow::regenerate()
{
    if (m_lastAction)
        run(*m_lastAction);
}

void MainWindow::stop()
{
    m_services.engine->stopAll();
    updateRunningState();
}

void MainWindow::insertAnswer()
{
    DocumentTab *tab = m_lastDocument ? m_lastDocument.data() : currentDocument();
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
}

void MainWindow::replaceSelection()
{
    DocumentTab *tab = m_lastDocument ? m_lastDocument.data() : currentDocument();
    const QString text = m_answer->text();
    if (!tab || text.isEmpty() || !tab->textCursor().hasSelection())
        return;
    QTextCursor cursor = tab->textCursor();
    cursor.beginEditBlock();
    cursor.insertText(text);
    cursor.endEditBlock();
    tab->setTextCursor(cursor);
    m_tabs->setCurrentWidget(tab);
}

void MainWindow::copyAnswer()
{
    if (!m_answer->text().isEmpty())
        QApplication::clipboard()->setText(m_answer->text());
}

void MainWindow::showWizard()
{
    auto *wizard = new NewDocumentWizard(m_services.engine, m_services.workflow, this);
    wizard->setAttribute(Qt::WA_DeleteOnClose);
    connect(wizard, &NewDocumentWizard::documentCreated, this, [this](const QString &, const QString &markdown) {
        newDocument(markdown);
    });
    wizard->open();
}

bool MainWindow::eventFilter(QObject *watched, QEvent *event)
{
    for (auto it = m_buttons.cbegin(); it != m_buttons.cend(); ++it) {
        QPushButton *button = it.value();
        if (watched != button || !button->isEnabled())
            continue;
        const Prefetch::DocumentAction action = it.key();
        auto builder = [this, action] { return actionRequest(action); };
        const DocumentTab *tab = currentDocument();
        const bool usable = tab && !tab->isBlank() && (!actionNeedsSelection(action) || tab->textCursor().hasSelection());
        switch (event->type()) {
        case QEvent::Enter:
            if (usable)
                m_services.hover->pointerEntered(actionId(action), builder);
            break;
        case QEvent::Leave:
            m_services.hover->pointerLeft(actionId(action));
            break;
        case QEvent::MouseButtonPress:
            if (usable)
                m_services.hover->pressed(actionId(action), builder);
            break;
        default:
            break;
        }
    }
    return QMainWindow::eventFilter(watched, event);
}

// --- documents ----------------------------------------------------------------------------

DocumentTab *MainWindow::currentDocument() const
{
    return qobject_cast<DocumentTab *>(m_tabs->currentWidget());
}

DocumentTab *MainWindow::newDocument(const QString &text)
{
    auto *tab = new DocumentTab(m_tabs);
    tab->setRecoveryDirectory(m_recoveryDirectory);
    tab->setUntitled(++m_untitledCounter, text);
    connect(tab, &DocumentTab::titleChanged, this, [this, tab] {
        const int index = m_tabs->indexOf(tab);
        if (index >= 0)
            m_tabs->setTabText(index, tab->displayName() + (tab->isModified() ? QStringLiteral(" *") : QString()));
        updateTitle();
    });
    connect(tab, &QPlainTextEdit::selectionChanged, this, &MainWindow::updateActionStates);
    connect(tab, &QPlainTextEdit::textChanged, this, &MainWindow::updateActionStates);
    connect(tab->document(), &QTextDocument::contentsChanged, this, [this, tab] {
        // The chat's prefetched answer was made for the old text.
        if (m_chat && tab == currentDocument())
            m_chat->documentChanged();
    });
    connect(tab, &DocumentTab::promptReady, this, [this, tab] {
        if (tab == currentDocument())
            warmUpCurrent();
    });
    m_tabs->addTab(tab, tab->displayName());
    m_tabs->setCurrentWidget(tab);
    tab->setFocus();
    return tab;
}

void MainWindow::setDocumentText(const QString &text)
{
    DocumentTab *tab = currentDocument();
    if (!tab)
        tab = newDocument();
    tab->setPlainText(text);
    updateActionStates();
    warmUpCurrent();
}

bool MainWindow::openFile(const QString &path)
{
    const QString absolute = QFileInfo(path).absoluteFilePath();
    for (int i = 0; i < m_tabs->count(); ++i) {
        if (static_cast<DocumentTab *>(m_tabs->widget(i))->filePath() == absolute) {
            m_tabs->setCurrentIndex(i);
            return true;
        }
    }
    // Reuse an untouched empty tab rather than leaving it behind.
    DocumentTab *tab = currentDocument();
    const bool reuse = tab && tab->filePath().isEmpty() && !tab->isModified() && tab->document()->isEmpty();
    if (!reuse)
        tab = newDocument();
    if (auto error = tab->load(path)) {
        if (!reuse)
            closeTab(m_tabs->indexOf(tab));
        showError(tr("Open Document"), *error);
        return false;
    }
    if (!path.startsWith(QLatin1Char(':')))
        addRecentFile(tab->filePath());
    if (m_chat && tab == currentDocument())
        m_chat->setDocumentPath(tab->filePath());
    updateActionStates();
    warmUpCurrent();
    return true;
}

void MainWindow::openFileDialog()
{
    const DocumentTab *tab = currentDocument();
    const QStringList paths = QFileDialog::getOpenFileNames(
        this, tr("Open Document"), tab ? QFileInfo(tab->filePath()).path() : QString(),
        tr("Text documents (*.md *.markdown *.txt);;All files (*)"));
    for (const QString &path : paths)
        openFile(path);
}

bool MainWindow::saveDocument(DocumentTab *tab, bool askForPath)
{
    QString path = tab->filePath();
    if (askForPath || path.isEmpty() || path.startsWith(QLatin1Char(':'))) {
        path = QFileDialog::getSaveFileName(this, tr("Save Document"),
                                            path.isEmpty() ? tab->displayName() + QStringLiteral(".md") : path,
                                            tr("Markdown (*.md);;Text (*.txt);;All files (*)"));
        if (path.isEmpty())
            return false;
    }
    if (auto error = tab->saveTo(path)) {
        showError(tr("Save Document"), *error);
        return false;
    }
    addRecentFile(tab->filePath());
    statusBar()->showMessage(tr("Saved %1").arg(QDir::toNativeSeparators(tab->filePath())), 3000);
    return true;
}

bool MainWindow::maybeCloseTab(int index)
{
    auto *tab = static_cast<DocumentTab *>(m_tabs->widget(index));
    if (!tab || !tab->isModified())
        return true;
    m_tabs->setCurrentIndex(index);
    const auto answer = QMessageBox::question(
        this, tr("Close Document"), tr("%1 has unsaved changes. Save them?").arg(tab->displayName()),
        QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel, QMessageBox::Save);
    if (answer == QMessageBox::Cancel)
        return false;
    if (answer == QMessageBox::Save)
        return saveDocument(tab, false);
    return true;
}

void MainWindow::closeTab(int index)
{
    auto *tab = static_cast<DocumentTab *>(m_tabs->widget(index));
    if (!tab)
        return;
    m_services.warmup->documentClosed(tab->documentId());
    tab->removeRecoveryCopy();
    m_tabs->removeTab(index);
    tab->deleteLater();
}

void MainWindow::closeEvent(QCloseEvent *event)
{
    for (int i = m_tabs->count() - 1; i >= 0; --i) {
        if (!maybeCloseTab(i)) {
            event->ignore();
            return;
        }
    }
    stop();
    for (int i = m_tabs->count() - 1; i >= 0; --i)
        static_cast<DocumentTab *>(m_tabs->widget(i))->removeRecoveryCopy();
    event->accept();
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
    m_recoveryDirectory = directory;
    for (int i = 0; i < m_tabs->count(); ++i)
        static_cast<DocumentTab *>(m_tabs->widget(i))->setRecoveryDirectory(directory);
}

int MainWindow::offerRecovery()
{
    if (m_recoveryDirectory.isEmpty())
        return 0;
    QDir dir(m_recoveryDirectory);
    const QStringList files = dir.entryList({QStringLiteral("*.json")}, QDir::Files, QDir::Time);
    if (files.isEmpty())
        return 0;
    const auto answer = QMessageBox::question(
        this, tr("Recover Documents"),
        tr("Headstart did not close properly last time. Recover %n unsaved document(s)?", nullptr, int(files.size())),
        QMessageBox::Yes | QMessageBox::Discard, QMessageBox::Yes);
    int restored = 0;
    for (const QString &name : files) {
        QFile file(dir.filePath(name));
        if (answer == QMessageBox::Yes && file.open(QIODevice::ReadOnly)) {
            const QJsonObject copy = QJsonDocument::fromJson(file.readAll()).object();
            file.close();
            if (copy.contains(QStringLiteral("text"))) {
                DocumentTab *tab = newDocument(copy.value(QStringLiteral("text")).toString());
                tab->writeRecoveryCopy(); // the recovered text is unsaved again until saved
                ++restored;
            }
        }
        QFile::remove(dir.filePath(name));
    }
    return restored;
}

void MainWindow::addRecentFile(const QString &path)
{
    QSettings settings;
    QStringList recent = settings.value(QStringLiteral("recentFiles")).toStringList();
    recent.removeAll(path);
    recent.prepend(path);
    while (recent.size() > MaxRecentFiles)
        recent.removeLast();
    settings.setValue(QStringLiteral("recentFiles"), recent);
    rebuildRecentMenu();
}

void MainWindow::rebuildRecentMenu()
{
    if (!m_recentMenu)
        return;
    m_recentMenu->clear();
    const QStringList recent = QSettings().value(QStringLiteral("recentFiles")).toStringList();
    for (int i = 0; i < recent.size(); ++i) {
        const QString path = recent.at(i);
        QAction *act = m_recentMenu->addAction(QStringLiteral("&%1 %2").arg((i + 1) % 10).arg(QFileInfo(path).fileName()),
                                               this, [this, path] { openFile(path); });
        act->setToolTip(QDir::toNativeSeparators(path));
    }
    m_recentMenu->setEnabled(!recent.isEmpty());
}

// --- state --------------------------------------------------------------------------------

void MainWindow::providerChanged()
{
    updateStatusBar();
    if (m_chat)
        m_chat->profileChanged();
    warmUpCurrent();
}

void MainWindow::warmUpCurrent()
{
    DocumentTab *tab = currentDocument();
    if (!tab || tab->isBlank())
        return;
    if (const Prefetch::CompiledPrompt *prompt = tab->compiledPrompt(m_services.engine->profile()))
        m_services.warmup->documentOpened(tab->documentId(), *prompt);
    // else: promptReady calls back here once the worker thread has compiled it
}

void MainWindow::updateActionStates()
{
    const DocumentTab *tab = currentDocument();
    const bool hasText = tab && !tab->isBlank();
    const bool hasSelection = tab && tab->textCursor().hasSelection();
    for (Prefetch::DocumentAction a : AllActions)
        m_actions.value(a)->setEnabled(hasText && (!actionNeedsSelection(a) || hasSelection));
    const bool hasAnswer = !m_answer->text().isEmpty();
    m_insert->setEnabled(hasAnswer && tab);
    m_replace->setEnabled(hasAnswer && hasSelection);
    m_copy->setEnabled(hasAnswer);
    m_regenerate->setEnabled(m_lastAction.has_value());
}

void MainWindow::updateRunningState()
{
    const bool running = m_current && !m_current->isDone();
    m_stop->setEnabled(running || !m_services.engine->liveSessions().isEmpty());
    if (!running)
        m_stateLabel->setText(tr("Ready"));
    else if (m_current->firstContentNs() >= 0)
        m_stateLabel->setText(tr("Streaming"));
    else
        m_stateLabel->setText(tr("Waiting for the provider"));
    updateActionStates();
}

void MainWindow::updateStatusBar()
{
    const auto &p = m_services.engine->profile();
    m_providerLabel->setText(tr("Provider: %1 · Model: %2").arg(p.displayName, p.model));
    const qint64 limit = m_services.engine->budget().limit();
    if (limit <= 0)
        m_budgetLabel->setText(tr("Prefetch budget: unlimited"));
    else
        m_budgetLabel->setText(tr("Prefetch budget left: %1 of %2 tokens this hour")
                                   .arg(QLocale().toString(m_services.engine->budget().remaining()),
                                        QLocale().toString(limit)));
    m_stop->setEnabled((m_current && !m_current->isDone()) || !m_services.engine->liveSessions().isEmpty());
}

void MainWindow::updateTitle()
{
    const DocumentTab *tab = currentDocument();
    setWindowTitle(tab ? tr("%1 – Headstart").arg(tab->displayName() + (tab->isModified() ? QStringLiteral(" *") : QString()))
                       : tr("Headstart"));
}

void MainWindow::showError(const QString &title, const QString &message)
{
    QMessageBox::warning(this, title, message);
}

} // namespace Gui
