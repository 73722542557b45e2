// Built-in provider profiles: every provider the product promises, with sane defaults and the
// endpoint its wire format needs.
#include "llm/modelcatalog.h"
#include "llm/providerprofile.h"

#include <QDate>
#include <QTest>

using namespace Llm;

class tst_ProviderProfile : public QObject
{
    Q_OBJECT

private slots:
    void customEndpointMayTakeNoKey();
    void builtinsHaveDefaults_data();
    void builtinsHaveDefaults();
    void endpointJoinsBaseUrl_data();
    void endpointJoinsBaseUrl();
    void unknownIdGivesEmptyProfile();
    void hostedDefaultsAreServedToday_data();
    void hostedDefaultsAreServedToday();
    void retiredModelsAreKnown();
    void familiesFollowTheProviderNotTheName();
};

void tst_ProviderProfile::builtinsHaveDefaults_data()
{
    QTest::addColumn<QString>("id");
    QTest::addColumn<QString>("host");
    QTest::addColumn<bool>("cloud");
    QTest::addColumn<bool>("anthropic");
    QTest::addRow("deepseek") << "deepseek"
                              << "api.deepseek.com" << true << false;
    QTest::addRow("qwen") << "qwen"
                          << "dashscope.aliyuncs.com" << true << false;
    QTest::addRow("openai") << "openai"
                            << "api.openai.com" << true << false;
    QTest::addRow("anthropic") << "anthropic"
                               << "api.anthropic.com" << true << true;
    QTest::addRow("ollama") << "ollama"
                            << "localhost" << false << false;
    QTest::addRow("llamacpp") << "llamacpp"
                              << "localhost" << false << false;
}

void tst_ProviderProfile::builtinsHaveDefaults()
{
    QFETCH(QString, id);
    QFETCH(QString, host);
    QFETCH(bool, cloud);
    QFETCH(bool, anthropic);
    const ProviderProfile p = builtinProfile(id);
    QCOMPARE(p.id, id);
    QVERIFY(!p.displayName.isEmpty());
    QVERIFY(!p.model.isEmpty());
    QCOMPARE(p.baseUrl.host(), host);
    QCOMPARE(p.isCloud, cloud);
    QCOMPARE(p.needsApiKey(), cloud); // the hosted ones; a custom endpoint may take none
    QCOMPARE(p.apiKeyEnvVar.isEmpty(), !cloud);
    QCOMPARE(p.format == ApiFormat::AnthropicMessages, anthropic);
    QVERIFY(p.concurrencyLimit >= 1);
    QVERIFY(p.apiKey.isEmpty()); // keys never come built in
    QVERIFY(!p.isLocalDemo);
}

void tst_ProviderProfile::endpointJoinsBaseUrl_data()
{
    QTest::addColumn<QString>("id");
    QTest::addColumn<QString>("base");
    QTest::addColumn<QString>("endpoint");
    QTest::addRow("openai") << "openai"
                            << "https://api.openai.com/v1"
                            << "https://api.openai.com/v1/chat/completions";
    QTest::addRow("trailing slash") << "custom"
                                    << "http://127.0.0.1:8000/v1/"
                                    << "http://127.0.0.1:8000/v1/chat/completions";
    QTest::addRow("anthropic") << "anthropic"
                               << "https://api.anthropic.com/v1"
                               << "https://api.anthropic.com/v1/messages";
    QTest::addRow("dashscope") << "qwen"
                               << "https://dashscope.aliyuncs.com/compatible-mode/v1"
                               << "https://dashscope.aliyuncs.com/compatible-mode/v1/chat/completions";
}

void tst_ProviderProfile::endpointJoinsBaseUrl()
{
    QFETCH(QString, id);
    QFETCH(QString, base);
    QFETCH(QString, endpoint);
    ProviderProfile p = builtinProfile(id);
    p.baseUrl = QUrl(base);
    QCOMPARE(p.endpoint().toString(), endpoint);
}

void tst_ProviderProfile::unknownIdGivesEmptyProfile()
{
    QVERIFY(builtinProfile(u"nonesuch").id.isEmpty());
    const ProviderProfile local = builtinProfile(u"local");
    QVERIFY(local.isLocalDemo);
    QVERIFY(!local.isCloud);
    QCOMPARE(local.displayName, QStringLiteral("Local demo engine (offline, not a language model)"));
    QCOMPARE(builtinProfiles().constFirst().id, QStringLiteral("local"));
    QCOMPARE(builtinProfiles().size(), 8);
}

void tst_ProviderProfile::customEndpointMayTakeNoKey()
{
    // A vLLM or Ollama server on another machine may take requests without a key: the text
    // still leaves the machine (consent), but nothing refuses to send it keyless.
    const ProviderProfile custom = builtinProfile(u"custom");
    QVERIFY(custom.isCloud);
    QVERIFY(!custom.needsApiKey());
}

void tst_ProviderProfile::hostedDefaultsAreServedToday_data()
{
    QTest::addColumn<QString>("id");
    QTest::addColumn<bool>("continues");
    QTest::addRow("deepseek") << "deepseek" << true;    // prefix completion, thinking off
    QTest::addRow("qwen") << "qwen" << true;            // partial mode, thinking off
    QTest::addRow("openai") << "openai" << false;       // no continuation at OpenAI
    QTest::addRow("anthropic") << "anthropic" << false; // no prefill from Claude 4.6 on
}

void tst_ProviderProfile::hostedDefaultsAreServedToday()
{
    QFETCH(QString, id);
    QFETCH(bool, continues);
    const ProviderProfile p = builtinProfile(id);
    // The main and the fast model are in the model catalogue, and neither is deprecated: a new
    // user's first answer must not fail on a retired name (deepseek-chat, issue 37).
    for (const QString &model : {p.model, p.fastModel}) {
        const Llm::ModelCapabilities c = Llm::ModelCatalog::find(id, model);
        QVERIFY2(c.known, qPrintable(model));
        QVERIFY2(c.deprecatedOn.isEmpty() && c.retiresOn.isEmpty(), qPrintable(model));
        QVERIFY2(c.prices.has_value(), qPrintable(model));
    }
    QCOMPARE(p.canContinue(), continues);
    QVERIFY(!p.thinksFirst()); // told not to: a guess must not pay for thinking
    QVERIFY(!p.thinksFirst(p.fastModel));
    QVERIFY(p.prices.output > 0 && p.fastPrices.output > 0);
}

void tst_ProviderProfile::retiredModelsAreKnown()
{
    const QDate today(2026, 12, 6);
    const Llm::ModelCapabilities chat = Llm::ModelCatalog::find(u"deepseek", u"deepseek-chat");
    QVERIFY(chat.known);
    QVERIFY(Llm::ModelCatalog::isRetired(chat, today));
    QCOMPARE(chat.replacement, QStringLiteral("deepseek-flash"));
    // Deprecated, not yet retired: still served, never a default.
    const Llm::ModelCapabilities mini = Llm::ModelCatalog::find(u"openai", u"gpt-4o-mini");
    QVERIFY(!Llm::ModelCatalog::isRetired(mini, today));
    QVERIFY(Llm::ModelCatalog::isRetired(mini, QDate(2027, 1, 14)));
    QCOMPARE(mini.replacement, QStringLiteral("gpt-6-luna"));
}

void tst_ProviderProfile::familiesFollowTheProviderNotTheName()
{
    // A user endpoint at DeepSeek's own address is DeepSeek; one at a gateway or a local vLLM
    // serving a model of the same name is not known (it continues and thinks its own way).
    ProviderProfile official = builtinProfile(u"custom");
    official.baseUrl = QUrl(QStringLiteral("https://api.deepseek.com/v1"));
    official.model = QStringLiteral("deepseek-v4-pro");
    QCOMPARE(Llm::ModelCatalog::familyProvider(official), QStringLiteral("deepseek"));
    QCOMPARE(Llm::ModelCatalog::applied(official).encodeOptions.continuation, Llm::ContinuationStyle::PrefixFlag);
    QCOMPARE(Llm::ModelCatalog::applied(official).prices.output, 3.96);
    ProviderProfile gateway = official;
    gateway.baseUrl = QUrl(QStringLiteral("http://127.0.0.1:8000/v1"));
    QVERIFY(Llm::ModelCatalog::familyProvider(gateway).isEmpty());
    QVERIFY(!Llm::ModelCatalog::find(Llm::ModelCatalog::familyProvider(gateway), gateway.model).known);
    QCOMPARE(Llm::ModelCatalog::applied(gateway).encodeOptions, gateway.encodeOptions);
    // An unknown model at a known provider keeps the safe assumptions: no continuation.
    ProviderProfile unknown = builtinProfile(u"anthropic");
    unknown.model = QStringLiteral("claude-whatever-9");
    unknown.encodeOptions = {};
    QCOMPARE(Llm::ModelCatalog::applied(unknown).encodeOptions.continuation, Llm::ContinuationStyle::None);
}

QTEST_GUILESS_MAIN(tst_ProviderProfile)
#include "tst_providerprofile.moc"
