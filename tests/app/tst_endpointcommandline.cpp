// --provider with the user's endpoints, on the app itself (headstart, offscreen, throw-away XDG
// folders): the settings keep the local engine in use and add an endpoint whose base URL is a
// local provider on loopback that requires a planted key (from HEADSTART_API_KEY, as for every
// endpoint). Started with --provider and the endpoint's id, or its name in another case, the
// app's chat streams from that endpoint: the log's finished line names the endpoint's id with
// status 200. A name no provider has leaves the local engine in use.
#include "support/localproviderfixture.h"
#include "support/throwawayhome.h"

#include "workspace/settings/appsettings.h"
#include "workspace/settings/settingsfile.h"

#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QFileInfo>
#include <QProcess>
#include <QRegularExpression>
#include <QSettings>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

namespace {

const QString Key = QStringLiteral("sk-PLANTEDendpointKEY5c81e2");
constexpr int StartTimeoutMs = 60'000;
constexpr int AnswerTimeoutMs = 120'000;

// Every log file under `dataFolder`, concatenated.
QString logText(const QString &dataFolder)
{
    QString text;
    QDirIterator it(dataFolder, {QStringLiteral("headstart*.log")}, QDir::Files, QDirIterator::Subdirectories);
    while (it.hasNext()) {
        QFile f(it.next());
        if (f.open(QIODevice::ReadOnly))
            text += QString::fromUtf8(f.readAll());
    }
    return text;
}

} // namespace

class tst_EndpointCommandLine : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void providerByIdOrName_data();
    void providerByIdOrName();

private:
    TestSupport::LocalProviderFixture m_local{u"instant", [](LocalProvider::ServerConfig &c) { c.apiKey = Key; }};
};

void tst_EndpointCommandLine::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);
    QVERIFY(QFileInfo(QStringLiteral(HEADSTART_BIN_DIR "/app/headstart")).isExecutable());
    QVERIFY2(m_local.start(), qPrintable(m_local.errorString()));
}

void tst_EndpointCommandLine::providerByIdOrName_data()
{
    QTest::addColumn<QString>("argument"); // "<id>" stands for the endpoint's id
    QTest::addColumn<bool>("onTheEndpoint");
    QTest::addRow("its id") << "<id>" << true;
    QTest::addRow("its name, in another case") << "lab VLLM" << true;
    QTest::addRow("no such provider") << "Lab vLLM 2" << false;
}

void tst_EndpointCommandLine::providerByIdOrName()
{
    QFETCH(QString, argument);
    QFETCH(bool, onTheEndpoint);
    QTemporaryDir home;
    QVERIFY(home.isValid());
    QProcessEnvironment env = TestSupport::throwawayHome(home.path());
    QVERIFY(!env.isEmpty());
    env.insert(QStringLiteral("HOME"), home.path());
    env.insert(QStringLiteral("HEADSTART_API_KEY"), Key);
    env.remove(QStringLiteral("DBUS_SESSION_BUS_ADDRESS")); // no keychain daemon: the key comes from the environment

    QString id;
    {
        QVERIFY(QDir().mkpath(home.filePath(QStringLiteral("config/Headstart"))));
        QSettings ini(home.filePath(QStringLiteral("config/Headstart/Headstart.conf")), QSettings::IniFormat);
        Gui::AppSettings s;
        const auto added = s.endpoints.add(QStringLiteral("Lab vLLM"), Llm::ApiFormat::OpenAiChat);
        QVERIFY(added);
        id = *added;
        s.setBaseUrl(id, m_local.profile().baseUrl);
        s.setModel(id, QStringLiteral("headstart-local"));
        s.providerId = QStringLiteral("local"); // the endpoint is used only when --provider says so
        s.firstRun = false;
        s.logDetail = Gui::LogDetail::Detailed;
        Gui::SettingsFile::save(ini, s);
        ini.sync();
        QCOMPARE(ini.status(), QSettings::NoError);
    }
    const QString document = home.filePath(QStringLiteral("notes.md"));
    {
        QFile f(document);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("# Notes\n\nA short document.\n");
    }
    if (argument == QLatin1String("<id>"))
        argument = id;

    const qint64 servedBefore = m_local.stats().requestsServed;
    QProcess app;
    app.setProcessEnvironment(env);
    app.setStandardOutputFile(QProcess::nullDevice());
    app.setStandardErrorFile(QProcess::nullDevice());
    app.start(QStringLiteral(HEADSTART_BIN_DIR "/app/headstart"),
              {QStringLiteral("--provider"), argument, QStringLiteral("--type-chat"), QStringLiteral("Hello there?\n"),
               document});
    QVERIFY2(app.waitForStarted(StartTimeoutMs), qPrintable(app.errorString()));

    // The chat's answer streams from the provider in use; its finished line names it.
    const QString data = home.filePath(QStringLiteral("data"));
    const QRegularExpression finished(QStringLiteral(R"(stream \S+: (\S+) finished, status (\d+))"));
    QRegularExpressionMatch match;
    QTRY_VERIFY_WITH_TIMEOUT((match = finished.match(logText(data))).hasMatch(), AnswerTimeoutMs);
    app.kill();
    QVERIFY(app.waitForFinished(StartTimeoutMs));
    QCOMPARE(match.captured(1), onTheEndpoint ? id : QStringLiteral("local"));
    QCOMPARE(match.captured(2), QStringLiteral("200")); // with the key: the provider refuses requests without it
    QCOMPARE(m_local.stats().requestsServed > servedBefore, onTheEndpoint);
}

QTEST_GUILESS_MAIN(tst_EndpointCommandLine)
#include "tst_endpointcommandline.moc"
