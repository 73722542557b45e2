// The replay benchmark's harness against the real local provider: traces are parsed strictly;
// a hover ending in a click, a chat message sent after a pause and a wizard walked step by step
// are taken over from their prefetch when the strategy is on and answered fresh when it is off;
// Stop leaves nothing open; the report derives its ratios from the runs and writes its files. A
// chat about a generated library sends each question with its passages (the answer quotes the
// planted fact), prefetched with them at the pause; a trace naming a library that is too large is
// refused with the line. With the response cache (each run its own, as the app's defaults have
// it) a question asked again word for word and a document summarized again unchanged are
// answered from it with nothing sent, and sent when the cache is off; a restyled question is
// served from its near duplicate, a reworded one drafted while its live answer comes.
#include "bench/replay/librarycorpus.h"
#include "bench/replay/replayer.h"
#include "bench/replay/report.h"
#include "bench/replay/trace.h"

#include "prefetch/cache/responsecache.h"
#include "prefetch/text/minhash.h"
#include "workspace/chat/followups.h"

#include <QDir>
#include <QFile>
#include <QImage>
#include <QJsonArray>
#include <QJsonDocument>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

using namespace Bench;

namespace {

// Ten times faster than real time: the hosted profile's 750 ms to the first token takes 75 ms.
constexpr double Speed = 10;

QByteArray lines(std::initializer_list<const char *> events)
{
    QByteArray out;
    for (const char *e : events)
        out += QByteArray(e) + '\n';
    return out;
}

// `message` typed key by key from `t` (one "type" line per key, `gapMs` apart); `t` ends one gap
// after the last key.
QByteArray typed(const QString &message, qint64 &t, qint64 gapMs)
{
    QByteArray out;
    for (qsizetype i = 1; i <= message.size(); ++i, t += gapMs) {
        out += QJsonDocument(QJsonObject{{QStringLiteral("t"), t},
                                         {QStringLiteral("event"), QStringLiteral("type")},
                                         {QStringLiteral("text"), message.left(i)}})
                   .toJson(QJsonDocument::Compact)
               + '\n';
    }
    return out;
}

Trace parsed(const QByteArray &jsonLines)
{
    auto trace = Trace::parse(jsonLines, QStringLiteral("test"));
    if (!trace)
        qFatal("%s", qPrintable(trace.error()));
    return *trace;
}

RunResult play(const Trace &trace, Mode mode, const QString &preset = QStringLiteral("hosted"), Variant variant = {})
{
    Replayer replayer(trace, *Preset::byName(preset), mode, Speed, variant);
    QSignalSpy finished(&replayer, &Replayer::finished);
    const auto error = replayer.start();
    if (error)
        qFatal("%s", qPrintable(*error));
    if (!finished.wait(30'000))
        qFatal("the replay did not finish");
    return replayer.result();
}

// A writer opens a document, rests on Summarize (dwell 520 ms, press 80 ms before the click),
// reads, then passes over Continue without clicking.
const QByteArray HoverTrace = lines({
    R"({"t":0,"event":"meta","name":"hover-test"})",
    R"({"t":0,"event":"open_document","doc":"d1","tokens":2000,"seed":3,"language":"en"})",
    R"({"t":2000,"event":"hover_enter","action":"summarize"})",
    R"({"t":2440,"event":"press","action":"summarize"})",
    R"({"t":2520,"event":"click","action":"summarize"})",
    R"({"t":2600,"event":"hover_leave","action":"summarize"})",
    R"({"t":20000,"event":"hover_enter","action":"continue"})",
    R"({"t":20090,"event":"hover_leave","action":"continue"})",
    R"({"t":21000,"event":"end"})",
});

// `report` written into `dir`: its report.md (empty if it could not be written or read).
QString written(const Report &report, const QString &dir)
{
    if (report.write(dir))
        return {};
    QFile md(QDir(dir).filePath(QStringLiteral("report.md")));
    return md.open(QIODevice::ReadOnly) ? QString::fromUtf8(md.readAll()) : QString();
}

Variant withCache(CacheUse use)
{
    Variant v;
    v.cache = use;
    return v;
}

// Two new conversations of one question each, 20 s apart (the first answer is in long before).
QByteArray askedTwice(const char *first, const char *second)
{
    QByteArray trace = lines({R"({"t":0,"event":"meta","name":"cache-test"})",
                              R"({"t":0,"event":"chat_open","conversation":"c1","mode":"free"})"});
    const auto event = [](qint64 t, const char *name, const QJsonObject &fields = {}) {
        QJsonObject o = fields;
        o.insert(QStringLiteral("t"), t);
        o.insert(QStringLiteral("event"), QLatin1StringView(name));
        return QJsonDocument(o).toJson(QJsonDocument::Compact) + '\n';
    };
    trace += event(100, "type", {{QStringLiteral("text"), QString::fromUtf8(first)}});
    trace += event(300, "send");
    trace += event(20000, "chat_open",
                   {{QStringLiteral("conversation"), QStringLiteral("c2")},
                    {QStringLiteral("mode"), QStringLiteral("free")}});
    trace += event(20100, "type", {{QStringLiteral("text"), QString::fromUtf8(second)}});
    trace += event(20300, "send");
    trace += event(40000, "end");
    return trace;
}

} // namespace

class tst_BenchReplay : public QObject
{
    Q_OBJECT

private slots:
    void parseRejectsBadTraces_data();
    void parseRejectsBadTraces();
    void hoverClickIsTakenOverOnlyWhenHoverIsOn();
    void chatSendAfterPauseIsTakenOver();
    void anOfferedFollowUpIsClickedNotTyped();
    void aWholeMessageCompletedIsTakenNotTyped();
    void libraryChatSendsThePassages();
    void wizardStepsArePrefetched();
    void stopLeavesNothingOpen();
    void stopDropsWhatWasAboutToBeGuessed();
    void reportComparesModesAndWritesFiles();
    void sweepPointsAreReportedSideBySide();
    void repeatedQuestionIsAnsweredFromTheCache();
    void documentSummarizedAgainIsAnsweredFromTheCache();
    void restyledQuestionIsServed();
    void rewordedQuestionIsDraftedWhileTheLiveAnswerComes();
};

void tst_BenchReplay::parseRejectsBadTraces_data()
{
    QTest::addColumn<QByteArray>("trace");
    QTest::addColumn<QString>("error");
    QTest::addRow("not json") << lines({R"({"t":0,"event":"end"})", "{oops"})
                              << QStringLiteral("test:2: not a JSON object");
    QTest::addRow("unknown event") << lines({R"({"t":0,"event":"wave"})"})
                                   << QStringLiteral("test:1: unknown event \"wave\"");
    QTest::addRow("missing field") << lines({R"({"t":0,"event":"click"})"})
                                   << QStringLiteral("test:1: \"click\" needs the field \"action\"");
    QTest::addRow("time goes back") << lines({R"({"t":50,"event":"send"})", R"({"t":10,"event":"end"})"})
                                    << QStringLiteral("test:2: \"t\" goes back in time");
    QTest::addRow("no time") << lines({R"({"event":"end"})"}) << QStringLiteral("test:1: \"t\" must be");
    QTest::addRow("empty") << QByteArray("\n\n") << QStringLiteral("the trace has no events");
    QTest::addRow("unknown action") << lines({R"({"t":0,"event":"click","action":"dance"})"})
                                    << QStringLiteral("test:1: \"action\" must be one of");
    QTest::addRow("wizard step") << lines({R"({"t":0,"event":"wizard_next","step":7})"})
                                 << QStringLiteral("test:1: \"step\" is out of range");
    QTest::addRow("after end") << lines({R"({"t":0,"event":"end"})", R"({"t":1,"event":"send"})"})
                               << QStringLiteral("test:2: an event after \"end\"");
    QTest::addRow("late meta") << lines({R"({"t":0,"event":"send"})", R"({"t":1,"event":"meta"})"})
                               << QStringLiteral("test:2: \"meta\" must come before");
    // Found by fuzz_trace: the second replaced the first's fields and kept its name.
    QTest::addRow("two metas") << lines(
        {R"({"t":0,"event":"meta","name":"a"})", R"({"t":0,"event":"meta","seed":2})", R"({"t":1,"event":"send"})"})
                               << QStringLiteral("test:2: a trace has one \"meta\"");
}

void tst_BenchReplay::parseRejectsBadTraces()
{
    QFETCH(QByteArray, trace);
    QFETCH(QString, error);
    const auto result = Trace::parse(trace, QStringLiteral("test"));
    QVERIFY(!result);
    QVERIFY2(result.error().contains(error), qPrintable(result.error()));
}

void tst_BenchReplay::hoverClickIsTakenOverOnlyWhenHoverIsOn()
{
    const Trace trace = parsed(HoverTrace);
    const RunResult off = play(trace, Mode::Off);
    const RunResult hover = play(trace, Mode::Hover);
    for (const RunResult *r : {&off, &hover}) {
        QVERIFY2(r->problems.isEmpty(), qPrintable(r->problems.join(u'\n')));
        QCOMPARE(r->samples.size(), 1);
        QVERIFY(r->samples.first().perceivedMs >= 0);
        QVERIFY(r->samples.first().firstOnDocument);
    }
    QVERIFY(!off.samples.first().prefetched());
    QCOMPARE(off.prefetchRequests, 0);
    QCOMPARE(off.requests, 1);
    QVERIFY(hover.samples.first().prefetched());
    const Prefetch::StrategyStats stats = hover.stats.value(Prefetch::Strategy::Hover);
    // The click took Summarize over; the 90 ms pass over Continue never reached the 150 ms delay.
    QCOMPARE(stats.attempts, 1);
    QCOMPARE(stats.hits + stats.partialHits, 1);
    QCOMPARE(hover.prefetchRequests, 1);
    QVERIFY(hover.requests <= 2); // the prefetch, and its continuation for a longer answer
    QVERIFY(hover.stats.value(Prefetch::Strategy::Hover).tokensUsed > 0);
}

void tst_BenchReplay::chatSendAfterPauseIsTakenOver()
{
    QByteArray trace = lines({R"({"t":0,"event":"meta","name":"chat-test"})",
                              R"({"t":0,"event":"chat_open","conversation":"c1","mode":"free"})"});
    const QString message = QStringLiteral("How do I shorten this introduction?");
    qint64 t = 100;
    trace += typed(message, t, 200);
    trace += QByteArray(R"({"t":)") + QByteArray::number(t + 1500) + R"(,"event":"send"})" + '\n';
    trace += QByteArray(R"({"t":)") + QByteArray::number(t + 1600) + R"(,"event":"end"})" + '\n';

    // The draft's guess alone, not the guess of a follow-up offered after its answer.
    Variant draftsOnly;
    draftsOnly.noSuggestions = true;
    const RunResult off = play(parsed(trace), Mode::Off);
    const RunResult debounce = play(parsed(trace), Mode::Debounce, QStringLiteral("hosted"), draftsOnly);
    QCOMPARE(off.samples.size(), 1);
    QCOMPARE(debounce.samples.size(), 1);
    QVERIFY(!off.samples.first().prefetched());
    QVERIFY(debounce.samples.first().prefetched());
    const Prefetch::StrategyStats stats = debounce.stats.value(Prefetch::Strategy::Debounce);
    QCOMPARE(stats.hits + stats.partialHits, 1);
    QCOMPARE(stats.attempts, 1); // 200 ms between keys never paused long enough before the end
}

void tst_BenchReplay::aWholeMessageCompletedIsTakenNotTyped()
{
    // A question asked in one conversation, then again, typed key by key, after an exchange in
    // another (so that no cache holds its answer): the chat completes it from its third key and
    // the user takes it at the fourth, then presses Enter after the trace's own pause. Its answer
    // started at the take. Without completion, it is typed to its end and sent with Enter before
    // the typing pause could guess it.
    const QString question = QStringLiteral("Explain how a prompt cache is billed");
    QByteArray trace = lines({R"({"t":0,"event":"meta","name":"completion-test"})",
                              R"({"t":0,"event":"chat_open","conversation":"c1","mode":"free"})",
                              R"({"t":100,"event":"type","text":"Explain how a prompt cache is billed"})",
                              R"({"t":300,"event":"send"})",
                              R"({"t":8000,"event":"chat_open","conversation":"c2","mode":"free"})",
                              R"({"t":8100,"event":"type","text":"Hello there"})", R"({"t":8300,"event":"send"})"});
    qint64 t = 16'000;
    trace += typed(question, t, 150);
    trace += QByteArray(R"({"t":)") + QByteArray::number(t + 150) + R"(,"event":"send"})" + '\n';
    trace += QByteArray(R"({"t":)") + QByteArray::number(t + 1000) + R"(,"event":"end"})" + '\n';

    Variant completing;
    completing.cache = CacheUse::Off;
    Variant typing = completing;
    typing.noCompletion = true;
    const RunResult taken = play(parsed(trace), Mode::Debounce, QStringLiteral("hosted"), completing);
    const RunResult typed = play(parsed(trace), Mode::Debounce, QStringLiteral("hosted"), typing);
    for (const RunResult *r : {&taken, &typed}) {
        QVERIFY2(r->problems.isEmpty(), qPrintable(r->problems.join(u'\n')));
        QCOMPARE(r->samples.size(), 3);
        QVERIFY(!r->samples.at(0).completionTaken);
        QVERIFY(!r->samples.at(1).completionTaken);
    }
    QVERIFY(taken.samples.at(2).completionTaken);
    QVERIFY(taken.samples.at(2).prefetched());
    QVERIFY(!typed.samples.at(2).completionTaken);
    QVERIFY(!typed.samples.at(2).prefetched());
    QVERIFY(typed.samples.at(2).perceivedMs > taken.samples.at(2).perceivedMs);
    // What was sent is the message, both ways.
    QCOMPARE(taken.chatAnswers.size(), 3);
    QCOMPARE(taken.chatAnswers.at(2), typed.chatAnswers.at(2));
}

void tst_BenchReplay::anOfferedFollowUpIsClickedNotTyped()
{
    // A question, then three times a reply the chat offers word for word, each after reading the
    // answer before it: the user clicks it (its keys are not played). The third time it is a
    // habit (sent twice, every reply so far) and its answer was guessed as the answer before ended.
    QByteArray trace = lines({R"({"t":0,"event":"meta","name":"follow-up-test"})",
                              R"({"t":0,"event":"chat_open","conversation":"c1","mode":"free"})",
                              R"({"t":100,"event":"type","text":"Explain prompt caches"})",
                              R"({"t":300,"event":"send"})"});
    const QString reply = Gui::FollowUps::builtIn(false).constFirst();
    qint64 t = 300;
    for (int n = 0; n < 3; ++n) {
        t += 40'000; // the answer (at 40 tokens a second) read to its end
        trace += typed(reply, t, 150);
        t += 300;
        trace += QByteArray(R"({"t":)") + QByteArray::number(t) + R"(,"event":"send"})" + '\n';
    }
    trace += QByteArray(R"({"t":)") + QByteArray::number(t + 5000) + R"(,"event":"end"})" + '\n';

    Variant noSuggestions;
    noSuggestions.noSuggestions = true;
    const RunResult offered = play(parsed(trace), Mode::Debounce);
    const RunResult typed = play(parsed(trace), Mode::Debounce, QStringLiteral("hosted"), noSuggestions);
    for (const RunResult *r : {&offered, &typed}) {
        QVERIFY2(r->problems.isEmpty(), qPrintable(r->problems.join(u'\n')));
        QCOMPARE(r->samples.size(), 4);
        QVERIFY(!r->samples.first().suggestionClicked);
    }
    for (int n = 1; n <= 3; ++n) {
        QVERIFY(offered.samples.at(n).suggestionClicked);
        // Not offered: typed to its end and sent with Enter, as the trace says.
        QVERIFY(!typed.samples.at(n).suggestionClicked);
    }
    // Clicked before it was a habit: asked for at the click.
    QVERIFY(!offered.samples.at(1).prefetched());
    QVERIFY(!offered.samples.at(2).prefetched());
    QVERIFY(offered.samples.at(3).prefetched());
    QVERIFY(typed.samples.at(3).perceivedMs > offered.samples.at(3).perceivedMs);
}

void tst_BenchReplay::libraryChatSendsThePassages()
{
    // A planted question of a small library (60 notes, seed 3), typed, a pause, then Enter.
    constexpr int Docs = 60;
    constexpr quint64 Seed = 3;
    QString question;
    for (const PlantedQuestion &q : LibraryCorpus(Seed).questions(Docs, ReplayLibraryPlanted)) {
        if (!q.chinese) {
            question = q.text;
            break;
        }
    }
    QVERIFY(question.endsWith(u'?'));
    // "In the … notes, what is the <attribute> of the <entity>?" is answered by "The <attribute>
    // of the <entity> is …", the planted sentence.
    const qsizetype what = question.indexOf(QLatin1String("what is the "));
    QVERIFY(what > 0);
    const QString fact = QStringLiteral("The ") + question.mid(what + 12).chopped(1) + QStringLiteral(" is ");

    QByteArray trace = lines({R"({"t":0,"event":"meta","name":"library-test"})"});
    trace += QByteArray(R"({"t":0,"event":"open_library","docs":)") + QByteArray::number(Docs) + R"(,"seed":)"
             + QByteArray::number(Seed) + "}\n";
    trace += R"({"t":0,"event":"chat_open","conversation":"notes","mode":"library"})"
             "\n";
    qint64 t = 100;
    for (qsizetype i = 1; i <= question.size(); ++i, t += 150) {
        trace += QJsonDocument(QJsonObject{{QStringLiteral("t"), t},
                                           {QStringLiteral("event"), QStringLiteral("type")},
                                           {QStringLiteral("text"), question.left(i)}})
                     .toJson(QJsonDocument::Compact)
                 + '\n';
    }
    trace += QByteArray(R"({"t":)") + QByteArray::number(t + 2500) + R"(,"event":"send"})" + '\n';
    trace += QByteArray(R"({"t":)") + QByteArray::number(t + 2600) + R"(,"event":"end"})" + '\n';

    // The question's guess alone, not the guess of a follow-up offered after its answer.
    Variant draftsOnly;
    draftsOnly.noSuggestions = true;
    const RunResult off = play(parsed(trace), Mode::Off);
    const RunResult debounce = play(parsed(trace), Mode::Debounce, QStringLiteral("hosted"), draftsOnly);
    for (const RunResult *r : {&off, &debounce}) {
        QVERIFY2(r->problems.isEmpty(), qPrintable(r->problems.join(u'\n')));
        QCOMPARE(r->samples.size(), 1);
        QCOMPARE(r->chatAnswers.size(), 1);
        // The local engine answers from the passages sent with the question, citing them.
        QVERIFY2(r->chatAnswers.first().contains(fact), qPrintable(fact + u'\n' + r->chatAnswers.first()));
        QVERIFY2(r->chatAnswers.first().contains(QLatin1String("[1]")), qPrintable(r->chatAnswers.first()));
    }
    QVERIFY(!off.samples.first().prefetched());
    QCOMPARE(off.prefetchRequests, 0);
    // The pause after the "?" retrieved and prefetched; Enter sent the same request.
    QVERIFY(debounce.samples.first().prefetched());
    QCOMPARE(debounce.stats.value(Prefetch::Strategy::Debounce).attempts, 1);
    // The passages are in the prompt: several times a question's tokens.
    QVERIFY2(off.promptTokens > 300, qPrintable(QString::number(off.promptTokens)));

    // A library larger than a replay builds is refused, naming the line.
    const auto tooLarge = Trace::parse(R"({"t":0,"event":"open_library","docs":20000,"seed":1})"
                                       "\n",
                                       QStringLiteral("big"));
    QVERIFY(!tooLarge);
    QVERIFY2(tooLarge.error().contains(QLatin1String("docs")), qPrintable(tooLarge.error()));
}

void tst_BenchReplay::wizardStepsArePrefetched()
{
    // Each step's text (400 tokens at 40 tokens/s, ten times faster) is done long before Next.
    const Trace trace = parsed(lines({
        R"({"t":0,"event":"meta","name":"wizard-test"})",
        R"({"t":0,"event":"wizard_start"})",
        R"({"t":4000,"event":"wizard_field","step":1,"data":{"topic":"Prompt caching","audience":"engineers","tone":"plain","length":"short"}})",
        R"({"t":7000,"event":"wizard_next","step":2})",
        R"({"t":25000,"event":"wizard_next","step":3})",
        R"({"t":43000,"event":"wizard_next","step":4})",
        R"({"t":52000,"event":"wizard_finish"})",
        R"({"t":52000,"event":"end"})",
    }));
    const RunResult workflow = play(trace, Mode::Workflow);
    QVERIFY2(workflow.problems.isEmpty(), qPrintable(workflow.problems.join(u'\n')));
    QCOMPARE(workflow.samples.size(), 3);
    for (const Sample &s : workflow.samples)
        QVERIFY(s.prefetched());
    const Prefetch::StrategyStats stats = workflow.stats.value(Prefetch::Strategy::Workflow);
    QCOMPARE(stats.attempts, 3);
    QCOMPARE(stats.hits + stats.partialHits, 3);

    const RunResult off = play(trace, Mode::Off);
    QCOMPARE(off.samples.size(), 3);
    QCOMPARE(off.prefetchRequests, 0);
}

void tst_BenchReplay::stopLeavesNothingOpen()
{
    const Trace trace = parsed(lines({
        R"({"t":0,"event":"open_document","doc":"d1","tokens":1000,"seed":1,"language":"en"})",
        R"({"t":1000,"event":"click","action":"summarize"})",
        R"({"t":3000,"event":"stop"})",
        R"({"t":3000,"event":"hover_enter","action":"continue"})",
        R"({"t":3500,"event":"stop"})",
        R"({"t":3600,"event":"end"})",
    }));
    Replayer replayer(trace, *Preset::byName(u"hosted"), Mode::All, Speed);
    QSignalSpy finished(&replayer, &Replayer::finished);
    QVERIFY(!replayer.start());
    QVERIFY(finished.wait(10'000));
    const RunResult &r = replayer.result();
    QCOMPARE(r.samples.size(), 1);
    QVERIFY(r.samples.first().perceivedMs >= 0); // the first token came before Stop
    // The answer (400 tokens, 1 s here) was cut at 200 ms: far fewer tokens than asked for.
    QVERIFY2(r.outputTokens < 300, qPrintable(QString::number(r.outputTokens)));
    QVERIFY(r.problems.isEmpty());
}

void tst_BenchReplay::stopDropsWhatWasAboutToBeGuessed()
{
    // A document opened is guessed on once it has been read for a while (the reading dwell);
    // Stop before then, and nothing is guessed on it afterwards, as in the window.
    const auto play = [](bool stop) {
        QByteArray events = lines({
            R"({"t":0,"event":"open_document","doc":"d1","tokens":1000,"seed":1,"language":"en"})",
        });
        if (stop)
            events += lines({R"({"t":50,"event":"stop"})"});
        events += lines({R"({"t":5000,"event":"end"})"});
        Replayer replayer(parsed(events), *Preset::byName(u"hosted"), Mode::Early, Speed);
        QSignalSpy finished(&replayer, &Replayer::finished);
        if (replayer.start() || !finished.wait(10'000))
            qFatal("the replay did not run");
        return replayer.result().stats.value(Prefetch::Strategy::Reading).attempts;
    };
    QVERIFY(play(false) > 0); // the dwell passes: the reading guess runs
    QCOMPARE(play(true), 0);
}

void tst_BenchReplay::reportComparesModesAndWritesFiles()
{
    const Trace trace = parsed(HoverTrace);
    const RunResult off = play(trace, Mode::Off);
    const RunResult hover = play(trace, Mode::Hover);
    const Report report = Report::build({&off, &hover}, Speed);
    const RunFigures *offFigures = report.find(QStringLiteral("hover-test"), QStringLiteral("hosted"), Mode::Off);
    const RunFigures *hoverFigures = report.find(QStringLiteral("hover-test"), QStringLiteral("hosted"), Mode::Hover);
    QVERIFY(offFigures && hoverFigures);
    QCOMPARE(hoverFigures->p50, hover.samples.first().perceivedMs);
    QCOMPARE(hoverFigures->ratioP50, hover.samples.first().perceivedMs / off.samples.first().perceivedMs);
    QCOMPARE(hoverFigures->tokensVsOff,
             double(hover.promptTokens + hover.outputTokens) / double(off.promptTokens + off.outputTokens));

    const QJsonObject json = report.toJson();
    const QJsonArray runs = json.value(QLatin1String("runs")).toArray();
    QCOMPARE(runs.size(), 2);
    const QJsonObject hoverJson = runs.at(1).toObject();
    QCOMPARE(hoverJson.value(QLatin1String("mode")).toString(), QStringLiteral("hover"));
    QCOMPARE(hoverJson.value(QLatin1String("perceived_p50_ms")).toDouble(), hoverFigures->p50);
    QCOMPARE(hoverJson.value(QLatin1String("hit_rate")).toDouble(), 1.0);
    QCOMPARE(hoverJson.value(QLatin1String("tokens")).toObject().value(QLatin1String("prompt")).toInteger(),
             hover.promptTokens);

    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString text = written(report, dir.path());
    QVERIFY(!text.isEmpty());
    QVERIFY(text.contains(QStringLiteral("## hover-test × hosted")));
    QVERIFY(text.contains(QStringLiteral("cdf-hover-test-hosted.png")));
    QVERIFY(!text.contains(QStringLiteral("Sensitivity"))); // no sweep, no such section
    const QImage cdf(QDir(dir.path()).filePath(QStringLiteral("cdf-hover-test-hosted.png")));
    QCOMPARE(cdf.size(), QSize(960, 560));
    QVERIFY(!QImage(QDir(dir.path()).filePath(QStringLiteral("hit-cost-hosted.png"))).isNull());
    QVERIFY(QFile::exists(QDir(dir.path()).filePath(QStringLiteral("report.json"))));
    // A folder that cannot be made is an error, not a crash.
    QVERIFY(report.write(QStringLiteral("/proc/no-such-dir/report")).has_value());
}

void tst_BenchReplay::sweepPointsAreReportedSideBySide()
{
    // A held-out seed of a document kind at the 20 % point: a paragraph selected and let go of.
    const Trace trace = parsed(lines({
        R"({"t":0,"event":"meta","name":"writer-long-doc@sel20","seed":2})",
        R"({"t":0,"event":"open_document","doc":"d1","tokens":2000,"seed":3,"language":"en"})",
        R"({"t":3000,"event":"select","paragraph":1})",
        R"({"t":6000,"event":"select","paragraph":-1})",
        R"({"t":7000,"event":"end"})",
    }));
    Variant fixed;
    fixed.fixedGuesses = true;
    const RunResult off = play(trace, Mode::Off);
    const RunResult learned = play(trace, Mode::All);
    const RunResult always = play(trace, Mode::All, QStringLiteral("hosted"), fixed);
    QCOMPARE(always.stats.value(Prefetch::Strategy::Selection).attempts, 2); // the likeliest two, whatever their chance
    const Report report = Report::build({&off, &learned, &always}, Speed);
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString text = written(report, dir.path());
    QVERIFY(!text.isEmpty());
    QVERIFY(text.contains(QStringLiteral("## Sensitivity: selections that lead to an action")));
    QVERIFY2(text.contains(QStringLiteral("| 20 % | hosted | off |")), qPrintable(text.right(2000)));
    QVERIFY(text.contains(QStringLiteral("| 20 % | hosted | all |")));
    QVERIFY(text.contains(QStringLiteral("| 20 % | hosted | all, fixed guesses |")));
    QVERIFY(text.contains(QStringLiteral(" | 2 / 0 |"))); // the fixed policy's two guesses, neither used
    QCOMPARE(QImage(QDir(dir.path()).filePath(QStringLiteral("sweep-selection.png"))).size(), QSize(1100, 520));
}

void tst_BenchReplay::repeatedQuestionIsAnsweredFromTheCache()
{
    const Trace trace = parsed(askedTwice("When do I use a semicolon?", "When do I use a semicolon?"));
    const RunResult on = play(trace, Mode::Off, QStringLiteral("hosted"), withCache(CacheUse::On));
    QVERIFY2(on.problems.isEmpty(), qPrintable(on.problems.join(u'\n')));
    QCOMPARE(on.samples.size(), 2);
    QCOMPARE(on.samples.at(0).cache, CacheLevel::Miss);
    QCOMPARE(on.samples.at(1).cache, CacheLevel::Exact);
    QCOMPARE(on.samples.at(1).origin, Prefetch::AnswerReader::Origin::Cached);
    QVERIFY(!on.samples.at(1).prefetched());
    QVERIFY(on.samples.at(1).perceivedMs >= 0);
    // Nothing to wait for but the event loop (scaled by Speed, and a busy machine makes that tens of ms).
    QVERIFY2(on.samples.at(1).perceivedMs < on.samples.at(0).perceivedMs / 2,
             qPrintable(QString::number(on.samples.at(1).perceivedMs)));
    QCOMPARE(on.requests, 1); // the second answer never reached the provider
    QCOMPARE(on.cache.exactHits, 1);
    QCOMPARE(on.chatAnswers.size(), 2);
    QCOMPARE(on.chatAnswers.at(1), on.chatAnswers.at(0));

    const RunResult off = play(trace, Mode::Off, QStringLiteral("hosted"), withCache(CacheUse::Off));
    QCOMPARE(off.samples.size(), 2);
    QCOMPARE(off.samples.at(1).cache, CacheLevel::NotAsked);
    QCOMPARE(off.samples.at(1).origin, Prefetch::AnswerReader::Origin::Fresh);
    QCOMPARE(off.requests, 2);
    QCOMPARE(off.cache.exactHits, 0);
    QVERIFY(off.billing.cost() > on.billing.cost());
}

void tst_BenchReplay::documentSummarizedAgainIsAnsweredFromTheCache()
{
    // Closed and reopened unchanged: the same text, so the same request, whatever its revision.
    const Trace trace = parsed(lines({
        R"({"t":0,"event":"meta","name":"cache-doc-test"})",
        R"({"t":0,"event":"open_document","doc":"d1","tokens":2000,"seed":3,"language":"en"})",
        R"({"t":2000,"event":"click","action":"summarize"})",
        R"({"t":20000,"event":"close_document","doc":"d1"})",
        R"({"t":21000,"event":"open_document","doc":"d1","tokens":2000,"seed":3,"language":"en"})",
        R"({"t":23000,"event":"click","action":"summarize"})",
        R"({"t":40000,"event":"end"})",
    }));
    const RunResult on = play(trace, Mode::Off);
    QVERIFY2(on.problems.isEmpty(), qPrintable(on.problems.join(u'\n')));
    QCOMPARE(on.samples.size(), 2);
    QCOMPARE(on.samples.at(1).cache, CacheLevel::Exact);
    QCOMPARE(on.requests, 1);
    const RunResult off = play(trace, Mode::Off, QStringLiteral("hosted"), withCache(CacheUse::Off));
    QCOMPARE(off.requests, 2);
}

void tst_BenchReplay::restyledQuestionIsServed()
{
    // Case and the final mark only: the matcher's shingles are the same, so it is sure enough to
    // serve (similarity 1, a new entry's hit rate 1/2: confidence 0.85).
    const Trace trace = parsed(
        askedTwice("When should I use a semicolon in a list?", "when should i use a semicolon in a list"));
    const RunResult on = play(trace, Mode::Off);
    QCOMPARE(on.samples.size(), 2);
    QCOMPARE(on.samples.at(1).cache, CacheLevel::NearServed);
    QCOMPARE(on.samples.at(1).origin, Prefetch::AnswerReader::Origin::Cached);
    QCOMPARE(on.requests, 1);
    QCOMPARE(on.cache.nearServed, 1);
    // With the near-duplicate switch off it is only a miss, sent.
    const RunResult exact = play(trace, Mode::Off, QStringLiteral("hosted"), withCache(CacheUse::ExactOnly));
    QCOMPARE(exact.samples.at(1).cache, CacheLevel::Miss);
    QCOMPARE(exact.requests, 2);
}

void tst_BenchReplay::rewordedQuestionIsDraftedWhileTheLiveAnswerComes()
{
    // One word in place of two (Jaccard ~0.7 over words and word pairs): near enough for a draft,
    // not to serve. The draft is on screen at once; the live answer is sent and settles it.
    const Trace trace = parsed(askedTwice("How do I write a good cover letter for a job?",
                                          "How do I write a good cover letter for an internship?"));
    const RunResult on = play(trace, Mode::Off);
    QVERIFY2(on.problems.isEmpty(), qPrintable(on.problems.join(u'\n')));
    QCOMPARE(on.samples.size(), 2);
    const Sample &again = on.samples.at(1);
    QCOMPARE(again.cache, CacheLevel::NearDraft);
    QCOMPARE(again.origin, Prefetch::AnswerReader::Origin::Fresh);
    QVERIFY(again.draftMs >= 0);
    QVERIFY2(again.perceivedMs > again.draftMs,
             qPrintable(QStringLiteral("%1 %2").arg(again.perceivedMs).arg(again.draftMs)));
    QCOMPARE(on.requests, 2);
    QCOMPARE(on.cache.nearDrafts, 1);
    QCOMPARE(on.cache.draftsReplaced, again.draftReplaced ? 1 : 0);
    // Settled against the live answer: replaced exactly when the two answers are not near.
    const bool near = Prefetch::MinHash::similarity(Prefetch::MinHash::signature(on.chatAnswers.at(0)),
                                                    Prefetch::MinHash::signature(on.chatAnswers.at(1)))
                      >= Prefetch::ResponseCache::Serve;
    QCOMPARE(again.draftReplaced, !near);
}

QTEST_MAIN(tst_BenchReplay)

#include "tst_benchreplay.moc"
