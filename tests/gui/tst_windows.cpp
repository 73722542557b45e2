// Two main windows on one set of services, as File, New Window and `headstart --new-window`
// make them: each window's Stop stops its own answers, closing one leaves the other's documents
// warm, and the early signals follow the window the user acts in. Issue 12.

#include "support/localproviderfixture.h"
#include "support/windowservices.h"
#include "gui/answer/answerpane.h"
#include "gui/chat/chatdock.h"
#include "gui/chat/chatinput.h"
#include "gui/mainwindow/documenttab.h"
#include "gui/mainwindow/mainwindow.h"
#include "prefetch/engine.h"
#include "prefetch/prefetchsession.h"
#include "prefetch/strategies/debouncestrategy.h"
#include "prefetch/strategies/hoverstrategy.h"
#include "prefetch/strategies/speculator.h"
#include "prefetch/strategies/warmupstrategy.h"
#include "prefetch/strategies/workflowstrategy.h"
#include "workspace/conversations/conversationstore.h"
#include "workspace/documents/document.h"
#include "workspace/documents/documentactions.h"

#include <QAction>
#include <QApplication>
#include <QFile>
#include <QListWidget>
#include <QMessageBox>
#include <QNetworkAccessManager>
#include <QPushButton>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

#include <memory>

using Prefetch::DocumentAction;
using Prefetch::Strategy;

namespace {

// Long enough for the local provider to cache (128 tokens) and so to be warmed.
QString longText(const QString &word)
{
    QString text;
    for (int i = 0; i < 20; ++i)
        text += QStringLiteral("A note about %1, the first token and what a warm cache saves. ").arg(word);
    return text;
}

} // namespace

class tst_Windows : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void init();
    void cleanup();

    void escInOneWindowLeavesTheOthersAnswerFetching();
    void closingOneWindowKeepsTheOthersDocumentsWarm();
    void untitledDocumentsOfTwoWindowsAreNotTheSame();
    void theGuessesAreForTheWindowTheUserActsIn();
    void aConversationStartedInOneWindowIsListedInTheOther();
    void eachWindowsChatSendsItsOwnDocument();

private:
    std::unique_ptr<Gui::MainWindow> makeWindow(const QString &text);
    static bool activate(Gui::MainWindow *window);

    // Answers stream for a few seconds, so one is still running when the other window stops.
    TestSupport::LocalProviderFixture m_local{u"instant", [](LocalProvider::ServerConfig &c) {
                                                  c.profile.decodeTokensPerSec = 30;
                                              }};
    QNetworkAccessManager m_network;
    std::unique_ptr<Prefetch::Stack> m_stack;
    QTemporaryDir m_home;
    std::unique_ptr<Gui::ConversationStore> m_store;
    std::unique_ptr<Gui::MainWindow> m_a;
    std::unique_ptr<Gui::MainWindow> m_b;
};

void tst_Windows::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);
    QVERIFY2(m_local.start(), qPrintable(m_local.errorString()));
}

void tst_Windows::init()
{
    // Of the early signals only the keyboard's, so the one test about them hears only it (a
    // document opened would be guessed on by Reading in every test otherwise).
    Prefetch::Settings settings;
    settings.trajectory.enabled = false;
    settings.selection.enabled = false;
    settings.reading.enabled = false;
    settings.habits.enabled = false;
    m_stack = m_local.makeStack(&m_network, {}, settings);
    QFile::remove(m_home.filePath(QStringLiteral("conversations.sqlite")));
    m_store = std::make_unique<Gui::ConversationStore>(m_home.filePath(QStringLiteral("conversations.sqlite")));
    m_a = makeWindow(longText(QStringLiteral("alpha")));
    m_b = makeWindow(longText(QStringLiteral("beta")));
}

void tst_Windows::cleanup()
{
    for (Gui::MainWindow *w : {m_a.get(), m_b.get()}) {
        if (w && w->currentDocument())
            w->currentDocument()->setModified(false);
    }
    m_b.reset();
    m_a.reset();
    m_store.reset();
    m_stack.reset();
    QVERIFY(m_local.waitForNoOpenStream(3000));
}

std::unique_ptr<Gui::MainWindow> tst_Windows::makeWindow(const QString &text)
{
    const Gui::Services services = TestSupport::windowServices(*m_stack, m_store.get(), nullptr, true);
    auto window = std::make_unique<Gui::MainWindow>(services);
    window->newDocument(text);
    window->show();
    if (!QTest::qWaitForWindowExposed(window.get()))
        qWarning("window not exposed");
    return window;
}

bool tst_Windows::activate(Gui::MainWindow *window)
{
    window->activateWindow();
    window->currentTab()->setFocus();
    return QTest::qWaitForWindowActive(window)
           && QTest::qWaitFor([window] { return window->currentTab()->hasFocus(); });
}

void tst_Windows::escInOneWindowLeavesTheOthersAnswerFetching()
{
    QSignalSpy endedA(m_a->answerPane(), &Gui::AnswerPane::answerEnded);
    QSignalSpy endedB(m_b->answerPane(), &Gui::AnswerPane::answerEnded);
    QVERIFY(activate(m_a.get()));
    QTest::mouseClick(m_a->summarizeButton(), Qt::LeftButton);
    QVERIFY(activate(m_b.get()));
    QTest::mouseClick(m_b->summarizeButton(), Qt::LeftButton);
    QTRY_VERIFY(!m_a->answerPane()->text().isEmpty() && !m_b->answerPane()->text().isEmpty());

    // Esc where the user is: window B, its document.
    QVERIFY(m_b->stopAction()->isEnabled());
    QTest::keyClick(m_b->currentTab(), Qt::Key_Escape);
    QTRY_COMPARE(endedB.count(), 1);
    QCOMPARE(endedB.first().first().toBool(), false); // stopped, not finished
    QTRY_VERIFY(!m_b->stopAction()->isEnabled());     // nothing of B's runs any more
    QVERIFY(endedA.isEmpty());
    QVERIFY(m_a->stopAction()->isEnabled()); // A's answer still runs, and is A's to stop

    // Window A's answer streams on to its end.
    QVERIFY(endedA.wait(30000));
    QCOMPARE(endedA.first().first().toBool(), true);
    QVERIFY2(m_a->answerPane()->statusText().startsWith(QLatin1String("Done.")),
             qPrintable(m_a->answerPane()->statusText()));
}

void tst_Windows::closingOneWindowKeepsTheOthersDocumentsWarm()
{
    const QString idA = m_a->currentDocument()->documentId();
    const QString idB = m_b->currentDocument()->documentId();
    QTRY_VERIFY(m_stack->warmup()->isOpen(idA) && m_stack->warmup()->isOpen(idB));

    QSignalSpy closed(m_b.get(), &Gui::MainWindow::closeFinished);
    m_b->close();
    // B's document was never saved: B asks, and only about it.
    QMessageBox *question = nullptr;
    QTRY_VERIFY([&] {
        for (QWidget *w : QApplication::topLevelWidgets()) {
            if (auto *box = qobject_cast<QMessageBox *>(w); box && box->isVisible())
                question = box;
        }
        return question != nullptr;
    }());
    QCOMPARE(question->parentWidget()->window(), m_b.get());
    QVERIFY(closed.isEmpty());
    QTest::mouseClick(question->button(QMessageBox::Discard), Qt::LeftButton);
    QTRY_COMPARE(closed.count(), 1);
    QCOMPARE(closed.first().first().toBool(), true);
    QVERIFY(!m_b->isVisible());
    QVERIFY(m_stack->warmup()->isOpen(idB)); // a closed window the application has not deleted yet
    m_b.reset();
    QVERIFY(!m_stack->warmup()->isOpen(idB));
    QVERIFY(m_stack->warmup()->isOpen(idA));
}

void tst_Windows::untitledDocumentsOfTwoWindowsAreNotTheSame()
{
    // Warm-ups and crash-recovery copies are keyed on the id: two "Untitled 1" would share both.
    QVERIFY(m_a->currentDocument()->documentId() != m_b->currentDocument()->documentId());
    QVERIFY(m_a->currentDocument()->displayName() != m_b->currentDocument()->displayName());
}

void tst_Windows::theGuessesAreForTheWindowTheUserActsIn()
{
    // The fingerprints of what a window's Summarize and Continue Writing would ask.
    auto requests = [](Gui::MainWindow *w) {
        QSet<QByteArray> fingerprints;
        for (DocumentAction a : {DocumentAction::Summarize, DocumentAction::ContinueWriting})
            fingerprints.insert(w->documentActions()->request(a, w->currentDocument(), {}).fingerprint);
        return fingerprints;
    };
    auto guessed = [this] {
        QSet<QByteArray> fingerprints;
        for (Prefetch::PrefetchSession *s : m_stack->engine()->liveSessions()) {
            if (s->strategy() == Strategy::Keyboard)
                fingerprints.insert(s->fingerprint());
        }
        return fingerprints;
    };
    QTRY_VERIFY(!requests(m_a.get()).contains(QByteArray())); // both prompts compiled
    QTRY_VERIFY(!requests(m_b.get()).contains(QByteArray()));

    // Ctrl+Alt held in window A (made last, B held the speculator until A was turned to).
    QVERIFY(activate(m_a.get()));
    QTest::keyPress(m_a->currentTab(), Qt::Key_Control);
    QTest::keyPress(m_a->currentTab(), Qt::Key_Alt, Qt::ControlModifier);
    QTRY_VERIFY(!guessed().isEmpty());
    QVERIFY(requests(m_a.get()).contains(guessed()));
    QTest::keyRelease(m_a->currentTab(), Qt::Key_Alt, Qt::ControlModifier);
    QTest::keyRelease(m_a->currentTab(), Qt::Key_Control);

    // Then in window B: B's document is guessed, and A's guesses, for a context that is not the
    // speculator's any more, are gone.
    QVERIFY(activate(m_b.get()));
    QTest::keyPress(m_b->currentTab(), Qt::Key_Control);
    QTest::keyPress(m_b->currentTab(), Qt::Key_Alt, Qt::ControlModifier);
    QTRY_VERIFY(!guessed().isEmpty() && requests(m_b.get()).contains(guessed()));
    QVERIFY(!guessed().intersects(requests(m_a.get())));
    QTest::keyRelease(m_b->currentTab(), Qt::Key_Alt, Qt::ControlModifier);
    QTest::keyRelease(m_b->currentTab(), Qt::Key_Control);

    // Closing B while it holds the speculator leaves no guess for a window that is gone.
    m_b.reset();
    QTRY_VERIFY(guessed().isEmpty());
}

void tst_Windows::aConversationStartedInOneWindowIsListedInTheOther()
{
    QListWidget *listA = m_a->chatDock()->conversationList();
    QListWidget *listB = m_b->chatDock()->conversationList();
    QCOMPARE(listB->count(), 0);
    QVERIFY(activate(m_a.get()));
    Gui::ChatInput *input = m_a->chatDock()->input();
    input->setFocus();
    QTRY_VERIFY(input->hasFocus());
    QTest::keyClicks(input, QStringLiteral("How warm is the cache?"));
    QTest::keyClick(input, Qt::Key_Return);
    QTRY_COMPARE(listA->count(), 1);
    // Window B's list reads the same store: it shows the conversation without being touched.
    QTRY_COMPARE(listB->count(), 1);
    QCOMPARE(listB->item(0)->text(), QStringLiteral("How warm is the cache?"));
}

void tst_Windows::eachWindowsChatSendsItsOwnDocument()
{
    // Both chats are "about the current document"; they share one debounce strategy.
    Gui::ChatInput *inputA = m_a->chatDock()->input();
    Gui::ChatInput *inputB = m_b->chatDock()->input();
    // The user types a little in B's chat first, then turns to A and asks there.
    QVERIFY(activate(m_b.get()));
    inputB->setFocus();
    QTRY_VERIFY(inputB->hasFocus());
    QTest::keyClicks(inputB, QStringLiteral("What is"));
    QVERIFY(activate(m_a.get()));
    inputA->setFocus();
    QTRY_VERIFY(inputA->hasFocus());
    QTest::keyClicks(inputA, QStringLiteral("Which word does this note repeat?"));
    QTest::keyClick(inputA, Qt::Key_Return);
    QTRY_COMPARE_WITH_TIMEOUT(m_a->chatDock()->conversationList()->count(), 1, 10000);
    QTRY_VERIFY_WITH_TIMEOUT(!m_stack->engine()->hasLiveAnswers(), 30000);
    // The demo engine answers from the words of the document it was sent: A's.
    const QString answer = m_a->chatDock()->transcriptText();
    QVERIFY2(answer.contains(QLatin1String("alpha")), qPrintable(answer));
    QVERIFY2(!answer.contains(QLatin1String("beta")), qPrintable(answer));
}

QTEST_MAIN(tst_Windows)
#include "tst_windows.moc"
