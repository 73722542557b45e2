// The instant acknowledgement in the chat dock, against the real local provider: its reasoning
// model (headstart-local-reasoner) thinks before it answers, and its fast model
// (headstart-local-small) writes the line. With the setting on, a message typed and sent with
// Enter shows the fast model's line above the answer, growing as it streams, while the reasoning
// model thinks; the line goes when the answer's text begins and is never stored; off (the
// default), or with a main model that answers at once, nothing is asked of the fast model; Stop
// before the line cancels it at the server.
#include "support/chatdocksuite.h"
#include "support/localproviderfixture.h"
#include "gui/chat/chatdock.h"
#include "prefetch/engine.h"
#include "prefetch/strategies/debouncestrategy.h"
#include "prefetch/stream/answerreader.h"
#include "workspace/chat/chatsession.h"
#include "workspace/conversations/conversationstore.h"

#include <QLabel>
#include <QMainWindow>
#include <QNetworkAccessManager>
#include <QPushButton>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

#include <memory>

using Gui::ChatDock;
using Gui::ConversationStore;

namespace {

const QString Reasoner = QStringLiteral("headstart-local-reasoner");
const QString Small = QStringLiteral("headstart-local-small");
const QString Purpose = QStringLiteral("acknowledgement");
// The reasoning model thinks 400 tokens at 200 a second: 2 s before its answer's first word,
// against a line of ~20 tokens the fast model decodes at 340 a second.
const QByteArray Latency = "decode=200,think=400";
// A request for work: routing keeps it on the main model.
const QString Question = QStringLiteral(
    "Write a migration plan for our billing service, with the risks and a timeline.");

} // namespace

class tst_ChatAcknowledgement : public QObject, private TestSupport::ChatDockSuite
{
    Q_OBJECT

private slots:
    void initTestCase();
    void init();
    void cleanup();

    void lineShowsWhileTheModelThinksAndGoesWhenTheAnswerBegins();
    void offByDefaultNothingIsAsked();
    void aModelThatAnswersAtOnceGetsNone();
    void stopBeforeTheLineCancelsItAtTheServer();

private:
    void makeDock(bool acknowledge, const QString &model = Reasoner);
    void typeAndSend(const QString &text);
    QLabel *visibleAcknowledgement() const;
    qint64 billedForAcknowledgements() const
    {
        const LocalProvider::BilledTokens b = m_local.stats().billedByPurpose.value(Purpose);
        return b.inputUncached + b.cacheRead + b.cacheWrite + b.output;
    }
};

void tst_ChatAcknowledgement::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);
    QVERIFY(startProvider());
}

void tst_ChatAcknowledgement::init()
{
    QVERIFY(openStore());
}

void tst_ChatAcknowledgement::cleanup()
{
    QVERIFY(closeDock(5000));
}

void tst_ChatAcknowledgement::makeDock(bool acknowledge, const QString &model)
{
    Prefetch::Settings settings;
    QVERIFY(!settings.routing.acknowledge); // off by default
    settings.routing.acknowledge = acknowledge;
    m_stack = m_local.makeStack(&m_network, Latency, settings);
    Llm::ProviderProfile profile = m_stack->engine()->profile();
    profile.model = model;
    m_stack->engine()->setProfile(profile);
    QCOMPARE(m_stack->engine()->profile().fastModel, Small);
    QVERIFY(showDock());
}

void tst_ChatAcknowledgement::typeAndSend(const QString &text)
{
    QTest::keyClicks(m_dock->input(), text);
    QTest::keyClick(m_dock->input(), Qt::Key_Return);
}

QLabel *tst_ChatAcknowledgement::visibleAcknowledgement() const
{
    for (QLabel *label : m_dock->findChildren<QLabel *>(QStringLiteral("chatAcknowledgement"))) {
        if (label->isVisible())
            return label;
    }
    return nullptr;
}

void tst_ChatAcknowledgement::lineShowsWhileTheModelThinksAndGoesWhenTheAnswerBegins()
{
    makeDock(true);
    QSignalSpy acknowledged(m_dock->session(), &Gui::ChatSession::acknowledged);
    QSignalSpy ended(m_dock->session(), &Gui::ChatSession::exchangeEnded);
    typeAndSend(Question);
    QVERIFY(acknowledged.wait(10000));
    QCOMPARE(ended.count(), 0);

    // Shown above the answer as it streams, said to be the fast model's while the reasoning
    // model thinks, while no word of the answer has come.
    const auto lineSoFar = [&] { return acknowledged.last().first().toString(); };
    QTRY_VERIFY_WITH_TIMEOUT(lineSoFar().endsWith(u'.'), 5000); // the whole line
    QCOMPARE(ended.count(), 0);
    const Prefetch::AnswerReader *answer = m_dock->session()->currentAnswer();
    QVERIFY(answer);
    QVERIFY2(answer->text().isEmpty(), qPrintable(answer->text()));
    QLabel *line = visibleAcknowledgement();
    QVERIFY(line);
    QVERIFY2(line->text().startsWith(Small + QStringLiteral(", while ") + Reasoner + QStringLiteral(" thinks: ")),
             qPrintable(line->text()));
    const QString said = lineSoFar();
    QVERIFY2(said.contains(QStringLiteral("migration plan for our billing service")), qPrintable(said));
    QVERIFY(line->text().endsWith(said));
    // It grew word by word: its first words came on their own, before the rest.
    QVERIFY(acknowledged.count() > 1);
    QVERIFY(said.startsWith(acknowledged.first().first().toString()));
    QVERIFY(billedForAcknowledgements() > 0);

    // The answer's text replaces it; nothing of it is kept with the answer.
    QVERIFY(ended.wait(15000));
    QVERIFY(!visibleAcknowledgement());
    const Gui::StoredMessage stored = m_dock->session()->messages().constLast();
    QVERIFY(!stored.content.isEmpty());
    QVERIFY(!stored.reasoning.isEmpty()); // the reasoning model's thinking, shown and kept as such
    QVERIFY(!stored.content.contains(said));
    QCOMPARE(stored.usage.model, Reasoner);
    const auto fromStore = m_store->messages(m_dock->session()->conversationId());
    QVERIFY(fromStore);
    QVERIFY(!fromStore->constLast().content.contains(said));

    const Prefetch::AcknowledgementStats stats = m_stack->engine()->metrics().acknowledgement();
    QCOMPARE(stats.requests, 1);
    QCOMPARE(stats.shown, 1);
    QCOMPARE(stats.leads, 1);
    QCOMPARE(stats.late, 0);
    QVERIFY(stats.outputTokens > 0);
    QVERIFY(stats.leadMsTotal > 0);
}

void tst_ChatAcknowledgement::offByDefaultNothingIsAsked()
{
    makeDock(false);
    const qint64 before = billedForAcknowledgements();
    QSignalSpy acknowledged(m_dock->session(), &Gui::ChatSession::acknowledged);
    QSignalSpy ended(m_dock->session(), &Gui::ChatSession::exchangeEnded);
    typeAndSend(Question);
    QVERIFY(ended.wait(15000));
    QVERIFY(m_local.settle(&m_network, 0, 5000));
    QCOMPARE(billedForAcknowledgements(), before);
    QCOMPARE(acknowledged.count(), 0);
    QCOMPARE(m_stack->engine()->metrics().acknowledgement().requests, 0);
    QCOMPARE(m_dock->session()->messages().constLast().usage.model, Reasoner);
}

void tst_ChatAcknowledgement::aModelThatAnswersAtOnceGetsNone()
{
    makeDock(true, QStringLiteral("headstart-local"));
    const qint64 before = billedForAcknowledgements();
    QSignalSpy ended(m_dock->session(), &Gui::ChatSession::exchangeEnded);
    typeAndSend(Question);
    QVERIFY(ended.wait(15000));
    QVERIFY(m_local.settle(&m_network, 0, 5000));
    QCOMPARE(billedForAcknowledgements(), before);
    QCOMPARE(m_stack->engine()->metrics().acknowledgement().requests, 0);
}

void tst_ChatAcknowledgement::stopBeforeTheLineCancelsItAtTheServer()
{
    makeDock(true);
    QSignalSpy ended(m_dock->session(), &Gui::ChatSession::exchangeEnded);
    typeAndSend(Question);
    QCOMPARE(m_stack->engine()->metrics().acknowledgement().requests, 0); // not ended yet: counted when it ends
    QTest::mouseClick(m_dock->stopButton(), Qt::LeftButton);
    QVERIFY(ended.count() == 1 || ended.wait(5000));
    QVERIFY(ended.first().at(2).toBool()); // cancelled
    QVERIFY(!visibleAcknowledgement());
    // Both streams closed at the server; the line counted as cancelled, never shown.
    QVERIFY(m_local.waitForNoOpenStream(5000));
    const Prefetch::AcknowledgementStats stats = m_stack->engine()->metrics().acknowledgement();
    QCOMPARE(stats.requests, 1);
    QCOMPARE(stats.cancelled, 1);
    QCOMPARE(stats.shown, 0);
}

QTEST_MAIN(tst_ChatAcknowledgement)
#include "tst_chatacknowledgement.moc"
