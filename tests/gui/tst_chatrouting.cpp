// Fast/slow routing in the chat dock, against the real local provider (its fast model is
// headstart-local-small): a simple question typed and sent with Enter is answered by the fast
// model (billed to it at the server), marked, priced at its prices and stored with its model;
// clicking "Ask headstart-local" answers it again on the main model and counts a re-ask; a
// message asking for work goes to the main model; routing off sends everything there; a typing
// pause prefetches on the routed model and Enter takes that prefetch over. With the fast opening
// on, a message for the main model has its first words written by the fast model, marked from
// the first word, priced per model and stored so (the mark comes back with the conversation);
// a chat about the document never has one.
#include "support/chatdocksuite.h"
#include "support/localproviderfixture.h"
#include "gui/chat/chatdock.h"
#include "prefetch/engine.h"
#include "prefetch/strategies/debouncestrategy.h"
#include "workspace/chat/chatsession.h"
#include "workspace/conversations/conversationstore.h"
#include "workspace/documents/document.h"

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
    void fastOpeningBeginsTheMainModelsAnswerAndIsMarked();
    void aChatAboutTheDocumentHasNoOpening();

private:
    void makeDock(const Prefetch::Settings &settings = {});
    // Types `text` into the input, presses Enter and waits for the answer's end.
    void askAndWait(const QString &text);
    QToolButton *visibleAskButton() const;
    QLabel *lastQuickLabel() const;
    // The last visible "First words · model" mark (the fast opening), or null.
    QLabel *lastOpeningLabel() const;
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
    // Billed as a hosted provider's two models are (the demo engine's own answers say "free").
    Llm::ProviderProfile profile = m_local.profile("rtt=0,prefill=1000000,decode=2000");
    profile.isLocalDemo = false;
    m_stack = std::make_unique<Prefetch::Stack>(&m_network, profile, settings);
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

QLabel *tst_ChatRouting::lastOpeningLabel() const
{
    QLabel *last = nullptr;
    for (QLabel *l : m_dock->findChildren<QLabel *>(QStringLiteral("chatOpening"))) {
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

void tst_ChatRouting::fastOpeningBeginsTheMainModelsAnswerAndIsMarked()
{
    Prefetch::Settings settings;
    settings.routing.fastOpening = true;
    settings.routing.openingTokens = 10;
    settings.debounce.enabled = false; // only what Enter sends
    makeDock(settings);
    const qint64 smallBefore = billedOutput(Small), mainBefore = billedOutput(Main);
    QSignalSpy ended(m_dock->session(), &Gui::ChatSession::exchangeEnded);
    QTest::keyClicks(m_dock->input(), QStringLiteral("Explain why the sky is blue."));
    QTest::keyClick(m_dock->input(), Qt::Key_Return);
    // Marked from its first word, while it streams.
    QTRY_VERIFY_WITH_TIMEOUT(lastOpeningLabel(), 10000);
    QVERIFY(ended.wait(10000));
    QCOMPARE(billedOutput(Small) - smallBefore, 10);
    QVERIFY(billedOutput(Main) > mainBefore);
    QLabel *mark = lastOpeningLabel();
    QVERIFY(mark);
    QVERIFY2(mark->text().contains(Small), qPrintable(mark->text()));
    QVERIFY2(mark->toolTip().contains(Main), qPrintable(mark->toolTip()));
    QVERIFY(!lastQuickLabel()); // not a quick answer: the main model's, begun by the fast one

    // Stored with whose words are whose, priced per model.
    const Gui::StoredMessage answer = m_dock->session()->messages().constLast();
    QCOMPARE(answer.usage.model, Main);
    QCOMPARE(answer.usage.openingModel, Small);
    QVERIFY(answer.usage.openingChars > 0 && answer.usage.openingChars < answer.content.size());
    QVERIFY(answer.usage.cost < m_stack->engine()->profile().prices.cost(answer.usage.tokens));
    const auto stored = m_store->messages(m_dock->session()->conversationId());
    QVERIFY(stored);
    QCOMPARE(stored->constLast().usage.openingModel, Small);
    QCOMPARE(stored->constLast().usage.openingChars, answer.usage.openingChars);

    // The mark comes back with the conversation: another one, then this one again.
    const qint64 id = m_dock->currentConversationId();
    m_dock->newConversation();
    QVERIFY(m_dock->currentConversationId() != id);
    QVERIFY(!lastOpeningLabel());
    QVERIFY(m_dock->openConversation(id));
    QTRY_VERIFY(lastOpeningLabel());
    QVERIFY(lastOpeningLabel()->text().contains(Small));
}

void tst_ChatRouting::aChatAboutTheDocumentHasNoOpening()
{
    Prefetch::Settings settings;
    settings.routing.fastOpening = true;
    settings.debounce.enabled = false;
    makeDock(settings);
    Gui::Document document;
    document.setText(QStringLiteral("A short document about the colour of the sky at noon and at dusk."));
    m_dock->setDocument(&document);
    m_dock->setMode(Gui::ConversationMode::Document);
    const qint64 smallBefore = billedOutput(Small);
    askAndWait(QStringLiteral("Explain why the sky is blue."));
    QCOMPARE(billedOutput(Small), smallBefore);
    QVERIFY(m_dock->session()->messages().constLast().usage.openingModel.isEmpty());
    QVERIFY(!lastOpeningLabel());
}

QTEST_MAIN(tst_ChatRouting)
#include "tst_chatrouting.moc"
