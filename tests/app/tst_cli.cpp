// headstart-cli as a user runs it: chat against the in-process local provider and against a
// running headstart-localprovider process, Ctrl-C closing the connection, errors and bad
// arguments turning into clear messages and exit codes; the replay benchmark writing its report
// and JSON; tracegen giving the committed traces back. Loopback only.
#include "support/badserver.h"

#include <QDir>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QProcess>
#include <QSignalSpy>
#include <QTcpSocket>
#include <QTemporaryDir>
#include <QTest>

#include <csignal>

class tst_Cli : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void cleanup();
    void chatInProcess();
    void chatAgainstRunningProvider();
    void repeatSendsTheRequestNTimes();
    void interruptClosesTheConnection();
    void providerErrorExitsWithOne();
    void terminalControlsAreNotPrinted();
    void badArguments_data();
    void badArguments();
    void providersLists();
    void benchWritesReportAndJson();
    void tracegenIsTheCommittedTrace();

private:
    struct Run {
        int exitCode = -1;
        QByteArray out;
        QByteArray err;
    };
    Run run(const QStringList &arguments, const QProcessEnvironment &env = QProcessEnvironment::systemEnvironment());
    // Starts headstart-localprovider with `arguments`; returns its root URL.
    QUrl startProvider(const QStringList &arguments);
    QJsonObject stats(const QUrl &root);

    QString m_cli;
    QString m_provider;
    QProcess m_providerProcess;
    QNetworkAccessManager m_network;
};

void tst_Cli::initTestCase()
{
    m_cli = QStringLiteral(HEADSTART_BIN_DIR "/cli/headstart-cli");
    m_provider = QStringLiteral(HEADSTART_BIN_DIR "/localprovider/headstart-localprovider");
    QVERIFY2(QFile::exists(m_cli), qPrintable(m_cli));
    QVERIFY2(QFile::exists(m_provider), qPrintable(m_provider));
}

void tst_Cli::cleanup()
{
    if (m_providerProcess.state() != QProcess::NotRunning) {
        m_providerProcess.terminate();
        if (!m_providerProcess.waitForFinished(3000))
            m_providerProcess.kill();
    }
}

tst_Cli::Run tst_Cli::run(const QStringList &arguments, const QProcessEnvironment &env)
{
    QProcess process;
    process.setProcessEnvironment(env);
    process.start(m_cli, arguments);
    Run result;
    if (!process.waitForFinished(30000)) {
        process.kill();
        return result;
    }
    result.exitCode = process.exitStatus() == QProcess::NormalExit ? process.exitCode() : -1;
    result.out = process.readAllStandardOutput();
    result.err = process.readAllStandardError();
    return result;
}

QUrl tst_Cli::startProvider(const QStringList &arguments)
{
    m_providerProcess.start(m_provider,
                            QStringList{QStringLiteral("--port"), QStringLiteral("0"), QStringLiteral("--quiet")}
                                + arguments);
    if (!m_providerProcess.waitForStarted(5000))
        return {};
    if (!QTest::qWaitFor([this] { return m_providerProcess.canReadLine(); }, 5000))
        return {};
    return QUrl(QString::fromUtf8(m_providerProcess.readLine().trimmed()));
}

QJsonObject tst_Cli::stats(const QUrl &root)
{
    QNetworkReply *reply = m_network.get(QNetworkRequest(root.resolved(QUrl(QStringLiteral("stats")))));
    QSignalSpy finished(reply, &QNetworkReply::finished);
    if (!finished.wait(5000))
        return {};
    const QJsonObject object = QJsonDocument::fromJson(reply->readAll()).object();
    reply->deleteLater();
    return object;
}

void tst_Cli::chatInProcess()
{
    const Run r = run({QStringLiteral("chat"), QStringLiteral("--latency-profile"), QStringLiteral("instant"),
                       QStringLiteral("--max-tokens"), QStringLiteral("20"),
                       QStringLiteral("Explain prompt caching to a new colleague.")});
    QCOMPARE(r.exitCode, 0);
    QVERIFY(r.out.trimmed().size() > 10);
    QVERIFY2(r.err.contains("time to first token"), r.err.constData());
    QVERIFY2(r.err.contains("usage:"), r.err.constData());
    QVERIFY2(r.err.contains("finish:"), r.err.constData());
}

void tst_Cli::chatAgainstRunningProvider()
{
    const QUrl root = startProvider({QStringLiteral("--profile"), QStringLiteral("instant")});
    QVERIFY(root.isValid() && root.port() > 0);
    const QStringList args{QStringLiteral("chat"),
                           QStringLiteral("--provider"),
                           QStringLiteral("local"),
                           QStringLiteral("--base-url"),
                           root.toString(),
                           QStringLiteral("--max-tokens"),
                           QStringLiteral("12"),
                           QStringLiteral("--stats-json"),
                           QStringLiteral("Same prompt, same answer: that is the contract.")};
    const Run first = run(args);
    QCOMPARE(first.exitCode, 0);
    const QJsonObject json = QJsonDocument::fromJson(first.err.trimmed().split('\n').last()).object();
    QCOMPARE(json.value(QLatin1String("provider")).toString(), QStringLiteral("local"));
    QVERIFY(json.value(QLatin1String("ttft_ms")).toDouble() >= 0);
    const QJsonObject usage = json.value(QLatin1String("usage")).toObject();
    QVERIFY(usage.value(QLatin1String("input")).toInt() > 0);
    QVERIFY(usage.value(QLatin1String("output")).toInt() > 0);
    QVERIFY(usage.value(QLatin1String("output")).toInt() <= 12);

    const Run second = run(args);
    QCOMPARE(second.exitCode, 0);
    QCOMPARE(second.out, first.out); // the provider is deterministic, the CLI adds nothing
    QCOMPARE(stats(root).value(QLatin1String("requests_served")).toInt(), 2);
}

void tst_Cli::repeatSendsTheRequestNTimes()
{
    const QUrl root = startProvider({QStringLiteral("--profile"), QStringLiteral("instant")});
    QVERIFY(root.isValid() && root.port() > 0);
    const Run r = run({QStringLiteral("chat"), QStringLiteral("--provider"), QStringLiteral("local"),
                       QStringLiteral("--base-url"), root.toString(), QStringLiteral("--max-tokens"),
                       QStringLiteral("8"), QStringLiteral("--stats-json"), QStringLiteral("--quiet"),
                       QStringLiteral("--repeat"), QStringLiteral("3"),
                       QStringLiteral("One process, one connection, three answers.")});
    QCOMPARE(r.exitCode, 0);
    QVERIFY(r.out.isEmpty());
    const QList<QByteArray> lines = r.err.trimmed().split('\n');
    QCOMPARE(lines.size(), 3);
    for (const QByteArray &line : lines) {
        const QJsonObject json = QJsonDocument::fromJson(line).object();
        QVERIFY2(json.value(QLatin1String("ttft_ms")).toDouble() >= 0, line.constData());
        QVERIFY2(json.value(QLatin1String("error")).toString().isEmpty(), line.constData());
        QCOMPARE(json.value(QLatin1String("usage")).toObject().value(QLatin1String("output")).toInt(), 8);
    }
    QCOMPARE(stats(root).value(QLatin1String("requests_served")).toInt(), 3);
    QCOMPARE(stats(root).value(QLatin1String("streams_completed")).toInt(), 3);
}

void tst_Cli::interruptClosesTheConnection()
{
    // 10 tokens/s: the answer takes many seconds, so the interrupt lands mid-stream.
    const QUrl root = startProvider(
        {QStringLiteral("--profile"), QStringLiteral("instant"), QStringLiteral("--decode-tps"), QStringLiteral("10")});
    QVERIFY(root.isValid());
    QProcess chat;
    chat.start(m_cli,
               {QStringLiteral("chat"), QStringLiteral("--base-url"), root.toString(), QStringLiteral("--max-tokens"),
                QStringLiteral("500"), QStringLiteral("Tell a long story that will be interrupted.")});
    QVERIFY(chat.waitForStarted(5000));
    QByteArray out;
    QVERIFY(QTest::qWaitFor(
        [&] {
            out += chat.readAllStandardOutput();
            return !out.isEmpty();
        },
        10000));
    QCOMPARE(stats(root).value(QLatin1String("streams_open")).toInt(), 1);

    ::kill(pid_t(chat.processId()), SIGINT);
    QVERIFY(chat.waitForFinished(5000));
    QCOMPARE(chat.exitStatus(), QProcess::NormalExit); // handled, not killed by the signal
    QCOMPARE(chat.exitCode(), 130);
    QVERIFY(chat.readAllStandardError().contains("interrupted"));
    QTRY_COMPARE_WITH_TIMEOUT(stats(root).value(QLatin1String("streams_open")).toInt(), 0, 2000);
    QCOMPARE(stats(root).value(QLatin1String("streams_cancelled")).toInt(), 1);
}

void tst_Cli::providerErrorExitsWithOne()
{
    const Run r = run({QStringLiteral("chat"), QStringLiteral("--latency-profile"), QStringLiteral("instant"),
                       QStringLiteral("--header"), QStringLiteral("X-Headstart-Fault: status=429,retry-after=9"),
                       QStringLiteral("Too many requests?")});
    QCOMPARE(r.exitCode, 1);
    QVERIFY2(r.err.contains("rate_limited"), r.err.constData());
    QVERIFY2(r.err.contains("9 s"), r.err.constData());
}

void tst_Cli::badArguments_data()
{
    QTest::addColumn<QStringList>("arguments");
    QTest::addColumn<QByteArray>("message");
    QTest::addRow("no command") << QStringList{} << QByteArray("usage:");
    QTest::addRow("unknown command") << QStringList{QStringLiteral("dance")} << QByteArray("unknown command");
    QTest::addRow("unknown provider") << QStringList{QStringLiteral("chat"), QStringLiteral("--provider"),
                                                     QStringLiteral("nope"), QStringLiteral("hi")}
                                      << QByteArray("unknown provider");
    QTest::addRow("bad max tokens") << QStringList{QStringLiteral("chat"), QStringLiteral("--max-tokens"),
                                                   QStringLiteral("lots"), QStringLiteral("hi")}
                                    << QByteArray("--max-tokens");
    QTest::addRow("bad repeat") << QStringList{QStringLiteral("chat"), QStringLiteral("--repeat"), QStringLiteral("0"),
                                               QStringLiteral("hi")}
                                << QByteArray("--repeat");
    // Refused before any connection is made: tests never talk to anything but loopback.
    QTest::addRow("cloud without key") << QStringList{QStringLiteral("chat"), QStringLiteral("--provider"),
                                                      QStringLiteral("deepseek"), QStringLiteral("hi")}
                                       << QByteArray("DEEPSEEK_API_KEY");
    QTest::addRow("unknown latency profile") << QStringList{QStringLiteral("chat"), QStringLiteral("--latency-profile"),
                                                            QStringLiteral("warp"), QStringLiteral("hi")}
                                             << QByteArray("unknown latency profile");
}

void tst_Cli::badArguments()
{
    QFETCH(QStringList, arguments);
    QFETCH(QByteArray, message);
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.remove(QStringLiteral("DEEPSEEK_API_KEY"));
    const Run r = run(arguments, env);
    QCOMPARE(r.exitCode, 2);
    QVERIFY2(r.err.contains(message), r.err.constData());
}

void tst_Cli::providersLists()
{
    const Run r = run({QStringLiteral("providers")});
    QCOMPARE(r.exitCode, 0);
    for (const char *id : {"local", "deepseek", "qwen", "openai", "anthropic", "ollama", "llamacpp", "custom"})
        QVERIFY2(r.out.contains(id), id);
    QVERIFY(r.out.contains("Local demo engine (offline, not a language model)"));
}

void tst_Cli::benchWritesReportAndJson()
{
    // A click after a hover on one document, ten times faster than real time: two runs.
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString tracePath = dir.filePath(QStringLiteral("click.jsonl"));
    QFile trace(tracePath);
    QVERIFY(trace.open(QIODevice::WriteOnly));
    trace.write(R"({"t":0,"event":"meta","name":"click"}
{"t":0,"event":"open_document","doc":"d","tokens":1500,"seed":2,"language":"en"}
{"t":3000,"event":"hover_enter","action":"summarize"}
{"t":3420,"event":"press","action":"summarize"}
{"t":3500,"event":"click","action":"summarize"}
{"t":9000,"event":"end"}
)");
    trace.close();
    const QString out = dir.filePath(QStringLiteral("report"));
    const Run r = run({QStringLiteral("bench"), QStringLiteral("--trace"), tracePath, QStringLiteral("--profile"),
                       QStringLiteral("hosted"), QStringLiteral("--mode"), QStringLiteral("off"),
                       QStringLiteral("--mode"), QStringLiteral("hover"), QStringLiteral("--speed"),
                       QStringLiteral("10"), QStringLiteral("--out"), out, QStringLiteral("--json")});
    QCOMPARE(r.exitCode, 0);
    QVERIFY2(r.err.contains("[2/2] click"), r.err.constData());
    const QJsonObject json = QJsonDocument::fromJson(r.out).object();
    const QJsonArray runs = json.value(QLatin1String("runs")).toArray();
    QCOMPARE(runs.size(), 2);
    for (const QJsonValue &v : runs) {
        const QJsonObject run = v.toObject();
        QCOMPARE(run.value(QLatin1String("trace")).toString(), QStringLiteral("click"));
        QCOMPARE(run.value(QLatin1String("answered")).toInt(), 1);
        QVERIFY(run.value(QLatin1String("perceived_p50_ms")).toDouble() >= 0);
        QVERIFY(run.value(QLatin1String("tokens")).toObject().value(QLatin1String("prompt")).toInteger() > 1000);
    }
    QCOMPARE(runs.at(1).toObject().value(QLatin1String("prefetched")).toInt(), 1);
    QCOMPARE(runs.at(0).toObject().value(QLatin1String("prefetched")).toInt(), 0);
    for (const char *file : {"report.md", "report.json", "cdf-click-hosted.png", "hit-cost-hosted.png"})
        QVERIFY2(QFile::exists(QDir(out).filePath(QLatin1String(file))), file);

    // What a shell glob gives: several values after one option.
    QVERIFY(QFile::copy(tracePath, dir.filePath(QStringLiteral("again.jsonl"))));
    const Run globbed = run({QStringLiteral("bench"), QStringLiteral("--trace"), tracePath,
                             dir.filePath(QStringLiteral("again.jsonl")), QStringLiteral("--profile"),
                             QStringLiteral("hosted"), QStringLiteral("instant"), QStringLiteral("--mode"),
                             QStringLiteral("off"), QStringLiteral("--speed"), QStringLiteral("10"),
                             QStringLiteral("--out"), out, QStringLiteral("--json")});
    QCOMPARE(globbed.exitCode, 0);
    const QJsonArray globbedRuns = QJsonDocument::fromJson(globbed.out).object().value(QLatin1String("runs")).toArray();
    QCOMPARE(globbedRuns.size(), 4);
    // Both files are named "click" inside; the second is told apart by its file name.
    QCOMPARE(globbedRuns.at(0).toObject().value(QLatin1String("trace")).toString(), QStringLiteral("click"));
    QCOMPARE(globbedRuns.at(3).toObject().value(QLatin1String("trace")).toString(), QStringLiteral("click-again"));

    // Bad input: a clear message and exit code 2, nothing run.
    const QString broken = dir.filePath(QStringLiteral("broken.jsonl"));
    QFile b(broken);
    QVERIFY(b.open(QIODevice::WriteOnly));
    b.write("{\"t\":0,\"event\":\"click\",\"action\":\"summarize\"}\n{\"t\":5,\"event\":\"fly\"}\n");
    b.close();
    Run bad = run({QStringLiteral("bench"), QStringLiteral("--trace"), broken});
    QCOMPARE(bad.exitCode, 2);
    QVERIFY2(bad.err.contains("broken:2: unknown event \"fly\""), bad.err.constData());
    bad = run({QStringLiteral("bench"), QStringLiteral("--trace"), tracePath, QStringLiteral("--profile"),
               QStringLiteral("moon")});
    QCOMPARE(bad.exitCode, 2);
    QVERIFY2(bad.err.contains("unknown profile 'moon'"), bad.err.constData());
    bad = run({QStringLiteral("bench"), QStringLiteral("--out"), out, QStringLiteral("stray"),
               QStringLiteral("--trace"), tracePath});
    QCOMPARE(bad.exitCode, 2);
    QVERIFY2(bad.err.contains("unexpected argument 'stray'"), bad.err.constData());
    bad = run({QStringLiteral("bench"), QStringLiteral("--trace"), dir.filePath(QStringLiteral("missing.jsonl"))});
    QCOMPARE(bad.exitCode, 2);
    QVERIFY2(bad.err.contains("missing.jsonl"), bad.err.constData());
}

void tst_Cli::tracegenIsTheCommittedTrace()
{
    const Run r = run({QStringLiteral("tracegen"), QStringLiteral("--kind"), QStringLiteral("wizard-session"),
                       QStringLiteral("--seed"), QStringLiteral("1")});
    QCOMPARE(r.exitCode, 0);
    QFile committed(QStringLiteral(HEADSTART_SOURCE_DIR "/bench/traces/wizard-session.jsonl"));
    QVERIFY(committed.open(QIODevice::ReadOnly));
    QCOMPARE(r.out, committed.readAll());
    const Run bad = run({QStringLiteral("tracegen"), QStringLiteral("--kind"), QStringLiteral("sleepwalker")});
    QCOMPARE(bad.exitCode, 2);
    QVERIFY(bad.err.contains("sleepwalker"));
}

void tst_Cli::terminalControlsAreNotPrinted()
{
    // An answer that would retitle the terminal (OSC 0), write the clipboard (OSC 52, split
    // across two events), clear the screen (CSI) and move the cursor with an 8-bit CSI.
    TestSupport::BadServer server;
    QVERIFY(server.listen());
    const QByteArray body =
        "data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"Hello \\u001b]0;pwned\\u0007wor\"}}]}\n\n"
        "data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"ld\\u001b]52;c;ZXZpbA\"}}]}\n\n"
        "data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"==\\u001b\\\\!\\u001b[2J\\u009b5A\\ttab\\n\"}}]}\n\n"
        "data: {\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"stop\"}]}\n\ndata: [DONE]\n\n";
    server.respondWith(TestSupport::BadServer::response("200 OK", {{"Content-Type", "text/event-stream"}}, body));

    for (const bool raw : {false, true}) {
        QProcess cli;
        QStringList arguments{QStringLiteral("chat"),       QStringLiteral("--provider"), QStringLiteral("ollama"),
                              QStringLiteral("--base-url"), server.baseUrl().toString(),  QStringLiteral("Hi")};
        if (raw)
            arguments.insert(1, QStringLiteral("--raw"));
        cli.start(m_cli, arguments);
        // The server answers from this thread: wait with the event loop running.
        QTRY_COMPARE_WITH_TIMEOUT(cli.state(), QProcess::NotRunning, 15000);
        QCOMPARE(cli.exitCode(), 0);
        const QByteArray out = cli.readAllStandardOutput();
        if (raw)
            QVERIFY2(out.contains("\x1b]52;c;ZXZpbA=="), out.toHex().constData()); // asked for: as it came
        else
            QCOMPARE(out, QByteArray("Hello world!\ttab\n"));
    }
}

QTEST_GUILESS_MAIN(tst_Cli)
#include "tst_cli.moc"
