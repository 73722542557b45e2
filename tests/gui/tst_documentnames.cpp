// What a document is called before it has a file, and what Save As proposes: "Untitled N"
// counted from the lowest number no open document shows, the welcome text under its title
// (unmodified: closing it asks nothing), a wizard's document under its title, and Save As
// proposing that name in a real folder. Issue 41, item 7.

#include "support/localproviderfixture.h"
#include "support/windowservices.h"
#include "gui/mainwindow/documenttab.h"
#include "gui/mainwindow/documenttabs.h"
#include "gui/mainwindow/mainwindow.h"
#include "gui/wizard/newdocumentwizard.h"
#include "workspace/documents/document.h"

#include <QApplication>
#include <QFileDialog>
#include <QFileInfo>
#include <QMessageBox>
#include <QNetworkAccessManager>
#include <QPushButton>
#include <QStandardPaths>
#include <QTest>

#include <memory>

class tst_DocumentNames : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void init();
    void cleanup();

    void untitledDocumentsCountFromTheLowestFreeNumber();
    void theWelcomeTextKeepsItsTitleAndClosesWithoutAQuestion();
    void saveAsProposesTheTitleInARealFolder();
    void aWizardsDocumentIsNamedByItsTitle();

private:
    QStringList tabTexts() const;
    QFileDialog *visibleFileDialog() const;
    QMessageBox *visibleQuestion() const;

    TestSupport::LocalProviderFixture m_local{u"instant"};
    QNetworkAccessManager m_network;
    std::unique_ptr<Prefetch::Stack> m_stack;
    std::unique_ptr<Gui::MainWindow> m_window;
};

void tst_DocumentNames::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);
    QVERIFY2(m_local.start(), qPrintable(m_local.errorString()));
}

void tst_DocumentNames::init()
{
    m_stack = m_local.makeStack(&m_network);
    m_window = std::make_unique<Gui::MainWindow>(TestSupport::windowServices(*m_stack));
    m_window->show();
    QVERIFY(QTest::qWaitForWindowExposed(m_window.get()));
    m_window->activateWindow();
}

void tst_DocumentNames::cleanup()
{
    for (QWidget *w : QApplication::topLevelWidgets()) {
        if (auto *dialog = qobject_cast<QFileDialog *>(w))
            dialog->reject();
    }
    if (m_window) {
        for (Gui::Document *document : m_window->tabs()->documents())
            document->setModified(false);
    }
    m_window.reset();
    m_stack.reset();
    QVERIFY(m_local.waitForNoOpenStream(3000));
}

QStringList tst_DocumentNames::tabTexts() const
{
    QStringList out;
    for (int i = 0; i < m_window->tabs()->count(); ++i)
        out << m_window->tabs()->tabText(i);
    return out;
}

QFileDialog *tst_DocumentNames::visibleFileDialog() const
{
    for (QWidget *w : QApplication::topLevelWidgets()) {
        if (auto *d = qobject_cast<QFileDialog *>(w); d && d->isVisible())
            return d;
    }
    return nullptr;
}

QMessageBox *tst_DocumentNames::visibleQuestion() const
{
    for (QWidget *w : QApplication::topLevelWidgets()) {
        if (auto *box = qobject_cast<QMessageBox *>(w); box && box->isVisible())
            return box;
    }
    return nullptr;
}

void tst_DocumentNames::untitledDocumentsCountFromTheLowestFreeNumber()
{
    // The window opens with no document; the first the user makes is the first, whatever
    // numbers the process handed out before (ids stay unique for the warm-ups).
    QCOMPARE(m_window->tabs()->count(), 0);
    QTest::keyClick(m_window.get(), Qt::Key_N, Qt::ControlModifier);
    QTest::keyClick(m_window->currentTab(), Qt::Key_N, Qt::ControlModifier);
    QTest::keyClick(m_window->currentTab(), Qt::Key_N, Qt::ControlModifier);
    QCOMPARE(tabTexts(), QStringList({QStringLiteral("Untitled 1"), QStringLiteral("Untitled 2"),
                                      QStringLiteral("Untitled 3")}));
    const QString firstId = m_window->tabs()->tab(0)->model()->documentId();

    // The second closed (Ctrl+W, nothing typed: no question): the next new one takes its number.
    m_window->tabs()->setCurrentIndex(1);
    QTest::keyClick(m_window->currentTab(), Qt::Key_W, Qt::ControlModifier);
    QTRY_COMPARE(m_window->tabs()->count(), 2);
    QTest::keyClick(m_window->currentTab(), Qt::Key_N, Qt::ControlModifier);
    QCOMPARE(tabTexts(), QStringList({QStringLiteral("Untitled 1"), QStringLiteral("Untitled 3"),
                                      QStringLiteral("Untitled 2")}));
    // Its id is new: a warm-up or recovery copy of the closed one is not taken for it.
    QVERIFY(m_window->currentDocument()->documentId() != firstId);
    QCOMPARE(m_window->tabs()->tab(0)->model()->documentId(), firstId);

    // A second window counts with the first: two "Untitled 1" could not be told apart.
    Gui::MainWindow other(TestSupport::windowServices(*m_stack));
    other.newDocument();
    QCOMPARE(other.currentDocument()->displayName(), QStringLiteral("Untitled 4"));
}

void tst_DocumentNames::theWelcomeTextKeepsItsTitleAndClosesWithoutAQuestion()
{
    m_window->openText(QStringLiteral("Welcome"), QStringLiteral("# Welcome to Headstart\n\nTry Summarize.\n"));
    QCOMPARE(tabTexts(), QStringList({QStringLiteral("Welcome")})); // no " *": nothing to save
    Gui::Document *welcome = m_window->currentDocument();
    QVERIFY(!welcome->isModified());
    QVERIFY(welcome->filePath().isEmpty()); // no internal path shown anywhere
    QVERIFY(!welcome->textDocument()->isUndoAvailable());

    // A new document next to it is still "Untitled 1".
    QTest::keyClick(m_window->currentTab(), Qt::Key_N, Qt::ControlModifier);
    QCOMPARE(m_window->currentDocument()->displayName(), QStringLiteral("Untitled 1"));

    // Unchanged, it closes with Ctrl+W and no question.
    m_window->tabs()->setCurrentIndex(0);
    QTest::keyClick(m_window->currentTab(), Qt::Key_W, Qt::ControlModifier);
    QTRY_COMPARE(tabTexts(), QStringList({QStringLiteral("Untitled 1")}));
    QVERIFY(!visibleQuestion());

    // Edited, it is the user's text: the question names it by its title.
    m_window->openText(QStringLiteral("Welcome"), QStringLiteral("Some text.\n"));
    QTest::keyClick(m_window->currentTab(), Qt::Key_End, Qt::ControlModifier);
    QTest::keyClicks(m_window->currentTab(), QStringLiteral(" Mine."));
    QCOMPARE(m_window->tabs()->tabText(m_window->tabs()->currentIndex()), QStringLiteral("Welcome *"));
    QTest::keyClick(m_window->currentTab(), Qt::Key_W, Qt::ControlModifier);
    QMessageBox *question = nullptr;
    QTRY_VERIFY((question = visibleQuestion()));
    QVERIFY2(question->text().startsWith(QStringLiteral("Welcome has unsaved changes")), qPrintable(question->text()));
    QTest::mouseClick(question->button(QMessageBox::Cancel), Qt::LeftButton);
}

void tst_DocumentNames::saveAsProposesTheTitleInARealFolder()
{
    m_window->openText(QStringLiteral("Welcome"), QStringLiteral("Text.\n"));
    QTest::keyClick(m_window->currentTab(), Qt::Key_S, Qt::ControlModifier | Qt::ShiftModifier);
    QFileDialog *dialog = nullptr;
    QTRY_VERIFY((dialog = visibleFileDialog()));
    QCOMPARE(dialog->selectedFiles().size(), 1);
    const QFileInfo proposed(dialog->selectedFiles().constFirst());
    QCOMPARE(proposed.fileName(), QStringLiteral("Welcome.md")); // not "Welcome.md.md"
    QVERIFY2(QFileInfo(proposed.absolutePath()).isDir(), qPrintable(proposed.absolutePath()));
    dialog->reject();

    // A title with characters no file system takes is proposed without them.
    m_window->newDocument(QStringLiteral("Draft.\n"));
    m_window->currentDocument()->setTitle(QStringLiteral("Caching: why/how?"));
    QCOMPARE(m_window->currentDocument()->proposedFileName(), QStringLiteral("Caching why how.md"));
    // Untitled, the name it shows (the titled ones take no number).
    m_window->newDocument();
    QCOMPARE(m_window->currentDocument()->proposedFileName(), QStringLiteral("Untitled 1.md"));
}

void tst_DocumentNames::aWizardsDocumentIsNamedByItsTitle()
{
    m_window->showWizard();
    Gui::NewDocumentWizard *wizard = nullptr;
    QTRY_VERIFY((wizard = m_window->findChild<Gui::NewDocumentWizard *>()) && wizard->isVisible());
    // Finish, as the wizard's own test drives it, ends in this signal with the form's title.
    emit wizard->documentCreated(QStringLiteral("Prompt Caching, Explained"),
                                 QStringLiteral("# Prompt Caching, Explained\n\nWhy prompts repeat.\n"));
    wizard->close();
    QCOMPARE(m_window->currentDocument()->displayName(), QStringLiteral("Prompt Caching, Explained"));
    QVERIFY(m_window->currentDocument()->isModified()); // written, not saved
    QCOMPARE(m_window->currentDocument()->proposedFileName(), QStringLiteral("Prompt Caching, Explained.md"));
}

QTEST_MAIN(tst_DocumentNames)
#include "tst_documentnames.moc"
