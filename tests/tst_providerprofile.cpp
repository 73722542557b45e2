// Built-in provider profiles: every provider the product promises, with sane defaults and the
// endpoint its wire format needs.
#include "llm/providerprofile.h"

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
};

void tst_ProviderProfile::builtinsHaveDefaults_data()
{
    QTest::addColumn<QString>("id");
    QTest::addColumn<QString>("host");
    QTest::addColumn<bool>("cloud");
    QTest::addColumn<bool>("anthropic");
    QTest::addRow("deepseek") << "deepseek" << "api.deepseek.com" << true << false;
    QTest::addRow("qwen") << "qwen" << "dashscope.aliyuncs.com" << true << false;
    QTest::addRow("openai") << "openai" << "api.openai.com" << true << false;
    QTest::addRow("anthropic") << "anthropic" << "api.anthropic.com" << true << true;
    QTest::addRow("ollama") << "ollama" << "localhost" << false << false;
    QTest::addRow("llamacpp") << "llamacpp" << "localhost" << false << false;
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
    QTest::addRow("openai") << "openai" << "https://api.openai.com/v1" << "https://api.openai.com/v1/chat/completions";
    QTest::addRow("trailing slash") << "custom" << "http://127.0.0.1:8000/v1/" << "http://127.0.0.1:8000/v1/chat/completions";
    QTest::addRow("anthropic") << "anthropic" << "https://api.anthropic.com/v1" << "https://api.anthropic.com/v1/messages";
    QTest::addRow("dashscope") << "qwen" << "https://dashscope.aliyuncs.com/compatible-mode/v1"
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

QTEST_GUILESS_MAIN(tst_ProviderProfile)
#include "tst_providerprofile.moc"
