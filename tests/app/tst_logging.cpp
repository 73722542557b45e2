// The app's log set-up (app/logging.*) in this process: what Qt says before setupLogging()
// reaches the file, Qt's messages carry their category, the file's level changes at run time
// and --verbose wins over it, and qFatal still aborts, after its message is in the file (a
// child process: this binary run with --fatal).
#include "app/logging.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QLoggingCategory>
#include <QProcess>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

#include <spdlog/spdlog.h>

namespace {

Q_LOGGING_CATEGORY(lcProbe, "headstart.test.probe")

} // namespace

class tst_Logging : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void earlyQtMessagesReachTheFile();
    void qtMessagesCarryTheirCategory();
    void fileLevelChangesAtRunTime();
    void verboseWinsOverTheSetting();
    void fatalStillAbortsAfterLogging();

private:
    // The log file as it is now, after flushing every logger.
    QString logText(const QString &dir) const;

    QTemporaryDir m_dir;
    QString m_logs;
};

void tst_Logging::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);
    QVERIFY(m_dir.isValid());
    m_logs = m_dir.filePath(QStringLiteral("logs"));
}

QString tst_Logging::logText(const QString &dir) const
{
    spdlog::apply_all([](const std::shared_ptr<spdlog::logger> &l) { l->flush(); });
    QFile f(QDir(dir).filePath(QStringLiteral("headstart.log")));
    return f.open(QIODevice::ReadOnly) ? QString::fromUtf8(f.readAll()) : QString();
}

void tst_Logging::earlyQtMessagesReachTheFile()
{
    // As main() does: capture first, set the log up later. The handler that was there before
    // (here QTest's, in the app Qt's default) still prints the early messages.
    App::captureEarlyQtMessages();
    qWarning("early warning before the log exists");
    qCInfo(lcProbe, "early info with a category");
    App::setupLogging(m_logs, false);
    const QString log = logText(m_logs);
    QVERIFY2(log.contains(QLatin1String("[qt] [warning] early warning before the log exists")), qPrintable(log));
    QVERIFY2(log.contains(QLatin1String("[qt] [info] [headstart.test.probe] early info with a category")),
             qPrintable(log));
    QCOMPARE(App::logDirectory(), m_logs);
}

void tst_Logging::qtMessagesCarryTheirCategory()
{
    qCWarning(lcProbe, "a categorised warning");
    qWarning("a plain warning");
    const QString log = logText(m_logs);
    QVERIFY2(log.contains(QLatin1String("[qt] [warning] [headstart.test.probe] a categorised warning")),
             qPrintable(log));
    // qWarning() without a category is in "default": no tag for it.
    QVERIFY2(log.contains(QLatin1String("[qt] [warning] a plain warning")), qPrintable(log));
}

void tst_Logging::fileLevelChangesAtRunTime()
{
    auto app = spdlog::get("app");
    QVERIFY(app);
    app->debug("debug line one");
    app->info("info line one");
    QString log = logText(m_logs);
    QVERIFY(!log.contains(QLatin1String("debug line one"))); // the default level is info
    QVERIFY(log.contains(QLatin1String("info line one")));

    App::setFileLogLevel(spdlog::level::debug);
    app->debug("debug line two");
    QVERIFY(logText(m_logs).contains(QLatin1String("[app] [debug] debug line two")));

    App::setFileLogLevel(spdlog::level::warn);
    app->info("info line three");
    app->warn("warning line three");
    log = logText(m_logs);
    QVERIFY(!log.contains(QLatin1String("info line three")));
    QVERIFY(log.contains(QLatin1String("warning line three")));
    App::setFileLogLevel(spdlog::level::info);
}

void tst_Logging::verboseWinsOverTheSetting()
{
    // A second set-up in this process, as a --verbose run would make it.
    spdlog::drop_all();
    const QString verboseLogs = m_dir.filePath(QStringLiteral("verbose-logs"));
    App::setupLogging(verboseLogs, true);
    App::setFileLogLevel(spdlog::level::warn); // the setting says "warnings only"
    spdlog::get("app")->debug("verbose debug line");
    QVERIFY(logText(verboseLogs).contains(QLatin1String("[app] [debug] verbose debug line")));
}

void tst_Logging::fatalStillAbortsAfterLogging()
{
    const QString fatalLogs = m_dir.filePath(QStringLiteral("fatal-logs"));
    QProcess child;
    child.setProcessChannelMode(QProcess::MergedChannels);
    child.start(QCoreApplication::applicationFilePath(), {QStringLiteral("--fatal"), fatalLogs});
    QVERIFY(child.waitForFinished(30000));
    QCOMPARE(child.exitStatus(), QProcess::CrashExit); // abort(), not a return
    QFile f(QDir(fatalLogs).filePath(QStringLiteral("headstart.log")));
    QVERIFY(f.open(QIODevice::ReadOnly));
    const QString log = QString::fromUtf8(f.readAll());
    QVERIFY2(log.contains(QLatin1String("[qt] [critical] planted fatal message")), qPrintable(log));
}

int main(int argc, char *argv[])
{
    if (argc == 3 && qstrcmp(argv[1], "--fatal") == 0) {
        QCoreApplication app(argc, argv);
        App::setupLogging(QString::fromLocal8Bit(argv[2]), false);
        qFatal("planted fatal message");
        return 0; // not reached: qFatal aborts
    }
    QCoreApplication app(argc, argv);
    tst_Logging test;
    QTEST_SET_MAIN_SOURCE_PATH
    return QTest::qExec(&test, argc, argv);
}

#include "tst_logging.moc"
