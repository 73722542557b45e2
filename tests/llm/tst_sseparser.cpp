#include "llm/sseparser.h"

#include <QRandomGenerator>
#include <QTest>

#include <iterator>

using namespace Qt::StringLiterals;
using Llm::SseEvent;
using Llm::SseParser;

namespace {

// Events as readable text, so a failing QCOMPARE shows what differs.
QByteArray dump(const QList<SseEvent> &events)
{
    QByteArray out;
    for (const SseEvent &e : events) {
        out += "[type=" + e.type.toPercentEncoding(" :") + " data=" + e.data.toPercentEncoding(" :")
               + " id=" + e.id.toPercentEncoding(" :") + "]";
    }
    return out;
}

struct Outcome {
    QByteArray events;
    bool tail = false;
    int retry = -1;
    QByteArray lastId;
    bool error = false;
};

// Feeds `input` in pieces cut at `cuts` (ascending offsets) and collects what the parser made.
Outcome run(const QByteArray &input, const QList<qsizetype> &cuts, SseParser parser = SseParser())
{
    QList<SseEvent> events;
    qsizetype from = 0;
    for (qsizetype cut : cuts) {
        parser.feed(QByteArrayView(input).sliced(from, cut - from), events);
        from = cut;
    }
    parser.feed(QByteArrayView(input).sliced(from), events);
    Outcome o;
    o.error = parser.hasError();
    o.tail = o.error ? false : parser.finish();
    o.events = dump(events);
    o.retry = parser.retryMs().value_or(-1);
    o.lastId = parser.lastEventId();
    return o;
}

SseEvent ev(const QByteArray &data, const QByteArray &type = {}, const QByteArray &id = {})
{
    return SseEvent{type, data, id};
}

} // namespace

class tst_SseParser : public QObject
{
    Q_OBJECT

private slots:
    void interpretation_data();
    void interpretation();
    void limits_data();
    void limits();
    void errorStateIsFinal();
    void bufferedBytesStayBounded();
    void randomStreamsAreSplitInvariant();
};

void tst_SseParser::interpretation_data()
{
    QTest::addColumn<QByteArray>("input");
    QTest::addColumn<QByteArray>("expected");
    QTest::addColumn<bool>("tail");
    QTest::addColumn<int>("retry");
    QTest::addColumn<QByteArray>("lastId");

    auto row = [](const char *tag, const QByteArray &input, const QList<SseEvent> &events, bool tail = false,
                  int retry = -1, const QByteArray &lastId = {}) {
        QTest::addRow("%s", tag) << input << dump(events) << tail << retry << lastId;
    };

    // Line endings
    row("lf", "data: a\n\n", {ev("a")});
    row("cr", "data: a\r\r", {ev("a")});
    row("crlf", "data: a\r\n\r\n", {ev("a")});
    row("crlf is one line end", "data: a\r\ndata: b\r\n\r\n", {ev("a\nb")});
    row("mixed endings", "data:1\rdata:2\ndata:3\r\n\n", {ev("1\n2\n3")});
    row("cr lf cr lf events", "data: a\r\n\r\ndata: b\r\r", {ev("a"), ev("b")});
    row("lf cr is two line ends", "data: a\n\rdata: b\n\n", {ev("a"), ev("b")});
    row("final cr ends the line", "data: a\n\r", {ev("a")});
    row("blank lines only", "\n\n\r\n\r", {});
    row("empty input", "", {});

    // Byte order mark
    row("bom",
        "\xEF\xBB\xBF"
        "data: a\n\n",
        {ev("a")});
    row("bom only once",
        "\xEF\xBB\xBF\xEF\xBB\xBF"
        "data: a\n\ndata: b\n\n",
        {ev("b")});
    row("bom only at start",
        "data: a\n\n\xEF\xBB\xBF"
        "data: b\n\n",
        {ev("a")});
    row("partial bom is not skipped",
        "\xEF\xBB"
        "data: a\n\ndata: b\n\n",
        {ev("b")});
    row("bom then comment", "\xEF\xBB\xBF: hi\ndata: a\n\n", {ev("a")});
    row("bom alone", "\xEF\xBB\xBF", {});
    row("partial bom at eof", "\xEF\xBB", {}, true);

    // Comments
    row("comment", ": keep-alive\n\ndata: a\n\n", {ev("a")});
    row("comment between data lines", "data: a\n: c\ndata: b\n\n", {ev("a\nb")});
    row("comment with nul", ":\0x\ndata: a\n\n"_ba, {ev("a")});
    row("comment that looks like data", ":data: x\ndata: a\n\n", {ev("a")});

    // Data
    row("data lines joined", "data: a\ndata: b\ndata: c\n\n", {ev("a\nb\nc")});
    row("data without colon", "data\n\n", {ev("")});
    row("data with empty value", "data:\n\n", {ev("")});
    row("two empty data lines", "data\ndata\n\n", {ev("\n")});
    row("trailing empty data line", "data: a\ndata:\n\n", {ev("a\n")});
    row("colon in value", "data: a:b: c\n\n", {ev("a:b: c")});
    row("nul in data", "data: \0\n\n"_ba, {ev("\0"_ba)});
    row("utf-8", "data: 你好，世界\n\n", {ev("你好，世界")});

    // Space handling
    row("one space removed", "data:  a\n\n", {ev(" a")});
    row("no space", "data:a\n\n", {ev("a")});
    row("tab kept", "data:\ta\n\n", {ev("\ta")});
    row("trailing space kept", "data: a \n\n", {ev("a ")});
    row("space before colon makes another field", "data : a\n\n", {});
    row("leading space makes another field", " data: a\n\n", {});

    // Event type
    row("event type", "event: add\ndata: a\n\n", {ev("a", "add")});
    row("event type resets", "event: add\ndata: a\n\ndata: b\n\n", {ev("a", "add"), ev("b")});
    row("empty event type", "event:\ndata: a\n\n", {ev("a")});
    row("event without colon", "event\ndata: a\n\n", {ev("a")});
    row("last event line wins", "event: x\nevent: y\ndata: a\n\n", {ev("a", "y")});
    row("type without data is dropped", "event: x\n\ndata: a\n\n", {ev("a")});

    // Last event id
    row("id", "id: 7\ndata: a\n\n", {ev("a", {}, "7")}, false, -1, "7");
    row("id persists", "id: 7\ndata: a\n\ndata: b\n\n", {ev("a", {}, "7"), ev("b", {}, "7")}, false, -1, "7");
    row("id changes", "id: 1\ndata: a\n\nid: 2\ndata: b\n\n", {ev("a", {}, "1"), ev("b", {}, "2")}, false, -1, "2");
    row("id reset by empty value", "id: 7\ndata: a\n\nid:\ndata: b\n\n", {ev("a", {}, "7"), ev("b")});
    row("id reset without colon", "id: 7\ndata: a\n\nid\ndata: b\n\n", {ev("a", {}, "7"), ev("b")});
    row("id with nul ignored",
        "id: 7\ndata: a\n\nid: 8\0"
        "9\ndata: b\n\n"_ba,
        {ev("a", {}, "7"), ev("b", {}, "7")}, false, -1, "7");
    row("id of only nul ignored", "id: \0\ndata: a\n\n"_ba, {ev("a")});
    row("id without data is kept", "id: 5\n\ndata: a\n\n", {ev("a", {}, "5")}, false, -1, "5");
    row("id after data applies to it", "data: a\nid: 3\n\n", {ev("a", {}, "3")}, false, -1, "3");
    row("id utf-8", "id: …\ndata: a\n\n", {ev("a", {}, "…")}, false, -1, "…");

    // Retry
    row("retry", "retry: 1500\ndata: a\n\n", {ev("a")}, false, 1500);
    row("retry no space", "retry:300\n", {}, false, 300);
    row("retry leading zeros", "retry: 007\n", {}, false, 7);
    row("retry with letter ignored", "retry: 15x\n", {}, false, -1);
    row("retry negative ignored", "retry: -5\n", {}, false, -1);
    row("retry decimal ignored", "retry: 1.5\n", {}, false, -1);
    row("retry empty ignored", "retry:\n", {}, false, -1);
    row("retry without colon ignored", "retry\n", {}, false, -1);
    row("retry bogus keeps earlier", "retry: 100\nretry: abc\n", {}, false, 100);
    row("retry huge saturates", "retry: 99999999999999999999\n", {}, false, 2147483647);

    // Unknown fields and names
    row("unknown field", "foo: bar\ndata: a\n\n", {ev("a")});
    row("unknown field without colon", "justtext\ndata: a\n\n", {ev("a")});
    row("field names are case-sensitive", "Data: x\ndata: a\n\n", {ev("a")});

    // End of stream
    row("no dispatch without blank line", "data: a\n", {}, true);
    row("incomplete line", "data: a", {}, true);
    row("unterminated second event", "data: a\n\ndata: b", {ev("a")}, true);
    row("pending type at eof", "data: a\n\nevent: x\n", {ev("a")}, true);
    row("pending comment line at eof", "data: a\n\n: ping", {ev("a")}, true);
    row("complete comment at eof", "data: a\n\n: ping\n", {ev("a")}, false);
    row("id line at eof is not a tail", "data: a\n\nid: 9\n", {ev("a")}, false, -1, "9");
}

void tst_SseParser::interpretation()
{
    QFETCH(QByteArray, input);
    QFETCH(QByteArray, expected);
    QFETCH(bool, tail);
    QFETCH(int, retry);
    QFETCH(QByteArray, lastId);

    const Outcome whole = run(input, {});
    QCOMPARE(whole.events, expected);
    QCOMPARE(whole.tail, tail);
    QCOMPARE(whole.retry, retry);
    QCOMPARE(whole.lastId, lastId);
    QVERIFY(!whole.error);

    // Every split into two reads: CR|LF, a BOM or a UTF-8 character cut anywhere.
    for (qsizetype cut = 0; cut <= input.size(); ++cut) {
        const Outcome split = run(input, {cut});
        if (split.events != expected || split.tail != tail || split.retry != retry || split.lastId != lastId) {
            QFAIL(qPrintable(QStringLiteral("split at %1: events %2 tail %3 retry %4 id %5")
                                 .arg(cut)
                                 .arg(QString::fromUtf8(split.events))
                                 .arg(split.tail)
                                 .arg(split.retry)
                                 .arg(QString::fromUtf8(split.lastId))));
        }
    }

    QList<qsizetype> everyByte;
    for (qsizetype i = 1; i < input.size(); ++i)
        everyByte.append(i);
    const Outcome bytewise = run(input, everyByte);
    QCOMPARE(bytewise.events, expected);
    QCOMPARE(bytewise.tail, tail);
    QCOMPARE(bytewise.retry, retry);
    QCOMPARE(bytewise.lastId, lastId);
}

void tst_SseParser::limits_data()
{
    QTest::addColumn<QByteArray>("input");
    QTest::addColumn<int>("maxLine");
    QTest::addColumn<int>("maxEvent");
    QTest::addColumn<QByteArray>("expected"); // events delivered before the error, if any
    QTest::addColumn<QByteArray>("error");    // a word the error names; empty: no error

    // "data: 0123456789" is 16 bytes: at a 16-byte line cap, so allowed; one more is not.
    QTest::addRow("line at the cap") << "data: a\n\ndata: 0123456789\n\n"_ba << 16 << 1024
                                     << dump({ev("a"), ev("0123456789")}) << QByteArray();
    QTest::addRow("line over the cap") << "data: a\n\ndata: 0123456789x\n\ndata: b\n\n"_ba << 16 << 1024
                                       << dump({ev("a")}) << "line"_ba;
    QTest::addRow("unfinished line over the cap")
        << "data: a\n\ndata: 0123456789x"_ba << 16 << 1024 << dump({ev("a")}) << "line"_ba;
    QTest::addRow("comment over the cap")
        << ": 0123456789abcdef\ndata: a\n\n"_ba << 16 << 1024 << QByteArray() << "line"_ba;
    // "1234\n567" is 8 bytes of data: at an 8-byte event cap; "12345\n678" is over it.
    QTest::addRow("event at the cap") << "data: 1234\ndata: 567\n\n"_ba << 1024 << 8 << dump({ev("1234\n567")})
                                      << QByteArray();
    QTest::addRow("event over the cap") << "data: a\n\ndata: 12345\ndata: 678\n\ndata: b\n\n"_ba << 1024 << 8
                                        << dump({ev("a")}) << "data"_ba;
    QTest::addRow("one data line over the cap") << "data: 123456789\n\n"_ba << 1024 << 8 << QByteArray() << "data"_ba;
}

void tst_SseParser::limits()
{
    QFETCH(QByteArray, input);
    QFETCH(int, maxLine);
    QFETCH(int, maxEvent);
    QFETCH(QByteArray, expected);
    QFETCH(QByteArray, error);

    // The same outcome for every split: the error may be noticed earlier when a long line
    // arrives in pieces, but never later than the byte that breaks the limit.
    for (qsizetype cut = 0; cut <= input.size(); ++cut) {
        const Outcome o = run(input, {cut}, SseParser(maxLine, maxEvent));
        QVERIFY2(o.error == !error.isEmpty(), qPrintable(QStringLiteral("cut %1").arg(cut)));
        QCOMPARE(o.events, expected);
    }
    if (error.isEmpty())
        return;
    SseParser parser(maxLine, maxEvent);
    QList<SseEvent> events;
    QVERIFY(!parser.feed(input, events));
    QVERIFY(parser.errorString().contains(error));
    // The message names the limit.
    QVERIFY(parser.errorString().contains(QByteArray::number(error == "line" ? maxLine : maxEvent)));
    QCOMPARE(parser.bufferedBytes(), 0);
}

void tst_SseParser::errorStateIsFinal()
{
    SseParser parser(8, 1024);
    QList<SseEvent> events;
    QVERIFY(!parser.feed("data: far too long\n\n", events));
    QVERIFY(parser.hasError());
    QVERIFY(!parser.feed("data: a\n\n", events));
    QVERIFY(events.isEmpty());
    QCOMPARE(parser.bufferedBytes(), 0);
}

void tst_SseParser::bufferedBytesStayBounded()
{
    SseParser parser(1000, 5000);
    QList<SseEvent> events;
    const QByteArray piece(100, 'x');
    bool ok = parser.feed("data: ", events);
    for (int i = 0; i < 100 && ok; ++i) {
        ok = parser.feed(piece, events);
        QVERIFY(parser.bufferedBytes() <= 1000);
    }
    QVERIFY(!ok);
}

void tst_SseParser::randomStreamsAreSplitInvariant()
{
    // Streams built from the grammar's sharp edges, cut at random places: whatever the cuts,
    // the same events, tail, retry and id must come out as from one read.
    static const char *const Pieces[] = {"data", "data:", "data: ", "event:", "id:", "id: x", "retry:", "retry: 12",
                                         ":",    "x",     " ",      "\r",     "\n",  "\r\n",  "\n\n",   "\xEF\xBB\xBF",
                                         "你",   "\0"};
    QRandomGenerator rng(20240611);
    for (int round = 0; round < 400; ++round) {
        QByteArray input;
        const int count = rng.bounded(1, 40);
        for (int i = 0; i < count; ++i) {
            const int which = rng.bounded(int(std::size(Pieces)));
            if (which == int(std::size(Pieces)) - 1)
                input.append('\0');
            else
                input.append(Pieces[which]);
        }
        const Outcome whole = run(input, {});
        QList<qsizetype> cuts;
        for (qsizetype i = 1; i < input.size(); ++i) {
            if (rng.bounded(3) == 0)
                cuts.append(i);
        }
        const Outcome split = run(input, cuts);
        QVERIFY2(split.events == whole.events && split.tail == whole.tail && split.retry == whole.retry
                     && split.lastId == whole.lastId,
                 qPrintable(QStringLiteral("input %1").arg(QString::fromLatin1(input.toPercentEncoding()))));
    }
}

QTEST_GUILESS_MAIN(tst_SseParser)
#include "tst_sseparser.moc"
