// Anthropic extended thinking: how the per-profile budget is encoded, and that a warm-up, a
// prefetch and the real request carry the same bytes up to max_tokens (docs/providers.md,
// "Extended thinking").
#include "llm/providerprofile.h"
#include "llm/requestencoder.h"

#include <QJsonDocument>
#include <QJsonObject>
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

Llm::EncodeOptions thinking(int budget)
{
    Llm::EncodeOptions o = Llm::builtinProfile(u"anthropic").encodeOptions;
    o.thinkingBudgetTokens = budget;
    return o;
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
};

void tst_Thinking::encodedAsAnthropicDocuments()
{
    const auto body = Llm::encodeRequest(ApiFormat::AnthropicMessages, request(800), thinking(2048));
    QVERIFY2(body, body ? "" : qPrintable(body.error().message()));
    const QJsonObject o = parse(*body);
    QCOMPARE(o.value(u"thinking").toObject(),
             (QJsonObject{{QStringLiteral("type"), QStringLiteral("enabled")}, {QStringLiteral("budget_tokens"), 2048}}));
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
    QVERIFY2(body.error().message().contains(u"thinking"), qPrintable(body.error().message()));
}

void tst_Thinking::profileCannotContinueWhileThinking()
{
    Llm::ProviderProfile p = Llm::builtinProfile(u"anthropic");
    QVERIFY(p.canContinue());
    const Llm::ProviderTarget before = p.target();
    p.encodeOptions.thinkingBudgetTokens = 2048;
    QVERIFY(!p.canContinue());
    // A changed budget sends other bytes: a prompt compiled for one must not serve the other.
    QVERIFY(!(p.target() == before));
}

QTEST_GUILESS_MAIN(tst_Thinking)
#include "tst_thinking.moc"
