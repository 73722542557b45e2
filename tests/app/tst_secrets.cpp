// No secret in any log or output (issue 11). Planted keys and header values go through every
// path that logs, at debug level: in-process streams of both wire formats (success, a rejected
// key, provider faults, a prefetch with its own key, the connection test), headstart-cli and
// headstart-localprovider as processes, and the app itself (--verbose, its screenshot tour:
// hover, answer, chat, wizard) against a provider that requires the key. Then every log line,
// every error message, the processes' output and every file they left is searched for them.
#include "support/localproviderfixture.h"
#include "support/throwawayhome.h"

#include "llm/providerrequest.h"
#include "prefetch/connectiontest.h"
#include "prefetch/engine.h"
#include "prefetch/prefetchsession.h"
#include "prefetch/stream/answerreader.h"
#include "workspace/settings/appsettings.h"
#include "workspace/settings/settingsfile.h"

#include <QDirIterator>
#include <QJsonDocument>
#include <QJsonObject>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QProcess>
#include <QRegularExpression>
#include <QSettings>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

#include <spdlog/sinks/ostream_sink.h>
#include <spdlog/spdlog.h>

#include <memory>
#include <mutex>
#include <sstream>

using namespace std::chrono_literals;

namespace {

// Planted values: long and unlike anything else, so a hit is never a coincidence.
const QString Key = QStringLiteral("sk-PLANTEDmainKEY7f3a9c1e5b2d8046");
const QString PrefetchKey = QStringLiteral("sk-PLANTEDprefetchKEY2b7e4d9a0c6f1358");
const QString WrongKey = QStringLiteral("sk-PLANTEDwrongKEY5c8d1f0e7a3b9264");
const QByteArray HeaderValue = "PLANTEDheaderVALUE4e1f8a2c9d7b3065";

QStringList planted()
{
    return {Key, PrefetchKey, WrongKey, QString::fromLatin1(HeaderValue)};
}

// Everything the module loggers and Qt's message handler were given, in one place.
std::ostringstream g_log;
std::mutex g_logMutex;
QtMessageHandler g_previous = nullptr;

void captureQtMessage(QtMsgType type, const QMessageLogContext &context, const QString &message)
{
    {
        std::lock_guard lock(g_logMutex);
        g_log << "qt: " << message.toStdString() << '\n';
    }
    if (g_previous)
        g_previous(type, context, message);
}

QString capturedLog()
{
    std::lock_guard lock(g_logMutex);
    return QString::fromStdString(g_log.str());
}

// Which planted values `text` contains (empty: none).
QStringList leaks(const QString &text)
{
    QStringList found;
    for (const QString &secret : planted()) {
        if (text.contains(secret))
            found << secret.left(12) + QStringLiteral("…");
    }
    return found;
}

} // namespace

class tst_Secrets : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void inProcessPathsLogNoSecret();
    void processesPrintAndLeaveNoSecret();

private:
    Llm::ProviderProfile profile(Llm::ApiFormat format, const QString &key) const;
    // Streams `request` on `p` to its end and returns the error message, if any.
    QString stream(const Llm::ProviderProfile &p, bool prefetch = false);

    TestSupport::LocalProviderFixture m_local{u"instant", [](LocalProvider::ServerConfig &c) { c.apiKey = Key; }};
    QNetworkAccessManager m_network;
};

void tst_Secrets::initTestCase()
{
    // Debug level everywhere, registered before anything asks for a module logger.
    auto sink = std::make_shared<spdlog::sinks::ostream_sink_mt>(g_log, true);
    for (const char *name : {"app", "ui", "prefetch", "llm", "localprovider", "qt"}) {
        spdlog::drop(name);
        auto logger = std::make_shared<spdlog::logger>(name, sink);
        logger->set_level(spdlog::level::trace);
        spdlog::register_logger(logger);
    }
    g_previous = qInstallMessageHandler(captureQtMessage);
    QVERIFY2(m_local.start(), qPrintable(m_local.errorString()));
}

Llm::ProviderProfile tst_Secrets::profile(Llm::ApiFormat format, const QString &key) const
{
    Llm::ProviderProfile p = m_local.profile();
    p.format = format;
    p.apiKey = key;
    p.prefetchApiKey = key == Key ? QString() : PrefetchKey;
    p.extraHeaders = {{"X-Gateway-Token", HeaderValue}};
    return p;
}

QString tst_Secrets::stream(const Llm::ProviderProfile &p, bool prefetch)
{
    Llm::ChatRequest request;
    request.model = p.model;
    request.maxTokens = 24;
    request.messages.append({Llm::Role::User, QStringLiteral("Say something about keys.")});
    Llm::StreamOptions options;
    options.prefetch = prefetch;
    Llm::ProviderRequest s(&m_network, p, request, options);
    QSignalSpy finished(&s, &Llm::ProviderRequest::finished);
    QSignalSpy failed(&s, &Llm::ProviderRequest::failed);
    s.start();
    if (!QTest::qWaitFor([&] { return finished.count() + failed.count() > 0; }, 15000))
        return QStringLiteral("<timeout>");
    return failed.isEmpty() ? QString() : failed.constFirst().constFirst().value<Llm::Error>().message();
}

void tst_Secrets::inProcessPathsLogNoSecret()
{
    QStringList messages;
    for (Llm::ApiFormat format : {Llm::ApiFormat::OpenAiChat, Llm::ApiFormat::AnthropicMessages}) {
        QCOMPARE(stream(profile(format, Key)), QString()); // the key is right: a whole answer
        const QString rejected = stream(profile(format, WrongKey));
        QVERIFY2(rejected.contains(QStringLiteral("API key")), qPrintable(rejected));
        messages << rejected;
        // A prefetch sends its own key, which this server does not take.
        messages << stream(profile(format, WrongKey), true);
        for (const QByteArray fault : {"status=500", "error-at=3", "malformed-at=2", "drop-after=2"}) {
            Llm::ProviderProfile faulty = profile(format, Key);
            faulty.extraHeaders.append({"X-Headstart-Fault", fault});
            const QString message = stream(faulty);
            QVERIFY2(!message.isEmpty(), fault.constData());
            messages << message;
        }
    }

    // Through the engine: a warm-up and a hover prefetch taken over by the click, then Stop.
    {
        Prefetch::Engine engine(&m_network, profile(Llm::ApiFormat::OpenAiChat, Key), {});
        Llm::ChatRequest r;
        r.model = m_local.profile().model;
        r.maxTokens = 40;
        r.messages.append({Llm::Role::User, QStringLiteral("A question worth prefetching.")});
        const Prefetch::RenderedRequest rendered = engine.render(r);
        QPointer<Prefetch::PrefetchSession> session = engine.prefetch(Prefetch::Strategy::Hover, rendered, 30s);
        QVERIFY(session);
        const QString text = TestSupport::drain(engine.consume(session, rendered, 0, this));
        QVERIFY2(!text.startsWith(QLatin1Char('<')), qPrintable(text));
        engine.prefetch(Prefetch::Strategy::Warmup, engine.render(r), 30s);
        engine.stopAll();
    }

    // The connection test, with the wrong key and the right one.
    for (const QString &key : {WrongKey, Key}) {
        Prefetch::ConnectionTest test(&m_network);
        QSignalSpy done(&test, &Prefetch::ConnectionTest::finished);
        QSignalSpy failed(&test, &Prefetch::ConnectionTest::failed);
        test.start(profile(Llm::ApiFormat::OpenAiChat, key));
        QTRY_VERIFY_WITH_TIMEOUT(done.count() + failed.count() > 0, 15000);
        if (!failed.isEmpty())
            messages << failed.constFirst().constFirst().value<Llm::Error>().message();
    }
    QVERIFY(m_local.waitForNoOpenStream(5000));

    const QString log = capturedLog();
    // Not vacuous: the paths above did log, at debug level, about these very requests.
    QVERIFY2(log.count(QLatin1Char('\n')) > 20, qPrintable(log));
    QVERIFY2(log.contains(QStringLiteral("401")), qPrintable(log.right(2000)));
    QVERIFY2(leaks(log).isEmpty(), qPrintable(leaks(log).join(u' ')));
    const QString all = messages.join(QLatin1Char('\n'));
    QVERIFY2(leaks(all).isEmpty(), qPrintable(all));
}

void tst_Secrets::processesPrintAndLeaveNoSecret()
{
    QTemporaryDir home;
    QVERIFY(home.isValid());
    QProcessEnvironment env = TestSupport::throwawayHome(home.path());
    QVERIFY(!env.isEmpty());
    env.insert(QStringLiteral("HOME"), home.path());
    env.insert(QStringLiteral("HEADSTART_API_KEY"), Key);   // where a custom provider's key is read from
    env.remove(QStringLiteral("DBUS_SESSION_BUS_ADDRESS")); // no keychain daemon: the key comes from the environment

    QString output;
    auto run = [&](QProcess &p, const QString &program, const QStringList &args) {
        p.setProcessEnvironment(env);
        p.setProcessChannelMode(QProcess::MergedChannels);
        p.start(program, args);
        return p.waitForStarted(10000);
    };

    // The provider as a process, printing what it logs; it requires the key.
    QProcess provider;
    QVERIFY(run(provider, QStringLiteral(HEADSTART_BIN_DIR "/localprovider/headstart-localprovider"),
                {QStringLiteral("--port"), QStringLiteral("0"), QStringLiteral("--profile"), QStringLiteral("instant"),
                 QStringLiteral("--api-key"), Key}));
    QUrl root;
    QVERIFY(QTest::qWaitFor(
        [&] {
            const QString text = QString::fromUtf8(provider.peek(1 << 16));
            const qsizetype at = text.indexOf(QStringLiteral("http://127.0.0.1:"));
            if (at < 0)
                return false;
            root = QUrl(text.mid(at).section(QRegularExpression(QStringLiteral("\\s")), 0, 0));
            return true;
        },
        10000));
    const QString api = root.toString(QUrl::StripTrailingSlash) + QStringLiteral("/v1");

    // headstart-cli chat, with a header carrying a secret, right and wrong keys.
    for (const QString &key : {Key, WrongKey}) {
        QProcessEnvironment cliEnv = env;
        cliEnv.insert(QStringLiteral("HEADSTART_API_KEY"), key);
        QProcess cli;
        cli.setProcessEnvironment(cliEnv);
        cli.setProcessChannelMode(QProcess::MergedChannels);
        cli.start(QStringLiteral(HEADSTART_BIN_DIR "/cli/headstart-cli"),
                  {QStringLiteral("chat"), QStringLiteral("--provider"), QStringLiteral("custom"),
                   QStringLiteral("--base-url"), api, QStringLiteral("--model"), QStringLiteral("headstart-local"),
                   QStringLiteral("--header"), QStringLiteral("X-Gateway-Token: ") + QString::fromLatin1(HeaderValue),
                   QStringLiteral("Say hello.")});
        QVERIFY(cli.waitForFinished(30000));
        QCOMPARE(cli.exitCode() == 0, key == Key);
        output += QString::fromUtf8(cli.readAll());
    }

    // The app itself, verbose, on a custom provider at that address that prefetches with
    // consent: its screenshot tour hovers and runs Summarize, chats and walks the wizard.
    {
        QDir().mkpath(home.filePath(QStringLiteral("config/Headstart")));
        QSettings ini(home.filePath(QStringLiteral("config/Headstart/Headstart.conf")), QSettings::IniFormat);
        Gui::AppSettings s;
        s.providerId = QStringLiteral("custom");
        s.setBaseUrl(s.providerId, QUrl(api));
        s.setModel(s.providerId, QStringLiteral("headstart-local"));
        s.setPrefetchConsent(s.providerId, true);
        s.firstRun = false;
        Gui::SettingsFile::save(ini, s);
        ini.sync();
        QCOMPARE(ini.status(), QSettings::NoError);
    }
    QProcess app;
    QVERIFY(
        run(app, QStringLiteral(HEADSTART_BIN_DIR "/app/headstart"),
            {QStringLiteral("--verbose"), QStringLiteral("--screenshots"), home.filePath(QStringLiteral("shots"))}));
    QVERIFY2(app.waitForFinished(120000), "the tour did not end");
    output += QString::fromUtf8(app.readAll());
    QCOMPARE(app.exitCode(), 0);

    // The app talked to the provider with the key: what it served is the tour's real answers,
    // not a run that never got past a 401.
    QNetworkReply *reply = m_network.get(
        QNetworkRequest(QUrl(root.toString(QUrl::StripTrailingSlash) + QStringLiteral("/stats"))));
    QSignalSpy statsDone(reply, &QNetworkReply::finished);
    QVERIFY(statsDone.wait(10000));
    const QJsonObject stats = QJsonDocument::fromJson(reply->readAll()).object();
    reply->deleteLater();
    QVERIFY2(stats.value(QStringLiteral("requests_served")).toInt() >= 4, qPrintable(QJsonDocument(stats).toJson()));

    provider.terminate();
    QVERIFY(provider.waitForFinished(10000));
    output += QString::fromUtf8(provider.readAll());
    QVERIFY2(leaks(output).isEmpty(), qPrintable(leaks(output).join(u' ')));
    int files = 0;
    for (QDirIterator it(home.path(), QDir::Files | QDir::Hidden, QDirIterator::Subdirectories); it.hasNext();) {
        const QString path = it.next();
        if (path.endsWith(QStringLiteral(".png")))
            continue;
        QFile f(path);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QString content = QString::fromLatin1(f.readAll()); // byte-wise: a key is ASCII
        QVERIFY2(leaks(content).isEmpty(), qPrintable(path + QLatin1Char(' ') + leaks(content).join(u' ')));
        ++files;
    }
    QVERIFY2(files >= 2, "the app left no settings or log file to search"); // the settings and the log at least
}

QTEST_GUILESS_MAIN(tst_Secrets)
#include "tst_secrets.moc"
