// The fast opening (Prefetch::RenderedRequest::opening), against the real local provider: the
// profile's fast model writes the first tokens of an answer and the request's own model continues
// them, in one answer that says which characters are whose and bills each model's part at its
// prices; asked for at once or guessed first and taken over. A fast model the provider does not
// serve leaves the whole answer to the main model; a provider that cannot continue an answer
// never gets an opening.
#include "support/localproviderfixture.h"

#include "prefetch/engine.h"
#include "prefetch/prefetchsession.h"
#include "prefetch/stream/answerfetch.h"
#include "prefetch/stream/answerreader.h"

#include "llm/clock.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QNetworkAccessManager>
#include <QSignalSpy>
#include <QTest>

using namespace Prefetch;
using namespace std::chrono_literals;
using TestSupport::drain;

namespace {

const QByteArray Fast = QByteArrayLiteral("rtt=0,prefill=1000000,decode=4000");

QJsonObject bodyOf(const LocalProvider::ReceivedRequest &request)
{
    return QJsonDocument::fromJson(request.body).object();
}

} // namespace

class tst_FastOpening : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void init();

    void theFastModelBeginsAndTheMainModelContinues();
    void aGuessTakenOverKeepsItsOpening();
    void anOpeningTheFastModelCannotWriteIsLeftToTheMainModel();
    void noOpeningWhereTheProviderCannotContinue();
    void anAnswerAskedForAgainWholeLosesItsOpening();

private:
    // `prompt` for the profile's main model, with an opening of `openingTokens` for its fast one.
    RenderedRequest request(const Engine &engine, const QString &prompt, int openingTokens) const;
    // The requests the provider received since `from` (an index into receivedRequests()).
    QList<LocalProvider::ReceivedRequest> receivedSince(qsizetype from) const;

    TestSupport::LocalProviderFixture m_local{u"instant",
                                              [](LocalProvider::ServerConfig &c) { c.keepRequests = true; }};
    QNetworkAccessManager m_network;
};

void tst_FastOpening::initTestCase()
{
    QVERIFY2(m_local.start(), qPrintable(m_local.errorString()));
}

void tst_FastOpening::init()
{
    QVERIFY(m_local.waitForNoOpenStream(2000));
}

RenderedRequest tst_FastOpening::request(const Engine &engine, const QString &prompt, int openingTokens) const
{
    Llm::ChatRequest r;
    r.system = QStringLiteral("You answer questions about openings, at length.");
    r.messages = {{Llm::Role::User, prompt}};
    r.maxTokens = 400;
    RenderedRequest rendered = engine.render(r);
    Llm::ChatRequest opening = r;
    opening.model = engine.profile().fastModel;
    opening.maxTokens = openingTokens;
    rendered.opening = std::make_shared<const RenderedRequest>(engine.render(opening));
    return rendered;
}

QList<LocalProvider::ReceivedRequest> tst_FastOpening::receivedSince(qsizetype from) const
{
    return m_local.server().receivedRequests().requests.mid(from);
}

void tst_FastOpening::theFastModelBeginsAndTheMainModelContinues()
{
    Engine engine(&m_network, m_local.profile(Fast));
    const Llm::ProviderProfile &profile = engine.profile();
    QVERIFY(profile.hasDistinctFastModel());
    const RenderedRequest r = request(engine, QStringLiteral("Explain, in many sentences, what an opening is."), 12);
    const qsizetype from = m_local.server().receivedRequests().requests.size();

    AnswerReader *answer = engine.request(Strategy::None, r, Llm::monotonicNowNs(), this);
    const QString text = drain(answer);
    QVERIFY2(!answer->error(), qPrintable(text));
    const AnswerFetch *fetch = answer->answer();
    QCOMPARE(fetch->parts(), 2);

    // Asked of the fast model for the opening's length, then of the main model with the opening
    // as the beginning of its answer.
    const QList<LocalProvider::ReceivedRequest> sent = receivedSince(from);
    QCOMPARE(sent.size(), 2);
    QCOMPARE(bodyOf(sent.at(0)).value(QLatin1String("model")).toString(), profile.fastModel);
    QCOMPARE(bodyOf(sent.at(0)).value(QLatin1String("max_tokens")).toInt(), 12);
    const QJsonObject continued = bodyOf(sent.at(1));
    QCOMPARE(continued.value(QLatin1String("model")).toString(), profile.model);
    const QJsonObject last = continued.value(QLatin1String("messages")).toArray().last().toObject();
    QCOMPARE(last.value(QLatin1String("role")).toString(), QStringLiteral("assistant"));

    // The answer begins with what the fast model alone writes for the opening, and says so.
    QCOMPARE(fetch->openingModel(), profile.fastModel);
    const QString opening = TestSupport::freshText(&m_network, profile, *r.opening);
    QCOMPARE(fetch->openingLength(), opening.size());
    QVERIFY2(text.startsWith(opening), qPrintable(text));
    QVERIFY2(text.size() > opening.size() + 20, qPrintable(text)); // the main model went on
    // The opening goes on as it came, less the white space it ended with (providers refuse that).
    QString carried = opening;
    while (!carried.isEmpty() && carried.back().isSpace())
        carried.chop(1);
    QCOMPARE(last.value(QLatin1String("content")).toString(), carried);

    // Billed per model: the opening's twelve tokens at the fast model's prices.
    const Llm::Usage usage = fetch->usage();
    QCOMPARE(fetch->openingUsage().outputTokens, 12);
    QVERIFY(usage.outputTokens > 12);
    const double cost = fetch->costOf(usage, profile);
    QVERIFY2(cost < profile.prices.cost(usage) && cost > profile.fastPrices.cost(usage),
             qPrintable(QStringLiteral("%1 against %2 and %3")
                            .arg(cost)
                            .arg(profile.prices.cost(usage))
                            .arg(profile.fastPrices.cost(usage))));
}

void tst_FastOpening::aGuessTakenOverKeepsItsOpening()
{
    Settings settings;
    settings.bufferTokens = 10; // less than the opening: the whole guess is the fast model's
    Engine engine(&m_network, m_local.profile(Fast), settings);
    const RenderedRequest r = request(engine, QStringLiteral("A guessed question with an opening."), 16);
    QPointer<PrefetchSession> session = engine.prefetch(Strategy::Debounce, r, 30s);
    QVERIFY(session);
    QTRY_VERIFY_WITH_TIMEOUT(session->isPrefix(), 5000);
    QCOMPARE(session->bufferedTokens(), 10);
    AnswerReader *answer = engine.consume(session, r, Llm::monotonicNowNs(), this);
    QVERIFY(answer->isPrefetched());
    const QString text = drain(answer);
    QVERIFY2(!answer->error(), qPrintable(text));
    // Its ten tokens are the beginning of the fast model's opening; the main model continued.
    const QString opening = TestSupport::freshText(&m_network, engine.profile(), *r.opening);
    const AnswerFetch *fetch = answer->answer();
    QCOMPARE(fetch->openingModel(), engine.profile().fastModel);
    QCOMPARE(fetch->openingUsage().outputTokens, 10);
    QVERIFY(fetch->openingLength() > 0 && fetch->openingLength() < opening.size());
    QVERIFY2(opening.startsWith(text.left(fetch->openingLength())), qPrintable(text));
    QVERIFY(text.size() > opening.size());
    QCOMPARE(fetch->parts(), 2);
    QCOMPARE(answer->finishReason(), Llm::FinishReason::Stop);
}

void tst_FastOpening::anOpeningTheFastModelCannotWriteIsLeftToTheMainModel()
{
    Llm::ProviderProfile profile = m_local.profile(Fast);
    profile.fastModel = QStringLiteral("no-such-small-model"); // the provider answers 404
    Engine engine(&m_network, profile);
    const RenderedRequest r = request(engine, QStringLiteral("A question for a fast model that is not there."), 12);
    const qsizetype from = m_local.server().receivedRequests().requests.size();
    AnswerReader *answer = engine.request(Strategy::None, r, Llm::monotonicNowNs(), this);
    const QString text = drain(answer);
    QVERIFY2(!answer->error(), qPrintable(text));
    // The whole answer, the main model's alone, with nothing shown twice.
    Llm::ProviderProfile plain = profile;
    plain.fastModel.clear();
    RenderedRequest whole = r;
    whole.opening.reset();
    QCOMPARE(text, TestSupport::freshText(&m_network, plain, whole));
    QCOMPARE(answer->answer()->openingLength(), 0);
    QVERIFY(answer->answer()->openingModel().isEmpty());
    const QList<LocalProvider::ReceivedRequest> sent = receivedSince(from);
    QVERIFY(sent.size() >= 2);
    QCOMPARE(bodyOf(sent.at(0)).value(QLatin1String("model")).toString(), profile.fastModel);
    QCOMPARE(bodyOf(sent.at(1)).value(QLatin1String("model")).toString(), profile.model);
}

void tst_FastOpening::noOpeningWhereTheProviderCannotContinue()
{
    Llm::ProviderProfile profile = m_local.profile(Fast);
    profile.encodeOptions.continuation = Llm::ContinuationStyle::None; // as Claude 4.6 and later
    QVERIFY(!profile.canContinue());
    Engine engine(&m_network, profile);
    const RenderedRequest r = request(engine, QStringLiteral("A question where nothing can be continued."), 12);
    const qsizetype from = m_local.server().receivedRequests().requests.size();
    AnswerReader *answer = engine.request(Strategy::None, r, Llm::monotonicNowNs(), this);
    const QString text = drain(answer);
    QVERIFY2(!answer->error(), qPrintable(text));
    QCOMPARE(answer->answer()->parts(), 1);
    QCOMPARE(answer->answer()->openingLength(), 0);
    const QList<LocalProvider::ReceivedRequest> sent = receivedSince(from);
    QCOMPARE(sent.size(), 1);
    QCOMPARE(bodyOf(sent.at(0)).value(QLatin1String("model")).toString(), profile.model);
}

void tst_FastOpening::anAnswerAskedForAgainWholeLosesItsOpening()
{
    // The continuation goes where nothing answers: the main model cannot carry the opening on,
    // and the answer is asked of it again whole.
    Llm::ProviderProfile profile = m_local.profile(Fast);
    QUrl nowhere = m_local.server().apiUrl();
    nowhere.setPath(QStringLiteral("/no-such-beta/"));
    profile.continuationBaseUrl = nowhere;
    Engine engine(&m_network, profile);
    const RenderedRequest r = request(engine, QStringLiteral("An opening nobody can continue."), 12);
    AnswerReader *answer = engine.request(Strategy::None, r, Llm::monotonicNowNs(), this);
    QSignalSpy restarted(answer, &AnswerReader::restarted);
    const QString text = drain(answer);
    QVERIFY2(!answer->error(), qPrintable(text));
    QCOMPARE(restarted.count(), 1);
    RenderedRequest whole = r;
    whole.opening.reset();
    QCOMPARE(text, TestSupport::freshText(&m_network, m_local.profile(Fast), whole));
    // Nothing of the fast model's is left in the text, so nothing is marked as its; what it
    // wrote is still billed.
    const AnswerFetch *fetch = answer->answer();
    QCOMPARE(fetch->openingLength(), 0);
    QVERIFY(fetch->openingModel().isEmpty());
    QCOMPARE(fetch->openingUsage().outputTokens, 12);
}

QTEST_MAIN(tst_FastOpening)
#include "tst_fastopening.moc"
