// The behaviour a sensitivity sweep varies (Bench::TraceKnobs, issue 40): the default knobs leave
// every trace as it was, byte for byte; stray selections make the share of a document user's
// selections that lead to an action what was asked, each stray one copied, typed over or deleted,
// and a user who never acts on a selection runs no Rewrite or Explain but selects all the same.
#include "bench/replay/trace.h"
#include "bench/replay/tracegen.h"

#include <QJsonArray>
#include <QTest>

#include <cmath>

using namespace Bench;

namespace {

const QStringList DocumentKinds = documentKinds();

// What one trace's selections led to.
struct Selections {
    int made = 0;             // "select" lines with a paragraph
    int acted = 0;            // of which an action was clicked on before the selection went
    int copied = 0;           // ... Ctrl alone went down while it stood (Ctrl+C)
    int replaced = 0;         // ... the document was edited right after it went (typed over, deleted)
    int selectionActions = 0; // rewrite and explain clicks
    QString error;
};

Selections countSelections(const Trace &trace)
{
    Selections r;
    bool standing = false; // a selection is there
    bool actedOn = false;
    bool sawCtrl = false;     // Ctrl alone went down while it stood
    bool justCleared = false; // the last line but the pointer's cleared a selection no action was run on
    for (const TraceEvent &e : trace.events) {
        if (e.event == QLatin1String("select") || e.event == QLatin1String("selecting")) {
            const bool wasStray = standing && !actedOn;
            if (wasStray && sawCtrl)
                ++r.copied;
            standing = e.event == QLatin1String("select") && e.fields.value(QStringLiteral("paragraph")).toInt(-1) >= 0;
            justCleared = wasStray && !standing && !sawCtrl;
            actedOn = sawCtrl = false;
            r.made += standing ? 1 : 0;
            continue;
        }
        if (e.event == QLatin1String("click")) {
            const QString action = e.fields.value(QStringLiteral("action")).toString();
            if (action == QLatin1String("rewrite") || action == QLatin1String("explain")) {
                ++r.selectionActions;
                if (!standing && r.error.isEmpty())
                    r.error = QStringLiteral("line %1: %2 with no selection").arg(e.line).arg(action);
            }
            if (standing && !actedOn) {
                ++r.acted;
                actedOn = true;
            }
        } else if (e.event == QLatin1String("modifiers") && standing
                   && e.fields.value(QStringLiteral("keys")).toArray() == QJsonArray{QStringLiteral("ctrl")}) {
            sawCtrl = true;
        } else if (e.event == QLatin1String("edit_document") && justCleared) {
            ++r.replaced;
        }
        if (e.event != QLatin1String("pointer"))
            justCleared = false;
    }
    return r;
}

} // namespace

class tst_TraceSweep : public QObject
{
    Q_OBJECT

private slots:
    void defaultKnobsChangeNoByte();
    void selectionsLeadToAnActionAsOftenAsAsked_data();
    void selectionsLeadToAnActionAsOftenAsAsked();
    void aUserWhoNeverActsOnASelectionStillSelects();
    void suffixNamesTheSweepPoint();
};

void tst_TraceSweep::defaultKnobsChangeNoByte()
{
    for (const QString &kind : traceKinds()) {
        for (quint64 seed : {quint64(1), quint64(4)}) {
            const auto plain = generateTrace(kind, seed);
            const auto knobbed = generateTrace(kind, seed, TraceKnobs{1.0});
            QVERIFY(plain && knobbed);
            QCOMPARE(*knobbed, *plain);
        }
    }
    // Chat makes no selections: the knob changes nothing there either.
    QCOMPARE(*generateTrace(QStringLiteral("chat-session"), 3, TraceKnobs{0.2}),
             *generateTrace(QStringLiteral("chat-session"), 3));
}

void tst_TraceSweep::selectionsLeadToAnActionAsOftenAsAsked_data()
{
    QTest::addColumn<QString>("kind");
    QTest::addColumn<double>("share");
    for (const QString &kind : DocumentKinds) {
        for (double share : {0.5, 0.2})
            QTest::addRow("%s@%d", qPrintable(kind), int(share * 100)) << kind << share;
    }
}

void tst_TraceSweep::selectionsLeadToAnActionAsOftenAsAsked()
{
    QFETCH(QString, kind);
    QFETCH(double, share);
    Selections all;
    for (quint64 seed = 1; seed <= 8; ++seed) {
        const auto trace = generatedTrace(kind, seed, TraceKnobs{share});
        QVERIFY2(trace, qPrintable(trace.error()));
        const Selections s = countSelections(*trace);
        QVERIFY2(s.error.isEmpty(), qPrintable(s.error));
        all.made += s.made;
        all.acted += s.acted;
        all.copied += s.copied;
        all.replaced += s.replaced;
    }
    QVERIFY(all.made > 0);
    const double measured = double(all.acted) / all.made;
    // ~40 selections acted on over eight seeds: a binomial spread of a few points either way.
    QVERIFY2(std::abs(measured - share) < 0.12,
             qPrintable(QStringLiteral("%1 of %2 selections acted on").arg(all.acted).arg(all.made)));
    // The strays are copied or replaced (typed over, deleted), about half and half.
    const int strays = all.made - all.acted;
    QVERIFY2(all.copied + all.replaced == strays,
             qPrintable(
                 QStringLiteral("%1 copied + %2 replaced, %3 strays").arg(all.copied).arg(all.replaced).arg(strays)));
    QVERIFY(all.copied > strays / 4 && all.replaced > strays / 4);
}

void tst_TraceSweep::aUserWhoNeverActsOnASelectionStillSelects()
{
    for (const QString &kind : DocumentKinds) {
        int made = 0;
        for (quint64 seed = 1; seed <= 5; ++seed) {
            const auto trace = generatedTrace(kind, seed, TraceKnobs{0.0});
            QVERIFY2(trace, qPrintable(trace.error()));
            QCOMPARE(trace->meta.value(QStringLiteral("name")).toString(), kind + QStringLiteral("@sel0"));
            const Selections s = countSelections(*trace);
            QCOMPARE(s.selectionActions, 0);
            QCOMPARE(s.acted, 0);
            made += s.made;
        }
        // About 1.5 per action, 6 to 18 actions a trace.
        QVERIFY2(made >= 5 * 6, qPrintable(QStringLiteral("%1: %2 selections").arg(kind).arg(made)));
    }
}

void tst_TraceSweep::suffixNamesTheSweepPoint()
{
    QCOMPARE(documentKinds(), (QStringList{QStringLiteral("writer-long-doc"), QStringLiteral("hesitant-user"),
                                           QStringLiteral("decisive-writer"), QStringLiteral("keyboard-user")}));
    QCOMPARE(TraceKnobs{}.suffix(), QString());
    QCOMPARE(TraceKnobs{0.2}.suffix(), QStringLiteral("@sel20"));
    QCOMPARE(TraceKnobs{0.0}.suffix(), QStringLiteral("@sel0"));
    // And back: the report pools each sweep point by it.
    const auto [kind, knobs] = TraceKnobs::split(QStringLiteral("writer-long-doc@sel20"));
    QCOMPARE(kind, QStringLiteral("writer-long-doc"));
    QCOMPARE(knobs.selectionAction, 0.2);
    QCOMPARE(TraceKnobs::split(QStringLiteral("chat-session")).first, QStringLiteral("chat-session"));
    QVERIFY(TraceKnobs::split(QStringLiteral("chat-session")).second.isDefault());
}

QTEST_GUILESS_MAIN(tst_TraceSweep)
#include "tst_tracesweep.moc"
