// Fast/slow routing in the chat dock, against the real local provider (its fast model is
// headstart-local-small): a simple question typed and sent with Enter is answered by the fast
// model (billed to it at the server), marked, priced at its prices and stored with its model;
// clicking "Ask headstart-local" answers it again on the main model and counts a re-ask; a
// message asking for work goes to the main model; routing off sends everything there; a typing
// pause prefetches on the routed model and Enter takes that prefetch over.
#include "support/chatdocksuite.h"
#include "support/localproviderfixture.h"
#include "gui/chat/chatdock.h"
#include "prefetch/engine.h"
#include "prefetch/strategies/debouncestrategy.h"
#include "workspace/chat/chatsession.h"
#include "workspace/conversations/conversationstore.h"

#include <QLabel>
#include <QMainWindow>
#include <QNetworkAccessManager>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QToolButton>

#include <memory>

using Gui::ChatDock;
using Gui::ConversationStore;

namespace {

const QString Small = QStringLiteral("headstart-local-small");
const QString Main = QStringLiteral("headstart-local");

} // namespace

class tst_ChatRouting : public QObject, private TestSupport::ChatDockSuite
{
    Q_OBJECT

private slots:
    void initTestCase();
    void init();
    void cleanup();

    void simpleQuestionIsAnsweredByTheFastModelAndMarked();
    void askMainModelAnswersAgainOnTheMainModel();
    void workGoesToTheMainModel();
    void routingOffSendsEverythingToTheMainModel();
    void pausePrefetchesOnTheRoutedModelAndEnterTakesItOver();

private:
    void makeDock(const Prefetch::Settings &settings = {});
    // Types `text` into the input, presses Enter and waits for the answer's end.
    void askAndWait(const QString &text);
    QToolButton *visibleAskButton() const;
    QLabel *lastQuickLabel() const;
    qint64 billedOutput(const QString &model) const { return m_local.stats().billedByModel.value(model).output; }
};

void tst_ChatRouting::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);
    QVERIFY(startProvider());
}

void tst_ChatRouting::init()
{
    QVERIFY(openStore());
}

void tst_ChatRouting::cleanup()
{
    QVERIFY(closeDock());
}

void tst_ChatRouting::makeDock(const Prefetch::Settings &settings)
{
    m_stack = m_local.makeStack(&m_network, "rtt=0,prefill=1000000,decode=2000", settings);
    QVERIFY(m_stack->engine()->profile().hasDistinctFastModel());
    QCOMPARE(m_stack->engine()->profile().fastModel, Small);
    QVERIFY(showDock());
}

void tst_ChatRouting::askAndWait(const QString &text)
{
    QSignalSpy ended(m_dock->session(), &Gui::ChatSession::exchangeEnded);
    QTest::keyClicks(m_dock->input(), text);
    QTest::keyClick(m_dock->input(), Qt::Key_Return);
    QVERIFY(ended.wait(10000));
}

QToolButton *tst_ChatRouting::visibleAskButton() const
{
    for (QToolButton *b : m_dock->findChildren<QToolButton *>(QStringLiteral("chatAskMainModel"))) {
        if (b->isVisible())
            return b;
    }
    return nullptr;
}

QLabel *tst_ChatRouting::lastQuickLabel() const
{
    const auto labels = m_dock->findChildren<QLabel *>(QStringLiteral("chatQuickAnswer"));
    QLabel *last = nullptr;
    for (QLabel *l : labels) {
        if (l->isVisible())
            last = l;
    }
    return last;
}

void tst_ChatRouting::simpleQuestionIsAnsweredByTheFastModelAndMarked()
{
    makeDock();
    const qint64 smallBefore = billedOutput(Small), mainBefore = billedOutput(Main);
    askAndWait(QStringLiteral("What is the capital of France?"));
    QVERIFY(billedOutput(Small) > smallBefore);
    QCOMPARE(billedOutput(Main), mainBefore);

    QLabel *quick = lastQuickLabel();
    QVERIFY(quick);
    QVERIFY2(quick->text().contains(Small), qPrintable(quick->text()));
    QToolButton *ask = visibleAskButton();
    QVERIFY(ask);
    QVERIFY2(ask->text().contains(Main), qPrintable(ask->text()));

    // Priced and stored as the fast model's answer.
    const Gui::StoredMessage answer = m_dock->session()->messages().constLast();
    QCOMPARE(answer.usage.model, Small);
    QVERIFY(answer.usage.tokens.outputTokens > 0);
    QCOMPARE(answer.usage.cost, m_stack->engine()->profile().fastPrices.cost(answer.usage.tokens));
    QVERIFY(answer.usage.cost != m_stack->engine()->profile().prices.cost(answer.usage.tokens));
    const auto stored = m_store->messages(m_dock->session()->conversationId());
    QVERIFY(stored);
    QCOMPARE(stored->constLast().usage.model, Small);
    QCOMPARE(m_stack->engine()->metrics().routing().fastAnswers, 1);
}

void tst_ChatRouting::askMainModelAnswersAgainOnTheMainModel()
{
    makeDock();
    askAndWait(QStringLiteral("Who wrote Hamlet?"));
    QToolButton *ask = visibleAskButton();
    QVERIFY(ask);
    const qint64 mainBefore = billedOutput(Main);
    QSignalSpy ended(m_dock->session(), &Gui::ChatSession::exchangeEnded);
    QTest::mouseClick(ask, Qt::LeftButton);
    QVERIFY(ended.wait(10000));
    QVERIFY(billedOutput(Main) > mainBefore);
    const QList<Gui::StoredMessage> &messages = m_dock->session()->messages();
    QCOMPARE(messages.size(), 2); // the answer was replaced, not added
    QCOMPARE(messages.constLast().usage.model, Main);
    QVERIFY(!visibleAskButton());
    QVERIFY(!lastQuickLabel());
    QCOMPARE(m_stack->engine()->metrics().routing().reasked, 1);
    QCOMPARE(m_stack->engine()->metrics().routing().mainAnswers, 1);
}

void tst_ChatRouting::workGoesToTheMainModel()
{
    makeDock();
    const qint64 smallBefore = billedOutput(Small);
    askAndWait(QStringLiteral("Explain why the sky is blue."));
    QCOMPARE(billedOutput(Small), smallBefore);
    QCOMPARE(m_dock->session()->messages().constLast().usage.model, Main);
    QVERIFY(!lastQuickLabel());
    QVERIFY(!visibleAskButton());
}

void tst_ChatRouting::routingOffSendsEverythingToTheMainModel()
{
    Prefetch::Settings settings;
    settings.routing.enabled = false;
    makeDock(settings);
    const qint64 smallBefore = billedOutput(Small);
    askAndWait(QStringLiteral("What is the capital of France?"));
    QCOMPARE(billedOutput(Small), smallBefore);
    QCOMPARE(m_dock->session()->messages().constLast().usage.model, Main);
    QVERIFY(!lastQuickLabel());
}

void tst_ChatRouting::pausePrefetchesOnTheRoutedModelAndEnterTakesItOver()
{
    makeDock();
    const qint64 mainBefore = billedOutput(Main);
    QSignalSpy started(m_stack->debounce(), &Prefetch::DebounceStrategy::prefetchStarted);
    QTest::keyClicks(m_dock->input(), QStringLiteral("How many legs does a spider have?"));
    QVERIFY(started.wait(5000));
    QSignalSpy ended(m_dock->session(), &Gui::ChatSession::exchangeEnded);
    QTest::keyClick(m_dock->input(), Qt::Key_Return);
    QVERIFY(ended.wait(10000));
    // Taken over (what follows the prefetch's cap may come as its continuation): nothing of it
    // was asked of the main model.
    QCOMPARE(billedOutput(Main), mainBefore);
    QCOMPARE(m_dock->session()->messages().constLast().usage.model, Small);
    QVERIFY(m_local.stats().billedByModel.value(Small).output > 0);
    QCOMPARE(m_stack->engine()->metrics().stats(Prefetch::Strategy::Debounce).hits
                 + m_stack->engine()->metrics().stats(Prefetch::Strategy::Debounce).partialHits,
             1);
}

QTEST_MAIN(tst_ChatRouting)
#include "tst_chatrouting.moc"
