// The real app (headstart) run twice in one throw-away home: the second process hands its
// files to the first and exits at once, without a provider, a log or a database of its own, and
// the first opens them. Also: a socket file left by kill -9 does not stop the next start, two
// homes started together each get their own instance, a request in an unknown protocol version
// is refused with an answer, and the command line's --help (translated) and --version. The first
// instance's log (its info lines "opened <path>", "single instance listening on <name>") is how
// the test sees what it did; a second process never writes that log.
#include "support/throwawayhome.h"

#include <QDir>
#include <QDirIterator>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLibraryInfo>
#include <QLocalSocket>
#include <QProcess>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QTranslator>
#include <QXmlStreamReader>

#include <memory>

namespace {

constexpr int StartTimeoutMs = 60'000;
// "Exits at once": a second process starts Qt, connects, waits for the answer and exits. Ample
// for two busy cores, far below what building a window and the local engine would take there.
constexpr int ForwardTimeoutMs = 15'000;

const QString App = QStringLiteral(HEADSTART_BIN_DIR "/app/headstart");

// A throw-away home: XDG folders, a work folder with documents, and the app's log in it.
class Home
{
public:
    Home()
    {
        if (!m_root.isValid())
            return;
        m_env = TestSupport::throwawayHome(m_root.path());
        QDir().mkdir(work());
    }
    bool isValid() const { return m_root.isValid() && !m_env.isEmpty(); }
    QString work() const { return m_root.filePath(QStringLiteral("work")); }
    QString document(const QString &name) const
    {
        const QString path = QDir(work()).filePath(name);
        QFile f(path);
        if (!QFileInfo::exists(path) && f.open(QIODevice::WriteOnly))
            f.write("# " + name.toUtf8() + "\n\nSome text.\n");
        return path;
    }
    QString logText() const
    {
        QDirIterator it(m_root.filePath(QStringLiteral("data")), {QStringLiteral("headstart.log")}, QDir::Files,
                        QDirIterator::Subdirectories);
        if (!it.hasNext())
            return {};
        QFile log(it.next());
        return log.open(QIODevice::ReadOnly) ? QString::fromUtf8(log.readAll()) : QString();
    }
    int logCount(const QString &text) const { return int(logText().count(text)); }
    // The socket the instance in this home listens on, as it logged it.
    QString socketName() const
    {
        const auto match = QRegularExpression(QStringLiteral("single instance listening on (\\S+)")).match(logText());
        return match.hasMatch() ? match.captured(1) : QString();
    }
    // Runs the app here, in the work folder (relative paths are relative to it).
    void start(QProcess &app, const QStringList &arguments) const
    {
        app.setProcessEnvironment(m_env);
        app.setWorkingDirectory(work());
        app.start(App, QStringList{QStringLiteral("--provider"), QStringLiteral("local"),
                                   QStringLiteral("--latency-profile"), QStringLiteral("instant")}
                           + arguments);
    }
    QProcessEnvironment environment() const { return m_env; }

private:
    QTemporaryDir m_root;
    QProcessEnvironment m_env;
};

QString opened(const QString &path)
{
    return QStringLiteral("opened ") + path;
}

QString withoutSpaces(QString s)
{
    return s.remove(QRegularExpression(QStringLiteral("\\s+")));
}

// The finished translations of the "CommandLine" context in the committed catalogue: the help's
// descriptions, nothing else (app/commandline.cpp).
QStringList commandLineTranslations()
{
    QStringList out;
    QFile file(QStringLiteral(HEADSTART_SOURCE_DIR "/translations/headstart_zh_CN.ts"));
    if (!file.open(QIODevice::ReadOnly))
        return out;
    QXmlStreamReader xml(&file);
    QString context;
    while (!xml.atEnd()) {
        xml.readNext();
        if (!xml.isStartElement())
            continue;
        if (xml.name() == QLatin1String("name")) {
            context = xml.readElementText();
        } else if (xml.name() == QLatin1String("translation") && context == QLatin1String("CommandLine")) {
            const bool unfinished = xml.attributes().hasAttribute(QLatin1String("type"));
            const QString text = xml.readElementText();
            if (!unfinished && !text.isEmpty())
                out << text;
        }
    }
    return out;
}

} // namespace

class tst_SingleInstance : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void secondProcessHandsItsFilesToTheFirst();
    void aMissingFileIsReported();
    void twoStartedTogetherMakeOne();
    void staleSocketAfterKillDoesNotStopTheNextStart();
    void twoHomesDoNotMeet();
    void unknownProtocolVersionIsRefused();
    void helpIsTranslated();
    void versionAndUnknownOption();

private:
    void startFirst(const Home &home, QProcess &app, const QStringList &arguments);
    void stop(QProcess &app);
};

void tst_SingleInstance::initTestCase()
{
    QVERIFY(QFileInfo(App).isExecutable());
}

void tst_SingleInstance::startFirst(const Home &home, QProcess &app, const QStringList &arguments)
{
    const int before = home.logCount(QStringLiteral("single instance listening on"));
    app.setProcessChannelMode(QProcess::ForwardedErrorChannel);
    home.start(app, arguments);
    QVERIFY2(app.waitForStarted(StartTimeoutMs), qPrintable(app.errorString()));
    // Listening, and done starting: the database is open.
    QTRY_VERIFY_WITH_TIMEOUT(home.logCount(QStringLiteral("single instance listening on")) > before
                                 && home.logText().contains(QLatin1String("conversation store opened")),
                             StartTimeoutMs);
    QCOMPARE(app.state(), QProcess::Running);
}

void tst_SingleInstance::stop(QProcess &app)
{
    app.kill();
    QVERIFY(app.waitForFinished(StartTimeoutMs));
}

void tst_SingleInstance::secondProcessHandsItsFilesToTheFirst()
{
    Home home;
    QVERIFY(home.isValid());
    const QString a = home.document(QStringLiteral("a.md"));
    const QString b = home.document(QStringLiteral("b.md"));
    QVERIFY(QDir(home.work()).mkdir(QStringLiteral("sub")));
    const QString c = home.document(QStringLiteral("sub/c.txt"));

    QProcess first;
    startFirst(home, first, {QStringLiteral("a.md")}); // relative to its working folder
    QTRY_VERIFY_WITH_TIMEOUT(home.logText().contains(opened(a)), StartTimeoutMs);
    const int engines = home.logCount(QStringLiteral("local demo engine listening"));
    const int stores = home.logCount(QStringLiteral("conversation store opened"));
    QCOMPARE(engines, 1);
    QCOMPARE(stores, 1);

    QProcess second;
    second.setProcessChannelMode(QProcess::MergedChannels);
    QElapsedTimer clock;
    clock.start();
    home.start(second, {QStringLiteral("b.md"), QStringLiteral("./sub/../sub/c.txt")});
    QVERIFY2(second.waitForFinished(ForwardTimeoutMs), "the second process did not exit at once");
    const QString output = QString::fromUtf8(second.readAll());
    QCOMPARE(second.exitStatus(), QProcess::NormalExit);
    QVERIFY2(second.exitCode() == 0, qPrintable(output));
    qInfo("second process exited after %lld ms", static_cast<long long>(clock.elapsed()));

    // The first opened both (paths made absolute and clean by the second, in its own folder).
    QTRY_VERIFY_WITH_TIMEOUT(home.logText().contains(opened(b)) && home.logText().contains(opened(c)), StartTimeoutMs);
    QCOMPARE(first.state(), QProcess::Running);
    // The second started no engine and opened no database: had it run the app, its log lines
    // would be in the same file.
    QCOMPARE(home.logCount(QStringLiteral("local demo engine listening")), engines);
    QCOMPARE(home.logCount(QStringLiteral("conversation store opened")), stores);
    QVERIFY2(!output.contains(QLatin1String("local demo engine")), qPrintable(output));

    // --new-window goes to the same instance too, which opens the file in a window of its own.
    QProcess third;
    home.start(third, {QStringLiteral("--new-window"), a});
    QVERIFY(third.waitForFinished(ForwardTimeoutMs));
    QCOMPARE(third.exitCode(), 0);
    QTRY_VERIFY_WITH_TIMEOUT(home.logText().contains(QLatin1String("in a new window"))
                                 && home.logText().contains(QLatin1String("opened a new window")),
                             StartTimeoutMs);
    QTRY_COMPARE_WITH_TIMEOUT(home.logCount(opened(a)), 2, StartTimeoutMs); // once in each window
    QCOMPARE(home.logCount(QStringLiteral("local demo engine listening")), engines);
    QCOMPARE(first.state(), QProcess::Running);
    stop(first);
}

void tst_SingleInstance::aMissingFileIsReported()
{
    Home home;
    QVERIFY(home.isValid());
    const QString missing = QDir(home.work()).filePath(QStringLiteral("missing.md"));
    const QString gone = QDir(home.work()).filePath(QStringLiteral("gone.md"));
    const QString b = home.document(QStringLiteral("b.md"));
    // The app starts all the same (and says so in a message box).
    QProcess first;
    startFirst(home, first, {missing});
    QTRY_VERIFY_WITH_TIMEOUT(home.logText().contains(QStringLiteral("could not open ") + missing), StartTimeoutMs);
    // Handed over, too: the second process does not check; the running one says so and opens the rest.
    QProcess second;
    home.start(second, {gone, b});
    QVERIFY(second.waitForFinished(ForwardTimeoutMs));
    QCOMPARE(second.exitCode(), 0);
    QTRY_VERIFY_WITH_TIMEOUT(home.logText().contains(QStringLiteral("could not open ") + gone)
                                 && home.logText().contains(opened(b)),
                             StartTimeoutMs);
    QCOMPARE(first.state(), QProcess::Running);
    stop(first);
}

void tst_SingleInstance::twoStartedTogetherMakeOne()
{
    Home home;
    QVERIFY(home.isValid());
    const QString a = home.document(QStringLiteral("a.md"));
    const QString b = home.document(QStringLiteral("b.md"));
    QProcess one;
    QProcess two;
    one.setProcessChannelMode(QProcess::ForwardedErrorChannel);
    two.setProcessChannelMode(QProcess::ForwardedErrorChannel);
    home.start(one, {a});
    home.start(two, {b});
    // Whichever claimed the socket first runs and opens both; the other hands its file over.
    QTRY_VERIFY_WITH_TIMEOUT(home.logText().contains(opened(a)) && home.logText().contains(opened(b)), StartTimeoutMs);
    QTRY_VERIFY_WITH_TIMEOUT(one.state() == QProcess::NotRunning || two.state() == QProcess::NotRunning,
                             ForwardTimeoutMs);
    QProcess &exited = one.state() == QProcess::NotRunning ? one : two;
    QProcess &running = &exited == &one ? two : one;
    QCOMPARE(exited.exitStatus(), QProcess::NormalExit);
    QCOMPARE(exited.exitCode(), 0);
    QCOMPARE(running.state(), QProcess::Running);
    QCOMPARE(home.logCount(QStringLiteral("single instance listening on")), 1);
    QCOMPARE(home.logCount(QStringLiteral("local demo engine listening")), 1);
    stop(running);
}

void tst_SingleInstance::staleSocketAfterKillDoesNotStopTheNextStart()
{
    Home home;
    QVERIFY(home.isValid());
    QProcess first;
    startFirst(home, first, {});
    const QString socket = home.socketName();
    // In the home's own runtime folder, so the throw-away homes of parallel suites never meet.
    QVERIFY2(socket.startsWith(home.environment().value(QStringLiteral("XDG_RUNTIME_DIR"))), qPrintable(socket));
    first.kill(); // SIGKILL: the socket file stays behind
    QVERIFY(first.waitForFinished(StartTimeoutMs));
    QVERIFY(QFileInfo::exists(socket));

    QProcess again;
    startFirst(home, again, {});
    QCOMPARE(home.socketName(), socket);
    // And it is the running instance now: a later process hands it its file.
    const QString d = home.document(QStringLiteral("d.md"));
    QProcess later;
    home.start(later, {d});
    QVERIFY(later.waitForFinished(ForwardTimeoutMs));
    QCOMPARE(later.exitCode(), 0);
    QTRY_VERIFY_WITH_TIMEOUT(home.logText().contains(opened(d)), StartTimeoutMs);
    QCOMPARE(again.state(), QProcess::Running);
    stop(again);
}

void tst_SingleInstance::twoHomesDoNotMeet()
{
    Home one;
    Home two;
    QVERIFY(one.isValid() && two.isValid());
    QProcess first;
    QProcess other;
    // Started together: each becomes the running instance of its own home.
    first.setProcessChannelMode(QProcess::ForwardedErrorChannel);
    other.setProcessChannelMode(QProcess::ForwardedErrorChannel);
    one.start(first, {});
    two.start(other, {});
    QTRY_VERIFY_WITH_TIMEOUT(!one.socketName().isEmpty() && !two.socketName().isEmpty(), StartTimeoutMs);
    QVERIFY(one.socketName() != two.socketName());
    QCOMPARE(first.state(), QProcess::Running);
    QCOMPARE(other.state(), QProcess::Running);

    const QString x = two.document(QStringLiteral("x.md"));
    QProcess forwarder;
    two.start(forwarder, {x});
    QVERIFY(forwarder.waitForFinished(ForwardTimeoutMs));
    QCOMPARE(forwarder.exitCode(), 0);
    QTRY_VERIFY_WITH_TIMEOUT(two.logText().contains(opened(x)), StartTimeoutMs);
    QVERIFY(!one.logText().contains(opened(x)));
    stop(first);
    stop(other);
}

void tst_SingleInstance::unknownProtocolVersionIsRefused()
{
    Home home;
    QVERIFY(home.isValid());
    QProcess first;
    startFirst(home, first, {});
    QLocalSocket socket;
    socket.connectToServer(home.socketName());
    QVERIFY(socket.waitForConnected(StartTimeoutMs));
    socket.write(R"({"version":99,"files":["/tmp/never-opened.md"]})"
                 "\n");
    QTRY_VERIFY_WITH_TIMEOUT(socket.canReadLine(), StartTimeoutMs);
    const QJsonObject answer = QJsonDocument::fromJson(socket.readLine()).object();
    QCOMPARE(answer.value(QStringLiteral("ok")).toBool(true), false);
    QVERIFY(answer.value(QStringLiteral("error")).toString().contains(QLatin1String("version")));
    QVERIFY(!home.logText().contains(QLatin1String("never-opened")));
    QCOMPARE(first.state(), QProcess::Running);
    stop(first);
}

void tst_SingleInstance::helpIsTranslated()
{
    Home home;
    QVERIFY(home.isValid());
    const auto help = [&](const QStringList &arguments) {
        QProcess p;
        QProcessEnvironment env = home.environment();
        env.insert(QStringLiteral("LC_ALL"), QStringLiteral("C")); // the system's language: English
        env.insert(QStringLiteral("LANGUAGE"), QStringLiteral("C"));
        p.setProcessEnvironment(env);
        p.start(App, arguments);
        if (!p.waitForFinished(StartTimeoutMs) || p.exitCode() != 0)
            return QString();
        return QString::fromUtf8(p.readAllStandardOutput());
    };
    const QString english = help({QStringLiteral("--help")});
    QVERIFY2(english.contains(QLatin1String("--new-window")), qPrintable(english));
    QVERIFY2(withoutSpaces(english).contains(withoutSpaces(QStringLiteral(
                 "Open the files in a new window. Headstart has one window for now: they open in the running one."))),
             qPrintable(english));
    QVERIFY(!english.contains(QLatin1String("type-document"))); // hidden, for tests

    // Qt's own part of the help ("Usage:", "Options:") comes from Qt's catalogue: in Chinese
    // only if the translators were in place before the parser built its texts.
    QTranslator qt;
    QVERIFY(qt.load(QLocale(QStringLiteral("zh_CN")), QStringLiteral("qtbase"), QStringLiteral("_"),
                    QLibraryInfo::path(QLibraryInfo::TranslationsPath)));
    const QString usage = qt.translate("QCommandLineParser", "Usage: %1").section(QStringLiteral("%1"), 0, 0).trimmed();
    QVERIFY(!usage.isEmpty() && !usage.startsWith(QLatin1String("Usage")));
    for (const QStringList &arguments :
         {QStringList{QStringLiteral("--language"), QStringLiteral("zh_CN"), QStringLiteral("--help")},
          QStringList{QStringLiteral("--help"), QStringLiteral("--language=zh_CN")}}) {
        const QString chinese = help(arguments);
        QVERIFY2(chinese.contains(usage), qPrintable(chinese));
        // And ours, from the app's catalogue: every "CommandLine" description it translates
        // (the help wraps long lines, hence the comparison without white space).
        for (const QString &translation : commandLineTranslations())
            QVERIFY2(withoutSpaces(chinese).contains(withoutSpaces(translation)),
                     qPrintable(translation + u'\n' + chinese));
    }
}

void tst_SingleInstance::versionAndUnknownOption()
{
    Home home;
    QVERIFY(home.isValid());
    // Without a display: --version, --help and mistakes are answered before any window.
    QProcessEnvironment env = home.environment();
    for (const char *variable : {"QT_QPA_PLATFORM", "DISPLAY", "WAYLAND_DISPLAY"})
        env.remove(QLatin1String(variable));
    env.insert(QStringLiteral("LC_ALL"), QStringLiteral("C")); // Qt's message in English
    env.insert(QStringLiteral("LANGUAGE"), QStringLiteral("C"));
    QProcess version;
    version.setProcessEnvironment(env);
    version.start(App, {QStringLiteral("--version")});
    QVERIFY(version.waitForFinished(StartTimeoutMs));
    QCOMPARE(version.exitCode(), 0);
    const QString printed = QString::fromUtf8(version.readAllStandardOutput());
    QVERIFY2(printed.contains(QLatin1String("Headstart " HEADSTART_VERSION)), qPrintable(printed));

    QProcess unknown;
    unknown.setProcessEnvironment(env);
    unknown.start(App, {QStringLiteral("--no-such-option")});
    QVERIFY(unknown.waitForFinished(StartTimeoutMs));
    QVERIFY(unknown.exitCode() != 0);
    const QString error = QString::fromUtf8(unknown.readAllStandardError());
    QVERIFY2(error.contains(QLatin1String("Unknown option 'no-such-option'")), qPrintable(error));
    // Neither started the app: no log was written.
    QVERIFY(home.logText().isEmpty());
}

QTEST_GUILESS_MAIN(tst_SingleInstance)
#include "tst_singleinstance.moc"
