// The earlier signals: the user's habits (a prior, learning with decay, kept in the settings),
// the pointer-trajectory predictor beside ForesightJS's linear model on minimum-jerk movements,
// and the speculator's guesses against the real local provider: short prefixes for the likeliest
// actions of a finished selection, a document just opened, keyboard focus and held modifiers and
// a predicted pointer target; a context change cancels them; a click takes one over and the
// answer is the whole answer, the same as a fresh one.
#include "support/localproviderfixture.h"

#include "prefetch/engine.h"
#include "prefetch/prefetchsession.h"
#include "prefetch/prompts/actionprompts.h"
#include "prefetch/strategies/habits.h"
#include "prefetch/strategies/hoverstrategy.h"
#include "prefetch/strategies/speculator.h"
#include "prefetch/strategies/trajectory.h"
#include "prefetch/strategies/warmupstrategy.h"
#include "prefetch/stream/answerreader.h"

#include "llm/clock.h"

#include <QNetworkAccessManager>
#include <QSettings>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>
#include <limits>
#include <memory>

using namespace Prefetch;
using A = DocumentAction;

namespace {

// A minimum-jerk movement (Flash & Hogan 1985) from `from` to `to` in `durationMs`, sampled at
// 60 Hz from `startNs`: what the predictor sees of an aimed pointer movement. The first sample is
// where the pointer rested before (the window system reports no motion while it rests).
QList<std::pair<QPointF, qint64>> minimumJerk(QPointF from, QPointF to, double durationMs, qint64 startNs)
{
    QList<std::pair<QPointF, qint64>> out{{from, startNs - 500'000'000}};
    for (double t = 16.667; t <= durationMs + 1e-9; t += 16.667) {
        const double tau = std::min(1.0, t / durationMs);
        const double s = tau * tau * tau * (10 - 15 * tau + 6 * tau * tau);
        out.append({from + (to - from) * s, startNs + qint64(t * 1e6)});
    }
    return out;
}

// Five buttons in a row, as the action panel lays them out.
QList<TrajectoryPredictor::Target> toolbar()
{
    QList<TrajectoryPredictor::Target> out;
    for (int i = 0; i < 5; ++i)
        out.append({i, QRectF(500 + i * 110, 40, 100, 26)});
    return out;
}

// When the predictor first names `target` and keeps naming it to the end of the movement: ms
// before the arrival; -1 if never.
double leadMs(TrajectoryPredictor &predictor, const QList<std::pair<QPointF, qint64>> &movement, int target)
{
    qint64 since = -1;
    for (const auto &[position, ns] : movement) {
        predictor.addSample(position, ns);
        const auto p = predictor.predict();
        if (p && p->target == target) {
            if (since < 0)
                since = ns;
        } else if (predictor.targetAt(position) != target) {
            since = -1; // it let go of the target again
        }
    }
    return since < 0 ? -1 : double(movement.constLast().second - since) / 1e6;
}

} // namespace

class tst_Speculation : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void init();
    void cleanup();

    void habitsStartFromAPriorAndLearn();
    void habitsDecayAndPersist();
    void kinematicPredictionLeadsLinear_data();
    void kinematicPredictionLeadsLinear();
    void movementEndingElsewherePredictsNoButton();

    void finishedSelectionGuessesTheLikeliestShortPrefixes();
    void lettingGoOfTheSelectionGuessesWithoutTheSettle();
    void openedDocumentGuessesSummaryAndContinuation();
    void keyboardFocusAndModifiersGuess();
    void predictedPointerTargetIsGuessedBeforeTheHover();
    void headingsThatEndElsewhereStopThePointersGuess();
    void contextChangeCancelsEveryGuess();
    void newSelectionCancelsOnlyTheGuessesItChanges();
    void clickTakesTheGuessOverAndGetsTheWholeAnswer();
    void clickWhileTheGuessStreamsNeedsNoContinuation();
    void activationTeachesTheHabits();
    void stopCancelsWhatWasAboutToBeGuessed();
    void guessWaitsForTheWarmupAndReadsThePromptCached();

private:
    Speculator::ActionBuilder builder(const QString &selection) const;

    TestSupport::LocalProviderFixture m_local;
    QNetworkAccessManager m_network;
    std::unique_ptr<Prefetch::Stack> m_stack;
    CompiledPrompt m_document;
};

void tst_Speculation::initTestCase()
{
    QVERIFY2(m_local.start(), qPrintable(m_local.errorString()));
}

void tst_Speculation::init()
{
    QVERIFY(m_local.waitForNoOpenStream(2000));
    m_stack = m_local.makeStack(&m_network);
    const auto compiled =
        documentTemplate().compile(m_stack->engine()->profile(),
                                   documentValues(QStringLiteral(
                                       "Speculation starts answers before the user asks. A short prefix costs little "
                                       "when the guess is wrong, because the provider stops within a few tokens once "
                                       "the connection closes and bills only what it generated, so a wrong guess is "
                                       "cheap and a right one is already streaming. The continuation fetches the rest "
                                       "at the click.")));
    QVERIFY(compiled);
    m_document = *compiled;
}

void tst_Speculation::cleanup()
{
    m_stack.reset();
}

Speculator::ActionBuilder tst_Speculation::builder(const QString &selection) const
{
    const CompiledPrompt document = m_document;
    return [document, selection](DocumentAction action) {
        return renderAction(document, action,
                            actionNeedsSelection(action) || action == A::Translate ? selection : QString())
            .value_or(RenderedRequest());
    };
}

// --- habits ---------------------------------------------------------------------------------

void tst_Speculation::habitsStartFromAPriorAndLearn()
{
    Habits habits;
    const QList<A> opened{A::Summarize, A::ContinueWriting, A::Translate};
    auto rank = habits.rank(Habits::opened(), opened);
    QCOMPARE(rank.first().first, A::Summarize); // what a new user does
    double sum = 0;
    for (const auto &entry : rank)
        sum += entry.second;
    QVERIFY(std::abs(sum - 1.0) < 1e-9);
    for (int i = 0; i < 3; ++i)
        habits.record(Habits::opened(), A::ContinueWriting);
    rank = habits.rank(Habits::opened(), opened);
    QCOMPARE(rank.first().first, A::ContinueWriting); // three of their own outweigh the prior
    QVERIFY(rank.first().second > 0.6);
    // Contexts are apart: the selection context learnt nothing.
    QCOMPARE(habits.rank(Habits::selection(), QList<A>{A::RewriteSelection, A::ExplainSelection}).first().first,
             A::RewriteSelection);
    QCOMPARE(habits.count(Habits::after(A::Summarize), A::ContinueWriting), 0.0);
}

void tst_Speculation::habitsDecayAndPersist()
{
    Habits habits;
    habits.record(Habits::after(A::Summarize), A::Translate);
    for (int i = 0; i < 10; ++i)
        habits.record(Habits::after(A::Summarize), A::RewriteSelection);
    // Ten newer observations: the old one weighs 0.9^10 of what it did.
    QVERIFY(std::abs(habits.count(Habits::after(A::Summarize), A::Translate) - std::pow(Habits::Decay, 10)) < 1e-9);

    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString file = dir.filePath(QStringLiteral("habits.ini"));
    {
        QSettings settings(file, QSettings::IniFormat);
        habits.save(settings);
        settings.setValue(QStringLiteral("habits/opened/summarize"), QStringLiteral("not a number"));
        settings.setValue(QStringLiteral("habits/opened/continue"), -4);
        settings.sync();
    }
    QSettings settings(file, QSettings::IniFormat);
    Habits loaded;
    QCOMPARE(loaded.load(settings), 2); // the two damaged values, for the log
    QCOMPARE(loaded.count(Habits::after(A::Summarize), A::RewriteSelection),
             habits.count(Habits::after(A::Summarize), A::RewriteSelection));
    QCOMPARE(loaded.count(Habits::after(A::Summarize), A::Translate),
             habits.count(Habits::after(A::Summarize), A::Translate));
    QCOMPARE(loaded.count(Habits::opened(), A::Summarize), 0.0); // damaged values are dropped
    QCOMPARE(loaded.count(Habits::opened(), A::ContinueWriting), 0.0);
}

// --- the trajectory predictor ---------------------------------------------------------------

void tst_Speculation::kinematicPredictionLeadsLinear_data()
{
    QTest::addColumn<QPointF>("from");
    QTest::addColumn<int>("target");
    QTest::addColumn<double>("durationMs");
    // Durations as Fitts's law gives them at ~4.5 bits/s (a + b·log2(D/W + 1), b ≈ 0.22 s/bit).
    QTest::addRow("from the text, far") << QPointF(200, 520) << 3 << 1000.0;
    QTest::addRow("from the text, near") << QPointF(560, 260) << 0 << 700.0;
    QTest::addRow("along the toolbar") << QPointF(560, 53) << 4 << 800.0;
}

void tst_Speculation::kinematicPredictionLeadsLinear()
{
    QFETCH(QPointF, from);
    QFETCH(int, target);
    QFETCH(double, durationMs);
    const QRectF rect = toolbar().at(target).rect;
    const auto movement = minimumJerk(from, rect.center() + QPointF(7, -3), durationMs, 1'000'000'000);
    TrajectoryPredictor kinematic(TrajectoryPredictor::Model::Kinematic);
    TrajectoryPredictor linear(TrajectoryPredictor::Model::Linear);
    kinematic.setTargets(toolbar());
    linear.setTargets(toolbar());
    const double ours = leadMs(kinematic, movement, target);
    const double foresight = leadMs(linear, movement, target);
    qInfo("%s: kinematic %.0f ms before arrival, linear (ForesightJS) %.0f ms", QTest::currentDataTag(), ours,
          foresight);
    QVERIFY(ours > 0);
    // ForesightJS looks 120 ms ahead; ours names the target from the movement's first half.
    QVERIFY2(ours >= durationMs * 0.4, qPrintable(QString::number(ours)));
    QVERIFY2(ours > foresight + 150, qPrintable(QStringLiteral("%1 vs %2").arg(ours).arg(foresight)));
}

void tst_Speculation::movementEndingElsewherePredictsNoButton()
{
    // Back to the text from the toolbar: no button is on the way or at the end.
    TrajectoryPredictor kinematic;
    kinematic.setTargets(toolbar());
    for (const auto &[position, ns] : minimumJerk(QPointF(720, 53), QPointF(300, 500), 900, 0)) {
        kinematic.addSample(position, ns);
        const auto p = kinematic.predict();
        QVERIFY2(!p, qPrintable(QStringLiteral("predicted button %1 at %2,%3")
                                    .arg(p ? p->target : -1)
                                    .arg(position.x())
                                    .arg(position.y())));
    }
}

// --- the speculator -------------------------------------------------------------------------

void tst_Speculation::finishedSelectionGuessesTheLikeliestShortPrefixes()
{
    // A provider's pace (100 tokens/s), so that a closed connection stops it mid-answer. The
    // two likeliest are guessed whatever their chance: this is about what a guess asks and keeps
    // (whether it pays is tst_signallearning's).
    Settings settings;
    settings.speculation.wasteShare = std::numeric_limits<double>::infinity();
    m_stack = m_local.makeStack(&m_network, "decode=100", settings);
    const auto before = m_local.stats();
    // Long enough that a rewrite of it (the demo engine's: the passage's own words) passes the prefix.
    m_stack->speculator()->setContext(
        builder(QStringLiteral("A short prefix costs little when the guess is wrong, because the provider stops within "
                               "a few tokens once the connection closes and bills only what it generated, so a wrong "
                               "guess is cheap and a right one is already streaming.")),
        true);
    QSignalSpy guessed(m_stack->speculator(), &Speculator::guessed);
    m_stack->speculator()->selectionChanged(true);
    QVERIFY(m_stack->speculator()->guesses(Strategy::Selection).isEmpty()); // not before it settles
    QTRY_COMPARE_WITH_TIMEOUT(guessed.count(), 2, 3000);
    QCOMPARE(m_stack->speculator()->guesses(Strategy::Selection), (QList<A>{A::RewriteSelection, A::ExplainSelection}));
    QTRY_COMPARE_WITH_TIMEOUT(m_local.stats().prefetchRequests, before.prefetchRequests + 2, 3000);
    // Each asked for the buffer's worth (what bounds its cost at the provider) and kept its short
    // prefix: the connection closed there, and the provider stopped within a few tokens.
    for (PrefetchSession *s : m_stack->engine()->liveSessions())
        QTRY_COMPARE_WITH_TIMEOUT(s->state(), PrefetchSession::State::Complete, 5000);
    QVERIFY(m_local.waitForNoOpenStream(5000));
    const qint64 generated = m_local.stats().tokensGenerated - before.tokensGenerated;
    const int keep = m_stack->engine()->settings().speculation.prefixTokens;
    QVERIFY2(generated >= 2 * keep && generated <= 2 * (keep + 8), qPrintable(QString::number(generated)));
    for (PrefetchSession *s : m_stack->engine()->liveSessions())
        QCOMPARE(s->bufferedTokens(), keep);
    for (PrefetchSession *s : m_stack->engine()->liveSessions()) {
        QCOMPARE(s->strategy(), Strategy::Selection);
        QVERIFY(s->isPrefix() || s->state() == PrefetchSession::State::Complete);
    }
    QCOMPARE(m_stack->engine()->metrics().stats(Strategy::Selection).attempts, 2);
}

void tst_Speculation::lettingGoOfTheSelectionGuessesWithoutTheSettle()
{
    // A settle no test waits for: only the release can make the guess.
    Settings settings;
    settings.selection.settle = std::chrono::minutes(10);
    settings.speculation.wasteShare = std::numeric_limits<double>::infinity(); // the two likeliest
    m_stack = m_local.makeStack(&m_network, {}, settings);
    m_stack->speculator()->setContext(builder(QStringLiteral("The passage the user selected.")), true);

    m_stack->speculator()->selectionFinished(); // nothing selected since: nothing to guess
    QCOMPARE(m_stack->engine()->metrics().stats(Strategy::Selection).attempts, 0);

    m_stack->speculator()->selectionChanged(true); // the drag goes on, or Shift is still down
    QVERIFY(m_stack->speculator()->guesses(Strategy::Selection).isEmpty());
    m_stack->speculator()->selectionFinished(); // the button or Shift comes up: guessed at once
    QCOMPARE(m_stack->speculator()->guesses(Strategy::Selection), (QList<A>{A::RewriteSelection, A::ExplainSelection}));
    QCOMPARE(m_stack->engine()->metrics().stats(Strategy::Selection).attempts, 2);

    m_stack->speculator()->selectionFinished(); // Shift again, with the same selection: nothing new
    QCOMPARE(m_stack->engine()->metrics().stats(Strategy::Selection).attempts, 2);

    // A selection cleared before the release: nothing to guess on.
    m_stack->speculator()->setContext(builder({}), false);
    m_stack->speculator()->selectionChanged(false);
    m_stack->speculator()->selectionFinished();
    QVERIFY(m_stack->speculator()->guesses(Strategy::Selection).isEmpty());
    QCOMPARE(m_stack->engine()->metrics().stats(Strategy::Selection).attempts, 2);
}

void tst_Speculation::openedDocumentGuessesSummaryAndContinuation()
{
    m_stack->speculator()->setContext(builder({}), false);
    m_stack->speculator()->documentOpened();
    QTRY_COMPARE_WITH_TIMEOUT(m_stack->speculator()->guesses(Strategy::Reading),
                              (QList<A>{A::Summarize, A::ContinueWriting}), 3000);
    QCOMPARE(m_stack->engine()->metrics().stats(Strategy::Reading).attempts, 2);
}

void tst_Speculation::keyboardFocusAndModifiersGuess()
{
    m_stack->speculator()->setContext(builder(QStringLiteral("The continuation fetches the rest")), true);
    m_stack->speculator()->focusEntered(A::Translate);
    QCOMPARE(m_stack->speculator()->guesses(Strategy::Keyboard), QList<A>{A::Translate});
    m_stack->speculator()->focusLeft();
    QVERIFY(m_stack->speculator()->guesses(Strategy::Keyboard).isEmpty());
    // Ctrl+Alt held with a selection: the likeliest actions on it.
    m_stack->speculator()->modifiersChanged(true);
    QCOMPARE(m_stack->speculator()->guesses(Strategy::Keyboard), (QList<A>{A::RewriteSelection, A::ExplainSelection}));
    QCOMPARE(m_stack->engine()->metrics().stats(Strategy::Keyboard).attempts, 3);
}

void tst_Speculation::predictedPointerTargetIsGuessedBeforeTheHover()
{
    m_stack->speculator()->setContext(builder({}), false);
    QHash<A, QRectF> buttons;
    for (const auto &t : toolbar())
        buttons.insert(A(t.id), t.rect);
    m_stack->speculator()->setTargets(buttons);
    const auto movement = minimumJerk(QPointF(250, 500), buttons.value(A::Summarize).center(), 900,
                                      Llm::monotonicNowNs());
    qint64 guessedAt = -1;
    for (const auto &[position, ns] : movement) {
        m_stack->speculator()->pointerMoved(position, ns);
        if (guessedAt < 0 && m_stack->speculator()->guesses(Strategy::Trajectory).contains(A::Summarize))
            guessedAt = ns;
    }
    QVERIFY(guessedAt > 0);
    QVERIFY2(movement.constLast().second - guessedAt > 300'000'000,
             qPrintable(QString::number(double(movement.constLast().second - guessedAt) / 1e6)));
    // Resting on it, the hover takes the same guess over instead of asking again.
    const auto before = m_local.stats();
    HoverStrategy &hover = *m_stack->hover();
    hover.pressed(A::Summarize, [b = builder({})] { return b(A::Summarize); });
    QVERIFY(hover.isPrefetching(A::Summarize));
    QCOMPARE(m_stack->engine()->liveSessions().size(), 1);
    QVERIFY(m_local.settle(&m_network, 0, 5000));
    // Whether the guess's prefix was already asked for decides if the rest is its continuation
    // or the same request grown: at most one more request, and nothing generated twice.
    const auto after = m_local.stats();
    QVERIFY(after.requestsServed <= before.requestsServed + 1);
    QVERIFY2(after.tokensGenerated - before.tokensGenerated <= m_stack->engine()->settings().bufferTokens,
             qPrintable(QString::number(after.tokensGenerated - before.tokensGenerated)));
    QCOMPARE(m_stack->engine()->metrics().stats(Strategy::Hover).attempts, 0); // one request, counted once
}

// The pointer heads for a button and the user clicks elsewhere, again and again (passing the
// toolbar on the way to the text, a trackpad's drift): each heading teaches the habits that
// nothing followed it, and soon a heading is no longer guessed on; heading for it and clicking
// brings the guess back (issue 40).
void tst_Speculation::headingsThatEndElsewhereStopThePointersGuess()
{
    // A long document (~12k tokens, a writer's): a wrong guess costs a good part of an answer
    // there, so a heading must be fairly likely to end in a click to be worth guessing on. (On
    // a short one a wrong guess is so cheap against the answer's 400 tokens that it always pays.)
    const auto longDocument = documentTemplate().compile(
        m_stack->engine()->profile(),
        documentValues(QStringLiteral("A pointer that passes the toolbar on its way to the text is not a request. ")
                           .repeated(600)));
    QVERIFY(longDocument);
    m_stack->speculator()->setContext(
        [document = *longDocument](DocumentAction action) {
            return renderAction(document, action, QString()).value_or(RenderedRequest());
        },
        false);
    QHash<A, QRectF> buttons;
    for (const auto &t : toolbar())
        buttons.insert(A(t.id), t.rect);
    m_stack->speculator()->setTargets(buttons);
    qint64 ns = Llm::monotonicNowNs();
    // A movement to `action`'s button; whether the trajectory guessed it on the way.
    const auto headFor = [&](A action) {
        bool guessed = false;
        for (const auto &[position, at] : minimumJerk(QPointF(250, 500), buttons.value(action).center(), 900, ns)) {
            m_stack->speculator()->pointerMoved(position, at);
            guessed = guessed || m_stack->speculator()->guesses(Strategy::Trajectory).contains(action);
        }
        m_stack->speculator()->pointerLeft(); // away to the text, where the click is
        ns += 2'000'000'000;
        return guessed;
    };
    const Habits::Context summarize = Habits::pointer(A::Summarize);
    const Habits::Context continuing = Habits::pointer(A::ContinueWriting);
    QVERIFY(headFor(A::Summarize)); // a new user's heading is guessed on
    // The next heading, for another button, ends the first with nothing.
    QVERIFY(headFor(A::ContinueWriting));
    QCOMPARE(m_stack->speculator()->habits().nothingCount(summarize), 1.0);
    int headings = 2;
    bool stillGuessed = true;
    while (stillGuessed && headings < 30) {
        stillGuessed = headFor(headings % 2 == 0 ? A::Summarize : A::ContinueWriting);
        ++headings;
    }
    QVERIFY2(!stillGuessed, qPrintable(QString::number(headings)));
    qInfo("guessed on for %d headings that ended elsewhere", headings - 1);
    QVERIFY(m_stack->speculator()->habits().nothingCount(continuing) > 1.0);
    // Heading for Summarize and clicking it, a few times: it is guessed again.
    int clicks = 0;
    while (!headFor(A::Summarize) && clicks < 10) {
        m_stack->speculator()->activated(A::Summarize);
        ++clicks;
    }
    QVERIFY2(clicks >= 1 && clicks < 10, qPrintable(QString::number(clicks)));
    qInfo("guessed on again after %d clicks", clicks);
    QVERIFY(m_stack->speculator()->habits().count(summarize, A::Summarize) > 0);
}

void tst_Speculation::contextChangeCancelsEveryGuess()
{
    m_stack->speculator()->setContext(builder(QStringLiteral("A short prefix")), true);
    m_stack->speculator()->focusEntered(A::Summarize);
    m_stack->speculator()->documentOpened();
    QTRY_COMPARE_WITH_TIMEOUT(m_stack->speculator()->guesses(Strategy::Reading).size(), 2, 3000);
    QCOMPARE(m_stack->engine()->liveSessions().size(), 2); // Summarize guessed twice is one session
    // The user typed: the document is another one now.
    const auto edited = documentTemplate().compile(m_stack->engine()->profile(),
                                                   documentValues(QStringLiteral("Edited.")));
    QVERIFY(edited);
    m_stack->speculator()->setContext(
        [document = *edited](DocumentAction action) {
            return renderAction(document, action, QString()).value_or(RenderedRequest());
        },
        false);
    m_stack->speculator()->contextChanged();
    QVERIFY(m_stack->engine()->liveSessions().isEmpty());
    QVERIFY(m_stack->speculator()->guesses(Strategy::Keyboard).isEmpty());
    QVERIFY(m_stack->speculator()->guesses(Strategy::Reading).isEmpty());
    QCOMPARE(m_stack->engine()->metrics().stats(Strategy::Keyboard).cancelled
                 + m_stack->engine()->metrics().stats(Strategy::Reading).cancelled,
             2);
    QVERIFY(m_local.waitForNoOpenStream(2000)); // the provider sees them closed
}

void tst_Speculation::newSelectionCancelsOnlyTheGuessesItChanges()
{
    m_stack->speculator()->setContext(builder(QStringLiteral("A short prefix")), true);
    m_stack->speculator()->documentOpened();
    m_stack->speculator()->focusEntered(A::RewriteSelection);
    QTRY_VERIFY_WITH_TIMEOUT(m_stack->speculator()->guesses(Strategy::Reading).contains(A::Summarize), 3000);
    QCOMPARE(m_stack->speculator()->guesses(Strategy::Keyboard), QList<A>{A::RewriteSelection});
    // Another selection: the rewrite of the old one is void, the summary of the document is not.
    m_stack->speculator()->setContext(builder(QStringLiteral("The continuation")), true);
    m_stack->speculator()->contextChanged();
    QVERIFY(m_stack->speculator()->guesses(Strategy::Keyboard).isEmpty());
    QVERIFY(m_stack->speculator()->guesses(Strategy::Reading).contains(A::Summarize));
    QCOMPARE(m_stack->engine()->metrics().stats(Strategy::Keyboard).cancelled, 1);
    QCOMPARE(m_stack->engine()->metrics().stats(Strategy::Reading).cancelled, 0);
}

void tst_Speculation::clickTakesTheGuessOverAndGetsTheWholeAnswer()
{
    m_stack->speculator()->setContext(builder({}), false);
    m_stack->speculator()->documentOpened();
    QTRY_VERIFY_WITH_TIMEOUT(m_stack->speculator()->guesses(Strategy::Reading).contains(A::Summarize), 3000);
    PrefetchSession *guess = m_stack->engine()->liveSessions().first();
    QTRY_VERIFY_WITH_TIMEOUT(guess->isPrefix(), 5000); // the prefix is in; the rest waits
    const RenderedRequest asked = builder({})(A::Summarize);
    HoverStrategy &hover = *m_stack->hover();
    AnswerReader *answer = hover.activate(
        A::Summarize, [asked] { return asked; }, Llm::monotonicNowNs(), this);
    QVERIFY(answer->isPrefetched());
    const QString text = TestSupport::drain(answer);
    QCOMPARE(text, TestSupport::freshText(&m_network, m_stack->engine()->profile(), asked));
    QVERIFY(answer->answer()->parts() >= 2); // the prefix and its continuation
    QCOMPARE(m_stack->engine()->metrics().stats(Strategy::Reading).hits, 1);
}

// The click comes while the guess is still on its way (its short prefix not yet in): it asked
// for the buffer's worth, so it streams on as one part, with no continuation's first token to
// wait for at the end of the prefix.
void tst_Speculation::clickWhileTheGuessStreamsNeedsNoContinuation()
{
    Settings settings;
    settings.bufferTokens = 4096; // the whole answer in the first part, to count the parts
    m_stack = m_local.makeStack(&m_network, "rtt=100,decode=40", settings); // 32 tokens take 0.8 s
    const auto before = m_local.stats();
    m_stack->speculator()->setContext(builder({}), false);
    m_stack->speculator()->documentOpened();
    QTRY_VERIFY_WITH_TIMEOUT(m_stack->speculator()->guesses(Strategy::Reading).contains(A::Summarize), 3000);
    PrefetchSession *guess = nullptr;
    for (PrefetchSession *s : m_stack->engine()->liveSessions()) {
        if (s->fingerprint() == builder({})(A::Summarize).fingerprint)
            guess = s;
    }
    QVERIFY(guess);
    QTRY_VERIFY_WITH_TIMEOUT(guess->bufferedTokens() > 0, 5000);
    QVERIFY(guess->bufferedTokens() < m_stack->engine()->settings().speculation.prefixTokens);
    const RenderedRequest asked = builder({})(A::Summarize);
    HoverStrategy &hover = *m_stack->hover();
    AnswerReader *answer = hover.activate(
        A::Summarize, [asked] { return asked; }, Llm::monotonicNowNs(), this);
    QVERIFY(answer->isPrefetched());
    const QString text = TestSupport::drain(answer);
    QCOMPARE(answer->answer()->parts(), 1);
    QCOMPARE(text, TestSupport::freshText(&m_network, m_stack->engine()->profile(), asked));
    // The guesses only: no continuation was asked for.
    QCOMPARE(m_local.stats().prefetchRequests - before.prefetchRequests,
             qint64(m_stack->engine()->metrics().stats(Strategy::Reading).attempts));
}

void tst_Speculation::activationTeachesTheHabits()
{
    QSignalSpy changed(m_stack->speculator(), &Speculator::habitsChanged);
    m_stack->speculator()->setContext(builder(QStringLiteral("A short prefix")), true);
    m_stack->speculator()->documentOpened();
    m_stack->speculator()->selectionChanged(true);
    m_stack->speculator()->activated(A::ExplainSelection);
    QCOMPARE(changed.count(), 1);
    QCOMPARE(m_stack->speculator()->habits().count(Habits::opened(), A::ExplainSelection), 1.0);
    QCOMPARE(m_stack->speculator()->habits().count(Habits::selection(), A::ExplainSelection), 1.0);
    m_stack->speculator()->answerEnded(A::ExplainSelection);
    m_stack->speculator()->activated(A::Translate);
    QCOMPARE(m_stack->speculator()->habits().count(Habits::after(A::ExplainSelection), A::Translate), 1.0);
    QCOMPARE(m_stack->speculator()->habits().count(Habits::opened(), A::Translate), 0.0); // no longer just opened
    // What follows an answer is guessed once the habit is strong enough.
    for (int i = 0; i < 4; ++i)
        m_stack->speculator()->habits().record(Habits::after(A::Summarize), A::Translate);
    m_stack->speculator()->answerEnded(A::Summarize);
    QCOMPARE(m_stack->speculator()->guesses(Strategy::Habits), QList<A>{A::Translate});
}

void tst_Speculation::stopCancelsWhatWasAboutToBeGuessed()
{
    m_stack->speculator()->setContext(builder(QStringLiteral("A short prefix")), true);
    m_stack->speculator()->focusEntered(A::Summarize);
    QCOMPARE(m_stack->engine()->liveSessions().size(), 1);
    m_stack->speculator()->documentOpened();       // being read: a guess once the dwell passes
    m_stack->speculator()->selectionChanged(true); // settling: a guess once it stays
    m_stack->engine()->stopAll();                  // Esc
    m_stack->speculator()->stopped();
    QVERIFY(m_stack->engine()->liveSessions().isEmpty());
    const auto &s = m_stack->engine()->settings();
    const int past = int(std::max(s.reading.dwell, s.selection.settle).count()) + 100;
    QVERIFY(m_local.settle(&m_network, past, 5000));
    QVERIFY(m_stack->engine()->liveSessions().isEmpty());
    QCOMPARE(m_stack->engine()->metrics().stats(Strategy::Reading).attempts, 0);
    QCOMPARE(m_stack->engine()->metrics().stats(Strategy::Selection).attempts, 0);
    QCOMPARE(m_stack->engine()->metrics().stats(Strategy::Keyboard).cancelled, 1);
    QVERIFY(m_local.waitForNoOpenStream(2000));
}

// A document opened warms its prompt; the reading guess made while that streams would pay the
// whole prompt uncached beside it. It waits in the queue and goes once the warm-up is in, reading
// the prompt from the cache.
void tst_Speculation::guessWaitsForTheWarmupAndReadsThePromptCached()
{
    // 2000 prompt tokens a second: the warm-up of a ~3000-token document streams about 1.5 s.
    m_stack = m_local.makeStack(&m_network, "rtt=50,prefill=2000,decode=400");
    QString text;
    for (int i = 0; i < 150; ++i)
        text += QStringLiteral("Paragraph %1 explains why a warm prompt cache answers sooner and costs less. ").arg(i);
    const auto compiled = documentTemplate().compile(m_stack->engine()->profile(), documentValues(text));
    QVERIFY(compiled);
    m_document = *compiled;
    WarmupStrategy &warmup = *m_stack->warmup();
    QSignalSpy warmed(&warmup, &WarmupStrategy::warmed);
    const auto before = m_local.stats().billedByPurpose; // earlier tests billed on this server too

    warmup.documentOpened(QStringLiteral("doc"), m_document);
    m_stack->speculator()->setContext(builder({}), false);
    m_stack->speculator()->documentOpened();
    QTRY_VERIFY_WITH_TIMEOUT(!m_stack->speculator()->guesses(Strategy::Reading).isEmpty(), 5000);
    QVERIFY(warmed.isEmpty()); // the guesses came while the document warmed ...
    for (PrefetchSession *session : m_stack->engine()->liveSessions()) {
        if (session->strategy() == Strategy::Reading)
            QCOMPARE(session->state(), PrefetchSession::State::Pending); // ... and wait for it
    }
    QVERIFY(warmed.wait(10000));
    const auto since = [&](const char *purpose) {
        const auto now = m_local.stats().billedByPurpose.value(QLatin1String(purpose));
        const auto then = before.value(QLatin1String(purpose));
        return std::pair{now.cacheRead - then.cacheRead,
                         now.inputUncached + now.cacheWrite - then.inputUncached - then.cacheWrite};
    };
    QTRY_VERIFY_WITH_TIMEOUT(since("reading").first + since("reading").second > 0, 5000);
    QVERIFY(m_local.waitForNoOpenStream(5000));
    const auto [readingCached, readingUncached] = since("reading");
    const auto [warmCached, warmUncached] = since("warmup");
    QVERIFY2(warmUncached > 2000, qPrintable(QString::number(warmUncached)));
    // Read from the cache the warm-up wrote: only the action's own few tokens are uncached.
    QVERIFY2(readingCached > readingUncached * 10,
             qPrintable(QStringLiteral("read %1, uncached %2").arg(readingCached).arg(readingUncached)));
    Q_UNUSED(warmCached);
}

QTEST_GUILESS_MAIN(tst_Speculation)
#include "tst_speculation.moc"
