// Behaviour traces for the replay benchmark: the same bytes from the same seed, accepted by the
// trace parser, and shaped the way bench/README.md says (hover, press and click; typing cadence;
// wizard order; room for answers). The statistical checks run over several seeds.
#include "bench/replay/documents.h"
#include "bench/replay/trace.h"
#include "bench/replay/tracegen.h"

#include <QFile>
#include <QHash>
#include <QJsonObject>
#include <QSet>
#include <QTest>

#include <algorithm>

using namespace Bench;

namespace {

constexpr quint64 SeedCount = 12; // seeds 1..SeedCount for every property below
const QStringList Actions = {QStringLiteral("summarize"), QStringLiteral("continue"), QStringLiteral("rewrite"),
                             QStringLiteral("translate"), QStringLiteral("explain")};

bool isActivation(const TraceEvent &e)
{
    return e.event == QLatin1String("click") || e.event == QLatin1String("send")
        || e.event == QLatin1String("wizard_next");
}

// Counts of the hover/click story of one trace; `error` says what broke the rules.
struct Pointer {
    int hovers = 0;
    int hoverClicks = 0;
    int shortcutClicks = 0;
    QString error;
};

Pointer checkPointer(const Trace &trace)
{
    Pointer result;
    QString hovered;          // the button under the pointer, if any
    qint64 hoverStart = -1;
    qint64 pressAt = -1;      // a press on `hovered` not yet released
    bool clickedThisHover = false;
    for (const TraceEvent &e : trace.events) {
        const QString action = e.fields.value(QStringLiteral("action")).toString();
        auto fail = [&](const QString &why) {
            if (result.error.isEmpty())
                result.error = QStringLiteral("line %1 (%2 %3): %4").arg(e.line).arg(e.event, action, why);
        };
        if (e.event.startsWith(QLatin1String("hover_")) || e.event == QLatin1String("press")
            || e.event == QLatin1String("click")) {
            if (!Actions.contains(action))
                fail(QStringLiteral("unknown action"));
        }
        if (e.event == QLatin1String("hover_enter")) {
            if (!hovered.isEmpty())
                fail(QStringLiteral("the pointer is already on ") + hovered);
            hovered = action;
            hoverStart = e.t;
            pressAt = -1;
            clickedThisHover = false;
            ++result.hovers;
        } else if (e.event == QLatin1String("hover_leave")) {
            if (hovered != action)
                fail(QStringLiteral("leaves a button it is not on"));
            if (pressAt >= 0)
                fail(QStringLiteral("pressed but never released"));
            hovered.clear();
        } else if (e.event == QLatin1String("press")) {
            if (hovered != action || pressAt >= 0 || clickedThisHover)
                fail(QStringLiteral("press without a fresh hover on that button"));
            if (e.t <= hoverStart)
                fail(QStringLiteral("press at the very moment of hover_enter"));
            pressAt = e.t;
        } else if (e.event == QLatin1String("click")) {
            if (hovered.isEmpty()) {
                ++result.shortcutClicks; // a keyboard shortcut: nothing pressed, nothing hovered
            } else {
                if (hovered != action)
                    fail(QStringLiteral("click on another button than the hovered one"));
                if (pressAt < 0 || e.t - pressAt > 200 || e.t - pressAt <= 0)
                    fail(QStringLiteral("click not preceded by its press within 200 ms"));
                ++result.hoverClicks;
                clickedThisHover = true;
                pressAt = -1;
            }
        }
    }
    if (!hovered.isEmpty())
        result.error += QStringLiteral(" the trace ends with the pointer on ") + hovered;
    return result;
}

} // namespace

class tst_TraceGen : public QObject
{
    Q_OBJECT

private slots:
    void kindsAreTheFour();
    void unknownKindIsAnError();
    void sameSeedSameBytes_data();
    void sameSeedSameBytes();
    void differentSeedsDiffer_data();
    void differentSeedsDiffer();
    void parsesAndLastsTwoToFourMinutes_data();
    void parsesAndLastsTwoToFourMinutes();
    void committedTracesAreSeedOne_data();
    void committedTracesAreSeedOne();
    void todaysFormatStillParses();
    void badSignalsAreRejected_data();
    void badSignalsAreRejected();
    void clicksArePressedOrShortcuts_data();
    void clicksArePressedOrShortcuts();
    void answersHaveRoom_data();
    void answersHaveRoom();
    void documentActionsHaveWhatTheyNeed_data();
    void documentActionsHaveWhatTheyNeed();
    void typingIsKeyByKey();
    void typingCadence();
    void wizardStepsInOrder();

private:
    static Trace generated(const QString &kind, quint64 seed, QString *error);
    static void addKindRows();
};

Trace tst_TraceGen::generated(const QString &kind, quint64 seed, QString *error)
{
    const auto text = generateTrace(kind, seed);
    if (!text) {
        *error = text.error();
        return {};
    }
    auto trace = Trace::parse(*text, kind);
    if (!trace) {
        *error = trace.error();
        return {};
    }
    return *trace;
}

#define GENERATE(trace, kind, seed)                                                                   \
    QString trace##Error;                                                                             \
    const Trace trace = generated(kind, seed, &trace##Error);                                         \
    QVERIFY2(trace##Error.isEmpty(), qPrintable(QStringLiteral("seed %1: ").arg(seed) + trace##Error))

void tst_TraceGen::addKindRows()
{
    QTest::addColumn<QString>("kind");
    for (const QString &kind : traceKinds())
        QTest::addRow("%s", qPrintable(kind)) << kind;
}

void tst_TraceGen::kindsAreTheFour()
{
    QCOMPARE(traceKinds(), (QStringList{QStringLiteral("writer-long-doc"), QStringLiteral("chat-session"),
                                        QStringLiteral("wizard-session"), QStringLiteral("hesitant-user")}));
}

void tst_TraceGen::unknownKindIsAnError()
{
    const auto result = generateTrace(QStringLiteral("speed-reader"), 1);
    QVERIFY(!result);
    QVERIFY2(result.error().contains(QLatin1String("speed-reader")), qPrintable(result.error()));
    QVERIFY2(result.error().contains(QLatin1String("writer-long-doc")), qPrintable(result.error()));
    QVERIFY(!generateTrace(QString(), 1));
}

void tst_TraceGen::sameSeedSameBytes_data()
{
    addKindRows();
}

void tst_TraceGen::sameSeedSameBytes()
{
    QFETCH(QString, kind);
    for (quint64 seed : {quint64(1), quint64(7), quint64(0xffffffffffffffffULL)}) {
        const auto a = generateTrace(kind, seed);
        const auto b = generateTrace(kind, seed);
        QVERIFY(a && b);
        QVERIFY(!a->isEmpty());
        QCOMPARE(*a, *b);
    }
}

void tst_TraceGen::differentSeedsDiffer_data()
{
    addKindRows();
}

void tst_TraceGen::differentSeedsDiffer()
{
    QFETCH(QString, kind);
    QSet<QByteArray> seen;
    for (quint64 seed = 1; seed <= SeedCount; ++seed) {
        const auto text = generateTrace(kind, seed);
        QVERIFY(text);
        // Not only the meta line: the behaviour after it differs.
        seen.insert(text->mid(text->indexOf('\n')));
    }
    QCOMPARE(seen.size(), qsizetype(SeedCount));
}

void tst_TraceGen::parsesAndLastsTwoToFourMinutes_data()
{
    addKindRows();
}

void tst_TraceGen::parsesAndLastsTwoToFourMinutes()
{
    QFETCH(QString, kind);
    for (quint64 seed = 1; seed <= SeedCount; ++seed) {
        GENERATE(trace, kind, seed);
        QCOMPARE(trace.name, kind);
        QCOMPARE(trace.meta.value(QStringLiteral("seed")).toInteger(), qint64(seed));
        QCOMPARE(trace.meta.value(QStringLiteral("generator")).toString(), QStringLiteral("headstart-cli tracegen"));
        QVERIFY(!trace.meta.value(QStringLiteral("description")).toString().isEmpty());
        QCOMPARE(trace.events.constLast().event, QStringLiteral("end"));
        for (qsizetype i = 0; i + 1 < trace.events.size(); ++i)
            QVERIFY(trace.events.at(i).event != QLatin1String("end"));
        QVERIFY2(trace.durationMs() >= 120000 && trace.durationMs() <= 240000,
                 qPrintable(QStringLiteral("seed %1: %2 ms").arg(seed).arg(trace.durationMs())));
    }
}

void tst_TraceGen::committedTracesAreSeedOne_data()
{
    addKindRows();
}

void tst_TraceGen::committedTracesAreSeedOne()
{
    // The committed traces are what the generator makes now, on this platform: a change of the
    // generator (or a platform giving other numbers) shows here.
    QFETCH(QString, kind);
    const QString path = QFINDTESTDATA(QStringLiteral("../bench/traces/%1.jsonl").arg(kind));
    QVERIFY2(!path.isEmpty(), "bench/traces is missing a trace");
    QFile file(path);
    QVERIFY(file.open(QIODevice::ReadOnly));
    const auto text = generateTrace(kind, 1);
    QVERIFY(text);
    QCOMPARE(file.readAll(), *text);
}

void tst_TraceGen::todaysFormatStillParses()
{
    // A trace without any of the signal events, as they were before them, is as valid as ever.
    const QByteArray old = R"({"t":0,"event":"meta","name":"old","seed":1,"generator":"hand","description":"d"}
{"t":300,"event":"open_document","doc":"d1","tokens":2000,"seed":3,"language":"en"}
{"t":2000,"event":"select","paragraph":1}
{"t":3000,"event":"hover_enter","action":"rewrite"}
{"t":3300,"event":"press","action":"rewrite"}
{"t":3380,"event":"click","action":"rewrite"}
{"t":3900,"event":"hover_leave","action":"rewrite"}
{"t":9000,"event":"chat_open","conversation":"c","mode":"document"}
{"t":9500,"event":"type","text":"H"}
{"t":9700,"event":"send"}
{"t":30000,"event":"end"}
)";
    const auto trace = Trace::parse(old, QStringLiteral("old"));
    QVERIFY2(trace, qPrintable(trace.error()));
    QCOMPARE(trace->events.size(), 10);
    // And the strictness stays: unknown events are still rejected, naming the line.
    const auto unknown = Trace::parse(old + R"({"t":30001,"event":"scroll","dy":3})", QStringLiteral("old"));
    QVERIFY(!unknown);
}

void tst_TraceGen::badSignalsAreRejected_data()
{
    QTest::addColumn<QByteArray>("line");
    QTest::addColumn<QString>("why");
    const QByteArray buttons = R"("buttons":{"summarize":[0,0,80,24],"continue":[86,0,110,24],"rewrite":[202,0,114,24],"translate":[322,0,80,24],"explain":[408,0,112,24]})";
    QTest::addRow("layout without buttons") << QByteArray(R"({"t":5,"event":"layout"})") << QStringLiteral("buttons");
    QTest::addRow("a button missing") << QByteArray(R"({"t":5,"event":"layout","buttons":{"summarize":[0,0,80,24]}})")
                                      << QStringLiteral("buttons");
    QTest::addRow("a rect of floats") << QByteArray(R"({"t":5,"event":"layout","buttons":{"summarize":[0,0,80.5,24],"continue":[86,0,110,24],"rewrite":[202,0,114,24],"translate":[322,0,80,24],"explain":[408,0,112,24]}})")
                                      << QStringLiteral("summarize");
    QTest::addRow("a bad document rect") << QByteArray("{\"t\":5,\"event\":\"layout\"," + buttons + R"(,"document":[0,0,-3,4]})")
                                         << QStringLiteral("document");
    QTest::addRow("pointer without y") << QByteArray(R"({"t":5,"event":"pointer","x":3})") << QStringLiteral("\"y\"");
    QTest::addRow("pointer at a fraction") << QByteArray(R"({"t":5,"event":"pointer","x":3.5,"y":4})") << QStringLiteral("integers");
    QTest::addRow("focus on nothing known") << QByteArray(R"({"t":5,"event":"focus","target":"menu"})") << QStringLiteral("target");
    QTest::addRow("an unknown modifier") << QByteArray(R"({"t":5,"event":"modifiers","keys":["hyper"]})") << QStringLiteral("keys");
    QTest::addRow("a modifier twice") << QByteArray(R"({"t":5,"event":"modifiers","keys":["ctrl","ctrl"]})") << QStringLiteral("keys");
    QTest::addRow("keys not an array") << QByteArray(R"({"t":5,"event":"modifiers","keys":"ctrl"})") << QStringLiteral("keys");
}

void tst_TraceGen::badSignalsAreRejected()
{
    QFETCH(QByteArray, line);
    QFETCH(QString, why);
    const QByteArray text = "{\"t\":0,\"event\":\"meta\",\"name\":\"bad\"}\n" + line + "\n{\"t\":9,\"event\":\"end\"}\n";
    const auto trace = Trace::parse(text, QStringLiteral("bad"));
    QVERIFY(!trace);
    QVERIFY2(trace.error().startsWith(QLatin1String("bad:2:")), qPrintable(trace.error()));
    QVERIFY2(trace.error().contains(why), qPrintable(trace.error()));
}

void tst_TraceGen::clicksArePressedOrShortcuts_data()
{
    QTest::addColumn<QString>("kind");
    QTest::addColumn<double>("minShare"); // of hover_enters that end in a click
    QTest::addColumn<double>("maxShare");
    QTest::addColumn<int>("minClicks");
    QTest::addColumn<int>("maxClicks");
    QTest::addColumn<double>("maxShortcutShare"); // of all clicks
    // instant.page: about 1 in 2 hovers past 65 ms end in a click; about one action in ten
    // comes from the keyboard.
    QTest::addRow("writer-long-doc") << QStringLiteral("writer-long-doc") << 0.40 << 0.60 << 15 << 25 << 0.2;
    // PREFETCH.md's unpredictable users: 10–20 %; a quarter of their actions from the keyboard.
    QTest::addRow("hesitant-user") << QStringLiteral("hesitant-user") << 0.10 << 0.20 << 5 << 12 << 0.4;
}

void tst_TraceGen::clicksArePressedOrShortcuts()
{
    QFETCH(QString, kind);
    QFETCH(double, minShare);
    QFETCH(double, maxShare);
    QFETCH(int, minClicks);
    QFETCH(int, maxClicks);
    QFETCH(double, maxShortcutShare);
    int hovers = 0;
    int hoverClicks = 0;
    int shortcuts = 0;
    for (quint64 seed = 1; seed <= SeedCount; ++seed) {
        GENERATE(trace, kind, seed);
        const Pointer pointer = checkPointer(trace);
        QVERIFY2(pointer.error.isEmpty(), qPrintable(QStringLiteral("seed %1: ").arg(seed) + pointer.error));
        const double share = double(pointer.hoverClicks) / pointer.hovers;
        QVERIFY2(share >= minShare && share <= maxShare,
                 qPrintable(QStringLiteral("seed %1: %2 of %3 hovers clicked").arg(seed).arg(pointer.hoverClicks)
                                .arg(pointer.hovers)));
        const int clicks = pointer.hoverClicks + pointer.shortcutClicks;
        QVERIFY2(clicks >= minClicks && clicks <= maxClicks, qPrintable(QStringLiteral("seed %1: %2 clicks").arg(seed).arg(clicks)));
        hovers += pointer.hovers;
        hoverClicks += pointer.hoverClicks;
        shortcuts += pointer.shortcutClicks;
    }
    // Shortcuts are there, and a minority.
    QVERIFY(shortcuts >= int(SeedCount));
    QVERIFY2(shortcuts <= maxShortcutShare * (shortcuts + hoverClicks),
             qPrintable(QStringLiteral("%1 shortcuts, %2 hover clicks").arg(shortcuts).arg(hoverClicks)));
    QVERIFY(hovers > hoverClicks);
}

void tst_TraceGen::answersHaveRoom_data()
{
    addKindRows();
}

void tst_TraceGen::answersHaveRoom()
{
    // An answer takes ~10 s to stream and users read for 5–40 s: activations are at least 5 s
    // apart unless Stop (or Cancel) came between, and the trace lasts past the last answer.
    QFETCH(QString, kind);
    for (quint64 seed = 1; seed <= SeedCount; ++seed) {
        GENERATE(trace, kind, seed);
        qint64 last = -1;
        int activations = 0;
        for (const TraceEvent &e : trace.events) {
            if (e.event == QLatin1String("stop") || e.event == QLatin1String("wizard_cancel")) {
                QVERIFY2(last >= 0, qPrintable(QStringLiteral("seed %1 line %2: nothing to stop").arg(seed).arg(e.line)));
                last = -1;
            } else if (isActivation(e)) {
                if (last >= 0)
                    QVERIFY2(e.t - last >= 5000,
                             qPrintable(QStringLiteral("seed %1 line %2: %3 ms after the previous activation")
                                            .arg(seed).arg(e.line).arg(e.t - last)));
                last = e.t;
                ++activations;
            }
        }
        QVERIFY(activations >= 4);
        QVERIFY2(last < 0 || trace.durationMs() - last >= 10000,
                 qPrintable(QStringLiteral("seed %1: the trace ends %2 ms after the last activation")
                                .arg(seed).arg(trace.durationMs() - last)));
    }
}

void tst_TraceGen::documentActionsHaveWhatTheyNeed_data()
{
    addKindRows();
}

void tst_TraceGen::documentActionsHaveWhatTheyNeed()
{
    // Documents are opened before use, selections point at a paragraph that exists, rewrite and
    // explain always have one, and the replay never has to guess which document is current.
    QFETCH(QString, kind);
    int selectionClicks = 0;
    int stops = 0;
    for (quint64 seed = 1; seed <= SeedCount; ++seed) {
        GENERATE(trace, kind, seed);
        QHash<QString, int> paragraphCount; // open documents
        QString current;
        bool selected = false;
        for (const TraceEvent &e : trace.events) {
            const QString doc = e.fields.value(QStringLiteral("doc")).toString();
            const QString where = QStringLiteral("seed %1 line %2").arg(seed).arg(e.line);
            if (e.event == QLatin1String("open_document")) {
                QVERIFY2(!paragraphCount.contains(doc), qPrintable(where));
                const int tokens = e.fields.value(QStringLiteral("tokens")).toInt();
                const QString language = e.fields.value(QStringLiteral("language")).toString();
                QVERIFY2(language == QLatin1String("en") || language == QLatin1String("zh"), qPrintable(where));
                QVERIFY2(e.fields.value(QStringLiteral("seed")).isDouble(), qPrintable(where));
                QVERIFY(tokens >= 1000);
                const quint64 docSeed = quint64(e.fields.value(QStringLiteral("seed")).toInteger());
                paragraphCount.insert(doc, int(paragraphs(makeDocument(tokens, docSeed, language)).size()));
                current = doc;
                selected = false;
            } else if (e.event == QLatin1String("switch_document")) {
                QVERIFY2(paragraphCount.contains(doc) && doc != current, qPrintable(where));
                current = doc;
                selected = false;
            } else if (e.event == QLatin1String("close_document")) {
                QVERIFY2(paragraphCount.contains(doc) && doc != current, qPrintable(where));
                paragraphCount.remove(doc);
            } else if (e.event == QLatin1String("edit_document")) {
                QVERIFY2(doc == current, qPrintable(where));
                QVERIFY2(e.fields.value(QStringLiteral("append_tokens")).toInt() > 0, qPrintable(where));
            } else if (e.event == QLatin1String("select")) {
                QVERIFY2(!current.isEmpty(), qPrintable(where));
                const int paragraph = e.fields.value(QStringLiteral("paragraph")).toInt(-2);
                QVERIFY2(paragraph >= -1 && paragraph < paragraphCount.value(current), qPrintable(where));
                selected = paragraph >= 0;
            } else if (e.event == QLatin1String("click")) {
                QVERIFY2(!current.isEmpty(), qPrintable(where));
                const QString action = e.fields.value(QStringLiteral("action")).toString();
                if (action == QLatin1String("rewrite") || action == QLatin1String("explain")) {
                    QVERIFY2(selected, qPrintable(where + QStringLiteral(": ") + action + QStringLiteral(" without a selection")));
                    ++selectionClicks;
                }
            } else if (e.event == QLatin1String("stop")) {
                ++stops;
            } else if (e.event == QLatin1String("chat_open")) {
                if (e.fields.value(QStringLiteral("mode")).toString() == QLatin1String("document"))
                    QVERIFY2(!current.isEmpty(), qPrintable(where));
            }
        }
    }
    if (kind == QLatin1String("writer-long-doc") || kind == QLatin1String("hesitant-user")) {
        QVERIFY(selectionClicks > 0);
        QVERIFY(stops > 0);
    }
}

void tst_TraceGen::typingIsKeyByKey()
{
    // One "type" per keystroke: the draft gains or loses exactly one character; Enter sends a
    // non-empty draft and empties it.
    int backspaces = 0;
    for (quint64 seed = 1; seed <= SeedCount; ++seed) {
        GENERATE(trace, QStringLiteral("chat-session"), seed);
        QString draft;
        bool chatOpen = false;
        for (const TraceEvent &e : trace.events) {
            const QString where = QStringLiteral("seed %1 line %2").arg(seed).arg(e.line);
            if (e.event == QLatin1String("chat_open")) {
                QVERIFY2(draft.isEmpty(), qPrintable(where));
                chatOpen = true;
            } else if (e.event == QLatin1String("type")) {
                QVERIFY2(chatOpen, qPrintable(where));
                const QString text = e.fields.value(QStringLiteral("text")).toString();
                QVERIFY2(qAbs(text.size() - draft.size()) == 1, qPrintable(where));
                const QString &longer = text.size() > draft.size() ? text : draft;
                const QString &shorter = text.size() > draft.size() ? draft : text;
                qsizetype i = 0;
                while (i < shorter.size() && shorter.at(i) == longer.at(i))
                    ++i;
                QVERIFY2(QString(longer).remove(i, 1) == shorter, qPrintable(where));
                if (text.size() < draft.size())
                    ++backspaces;
                draft = text;
            } else if (e.event == QLatin1String("send")) {
                QVERIFY2(!draft.trimmed().isEmpty(), qPrintable(where));
                draft.clear();
            }
        }
        QVERIFY2(draft.isEmpty(), "the trace ends with an unsent draft");
    }
    QVERIFY(backspaces > 0); // corrections happen
}

void tst_TraceGen::typingCadence()
{
    // Dhakal et al.: ~52 WPM, ~230 ms between keys with a wide spread; pauses between words and
    // phrases, some long enough for a debounce (> 350 ms) in the middle of a message.
    int questions = 0;
    int statements = 0;
    for (quint64 seed = 1; seed <= SeedCount; ++seed) {
        GENERATE(trace, QStringLiteral("chat-session"), seed);
        QList<qint64> gaps;
        qint64 previousKey = -1;
        QString draft;
        int messages = 0;
        int conversations = 0;
        for (const TraceEvent &e : trace.events) {
            if (e.event == QLatin1String("type")) {
                if (previousKey >= 0)
                    gaps.append(e.t - previousKey);
                previousKey = e.t;
                draft = e.fields.value(QStringLiteral("text")).toString();
            } else if (e.event == QLatin1String("send")) {
                previousKey = -1; // the gap to the next message is reading, not typing
                ++messages;
                ++(draft.endsWith(u'?') ? questions : statements);
            } else if (e.event == QLatin1String("chat_open")) {
                ++conversations;
            }
        }
        QVERIFY2(messages >= 10 && messages <= 14, qPrintable(QStringLiteral("seed %1: %2 messages").arg(seed).arg(messages)));
        QVERIFY(conversations >= 1 && conversations <= 2);
        std::sort(gaps.begin(), gaps.end());
        const qint64 median = gaps.at(gaps.size() / 2);
        QVERIFY2(median >= 150 && median <= 320, qPrintable(QStringLiteral("seed %1: median %2 ms").arg(seed).arg(median)));
        const auto pauses = std::count_if(gaps.cbegin(), gaps.cend(), [](qint64 gap) { return gap > 350; });
        QVERIFY2(pauses >= 5 && pauses < gaps.size() / 2,
                 qPrintable(QStringLiteral("seed %1: %2 of %3 gaps over 350 ms").arg(seed).arg(pauses).arg(gaps.size())));
        QVERIFY(gaps.constFirst() >= 20);
    }
    QVERIFY(questions > 0);
    QVERIFY(statements > 0);
}

void tst_TraceGen::wizardStepsInOrder()
{
    // Each run: start, the topic form, then Next to steps 2, 3, 4 in order, edits only on the
    // open step, Finish after step 4; one run per trace is cancelled midway.
    const QStringList tones = {QStringLiteral("neutral"), QStringLiteral("friendly"), QStringLiteral("formal"),
                               QStringLiteral("persuasive"), QStringLiteral("playful")};
    const QStringList lengths = {QStringLiteral("short"), QStringLiteral("medium"), QStringLiteral("long")};
    int edits = 0;
    for (quint64 seed = 1; seed <= SeedCount; ++seed) {
        GENERATE(trace, QStringLiteral("wizard-session"), seed);
        int step = 0; // 0: no wizard open
        bool formFilled = false;
        qint64 stepOpened = -1;
        int runs = 0;
        int finished = 0;
        int cancelled = 0;
        for (const TraceEvent &e : trace.events) {
            const QString where = QStringLiteral("seed %1 line %2 %3").arg(seed).arg(e.line).arg(e.event);
            const int eventStep = e.fields.value(QStringLiteral("step")).toInt();
            if (e.event == QLatin1String("wizard_start")) {
                QVERIFY2(step == 0, qPrintable(where));
                step = 1;
                formFilled = false;
                ++runs;
            } else if (e.event == QLatin1String("wizard_field")) {
                QVERIFY2(step == 1 && eventStep == 1, qPrintable(where));
                const QJsonObject data = e.fields.value(QStringLiteral("data")).toObject();
                QVERIFY2(!data.value(QStringLiteral("topic")).toString().isEmpty(), qPrintable(where));
                QVERIFY2(data.value(QStringLiteral("audience")).isString(), qPrintable(where));
                QVERIFY2(tones.contains(data.value(QStringLiteral("tone")).toString()), qPrintable(where));
                QVERIFY2(lengths.contains(data.value(QStringLiteral("length")).toString()), qPrintable(where));
                formFilled = true;
            } else if (e.event == QLatin1String("wizard_next")) {
                QVERIFY2(formFilled && step >= 1 && eventStep == step + 1 && eventStep <= 4, qPrintable(where));
                if (step >= 2) // the previous step was generated (400 tokens: ~10 s) and read (≥ 8 s)
                    QVERIFY2(e.t - stepOpened >= 18000, qPrintable(where));
                step = eventStep;
                stepOpened = e.t;
            } else if (e.event == QLatin1String("wizard_edit")) {
                QVERIFY2(step >= 2 && eventStep == step, qPrintable(where));
                QVERIFY2(!e.fields.value(QStringLiteral("append")).toString().isEmpty(), qPrintable(where));
                ++edits;
            } else if (e.event == QLatin1String("wizard_finish")) {
                QVERIFY2(step == 4, qPrintable(where));
                QVERIFY2(e.t - stepOpened >= 5000, qPrintable(where)); // the title was generated and read
                step = 0;
                ++finished;
            } else if (e.event == QLatin1String("wizard_cancel")) {
                QVERIFY2(step >= 2 && step < 4, qPrintable(where)); // midway
                step = 0;
                ++cancelled;
            }
        }
        QCOMPARE(step, 0);
        QVERIFY(runs >= 2 && runs <= 3);
        QCOMPARE(cancelled, 1);
        QCOMPARE(finished, runs - 1);
    }
    QVERIFY(edits > 0);
}

QTEST_GUILESS_MAIN(tst_TraceGen)
#include "tst_tracegen.moc"
