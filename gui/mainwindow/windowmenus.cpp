#include "gui/mainwindow/windowmenus.h"

#include "gui/chat/chatdock.h"
#include "gui/chat/salvageexport.h"
#include "gui/library/librarydock.h"
#include "gui/mainwindow/documenttab.h"
#include "gui/mainwindow/documenttabs.h"
#include "gui/mainwindow/editmenu.h"
#include "gui/mainwindow/helpdialogs.h"
#include "gui/mainwindow/logfolder.h"
#include "gui/mainwindow/mainwindow.h"
#include "gui/metrics/metricsdock.h"
#include "gui/widgets/mnemonic.h"
#include "gui/widgets/themeicon.h"
#include "workspace/conversations/conversationstore.h"
#include "workspace/documents/document.h"

#include <QAction>
#include <QActionGroup>
#include <QMenu>
#include <QMenuBar>
#include <QStatusBar>
#include <QToolBar>

namespace Gui {

WindowMenus::WindowMenus(MainWindow *window, const QList<QAction *> &answerActions,
                         const ConversationStore *conversations)
    : QObject(window)
{
    QMenu *file = window->menuBar()->addMenu(tr("&File"));
    QAction *newDocument = file->addAction(themeIcon("document-new", QStyle::SP_FileIcon), tr("&New"),
                                           QKeySequence::New, this, [window] { window->newDocument(); });
    newDocument->setObjectName(QStringLiteral("newDocument"));
    // No shortcut: Ctrl+Shift+N, the usual one, is New Conversation's.
    file->addAction(themeIcon("window-new"), tr("New Win&dow"), window, &MainWindow::newWindowRequested);
    file->addAction(tr("New from &Wizard…"), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_W), window,
                    &MainWindow::showWizard);
    QAction *open = file->addAction(themeIcon("document-open", QStyle::SP_DialogOpenButton), tr("&Open…"),
                                    QKeySequence::Open, window->tabs(), &DocumentTabs::openWithDialog);
    open->setObjectName(QStringLiteral("openDocument"));
    window->tabs()->setRecentMenu(file->addMenu(tr("Open &Recent")));
    file->addSeparator();
    QAction *save = file->addAction(themeIcon("document-save", QStyle::SP_DialogSaveButton), tr("&Save"),
                                    QKeySequence::Save, this, [window] {
                                        if (DocumentTab *tab = window->currentTab())
                                            window->tabs()->save(tab, false);
                                    });
    save->setObjectName(QStringLiteral("saveDocument"));
    QAction *saveAs = file->addAction(themeIcon("document-save-as"), tr("Save &As…"), this, [window] {
        if (DocumentTab *tab = window->currentTab())
            window->tabs()->save(tab, true);
    });
    saveAs->setShortcuts(standardShortcuts(QKeySequence::SaveAs, QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_S)));
    // The encoding Save writes (a legacy file is saved back in its own until the user picks
    // another, UTF-8 most often); the current document's is checked.
    QMenu *encodings = file->addMenu(tr("Save in &Encoding"));
    encodings->menuAction()->setObjectName(QStringLiteral("encodingMenu"));
    auto *encodingGroup = new QActionGroup(encodings);
    const std::pair<const char *, QString> choices[] = {
        {"UTF-8", tr("UTF-8")},
        {"GB18030", tr("GB18030 (Chinese)")},
        {"UTF-16LE", tr("UTF-16")},
    };
    for (const auto &[name, label] : choices) {
        QAction *choice = encodings->addAction(label);
        choice->setObjectName(QLatin1String(name));
        choice->setCheckable(true);
        choice->setActionGroup(encodingGroup);
        connect(choice, &QAction::triggered, this, [window, encoding = QByteArray(name), label] {
            Document *document = window->currentDocument();
            if (!document || document->encoding() == encoding)
                return;
            document->setEncoding(encoding);
            window->statusBar()->showMessage(
                tr("%1 is saved in %2 from now on: Save writes it.").arg(document->displayName(), label), 5000);
        });
    }
    connect(encodings, &QMenu::aboutToShow, this, [window, encodings] {
        const Document *document = window->currentDocument();
        for (QAction *choice : encodings->actions()) {
            choice->setEnabled(document);
            // UTF-16BE, as read, is kept and shows as UTF-16.
            const QByteArray current = document ? document->encoding() : QByteArray();
            choice->setChecked(document
                               && (current == choice->objectName().toLatin1()
                                   || (current.startsWith("UTF-16") && choice->objectName() == u"UTF-16LE")));
        }
    });
    QAction *closeDocument = file->addAction(themeIcon("document-close"), tr("&Close Document"), this, [window] {
        if (DocumentTab *tab = window->currentTab())
            window->tabs()->closeDocument(tab);
    });
    // Every binding (Ctrl+W and Ctrl+F4): a StandardKey given to addAction() keeps only the first.
    closeDocument->setShortcuts(standardShortcuts(QKeySequence::Close, QKeySequence(Qt::CTRL | Qt::Key_W)));
    file->addSeparator();
    if (window->chatDock()) {
        file->addAction(window->chatDock()->clearHistoryAction());
        file->addSeparator();
    }
    // Only after a damaged conversation file was moved aside at start (its message names this).
    if (const ConversationStore *store = conversations; store && !store->movedAsidePath().isEmpty()) {
        file->addAction(tr("&Export Damaged Conversations…"), this,
                        [window, damaged = store->movedAsidePath()] { exportSalvagedConversations(window, damaged); });
        file->addSeparator();
    }
    QAction *settings = file->addAction(themeIcon("preferences-system"), tr("Se&ttings…"),
                                        QKeySequence(Qt::CTRL | Qt::Key_Comma), window, &MainWindow::settingsRequested);
    settings->setMenuRole(QAction::PreferencesRole);
    file->addSeparator();
    file->addAction(themeIcon("window-close"), tr("C&lose Window"), window,
                    &QWidget::close); // Ctrl+Shift+W is the wizard's
    // Every window: the application decides the order they are asked in (quitRequested()).
    QAction *quit = file->addAction(themeIcon("application-exit"), tr("&Quit"), QKeySequence::Quit, window,
                                    &MainWindow::quitRequested);
    quit->setMenuRole(QAction::QuitRole);

    new EditMenu(
        window->menuBar()->addMenu(tr("&Edit")), [window]() -> QPlainTextEdit * { return window->currentTab(); }, window->findBar());

    QMenu *ai = window->menuBar()->addMenu(tr("&AI"));
    for (Prefetch::DocumentAction a : Prefetch::AllDocumentActions)
        ai->addAction(window->action(a));
    ai->addSeparator();
    for (QAction *act : answerActions)
        ai->addAction(act);
    ai->addSeparator();
    ai->addAction(window->stopAction());

    QMenu *view = window->menuBar()->addMenu(tr("&View"));
    if (window->chatDock()) {
        // Also from the menu, so it works while the dock is hidden.
        file->insertAction(file->actions().at(1), window->chatDock()->newConversationAction());
        QAction *chat = window->chatDock()->toggleViewAction();
        chat->setText(tr("&Chat"));
        chat->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_C));
        view->addAction(chat);
    }
    QAction *metrics = window->metricsDock()->toggleViewAction();
    metrics->setText(tr("&Metrics"));
    metrics->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_M));
    view->addAction(metrics);
    if (window->libraryDock()) {
        QAction *library = window->libraryDock()->toggleViewAction();
        library->setText(tr("&Library"));
        library->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_L));
        view->addAction(library);
    }

    // Ctrl+PageDown/PageUp, as browsers and editors switch tabs; around the ends.
    view->addSeparator();
    const auto step = [window](int by) {
        if (window->tabs()->count() > 1)
            window->tabs()->setCurrentIndex((window->tabs()->currentIndex() + by + window->tabs()->count()) % window->tabs()->count());
        if (DocumentTab *tab = window->currentTab())
            tab->setFocus();
    };
    QAction *next = view->addAction(tr("&Next Document"), QKeySequence(Qt::CTRL | Qt::Key_PageDown), this,
                                    [step] { step(1); });
    next->setObjectName(QStringLiteral("nextDocument"));
    QAction *previous = view->addAction(tr("&Previous Document"), QKeySequence(Qt::CTRL | Qt::Key_PageUp), this,
                                        [step] { step(-1); });
    previous->setObjectName(QStringLiteral("previousDocument"));

    QMenu *help = window->menuBar()->addMenu(tr("&Help"));
    QAction *guide = help->addAction(themeIcon("help-contents", QStyle::SP_DialogHelpButton), tr("&User Guide"), this,
                                     [window] {
                                         // In a tab: it is Markdown, and a question about it can go to the chat.
                                         if (const QString path = userGuidePath(); path.isEmpty())
                                             showGuideMissing(window);
                                         else
                                             window->openFile(path);
                                     });
    guide->setShortcuts(QKeySequence::keyBindings(QKeySequence::HelpContents));
    help->addAction(tr("&Keyboard Shortcuts"), QKeySequence(Qt::CTRL | Qt::Key_Slash), this,
                    [window] { showShortcutsDialog(window); });
    help->addSeparator();
    m_openLogFolder = help->addAction(themeIcon("folder-open", QStyle::SP_DirOpenIcon), tr("Open &Log Folder"), this,
                                      [this, window] { openLogFolder(window, m_logDirectory); });
    m_openLogFolder->setObjectName(QStringLiteral("openLogFolder"));
    m_openLogFolder->setEnabled(false); // until setLogDirectory()
    help->addSeparator();
    QAction *about = help->addAction(themeIcon("help-about", QStyle::SP_MessageBoxInformation), tr("&About Headstart"),
                                     this, [window] { showAboutDialog(window); });
    about->setMenuRole(QAction::AboutRole);

    QToolBar *toolbar = window->addToolBar(tr("Main"));
    toolbar->setObjectName(QStringLiteral("mainToolBar"));
    // What a writer reaches for: the file's actions, every AI action, the chat and Stop. Icons
    // where the theme (or Qt) has one, the name where not (the AI actions); a narrow window
    // shows the rest behind the toolbar's extension button.
    toolbar->setToolButtonStyle(Qt::ToolButtonIconOnly);
    toolbar->addAction(newDocument);
    toolbar->addAction(open);
    toolbar->addAction(save);
    toolbar->addSeparator();
    for (Prefetch::DocumentAction a : Prefetch::AllDocumentActions)
        toolbar->addAction(window->action(a));
    toolbar->addSeparator();
    if (window->chatDock())
        toolbar->addAction(window->chatDock()->toggleViewAction());
    toolbar->addAction(window->stopAction());
    // Named without the menus' mnemonic: Qt drops the "&" but keeps a translation's "(&S)".
    for (QAction *a : toolbar->actions())
        a->setIconText(withoutMnemonic(a->text()));
}

void WindowMenus::setLogDirectory(const QString &directory)
{
    m_logDirectory = directory;
    m_openLogFolder->setEnabled(!directory.isEmpty());
}

} // namespace Gui
