// The user's endpoints in AppSettings (issue 14, "Several custom endpoints"): two endpoints of
// different formats survive a save and a load with every field; a settings file written before
// endpoints (one built-in "custom") loads unchanged; a removed endpoint stays removed, and one
// still named as the provider in use falls back to the local engine with a problem; each bad entry
// of a hand-edited file gives one problem and leaves everything else as it was; names are trimmed,
// unique and not a built-in's; ids never change on a rename, so the keys stored under one stay
// with it; --provider finds an endpoint by id or name.
#include "workspace/settings/appsettings.h"
#include "workspace/settings/secretstore.h"
#include "workspace/settings/settingsfile.h"

#include <QDir>
#include <QFile>
#include <QLocale>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

#include <optional>

using Gui::AppSettings;
using Gui::SettingsFile;
using Gui::UserEndpoint;
using Gui::UserEndpoints;

class tst_UserEndpoints : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void init();

    void aNewInstallationHasTheFirstEndpoint();
    void twoEndpointsOfDifferentFormatsRoundTrip();
    void aFileFromBeforeEndpointsLoadsUnchanged();
    void removedEndpointsStayRemoved();
    void aRemovedEndpointInUseFallsBackToTheLocalEngine();
    void badEntry_data();
    void badEntry();
    void namesAreTrimmedUniqueAndNotABuiltins();
    void renamingKeepsTheIdAndItsKeys();
    void findProviderTakesAnIdOrAName();

private:
    QString file() const { return m_dir.filePath(QStringLiteral("s.conf")); }
    SettingsFile::LoadResult load() const;
    void save(const AppSettings &s) const;

    QTemporaryDir m_dir;
};

void tst_UserEndpoints::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);
    QLocale::setDefault(QLocale::c());
    QVERIFY(m_dir.isValid());
}

void tst_UserEndpoints::init()
{
    for (const QString &name : QDir(m_dir.path()).entryList(QDir::Files))
        QVERIFY(QFile::remove(m_dir.filePath(name)));
}

SettingsFile::LoadResult tst_UserEndpoints::load() const
{
    QSettings settings(file(), QSettings::IniFormat);
    return SettingsFile::load(settings);
}

void tst_UserEndpoints::save(const AppSettings &s) const
{
    QSettings settings(file(), QSettings::IniFormat);
    SettingsFile::save(settings, s);
    QCOMPARE(settings.status(), QSettings::NoError);
}

void tst_UserEndpoints::aNewInstallationHasTheFirstEndpoint()
{
    const AppSettings s;
    QCOMPARE(s.endpoints.list().size(), 1);
    const UserEndpoint first = s.endpoints.list().constFirst();
    QCOMPARE(first.id, QStringLiteral("custom"));
    QCOMPARE(first.name, QStringLiteral("Custom (OpenAI-compatible)"));
    QCOMPARE(first.format, Llm::ApiFormat::OpenAiChat);
    // The same profile the built-in "custom" had (headstart-cli still has it).
    const Llm::ProviderProfile p = s.profile(QStringLiteral("custom"));
    const Llm::ProviderProfile before = Llm::builtinProfile(u"custom");
    QCOMPARE(p.id, before.id);
    QCOMPARE(p.displayName, before.displayName);
    QCOMPARE(p.apiKeyEnvVar, QStringLiteral("HEADSTART_API_KEY"));
    QVERIFY(p.target() == before.target());
    // The list shows it after the built-ins, once.
    QStringList ids;
    for (const Llm::ProviderProfile &listed : s.providerProfiles())
        ids << listed.id;
    QCOMPARE(ids, (QStringList{"local", "deepseek", "qwen", "openai", "anthropic", "ollama", "llamacpp", "custom"}));
}

void tst_UserEndpoints::twoEndpointsOfDifferentFormatsRoundTrip()
{
    AppSettings s;
    const auto vllm = s.endpoints.add(QStringLiteral("Lab vLLM"), Llm::ApiFormat::OpenAiChat);
    const auto gateway = s.endpoints.add(QStringLiteral("Company gateway"), Llm::ApiFormat::AnthropicMessages);
    QVERIFY(vllm && gateway);
    QVERIFY(vllm->startsWith(QLatin1String("custom-")));
    QVERIFY(*vllm != *gateway);
    s.setBaseUrl(*vllm, QUrl(QStringLiteral("http://10.1.2.3:8000/v1")));
    s.setModel(*vllm, QStringLiteral("Qwen/Qwen3-8B"));
    s.setAllowInsecureHttp(*vllm, true);
    s.setConcurrencyLimit(*vllm, 4);
    s.setBaseUrl(*gateway, QUrl(QStringLiteral("https://llm.example.com/anthropic/v1")));
    s.setModel(*gateway, QStringLiteral("claude-sonnet-4-5"));
    s.setExtraHeaders(*gateway, Gui::HeaderList{{"X-Team", "writers"}});
    s.setThinkingBudget(*gateway, 2048); // an Anthropic-format endpoint takes it
    s.setThinkingBudget(*vllm, 2048);    // an OpenAI-format one does not
    s.setPrices(*gateway, Llm::Prices{3, 3.75, 0.3, 15});
    s.setTimeout(*gateway, Gui::TimeoutField::FirstByte, 900);
    s.setPrefetchConsent(*gateway, true);
    s.providerId = *gateway;
    save(s);

    const auto result = load();
    QVERIFY2(result.problems.isEmpty(), qPrintable(result.problems.join(QLatin1Char('\n'))));
    QVERIFY(result.settings == s);
    const AppSettings &r = result.settings;
    QCOMPARE(r.providerId, *gateway);
    QCOMPARE(r.endpoints.list().size(), 3); // with the first one
    const Llm::ProviderProfile v = r.profile(*vllm);
    QCOMPARE(v.displayName, QStringLiteral("Lab vLLM"));
    QCOMPARE(v.format, Llm::ApiFormat::OpenAiChat);
    QCOMPARE(v.endpoint(), QUrl(QStringLiteral("http://10.1.2.3:8000/v1/chat/completions")));
    QCOMPARE(v.model, QStringLiteral("Qwen/Qwen3-8B"));
    QVERIFY(v.allowInsecureHttp);
    QCOMPARE(v.concurrencyLimit, 4);
    QCOMPARE(v.encodeOptions.thinkingBudgetTokens, 0);
    const Llm::ProviderProfile g = r.profile(*gateway);
    QCOMPARE(g.displayName, QStringLiteral("Company gateway"));
    QCOMPARE(g.format, Llm::ApiFormat::AnthropicMessages);
    QCOMPARE(g.endpoint(), QUrl(QStringLiteral("https://llm.example.com/anthropic/v1/messages")));
    QCOMPARE(g.extraHeaders, (Gui::HeaderList{{"X-Team", "writers"}}));
    QCOMPARE(g.encodeOptions.thinkingBudgetTokens, 2048);
    QVERIFY(g.prices == (Llm::Prices{3, 3.75, 0.3, 15}));
    QCOMPARE(g.timeouts.firstByte, std::chrono::milliseconds(900'000));
    QVERIFY(r.hasPrefetchConsent(*gateway));
    QVERIFY(r.effectivePrefetch(*gateway).hover.enabled);
    QVERIFY(!r.effectivePrefetch(*vllm).hover.enabled); // no consent for that one
    // Listed by name after the built-ins.
    QStringList names;
    for (const UserEndpoint &e : r.endpoints.list())
        names << e.name;
    QCOMPARE(names, (QStringList{"Company gateway", "Custom (OpenAI-compatible)", "Lab vLLM"}));
}

void tst_UserEndpoints::aFileFromBeforeEndpointsLoadsUnchanged()
{
    // As this version's predecessor wrote it: "custom" was a built-in.
    {
        QFile f(file());
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("[General]\nversion=1\n\n"
                "[provider]\nid=custom\n\n"
                "[providers]\n"
                "custom\\baseUrl=http://127.0.0.1:1234/v1\n"
                "custom\\model=local-model\n"
                "custom\\extraHeaders=X-Team: writers\n"
                "custom\\prefetchConsent=true\n"
                "custom\\prices\\input=0.5\n"
                "deepseek\\model=deepseek-v4-pro\n");
    }
    const auto result = load();
    QVERIFY2(result.problems.isEmpty(), qPrintable(result.problems.join(QLatin1Char('\n'))));
    const AppSettings &s = result.settings;
    QCOMPARE(s.providerId, QStringLiteral("custom"));
    QVERIFY(s.endpoints == UserEndpoints());
    const Llm::ProviderProfile p = s.profile(QStringLiteral("custom"));
    QCOMPARE(p.displayName, QStringLiteral("Custom (OpenAI-compatible)"));
    QCOMPARE(p.baseUrl, QUrl(QStringLiteral("http://127.0.0.1:1234/v1")));
    QCOMPARE(p.model, QStringLiteral("local-model"));
    QCOMPARE(p.extraHeaders, (Gui::HeaderList{{"X-Team", "writers"}}));
    QCOMPARE(p.prices.input, 0.5);
    QVERIFY(s.hasPrefetchConsent(QStringLiteral("custom")));
    QCOMPARE(s.profile(QStringLiteral("deepseek")).model, QStringLiteral("deepseek-v4-pro"));

    // Saved by this version and read again: the same, and the file now lists the endpoint.
    save(s);
    const auto again = load();
    QVERIFY2(again.problems.isEmpty(), qPrintable(again.problems.join(QLatin1Char('\n'))));
    QVERIFY(again.settings == s);
    QSettings raw(file(), QSettings::IniFormat);
    QCOMPARE(raw.value(QStringLiteral("version")).toInt(), 2);
    QCOMPARE(raw.value(QStringLiteral("endpoints/custom/format")).toString(), QStringLiteral("openai"));
    QVERIFY(!raw.contains(QStringLiteral("endpoints/custom/name"))); // the default follows the language
    QCOMPARE(raw.value(QStringLiteral("providers/custom/model")).toString(), QStringLiteral("local-model"));

    // An old file that never touched "custom" has it too.
    QVERIFY(QFile::remove(file()));
    {
        QFile f(file());
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("[General]\nversion=1\n\n[provider]\nid=openai\n");
    }
    const auto untouched = load();
    QVERIFY(untouched.problems.isEmpty());
    QVERIFY(untouched.settings.endpoints == UserEndpoints());
}

void tst_UserEndpoints::removedEndpointsStayRemoved()
{
    AppSettings s;
    const auto kept = s.endpoints.add(QStringLiteral("LM Studio"), Llm::ApiFormat::OpenAiChat);
    QVERIFY(kept);
    s.setModel(QStringLiteral("custom"), QStringLiteral("some-model"));
    s.providerId = QStringLiteral("custom");
    QVERIFY(s.removeEndpoint(QStringLiteral("custom")));
    QVERIFY(!s.removeEndpoint(QStringLiteral("custom")));
    QVERIFY(!s.removeEndpoint(QStringLiteral("deepseek"))); // a built-in is no endpoint
    QCOMPARE(s.providerId, QStringLiteral("local"));
    QVERIFY(!s.providers.contains(QStringLiteral("custom")));
    QVERIFY(!s.knowsProvider(QStringLiteral("custom")));
    s.setModel(QStringLiteral("custom"), QStringLiteral("again")); // ignored: no such provider now
    QVERIFY(!s.providers.contains(QStringLiteral("custom")));
    save(s);
    {
        const auto result = load();
        QVERIFY2(result.problems.isEmpty(), qPrintable(result.problems.join(QLatin1Char('\n'))));
        QCOMPARE(result.settings.endpoints.list().size(), 1);
        QCOMPARE(result.settings.endpoints.list().constFirst().id, *kept);
        QVERIFY(result.settings == s);
        QSettings raw(file(), QSettings::IniFormat);
        QVERIFY(!raw.contains(QStringLiteral("providers/custom/model")));
    }

    // None at all is a state of its own, not "a file from before endpoints".
    QVERIFY(s.removeEndpoint(*kept));
    QVERIFY(s.endpoints.isEmpty());
    save(s);
    const auto result = load();
    QVERIFY2(result.problems.isEmpty(), qPrintable(result.problems.join(QLatin1Char('\n'))));
    QVERIFY(result.settings.endpoints.isEmpty());
}

void tst_UserEndpoints::aRemovedEndpointInUseFallsBackToTheLocalEngine()
{
    AppSettings s;
    const auto id = s.endpoints.add(QStringLiteral("OpenRouter"), Llm::ApiFormat::OpenAiChat);
    QVERIFY(id);
    save(s);
    {
        // Removed from the file by hand (or by another copy of Headstart) while still in use.
        QSettings raw(file(), QSettings::IniFormat);
        raw.setValue(QStringLiteral("provider/id"), *id);
        raw.remove(QStringLiteral("endpoints/") + *id);
    }
    const auto result = load();
    QCOMPARE(result.problems.size(), 1);
    QCOMPARE(result.problems.constFirst(),
             QStringLiteral(
                 "The provider \"%1\" in the settings file is unknown; using Local demo engine (offline, not "
                 "a language model).")
                 .arg(*id));
    QCOMPARE(result.settings.providerId, QStringLiteral("local"));
    QVERIFY(result.settings.selectedProfile().isLocalDemo);
    QVERIFY(result.settings.profile(*id).isLocalDemo);
}

void tst_UserEndpoints::badEntry_data()
{
    QTest::addColumn<QByteArray>("entry");  // more lines of [endpoints]
    QTest::addColumn<QByteArray>("fields"); // its lines of [providers]: they go with it
    QTest::addColumn<QString>("problem");   // a part of the one problem
    QTest::addColumn<QStringList>("names"); // the endpoints after loading, by name
    QTest::addColumn<bool>("copyKept");     // something was dropped: the file is copied first

    // Every row also has the good endpoint "Good" (custom-good), which must load untouched.
    const QByteArray two = "custom-two\\model=two-model\n";
    const QStringList resetTwo{"Endpoint custom-two", "Good"};
    QTest::addRow("id with a space") << QByteArray("bad%20id\\name=Spaced\nbad%20id\\format=openai\n")
                                     << QByteArray("bad%20id\\model=m\n")
                                     << "with the id \"bad id\", which is not made of letters" << QStringList{"Good"}
                                     << true;
    QTest::addRow("a built-in's id") << QByteArray("openai\\name=My OpenAI\nopenai\\format=openai\n")
                                     << QByteArray("openai\\model=gpt-4.1\n")
                                     << "with the id \"openai\", which is a built-in provider's; it was ignored."
                                     << QStringList{"Good"} << true;
    QTest::addRow("empty name")
        << QByteArray("custom-two\\name=\"   \"\ncustom-two\\format=openai\n") << two
        << "The name of the endpoint \"custom-two\" in the settings file (   ) cannot be used: The name is empty. It "
           "is called \"Endpoint custom-two\" now."
        << resetTwo << false;
    QTest::addRow("no name") << QByteArray("custom-two\\format=anthropic\n") << two
                             << "(none) cannot be used: The name is empty." << resetTwo << false;
    QTest::addRow("taken name")
        << QByteArray("custom-two\\name=good\ncustom-two\\format=openai\n") << two
        << "cannot be used: Another endpoint is called \"Good\". It is called \"Endpoint custom-two\" now." << resetTwo
        << false;
    QTest::addRow("a built-in's name") << QByteArray("custom-two\\name=DeepSeek\ncustom-two\\format=openai\n") << two
                                       << "A built-in provider is called \"DeepSeek\"." << resetTwo << false;
    QTest::addRow("line break in the name")
        << QByteArray("custom-two\\name=\"Two\\nlines\"\ncustom-two\\format=openai\n") << two
        << "cannot contain line breaks" << resetTwo << false;
    QTest::addRow("unknown format")
        << QByteArray("custom-two\\name=Gemini\ncustom-two\\format=gemini\n") << two
        << "The format of the endpoint \"custom-two\" in the settings file (gemini) is neither \"openai\" nor "
           "\"anthropic\"; it is sent OpenAI-compatible requests."
        << QStringList{"Gemini", "Good"} << false;
    QTest::addRow("no format") << QByteArray("custom-two\\name=Two\n") << two << "settings file (none) is neither"
                               << QStringList{"Good", "Two"} << false;
}

void tst_UserEndpoints::badEntry()
{
    QFETCH(QByteArray, entry);
    QFETCH(QByteArray, fields);
    QFETCH(QString, problem);
    QFETCH(QStringList, names);
    QFETCH(bool, copyKept);
    const QByteArray bytes =
        "[General]\nversion=2\n\n[provider]\nid=custom-good\n\n"
        "[endpoints]\ncustom-good\\name=Good\ncustom-good\\format=anthropic\n"
        + entry
        + "\n[providers]\ncustom-good\\baseUrl=https://good.example.com/v1\ncustom-good\\model=good-model\n"
          "custom-good\\prefetchConsent=true\n"
        + fields;
    {
        QFile f(file());
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(bytes);
    }
    const auto result = load();
    QVERIFY2(result.problems.size() == 1, qPrintable(result.problems.join(QLatin1Char('\n'))));
    QVERIFY2(result.problems.constFirst().contains(problem), qPrintable(result.problems.constFirst()));
    QCOMPARE(result.problems.constFirst().contains(QLatin1String("s.conf.damaged-1")), copyKept);
    QCOMPARE(QFile::exists(file() + QStringLiteral(".damaged-1")), copyKept);
    if (copyKept) {
        QFile kept(file() + QStringLiteral(".damaged-1"));
        QVERIFY(kept.open(QIODevice::ReadOnly));
        QCOMPARE(kept.readAll(), bytes);
    }

    const AppSettings &s = result.settings;
    QStringList loaded;
    for (const UserEndpoint &e : s.endpoints.list())
        loaded << e.name;
    QCOMPARE(loaded, names);
    // The good one, and the provider in use, as they were.
    QCOMPARE(s.providerId, QStringLiteral("custom-good"));
    const Llm::ProviderProfile good = s.profile(QStringLiteral("custom-good"));
    QCOMPARE(good.displayName, QStringLiteral("Good"));
    QCOMPARE(good.format, Llm::ApiFormat::AnthropicMessages);
    QCOMPARE(good.baseUrl, QUrl(QStringLiteral("https://good.example.com/v1")));
    QCOMPARE(good.model, QStringLiteral("good-model"));
    QVERIFY(s.hasPrefetchConsent(QStringLiteral("custom-good")));
    // The built-in keeps what the file set for it, whatever an endpoint claimed its id.
    if (fields.startsWith("openai"))
        QCOMPARE(s.profile(QStringLiteral("openai")).model, QStringLiteral("gpt-4.1"));
    // An endpoint whose name or format was reset keeps its id and its settings.
    if (s.endpoints.contains(QStringLiteral("custom-two")))
        QCOMPARE(s.profile(QStringLiteral("custom-two")).model, QStringLiteral("two-model"));

    // Saved again, the file reads back without a problem: each was reported once.
    save(s);
    const auto again = load();
    QVERIFY2(again.problems.isEmpty(), qPrintable(again.problems.join(QLatin1Char('\n'))));
    QVERIFY(again.settings == s);
}

void tst_UserEndpoints::namesAreTrimmedUniqueAndNotABuiltins()
{
    UserEndpoints e;
    const auto id = e.add(QStringLiteral("  vLLM  "), Llm::ApiFormat::OpenAiChat);
    QVERIFY(id);
    QCOMPARE(e.find(*id)->name, QStringLiteral("vLLM"));
    QCOMPARE(e.add(QStringLiteral("VLLM"), Llm::ApiFormat::OpenAiChat).error(),
             QStringLiteral("Another endpoint is called \"vLLM\"."));
    QCOMPARE(e.add(QStringLiteral(" \t "), Llm::ApiFormat::OpenAiChat).error(), QStringLiteral("The name is empty."));
    QCOMPARE(e.add(QStringLiteral("anthropic"), Llm::ApiFormat::AnthropicMessages).error(),
             QStringLiteral("A built-in provider is called \"Anthropic\"."));
    QVERIFY(!e.add(QString(UserEndpoints::MaxNameLength + 1, QLatin1Char('x')), Llm::ApiFormat::OpenAiChat));
    QVERIFY(e.add(QString(UserEndpoints::MaxNameLength, QLatin1Char('x')), Llm::ApiFormat::OpenAiChat));
    QCOMPARE(e.list().size(), 3);

    // Renaming to its own name, in another case, is no clash with itself.
    QVERIFY(e.rename(*id, QStringLiteral("vllm")));
    QCOMPARE(e.find(*id)->name, QStringLiteral("vllm"));
    QCOMPARE(e.rename(*id, QStringLiteral("custom (openai-compatible)")).error(),
             QStringLiteral("Another endpoint is called \"Custom (OpenAI-compatible)\"."));
    QVERIFY(!e.rename(QStringLiteral("deepseek"), QStringLiteral("Mine")));
    QCOMPARE(e.find(*id)->name, QStringLiteral("vllm"));

    // A removed endpoint's id is not given again.
    QVERIFY(e.remove(*id));
    QVERIFY(!e.contains(*id));
    const auto next = e.add(QStringLiteral("vLLM"), Llm::ApiFormat::OpenAiChat);
    QVERIFY(next);
    QVERIFY(*next != *id);
}

void tst_UserEndpoints::renamingKeepsTheIdAndItsKeys()
{
    AppSettings s;
    const auto id = s.endpoints.add(QStringLiteral("Gateway"), Llm::ApiFormat::AnthropicMessages);
    QVERIFY(id);
    s.setModel(*id, QStringLiteral("claude-haiku-4-5"));
    Gui::MemorySecretStore secrets;
    secrets.write(*id, Gui::SecretStore::Secret::ApiKey, QStringLiteral("sk-gw-main"), nullptr, {});
    secrets.write(*id, Gui::SecretStore::Secret::PrefetchKey, QStringLiteral("sk-gw-prefetch"), nullptr, {});
    secrets.write(*id, Gui::SecretStore::Secret::MoreApiKeys, QStringLiteral("sk-gw-2\nsk-gw-3"), nullptr, {});

    QVERIFY(s.endpoints.rename(*id, QStringLiteral("Company gateway")));
    QVERIFY(s.endpoints.rename(QStringLiteral("custom"), QStringLiteral("Work")));
    QVERIFY(s.endpoints.contains(QStringLiteral("custom")));
    QCOMPARE(s.profile(QStringLiteral("custom")).displayName, QStringLiteral("Work"));
    const Llm::ProviderProfile renamed = s.profile(*id);
    QCOMPARE(renamed.displayName, QStringLiteral("Company gateway"));
    QCOMPARE(renamed.model, QStringLiteral("claude-haiku-4-5")); // its fields stayed with the id

    QObject context;
    std::optional<Llm::ProviderProfile> filled;
    secrets.fillKeys(renamed, &context, [&filled](const Llm::ProviderProfile &p, const QString &error) {
        QVERIFY(error.isEmpty());
        filled = p;
    });
    QTRY_VERIFY_WITH_TIMEOUT(filled.has_value(), 5000);
    QCOMPARE(filled->apiKey, QStringLiteral("sk-gw-main"));
    QCOMPARE(filled->prefetchApiKey, QStringLiteral("sk-gw-prefetch"));
    QCOMPARE(filled->moreApiKeys, (QStringList{QStringLiteral("sk-gw-2"), QStringLiteral("sk-gw-3")}));

    // The renamed first endpoint's name is written now, and read back.
    save(s);
    const auto result = load();
    QVERIFY2(result.problems.isEmpty(), qPrintable(result.problems.join(QLatin1Char('\n'))));
    QCOMPARE(result.settings.profile(QStringLiteral("custom")).displayName, QStringLiteral("Work"));
    QVERIFY(result.settings == s);
}

void tst_UserEndpoints::findProviderTakesAnIdOrAName()
{
    AppSettings s;
    const auto id = s.endpoints.add(QStringLiteral("Lab vLLM"), Llm::ApiFormat::OpenAiChat);
    QVERIFY(id);
    QCOMPARE(s.findProvider(*id).value_or(QString()), *id);
    QCOMPARE(s.findProvider(QStringLiteral("lab vllm")).value_or(QString()), *id);
    QCOMPARE(s.findProvider(QStringLiteral(" Lab vLLM ")).value_or(QString()), *id);
    QCOMPARE(s.findProvider(QStringLiteral("deepseek")).value_or(QString()), QStringLiteral("deepseek"));
    QCOMPARE(s.findProvider(QStringLiteral("Qwen (DashScope)")).value_or(QString()), QStringLiteral("qwen"));
    QCOMPARE(s.findProvider(QStringLiteral("custom")).value_or(QString()), QStringLiteral("custom"));
    // An id wins over a name: the first endpoint renamed "openai-like", another named "custom".
    QVERIFY(s.endpoints.rename(QStringLiteral("custom"), QStringLiteral("Work")));
    const auto named = s.endpoints.add(QStringLiteral("custom"), Llm::ApiFormat::OpenAiChat);
    QVERIFY(named);
    QCOMPARE(s.findProvider(QStringLiteral("custom")).value_or(QString()), QStringLiteral("custom"));
    QCOMPARE(s.findProvider(QStringLiteral("work")).value_or(QString()), QStringLiteral("custom"));

    const auto missing = s.findProvider(QStringLiteral("gemini"));
    QVERIFY(!missing);
    QVERIFY2(missing.error().startsWith(QLatin1String("There is no provider \"gemini\"; the providers are local, "
                                                      "deepseek,")),
             qPrintable(missing.error()));
    QVERIFY(missing.error().contains(*id));
    // Once removed, neither its id nor its name finds it.
    QVERIFY(s.removeEndpoint(*id));
    QVERIFY(!s.findProvider(*id));
    QVERIFY(!s.findProvider(QStringLiteral("Lab vLLM")));
}

QTEST_GUILESS_MAIN(tst_UserEndpoints)
#include "tst_userendpoints.moc"
