// The chat draft completed in grey (issue 39), against the real local provider over loopback,
// driven with the keys: a message this user sent before is offered from its third character,
// Tab takes it and its answer starts at once (Enter is then answered from it), nothing is sent
// without Enter; Right takes it too, Esc dismisses it without stopping the answer that streams
// (then Esc is Stop again, tst_mainwindow); it shows only at the end of the draft, and Tab moves the focus when
// there is none; a word of the conversation is completed too, without an early answer; a file
// waiting to be sent stops the early answer (it would go with it); switched off, nothing shows.
#include "support/chatdocksuite.h"
#include "support/localproviderfixture.h"
#include "gui/chat/chatdock.h"
#include "gui/chat/chatinput.h"
#include "prefetch/engine.h"
#include "prefetch/stack.h"
#include "prefetch/strategies/debouncestrategy.h"
#include "prefetch/stream/answerreader.h"
#include "workspace/chat/chatsession.h"
#include "workspace/conversations/conversationstore.h"

#include <QFile>
#include <QPushButton>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

using Gui::ChatDock;
using Gui::ChatInput;

namespace {

// No final full stop, so that it does not look finished when typed: only the completion starts it.
const QString Earlier = QStringLiteral("Translate the last answer into French and keep its tone");

} // namespace

class tst_ChatCompletion : public QObject, private TestSupport::ChatDockSuite
{
    Q_OBJECT

private slots:
    void initTestCase();
    void init();
    void cleanup();

    void aMessageSentBeforeIsTakenWithTabAndStartedAtOnce();
    void rightTakesItAndEscDismissesItWithoutStopping();
    void onlyAtTheEndAndTabMovesOnWithoutOne();
    void aWordOfTheConversationIsCompletedWithoutAnEarlyAnswer();
    void aFileWaitingToBeSentStopsTheEarlyAnswer();
    void switchedOffNothingShows();

private:
    void makeDock(const Prefetch::Settings &settings = {}, const char *latency = "rtt=0,prefill=1000000,decode=200");
    void haveSent(const QString &message);
    ChatInput *input() const { return m_dock->input(); }
};

void tst_ChatCompletion::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);
    QVERIFY(startProvider());
}

void tst_ChatCompletion::init()
{
    QVERIFY(openStore());
}

void tst_ChatCompletion::cleanup()
{
    QVERIFY(closeDock());
}

void tst_ChatCompletion::makeDock(const Prefetch::Settings &settings, const char *latency)
{
    m_stack = m_local.makeStack(&m_network, latency, settings);
    QVERIFY(showDock());
    m_dock->newConversation();
    QVERIFY(input()->hasFocus());
}

void tst_ChatCompletion::haveSent(const QString &message)
{
    const qint64 id = *m_store->create(QStringLiteral("Earlier"));
    QVERIFY(m_store->appendMessage(id, Llm::Role::User, message));
    QVERIFY(m_store->appendMessage(id, Llm::Role::Assistant, QStringLiteral("Voilà.")));
}

void tst_ChatCompletion::aMessageSentBeforeIsTakenWithTabAndStartedAtOnce()
{
    haveSent(Earlier);
    makeDock();
    const auto before = m_local.stats().prefetchRequests; // the suite's provider counts on
    QTest::keyClicks(input(), QStringLiteral("Tr"));
    QVERIFY(!input()->isCompletionShown()); // two letters tell too little
    QTest::keyClicks(input(), QStringLiteral("a"));
    QVERIFY(input()->isCompletionShown());
    QCOMPARE(input()->completion(), Earlier.mid(3));
    QVERIFY(input()->accessibleDescription().contains(Earlier));
    QVERIFY(!m_stack->debounce()->isPrefetching());

    QTest::keyClick(input(), Qt::Key_Tab);
    QCOMPARE(input()->toPlainText(), Earlier);
    QVERIFY(input()->hasFocus());
    QVERIFY(!input()->isCompletionShown());
    // Its answer started at the key, without a pause; nothing was sent as a message.
    QVERIFY(m_stack->debounce()->isPrefetching());
    QCOMPARE(m_stack->debounce()->prefetchedDraft(), Earlier);
    QVERIFY(m_dock->session()->messages().isEmpty());
    QTRY_COMPARE_WITH_TIMEOUT(m_local.stats().prefetchRequests, before + 1, 3000);

    QTest::keyClick(input(), Qt::Key_Return);
    QVERIFY(m_dock->isAnswering());
    QVERIFY(m_dock->currentAnswer()->isPrefetched());
    QCOMPARE(m_dock->session()->messages().constFirst().content, Earlier);
    // Undo in the next draft takes a completion back as one step.
    QSignalSpy ended(m_dock->session(), &Gui::ChatSession::exchangeEnded);
    QVERIFY(ended.wait(10000));
    QTest::keyClicks(input(), QStringLiteral("Tra"));
    QTest::keyClick(input(), Qt::Key_Tab);
    QCOMPARE(input()->toPlainText(), Earlier);
    QTest::keyClick(input(), Qt::Key_Z, Qt::ControlModifier);
    QCOMPARE(input()->toPlainText(), QStringLiteral("Tra"));
}

void tst_ChatCompletion::rightTakesItAndEscDismissesItWithoutStopping()
{
    haveSent(Earlier);
    // Slow to answer, so that one still streams while the next message is written.
    makeDock({}, "rtt=0,prefill=1000000,decode=5");
    QTest::keyClicks(input(), QStringLiteral("A question first"));
    QTest::keyClick(input(), Qt::Key_Return);
    QVERIFY(m_dock->isAnswering());
    QTest::keyClicks(input(), QStringLiteral("Transl"));
    QVERIFY(input()->isCompletionShown());
    // Esc is the completion's while it shows: the answer streams on.
    QTest::keyClick(input(), Qt::Key_Escape);
    QVERIFY(!input()->isCompletionShown());
    QCOMPARE(input()->toPlainText(), QStringLiteral("Transl"));
    QVERIFY(m_dock->isAnswering()); // (then Esc is Stop again: tst_mainwindow)
    // The next letter offers it again; Right takes it.
    QTest::keyClicks(input(), QStringLiteral("a"));
    QVERIFY(input()->isCompletionShown());
    QTest::keyClick(input(), Qt::Key_Right);
    QCOMPARE(input()->toPlainText(), Earlier);
    QCOMPARE(m_dock->session()->messages().size(), 2); // the first exchange only
}

void tst_ChatCompletion::onlyAtTheEndAndTabMovesOnWithoutOne()
{
    haveSent(Earlier);
    makeDock();
    QTest::keyClicks(input(), QStringLiteral("Tra"));
    QVERIFY(input()->isCompletionShown());
    // The caret moved back into the draft: not shown, and Left and Right move it as ever.
    QTest::keyClick(input(), Qt::Key_Left);
    QVERIFY(!input()->isCompletionShown());
    QTest::keyClick(input(), Qt::Key_Right);
    QVERIFY(input()->isCompletionShown()); // back at the end
    // Shown where the user types only: not while the focus is elsewhere, again when it is back.
    m_dock->sendButton()->setFocus();
    QVERIFY(!input()->isCompletionShown());
    input()->setFocus();
    QVERIFY(input()->isCompletionShown());
    // A draft nothing completes: Tab goes on to the next control, the text untouched.
    QTest::keyClicks(input(), QStringLiteral("xq"));
    QVERIFY(!input()->isCompletionShown());
    QTest::keyClick(input(), Qt::Key_Tab);
    QTRY_VERIFY(!input()->hasFocus());
    QCOMPARE(input()->toPlainText(), QStringLiteral("Traxq"));
}

void tst_ChatCompletion::aWordOfTheConversationIsCompletedWithoutAnEarlyAnswer()
{
    makeDock();
    QSignalSpy ended(m_dock->session(), &Gui::ChatSession::exchangeEnded);
    QTest::keyClicks(input(), QStringLiteral("Explain speculative prefetching briefly"));
    QTest::keyClick(input(), Qt::Key_Return);
    QVERIFY(ended.wait(10000));
    const auto before = m_local.stats().prefetchRequests;
    QTest::keyClicks(input(), QStringLiteral("How much does spec"));
    QVERIFY(input()->isCompletionShown());
    QCOMPARE(input()->completion(), QStringLiteral("ulative"));
    QTest::keyClick(input(), Qt::Key_Tab);
    QCOMPARE(input()->toPlainText(), QStringLiteral("How much does speculative"));
    // A word is no whole message: no answer is started for it.
    QVERIFY(m_local.settle(&m_network, 200, 3000));
    QCOMPARE(m_local.stats().prefetchRequests, before);
}

void tst_ChatCompletion::aFileWaitingToBeSentStopsTheEarlyAnswer()
{
    haveSent(Earlier);
    makeDock();
    const QString path = m_dir->filePath(QStringLiteral("notes.txt"));
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write("Private notes that are not sent until the user sends them.\n");
    file.close();
    QVERIFY(m_dock->attachFiles({path}));
    const auto before = m_local.stats().prefetchRequests;
    QTest::keyClicks(input(), QStringLiteral("Tra"));
    QTest::keyClick(input(), Qt::Key_Tab);
    QCOMPARE(input()->toPlainText(), Earlier); // completed: it is only text
    QVERIFY(!m_stack->debounce()->isPrefetching());
    QCOMPARE(m_local.stats().prefetchRequests, before);
}

void tst_ChatCompletion::switchedOffNothingShows()
{
    haveSent(Earlier);
    Prefetch::Settings settings;
    settings.debounce.completeDrafts = false;
    makeDock(settings);
    QTest::keyClicks(input(), QStringLiteral("Tra"));
    QVERIFY(!input()->isCompletionShown());
    QVERIFY(input()->completion().isEmpty());
    QTest::keyClick(input(), Qt::Key_Tab);
    QTRY_VERIFY(!input()->hasFocus());
    QCOMPARE(input()->toPlainText(), QStringLiteral("Tra"));
}

QTEST_MAIN(tst_ChatCompletion)
#include "tst_chatcompletion.moc"
