// The window's menus the way a person uses them while writing: Edit and its keys, find and
// replace, the focus after Insert, File's Save As, Open Recent and Quit, and Help. Issue 13.

#include "support/localproviderfixture.h"
#include "support/windowservices.h"
#include "gui/answer/answerpane.h"
#include "gui/mainwindow/documenttab.h"
#include "gui/mainwindow/documenttabs.h"
#include "gui/mainwindow/findbar.h"
#include "gui/mainwindow/mainwindow.h"
#include "prefetch/engine.h"
#include "prefetch/strategies/debouncestrategy.h"
#include "prefetch/strategies/hoverstrategy.h"
#include "prefetch/strategies/warmupstrategy.h"
#include "prefetch/strategies/workflowstrategy.h"
#include "workspace/documents/document.h"

#include <QAction>
#include <QApplication>
#include <QClipboard>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QLineEdit>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QNetworkAccessManager>
#include <QPushButton>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QStatusBar>
#include <QTemporaryDir>
#include <QTest>
#include <QTreeWidget>

#include <memory>

class tst_Editing : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void init();
    void cleanup();

    void undoRightAfterInsertNeedsNoClick();
    void eachTabKeepsItsOwnAnswer();
    void regenerateAsksTheTabsOwnActionAgain();
    void editMenuHasWhatEveryEditorHas();
    void undoFromTheMenuKeysWhileAButtonHasTheFocus();
    void findWrapsAroundAndReplaceAllIsOneUndoStep();
    void escapeInTheFindBarClosesItAndStopsNothing();
    void saveAsHasItsDocumentedKey();
    void openRecentTellsSameNamesApart();
    void helpListsEveryShortcutAndSearchesThem();
    void theShortcutListLeavesOutKeysFewKeyboardsHave();
    void controlPageDownAndUpSwitchDocuments();
    void theUnsavedQuestionNamesWhatTheUserIsDoing();
    void quittingWithSeveralUnsavedAsksOnceAndSendsNothing_data();
    void quittingWithSeveralUnsavedAsksOnceAndSendsNothing();

private:
    QMenu *menu(const QString &title) const;
    QAction *entry(QMenu *menu, const QString &text) const;

    static constexpr auto Text = "The cache keeps the document warm. Users feel the first token. the end";
    // Answers stream for a while, so one is still running when Esc is pressed in the find bar.
    TestSupport::LocalProviderFixture m_local{u"instant", [](LocalProvider::ServerConfig &c) {
                                                  c.profile.decodeTokensPerSec = 40;
                                              }};
    QNetworkAccessManager m_network;
    std::unique_ptr<Prefetch::Stack> m_stack;
    std::unique_ptr<Gui::MainWindow> m_window;
    Gui::DocumentTab *m_tab = nullptr;
};

void tst_Editing::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);
    QVERIFY2(m_local.start(), qPrintable(m_local.errorString()));
}

void tst_Editing::init()
{
    m_stack = m_local.makeStack(&m_network);
    const Gui::Services services = TestSupport::windowServices(*m_stack);
    m_window = std::make_unique<Gui::MainWindow>(services);
    m_tab = m_window->newDocument(QString::fromLatin1(Text));
    m_window->show();
    QVERIFY(QTest::qWaitForWindowExposed(m_window.get()));
    m_window->activateWindow();
    m_tab->setFocus();
    QTRY_VERIFY(m_tab->hasFocus());
}

void tst_Editing::cleanup()
{
    if (m_window) {
        for (QWidget *w : QApplication::topLevelWidgets()) {
            if (auto *dialog = qobject_cast<QFileDialog *>(w))
                dialog->reject();
        }
        m_tab->document()->setModified(false);
        if (m_window->currentDocument())
            m_window->currentDocument()->setModified(false);
    }
    m_window.reset();
    m_stack.reset();
    QVERIFY(m_local.waitForNoOpenStream(3000));
}

QMenu *tst_Editing::menu(const QString &title) const
{
    for (QAction *a : m_window->menuBar()->actions()) {
        if (a->menu() && a->text() == title)
            return a->menu();
    }
    return nullptr;
}

QAction *tst_Editing::entry(QMenu *m, const QString &text) const
{
    for (QAction *a : m->actions()) {
        if (a->text() == text)
            return a;
    }
    return nullptr;
}

void tst_Editing::undoRightAfterInsertNeedsNoClick()
{
    QSignalSpy ended(m_window->answerPane(), &Gui::AnswerPane::answerEnded);
    QTest::mouseClick(m_window->summarizeButton(), Qt::LeftButton);
    QVERIFY(ended.wait(15000));
    const QString answer = m_window->answerPane()->text();
    QVERIFY(!answer.isEmpty());

    // Copy Answer says that it copied.
    QPushButton *copy = nullptr;
    for (QPushButton *b : m_window->findChildren<QPushButton *>()) {
        if (b->text() == tr("Copy Answer"))
            copy = b;
    }
    QVERIFY(copy);
    QTest::mouseClick(copy, Qt::LeftButton);
    QCOMPARE(QApplication::clipboard()->text(), answer);
    QVERIFY2(m_window->statusBar()->currentMessage().contains(QString::number(answer.size())),
             qPrintable(m_window->statusBar()->currentMessage()));

    QTest::mouseClick(m_window->insertButton(), Qt::LeftButton);
    QVERIFY(m_tab->toPlainText().contains(answer));
    // The focus is back in the document, so the next key is the document's.
    QTRY_COMPARE(QApplication::focusWidget(), static_cast<QWidget *>(m_tab));
    QTest::keySequence(QApplication::focusWidget(), QKeySequence::Undo);
    QCOMPARE(m_tab->toPlainText(), QString::fromLatin1(Text));
}

void tst_Editing::eachTabKeepsItsOwnAnswer()
{
    QSignalSpy ended(m_window->answerPane(), &Gui::AnswerPane::answerEnded);
    QTest::mouseClick(m_window->summarizeButton(), Qt::LeftButton);
    QVERIFY(ended.wait(15000));
    const QString first = m_window->answerPane()->text();
    const QString firstStatus = m_window->answerPane()->statusText();
    QVERIFY(!first.isEmpty());

    // Another document: its own, empty answer; Insert has nothing to insert there.
    Gui::DocumentTab *other = m_window->newDocument(QStringLiteral("A second document, about something else entirely. "
                                                                   "It has its own sentences and its own summary."));
    QVERIFY(m_window->answerPane()->text().isEmpty());
    QVERIFY(!m_window->insertButton()->isEnabled());
    QSignalSpy endedThere(m_window->answerPane(), &Gui::AnswerPane::answerEnded);
    QTest::mouseClick(m_window->summarizeButton(), Qt::LeftButton);
    QVERIFY(endedThere.wait(15000));
    const QString second = m_window->answerPane()->text();
    QVERIFY(!second.isEmpty() && second != first);

    // Back on the first tab: its answer and its status line, as they were.
    m_window->tabs()->setCurrentWidget(m_tab);
    QCOMPARE(m_window->answerPane()->text(), first);
    QCOMPARE(m_window->answerPane()->statusText(), firstStatus);
    QTest::mouseClick(m_window->insertButton(), Qt::LeftButton);
    QVERIFY(m_tab->toPlainText().contains(first));
    QVERIFY(!other->toPlainText().contains(first));

    // Closing a tab takes its answer with it; the others keep theirs.
    m_window->tabs()->setCurrentWidget(other);
    other->model()->setModified(false);
    QTest::keySequence(other, QKeySequence::Close);
    QTRY_COMPARE(m_window->currentTab(), m_tab);
    QCOMPARE(m_window->answerPane()->text(), first);
}

void tst_Editing::regenerateAsksTheTabsOwnActionAgain()
{
    QAction *regenerate = entry(menu(tr("&AI")), tr("Re&generate"));
    QVERIFY(regenerate);
    QVERIFY(!regenerate->isEnabled()); // nothing asked yet
    QSignalSpy ended(m_window->answerPane(), &Gui::AnswerPane::answerEnded);
    QTest::mouseClick(m_window->summarizeButton(), Qt::LeftButton);
    QVERIFY(ended.wait(15000));
    // The pane says what the answer is for.
    QCOMPARE(m_window->answerPane()->heading(), QStringLiteral("Summarize"));
    QVERIFY(regenerate->isEnabled());

    // Another tab with no answer: nothing to regenerate there, and Ctrl+Alt+G asks nothing.
    Gui::DocumentTab *other = m_window->newDocument(QStringLiteral("A second document, about something else. "
                                                                   "It has sentences of its own."));
    QTRY_VERIFY(other->hasFocus());
    QVERIFY(!regenerate->isEnabled());
    QVERIFY(m_window->answerPane()->heading().isEmpty());
    QTest::keyClick(other, Qt::Key_G, Qt::ControlModifier | Qt::AltModifier);
    QVERIFY(m_window->answerPane()->text().isEmpty());
    QVERIFY(m_local.settle(&m_network, 200, 5000));
    QVERIFY(m_window->answerPane()->text().isEmpty());
    QCOMPARE(m_window->answerPane()->statusText(), QString()); // not "Waiting for the first token"

    // Continue Writing there; back on the first tab, Regenerate asks Summarize again, in its pane.
    QSignalSpy endedThere(m_window->answerPane(), &Gui::AnswerPane::answerEnded);
    QTest::keyClick(other, Qt::Key_C, Qt::ControlModifier | Qt::AltModifier);
    QVERIFY(endedThere.wait(15000));
    QCOMPARE(m_window->answerPane()->heading(), QStringLiteral("Continue Writing"));
    m_window->tabs()->setCurrentWidget(m_tab);
    QCOMPARE(m_window->answerPane()->heading(), QStringLiteral("Summarize"));
    QSignalSpy again(m_window->answerPane(), &Gui::AnswerPane::answerEnded);
    QTest::keyClick(m_tab, Qt::Key_G, Qt::ControlModifier | Qt::AltModifier);
    QVERIFY(again.wait(15000));
    QCOMPARE(m_window->answerPane()->heading(), QStringLiteral("Summarize"));
    QVERIFY(!m_window->answerPane()->text().isEmpty());
    m_window->tabs()->setCurrentWidget(other);
    QCOMPARE(m_window->answerPane()->heading(), QStringLiteral("Continue Writing"));
    other->model()->setModified(false);
}

void tst_Editing::editMenuHasWhatEveryEditorHas()
{
    QMenu *edit = menu(tr("&Edit"));
    QVERIFY(edit);
    for (const char *name : {"&Undo", "&Redo", "Cu&t", "&Copy", "&Paste", "Select &All", "&Find…", "R&eplace…"}) {
        QAction *a = entry(edit, QString::fromUtf8(name));
        QVERIFY2(a, name);
        QVERIFY2(!a->shortcut().isEmpty(), name);
    }
    // It sits between File and AI, as in every editor.
    const QList<QAction *> menus = m_window->menuBar()->actions();
    QCOMPARE(menus.at(1)->menu(), edit);
}

void tst_Editing::undoFromTheMenuKeysWhileAButtonHasTheFocus()
{
    QTest::keyClick(m_tab, Qt::Key_End, Qt::ControlModifier);
    QTest::keyClicks(m_tab, QStringLiteral(" typed"));
    QVERIFY(m_tab->toPlainText().endsWith(QLatin1String(" typed")));
    // A click on a button takes the focus; Ctrl+Z still means the document.
    m_window->summarizeButton()->setFocus(Qt::MouseFocusReason);
    QTRY_VERIFY(m_window->summarizeButton()->hasFocus());
    QTest::keySequence(m_window->summarizeButton(), QKeySequence::Undo);
    QCOMPARE(m_tab->toPlainText(), QString::fromLatin1(Text));
    QTest::keySequence(m_window->summarizeButton(), QKeySequence::Redo);
    QVERIFY(m_tab->toPlainText().endsWith(QLatin1String(" typed")));
}

void tst_Editing::findWrapsAroundAndReplaceAllIsOneUndoStep()
{
    Gui::FindBar *bar = m_window->findBar();
    QVERIFY(!bar->isVisible());
    QTest::keyClick(m_tab, Qt::Key_F, Qt::ControlModifier);
    QTRY_VERIFY(bar->isVisible());
    QTRY_VERIFY(bar->findField()->hasFocus());

    // Typing finds as it goes; Enter goes on to the next match, then wraps around.
    QTest::keyClicks(bar->findField(), QStringLiteral("the"));
    const QString text = QString::fromLatin1(Text);
    const int first = text.indexOf(QLatin1String("the"), 0, Qt::CaseInsensitive);
    QCOMPARE(m_tab->textCursor().selectionStart(), first);
    QTest::keyClick(bar->findField(), Qt::Key_Return);
    const int second = text.indexOf(QLatin1String("the"), first + 1, Qt::CaseInsensitive);
    QCOMPARE(m_tab->textCursor().selectionStart(), second);
    int n = 2;
    while (text.indexOf(QLatin1String("the"), m_tab->textCursor().selectionEnd(), Qt::CaseInsensitive) >= 0) {
        QTest::keyClick(bar->findField(), Qt::Key_Return);
        ++n;
    }
    QCOMPARE(n, int(text.count(QLatin1String("the"), Qt::CaseInsensitive)));
    QTest::keyClick(bar->findField(), Qt::Key_Return);
    QCOMPARE(m_tab->textCursor().selectionStart(), first);
    QCOMPARE(bar->statusText(), tr("Wrapped around"));

    // Replace: Ctrl+H shows the second field; Replace All changes every match, case-insensitively.
    QTest::keyClick(bar->findField(), Qt::Key_H, Qt::ControlModifier);
    QTRY_VERIFY(bar->replaceField()->isVisible());
    QTest::keyClicks(bar->replaceField(), QStringLiteral("a"));
    auto *replaceAll = bar->findChild<QPushButton *>();
    for (QPushButton *b : bar->findChildren<QPushButton *>()) {
        if (b->text() == tr("Replace &All"))
            replaceAll = b;
    }
    QTest::mouseClick(replaceAll, Qt::LeftButton);
    QVERIFY(!m_tab->toPlainText().contains(QLatin1String("the"), Qt::CaseInsensitive));
    QCOMPARE(m_tab->toPlainText().count(QLatin1String("a cache")), 1);
    // One Ctrl+Z in the document brings them all back.
    QTest::keySequence(m_tab, QKeySequence::Undo);
    QCOMPARE(m_tab->toPlainText(), text);
}

void tst_Editing::escapeInTheFindBarClosesItAndStopsNothing()
{
    QSignalSpy ended(m_window->answerPane(), &Gui::AnswerPane::answerEnded);
    m_window->summarizeAction()->trigger();
    QTRY_VERIFY_WITH_TIMEOUT(!m_window->answerPane()->text().isEmpty(), 5000);
    QTest::keyClick(m_tab, Qt::Key_F, Qt::ControlModifier);
    Gui::FindBar *bar = m_window->findBar();
    QTRY_VERIFY(bar->findField()->hasFocus());
    QTest::keyClick(bar->findField(), Qt::Key_Escape);
    QVERIFY(!bar->isVisible());
    QTRY_COMPARE(QApplication::focusWidget(), static_cast<QWidget *>(m_tab));
    QCOMPARE(ended.count(), 0); // the answer goes on: that Esc was the find bar's
    // The next Esc, in the document, is Stop.
    QTest::keyClick(m_tab, Qt::Key_Escape);
    QCOMPARE(ended.count(), 1);
}

void tst_Editing::saveAsHasItsDocumentedKey()
{
    QTest::keyClick(m_tab, Qt::Key_S, Qt::ControlModifier | Qt::ShiftModifier);
    QFileDialog *dialog = nullptr;
    QTRY_VERIFY([&] {
        for (QWidget *w : QApplication::topLevelWidgets()) {
            if (auto *d = qobject_cast<QFileDialog *>(w); d && d->isVisible())
                dialog = d;
        }
        return dialog != nullptr;
    }());
    QCOMPARE(dialog->acceptMode(), QFileDialog::AcceptSave);
    dialog->reject();
}

void tst_Editing::openRecentTellsSameNamesApart()
{
    QTemporaryDir dir;
    QStringList paths;
    for (const char *folder : {"project-a", "project-b"}) {
        QVERIFY(QDir(dir.path()).mkpath(QLatin1String(folder)));
        QFile f(dir.filePath(QLatin1String(folder) + QLatin1String("/notes.md")));
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("Notes.");
        paths << QFileInfo(f).absoluteFilePath();
        QVERIFY(m_window->openFile(paths.last()));
    }
    QMenu *recent = nullptr;
    for (QAction *a : menu(tr("&File"))->actions()) {
        if (a->menu() && a->text() == tr("Open &Recent"))
            recent = a->menu();
    }
    QVERIFY(recent);
    const QList<QAction *> entries = recent->actions();
    QVERIFY(entries.size() >= 2);
    // Newest first, each with its folder.
    QVERIFY2(entries.at(0)->text().contains(QLatin1String("notes.md"))
                 && entries.at(0)->text().contains(QLatin1String("project-b")),
             qPrintable(entries.at(0)->text()));
    QVERIFY2(entries.at(1)->text().contains(QLatin1String("project-a")), qPrintable(entries.at(1)->text()));
    m_window->tabs()->setCurrentIndex(0);
    entries.at(1)->trigger();
    QCOMPARE(m_window->currentDocument()->filePath(), paths.first());
}

void tst_Editing::helpListsEveryShortcutAndSearchesThem()
{
    QMenu *help = menu(tr("&Help"));
    QVERIFY(help);
    QVERIFY(entry(help, tr("&User Guide")));
    QVERIFY(entry(help, tr("&About Headstart")));
    QTest::keyClick(m_tab, Qt::Key_Slash, Qt::ControlModifier);
    QTreeWidget *list = nullptr;
    QTRY_VERIFY((list = m_window->findChild<QTreeWidget *>(QStringLiteral("shortcutList"))) && list->isVisible());
    // Read from the actions: Summarize with its key, and the Edit menu's.
    auto row = [list](const QString &name) -> QTreeWidgetItem * {
        for (int i = 0; i < list->topLevelItemCount(); ++i) {
            if (list->topLevelItem(i)->text(0) == name)
                return list->topLevelItem(i);
        }
        return nullptr;
    };
    QVERIFY(row(QStringLiteral("Summarize")));
    QCOMPARE(row(QStringLiteral("Summarize"))->text(1),
             QKeySequence(Qt::CTRL | Qt::ALT | Qt::Key_S).toString(QKeySequence::NativeText));
    QVERIFY(row(QStringLiteral("Find")));
    QVERIFY(row(QStringLiteral("Save As")));
    // The search narrows it to what matches, by name or by key.
    auto *search = m_window->findChild<QLineEdit *>(QStringLiteral("shortcutSearch"));
    QTRY_VERIFY(search->hasFocus()); // typing goes straight into the search
    QTest::keyClicks(search, QStringLiteral("replace"));
    int shown = 0;
    for (int i = 0; i < list->topLevelItemCount(); ++i)
        shown += list->topLevelItem(i)->isHidden() ? 0 : 1;
    QVERIFY(shown >= 2); // Replace Selection and Edit's Replace
    QVERIFY(row(QStringLiteral("Summarize"))->isHidden());
    QVERIFY(!row(QStringLiteral("Replace Selection"))->isHidden());
    list->window()->close();

    // About names the versions a bug report needs.
    entry(help, tr("&About Headstart"))->trigger();
    QMessageBox *about = nullptr;
    QTRY_VERIFY((about = m_window->findChild<QMessageBox *>(QStringLiteral("aboutDialog"))) && about->isVisible());
    QVERIFY2(about->text().contains(QString::fromLatin1(qVersion())), qPrintable(about->text()));
    QVERIFY(about->text().contains(QLatin1String("SQLite 3.")));
    about->close();

    // The user guide (F1) opens in a tab of its own, not as a path in a message: it is Markdown.
    m_window->activateWindow();
    m_tab->setFocus();
    QTRY_VERIFY(m_tab->hasFocus());
    QTest::keyClick(m_tab, Qt::Key_F1);
    QTRY_VERIFY(m_window->currentTab() != m_tab);
    QCOMPARE(QFileInfo(m_window->currentDocument()->filePath()).fileName(), QStringLiteral("user-guide.md"));
    QVERIFY(m_window->currentTab()->toPlainText().startsWith(QLatin1String("# Headstart user guide")));
}

void tst_Editing::theShortcutListLeavesOutKeysFewKeyboardsHave()
{
    // On X11 Qt also binds Copy and Cut to Sun's Copy and Cut keys, which reach it as F16 and
    // F20; as the desktop's themes give them (offscreen has none), here on Edit's Copy.
    QAction *copy = entry(menu(tr("&Edit")), tr("&Copy"));
    QVERIFY(copy);
    copy->setShortcuts(copy->shortcuts() << QKeySequence(Qt::Key_F16) << QKeySequence(Qt::Key_Copy));
    QTest::keyClick(m_tab, Qt::Key_Slash, Qt::ControlModifier);
    QTreeWidget *list = nullptr;
    QTRY_VERIFY((list = m_window->findChild<QTreeWidget *>(QStringLiteral("shortcutList"))) && list->isVisible());
    QString keys;
    for (int i = 0; i < list->topLevelItemCount(); ++i) {
        if (list->topLevelItem(i)->text(0) == QStringLiteral("Copy"))
            keys = list->topLevelItem(i)->text(1);
    }
    QVERIFY2(keys.contains(QKeySequence(QKeySequence::Copy).toString(QKeySequence::NativeText)), qPrintable(keys));
    QVERIFY2(!keys.contains(QLatin1String("F16")) && !keys.contains(QKeySequence(Qt::Key_Copy).toString()),
             qPrintable(keys));
    list->window()->close();
}

void tst_Editing::controlPageDownAndUpSwitchDocuments()
{
    Gui::DocumentTab *second = m_window->newDocument(QStringLiteral("Second."));
    Gui::DocumentTab *third = m_window->newDocument(QStringLiteral("Third."));
    m_window->tabs()->setCurrentWidget(m_tab);
    m_tab->setFocus();
    QTRY_VERIFY(m_tab->hasFocus());
    // From the editor, as a writer would: the next tab, its text ready to type in.
    QTest::keyClick(m_tab, Qt::Key_PageDown, Qt::ControlModifier);
    QCOMPARE(m_window->currentTab(), second);
    QTRY_VERIFY(second->hasFocus());
    QTest::keyClick(second, Qt::Key_PageDown, Qt::ControlModifier);
    QCOMPARE(m_window->currentTab(), third);
    // Around the end, and back.
    QTest::keyClick(third, Qt::Key_PageDown, Qt::ControlModifier);
    QCOMPARE(m_window->currentTab(), m_tab);
    QTest::keyClick(m_tab, Qt::Key_PageUp, Qt::ControlModifier);
    QCOMPARE(m_window->currentTab(), third);
    QTRY_VERIFY(third->hasFocus());
    // The text was not touched by the keys.
    QCOMPARE(third->toPlainText(), QStringLiteral("Third."));
    QCOMPARE(second->toPlainText(), QStringLiteral("Second."));
}

void tst_Editing::theUnsavedQuestionNamesWhatTheUserIsDoing()
{
    QTest::keyClick(m_tab, Qt::Key_End, Qt::ControlModifier);
    QTest::keyClicks(m_tab, QStringLiteral(" Edited."));
    const auto question = [] {
        for (QWidget *w : QApplication::topLevelWidgets()) {
            if (auto *box = qobject_cast<QMessageBox *>(w); box && box->isVisible())
                return box;
        }
        return static_cast<QMessageBox *>(nullptr);
    };
    // Closing the window (its close button) with one unsaved document.
    m_window->close();
    QTRY_VERIFY(question());
    QCOMPARE(question()->windowTitle(), tr("Close Window"));
    QTest::mouseClick(question()->button(QMessageBox::Cancel), Qt::LeftButton);
    QTRY_VERIFY(!question());
    QVERIFY(m_window->isVisible());
    // Quitting: File → Quit (Ctrl+Q) asks the application, which closes each window to quit.
    m_window->closeToQuit();
    QTRY_VERIFY(question());
    QCOMPARE(question()->windowTitle(), tr("Quit"));
    QTest::mouseClick(question()->button(QMessageBox::Cancel), Qt::LeftButton);
    QTRY_VERIFY(!question());
    QVERIFY(m_window->isVisible());
    // Closing the document itself is still that.
    m_window->activateWindow();
    m_tab->setFocus();
    QTRY_VERIFY(m_tab->hasFocus());
    QTest::keyClick(m_tab, Qt::Key_W, Qt::ControlModifier);
    QTRY_VERIFY(question());
    QCOMPARE(question()->windowTitle(), tr("Close Document"));
    QTest::mouseClick(question()->button(QMessageBox::Cancel), Qt::LeftButton);
}

void tst_Editing::quittingWithSeveralUnsavedAsksOnceAndSendsNothing_data()
{
    QTest::addColumn<bool>("saveAll");
    QTest::newRow("Save All") << true;
    QTest::newRow("Discard All") << false;
}

void tst_Editing::quittingWithSeveralUnsavedAsksOnceAndSendsNothing()
{
    QFETCH(bool, saveAll);
    QTemporaryDir dir;
    QStringList paths;
    for (const char *name : {"first.md", "second.md"}) {
        QFile f(dir.filePath(QLatin1String(name)));
        QVERIFY(f.open(QIODevice::WriteOnly));
        // Long enough to be warmed up (the local provider caches from 128 tokens).
        for (int i = 0; i < 20; ++i)
            f.write("A document about caches and the first token, and what a warm cache saves. ");
        f.write("\n");
        paths << f.fileName();
    }
    for (const QString &path : paths) {
        QVERIFY(m_window->openFile(path));
        Gui::DocumentTab *tab = m_window->currentTab();
        QTest::keyClick(tab, Qt::Key_End, Qt::ControlModifier);
        QTest::keyClicks(tab, QStringLiteral(" Edited."));
    }
    m_tab->document()->setModified(false); // the untitled one is not part of this
    m_tab->model()->setModified(false);
    QVERIFY(m_local.settle(&m_network, 200, 5000)); // warm-ups of the opened files are done
    const auto before = m_local.stats();

    QVERIFY(!m_window->close());
    QMessageBox *question = nullptr;
    QTRY_VERIFY([&] {
        for (QWidget *w : QApplication::topLevelWidgets()) {
            if (auto *box = qobject_cast<QMessageBox *>(w); box && box->isVisible())
                question = box;
        }
        return question != nullptr;
    }());
    // One question names both.
    QVERIFY2(question->text().contains(QLatin1String("first.md"))
                 && question->text().contains(QLatin1String("second.md")),
             qPrintable(question->text()));
    QVERIFY(question->button(QMessageBox::SaveAll) && question->button(QMessageBox::Discard));
    // While it is up, switching tabs (as a user checking what changed does) sends nothing.
    m_window->tabs()->setCurrentIndex(1);
    m_window->tabs()->setCurrentIndex(2);
    QVERIFY(m_local.settle(&m_network, 300, 5000));
    QCOMPARE(m_local.stats().requestsServed, before.requestsServed);

    QTest::mouseClick(question->button(saveAll ? QMessageBox::SaveAll : QMessageBox::Discard), Qt::LeftButton);
    QTRY_VERIFY(!m_window->isVisible());
    for (const QString &path : paths) {
        QFile f(path);
        QVERIFY(f.open(QIODevice::ReadOnly));
        QCOMPARE(f.readAll().trimmed().endsWith("Edited."), saveAll);
    }
    QCOMPARE(m_local.stats().requestsServed, before.requestsServed);
}

QTEST_MAIN(tst_Editing)
#include "tst_editing.moc"
