// What speculation adds to the bill, as the app estimates it while it runs (BillEstimate), checked
// against the bill the real local provider sends with nothing guessed: the user's answers priced
// without prefetch must be what they cost when nothing was sent early, a wrong guess whose prompt
// the user's answer then read from the cache must not be counted twice, and over the bound the
// early signals' guesses must be made to pay more (issue 40). Against the real local provider.
#include "support/localproviderfixture.h"

#include "llm/clock.h"
#include "prefetch/billestimate.h"
#include "prefetch/engine.h"
#include "prefetch/prompts/actionprompts.h"
#include "prefetch/recorder.h"
#include "prefetch/strategies/speculator.h"
#include "prefetch/stream/answerreader.h"

#include <QNetworkAccessManager>
#include <QSignalSpy>
#include <QTest>
#include <QUuid>

#include <memory>

using namespace Prefetch;
using namespace Qt::StringLiterals;
using namespace std::chrono_literals;

class tst_BillEstimate : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void init();

    void withNothingSentEarlyTheEstimateIsTheBill();
    void aWrongGuessTheAnswerReadFromTheCacheIsNotCountedTwice();
    void aGuessCutBeforeItsUsageCameIsPricedAsTheProviderBillsIt();
    void overTheBoundTheEarlySignalsGuessLess();

private:
    // A document of about `words` words no earlier test has sent (the server's cache is shared),
    // and an instruction about it.
    Llm::ChatRequest onDocument(const QString &document, const QString &instruction) const;
    static QString freshDocument(int words);
    // Asks `request` as the user does and waits for its end; false on timeout.
    bool ask(Engine &engine, const Llm::ChatRequest &request);

    TestSupport::LocalProviderFixture m_local;
    QNetworkAccessManager m_network;
};

void tst_BillEstimate::initTestCase()
{
    QVERIFY2(m_local.start(), qPrintable(m_local.errorString()));
}

void tst_BillEstimate::init()
{
    QVERIFY(m_local.waitForNoOpenStream(2000));
}

QString tst_BillEstimate::freshDocument(int words)
{
    QString text = QUuid::createUuid().toString(QUuid::WithoutBraces) + u'\n';
    static const QStringList vocabulary{u"river"_s,  u"harbour"_s, u"lantern"_s, u"orchard"_s,
                                        u"granite"_s, u"meadow"_s,  u"violin"_s,  u"compass"_s};
    for (int i = 0; i < words; ++i)
        text += vocabulary.at((i * 7 + i / 3) % vocabulary.size()) + (i % 12 == 11 ? u".\n"_s : u" "_s);
    return text;
}

Llm::ChatRequest tst_BillEstimate::onDocument(const QString &document, const QString &instruction) const
{
    Llm::ChatRequest r;
    r.model = m_local.profile().model;
    r.system = u"You help a writer with the document they are working on."_s;
    r.messages = {{Llm::Role::User, document}, {Llm::Role::User, instruction}};
    r.staticMessageCount = 1;
    r.maxTokens = 48;
    return r;
}

bool tst_BillEstimate::ask(Engine &engine, const Llm::ChatRequest &request)
{
    AnswerReader *answer = engine.requestFresh(Strategy::None, engine.render(request), Llm::monotonicNowNs(), this);
    QSignalSpy finished(answer, &AnswerReader::finished);
    const bool ended = finished.wait(10000);
    delete answer;
    return ended;
}

void tst_BillEstimate::withNothingSentEarlyTheEstimateIsTheBill()
{
    // Only the user's own requests: a second action on a document reads it from the provider's
    // cache, a conversation's second turn reads the first. Priced without prefetch, that is
    // exactly what was billed, so nothing is added.
    const std::unique_ptr<Engine> engine = m_local.makeEngine(&m_network);
    const BillEstimate &bill = engine->recorder().bill();
    const QString document = freshDocument(900);
    QVERIFY(ask(*engine, onDocument(document, u"Summarize it."_s)));
    QVERIFY(ask(*engine, onDocument(document, u"Continue it."_s)));

    Llm::ChatRequest chat;
    chat.model = m_local.profile().model;
    chat.system = u"You are a helpful assistant."_s;
    chat.messages = {{Llm::Role::User, freshDocument(700) + u"\nWhat is this about?"_s}};
    chat.maxTokens = 48;
    QVERIFY(ask(*engine, chat));
    chat.messages += {{Llm::Role::Assistant, u"It is about a river and a harbour."_s},
                      {Llm::Role::User, u"And the orchard?"_s}};
    QVERIFY(ask(*engine, chat));

    QCOMPARE(bill.answers(), 4);
    QVERIFY(bill.billed() > 0);
    // The provider read the document and the first turn from its cache: had the estimate not
    // known that the user's own requests explain those reads, it would price them uncached.
    QVERIFY2(std::abs(bill.extraShare()) < 0.02,
             qPrintable(u"billed %1, without %2"_s.arg(bill.billed()).arg(bill.without())));
    QVERIFY(!bill.isOver());
}

void tst_BillEstimate::aWrongGuessTheAnswerReadFromTheCacheIsNotCountedTwice()
{
    // A guess for Summarize the user never asked for, then their Continue: the guess wrote the
    // document to the provider's cache and the answer read it. Without the guess the answer
    // would have written it itself: what the guess added is its cost less that saving.
    const QString warmed = freshDocument(900);
    const std::unique_ptr<Engine> engine = m_local.makeEngine(&m_network);
    const BillEstimate &bill = engine->recorder().bill();
    QPointer<PrefetchSession> guess =
        engine->prefetch(Strategy::Hover, engine->render(onDocument(warmed, u"Summarize it."_s)), 30s,
                         SignalStrength::Strong);
    QVERIFY(guess);
    QTRY_VERIFY_WITH_TIMEOUT(guess && guess->state() == PrefetchSession::State::Complete, 10000);
    engine->cancel(guess);
    QTRY_VERIFY_WITH_TIMEOUT(engine->liveSessions().isEmpty(), 5000);
    const double guessBilled = bill.billed();
    QVERIFY(guessBilled > 0);
    QVERIFY(ask(*engine, onDocument(warmed, u"Continue it."_s)));
    // (What came before an answer is decayed as it ends.)
    const double guessDecayed = guessBilled * BillEstimate::kDecayPerAnswer;
    const double answerBilled = bill.billed() - guessDecayed;
    QVERIFY2(answerBilled < guessBilled, "the answer read the document the guess wrote");

    // The same answer on a document of the same length no guess went before: the real bill
    // without prefetch.
    const std::unique_ptr<Engine> alone = m_local.makeEngine(&m_network);
    QVERIFY(ask(*alone, onDocument(freshDocument(900), u"Continue it."_s)));
    const double billedAlone = alone->recorder().bill().billed();
    QCOMPARE(alone->recorder().bill().extraShare(), 0.0);

    // Within a few percent of what was really billed without the guess.
    QVERIFY2(std::abs(bill.without() / billedAlone - 1.0) < 0.05,
             qPrintable(u"estimated %1, billed alone %2"_s.arg(bill.without()).arg(billedAlone)));
    const double added = (guessDecayed + answerBilled) / billedAlone - 1.0;
    QVERIFY2(std::abs(bill.extraShare() - added) < 0.05,
             qPrintable(u"estimated %1, really %2"_s.arg(bill.extraShare()).arg(added)));
    // Counting the guess as waste against the answer as billed says far more.
    QVERIFY(guessBilled / answerBilled > added + 0.5);
}

void tst_BillEstimate::aGuessCutBeforeItsUsageCameIsPricedAsTheProviderBillsIt()
{
    // The provider reports what a request read from its cache at the end of the stream; a guess
    // dropped before that has only the app's estimate of its prompt. The document was sent
    // before (the user's answer), so the provider read it from the cache: priced uncached, the
    // guess would weigh many times what it cost.
    const std::unique_ptr<Engine> engine = m_local.makeEngine(&m_network, "decode=40");
    const BillEstimate &bill = engine->recorder().bill();
    const QString document = freshDocument(3000);
    QVERIFY(ask(*engine, onDocument(document, u"Summarize it."_s)));
    const LocalProvider::BilledTokens before = m_local.stats().billedByPurpose.value(u"hover"_s);
    const double billedBefore = bill.billed();

    Llm::ChatRequest longer = onDocument(document, u"Continue it."_s);
    longer.maxTokens = 400; // 10 s at 40 tokens a second: cut long before its end
    QPointer<PrefetchSession> guess = engine->prefetch(Strategy::Hover, engine->render(longer), 30s,
                                                       SignalStrength::Strong);
    QVERIFY(guess);
    QTRY_VERIFY_WITH_TIMEOUT(guess && guess->bufferedTokens() >= 8, 10000);
    engine->cancel(guess);
    QTRY_VERIFY_WITH_TIMEOUT(engine->liveSessions().isEmpty(), 5000);
    QVERIFY(m_local.waitForNoOpenStream(5000));
    const double estimated = bill.billed() - billedBefore;

    const LocalProvider::BilledTokens after = m_local.stats().billedByPurpose.value(u"hover"_s);
    const Llm::Prices prices = engine->profile().pricesFor(longer.model);
    const double read = double(after.cacheRead - before.cacheRead);
    QVERIFY2(read > 0, "the provider read the document from its cache");
    const double provider = (double(after.inputUncached - before.inputUncached) * prices.input
                             + read * prices.cacheRead + double(after.output - before.output) * prices.output)
                            / 1e6;
    // The text the provider generated after the last piece the app saw is the provider's alone
    // (more of it on a busy machine), so the two agree only roughly; priced uncached, the
    // prompt alone would be many times either.
    const double uncached = double(after.inputUncached - before.inputUncached + after.cacheRead - before.cacheRead)
                            * prices.input / 1e6;
    QVERIFY2(estimated > 0.5 * provider && estimated < 1.6 * provider,
             qPrintable(u"estimated %1, the provider billed %2"_s.arg(estimated).arg(provider)));
    QVERIFY2(estimated < 0.25 * uncached, qPrintable(u"estimated %1, uncached %2"_s.arg(estimated).arg(uncached)));
}

void tst_BillEstimate::overTheBoundTheEarlySignalsGuessLess()
{
    const std::unique_ptr<Stack> stack = m_local.makeStack(&m_network);
    Engine *engine = stack->engine();
    Speculator *speculator = stack->speculator();
    const auto compiled = documentTemplate().compile(engine->profile(), documentValues(freshDocument(600)));
    QVERIFY(compiled);
    const CompiledPrompt document = *compiled;
    speculator->setContext(
        [document](DocumentAction action) {
            return renderAction(document, action, u"A sentence the user selected."_s).value_or(RenderedRequest());
        },
        true);
    const auto rewrite = [speculator] {
        for (const Speculator::Candidate &c : speculator->selectionGuesses()) {
            if (c.action == DocumentAction::RewriteSelection)
                return c;
        }
        return Speculator::Candidate{DocumentAction::RewriteSelection, 0, 1, false};
    };
    const Speculator::Candidate within = rewrite();
    QVERIFY(!speculator->isCutting());
    QVERIFY(within.guessed); // a new user's likeliest, 1 in 3 by the prior
    QVERIFY(within.breakEven > 0);

    // One answer, then guesses nobody used worth four of it: the bill is over its bound (40 %).
    QVERIFY(ask(*engine, onDocument(freshDocument(300), u"Summarize it."_s)));
    BillEstimate &bill = engine->recorder().bill();
    Llm::Usage wasted;
    wasted.inputTokens = 0;
    wasted.outputTokens = 0;
    bill.billedAside(wasted, 4 * bill.billed());
    QVERIFY(bill.extraShare() > engine->settings().extraCostResume);
    QVERIFY(speculator->isCutting());
    // The same guess must now be likelier to pay: it may waste at most 40 % of what it is
    // right about, where it could waste as much (at the local engine's prices, where a cached
    // prompt costs a fiftieth of an uncached one, a new user's Rewrite still pays).
    const Speculator::Candidate cut = rewrite();
    QVERIFY2(cut.breakEven > within.breakEven * 1.5,
             qPrintable(u"%1 -> %2"_s.arg(within.breakEven).arg(cut.breakEven)));

    // A bound the user raises in Settings puts it back within.
    Settings looser = engine->settings();
    looser.extraCostResume = 10.0;
    looser.extraCostCeiling = 10.0;
    engine->setSettings(looser);
    QVERIFY(!speculator->isCutting());
    QCOMPARE(rewrite().breakEven, within.breakEven);
}

QTEST_GUILESS_MAIN(tst_BillEstimate)
#include "tst_billestimate.moc"
