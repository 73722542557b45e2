#include "support/chunkeddecode.h"

#include "llm/anthropicdecoder.h"

#include <QFile>
#include <QMap>
#include <QTest>

using Llm::StreamEvent;

namespace {

struct ToolCall {
    QString id;
    QString name;
    QString arguments;
};

struct Decoded {
    QList<StreamEvent> events;
    QString text;
    QString reasoning;
    QString finish;
    QMap<int, ToolCall> tools;
    Llm::Usage usage;
    qsizetype usageEvents = 0;
    QStringList errors;
    QString malformed;
    bool complete = false;
    bool allChoiceZero = true; // Anthropic has one answer per request
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
        return QStringLiteral("%1/%2/%3/%4")
            .arg(usage.inputTokens)
            .arg(usage.outputTokens)
            .arg(usage.cacheReadTokens)
            .arg(usage.cacheWriteTokens);
    }
};

// Parses `bytes` in reads of the given sizes (cycled; empty: one read) and decodes every event.
Decoded decode(const QByteArray &bytes, const QList<qsizetype> &readSizes = {})
{
    Llm::AnthropicDecoder decoder;
    const TestSupport::ChunkedDecode run = TestSupport::decodeInReads(decoder, bytes, readSizes);
    Decoded d;
    d.events = run.events;
    d.sseEvents = run.sseEvents;
    for (const StreamEvent &e : std::as_const(d.events)) {
        d.allChoiceZero = d.allChoiceZero && e.choice == 0;
        switch (e.type) {
        case StreamEvent::Type::TextDelta: d.text += e.text; break;
        case StreamEvent::Type::ReasoningDelta: d.reasoning += e.text; break;
        case StreamEvent::Type::RefusalDelta: break;
        case StreamEvent::Type::Finish: d.finish = e.text; break;
        case StreamEvent::Type::Usage:
            d.usage = e.usage;
            ++d.usageEvents;
            break;
        case StreamEvent::Type::Error: d.errors.append(e.errorType + QLatin1Char(':') + e.text); break;
        case StreamEvent::Type::ToolCallDelta: {
            ToolCall &call = d.tools[e.toolIndex];
            call.id += e.toolId;
            call.name += e.toolName;
            call.arguments += e.text;
            break;
        }
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

QByteArray sseEvent(const QByteArray &name, const QByteArray &json)
{
    return "event: " + name + "\ndata: " + json + "\n\n";
}

} // namespace

class tst_AnthropicDecoder : public QObject
{
    Q_OBJECT

private slots:
    void transcripts_data();
    void transcripts();
    void splitsDecodeTheSame_data();
    void splitsDecodeTheSame();
    void usageIsUniform();
    void usageOverridesAreCumulative();
    void toolIndexesCountToolBlocks();
    void jsonTypeIsTheTruth();
    void nothingAfterMessageStop();
    void toolUseWithoutIdOrNameIsNotedNotPassedOn();
    void countsThatAreNotCountsAreIgnored();
    void missingTypeFallsBackAndIsNoted();
    void unknownEventsAreIgnored();
    void invalidJsonIsMalformedButDecodingGoesOn();
    void inputDeltaForUnknownBlock();
    void errorEvent();
};

void tst_AnthropicDecoder::transcripts_data()
{
    QTest::addColumn<QString>("file");
    QTest::addColumn<QString>("text");
    QTest::addColumn<QString>("reasoning");
    QTest::addColumn<QString>("finish");
    QTest::addColumn<QString>("tools");
    QTest::addColumn<QString>("usage"); // input (all)/output/cacheRead/cacheWrite
    QTest::addColumn<QStringList>("errors");
    QTest::addColumn<bool>("complete");
    QTest::addColumn<int>("sseEvents");

    QTest::addRow("thinking, chinese text, cache read") << "anthropic-thinking-cache.sse"
                                                        << "文档讲的是提示词缓存：静态前缀不变，缓存就能命中。"
                                                        << "The document is about prompt caching; answer briefly."
                                                        << "end_turn"
                                                        << ""
                                                        << "4117/64/4096/0" << QStringList() << true << 18;
    QTest::addRow("text then tool_use, cache write")
        << "anthropic-tool-use.sse"
        << "Let me look that up."
        << ""
        << "tool_use"
        << "0|toolu_01HsSearch|search_document|{\"query\": \"cache breakpoints\", \"limit\": 3}"
        << "2612/58/0/2200" << QStringList() << true << 14;
    QTest::addRow("overloaded error mid-stream")
        << "anthropic-error-midstream.sse"
        << "Partial answer"
        << ""
        << ""
        << ""
        << "30/1/-1/-1" << QStringList{QStringLiteral("overloaded_error:Overloaded")} << false << 4;
}

void tst_AnthropicDecoder::transcripts()
{
    QFETCH(QString, file);
    QFETCH(QString, text);
    QFETCH(QString, reasoning);
    QFETCH(QString, finish);
    QFETCH(QString, tools);
    QFETCH(QString, usage);
    QFETCH(QStringList, errors);
    QFETCH(bool, complete);
    QFETCH(int, sseEvents);

    const Decoded d = decode(readData(file));
    QCOMPARE(d.text, text);
    QCOMPARE(d.reasoning, reasoning);
    QCOMPARE(d.finish, finish);
    QCOMPARE(d.toolSummary(), tools);
    QCOMPARE(d.usageSummary(), usage);
    QCOMPARE(d.errors, errors);
    QCOMPARE(d.complete, complete);
    QCOMPARE(d.sseEvents, sseEvents);
    QCOMPARE(d.malformed, QString());
    QVERIFY(d.allChoiceZero);
}

void tst_AnthropicDecoder::splitsDecodeTheSame_data()
{
    QTest::addColumn<QString>("file");
    for (const char *file : {"anthropic-thinking-cache.sse", "anthropic-tool-use.sse", "anthropic-error-midstream.sse"})
        QTest::addRow("%s", file) << QString::fromLatin1(file);
}

void tst_AnthropicDecoder::splitsDecodeTheSame()
{
    QFETCH(QString, file);
    const QByteArray bytes = readData(file);
    const Decoded whole = decode(bytes);
    QVERIFY(!whole.events.isEmpty());
    for (qsizetype cut = 1; cut < bytes.size(); ++cut) {
        if (decode(bytes, {cut, bytes.size()}).events != whole.events)
            QFAIL(qPrintable(QStringLiteral("split at %1 decodes differently").arg(cut)));
    }
    for (qsizetype piece = 1; piece <= 7; ++piece)
        QVERIFY2(decode(bytes, {piece}).events == whole.events, qPrintable(QString::number(piece)));
    QByteArray cr = bytes;
    cr.replace('\n', '\r');
    QVERIFY(decode(cr, {2, 5}).events == whole.events);
}

void tst_AnthropicDecoder::usageIsUniform()
{
    // input_tokens counts only what follows the last breakpoint; the uniform input adds the
    // cached reads and writes back so every provider means "the whole prompt".
    const Decoded d = decode(sseEvent(
        "message_start",
        R"({"type":"message_start","message":{"usage":{"input_tokens":10,"cache_creation_input_tokens":200,"cache_read_input_tokens":3000,"output_tokens":1}}})"));
    QCOMPARE(d.usageSummary(), QStringLiteral("3210/1/3000/200"));
    // Without cache fields they stay "not reported".
    const Decoded plain = decode(
        sseEvent("message_start",
                 R"({"type":"message_start","message":{"usage":{"input_tokens":10,"output_tokens":1}}})"));
    QCOMPARE(plain.usageSummary(), QStringLiteral("10/1/-1/-1"));
    // A message_start without usage reports nothing.
    QCOMPARE(decode(sseEvent("message_start", R"({"type":"message_start","message":{}})")).usageEvents, 0);
}

void tst_AnthropicDecoder::usageOverridesAreCumulative()
{
    const QByteArray stream =
        sseEvent(
            "message_start",
            R"({"type":"message_start","message":{"usage":{"input_tokens":2,"cache_creation_input_tokens":3068,"cache_read_input_tokens":0,"output_tokens":69}}})")
        + sseEvent("message_delta",
                   R"({"type":"message_delta","delta":{"stop_reason":"end_turn"},"usage":{"output_tokens":198}})")
        + sseEvent(
            "message_delta",
            R"({"type":"message_delta","delta":{},"usage":{"input_tokens":6,"cache_creation_input_tokens":3337,"cache_read_input_tokens":6289,"output_tokens":198,"output_tokens_details":{"thinking_tokens":12}}})")
        + sseEvent("message_delta", R"({"type":"message_delta","delta":{},"usage":{"cache_read_input_tokens":null}})");
    const Decoded d = decode(stream);
    QCOMPARE(d.usageSummary(), QStringLiteral("9632/198/6289/3337"));
    QCOMPARE(d.usage.reasoningTokens, 12);
    QCOMPARE(d.finish, QStringLiteral("end_turn"));
}

void tst_AnthropicDecoder::toolIndexesCountToolBlocks()
{
    // Tool index = order among tool blocks, whatever the content block index; server tools
    // (server_tool_use) count as tool calls, their result blocks do not.
    const QByteArray stream =
        sseEvent("content_block_start",
                 R"({"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}})")
        + sseEvent(
            "content_block_start",
            R"({"type":"content_block_start","index":1,"content_block":{"type":"server_tool_use","id":"srv_1","name":"web_search","input":{}}})")
        + sseEvent(
            "content_block_delta",
            R"({"type":"content_block_delta","index":1,"delta":{"type":"input_json_delta","partial_json":"{\"q\":1}"}})")
        + sseEvent(
            "content_block_start",
            R"({"type":"content_block_start","index":2,"content_block":{"type":"web_search_tool_result","tool_use_id":"srv_1","content":[]}})")
        + sseEvent(
            "content_block_start",
            R"({"type":"content_block_start","index":3,"content_block":{"type":"tool_use","id":"toolu_2","name":"calc","input":{}}})")
        + sseEvent("content_block_delta",
                   R"({"type":"content_block_delta","index":3,"delta":{"type":"input_json_delta","partial_json":""}})")
        + sseEvent(
            "content_block_delta",
            R"({"type":"content_block_delta","index":3,"delta":{"type":"input_json_delta","partial_json":"{}"}})");
    const Decoded d = decode(stream);
    QCOMPARE(d.toolSummary(), QStringLiteral("0|srv_1|web_search|{\"q\":1};1|toolu_2|calc|{}"));
    QCOMPARE(d.malformed, QString());
}

void tst_AnthropicDecoder::jsonTypeIsTheTruth()
{
    // The event name disagrees with the JSON: the JSON wins and it is not an error.
    const Decoded d = decode(
        sseEvent("ping", R"({"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"hi"}})")
        + sseEvent("content_block_delta", R"({"type":"message_stop"})"));
    QCOMPARE(d.text, QStringLiteral("hi"));
    QVERIFY(d.complete);
    QCOMPARE(d.malformed, QString());
}

void tst_AnthropicDecoder::nothingAfterMessageStop()
{
    // Found by fuzz/fuzz_anthropicdecoder: events after message_stop (a proxy's trailer, a
    // second response glued on) were decoded into the answer, and each stop_reason made a Finish.
    const Decoded d = decode(
        sseEvent("content_block_delta",
                 R"({"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"a"}})")
        + sseEvent("message_delta", R"({"type":"message_delta","delta":{"stop_reason":"end_turn"}})")
        + sseEvent("message_delta", R"({"type":"message_delta","delta":{"stop_reason":"max_tokens"}})")
        + sseEvent("message_stop", R"({"type":"message_stop"})")
        + sseEvent("content_block_delta",
                   R"({"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"b"}})")
        + sseEvent("error", R"({"type":"error","error":{"type":"x","message":"late"}})"));
    QCOMPARE(d.text, QStringLiteral("a"));
    QCOMPARE(d.finish, QStringLiteral("end_turn"));
    int finishes = 0;
    for (const StreamEvent &e : d.events)
        finishes += e.type == StreamEvent::Type::Finish;
    QCOMPARE(finishes, 1);
    QVERIFY(d.errors.isEmpty());
    QVERIFY(d.complete);
}

void tst_AnthropicDecoder::countsThatAreNotCountsAreIgnored()
{
    // Found by fuzz/fuzz_anthropicdecoder under UBSan: 1e300 was converted to qint64.
    const Decoded d = decode(
        sseEvent("message_start",
                 R"({"type":"message_start","message":{"usage":{"input_tokens":12,"output_tokens":1}}})")
        + sseEvent(
            "message_delta",
            R"({"type":"message_delta","delta":{"stop_reason":"end_turn"},"usage":{"output_tokens":1e300,"input_tokens":-5}})")
        + sseEvent("message_stop", R"({"type":"message_stop"})"));
    QCOMPARE(d.usage.inputTokens, 12); // the earlier, sane values stand
    QCOMPARE(d.usage.outputTokens, 1);
}

void tst_AnthropicDecoder::toolUseWithoutIdOrNameIsNotedNotPassedOn()
{
    // Found by fuzz/fuzz_anthropicdecoder: a tool_use block with neither an id nor a name made
    // an empty tool-call event. It is noted as malformed; its input fragments still come.
    const Decoded d = decode(
        sseEvent("content_block_start",
                 R"({"type":"content_block_start","index":0,"content_block":{"type":"tool_use","input":{}}})")
        + sseEvent(
            "content_block_delta",
            R"({"type":"content_block_delta","index":0,"delta":{"type":"input_json_delta","partial_json":"{\"q\":1}"}})")
        + sseEvent("message_stop", R"({"type":"message_stop"})"));
    int toolEvents = 0;
    for (const StreamEvent &e : d.events) {
        if (e.type == StreamEvent::Type::ToolCallDelta) {
            ++toolEvents;
            QCOMPARE(e.text, QStringLiteral("{\"q\":1}"));
        }
    }
    QCOMPARE(toolEvents, 1);
    QVERIFY(!d.malformed.isEmpty());
}

void tst_AnthropicDecoder::missingTypeFallsBackAndIsNoted()
{
    const Decoded d = decode(sseEvent("content_block_delta", R"({"index":0,"delta":{"type":"text_delta","text":"hi"}})")
                             + sseEvent("message_stop", R"({})"));
    QCOMPARE(d.text, QStringLiteral("hi"));
    QVERIFY(d.complete);
    QVERIFY(d.malformed.contains(QStringLiteral("type")));
}

void tst_AnthropicDecoder::unknownEventsAreIgnored()
{
    const Decoded d = decode(
        sseEvent("ping", R"({"type": "ping"})")
        + sseEvent("future_event", R"({"type":"future_event","payload":[1,2,3]})")
        + sseEvent(
            "content_block_start",
            R"({"type":"content_block_start","index":0,"content_block":{"type":"redacted_thinking","data":"xyz"}})")
        + sseEvent("content_block_delta",
                   R"({"type":"content_block_delta","index":0,"delta":{"type":"signature_delta","signature":"abc"}})")
        + sseEvent("content_block_delta",
                   R"({"type":"content_block_delta","index":0,"delta":{"type":"citations_delta","citation":{}}})")
        + sseEvent("content_block_stop", R"({"type":"content_block_stop","index":0})"));
    QVERIFY(d.events.isEmpty());
    QCOMPARE(d.malformed, QString());
    QVERIFY(!d.complete);
}

void tst_AnthropicDecoder::invalidJsonIsMalformedButDecodingGoesOn()
{
    const Decoded d = decode(
        sseEvent("content_block_delta",
                 R"({"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"a"}})")
        + sseEvent("content_block_delta", R"({"type":"content_block_delta","index":0,"delta":)")
        + sseEvent("content_block_delta",
                   R"({"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"b"}})")
        + sseEvent("message_stop", R"({"type":"message_stop" })"));
    QCOMPARE(d.text, QStringLiteral("ab"));
    QVERIFY(d.malformed.contains(QStringLiteral("event 2")));
    QVERIFY(d.complete);
}

void tst_AnthropicDecoder::inputDeltaForUnknownBlock()
{
    const Decoded d = decode(sseEvent(
        "content_block_delta",
        R"({"type":"content_block_delta","index":4,"delta":{"type":"input_json_delta","partial_json":"{}"}})"));
    QVERIFY(d.events.isEmpty());
    QVERIFY(!d.malformed.isEmpty());
}

void tst_AnthropicDecoder::errorEvent()
{
    const Decoded d = decode(
        sseEvent("error", R"({"type": "error", "error": {"type": "overloaded_error", "message": "Overloaded"}})")
        + sseEvent("error", R"({"type":"error","error":{"type":"api_error"}})"));
    QCOMPARE(d.errors.size(), 2);
    QCOMPARE(d.errors.at(0), QStringLiteral("overloaded_error:Overloaded"));
    QVERIFY(d.errors.at(1).startsWith(QStringLiteral("api_error:")));
    QVERIFY(d.errors.at(1).size() > 10); // a message even when the provider sent none
    QVERIFY(!d.complete);
}

QTEST_GUILESS_MAIN(tst_AnthropicDecoder)
#include "tst_anthropicdecoder.moc"
