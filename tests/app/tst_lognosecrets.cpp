// What the log files hold after a real chat (issue 12, "Logs users can find"). The app itself
// (headstart, offscreen, throw-away XDG folders) streams from a custom OpenAI-compatible profile
// whose base URL is a local provider on loopback that requires a planted key; it opens a
// document with a planted phrase and types a chat message with another. Once the answer is
// complete in the conversation database, every file in the log folder is read: at the default
// level neither the key, the document's phrase, the chat message nor the answer is there; at
// the Detailed level (set in Settings, applied from the start) and at --verbose (which wins
// over the setting) the key is not; every run shows that the streams did happen (a finished
// line with token counts). The verbose run also checks that what Qt says while QApplication
// starts, with its category, reaches the same file.
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
#include <QSqlDatabase>
#include <QSqlQuery>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

namespace {

// Planted values: long and unlike anything else, so a hit is never a coincidence.
const QString Key = QStringLiteral("sk-PLANTEDlogKEY8d2c6a0f4e1b9357");
const QString DocumentPhrase = QStringLiteral("PLANTEDdocumentPHRASE3e9a71c5");
const QString ChatPhrase = QStringLiteral("PLANTEDchatPHRASE6b0d2f84");

constexpr int StartTimeoutMs = 60'000;
// Warm-up, then the chat's answer on an "instant" provider; ample for two busy cores.
constexpr int AnswerTimeoutMs = 120'000;

// "stream 7: custom finished, status 200, 2113 bytes, 40 events, tokens 512 in (0 cached) 38 out"
const QRegularExpression FinishedLine(QStringLiteral(
    R"(stream \S+: custom finished, status 200, \d+ bytes, \d+ events, tokens (\d+) in \((?:\d+|\?) cached\) (\d+) out)"));

} // namespace

class tst_LogNoSecrets : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void chatLogsNoSecret_data();
    void chatLogsNoSecret();

private:
    // The complete answer the app stored for its chat, or empty while there is none.
    static QString completeAnswer(const QString &dataFolder);
    // Every file of the log folder under `dataFolder`, concatenated (rotated ones too).
    static QString logText(const QString &dataFolder, int *files = nullptr);

    TestSupport::LocalProviderFixture m_local{u"instant", [](LocalProvider::ServerConfig &c) { c.apiKey = Key; }};
};

void tst_LogNoSecrets::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);
    QVERIFY(QFileInfo(QStringLiteral(HEADSTART_BIN_DIR "/app/headstart")).isExecutable());
    QVERIFY2(m_local.start(), qPrintable(m_local.errorString()));
}

QString tst_LogNoSecrets::completeAnswer(const QString &dataFolder)
{
    QDirIterator it(dataFolder, {QStringLiteral("conversations.sqlite")}, QDir::Files, QDirIterator::Subdirectories);
    if (!it.hasNext())
        return {};
    const QString database = it.next();
    QString answer;
    {
        QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), QStringLiteral("probe"));
        db.setDatabaseName(database);
        db.setConnectOptions(QStringLiteral("QSQLITE_OPEN_READONLY;QSQLITE_BUSY_TIMEOUT=100"));
        QSqlQuery q(db);
        if (db.open()
            && q.exec(QStringLiteral("SELECT content FROM messages WHERE role = 'assistant' AND state = 'complete'"))
            && q.next())
            answer = q.value(0).toString();
    }
    QSqlDatabase::removeDatabase(QStringLiteral("probe"));
    return answer;
}

QString tst_LogNoSecrets::logText(const QString &dataFolder, int *files)
{
    QString text;
    int count = 0;
    QDirIterator it(dataFolder, {QStringLiteral("headstart*.log")}, QDir::Files, QDirIterator::Subdirectories);
    while (it.hasNext()) {
        QFile f(it.next());
        if (f.open(QIODevice::ReadOnly)) {
            text += QString::fromUtf8(f.readAll());
            ++count;
        }
    }
    if (files)
        *files = count;
    return text;
}

void tst_LogNoSecrets::chatLogsNoSecret_data()
{
    QTest::addColumn<bool>("verbose");
    QTest::addColumn<Gui::LogDetail>("detail"); // Settings, General, Log detail
    QTest::addRow("default level") << false << Gui::LogDetail::Normal;
    QTest::addRow("detailed in settings") << false << Gui::LogDetail::Detailed;
    // --verbose wins over the setting for its run.
    QTest::addRow("verbose over warnings only") << true << Gui::LogDetail::WarningsOnly;
}

void tst_LogNoSecrets::chatLogsNoSecret()
{
    QFETCH(bool, verbose);
    QFETCH(Gui::LogDetail, detail);
    QTemporaryDir home;
    QVERIFY(home.isValid());
    QProcessEnvironment env = TestSupport::throwawayHome(home.path());
    QVERIFY(!env.isEmpty());
    env.insert(QStringLiteral("HOME"), home.path());
    env.insert(QStringLiteral("HEADSTART_API_KEY"), Key);   // where the custom profile's key is read from
    env.remove(QStringLiteral("DBUS_SESSION_BUS_ADDRESS")); // no keychain daemon: the key comes from the environment
    // Qt's plugin loader reports (at debug level) each folder it searches: the platform plugin's
    // while QApplication starts, before the log exists.
    if (verbose)
        env.insert(QStringLiteral("QT_LOGGING_RULES"), QStringLiteral("qt.core.plugin.factoryloader.debug=true"));
    else
        env.remove(QStringLiteral("QT_LOGGING_RULES"));

    {
        QVERIFY(QDir().mkpath(home.filePath(QStringLiteral("config/Headstart"))));
        QSettings ini(home.filePath(QStringLiteral("config/Headstart/Headstart.conf")), QSettings::IniFormat);
        Gui::AppSettings s;
        s.providerId = QStringLiteral("custom");
        s.setBaseUrl(s.providerId, m_local.profile().baseUrl);
        s.setModel(s.providerId, QStringLiteral("headstart-local"));
        s.setPrefetchConsent(s.providerId, true); // prefetch traffic is in the log too
        s.firstRun = false;
        s.logDetail = detail;
        Gui::SettingsFile::save(ini, s);
        ini.sync();
        QCOMPARE(ini.status(), QSettings::NoError);
    }
    const QString document = home.filePath(QStringLiteral("notes.md"));
    {
        QFile f(document);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(QStringLiteral("# Notes\n\nThe launch plan mentions %1 twice: %1.\n").arg(DocumentPhrase).toUtf8());
    }

    QStringList arguments{QStringLiteral("--type-chat"),
                          QStringLiteral("What does %1 mean for the launch?\n").arg(ChatPhrase), document};
    if (verbose)
        arguments.prepend(QStringLiteral("--verbose"));
    QProcess app;
    app.setProcessEnvironment(env);
    app.setStandardOutputFile(QProcess::nullDevice());
    app.setStandardErrorFile(home.filePath(QStringLiteral("stderr.txt")));
    app.start(QStringLiteral(HEADSTART_BIN_DIR "/app/headstart"), arguments);
    QVERIFY2(app.waitForStarted(StartTimeoutMs), qPrintable(app.errorString()));

    const QString data = home.filePath(QStringLiteral("data"));
    QString answer;
    QTRY_VERIFY_WITH_TIMEOUT(!(answer = completeAnswer(data)).isEmpty(), AnswerTimeoutMs);
    // The finished lines reach the file within spdlog's flush interval.
    QTRY_VERIFY_WITH_TIMEOUT(FinishedLine.match(logText(data)).hasMatch(), StartTimeoutMs);
    app.kill();
    QVERIFY(app.waitForFinished(StartTimeoutMs));

    int files = 0;
    const QString log = logText(data, &files);
    QVERIFY(files >= 1);
    const auto showLog = [&log] { return qPrintable(log.right(3000)); };

    // The request happened, with the key (the provider answers 401 without it), and says so.
    const QRegularExpressionMatch finished = FinishedLine.match(log);
    QVERIFY2(finished.captured(1).toLongLong() > 0 && finished.captured(2).toLongLong() > 0, showLog());
    QVERIFY2(!log.contains(QLatin1String("status 401")), showLog());

    QFile stderrFile(home.filePath(QStringLiteral("stderr.txt")));
    QVERIFY(stderrFile.open(QIODevice::ReadOnly));
    const QString console = QString::fromUtf8(stderrFile.readAll());
    // Never, at any level, in the log or on the console: the key (so no Authorization header).
    QVERIFY2(!log.contains(Key), "the key is in the log");
    QVERIFY2(!console.contains(Key), "the key is on stderr");

    if (verbose || detail == Gui::LogDetail::Detailed) {
        // Debug lines are on, from the start: the setting is applied as the app starts.
        QVERIFY2(log.contains(QLatin1String("[debug]")), showLog());
        if (!verbose)
            return;
        // What Qt said while QApplication started, loading the platform plugin before
        // setupLogging(), is in the file with its category.
        bool early = false;
        for (const QString &line : log.split(QLatin1Char('\n')))
            early = early
                    || (line.contains(QLatin1String("[qt.core.plugin.factoryloader]"))
                        && line.contains(QLatin1String("platforms")));
        QVERIFY2(early, showLog());
        return;
    }

    // The default level: nothing the user wrote, opened or was answered.
    QVERIFY2(!log.contains(QLatin1String("[debug]")), showLog());
    QVERIFY2(!log.contains(DocumentPhrase), "the document's text is in the log");
    QVERIFY2(!log.contains(ChatPhrase), "the chat message is in the log");
    // Not even a piece of the answer: every 24-character slice of it is absent.
    QVERIFY(answer.size() >= 24);
    for (qsizetype at = 0; at + 24 <= answer.size(); at += 12)
        QVERIFY2(!log.contains(answer.mid(at, 24)),
                 qPrintable(QStringLiteral("the answer is in the log: ") + answer.mid(at, 24)));
}

QTEST_GUILESS_MAIN(tst_LogNoSecrets)
#include "tst_lognosecrets.moc"
