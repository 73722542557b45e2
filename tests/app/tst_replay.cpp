#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

#include <sys/stat.h>

// Runs the real `headstart-cli replay` (built next to the tests) on transcripts and checks the
// JSON it prints and its exit code.
class tst_Replay : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void openAiToolCalls();
    void openAiSeveralChoices();
    void anthropicThinkingInPieces();
    void anthropicErrorExitsOne();
    void unterminatedTail();
    void truncatedStreamExitsThree_data();
    void truncatedStreamExitsThree();
    void openAiWithoutDoneButFinishedIsComplete();
    void rawEvents();
    void rawCleanStreamExitsZero();
    void eventsPrintedAsTheyArrive();
    void largeTranscriptSameInAnyChunking();
    void badArguments_data();
    void badArguments();

private:
    struct Result {
        int exitCode = -1;
        QJsonObject json; // when the output is an object
        QJsonArray array; // when it is an array (plain --format sse)
        QByteArray stderrText;
    };
    Result replay(const QStringList &arguments);
    QString writeFile(const QString &name, const QByteArray &bytes);

    QString m_cli;
    QTemporaryDir m_dir;
};

void tst_Replay::initTestCase()
{
    m_cli = QStringLiteral(HEADSTART_BIN_DIR "/cli/headstart-cli");
    QVERIFY2(QFile::exists(m_cli), qPrintable(m_cli + QStringLiteral(" is not built")));
    QVERIFY(m_dir.isValid());
}

tst_Replay::Result tst_Replay::replay(const QStringList &arguments)
{
    QProcess process;
    QSignalSpy finished(&process, &QProcess::finished);
    process.start(m_cli, QStringList{QStringLiteral("replay")} + arguments);
    Result result;
    if (!finished.wait(20000)) {
        process.kill();
        return result;
    }
    result.exitCode = process.exitStatus() == QProcess::NormalExit ? process.exitCode() : -1;
    result.stderrText = process.readAllStandardError();
    const QByteArray out = process.readAllStandardOutput();
    if (!out.isEmpty()) {
        const QJsonDocument doc = QJsonDocument::fromJson(out);
        result.json = doc.object();
        result.array = doc.array();
    }
    return result;
}

QString tst_Replay::writeFile(const QString &name, const QByteArray &bytes)
{
    const QString path = m_dir.filePath(name);
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly) || file.write(bytes) != bytes.size())
        qFatal("cannot write %s", qPrintable(path));
    return path;
}

static QString dataFile(const char *name)
{
    return QStringLiteral(HEADSTART_TEST_DATA "/") + QLatin1String(name);
}

void tst_Replay::openAiToolCalls()
{
    const Result r = replay({QStringLiteral("--format"), QStringLiteral("openai"), dataFile("openai-tool-calls.sse")});
    QCOMPARE(r.exitCode, 0);
    const QJsonObject &j = r.json;
    QCOMPARE(j.value(QLatin1String("text")).toString(), QString());
    QVERIFY(j.value(QLatin1String("reasoning")).isNull());
    QVERIFY(j.value(QLatin1String("refusal")).isNull());
    QCOMPARE(j.value(QLatin1String("finish_reason")).toString(), QStringLiteral("tool_calls"));
    const QJsonArray calls = j.value(QLatin1String("tool_calls")).toArray();
    QCOMPARE(calls.size(), 2);
    QCOMPARE(calls.at(0).toObject().value(QLatin1String("id")).toString(), QStringLiteral("call_hsWeather01"));
    QCOMPARE(calls.at(0).toObject().value(QLatin1String("name")).toString(), QStringLiteral("get_weather"));
    QCOMPARE(calls.at(0).toObject().value(QLatin1String("arguments")).toString(),
             QStringLiteral(R"({"city": "Hangzhou", "unit": "c"})"));
    QCOMPARE(calls.at(1).toObject().value(QLatin1String("name")).toString(), QStringLiteral("get_local_time"));
    const QJsonObject usage = j.value(QLatin1String("usage")).toObject();
    QCOMPARE(usage.value(QLatin1String("input")).toInt(), 310);
    QCOMPARE(usage.value(QLatin1String("output")).toInt(), 52);
    QCOMPARE(usage.value(QLatin1String("cache_read")).toInt(), 0);
    QVERIFY(usage.value(QLatin1String("cache_write")).isNull());
    QCOMPARE(j.value(QLatin1String("events")).toInt(), 13);
    QCOMPARE(j.value(QLatin1String("complete")).toBool(), true);
    QCOMPARE(j.value(QLatin1String("unterminated_tail")).toBool(), false);
    QCOMPARE(j.value(QLatin1String("errors")).toArray().size(), 0);
    QVERIFY(!j.contains(QLatin1String("choices")));
}

void tst_Replay::openAiSeveralChoices()
{
    const QString path = writeFile(
        QStringLiteral("n2.sse"),
        "data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"A\"}},{\"index\":1,\"delta\":{\"content\":\"B\"}}]}\n\n"
        "data: {\"choices\":[{\"index\":1,\"delta\":{},\"finish_reason\":\"length\"}]}\n\n"
        "data: {\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"stop\"}]}\n\n"
        "data: [DONE]\n\n");
    const Result r = replay({QStringLiteral("--format"), QStringLiteral("openai"), path});
    QCOMPARE(r.exitCode, 0);
    QCOMPARE(r.json.value(QLatin1String("text")).toString(), QStringLiteral("A"));
    QCOMPARE(r.json.value(QLatin1String("finish_reason")).toString(), QStringLiteral("stop"));
    QVERIFY(r.json.value(QLatin1String("usage")).isNull());
    const QJsonArray choices = r.json.value(QLatin1String("choices")).toArray();
    QCOMPARE(choices.size(), 2);
    QCOMPARE(choices.at(1).toObject().value(QLatin1String("index")).toInt(), 1);
    QCOMPARE(choices.at(1).toObject().value(QLatin1String("text")).toString(), QStringLiteral("B"));
    QCOMPARE(choices.at(1).toObject().value(QLatin1String("finish_reason")).toString(), QStringLiteral("length"));
}

void tst_Replay::anthropicThinkingInPieces()
{
    const QString file = dataFile("anthropic-thinking-cache.sse");
    const Result whole = replay({QStringLiteral("--format"), QStringLiteral("anthropic"), file});
    const Result pieces = replay({QStringLiteral("--format"), QStringLiteral("anthropic"), QStringLiteral("--chunk"),
                                  QStringLiteral("5"), file});
    QCOMPARE(whole.exitCode, 0);
    QCOMPARE(pieces.json, whole.json);
    QCOMPARE(whole.json.value(QLatin1String("text")).toString(),
             QStringLiteral("文档讲的是提示词缓存：静态前缀不变，缓存就能命中。"));
    QCOMPARE(whole.json.value(QLatin1String("reasoning")).toString(),
             QStringLiteral("The document is about prompt caching; answer briefly."));
    QCOMPARE(whole.json.value(QLatin1String("finish_reason")).toString(), QStringLiteral("end_turn"));
    const QJsonObject usage = whole.json.value(QLatin1String("usage")).toObject();
    QCOMPARE(usage.value(QLatin1String("input")).toInt(), 4117);
    QCOMPARE(usage.value(QLatin1String("cache_read")).toInt(), 4096);
    QCOMPARE(usage.value(QLatin1String("cache_write")).toInt(), 0);
    QCOMPARE(whole.json.value(QLatin1String("events")).toInt(), 18);
    QVERIFY(whole.json.value(QLatin1String("complete")).toBool());
}

void tst_Replay::anthropicErrorExitsOne()
{
    const Result r = replay(
        {QStringLiteral("--format"), QStringLiteral("anthropic"), dataFile("anthropic-error-midstream.sse")});
    QCOMPARE(r.exitCode, 1);
    QCOMPARE(r.json.value(QLatin1String("text")).toString(), QStringLiteral("Partial answer"));
    const QJsonArray errors = r.json.value(QLatin1String("errors")).toArray();
    QCOMPARE(errors.size(), 1);
    QVERIFY(errors.at(0).toString().contains(QLatin1String("overloaded_error")));
    QCOMPARE(r.json.value(QLatin1String("complete")).toBool(), false);
}

void tst_Replay::unterminatedTail()
{
    // The final event lacks its blank line: strict parsing drops it and says so.
    const QString path =
        writeFile(QStringLiteral("tail.sse"),
                  "data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"A\"},\"finish_reason\":\"stop\"}]}\n\n"
                  "data: [DONE]\n");
    const Result r = replay({QStringLiteral("--format"), QStringLiteral("openai"), path});
    // Without its end marker the stream is incomplete: not the clean 0, and not 1 either,
    // since nothing in it was malformed.
    QCOMPARE(r.exitCode, 3);
    QCOMPARE(r.json.value(QLatin1String("events")).toInt(), 1);
    QCOMPARE(r.json.value(QLatin1String("text")).toString(), QStringLiteral("A"));
    QCOMPARE(r.json.value(QLatin1String("unterminated_tail")).toBool(), true);
    QCOMPARE(r.json.value(QLatin1String("complete")).toBool(), false);
    QCOMPARE(r.json.value(QLatin1String("errors")).toArray().size(), 0);
    QVERIFY(r.stderrText.contains("incomplete"));

    const QString broken = writeFile(QStringLiteral("broken.sse"), "data: {\"choices\":[\n\n");
    const Result b = replay({QStringLiteral("--format"), QStringLiteral("openai"), broken});
    QCOMPARE(b.exitCode, 1);
    QVERIFY(b.json.value(QLatin1String("errors")).toArray().at(0).toString().startsWith(QLatin1String("malformed")));
}

void tst_Replay::truncatedStreamExitsThree_data()
{
    QTest::addColumn<QString>("format");
    QTest::addColumn<QByteArray>("bytes");
    QTest::addColumn<QString>("text");
    // Each is a real stream's beginning, cut at an event boundary: the parser sees nothing
    // wrong, only the end marker never comes.
    QTest::addRow("openai, no finish, no [DONE]")
        << QStringLiteral("openai")
        << QByteArray("data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"Hel\"}}]}\n\n"
                      "data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"lo\"}}]}\n\n")
        << QStringLiteral("Hello");
    QTest::addRow("openai, finish but no usage, no [DONE]")
        << QStringLiteral("openai")
        << QByteArray(
               "data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"Hi\"},\"finish_reason\":\"stop\"}]}\n\n")
        << QStringLiteral("Hi");
    QTest::addRow("anthropic, cut before message_stop")
        << QStringLiteral("anthropic")
        << QByteArray(
               "event: content_block_start\ndata: {\"type\":\"content_block_start\",\"index\":0,"
               "\"content_block\":{\"type\":\"text\",\"text\":\"\"}}\n\n"
               "event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":0,"
               "\"delta\":{\"type\":\"text_delta\",\"text\":\"Par\"}}\n\n"
               "event: message_delta\ndata: {\"type\":\"message_delta\",\"delta\":{\"stop_reason\":\"end_turn\"}}\n\n")
        << QStringLiteral("Par");
    QTest::addRow("anthropic, cut inside message_stop")
        << QStringLiteral("anthropic")
        << QByteArray("event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":0,"
                      "\"delta\":{\"type\":\"text_delta\",\"text\":\"All\"}}\n\n"
                      "event: message_stop\ndata: {\"type\":\"mess")
        << QStringLiteral("All");
    QTest::addRow("empty file") << QStringLiteral("openai") << QByteArray() << QString();
}

void tst_Replay::truncatedStreamExitsThree()
{
    QFETCH(QString, format);
    QFETCH(QByteArray, bytes);
    QFETCH(QString, text);
    const QString path = writeFile(QStringLiteral("cut.sse"), bytes);
    for (const QString &chunk : {QStringLiteral("1"), QStringLiteral("7"), QStringLiteral("65536")}) {
        const Result r = replay({QStringLiteral("--format"), format, QStringLiteral("--chunk"), chunk, path});
        QCOMPARE(r.exitCode, 3);
        QCOMPARE(r.json.value(QLatin1String("complete")).toBool(), false);
        QCOMPARE(r.json.value(QLatin1String("text")).toString(), text);
        QCOMPARE(r.json.value(QLatin1String("errors")).toArray().size(), 0);
        QVERIFY(r.stderrText.contains("incomplete stream"));
    }
}

void tst_Replay::openAiWithoutDoneButFinishedIsComplete()
{
    // Gateways that drop [DONE] still end with every choice finished and the usage chunk:
    // nothing can follow, so that is a complete stream (ProviderRequest treats it the same way).
    const QString path =
        writeFile(QStringLiteral("nodone.sse"),
                  "data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"Hi\"},\"finish_reason\":\"stop\"}]}\n\n"
                  "data: {\"choices\":[],\"usage\":{\"prompt_tokens\":3,\"completion_tokens\":1}}\n\n");
    const Result r = replay({QStringLiteral("--format"), QStringLiteral("openai"), path});
    QCOMPARE(r.exitCode, 0);
    QCOMPARE(r.json.value(QLatin1String("complete")).toBool(), true);
    QVERIFY(r.stderrText.isEmpty());
}

void tst_Replay::rawEvents()
{
    const QString path = writeFile(QStringLiteral("raw.sse"),
                                   "\xEF\xBB\xBFid: 1\r\nevent: add\r\ndata: a\r\ndata:\xE4\xBD\xA0\r\n\r\n"
                                   ": comment\rretry: 250\rdata: b\r\rdata: never");
    // Plain: the bare event array, as `[{"event","data","id"}]`.
    const Result bare = replay({QStringLiteral("--format"), QStringLiteral("sse"), path});
    // The last event has no blank line after it: the stream was cut inside an event.
    QCOMPARE(bare.exitCode, 3);
    QVERIFY(bare.stderrText.contains("incomplete stream"));
    QCOMPARE(bare.array.size(), 2);
    QCOMPARE(bare.array.at(0).toObject().value(QLatin1String("data")).toString(), QStringLiteral("a\n你"));

    // --state: the same events plus the parser's end state, fed one byte at a time.
    const Result r = replay({QStringLiteral("--format"), QStringLiteral("sse"), QStringLiteral("--state"),
                             QStringLiteral("--chunk"), QStringLiteral("1"), path});
    QCOMPARE(r.exitCode, 3);
    const QJsonArray events = r.json.value(QLatin1String("events")).toArray();
    QCOMPARE(QJsonArray(events), bare.array);
    QCOMPARE(events.size(), 2);
    const QJsonObject first = events.at(0).toObject();
    QCOMPARE(first.value(QLatin1String("event")).toString(), QStringLiteral("add"));
    QCOMPARE(first.value(QLatin1String("data")).toString(), QStringLiteral("a\n你"));
    QCOMPARE(first.value(QLatin1String("id")).toString(), QStringLiteral("1"));
    const QJsonObject second = events.at(1).toObject();
    QCOMPARE(second.value(QLatin1String("event")).toString(), QStringLiteral("message"));
    QCOMPARE(second.value(QLatin1String("data")).toString(), QStringLiteral("b"));
    QCOMPARE(second.value(QLatin1String("id")).toString(), QStringLiteral("1"));
    QCOMPARE(r.json.value(QLatin1String("retry_ms")).toInt(), 250);
    QCOMPARE(r.json.value(QLatin1String("unterminated_tail")).toBool(), true);
}

void tst_Replay::rawCleanStreamExitsZero()
{
    const QString path = writeFile(QStringLiteral("clean.sse"), "event: a\ndata: 1\n\n: ping\n\ndata: 2\r\n\r\n");
    for (const QStringList &extra :
         {QStringList(), QStringList{QStringLiteral("--state")},
          QStringList{QStringLiteral("--compact"), QStringLiteral("--chunk"), QStringLiteral("3")}}) {
        const Result r = replay(QStringList{QStringLiteral("--format"), QStringLiteral("sse")} + extra
                                + QStringList{path});
        QCOMPARE(r.exitCode, 0);
        QVERIFY(r.stderrText.isEmpty());
        const QJsonArray events = extra.contains(QLatin1String("--state"))
                                      ? r.json.value(QLatin1String("events")).toArray()
                                      : r.array;
        QCOMPARE(events.size(), 2);
        QCOMPARE(events.at(0).toObject().value(QLatin1String("event")).toString(), QStringLiteral("a"));
        QCOMPARE(events.at(1).toObject().value(QLatin1String("data")).toString(), QStringLiteral("2"));
    }
    // A parser error (a line past the 4 MiB cap) is a broken stream: 1, the error on stderr.
    const QString longLine = writeFile(QStringLiteral("long.sse"),
                                       "data: " + QByteArray(5 * 1024 * 1024, 'x') + "\n\n");
    const Result broken = replay({QStringLiteral("--format"), QStringLiteral("sse"), longLine});
    QCOMPARE(broken.exitCode, 1);
    QCOMPARE(broken.array.size(), 0);
    QVERIFY(broken.stderrText.contains("longer than"));
}

void tst_Replay::eventsPrintedAsTheyArrive()
{
    // The transcript is a FIFO the test writes to: replay must print the first event while the
    // rest of the stream has not been written yet, i.e. it streams rather than reading to EOF.
    const QString fifo = m_dir.filePath(QStringLiteral("live.sse"));
    QCOMPARE(::mkfifo(QFile::encodeName(fifo).constData(), 0600), 0);
    QProcess process;
    QSignalSpy finished(&process, &QProcess::finished);
    process.start(m_cli, {QStringLiteral("replay"), QStringLiteral("--format"), QStringLiteral("sse"),
                          QStringLiteral("--compact"), fifo});
    QFile writer(fifo);
    QVERIFY(writer.open(QIODevice::WriteOnly | QIODevice::Unbuffered)); // waits for replay to open it
    QVERIFY(writer.write("data: first\n\n") > 0);
    QByteArray out;
    QTRY_VERIFY_WITH_TIMEOUT((out += process.readAllStandardOutput()).contains("first"), 20000);
    QVERIFY(!out.contains("second"));
    QVERIFY(writer.write("data: second\n\n") > 0);
    writer.close();
    QVERIFY(finished.wait(20000));
    out += process.readAllStandardOutput();
    QCOMPARE(process.exitCode(), 0);
    const QJsonArray events = QJsonDocument::fromJson(out).array();
    QCOMPARE(events.size(), 2);
    QCOMPARE(events.at(1).toObject().value(QLatin1String("data")).toString(), QStringLiteral("second"));
}

void tst_Replay::largeTranscriptSameInAnyChunking()
{
    // Larger than replay's 64 KiB reads, so events and lines span reads; the result must be the
    // same as with tiny reads, and every event counted though none is kept.
    QByteArray bytes;
    QString expected;
    const int n = 20000;
    for (int i = 0; i < n; ++i) {
        const QByteArray piece = QByteArray::number(i % 10);
        bytes += "data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"" + piece + "\"}}]}\n\n";
        expected += QString::fromLatin1(piece);
    }
    bytes += "data: {\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"stop\"}]}\n\ndata: [DONE]\n\n";
    const QString path = writeFile(QStringLiteral("large.sse"), bytes);
    const Result whole = replay({QStringLiteral("--format"), QStringLiteral("openai"), path});
    QCOMPARE(whole.exitCode, 0);
    QCOMPARE(whole.json.value(QLatin1String("text")).toString(), expected);
    QCOMPARE(whole.json.value(QLatin1String("events")).toInt(), n + 2);
    const Result pieces = replay(
        {QStringLiteral("--format"), QStringLiteral("openai"), QStringLiteral("--chunk"), QStringLiteral("13"), path});
    QCOMPARE(pieces.json, whole.json);
    const Result raw = replay({QStringLiteral("--format"), QStringLiteral("sse"), path});
    QCOMPARE(raw.exitCode, 0);
    QCOMPARE(raw.array.size(), n + 2);
}

void tst_Replay::badArguments_data()
{
    QTest::addColumn<QStringList>("arguments");
    const QString file = dataFile("openai-text-usage.sse");
    QTest::addRow("nothing") << QStringList();
    QTest::addRow("no format") << QStringList{file};
    QTest::addRow("unknown format") << QStringList{QStringLiteral("--format"), QStringLiteral("gemini"), file};
    QTest::addRow("no file") << QStringList{QStringLiteral("--format"), QStringLiteral("openai")};
    QTest::addRow("missing file") << QStringList{QStringLiteral("--format"), QStringLiteral("openai"),
                                                 QStringLiteral("/nonexistent/x.sse")};
    QTest::addRow("two files") << QStringList{QStringLiteral("--format"), QStringLiteral("sse"), file, file};
    QTest::addRow("zero chunk") << QStringList{QStringLiteral("--format"), QStringLiteral("sse"),
                                               QStringLiteral("--chunk"), QStringLiteral("0"), file};
    QTest::addRow("unknown option") << QStringList{QStringLiteral("--frobnicate"), file};
}

void tst_Replay::badArguments()
{
    QFETCH(QStringList, arguments);
    const Result r = replay(arguments);
    QCOMPARE(r.exitCode, 2);
    QVERIFY(r.json.isEmpty());
    QVERIFY(!r.stderrText.isEmpty());
}

QTEST_GUILESS_MAIN(tst_Replay)
#include "tst_replay.moc"
