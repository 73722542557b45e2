#include "support/chunkeddecode.h"

#include "llm/openaidecoder.h"

#include <QFile>
#include <QMap>
#include <QTest>

using Llm::ApiFormat;
using Llm::StreamEvent;

namespace {

struct ToolCall {
    QString id;
    QString name;
    QString arguments;
};

// Everything a stream decoded into, accumulated the way a consumer would.
struct Decoded {
    QList<StreamEvent> events;
    QMap<int, QString> text;
    QMap<int, QString> reasoning;
    QMap<int, QString> refusal;
    QMap<int, QString> finish;
    QMap<int, ToolCall> tools; // choice 0
    Llm::Usage usage;
    QStringList errors;
    QString malformed;
    bool complete = false;
    qsizetype sseEvents = 0;

    QString toolSummary() const
    {
        QStringList parts;
        for (auto it = tools.cbegin(); it != tools.cend(); ++it)
            parts.append(QStringLiteral("%1|%2|%3|%4").arg(it.key()).arg(it->id, it->name, it->arguments));
        return parts.join(QLatin1Char(';'));
    }
    QString usageSummary() const
    {
        return QStringLiteral("%1/%2/%3/%4/%5")
            .arg(usage.inputTokens)
            .arg(usage.outputTokens)
            .arg(usage.cacheReadTokens)
            .arg(usage.cacheWriteTokens)
            .arg(usage.reasoningTokens);
    }
};

// Parses `bytes` in reads of the given sizes (cycled; empty: one read) and decodes every event.
Decoded decode(const QByteArray &bytes, const QList<qsizetype> &readSizes = {})
{
    Llm::OpenAiDecoder decoder;
    const TestSupport::ChunkedDecode run = TestSupport::decodeInReads(decoder, bytes, readSizes);
    Decoded d;
    d.events = run.events;
    d.sseEvents = run.sseEvents;
    for (const StreamEvent &e : std::as_const(d.events)) {
        switch (e.type) {
        case StreamEvent::Type::TextDelta: d.text[e.choice] += e.text; break;
        case StreamEvent::Type::ReasoningDelta: d.reasoning[e.choice] += e.text; break;
        case StreamEvent::Type::RefusalDelta: d.refusal[e.choice] += e.text; break;
        case StreamEvent::Type::Finish: d.finish[e.choice] = e.text; break;
        case StreamEvent::Type::Usage: d.usage = e.usage; break;
        case StreamEvent::Type::Error: d.errors.append(e.errorType + QLatin1Char(':') + e.text); break;
        case StreamEvent::Type::ToolCallDelta:
            if (e.choice == 0) {
                ToolCall &call = d.tools[e.toolIndex];
                call.id += e.toolId;
                call.name += e.toolName;
                call.arguments += e.text;
            }
            break;
        }
    }
    d.malformed = decoder.malformedReason();
    d.complete = decoder.isComplete();
    return d;
}

QByteArray readData(const QString &name)
{
    QFile file(QStringLiteral(HEADSTART_TEST_DATA "/") + name);
    if (!file.open(QIODevice::ReadOnly))
        qFatal("cannot open test data %s", qPrintable(file.fileName()));
    return file.readAll();
}

QByteArray chunkLine(const QByteArray &json)
{
    return "data: " + json + "\n\n";
}

} // namespace

class tst_OpenAiDecoder : public QObject
{
    Q_OBJECT

private slots:
    void transcripts_data();
    void transcripts();
    void splitsDecodeTheSame_data();
    void splitsDecodeTheSame();
    void nullAndEmptyProduceNothing();
    void reasoningFieldsAreNotDoubled();
    void toolCallsMergeByIndex();
    void toolCallsWithoutIndex();
    void multipleChoices();
    void refusal();
    void usageOnChunkWithChoices();
    void usageRepeatedIsReportedOnce();
    void invalidJsonIsMalformedButDecodingGoesOn();
    void errorObjectInStream();
    void completeness();
    void llamaCppNativeCompletion();
};

void tst_OpenAiDecoder::transcripts_data()
{
    QTest::addColumn<QString>("file");
    QTest::addColumn<QString>("text");
    QTest::addColumn<QString>("reasoning");
    QTest::addColumn<QString>("finish");
    QTest::addColumn<QString>("tools");
    QTest::addColumn<QString>("usage"); // input/output/cacheRead/cacheWrite/reasoning
    QTest::addColumn<int>("sseEvents");

    QTest::addRow("openai text + usage chunk") << "openai-text-usage.sse"
                                               << "The prompt prefix is cached, so the answer starts sooner."
                                               << ""
                                               << "stop"
                                               << ""
                                               << "2048/12/1920/-1/0" << 16;
    QTest::addRow("openai parallel tool calls")
        << "openai-tool-calls.sse"
        << ""
        << ""
        << "tool_calls"
        << "0|call_hsWeather01|get_weather|{\"city\": \"Hangzhou\", \"unit\": \"c\"};"
           "1|call_hsTime02|get_local_time|{\"tz\": \"Asia/Shanghai\"}"
        << "310/52/0/-1/0" << 13;
    QTest::addRow("deepseek reasoner, keep-alives, cache hit")
        << "deepseek-reasoner-cache-hit.sse"
        << "17 × 23 = 391。"
        << "用户想知道 17 × 23。17 × 20 = 340，17 × 3 = 51，合计 391。"
        << "stop"
        << ""
        << "1040/96/1024/-1/71" << 14;
    QTest::addRow("ollama chinese, role repeated") << "ollama-chinese.sse"
                                                   << "预取让回答在你点击之前就开始了。缓存命中时首字延迟更低。"
                                                   << ""
                                                   << "stop"
                                                   << ""
                                                   << "58/21/-1/-1/-1" << 23;
    QTest::addRow("llama.cpp content null and timings") << "llamacpp-chat.sse"
                                                        << "Local models answer offline."
                                                        << ""
                                                        << "stop"
                                                        << ""
                                                        << "37/6/-1/-1/-1" << 9;
    QTest::addRow("qwen dashscope reasoning") << "qwen-dashscope-reasoning.sse"
                                              << "这份文档讲的是提示词缓存。"
                                              << "先确认文档主题。"
                                              << "stop"
                                              << ""
                                              << "3019/104/2048/-1/80" << 13;
}

void tst_OpenAiDecoder::transcripts()
{
    QFETCH(QString, file);
    QFETCH(QString, text);
    QFETCH(QString, reasoning);
    QFETCH(QString, finish);
    QFETCH(QString, tools);
    QFETCH(QString, usage);
    QFETCH(int, sseEvents);

    const Decoded d = decode(readData(file));
    QCOMPARE(d.text.value(0), text);
    QCOMPARE(d.reasoning.value(0), reasoning);
    QCOMPARE(d.finish.value(0), finish);
    QCOMPARE(d.toolSummary(), tools);
    QCOMPARE(d.usageSummary(), usage);
    QCOMPARE(d.sseEvents, sseEvents);
    QVERIFY(d.errors.isEmpty());
    QCOMPARE(d.malformed, QString());
    QVERIFY(d.complete);
    QVERIFY(d.refusal.isEmpty());
}

void tst_OpenAiDecoder::splitsDecodeTheSame_data()
{
    QTest::addColumn<QString>("file");
    for (const char *file : {"openai-text-usage.sse", "openai-tool-calls.sse", "deepseek-reasoner-cache-hit.sse",
                             "ollama-chinese.sse", "llamacpp-chat.sse", "qwen-dashscope-reasoning.sse"})
        QTest::addRow("%s", file) << QString::fromLatin1(file);
}

void tst_OpenAiDecoder::splitsDecodeTheSame()
{
    // Chinese characters are three bytes in UTF-8; cutting reads everywhere cuts them too, and
    // the decoded events must not change (no U+FFFD, nothing lost or doubled).
    QFETCH(QString, file);
    const QByteArray bytes = readData(file);
    const Decoded whole = decode(bytes);
    QVERIFY(!whole.events.isEmpty());
    for (qsizetype cut = 1; cut < bytes.size(); ++cut) {
        const Decoded split = decode(bytes, {cut, bytes.size()});
        if (split.events != whole.events)
            QFAIL(qPrintable(QStringLiteral("split at %1 decodes differently").arg(cut)));
    }
    for (qsizetype piece = 1; piece <= 7; ++piece)
        QVERIFY2(decode(bytes, {piece}).events == whole.events, qPrintable(QString::number(piece)));
    QVERIFY(decode(bytes, {1, 2, 3, 5, 7}).events == whole.events);
    // The same transcript with CRLF line ends (JSON payloads hold no raw newline).
    QByteArray crlf = bytes;
    crlf.replace("\n", "\r\n");
    QVERIFY(decode(crlf, {3}).events == whole.events);
}

void tst_OpenAiDecoder::nullAndEmptyProduceNothing()
{
    const QByteArray stream =
        chunkLine(R"({"choices":[{"index":0,"delta":{"role":"assistant","content":null},"finish_reason":null}]})")
        + chunkLine(R"({"choices":[{"index":0,"delta":{"role":"assistant","content":""},"finish_reason":null}]})")
        + chunkLine(
            R"({"choices":[{"index":0,"delta":{"content":"","reasoning_content":null,"refusal":null,"tool_calls":null}}]})")
        + chunkLine(R"({"choices":[{"index":0,"delta":{}}],"usage":null})") + "data: \n\n";
    const Decoded d = decode(stream);
    QVERIFY(d.events.isEmpty());
    QCOMPARE(d.malformed, QString());
}

void tst_OpenAiDecoder::reasoningFieldsAreNotDoubled()
{
    // Ollama/OpenRouter send `reasoning`; a server sending both fields must not double text.
    const QByteArray stream =
        chunkLine(R"({"choices":[{"index":0,"delta":{"role":"assistant","reasoning":"think "}}]})")
        + chunkLine(R"({"choices":[{"index":0,"delta":{"reasoning":"twice","reasoning_content":"twice"}}]})")
        + chunkLine(R"({"choices":[{"index":0,"delta":{"reasoning_content":"","reasoning":"!"}}]})");
    QCOMPARE(decode(stream).reasoning.value(0), QStringLiteral("think twice!"));
}

void tst_OpenAiDecoder::toolCallsMergeByIndex()
{
    // id and name arrive once; some servers repeat them on every fragment, which must not
    // duplicate them.
    const QByteArray stream =
        chunkLine(
            R"({"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"call_a","type":"function","function":{"name":"f","arguments":""}}]}}]})")
        + chunkLine(
            R"({"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"call_a","function":{"name":"f","arguments":"{\"x\":"}}]}}]})")
        + chunkLine(
            R"({"choices":[{"index":0,"delta":{"tool_calls":[{"index":1,"id":"call_b","function":{"name":"g"}}]}}]})")
        + chunkLine(R"({"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":"1}"}}]}}]})");
    const Decoded d = decode(stream);
    QCOMPARE(d.toolSummary(), QStringLiteral("0|call_a|f|{\"x\":1};1|call_b|g|"));
    const auto first = d.events.at(0);
    QCOMPARE(first.type, StreamEvent::Type::ToolCallDelta);
    QCOMPARE(first.toolId, QStringLiteral("call_a"));
    QCOMPARE(first.toolName, QStringLiteral("f"));
    QCOMPARE(d.events.at(1).toolId, QString());
    QCOMPARE(d.events.at(1).toolName, QString());
}

void tst_OpenAiDecoder::toolCallsWithoutIndex()
{
    // Older Ollama sends each call whole, without `index`; arguments may be an object.
    const QByteArray stream =
        chunkLine(
            R"({"choices":[{"index":0,"delta":{"role":"assistant","content":"","tool_calls":[{"id":"call_1","function":{"name":"a","arguments":"{}"}}]}}]})")
        + chunkLine(
            R"({"choices":[{"index":0,"delta":{"role":"assistant","content":"","tool_calls":[{"id":"call_2","function":{"name":"b","arguments":{"k":"v"}}}]}}]})")
        + chunkLine(
            R"({"choices":[{"index":0,"delta":{"role":"assistant","content":""},"finish_reason":"tool_calls"}]})");
    const Decoded d = decode(stream);
    QCOMPARE(d.toolSummary(), QStringLiteral("0|call_1|a|{};1|call_2|b|{\"k\":\"v\"}"));
    QCOMPARE(d.finish.value(0), QStringLiteral("tool_calls"));
}

void tst_OpenAiDecoder::multipleChoices()
{
    const QByteArray stream =
        chunkLine(R"({"choices":[{"index":1,"delta":{"content":"B"}},{"index":0,"delta":{"content":"A"}}]})")
        + chunkLine(R"({"choices":[{"index":0,"delta":{"content":"a"},"finish_reason":"stop"}]})")
        + chunkLine(R"({"choices":[{"index":1,"delta":{},"finish_reason":"length"}]})")
        + chunkLine(R"({"choices":[],"usage":{"prompt_tokens":5,"completion_tokens":3}})");
    const Decoded d = decode(stream);
    QCOMPARE(d.text.value(0), QStringLiteral("Aa"));
    QCOMPARE(d.text.value(1), QStringLiteral("B"));
    QCOMPARE(d.finish.value(0), QStringLiteral("stop"));
    QCOMPARE(d.finish.value(1), QStringLiteral("length"));
    // No [DONE], but every choice finished and usage arrived: nothing more can come.
    QVERIFY(d.complete);
}

void tst_OpenAiDecoder::refusal()
{
    const QByteArray stream =
        chunkLine(R"({"choices":[{"index":0,"delta":{"role":"assistant","content":null,"refusal":""}}]})")
        + chunkLine(R"({"choices":[{"index":0,"delta":{"refusal":"I can't"}}]})")
        + chunkLine(R"({"choices":[{"index":0,"delta":{"refusal":" help."},"finish_reason":"stop"}]})")
        + "data: [DONE]\n\n";
    const Decoded d = decode(stream);
    QCOMPARE(d.refusal.value(0), QStringLiteral("I can't help."));
    QVERIFY(d.text.isEmpty());
    QVERIFY(d.complete);
}

void tst_OpenAiDecoder::usageOnChunkWithChoices()
{
    // DeepSeek: finish_reason and usage on the same chunk; Finish comes before Usage.
    const QByteArray stream = chunkLine(
        R"({"choices":[{"index":0,"delta":{"content":""},"finish_reason":"length"}],"usage":{"prompt_tokens":13,"completion_tokens":400,"prompt_cache_hit_tokens":8,"prompt_cache_miss_tokens":5}})");
    const Decoded d = decode(stream);
    QCOMPARE(d.events.size(), 2);
    QCOMPARE(d.events.at(0).type, StreamEvent::Type::Finish);
    QCOMPARE(d.events.at(1).type, StreamEvent::Type::Usage);
    QCOMPARE(d.usageSummary(), QStringLiteral("13/400/8/-1/-1"));
}

void tst_OpenAiDecoder::usageRepeatedIsReportedOnce()
{
    // vLLM's continuous usage and DashScope repeat usage; identical counts are not news.
    const QByteArray usage = R"("usage":{"prompt_tokens":9,"completion_tokens":1})";
    const QByteArray stream =
        chunkLine(R"({"choices":[{"index":0,"delta":{"content":"a"}}],)" + usage + "}")
        + chunkLine(R"({"choices":[{"index":0,"delta":{"content":""}}],)" + usage + "}")
        + chunkLine(
            R"({"choices":[{"index":0,"delta":{"content":"b"}}],"usage":{"prompt_tokens":9,"completion_tokens":2}})");
    const Decoded d = decode(stream);
    qsizetype usageEvents = 0;
    for (const StreamEvent &e : d.events)
        usageEvents += e.type == StreamEvent::Type::Usage;
    QCOMPARE(usageEvents, 2);
    QCOMPARE(d.usage.outputTokens, 2);
}

void tst_OpenAiDecoder::invalidJsonIsMalformedButDecodingGoesOn()
{
    const QByteArray stream = chunkLine(R"({"choices":[{"index":0,"delta":{"content":"a"}}]})")
                              + chunkLine(R"({"choices":[{"index":0,"delta":{"content":"b")") + chunkLine(R"([1,2])")
                              + chunkLine(R"({"choices":{"index":0}})")
                              + chunkLine(R"({"choices":[{"index":0,"delta":{"content":"c"}}]})") + "data: [DONE]\n\n";
    const Decoded d = decode(stream);
    QCOMPARE(d.text.value(0), QStringLiteral("ac"));
    QVERIFY(d.malformed.contains(QStringLiteral("event 2")));
    QVERIFY(d.complete);
}

void tst_OpenAiDecoder::errorObjectInStream()
{
    const QByteArray stream =
        chunkLine(R"({"choices":[{"index":0,"delta":{"content":"a"}}]})")
        + chunkLine(R"({"error":{"message":"Rate limit reached","type":"requests","code":"rate_limit_exceeded"}})")
        + chunkLine(R"({"error":{"message":"Upstream failed","code":502}})") + "event: error\ndata: upstream closed\n\n"
        + chunkLine(R"({"object":"error","message":"bad","type":"BadRequestError","code":400})");
    const Decoded d = decode(stream);
    QCOMPARE(d.errors,
             QStringList({QStringLiteral("requests:Rate limit reached"), QStringLiteral("502:Upstream failed"),
                          QStringLiteral(":upstream closed"), QStringLiteral("BadRequestError:bad")}));
    QCOMPARE(d.malformed, QString());
    QVERIFY(!d.complete);
}

void tst_OpenAiDecoder::completeness()
{
    const QByteArray finished = chunkLine(
        R"({"choices":[{"index":0,"delta":{"content":"a"},"finish_reason":"stop"}]})");
    QVERIFY(!decode(finished).complete); // usage may still follow
    QVERIFY(decode(finished + "data: [DONE]\n\n").complete);
    QVERIFY(
        decode(finished + chunkLine(R"({"choices":[],"usage":{"prompt_tokens":1,"completion_tokens":1}})")).complete);
    QVERIFY(!decode(finished + "data: [DONE]").complete); // not dispatched without its blank line
    // Nothing after [DONE] belongs to the answer.
    const Decoded after = decode(finished + "data: [DONE]\n\n"
                                 + chunkLine(R"({"choices":[{"index":0,"delta":{"content":"x"}}]})"));
    QCOMPARE(after.text.value(0), QStringLiteral("a"));
    // A choice finishes once: a later, different reason is not a second Finish (fuzz finding).
    const Decoded twice = decode(finished
                                 + chunkLine(R"({"choices":[{"index":0,"delta":{},"finish_reason":"length"}]})"));
    int finishes = 0;
    for (const StreamEvent &e : twice.events)
        finishes += e.type == StreamEvent::Type::Finish;
    QCOMPARE(finishes, 1);
    QCOMPARE(twice.finish.value(0), QStringLiteral("stop"));
}

void tst_OpenAiDecoder::llamaCppNativeCompletion()
{
    // llama.cpp's own /completion stream: no choices, top-level content, stop on the last chunk.
    const QByteArray stream =
        chunkLine(R"({"index":0,"content":"Hel","stop":false,"id_slot":-1,"tokens_predicted":1,"tokens_evaluated":4})")
        + chunkLine(R"({"index":0,"content":"lo","stop":false,"id_slot":-1,"tokens_predicted":2,"tokens_evaluated":4})")
        + chunkLine(
            R"({"index":0,"content":"","stop":true,"stop_type":"eos","tokens_predicted":2,"tokens_evaluated":4,"tokens_cached":3})");
    const Decoded d = decode(stream);
    QCOMPARE(d.text.value(0), QStringLiteral("Hello"));
    QCOMPARE(d.finish.value(0), QStringLiteral("eos"));
    QCOMPARE(d.usageSummary(), QStringLiteral("4/2/3/-1/-1"));
    QVERIFY(d.complete);
}

QTEST_GUILESS_MAIN(tst_OpenAiDecoder)
#include "tst_openaidecoder.moc"
