// What a model refuses that the model catalogue did not foresee (issue 37): a continuation
// (Claude 4.6+ refuses any prefill), a temperature (Opus 4.7+), a thinking budget (Opus 4.7+
// wants adaptive thinking) or max_tokens (OpenAI's reasoning models), each answered by the
// local provider's `refuse=` fault with the provider's own words. The answer the user asked for
// never fails because of it: it is asked for again at once without the feature, gives the text
// a request without it gives, and the engine stops sending the feature and reports it, for the
// app to keep (Gui::LearnedRefusals, tst_appsettings). A prompt refused as too long for the
// model is not sent early again at that length (issue 41: a 2 MB document was uploaded and
// refused at every switch to its tab).
#include "support/localproviderfixture.h"

#include "llm/clock.h"
#include "llm/refusal.h"
#include "prefetch/engine.h"
#include "prefetch/prefetchsession.h"
#include "prefetch/stream/answerreader.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QNetworkAccessManager>
#include <QSignalSpy>
#include <QTest>

using namespace Prefetch;
using namespace std::chrono_literals;
using Llm::RefusedFeature;

Q_DECLARE_METATYPE(Llm::ApiFormat)
Q_DECLARE_METATYPE(Llm::RefusedFeature)

class tst_Refusals : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void init();
    void providersWordsAreRead_data();
    void providersWordsAreRead();
    void answerIsAskedAgainWithoutTheFeature_data();
    void answerIsAskedAgainWithoutTheFeature();
    void refusedPrefillEndsEarlyGuesses();
    void aPromptTooLongIsNotGuessedAgain();

private:
    Llm::ChatRequest chat(const QString &prompt, int maxTokens = 120) const;

    TestSupport::LocalProviderFixture m_local;
    QNetworkAccessManager m_network;
};

void tst_Refusals::initTestCase()
{
    qRegisterMetaType<Llm::RefusedFeature>();
    QVERIFY2(m_local.start(), qPrintable(m_local.errorString()));
}

void tst_Refusals::init()
{
    QVERIFY(m_local.waitForNoOpenStream(2000));
}

Llm::ChatRequest tst_Refusals::chat(const QString &prompt, int maxTokens) const
{
    Llm::ChatRequest r;
    r.system = QStringLiteral("You answer briefly.");
    r.messages = {{Llm::Role::User, prompt}};
    r.maxTokens = maxTokens;
    return r;
}

void tst_Refusals::providersWordsAreRead_data()
{
    QTest::addColumn<QString>("message");
    QTest::addColumn<int>("feature"); // -1: none
    // As the providers word them (docs/providers.md, "Models and what each accepts").
    QTest::addRow("anthropic prefill")
        << "This model does not support assistant message prefill. The conversation must "
           "end with a user message."
        << int(RefusedFeature::Continuation);
    QTest::addRow("anthropic temperature")
        << "`temperature` is deprecated for this model." << int(RefusedFeature::Temperature);
    QTest::addRow("anthropic thinking")
        << "\"thinking.type.enabled\" is not supported for this model. Use "
           "\"thinking.type.adaptive\" and \"output_config.effort\" to control thinking "
           "behavior."
        << int(RefusedFeature::ThinkingBudget);
    QTest::addRow("openai max_tokens") << "Unsupported parameter: 'max_tokens' is not supported with this model. Use "
                                          "'max_completion_tokens' instead."
                                       << int(RefusedFeature::MaxTokensParameter);
    QTest::addRow("plain bad request") << "messages: text content blocks must be non-empty" << -1;
}

void tst_Refusals::providersWordsAreRead()
{
    QFETCH(QString, message);
    QFETCH(int, feature);
    const QByteArray body =
        QJsonDocument(QJsonObject{{QStringLiteral("type"), QStringLiteral("error")},
                                  {QStringLiteral("error"),
                                   QJsonObject{{QStringLiteral("type"), QStringLiteral("invalid_request_error")},
                                               {QStringLiteral("message"), message}}}})
            .toJson(QJsonDocument::Compact);
    const Llm::Error error = Llm::Error::fromHttpStatus(QStringLiteral("P"), 400, body);
    const std::optional<RefusedFeature> found = Llm::refusedFeature(error);
    QCOMPARE(found ? int(*found) : -1, feature);
    // A refusal of another status is not a feature's.
    QVERIFY(!Llm::refusedFeature(Llm::Error::fromHttpStatus(QStringLiteral("P"), 500, body)));
}

void tst_Refusals::answerIsAskedAgainWithoutTheFeature_data()
{
    QTest::addColumn<Llm::ApiFormat>("format");
    QTest::addColumn<QByteArray>("refuse");
    QTest::addColumn<Llm::RefusedFeature>("feature");
    QTest::addRow("temperature, anthropic")
        << Llm::ApiFormat::AnthropicMessages << QByteArray("temperature") << RefusedFeature::Temperature;
    QTest::addRow("temperature, openai") << Llm::ApiFormat::OpenAiChat << QByteArray("temperature")
                                         << RefusedFeature::Temperature;
    QTest::addRow("thinking budget") << Llm::ApiFormat::AnthropicMessages << QByteArray("thinking-budget")
                                     << RefusedFeature::ThinkingBudget;
    QTest::addRow("max_tokens") << Llm::ApiFormat::OpenAiChat << QByteArray("max-tokens")
                                << RefusedFeature::MaxTokensParameter;
}

void tst_Refusals::answerIsAskedAgainWithoutTheFeature()
{
    QFETCH(Llm::ApiFormat, format);
    QFETCH(QByteArray, refuse);
    QFETCH(Llm::RefusedFeature, feature);
    Llm::ProviderProfile p = m_local.profile({}, "refuse=" + refuse);
    p.format = format;
    if (feature == RefusedFeature::ThinkingBudget) {
        p.encodeOptions.thinkingForm = Llm::ThinkingForm::AnthropicBudget;
        p.encodeOptions.thinkingBudgetTokens = 2048;
    }
    p.encodeOptions.useMaxCompletionTokens = false;
    Engine engine(&m_network, p, Settings{});
    QSignalSpy learned(&engine, &Engine::featureRefused);
    Llm::ChatRequest r = chat(QStringLiteral("Is a refused temperature the end of the answer?"));
    r.temperature = 0.4;
    const RenderedRequest rendered = engine.render(r);
    const qint64 served = m_local.stats().requestsServed;
    AnswerReader *answer = engine.request(Strategy::None, rendered, Llm::monotonicNowNs(), this);
    const QString text = TestSupport::drain(answer);
    // Answered, not failed: the refused request, then the same one without the feature.
    QVERIFY2(!text.startsWith(QLatin1String("<")), qPrintable(text));
    QCOMPARE(m_local.stats().requestsServed, served + 2);
    QCOMPARE(learned.count(), 1);
    QCOMPARE(learned.first().at(0).value<Llm::RefusedFeature>(), feature);
    QCOMPARE(learned.first().at(1).toString(), p.model);
    // The engine does not send it again: the next answer is asked once.
    AnswerReader *again = engine.request(Strategy::None, engine.render(r), Llm::monotonicNowNs(), this);
    QVERIFY(!TestSupport::drain(again).startsWith(QLatin1String("<")));
    QCOMPARE(m_local.stats().requestsServed, served + 3);
    QCOMPARE(learned.count(), 1);
}

void tst_Refusals::refusedPrefillEndsEarlyGuesses()
{
    // Claude 4.6 and later: a hover's prefix cannot be continued. The click still gets the
    // whole answer, and no early guess is made for this model from then on.
    Llm::ProviderProfile p = m_local.profile("rtt=0,prefill=1000000,decode=4000", "refuse=prefill");
    p.format = Llm::ApiFormat::AnthropicMessages;
    p.encodeOptions.continuation = Llm::ContinuationStyle::AssistantPrefill;
    Settings settings;
    settings.bufferTokens = 12;
    Engine engine(&m_network, p, settings);
    QSignalSpy learned(&engine, &Engine::featureRefused);
    const RenderedRequest r = engine.render(chat(QStringLiteral("A long answer about prefills, please."), 200));
    QPointer<PrefetchSession> session = engine.prefetch(Strategy::Hover, r, 30s);
    QTRY_VERIFY_WITH_TIMEOUT(session && session->isPrefix(), 5000);
    AnswerReader *answer = engine.consume(session, r, Llm::monotonicNowNs(), this);
    const QString text = TestSupport::drain(answer);
    Llm::ProviderProfile plain = m_local.profile("rtt=0,prefill=1000000,decode=4000");
    plain.format = Llm::ApiFormat::AnthropicMessages;
    QCOMPARE(text, TestSupport::freshText(&m_network, plain, r.request));
    QCOMPARE(learned.count(), 1);
    QCOMPARE(learned.first().at(0).value<Llm::RefusedFeature>(), RefusedFeature::Continuation);
    QVERIFY(!engine.canContinue());
    QCOMPARE(engine.speculativeLimit(SignalStrength::Weak, r.request), 0);
}

void tst_Refusals::aPromptTooLongIsNotGuessedAgain()
{
    // A model with a 2,000-token context, and a document of about 5,000.
    Engine engine(&m_network, m_local.profile("rtt=0,context=2000"), Settings{});
    QSignalSpy tooLong(&engine, &Engine::promptTooLong);
    QString document;
    for (int i = 0; i < 400; ++i)
        document += QStringLiteral("Sentence %1 of a long document about caches and contexts. ").arg(i);
    const RenderedRequest longer = engine.render(chat(QStringLiteral("Summarize:\n") + document));
    QVERIFY(estimatePromptTokens(longer.request) > 2000);
    QVERIFY(!engine.refusedPromptTokens(longer.request.model));

    // The first warm-up is sent (nothing is known yet) and refused.
    qint64 served = m_local.stats().requestsServed;
    QPointer<PrefetchSession> first = engine.prefetch(Strategy::Warmup, longer, 30s);
    QVERIFY(first);
    QVERIFY(tooLong.wait(5000));
    QCOMPARE(m_local.stats().requestsServed, served + 1);
    QCOMPARE(tooLong.first().at(0).toString(), longer.request.model);
    QCOMPARE(*engine.refusedPromptTokens(longer.request.model), estimatePromptTokens(longer.request));

    // Switching back to its tab warms it again, a hover guesses on it: nothing is sent.
    QTRY_VERIFY_WITH_TIMEOUT(engine.liveSessions().isEmpty(), 5000);
    served = m_local.stats().requestsServed;
    QVERIFY(!engine.prefetch(Strategy::Warmup, longer, 30s));
    const RenderedRequest longest = engine.render(chat(QStringLiteral("Explain:\n") + document + document));
    QVERIFY(!engine.prefetch(Strategy::Hover, longest, 30s));
    QVERIFY(m_local.settle(&m_network, 200, 3000));
    QCOMPARE(m_local.stats().requestsServed, served);

    // A shorter prompt still goes early, and the user's own request for the long one is sent
    // and says why it fails.
    const RenderedRequest shorter = engine.render(chat(QStringLiteral("A short question about caches.")));
    QPointer<PrefetchSession> guess = engine.prefetch(Strategy::Hover, shorter, 30s);
    QVERIFY(guess);
    AnswerReader *own = engine.request(Strategy::None, longer, Llm::monotonicNowNs(), this);
    QSignalSpy failed(own, &AnswerReader::failed);
    QVERIFY(failed.wait(5000));
    QCOMPARE(failed.first().first().value<Llm::Error>().code(), Llm::Error::Code::ContextTooLong);
    QCOMPARE(tooLong.count(), 1); // nothing new learnt
    engine.stopAll();

    // Another profile (another endpoint, perhaps with a larger context) starts from nothing.
    engine.setProfile(m_local.profile("rtt=0"));
    QVERIFY(!engine.refusedPromptTokens(longer.request.model));
}

QTEST_GUILESS_MAIN(tst_Refusals)
#include "tst_refusals.moc"
