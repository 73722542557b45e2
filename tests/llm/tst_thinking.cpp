// Thinking, as each family of models takes it (Llm::ModelCatalog, docs/providers.md "Models and
// what each accepts"): Anthropic's budget (Claude 4.5 and older) and adaptive thinking (4.6 and
// later), DeepSeek's thinking field, Qwen's enable_thinking and OpenAI's reasoning effort; a
// model that thinks by default is told not to unless a budget is set, and a warm-up, a
// prefetch and the real request carry the same bytes up to max_tokens.
#include "llm/modelcatalog.h"
#include "llm/providerprofile.h"
#include "llm/requestencoder.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QJsonValue>
#include <QTest>

using Llm::ApiFormat;
using Llm::ChatRequest;
using Llm::Role;

namespace {

ChatRequest request(int maxTokens, bool withQuestion = true)
{
    ChatRequest r;
    r.model = QStringLiteral("claude-sonnet-4-5");
    r.system = QStringLiteral("You are a careful editor.");
    r.messages = {{Role::User, QStringLiteral("# A document\n\nlong enough to be cached.")}};
    if (withQuestion)
        r.messages.append({Role::User, QStringLiteral("Summarise it.")});
    r.staticMessageCount = 1;
    r.maxTokens = maxTokens;
    r.temperature = 0.3;
    return r;
}

// The encode options of `provider`'s profile with `model`, from the model catalogue.
Llm::EncodeOptions optionsOf(QStringView provider, const QString &model, int budget = 0)
{
    Llm::ProviderProfile p = Llm::builtinProfile(provider);
    p.model = model;
    Llm::EncodeOptions o = Llm::ModelCatalog::applied(p).encodeOptions;
    o.thinkingBudgetTokens = budget;
    return o;
}

// Claude Haiku 4.5: extended thinking with a budget, and prefill.
Llm::EncodeOptions thinking(int budget)
{
    return optionsOf(u"anthropic", QStringLiteral("claude-haiku-4-5"), budget);
}

ChatRequest requestFor(const QString &model, int maxTokens)
{
    ChatRequest r = request(maxTokens);
    r.model = model;
    return r;
}

QByteArray upToMaxTokens(const QByteArray &body)
{
    const qsizetype at = body.indexOf("\"max_tokens\"");
    return at < 0 ? QByteArray() : body.left(at);
}

QJsonObject parse(const QByteArray &body)
{
    return QJsonDocument::fromJson(body).object();
}

} // namespace

class tst_Thinking : public QObject
{
    Q_OBJECT

private slots:
    void encodedAsAnthropicDocuments();
    void warmupPrefetchAndRealShareBytes();
    void offSendsNoThinking();
    void openAiIgnoresIt();
    void refusals();
    void profileCannotContinueWhileThinking();
    void adaptiveThinkingIsTurnedOffOrOn();
    void modelsThatAlwaysThink();
    void otherProvidersTurnThinkingOff_data();
    void otherProvidersTurnThinkingOff();
};

void tst_Thinking::encodedAsAnthropicDocuments()
{
    const auto body = Llm::encodeRequest(ApiFormat::AnthropicMessages, request(800), thinking(2048));
    QVERIFY2(body, body ? "" : qPrintable(body.error().message()));
    const QJsonObject o = parse(*body);
    QCOMPARE(o.value(u"thinking").toObject(), (QJsonObject{{QStringLiteral("type"), QStringLiteral("enabled")},
                                                           {QStringLiteral("budget_tokens"), 2048}}));
    // Anthropic counts thinking inside max_tokens and requires it above the budget.
    QCOMPARE(o.value(u"max_tokens").toInt(), 800 + 2048);
    // A temperature is refused while thinking.
    QVERIFY(!o.contains(u"temperature"));
}

void tst_Thinking::warmupPrefetchAndRealShareBytes()
{
    const auto prefix = Llm::encodePrefix(ApiFormat::AnthropicMessages, request(1), thinking(4096));
    QVERIFY(prefix);
    QVERIFY(prefix->bytes().toByteArray().contains(R"("thinking":{"type":"enabled","budget_tokens":4096})"));

    const auto warmup = Llm::encodeWithPrefix(*prefix, request(1, false));
    const auto speculative = Llm::encodeWithPrefix(*prefix, request(16));
    const auto real = Llm::encodeWithPrefix(*prefix, request(1024));
    QVERIFY(warmup && speculative && real);
    // Each starts with the prefix, thinking included, so the provider's cached prefix holds.
    for (const QByteArray &body : {*warmup, *speculative, *real})
        QVERIFY(body.startsWith(prefix->bytes()));
    QVERIFY(!upToMaxTokens(*real).isEmpty());
    QCOMPARE(upToMaxTokens(*speculative), upToMaxTokens(*real));
    QCOMPARE(parse(*speculative).value(u"max_tokens").toInt(), 16 + 4096);
    QCOMPARE(parse(*warmup).value(u"max_tokens").toInt(), 1 + 4096);
    // The same request encoded in one go gives the same bytes as prefix + tail.
    QCOMPARE(*Llm::encodeRequest(ApiFormat::AnthropicMessages, request(1024), thinking(4096)), *real);
}

void tst_Thinking::offSendsNoThinking()
{
    const auto body = Llm::encodeRequest(ApiFormat::AnthropicMessages, request(800), thinking(0));
    QVERIFY(body);
    const QJsonObject o = parse(*body);
    QVERIFY(!o.contains(u"thinking"));
    QCOMPARE(o.value(u"max_tokens").toInt(), 800);
    QCOMPARE(o.value(u"temperature").toDouble(), 0.3);
}

void tst_Thinking::openAiIgnoresIt()
{
    // A model the catalogue does not know (no thinking form): the budget is Anthropic's alone.
    Llm::EncodeOptions o;
    o.thinkingBudgetTokens = 2048;
    const auto body = Llm::encodeRequest(ApiFormat::OpenAiChat, request(800), o);
    QVERIFY(body);
    QVERIFY(!parse(*body).contains(u"thinking"));
    QCOMPARE(parse(*body).value(u"max_tokens").toInt(), 800);
}

void tst_Thinking::refusals()
{
    const auto small = Llm::encodeRequest(ApiFormat::AnthropicMessages, request(800), thinking(1000));
    QVERIFY(!small);
    QVERIFY2(small.error().message().contains(u"1024"), qPrintable(small.error().message()));

    ChatRequest continued = request(800);
    continued.continuation = QStringLiteral("The document");
    const auto body = Llm::encodeRequest(ApiFormat::AnthropicMessages, continued, thinking(2048));
    QVERIFY(!body);
    QVERIFY2(body.error().message().contains(u"thinks"), qPrintable(body.error().message()));
}

void tst_Thinking::profileCannotContinueWhileThinking()
{
    // The default Claude (Sonnet 5.5) cannot be continued at all; Haiku 4.5 can, unless it thinks.
    QVERIFY(!Llm::builtinProfile(u"anthropic").canContinue());
    Llm::ProviderProfile p = Llm::builtinProfile(u"anthropic");
    p.model = QStringLiteral("claude-haiku-4-5");
    p = Llm::ModelCatalog::applied(p);
    QVERIFY(p.canContinue());
    const Llm::ProviderTarget before = p.target();
    p.encodeOptions.thinkingBudgetTokens = 2048;
    QVERIFY(!p.canContinue());
    // A changed budget sends other bytes: a prompt compiled for one must not serve the other.
    QVERIFY(!(p.target() == before));
}

void tst_Thinking::adaptiveThinkingIsTurnedOffOrOn()
{
    // Claude 4.6 and later think adaptively; Claude 5 does so unless told not to, so "off" is
    // said, not left out. Sonnet 5.5 takes no temperature.
    const QString sonnet = QStringLiteral("claude-sonnet-5-5");
    const auto off = Llm::encodeRequest(ApiFormat::AnthropicMessages, requestFor(sonnet, 800),
                                        optionsOf(u"anthropic", sonnet));
    QVERIFY(off);
    QCOMPARE(parse(*off).value(u"thinking").toObject(),
             (QJsonObject{{QStringLiteral("type"), QStringLiteral("disabled")}}));
    QCOMPARE(parse(*off).value(u"max_tokens").toInt(), 800);
    QVERIFY(!parse(*off).contains(u"temperature"));
    const auto on = Llm::encodeRequest(ApiFormat::AnthropicMessages, requestFor(sonnet, 800),
                                       optionsOf(u"anthropic", sonnet, 2048));
    QVERIFY(on);
    QCOMPARE(parse(*on).value(u"thinking").toObject(),
             (QJsonObject{{QStringLiteral("type"), QStringLiteral("adaptive")}}));
    QCOMPARE(parse(*on).value(u"max_tokens").toInt(), 800 + 2048);
    // Claude Sonnet 4.6 still takes a temperature while it does not think.
    const QString sonnet46 = QStringLiteral("claude-sonnet-4-6");
    const auto older = Llm::encodeRequest(ApiFormat::AnthropicMessages, requestFor(sonnet46, 800),
                                          optionsOf(u"anthropic", sonnet46));
    QVERIFY(older);
    QCOMPARE(parse(*older).value(u"temperature").toDouble(), 0.3);
}

void tst_Thinking::modelsThatAlwaysThink()
{
    // Claude Opus 5.5 thinks whatever it is told: never "disabled", and the floor's allowance
    // keeps max_tokens the answer's length.
    const QString opus = QStringLiteral("claude-opus-5-5");
    const auto body = Llm::encodeRequest(ApiFormat::AnthropicMessages, requestFor(opus, 800),
                                         optionsOf(u"anthropic", opus));
    QVERIFY(body);
    QCOMPARE(parse(*body).value(u"thinking").toObject(),
             (QJsonObject{{QStringLiteral("type"), QStringLiteral("adaptive")}}));
    QCOMPARE(parse(*body).value(u"max_tokens").toInt(), 800 + 1024);
    Llm::ProviderProfile p = Llm::builtinProfile(u"anthropic");
    p.model = opus;
    QVERIFY(Llm::ModelCatalog::applied(p).thinksFirst());
    // GPT-6.2 Sol reasons always: no effort to say "none" with, and no temperature.
    const QString sol = QStringLiteral("gpt-6.2-sol");
    const auto gpt = Llm::encodeRequest(ApiFormat::OpenAiChat, requestFor(sol, 800), optionsOf(u"openai", sol));
    QVERIFY(gpt);
    QVERIFY(!parse(*gpt).contains(u"reasoning_effort"));
    QVERIFY(!parse(*gpt).contains(u"temperature"));
    QCOMPARE(parse(*gpt).value(u"max_completion_tokens").toInt(), 800 + 1024);
}

void tst_Thinking::otherProvidersTurnThinkingOff_data()
{
    QTest::addColumn<QString>("provider");
    QTest::addColumn<QString>("model");
    QTest::addColumn<QString>("field");
    QTest::addColumn<QJsonValue>("offValue");
    QTest::addColumn<QJsonValue>("onValue"); // Undefined: the field is left out to think
    QTest::addColumn<bool>("temperatureWhileThinking");
    QTest::addRow("deepseek-flash") << QStringLiteral("deepseek") << QStringLiteral("deepseek-flash")
                                    << QStringLiteral("thinking")
                                    << QJsonValue(QJsonObject{{QStringLiteral("type"), QStringLiteral("disabled")}})
                                    << QJsonValue(QJsonObject{{QStringLiteral("type"), QStringLiteral("enabled")}})
                                    << true;
    QTest::addRow("qwen-plus") << QStringLiteral("qwen") << QStringLiteral("qwen-plus")
                               << QStringLiteral("enable_thinking") << QJsonValue(false) << QJsonValue(true) << true;
    QTest::addRow("gpt-6.1-terra") << QStringLiteral("openai") << QStringLiteral("gpt-6.1-terra")
                                   << QStringLiteral("reasoning_effort") << QJsonValue(QStringLiteral("none"))
                                   << QJsonValue(QJsonValue::Undefined) << false;
}

void tst_Thinking::otherProvidersTurnThinkingOff()
{
    QFETCH(QString, provider);
    QFETCH(QString, model);
    QFETCH(QString, field);
    QFETCH(QJsonValue, offValue);
    QFETCH(QJsonValue, onValue);
    QFETCH(bool, temperatureWhileThinking);
    // Off by default: the speculative prefix and the answer it becomes must not think first.
    const auto prefix = Llm::encodePrefix(ApiFormat::OpenAiChat, requestFor(model, 800), optionsOf(provider, model));
    QVERIFY(prefix);
    const auto off = Llm::encodeWithPrefix(*prefix, requestFor(model, 800));
    QVERIFY(off);
    QCOMPARE(parse(*off).value(field), offValue);
    QCOMPARE(parse(*off).value(u"temperature").toDouble(), 0.3);
    // In the static part: a warm-up's bytes are the answer's.
    QVERIFY(prefix->bytes().toByteArray().contains(field.toUtf8()));
    Llm::ProviderProfile p = Llm::builtinProfile(provider);
    p.model = model;
    QVERIFY(!Llm::ModelCatalog::applied(p).thinksFirst());
    // A budget set: the model thinks, in its own form.
    const auto on = Llm::encodeRequest(ApiFormat::OpenAiChat, requestFor(model, 800), optionsOf(provider, model, 2048));
    QVERIFY(on);
    QCOMPARE(parse(*on).value(field), onValue);
    QCOMPARE(parse(*on).contains(u"temperature"), temperatureWhileThinking);
}

QTEST_GUILESS_MAIN(tst_Thinking)
#include "tst_thinking.moc"
