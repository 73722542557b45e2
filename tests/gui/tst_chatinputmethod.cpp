// The chat input with an input method, against the real local provider over loopback: the
// pre-edit (pinyin being composed) arrives as QInputMethodEvents, as a platform input method
// sends them to the focused widget. While there is one, a finished-looking draft is not guessed
// and a guess already made goes; the commit puts the text in and its pause runs; the pre-edit is
// never part of the message sent.
#include "support/chatdocksuite.h"
#include "support/localproviderfixture.h"
#include "gui/chat/chatdock.h"
#include "prefetch/stack.h"
#include "prefetch/strategies/debouncestrategy.h"
#include "prefetch/stream/answerreader.h"
#include "workspace/chat/chatsession.h"

#include <QApplication>
#include <QInputMethodEvent>
#include <QMainWindow>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

using Gui::ChatDock;

class tst_ChatInputMethod : public QObject, private TestSupport::ChatDockSuite
{
    Q_OBJECT

private slots:
    void initTestCase();
    void init();
    void cleanup();

    void composingHoldsTheGuessAndTheCommitLetsItGo();

private:
    void compose(const QString &preedit);
    void commit(const QString &text);
};

void tst_ChatInputMethod::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);
    QVERIFY(startProvider());
}

void tst_ChatInputMethod::init()
{
    QVERIFY(openStore());
    m_stack = m_local.makeStack(&m_network, "rtt=0,prefill=1000000,decode=200");
    QVERIFY(showDock());
}

void tst_ChatInputMethod::cleanup()
{
    QVERIFY(closeDock());
}

void tst_ChatInputMethod::compose(const QString &preedit)
{
    QInputMethodEvent event(preedit, {});
    QApplication::sendEvent(m_dock->input(), &event);
}

void tst_ChatInputMethod::commit(const QString &text)
{
    QInputMethodEvent event;
    event.setCommitString(text);
    QApplication::sendEvent(m_dock->input(), &event);
}

void tst_ChatInputMethod::composingHoldsTheGuessAndTheCommitLetsItGo()
{
    QVERIFY(m_dock->input()->hasFocus());
    QSignalSpy started(m_stack->debounce(), &Prefetch::DebounceStrategy::prefetchStarted);
    const QString question = QStringLiteral("这篇文档的主要观点是什么？");
    commit(question);
    QCOMPARE(m_dock->input()->toPlainText(), question);
    // The pinyin of more words, composed at once and for longer than the pause.
    compose(QStringLiteral("q"));
    compose(QStringLiteral("qi"));
    compose(QStringLiteral("qing"));
    QVERIFY(m_local.settle(&m_network, 600, 5000));
    QCOMPARE(started.count(), 0);
    QCOMPARE(m_dock->input()->toPlainText(), question); // the pre-edit is not text

    // Cancelled in the input method: the draft is as it was, and is guessed after its pause.
    compose({});
    QVERIFY(started.wait(3000));
    QVERIFY(m_stack->debounce()->isPrefetching());
    // More composed: the guess goes.
    compose(QStringLiteral("qing"));
    QVERIFY(!m_stack->debounce()->isPrefetching());
    // Committed, replacing the pre-edit: guessed again, and Enter takes that guess over.
    started.clear();
    commit(QStringLiteral("请简短回答。"));
    const QString sent = question + QStringLiteral("请简短回答。");
    QCOMPARE(m_dock->input()->toPlainText(), sent);
    QVERIFY(started.wait(3000));
    QCOMPARE(started.first().first().toString(), sent);
    QTest::keyClick(m_dock->input(), Qt::Key_Return);
    QVERIFY(m_dock->isAnswering());
    QVERIFY(m_dock->currentAnswer()->isPrefetched());
    QCOMPARE(m_dock->session()->messages().constFirst().content, sent);
}

QTEST_MAIN(tst_ChatInputMethod)
#include "tst_chatinputmethod.moc"
