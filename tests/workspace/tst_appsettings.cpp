// AppSettings: defaults equal the engine's and the built-in profiles', every field survives a
// save and load, every hand-edited bad value falls back to its default with a message that
// says so, a file that is not a settings file at all gives defaults (and a copy is kept), and
// every prefetch that sends what the user has not asked for yet (hover, debounce and the early
// signals: trajectory, selection, keyboard, reading, habits) stays off for a cloud provider until
// the user consents. Pausing on battery saver and metered connections is on by default and,
// switched off, stays off through a save and a load. Prices are kept figure by figure: an edited one survives a save, a broken
// one falls back alone.
// Over 600 lines: 33 scenarios, each a test function readable on its own; what they share is
// at the top or in tests/support.
#include "workspace/settings/appsettings.h"
#include "workspace/settings/prefetchparameters.h"
#include "workspace/settings/settingsfile.h"

#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QLocale>
#include <QSettings>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>
#include <utility>

using Gui::AppSettings;
using Gui::PrefetchParameter;
using Gui::PrefetchParameters;
using Gui::ProviderOverrides;
using Gui::SettingsFile;

class tst_AppSettings : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void init();

    void defaultsEqualEngineAndBuiltinProfiles();
    void missingFileGivesDefaultsQuietly();
    void saveThenLoadKeepsEveryField();
    void savingDefaultsWritesAlmostNothing();
    void saveLeavesOtherKeysAlone();
    void badValue_data();
    void badValue();
    void problemTextSaysWhatAndWhatInstead();
    void prefetchLaneAboveForegroundIsPulledIn();
    void resumeAboveCeilingIsPulledIn();
    void unreadableFile_data();
    void unreadableFile();
    void oneBadLineKeepsEveryOtherValue();
    void sameDamageIsCopiedOnceAndOnlyTheLastFewStay();
    void damagedProviderLineIsNotDroppedSilently();
    void retiredModelIsReplacedAndSaid();
    void learnedRefusalsSurviveARestartAndGoWithTheModel();
    void consentGatesEverySignalThatSendsUnaskedText();
    void remoteLocalServerNeedsConsent();
    void consentIsAskedOnceAndEitherAnswerIsKept();
    void settersDropOverridesEqualToDefaults();
    void pricesApplyToTheProfileFigureByFigure();
    void brokenPricesFallBackOneByOne();
    void fastModelRoundTripsAndAnUnknownOneIsPricedAsTheMain();
    void headersParseAndRejectKeys();
    void keysNeverReachTheSettingsFile();
    void recentFilesAreNewestFirstAndBounded();
    void sessionFilesKeepTheirOrderAndDropWhatIsNotAPath();
    void etiquetteIsOnByDefaultAndOffSurvives();
    void timeoutsAndProxyRoundTrip();
    void textSizeRoundTripsAndABadOneIsReported();
    void colorSchemeRoundTripsAndABadOneIsReported();

private:
    QString path(const QString &name) const { return m_dir.filePath(name); }
    SettingsFile::LoadResult loadFile(const QString &file);

    QTemporaryDir m_dir;
};

void tst_AppSettings::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);
    QLocale::setDefault(QLocale::c()); // messages are compared word for word, numbers included
    QVERIFY(m_dir.isValid());
}

void tst_AppSettings::init()
{
    QFile::remove(path(QStringLiteral("s.conf")));
}

SettingsFile::LoadResult tst_AppSettings::loadFile(const QString &file)
{
    QSettings settings(file, QSettings::IniFormat);
    return SettingsFile::load(settings);
}

void tst_AppSettings::defaultsEqualEngineAndBuiltinProfiles()
{
    const AppSettings s;
    QVERIFY(PrefetchParameters::same(s.prefetch, Prefetch::Settings()));
    QCOMPARE(s.providerId, QStringLiteral("local"));
    QVERIFY(s.providers.isEmpty());
    QCOMPARE(s.uiLanguage, QString());
    QCOMPARE(s.translateTarget, QString()); // automatic: the other of English and Chinese
    QVERIFY(s.firstRun);
    QCOMPARE(s.logDetail, Gui::LogDetail::Normal);
    for (const Llm::ProviderProfile &builtin : Llm::builtinProfiles()) {
        const Llm::ProviderProfile p = s.profile(builtin.id);
        QCOMPARE(p.id, builtin.id);
        QCOMPARE(p.baseUrl, builtin.baseUrl);
        QCOMPARE(p.model, builtin.model);
        QCOMPARE(p.extraHeaders, builtin.extraHeaders);
        QCOMPARE(p.concurrencyLimit, builtin.concurrencyLimit);
        QCOMPARE(p.isCloud, builtin.isCloud);
        QCOMPARE(p.format, builtin.format);
        QCOMPARE(p.prices, builtin.prices);
        QVERIFY(p.apiKey.isEmpty());
    }
    // Every default is inside its own valid range.
    const Prefetch::Settings defaults;
    for (const PrefetchParameter &p : PrefetchParameters::all()) {
        QVERIFY2(p.get(defaults) >= p.min && p.get(defaults) <= p.max, p.key);
    }
    QCOMPARE(s.profile(QStringLiteral("no-such-provider")).id, QStringLiteral("local"));
}

void tst_AppSettings::missingFileGivesDefaultsQuietly()
{
    const auto result = loadFile(path(QStringLiteral("s.conf")));
    QVERIFY2(result.problems.isEmpty(), qPrintable(result.problems.join(QLatin1Char('\n'))));
    QVERIFY(result.settings == AppSettings());
}

void tst_AppSettings::saveThenLoadKeepsEveryField()
{
    AppSettings s;
    // Every prefetch parameter away from its default, inside its range.
    for (const PrefetchParameter &p : PrefetchParameters::all()) {
        const double current = p.get(s.prefetch);
        double value = 0;
        if (p.kind == PrefetchParameter::Kind::Bool)
            value = current != 0 ? 0 : 1;
        else if (p.kind == PrefetchParameter::Kind::Integer)
            value = std::floor(p.min + (p.max - p.min) / 3);
        else
            value = p.min + (p.max - p.min) / 3; // not a short decimal: checks doubles round-trip exactly
        if (value == current)
            value = p.min;
        p.set(s.prefetch, value);
        QVERIFY2(p.get(s.prefetch) != current, p.key);
    }
    QCOMPARE(s.prefetch.prefetchInFlight, s.prefetch.foregroundInFlight); // still a valid pair
    QCOMPARE(s.prefetch.extraCostResume, s.prefetch.extraCostCeiling);

    s.providerId = QStringLiteral("anthropic");
    for (const Llm::ProviderProfile &p : Llm::builtinProfiles()) {
        // Prices not short in binary either, and the local engine's too: it is priced.
        s.setPrices(p.id, Llm::Prices{1.0 / 3, 0.4, 0.035, 2.5});
        // Timeouts too: the local engine's can be as slow as any (a latency profile, a fault).
        s.setTimeout(p.id, Gui::TimeoutField::Connect, 7);
        s.setTimeout(p.id, Gui::TimeoutField::FirstByte, 1800);
        s.setTimeout(p.id, Gui::TimeoutField::Idle, 90);
        if (p.isLocalDemo)
            continue;
        s.setBaseUrl(p.id, QUrl(QStringLiteral("https://gateway.example.com/%1/v1").arg(p.id)));
        s.setModel(p.id, QStringLiteral("model-") + p.id);
        s.setExtraHeaders(p.id, Gui::HeaderList{{"X-Team", p.id.toLatin1()}, {"X-Trace", "a, b; c=d"}});
        s.setConcurrencyLimit(p.id, 3);
        s.setPrefetchConsent(p.id, true);
    }
    s.uiLanguage = QStringLiteral("zh_CN");
    s.translateTarget = QStringLiteral("Japanese");
    s.firstRun = false;
    s.logDetail = Gui::LogDetail::Detailed;
    s.proxy = {Llm::ProxySettings::Mode::Socks5, QStringLiteral("proxy.example.com"), 1080, QStringLiteral("ann"), {}};

    {
        QSettings file(path(QStringLiteral("s.conf")), QSettings::IniFormat);
        SettingsFile::save(file, s);
        QCOMPARE(file.status(), QSettings::NoError);
    }
    const auto result = loadFile(path(QStringLiteral("s.conf")));
    QVERIFY2(result.problems.isEmpty(), qPrintable(result.problems.join(QLatin1Char('\n'))));
    for (const PrefetchParameter &p : PrefetchParameters::all())
        QVERIFY2(p.get(result.settings.prefetch) == p.get(s.prefetch), p.key);
    QCOMPARE(result.settings.providerId, s.providerId);
    QCOMPARE(result.settings.providers, s.providers);
    QCOMPARE(result.settings.uiLanguage, s.uiLanguage);
    QCOMPARE(result.settings.translateTarget, s.translateTarget);
    QCOMPARE(result.settings.firstRun, s.firstRun);
    QCOMPARE(result.settings.logDetail, s.logDetail);
    QCOMPARE(result.settings.proxy, s.proxy);
    QVERIFY(result.settings == s);
    QCOMPARE(result.settings.profile(QStringLiteral("qwen")).baseUrl,
             QUrl(QStringLiteral("https://gateway.example.com/qwen/v1")));
    for (const Llm::ProviderProfile &p : Llm::builtinProfiles())
        QVERIFY2(result.settings.profile(p.id).prices == (Llm::Prices{1.0 / 3, 0.4, 0.035, 2.5}), qPrintable(p.id));
    using namespace std::chrono_literals;
    for (const Llm::ProviderProfile &p : Llm::builtinProfiles())
        QVERIFY2(result.settings.profile(p.id).timeouts == (Llm::Timeouts{7s, 1800s, 90s}), qPrintable(p.id));
}

void tst_AppSettings::timeoutsAndProxyRoundTrip()
{
    using namespace std::chrono_literals;
    AppSettings s;
    // The built-in defaults: five minutes for a first event, so a reasoning model can think.
    QVERIFY(s.profile(QStringLiteral("deepseek")).timeouts == (Llm::Timeouts{15s, 300s, 60s}));
    s.setTimeout(QStringLiteral("deepseek"), Gui::TimeoutField::FirstByte, 900);
    s.setTimeout(QStringLiteral("deepseek"), Gui::TimeoutField::Idle, 60);  // the default: no override
    s.setTimeout(QStringLiteral("openai"), Gui::TimeoutField::Connect, 0);  // below the range: ignored
    s.setTimeout(QStringLiteral("openai"), Gui::TimeoutField::Idle, 99999); // above it: ignored
    QVERIFY(!s.providers.contains(QStringLiteral("openai")));
    QCOMPARE(s.providers.value(QStringLiteral("deepseek")).timeouts[2], std::nullopt);
    s.proxy = {Llm::ProxySettings::Mode::Http, QStringLiteral("10.0.0.1"), 8080, QStringLiteral("ann"),
               QStringLiteral("never saved")};
    {
        QSettings file(path(QStringLiteral("s.conf")), QSettings::IniFormat);
        SettingsFile::save(file, s);
    }
    QFile raw(path(QStringLiteral("s.conf")));
    QVERIFY(raw.open(QIODevice::ReadOnly));
    const QByteArray written = raw.readAll();
    QVERIFY(written.contains("timeouts\\firstByteSeconds=900"));
    QVERIFY(!written.contains("idleSeconds"));
    QVERIFY(!written.contains("never saved")); // the password belongs to the key store
    const auto result = loadFile(path(QStringLiteral("s.conf")));
    QVERIFY2(result.problems.isEmpty(), qPrintable(result.problems.join(QLatin1Char('\n'))));
    QVERIFY(result.settings.profile(QStringLiteral("deepseek")).timeouts == (Llm::Timeouts{15s, 900s, 60s}));
    QCOMPARE(result.settings.proxy.mode, Llm::ProxySettings::Mode::Http);
    QCOMPARE(result.settings.proxy.host, QStringLiteral("10.0.0.1"));
    QCOMPARE(result.settings.proxy.port, quint16(8080));
    QCOMPARE(result.settings.proxy.user, QStringLiteral("ann"));
    QVERIFY(result.settings.proxy.password.isEmpty());
    // The timeouts are not part of what a prefetch answers: the target is the same.
    QVERIFY(result.settings.profile(QStringLiteral("deepseek")).target()
            == AppSettings().profile(QStringLiteral("deepseek")).target());
}

void tst_AppSettings::savingDefaultsWritesAlmostNothing()
{
    QSettings file(path(QStringLiteral("s.conf")), QSettings::IniFormat);
    SettingsFile::save(file, AppSettings());
    // Defaults stay out of the file, so a better default in a later release reaches everyone.
    // The first endpoint's format is written: it says the endpoint is there (its name, while
    // the default, is not: it follows the language).
    QStringList keys = file.allKeys();
    keys.sort();
    QCOMPARE(keys, (QStringList{QStringLiteral("endpoints/custom/format"), QStringLiteral("general/firstRun"),
                                QStringLiteral("provider/id"), QStringLiteral("version")}));
}

void tst_AppSettings::saveLeavesOtherKeysAlone()
{
    QSettings file(path(QStringLiteral("s.conf")), QSettings::IniFormat);
    file.setValue(QStringLiteral("mainWindow/geometry"), QByteArray("xyz"));
    file.setValue(QStringLiteral("providers/retired/model"), QStringLiteral("old"));
    file.setValue(QStringLiteral("prefetch/hover/delayMs"), 400);
    AppSettings s;
    SettingsFile::save(file, s);
    QCOMPARE(file.value(QStringLiteral("mainWindow/geometry")).toByteArray(), QByteArray("xyz"));
    QVERIFY(!file.contains(QStringLiteral("providers/retired/model"))); // would be reported at every start
    QVERIFY(!file.contains(QStringLiteral("prefetch/hover/delayMs")));  // back to the default
}

void tst_AppSettings::badValue_data()
{
    QTest::addColumn<QString>("key");
    QTest::addColumn<QVariant>("value");
    QTest::addColumn<QString>("problem"); // a part of the one expected message

    const auto text = [](const char *s) { return QVariant(QString::fromUtf8(s)); };
    QTest::addRow("delay not a number") << "prefetch/hover/delayMs" << text("soon") << "not a number";
    QTest::addRow("delay negative") << "prefetch/hover/delayMs" << text("-5") << "outside";
    QTest::addRow("delay huge") << "prefetch/hover/delayMs" << text("99999999999999999999999") << "outside";
    QTest::addRow("delay fractional") << "prefetch/hover/delayMs" << text("150.5") << "not a whole number";
    QTest::addRow("delay list") << "prefetch/hover/delayMs" << QVariant(QStringList{"1", "2"}) << "not a number";
    QTest::addRow("ttl zero") << "prefetch/hover/ttlMs" << text("0") << "outside";
    QTest::addRow("ttl two hours") << "prefetch/debounce/ttlMs" << text("7200000") << "outside";
    QTest::addRow("confidence above one") << "prefetch/debounce/minConfidence" << text("1.5") << "outside";
    QTest::addRow("confidence nan") << "prefetch/debounce/minConfidence" << text("nan") << "not a number";
    QTest::addRow("confidence inf") << "prefetch/debounce/minConfidence" << text("inf") << "not a number";
    QTest::addRow("similarity negative") << "prefetch/debounce/similarityThreshold" << text("-0.1") << "outside";
    QTest::addRow("buffer too small") << "prefetch/bufferTokens" << text("5") << "outside";
    QTest::addRow("buffer too large") << "prefetch/bufferTokens" << text("20000") << "outside";
    QTest::addRow("foreground lane zero") << "prefetch/foregroundInFlight" << text("0") << "outside";
    QTest::addRow("prefetch lane zero") << "prefetch/prefetchInFlight" << text("0") << "outside";
    QTest::addRow("queue negative") << "prefetch/prefetchQueue" << text("-1") << "outside";
    QTest::addRow("budget negative") << "prefetch/hourlyTokenBudget" << text("-1") << "outside";
    QTest::addRow("money budget negative") << "prefetch/hourlyMoneyBudget" << text("-0.5") << "outside";
    QTest::addRow("money budget text") << "prefetch/hourlyMoneyBudget" << text("a dollar") << "not a number";
    QTest::addRow("warm-up interval 1 s") << "prefetch/warmup/intervalMs" << text("1000") << "outside";
    QTest::addRow("switch not a bool") << "prefetch/hover/enabled" << text("maybe") << "neither true nor false";
    QTest::addRow("classifier not a bool")
        << "prefetch/debounce/modelClassifier" << text("2") << "neither true nor false";
    QTest::addRow("etiquette not a bool")
        << "prefetch/etiquette/pauseOnBatteryAndMetered" << text("later") << "neither true nor false";
    QTest::addRow("hit rate percent") << "prefetch/alarms/hitRateFloor" << text("35") << "outside";
    QTest::addRow("metrics interval zero") << "prefetch/metrics/signalIntervalMs" << text("0") << "outside";
    QTest::addRow("unknown provider") << "provider/id" << text("skynet") << "unknown";
    QTest::addRow("provider id list") << "provider/id" << QVariant(QStringList{"a", "b"}) << "unknown";
    QTest::addRow("settings of unknown provider") << "providers/skynet/model" << text("t-800") << "unknown provider";
    QTest::addRow("empty url") << "providers/deepseek/baseUrl" << text("") << "was empty";
    QTest::addRow("ftp url") << "providers/deepseek/baseUrl" << text("ftp://api.deepseek.com/v1") << "not an http";
    QTest::addRow("url without host") << "providers/openai/baseUrl" << text("https://") << "not an http";
    QTest::addRow("not a url") << "providers/qwen/baseUrl" << text("api dot qwen") << "not an http";
    QTest::addRow("url for the local engine")
        << "providers/local/baseUrl" << text("http://127.0.0.1:1/v1") << "chooses the address";
    QTest::addRow("empty model") << "providers/openai/model" << text("") << "not a model name";
    QTest::addRow("concurrency zero") << "providers/ollama/concurrencyLimit" << text("0") << "concurrency limit";
    QTest::addRow("concurrency text") << "providers/ollama/concurrencyLimit" << text("many") << "concurrency limit";
    QTest::addRow("header with a key") << "providers/custom/extraHeaders" << text("Authorization: Bearer sk-1")
                                       << "key fields";
    QTest::addRow("header without colon") << "providers/custom/extraHeaders" << text("X-Team") << "Name: value";
    QTest::addRow("price negative") << "providers/deepseek/prices/input" << text("-0.27") << "not a price";
    QTest::addRow("price text") << "providers/openai/prices/output" << text("cheap") << "not a price";
    QTest::addRow("price nan") << "providers/anthropic/prices/cacheRead" << text("nan") << "not a price";
    QTest::addRow("price infinite") << "providers/qwen/prices/cacheWrite" << text("inf") << "not a price";
    QTest::addRow("price per token") << "providers/local/prices/output" << text("1100000") << "not a price";
    QTest::addRow("price list") << "providers/ollama/prices/input" << QVariant(QStringList{"1", "2"}) << "not a price";
    QTest::addRow("consent not a bool") << "providers/deepseek/prefetchConsent" << text("sure") << "stay off";
    QTest::addRow("timeout zero") << "providers/deepseek/timeouts/connectSeconds" << text("0") << "connect timeout";
    QTest::addRow("timeout fractional") << "providers/openai/timeouts/firstByteSeconds" << text("30.5")
                                        << "first byte timeout";
    QTest::addRow("timeout text") << "providers/local/timeouts/idleSeconds" << text("long")
                                  << "whole number of seconds";
    QTest::addRow("timeout two hours") << "providers/qwen/timeouts/firstByteSeconds" << text("7200")
                                       << "from 5 to 3600";
    QTest::addRow("proxy mode unknown") << "network/proxy/mode" << text("tor") << "proxy mode";
    QTest::addRow("proxy port zero") << "network/proxy/port" << text("0") << "proxy port";
    QTest::addRow("proxy port text") << "network/proxy/port" << text("http") << "proxy port";
    QTest::addRow("proxy host with space") << "network/proxy/host" << text("my proxy") << "proxy host";
    QTest::addRow("unknown language") << "ui/language" << text("tlh") << "not available";
    QTest::addRow("unknown log detail") << "log/detail" << text("everything") << "log detail";
    QTest::addRow("log detail list") << "log/detail" << QVariant(QStringList{"normal", "detailed"}) << "log detail";
    QTest::addRow("empty translate target") << "translate/targetLanguage" << text("") << "not a language name";
}

void tst_AppSettings::badValue()
{
    QFETCH(QString, key);
    QFETCH(QVariant, value);
    QFETCH(QString, problem);
    {
        QSettings file(path(QStringLiteral("s.conf")), QSettings::IniFormat);
        file.setValue(key, value);
    }
    const auto result = loadFile(path(QStringLiteral("s.conf")));
    QCOMPARE(result.problems.size(), 1);
    QVERIFY2(result.problems.constFirst().contains(problem), qPrintable(result.problems.constFirst()));
    // The bad value is replaced by its default; nothing else changes.
    QVERIFY(result.settings == AppSettings());
    QVERIFY(
        PrefetchParameters::same(result.settings.effectivePrefetch(result.settings.providerId), Prefetch::Settings()));
}

void tst_AppSettings::problemTextSaysWhatAndWhatInstead()
{
    {
        QSettings file(path(QStringLiteral("s.conf")), QSettings::IniFormat);
        file.setValue(QStringLiteral("prefetch/hover/delayMs"), QStringLiteral("soon"));
        file.setValue(QStringLiteral("prefetch/hover/ttlMs"), QStringLiteral("0"));
        file.setValue(QStringLiteral("providers/deepseek/baseUrl"), QString());
    }
    const auto result = loadFile(path(QStringLiteral("s.conf")));
    QCOMPARE(result.problems.size(), 3);
    QVERIFY(result.problems.contains(
        QStringLiteral("The hover delay in the settings file was not a number; using 150 ms.")));
    QVERIFY(result.problems.contains(
        QStringLiteral("The hover answer lifetime in the settings file (0) was outside 1 s to 3600 s; using 30 s.")));
    QVERIFY(result.problems.contains(
        QStringLiteral("The base URL of DeepSeek in the settings file was empty; using https://api.deepseek.com/v1.")));
}

void tst_AppSettings::prefetchLaneAboveForegroundIsPulledIn()
{
    {
        QSettings file(path(QStringLiteral("s.conf")), QSettings::IniFormat);
        file.setValue(QStringLiteral("prefetch/foregroundInFlight"), 1);
        file.setValue(QStringLiteral("prefetch/prefetchInFlight"), 5);
    }
    const auto result = loadFile(path(QStringLiteral("s.conf")));
    QCOMPARE(result.problems.size(), 1);
    QVERIFY2(result.problems.constFirst().contains(QLatin1String("larger than the foreground lane")),
             qPrintable(result.problems.constFirst()));
    QCOMPARE(result.settings.prefetch.foregroundInFlight, 1);
    QCOMPARE(result.settings.prefetch.prefetchInFlight, 1);
}

void tst_AppSettings::resumeAboveCeilingIsPulledIn()
{
    {
        QSettings file(path(QStringLiteral("s.conf")), QSettings::IniFormat);
        file.setValue(QStringLiteral("prefetch/alarms/extraCostCeiling"), 0.3);
        file.setValue(QStringLiteral("prefetch/alarms/extraCostResume"), 0.9);
    }
    const auto result = loadFile(path(QStringLiteral("s.conf")));
    QCOMPARE(result.problems.size(), 1);
    QCOMPARE(result.settings.prefetch.extraCostCeiling, 0.3);
    QCOMPARE(result.settings.prefetch.extraCostResume, 0.3);
}

void tst_AppSettings::unreadableFile_data()
{
    QTest::addColumn<QByteArray>("content");
    QTest::addRow("binary") << QByteArray("\x00\x01\x02\xff\xfe\x7f garbage\n\x1b[0m", 20);
    QTest::addRow("prose") << QByteArray("These are not the settings you are looking for.\nMove along.\n");
    QTest::addRow("json") << QByteArray("{\"prefetch\": {\"hover\": {\"delayMs\": 150}}}");
    QTest::addRow("unterminated section") << QByteArray("[prefetch\nhover\\delayMs=300\n");
    QTest::addRow("half a file") << QByteArray("[prefetch]\nhover\\delayMs=300\nhover\\ttl");
}

void tst_AppSettings::unreadableFile()
{
    QFETCH(QByteArray, content);
    const QString file = path(QStringLiteral("s.conf"));
    for (const QString &old : QDir(m_dir.path()).entryList({QStringLiteral("s.conf.damaged*")}))
        QFile::remove(m_dir.filePath(old));
    {
        QFile f(file);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(content);
    }
    {
        QSettings settings(file, QSettings::IniFormat);
        const auto result = SettingsFile::load(settings);
        QCOMPARE(result.problems.size(), 1);
        QVERIFY2(result.problems.constFirst().contains(QLatin1String("could not be read")),
                 qPrintable(result.problems.constFirst()));
        QVERIFY2(result.problems.constFirst().contains(QLatin1String("s.conf.damaged-1")),
                 qPrintable(result.problems.constFirst()));
        // The user's bytes survive; saving replaces the damaged file with a readable one.
        QFile kept(file + QStringLiteral(".damaged-1"));
        QVERIFY(kept.open(QIODevice::ReadOnly));
        QCOMPARE(kept.readAll(), content);
        QCOMPARE(kept.permissions() & ~(QFileDevice::ReadUser | QFileDevice::WriteUser),
                 QFileDevice::ReadOwner | QFileDevice::WriteOwner);
        AppSettings changed = result.settings;
        changed.prefetch.hover.delay = std::chrono::milliseconds(250);
        SettingsFile::save(settings, changed);
    }
    const auto reread = loadFile(file);
    QVERIFY2(reread.problems.isEmpty(), qPrintable(reread.problems.join(QLatin1Char('\n'))));
    QCOMPARE(reread.settings.prefetch.hover.delay, std::chrono::milliseconds(250));
}

void tst_AppSettings::oneBadLineKeepsEveryOtherValue()
{
    const QString file = path(QStringLiteral("s.conf"));
    for (const QString &old : QDir(m_dir.path()).entryList({QStringLiteral("s.conf.damaged*")}))
        QFile::remove(m_dir.filePath(old));
    // What a user has: several values changed from their defaults, in three sections.
    AppSettings mine;
    mine.providerId = QStringLiteral("deepseek");
    mine.uiLanguage = QStringLiteral("zh_CN");
    mine.translateTarget = QStringLiteral("German");
    mine.firstRun = false;
    mine.prefetch.hover.delay = std::chrono::milliseconds(420);
    mine.prefetch.debounce.minChars = 33;
    mine.setModel(QStringLiteral("deepseek"), QStringLiteral("deepseek-v4-pro"));
    {
        QSettings settings(file, QSettings::IniFormat);
        SettingsFile::save(settings, mine);
    }
    QFile f(file);
    QVERIFY(f.open(QIODevice::ReadOnly));
    const QByteArray good = f.readAll();
    f.close();
    QVERIFY2(good.contains("delayMs=420"), good.constData());

    for (int damage = 1; damage <= 3; ++damage) {
        // Each start finds a new damage: a garbage line, and a value of the wrong type.
        QByteArray bad = good;
        bad.replace("delayMs=420", "delayMs=420\n\x01garbage line " + QByteArray::number(damage));
        bad.replace("minChars=33", "minChars=thirty-three");
        QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
        f.write(bad);
        f.close();
        {
            QSettings settings(file, QSettings::IniFormat);
            const auto result = SettingsFile::load(settings);
            const QString problems = result.problems.join(QLatin1Char('\n'));
            // Every value that still reads is the user's; the wrong-typed one is its default.
            QCOMPARE(result.settings.providerId, mine.providerId);
            QCOMPARE(result.settings.uiLanguage, mine.uiLanguage);
            QCOMPARE(result.settings.translateTarget, mine.translateTarget);
            QCOMPARE(result.settings.firstRun, false);
            QCOMPARE(result.settings.prefetch.hover.delay, std::chrono::milliseconds(420));
            QCOMPARE(result.settings.prefetch.debounce.minChars, Prefetch::Settings().debounce.minChars);
            QCOMPARE(result.settings.profile(QStringLiteral("deepseek")).model, QStringLiteral("deepseek-v4-pro"));
            // The user is told which line was dropped and which value was reset.
            QCOMPARE(result.problems.size(), 2);
            QVERIFY2(problems.contains(QStringLiteral("garbage line %1").arg(damage)), qPrintable(problems));
            QVERIFY2(problems.contains(QLatin1String("minimum draft length")), qPrintable(problems));
            QVERIFY2(problems.contains(QStringLiteral("s.conf.damaged-%1").arg(damage)), qPrintable(problems));
            SettingsFile::save(settings, result.settings); // what the app does at start
        }
        // Copies accumulate: none is written over.
        for (int n = 1; n <= damage; ++n) {
            QFile kept(file + QStringLiteral(".damaged-%1").arg(n));
            QVERIFY(kept.open(QIODevice::ReadOnly));
            QVERIFY(kept.readAll().contains("garbage line " + QByteArray::number(n)));
        }
        QVERIFY(!QFileInfo::exists(file + QStringLiteral(".damaged-%1").arg(damage + 1)));
    }
    // After saving, the file reads cleanly again with the user's values.
    const auto reread = loadFile(file);
    QVERIFY2(reread.problems.isEmpty(), qPrintable(reread.problems.join(QLatin1Char('\n'))));
    QCOMPARE(reread.settings.prefetch.hover.delay, std::chrono::milliseconds(420));
    QCOMPARE(reread.settings.providerId, mine.providerId);
}

void tst_AppSettings::sameDamageIsCopiedOnceAndOnlyTheLastFewStay()
{
    const QString file = path(QStringLiteral("pile.conf"));
    const auto copies = [this] {
        QStringList names = QDir(m_dir.path()).entryList({QStringLiteral("pile.conf.damaged*")});
        names.sort();
        return names;
    };
    int starts = 0;
    const auto damage = [&file, &starts](const QByteArray &garbage) {
        QFile f(file);
        QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
        f.write("[ui]\nlanguage=zh_CN\n" + garbage + "\n");
        // A new time stamp, as a later start sees: QSettings keeps a file's parse in this
        // process for as long as its time stamp is unchanged.
        QVERIFY(f.setFileTime(QDateTime::currentDateTime().addSecs(++starts), QFileDevice::FileModificationTime));
    };
    // Before issue 36 every start that found the file unchanged made another copy.
    for (int start = 0; start < 3; ++start) {
        damage("\x01garbage A"); // the same bytes: the file was never written again
        QSettings settings(file, QSettings::IniFormat);
        const auto result = SettingsFile::load(settings);
        QVERIFY(result.damaged);
        QVERIFY2(result.problems.join(u' ').contains(QLatin1String("pile.conf.damaged-1")),
                 qPrintable(result.problems.join(u' ')));
    }
    QCOMPARE(copies(), QStringList{QStringLiteral("pile.conf.damaged-1")});
    // New damage each time: a copy each, and only the newest three stay.
    for (const char *garbage : {"\x01garbage B", "\x01garbage C", "\x01garbage D", "\x01garbage E"}) {
        damage(garbage);
        QSettings settings(file, QSettings::IniFormat);
        QVERIFY(SettingsFile::load(settings).damaged);
    }
    QCOMPARE(copies(), (QStringList{QStringLiteral("pile.conf.damaged-3"), QStringLiteral("pile.conf.damaged-4"),
                                    QStringLiteral("pile.conf.damaged-5")}));
    QFile newest(file + QStringLiteral(".damaged-5"));
    QVERIFY(newest.open(QIODevice::ReadOnly));
    QVERIFY(newest.readAll().contains("garbage E"));
    QCOMPARE(newest.permissions()
                 & ~(QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ReadUser | QFileDevice::WriteUser),
             QFileDevice::Permissions());
}

void tst_AppSettings::damagedProviderLineIsNotDroppedSilently()
{
    const QString file = path(QStringLiteral("provider.conf"));
    AppSettings mine;
    mine.providerId = QStringLiteral("deepseek");
    mine.setModel(QStringLiteral("deepseek"), QStringLiteral("deepseek-v4-pro"));
    {
        QSettings settings(file, QSettings::IniFormat);
        SettingsFile::save(settings, mine);
    }
    QFile f(file);
    QVERIFY(f.open(QIODevice::ReadOnly));
    QByteArray bytes = f.readAll();
    f.close();
    QVERIFY2(bytes.contains("id=deepseek"), bytes.constData());
    bytes.replace("id=deepseek", "id\x01"
                                 "deep\x02"
                                 "seek"); // the one line a bad sector took
    QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
    f.write(bytes);
    f.close();
    QSettings settings(file, QSettings::IniFormat);
    const auto result = SettingsFile::load(settings);
    QCOMPARE(result.settings.providerId, QStringLiteral("local"));
    const QString problems = result.problems.join(QLatin1Char('\n'));
    QVERIFY2(problems.contains(QLatin1String("Which provider you chose could not be read")), qPrintable(problems));
    QVERIFY2(problems.contains(QLatin1String("Settings, Providers")), qPrintable(problems));
}

void tst_AppSettings::retiredModelIsReplacedAndSaid()
{
    // Chosen before DeepSeek retired the name on 2026-07-24: every request would now fail.
    const QString file = path(QStringLiteral("retired.conf"));
    {
        QSettings settings(file, QSettings::IniFormat);
        settings.setValue(QStringLiteral("provider/id"), QStringLiteral("deepseek"));
        settings.setValue(QStringLiteral("providers/deepseek/model"), QStringLiteral("deepseek-chat"));
        settings.setValue(QStringLiteral("providers/deepseek/fastModel"), QStringLiteral("deepseek-reasoner"));
    }
    const auto result = loadFile(file);
    QCOMPARE(result.settings.profile(QStringLiteral("deepseek")).model, QStringLiteral("deepseek-flash"));
    QCOMPARE(result.settings.profile(QStringLiteral("deepseek")).fastModel, QStringLiteral("deepseek-flash"));
    const QString problems = result.problems.join(QLatin1Char('\n'));
    QCOMPARE(result.problems.size(), 2);
    QVERIFY2(problems.contains(QLatin1String("retired the model deepseek-chat"))
                 && problems.contains(QLatin1String("deepseek-flash")),
             qPrintable(problems));
}

void tst_AppSettings::learnedRefusalsSurviveARestartAndGoWithTheModel()
{
    // A Claude the catalogue thought could continue (Haiku 4.5), refusing prefill and temperature.
    AppSettings s;
    s.providerId = QStringLiteral("anthropic");
    s.setModel(s.providerId, QStringLiteral("claude-haiku-4-5"));
    QVERIFY(s.profile(s.providerId).canContinue());
    QVERIFY(s.profile(s.providerId).encodeOptions.acceptsTemperature);
    s.learnRefusal(s.providerId, QStringLiteral("claude-haiku-4-5"), Llm::RefusedFeature::Continuation);
    s.learnRefusal(s.providerId, QStringLiteral("claude-haiku-4-5"), Llm::RefusedFeature::Temperature);
    QVERIFY(!s.profile(s.providerId).canContinue());
    const QString file = path(QStringLiteral("learned.conf"));
    {
        QSettings settings(file, QSettings::IniFormat);
        SettingsFile::save(settings, s);
    }
    // The next start: still not sent.
    const auto reread = loadFile(file);
    QVERIFY2(reread.problems.isEmpty(), qPrintable(reread.problems.join(u' ')));
    QCOMPARE(reread.settings, s);
    QVERIFY(!reread.settings.profile(s.providerId).canContinue());
    QVERIFY(!reread.settings.profile(s.providerId).encodeOptions.acceptsTemperature);
    // Another model for the provider: what the old one refused is forgotten.
    AppSettings changed = reread.settings;
    changed.setModel(s.providerId, QStringLiteral("claude-sonnet-4-6"));
    QVERIFY(changed.learned.entries().isEmpty());
    QVERIFY(changed.profile(s.providerId).encodeOptions.acceptsTemperature);
}

void tst_AppSettings::consentGatesEverySignalThatSendsUnaskedText()
{
    AppSettings s;
    // The local engine needs none.
    QVERIFY(!AppSettings::needsPrefetchConsent(s.profile(QStringLiteral("local"))));
    QVERIFY(PrefetchParameters::same(s.effectivePrefetch(QStringLiteral("local")), s.prefetch));
    QVERIFY(!AppSettings::needsPrefetchConsent(s.profile(QStringLiteral("ollama"))));
    QVERIFY(s.effectivePrefetch(QStringLiteral("ollama")).hover.enabled);

    for (const char *cloud : {"deepseek", "qwen", "openai", "anthropic", "custom"}) {
        const QString id = QLatin1String(cloud);
        QVERIFY2(AppSettings::needsPrefetchConsent(s.profile(id)), cloud);
        Prefetch::Settings e = s.effectivePrefetch(id);
        QVERIFY2(!e.hover.enabled && !e.debounce.enabled, cloud);
        // The early signals guess from less still: the same consent covers them.
        QVERIFY2(!e.trajectory.enabled && !e.selection.enabled && !e.keyboard.enabled && !e.reading.enabled
                     && !e.habits.enabled,
                 cloud);
        QVERIFY2(e.warmup.enabled && e.workflow.enabled, cloud); // not gated; see effectivePrefetch()
        QCOMPARE(e.hover.delay, s.prefetch.hover.delay);         // parameters untouched
        QCOMPARE(e.selection.settle, s.prefetch.selection.settle);

        s.setPrefetchConsent(id, true);
        e = s.effectivePrefetch(id);
        QVERIFY2(e.hover.enabled && e.debounce.enabled, cloud);
        QVERIFY2(e.trajectory.enabled && e.selection.enabled && e.keyboard.enabled && e.reading.enabled
                     && e.habits.enabled,
                 cloud);
        // Consent never switches on a strategy the user switched off.
        AppSettings off = s;
        off.prefetch.hover.enabled = false;
        QVERIFY2(!off.effectivePrefetch(id).hover.enabled, cloud);
        QVERIFY2(off.effectivePrefetch(id).debounce.enabled, cloud);
        off.prefetch.selection.enabled = false;
        QVERIFY2(!off.effectivePrefetch(id).selection.enabled, cloud);
        QVERIFY2(off.effectivePrefetch(id).trajectory.enabled, cloud);
    }
    // The stored choices are not touched by the gating.
    QVERIFY(s.prefetch.hover.enabled && s.prefetch.debounce.enabled);
}

void tst_AppSettings::remoteLocalServerNeedsConsent()
{
    AppSettings s;
    s.setBaseUrl(QStringLiteral("ollama"), QUrl(QStringLiteral("http://gpu-box.example.net:11434/v1")));
    QVERIFY(s.profile(QStringLiteral("ollama")).isCloud);
    QVERIFY(!s.effectivePrefetch(QStringLiteral("ollama")).hover.enabled);
    QVERIFY(!s.effectivePrefetch(QStringLiteral("ollama")).trajectory.enabled);
    s.setBaseUrl(QStringLiteral("ollama"), QUrl(QStringLiteral("http://127.0.0.1:11434/v1")));
    QVERIFY(!s.profile(QStringLiteral("ollama")).isCloud);
    s.setBaseUrl(QStringLiteral("llamacpp"), QUrl(QStringLiteral("http://[::1]:8080/v1")));
    QVERIFY(!s.profile(QStringLiteral("llamacpp")).isCloud);
}

void tst_AppSettings::settersDropOverridesEqualToDefaults()
{
    AppSettings s;
    s.setModel(QStringLiteral("openai"), QStringLiteral("gpt-4.1"));
    QVERIFY(s.providers.contains(QStringLiteral("openai")));
    s.setModel(QStringLiteral("openai"), Llm::builtinProfile(u"openai").model);
    QVERIFY(s.providers.isEmpty());
    s.setConcurrencyLimit(QStringLiteral("openai"), 8);                                   // the default
    s.setBaseUrl(QStringLiteral("local"), QUrl(QStringLiteral("http://127.0.0.1:9/v1"))); // chosen by the app
    s.setModel(QStringLiteral("skynet"), QStringLiteral("t-800"));
    QVERIFY(s.providers.isEmpty());
    QVERIFY(s.providers.isEmpty());
    QVERIFY(s == AppSettings());
    // A consent answer is never a default: "Not now" is kept as well as Allow, so the question
    // is not asked again at every start.
    s.setPrefetchConsent(QStringLiteral("qwen"), true);
    s.setPrefetchConsent(QStringLiteral("qwen"), false);
    QVERIFY(s.providers.contains(QStringLiteral("qwen")));
}

void tst_AppSettings::consentIsAskedOnceAndEitherAnswerIsKept()
{
    AppSettings s;
    const QString id = QStringLiteral("deepseek");
    QCOMPARE(s.prefetchConsent(QStringLiteral("local")), Prefetch::Consent::NotNeeded);
    QCOMPARE(s.prefetchConsent(id), Prefetch::Consent::NotAnswered);
    QVERIFY(!s.hasConsentAnswer(id));
    {
        QSettings file(path(QStringLiteral("s.conf")), QSettings::IniFormat);
        SettingsFile::save(file, s);
        QVERIFY(!file.contains(QStringLiteral("providers/deepseek/prefetchConsent"))); // not asked: nothing written
    }
    s.setPrefetchConsent(id, false); // Not now
    QCOMPARE(s.prefetchConsent(id), Prefetch::Consent::Declined);
    QVERIFY(!s.effectivePrefetch(id).hover.enabled);
    {
        QSettings file(path(QStringLiteral("s.conf")), QSettings::IniFormat);
        SettingsFile::save(file, s);
    }
    SettingsFile::LoadResult loaded = loadFile(path(QStringLiteral("s.conf")));
    QVERIFY(loaded.problems.isEmpty());
    QCOMPARE(loaded.settings.prefetchConsent(id), Prefetch::Consent::Declined);
    QCOMPARE(loaded.settings.prefetchConsent(QStringLiteral("qwen")), Prefetch::Consent::NotAnswered);

    loaded.settings.setPrefetchConsent(id, true); // Allow, later (the bar or Settings)
    {
        QSettings file(path(QStringLiteral("s.conf")), QSettings::IniFormat);
        SettingsFile::save(file, loaded.settings);
    }
    const AppSettings again = loadFile(path(QStringLiteral("s.conf"))).settings;
    QCOMPARE(again.prefetchConsent(id), Prefetch::Consent::Given);
    QVERIFY(again.effectivePrefetch(id).hover.enabled);
    QCOMPARE(again.prefetchConsent(QStringLiteral("anthropic")), Prefetch::Consent::NotAnswered); // per provider
}

void tst_AppSettings::fastModelRoundTripsAndAnUnknownOneIsPricedAsTheMain()
{
    const Llm::ProviderProfile builtin = Llm::builtinProfile(u"anthropic");
    AppSettings s;
    QCOMPARE(s.profile(builtin.id).fastModel, QStringLiteral("claude-haiku-5-5"));
    QCOMPARE(s.profile(builtin.id).pricesFor(QStringLiteral("claude-haiku-5-5")), builtin.fastPrices);
    QVERIFY(builtin.fastPrices != builtin.prices); // Haiku 5.5's own, from the model catalogue
    QCOMPARE(s.profile(builtin.id).pricesFor(builtin.model), builtin.prices);
    // The built-in name is no override; another is, and its prices are the main model's.
    s.setFastModel(builtin.id, builtin.fastModel);
    QVERIFY(!s.providers.contains(builtin.id));
    s.setFastModel(builtin.id, QStringLiteral("claude-haiku-9"));
    s.setPrice(builtin.id, Gui::PriceField::Output, 12.5);
    const Llm::ProviderProfile changed = s.profile(builtin.id);
    QCOMPARE(changed.fastModel, QStringLiteral("claude-haiku-9"));
    QCOMPARE(changed.pricesFor(QStringLiteral("claude-haiku-9")), changed.prices);
    QCOMPARE(changed.pricesFor(QStringLiteral("claude-haiku-9")).output, 12.5);
    // The local demo engine's is fixed.
    s.setFastModel(QStringLiteral("local"), QStringLiteral("other"));
    QCOMPARE(s.profile(QStringLiteral("local")).fastModel, QStringLiteral("headstart-local-small"));

    const QString file = path(QStringLiteral("s.conf"));
    {
        QSettings settings(file, QSettings::IniFormat);
        SettingsFile::save(settings, s);
    }
    const auto loaded = loadFile(file);
    QCOMPARE(loaded.settings.profile(builtin.id).fastModel, QStringLiteral("claude-haiku-9"));
    QVERIFY(loaded.problems.isEmpty());
    {
        QSettings settings(file, QSettings::IniFormat);
        settings.setValue(QStringLiteral("providers/anthropic/fastModel"), QString());
    }
    const auto broken = loadFile(file);
    QCOMPARE(broken.settings.profile(builtin.id).fastModel, builtin.fastModel);
    QCOMPARE(broken.problems.size(), 1);
    QVERIFY2(broken.problems.first().contains(QStringLiteral("fast model")), qPrintable(broken.problems.first()));
}

void tst_AppSettings::pricesApplyToTheProfileFigureByFigure()
{
    const Llm::Prices builtin = Llm::builtinProfile(u"anthropic").prices;
    AppSettings s;
    s.setPrice(QStringLiteral("anthropic"), Gui::PriceField::Output, 12.5);
    s.setPrice(QStringLiteral("anthropic"), Gui::PriceField::CacheWrite, 6.0);
    Llm::Prices expected = builtin;
    expected.output = 12.5;
    expected.cacheWrite = 6.0;
    QCOMPARE(s.profile(QStringLiteral("anthropic")).prices, expected);
    QCOMPARE(s.profile(QStringLiteral("openai")).prices, Llm::builtinProfile(u"openai").prices);
    // A server on this machine bills nothing until told otherwise; then it is priced.
    QVERIFY(s.profile(QStringLiteral("ollama")).prices.isFree());
    s.setPrice(QStringLiteral("ollama"), Gui::PriceField::Output, 0.5);
    QVERIFY(!s.profile(QStringLiteral("ollama")).prices.isFree());

    // Only what differs from the built-in figure is kept: a corrected default reaches the rest.
    QVERIFY(!s.providers.value(QStringLiteral("anthropic")).prices[size_t(Gui::PriceField::Input)]);
    s.setPrice(QStringLiteral("anthropic"), Gui::PriceField::Output, builtin.output);
    s.setPrice(QStringLiteral("anthropic"), Gui::PriceField::CacheWrite, std::nullopt);
    QVERIFY(!s.providers.contains(QStringLiteral("anthropic")));

    // What is not a price is no override.
    for (double bad : {-1.0, std::nan(""), HUGE_VAL, Gui::Limits::MaxPricePerMillion * 2}) {
        s.setPrice(QStringLiteral("deepseek"), Gui::PriceField::Input, bad);
        QCOMPARE(s.profile(QStringLiteral("deepseek")).prices, Llm::builtinProfile(u"deepseek").prices);
    }
    s.setPrice(QStringLiteral("skynet"), Gui::PriceField::Input, 1.0);
    s.setPrices(QStringLiteral("ollama"), Llm::Prices{});
    QVERIFY(s == AppSettings());
}

void tst_AppSettings::brokenPricesFallBackOneByOne()
{
    {
        QSettings file(path(QStringLiteral("s.conf")), QSettings::IniFormat);
        file.setValue(QStringLiteral("providers/deepseek/prices/input"), QStringLiteral("-1"));
        file.setValue(QStringLiteral("providers/deepseek/prices/cacheRead"), QStringLiteral("free"));
        file.setValue(QStringLiteral("providers/deepseek/prices/output"), QStringLiteral("2.5"));
    }
    const auto result = loadFile(path(QStringLiteral("s.conf")));
    QCOMPARE(result.problems.size(), 2);
    QVERIFY(result.problems.contains(QStringLiteral(
        "The input price of DeepSeek in the settings file (-1) is not a price per million tokens from 0 to 10000; "
        "using $0.30 per million tokens.")));
    QVERIFY(result.problems.contains(QStringLiteral(
        "The cache read price of DeepSeek in the settings file (free) is not a price per million tokens from 0 to "
        "10000; using $0.006 per million tokens.")));
    Llm::Prices expected = Llm::builtinProfile(u"deepseek").prices;
    expected.output = 2.5; // the good figure is kept
    QCOMPARE(result.settings.profile(QStringLiteral("deepseek")).prices, expected);
}

void tst_AppSettings::headersParseAndRejectKeys()
{
    const auto ok = ProviderOverrides::parseHeaders(
        QStringLiteral("X-Team: writers\n\n  HTTP-Referer :  https://x.example  \n"));
    QVERIFY(ok);
    QCOMPARE(*ok, (Gui::HeaderList{{"X-Team", "writers"}, {"HTTP-Referer", "https://x.example"}}));
    QCOMPARE(ProviderOverrides::formatHeaders(*ok), QStringLiteral("X-Team: writers\nHTTP-Referer: https://x.example"));
    QVERIFY(!ProviderOverrides::parseHeaders(QStringLiteral("x-api-key: sk-ant-123")));
    QVERIFY(!ProviderOverrides::parseHeaders(QStringLiteral("Bad Name: x")));
    QVERIFY(!ProviderOverrides::parseHeaders(QStringLiteral(": x")));
    QVERIFY(ProviderOverrides::parseHeaders(QString())->isEmpty());
}

void tst_AppSettings::keysNeverReachTheSettingsFile()
{
    AppSettings s;
    s.providerId = QStringLiteral("deepseek");
    s.setPrefetchConsent(QStringLiteral("deepseek"), true);
    s.setModel(QStringLiteral("deepseek"), QStringLiteral("deepseek-v4-pro"));
    QVERIFY(s.profile(QStringLiteral("deepseek")).apiKey.isEmpty());
    QVERIFY(s.profile(QStringLiteral("deepseek")).prefetchApiKey.isEmpty());
    {
        QSettings file(path(QStringLiteral("s.conf")), QSettings::IniFormat);
        SettingsFile::save(file, s);
    }
    QFile f(path(QStringLiteral("s.conf")));
    QVERIFY(f.open(QIODevice::ReadOnly));
    const QByteArray bytes = f.readAll().toLower();
    QVERIFY(bytes.contains("deepseek-v4-pro"));
    QVERIFY(!bytes.contains("key="));
    QVERIFY(!bytes.contains("apikey"));
    QVERIFY(!bytes.contains("api-key"));
}

void tst_AppSettings::sessionFilesKeepTheirOrderAndDropWhatIsNotAPath()
{
    QTemporaryDir dir;
    QSettings settings(dir.filePath(QStringLiteral("s.conf")), QSettings::IniFormat);
    QVERIFY(SettingsFile::sessionFiles(settings).isEmpty());
    SettingsFile::setSessionFiles(settings, {QStringLiteral("/docs/b.md"), QStringLiteral("relative.md"),
                                             QStringLiteral("/docs/a.md"), QStringLiteral("/docs/b.md")});
    QCOMPARE(SettingsFile::sessionFiles(settings), QStringList({QStringLiteral("/docs/b.md"), QStringLiteral("/docs/a.md")}));
    // A hand-edited or damaged entry is dropped, the rest kept.
    settings.setValue(QStringLiteral("sessionFiles"), QVariantList{QStringLiteral("/docs/c.md"), 42, QString()});
    QCOMPARE(SettingsFile::sessionFiles(settings), QStringList{QStringLiteral("/docs/c.md")});
    // Bounded.
    QStringList many;
    for (int i = 0; i < SettingsFile::MaxSessionFiles + 5; ++i)
        many << QStringLiteral("/docs/%1.md").arg(i);
    SettingsFile::setSessionFiles(settings, many);
    QCOMPARE(SettingsFile::sessionFiles(settings).size(), SettingsFile::MaxSessionFiles);
    QCOMPARE(SettingsFile::sessionFiles(settings).constFirst(), QStringLiteral("/docs/0.md"));
}

void tst_AppSettings::recentFilesAreNewestFirstAndBounded()
{
    const QString file = path(QStringLiteral("s.conf"));
    {
        QSettings settings(file, QSettings::IniFormat);
        QVERIFY(SettingsFile::recentFiles(settings).isEmpty());
        for (int i = 0; i < 12; ++i)
            SettingsFile::addRecentFile(settings, QStringLiteral("/docs/%1.md").arg(i));
        SettingsFile::addRecentFile(settings, QStringLiteral("/docs/5.md")); // again: moves to the top
        const QStringList recent = SettingsFile::recentFiles(settings);
        QCOMPARE(recent.size(), SettingsFile::MaxRecentFiles);
        QCOMPARE(recent.first(), QStringLiteral("/docs/5.md"));
        QCOMPARE(recent.at(1), QStringLiteral("/docs/11.md"));
        QCOMPARE(recent.count(QStringLiteral("/docs/5.md")), 1);
        QVERIFY(!recent.contains(QStringLiteral("/docs/0.md")));
        // Saving the rest of the settings leaves the list alone.
        SettingsFile::save(settings, AppSettings());
        QCOMPARE(SettingsFile::recentFiles(settings), recent);
    }
    // Hand-edited: one entry, relative paths, duplicates and junk.
    {
        QFile f(file);
        QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
        f.write("recentFiles=/one.md\n");
    }
    {
        QSettings settings(file, QSettings::IniFormat);
        QCOMPARE(SettingsFile::recentFiles(settings), QStringList{QStringLiteral("/one.md")});
        settings.setValue(QStringLiteral("recentFiles"),
                          QVariantList{QStringLiteral("relative.md"), 42, QStringLiteral("/a.md"),
                                       QStringLiteral("/a.md"), QString()});
        QCOMPARE(SettingsFile::recentFiles(settings), QStringList{QStringLiteral("/a.md")});
    }
}

void tst_AppSettings::textSizeRoundTripsAndABadOneIsReported()
{
    const QString key = QStringLiteral("appearance/textSizePercent");
    AppSettings s;
    QCOMPARE(s.textSizePercent, 100);
    s.textSizePercent = 140;
    {
        QSettings file(path(QStringLiteral("t.conf")), QSettings::IniFormat);
        SettingsFile::save(file, s);
        QCOMPARE(file.value(key).toInt(), 140);
    }
    auto result = loadFile(path(QStringLiteral("t.conf")));
    QVERIFY2(result.problems.isEmpty(), qPrintable(result.problems.join(QLatin1Char('\n'))));
    QCOMPARE(result.settings.textSizePercent, 140);
    QVERIFY(result.settings == s);
    for (const char *bad : {"20", "900", "big"}) {
        {
            QSettings file(path(QStringLiteral("t.conf")), QSettings::IniFormat);
            file.setValue(key, QLatin1String(bad));
        }
        result = loadFile(path(QStringLiteral("t.conf")));
        QCOMPARE(result.settings.textSizePercent, 100);
        QCOMPARE(result.problems.size(), 1);
        QVERIFY2(result.problems.first().contains(QLatin1String("text size")), qPrintable(result.problems.first()));
    }
}

void tst_AppSettings::colorSchemeRoundTripsAndABadOneIsReported()
{
    const QString key = QStringLiteral("appearance/colorScheme");
    AppSettings s;
    QCOMPARE(s.colorScheme, Gui::ColorScheme::System);
    for (const auto &[scheme, spelt] :
         {std::pair{Gui::ColorScheme::Dark, "dark"}, std::pair{Gui::ColorScheme::Light, "light"}}) {
        s.colorScheme = scheme;
        {
            QSettings file(path(QStringLiteral("c.conf")), QSettings::IniFormat);
            SettingsFile::save(file, s);
            QCOMPARE(file.value(key).toString(), QLatin1String(spelt));
        }
        const auto result = loadFile(path(QStringLiteral("c.conf")));
        QVERIFY2(result.problems.isEmpty(), qPrintable(result.problems.join(QLatin1Char('\n'))));
        QCOMPARE(result.settings.colorScheme, scheme);
        QVERIFY(result.settings == s);
    }
    // Back to the desktop's: the key goes, so a later default is followed.
    s.colorScheme = Gui::ColorScheme::System;
    {
        QSettings file(path(QStringLiteral("c.conf")), QSettings::IniFormat);
        SettingsFile::save(file, s);
        QVERIFY(!file.contains(key));
        file.setValue(key, QStringLiteral("purple"));
    }
    const auto result = loadFile(path(QStringLiteral("c.conf")));
    QCOMPARE(result.settings.colorScheme, Gui::ColorScheme::System);
    QCOMPARE(result.problems.size(), 1);
    QVERIFY2(result.problems.first().contains(QLatin1String("colour scheme")), qPrintable(result.problems.first()));
}

void tst_AppSettings::etiquetteIsOnByDefaultAndOffSurvives()
{
    const QString key = QStringLiteral("prefetch/etiquette/pauseOnBatteryAndMetered");
    AppSettings s;
    QVERIFY(s.prefetch.pauseOnBatteryAndMetered);
    // Not a signal that sends anything: no consent gates it, for any provider.
    s.providerId = QStringLiteral("openai");
    QVERIFY(s.effectivePrefetch(s.providerId).pauseOnBatteryAndMetered);

    s.prefetch.pauseOnBatteryAndMetered = false;
    {
        QSettings file(path(QStringLiteral("s.conf")), QSettings::IniFormat);
        SettingsFile::save(file, s);
        QCOMPARE(file.value(key).toBool(), false);
    }
    auto result = loadFile(path(QStringLiteral("s.conf")));
    QVERIFY2(result.problems.isEmpty(), qPrintable(result.problems.join(QLatin1Char('\n'))));
    QVERIFY(!result.settings.prefetch.pauseOnBatteryAndMetered);
    QVERIFY(!result.settings.effectivePrefetch(result.settings.providerId).pauseOnBatteryAndMetered);
    QVERIFY(result.settings == s);

    // Switched on again it is the default: the key leaves the file.
    result.settings.prefetch.pauseOnBatteryAndMetered = true;
    {
        QSettings file(path(QStringLiteral("s.conf")), QSettings::IniFormat);
        SettingsFile::save(file, result.settings);
        QVERIFY(!file.contains(key));
    }
    QVERIFY(loadFile(path(QStringLiteral("s.conf"))).settings.prefetch.pauseOnBatteryAndMetered);

    // A hand-edited "no" is read as off, as the other switches are.
    {
        QSettings file(path(QStringLiteral("s.conf")), QSettings::IniFormat);
        file.setValue(key, QStringLiteral("no"));
    }
    QVERIFY(!loadFile(path(QStringLiteral("s.conf"))).settings.prefetch.pauseOnBatteryAndMetered);
}

QTEST_GUILESS_MAIN(tst_AppSettings)
#include "tst_appsettings.moc"
