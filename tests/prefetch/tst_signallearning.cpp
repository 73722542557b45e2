// The early signals learn what they are for (issue 40). A finished selection that goes with no
// action run on it, modifiers let go of with none, a document whose first minutes pass with none,
// each teaches the habits that nothing followed; a guess is made only where it is likely enough to
// pay for itself at the provider's prices (GuessCost); a user who stops acting on a signal stops
// being guessed for, and one who starts again is guessed for again. Against the real local
// provider. (The pointer's heading: tst_speculation, which draws pointer movements.)
#include "support/localproviderfixture.h"

#include "prefetch/engine.h"
#include "prefetch/prompts/actionprompts.h"
#include "prefetch/strategies/guesscost.h"
#include "prefetch/strategies/habits.h"
#include "prefetch/strategies/speculator.h"

#include <QElapsedTimer>
#include <QNetworkAccessManager>
#include <QSettings>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>
#include <memory>

using namespace std::chrono_literals;

using namespace Prefetch;
using A = DocumentAction;

class tst_SignalLearning : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void init();
    void cleanup();

    void breakEvenWeighsWasteAgainstTheAnswer();
    void guessCostReadsThePricesAndTheCache();
    void nothingIsCountedKeptAndDamagedDropped();
    void strayedSelectionsStopTheGuessAndActionsBringItBack();
    void aSelectionActedOnTeachesNoNothing();
    void modifiersHeldForOtherShortcutsStopTheGuess();
    void openingsLeftUnactedStopTheReadingGuess();
    void aLeadTheLaterSignalsGiveLowersTheEarlyGuessesWorth();
    void theLeadIsMeasuredFromTheFirstSignalThatNamedTheAction();

private:
    // Selects (the drag let go of), then clears the selection, with nothing run on it.
    void strayOnce();
    Speculator *speculator() { return m_stack->speculator(); }

    TestSupport::LocalProviderFixture m_local;
    QNetworkAccessManager m_network;
    std::unique_ptr<Prefetch::Stack> m_stack;
    CompiledPrompt m_document;
    Speculator::ActionBuilder m_builder;
};

void tst_SignalLearning::initTestCase()
{
    QVERIFY2(m_local.start(), qPrintable(m_local.errorString()));
}

void tst_SignalLearning::init()
{
    QVERIFY(m_local.waitForNoOpenStream(2000));
    m_stack = m_local.makeStack(&m_network);
    const auto compiled =
        documentTemplate().compile(m_stack->engine()->profile(),
                                   documentValues(QStringLiteral(
                                       "A paragraph is selected to copy it, to type over it, or to ask for a rewrite. "
                                       "Only the last wants an answer, and a guess for the others is paid for and "
                                       "thrown away.")));
    QVERIFY(compiled);
    m_document = *compiled;
    const CompiledPrompt document = m_document;
    m_builder = [document](DocumentAction action) {
        return renderAction(document, action,
                            actionNeedsSelection(action) || action == A::Translate
                                ? QStringLiteral("Only the last wants an answer.")
                                : QString())
            .value_or(RenderedRequest());
    };
    m_stack->speculator()->setContext(m_builder, true);
}

void tst_SignalLearning::cleanup()
{
    m_stack.reset();
}

void tst_SignalLearning::strayOnce()
{
    speculator()->selectionChanged(true);
    speculator()->selectionFinished();
    speculator()->selectionChanged(false);
}

void tst_SignalLearning::breakEvenWeighsWasteAgainstTheAnswer()
{
    // (1 - p) · wrong <= share · p · answer  <=>  p >= wrong / (wrong + share · answer).
    const GuessCost cost{1.0, 5.0};
    QCOMPARE(cost.breakEven(0.4), 1.0 / 3.0);
    QVERIFY(cost.breakEven(0.8) < cost.breakEven(0.4));                     // more waste allowed: less certainty needed
    QCOMPARE(cost.breakEven(0), 1.0);                                       // no waste allowed: never worth it
    QCOMPARE(cost.breakEven(std::numeric_limits<double>::infinity()), 0.0); // any waste: always
    QCOMPARE((GuessCost{0, 5.0}.breakEven(0.4)), 0.0);                      // a free guess always pays
}

void tst_SignalLearning::guessCostReadsThePricesAndTheCache()
{
    Llm::ProviderProfile profile = Llm::builtinProfile(u"local");
    profile.prices = {1.0, 1.0, 0.1, 4.0};
    profile.minCacheableTokens = 0; // no prompt cache first
    RenderedRequest rendered;
    rendered.request.system = QString(4000, u'a');
    rendered.request.messages = {{Llm::Role::User, QString(400, u'b')}};
    rendered.request.staticMessageCount = 0;
    rendered.request.maxTokens = 1000;
    const qint64 system = estimateTokens(rendered.request.system);
    const qint64 message = estimateTokens(rendered.request.messages.first().content);
    rendered.estimatedPromptTokens = system + message;

    GuessCost cost = GuessCost::of(rendered, profile, 32);
    const GuessCost uncached = cost;
    const double prompt = double(system + message) * 1.0;
    QCOMPARE(cost.wrong, (prompt + 32 * 4.0) / 1e6);
    QCOMPARE(cost.answer, (prompt + GuessCost::AnswerTokens * 4.0) / 1e6); // a typical answer, not max_tokens

    // With a prompt cache, the static part (the system prompt here) is read from it.
    profile.minCacheableTokens = 128;
    cost = GuessCost::of(rendered, profile, 32);
    const double cachedPrompt = double(system) * 0.1 + double(message) * 1.0;
    QCOMPARE(cost.wrong, (cachedPrompt + 32 * 4.0) / 1e6);
    QVERIFY(cost.breakEven(0.4) < uncached.breakEven(0.4)); // a wrong guess costs less of an answer

    // A provider that bills nothing is weighed as the local demo engine is priced.
    profile.prices = {};
    profile.fastPrices = {};
    cost = GuessCost::of(rendered, profile, 32);
    QVERIFY(cost.wrong > 0);
    QVERIFY(cost.answer > cost.wrong);
}

void tst_SignalLearning::nothingIsCountedKeptAndDamagedDropped()
{
    Habits habits;
    const QList<A> candidates{A::RewriteSelection, A::ExplainSelection, A::Translate};
    const double before = habits.rank(Habits::selection(), candidates).first().second;
    QVERIFY(before < 1.0); // nothing following has a prior of its own
    habits.recordNothing(Habits::selection());
    habits.recordNothing(Habits::selection());
    QCOMPARE(habits.nothingCount(Habits::selection()), 1.0 * Habits::Decay + 1.0);
    const auto after = habits.rank(Habits::selection(), candidates);
    QCOMPARE(after.first().first, A::RewriteSelection); // the order among actions stays
    QVERIFY(after.first().second < before);
    // Other contexts are not made less certain by it.
    double opened = 0;
    for (const auto &entry : habits.rank(Habits::opened(), QList<A>{A::Summarize, A::ContinueWriting}))
        opened += entry.second;
    QCOMPARE(opened, 1.0);

    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString file = dir.filePath(QStringLiteral("habits.ini"));
    {
        QSettings settings(file, QSettings::IniFormat);
        habits.save(settings);
        settings.setValue(QStringLiteral("habits/after-summarize/none"), QStringLiteral("lots"));
        // A context that does not exist (a damaged or hand-made file) is not kept: the state stays bounded.
        settings.setValue(QStringLiteral("habits/after-lunch/rewrite"), 3);
        settings.setValue(QStringLiteral("habits/after-lunch/none"), 2);
        settings.sync();
    }
    QSettings settings(file, QSettings::IniFormat);
    QCOMPARE(settings.value(QStringLiteral("habits/selection/none")).toDouble(),
             habits.nothingCount(Habits::selection()));
    Habits loaded;
    QCOMPARE(loaded.load(settings), 3); // the damaged value and the unknown context's two
    loaded.save(settings);              // what is saved back has none of them
    QVERIFY(settings.allKeys().filter(QStringLiteral("lunch")).isEmpty());
    QVERIFY(!settings.allKeys().filter(QStringLiteral("habits/selection/none")).isEmpty());
    QCOMPARE(loaded.nothingCount(Habits::selection()), habits.nothingCount(Habits::selection()));
    QCOMPARE(loaded.nothingCount(Habits::after(A::Summarize)), 0.0);

    // The share of the wait the later signals cover is a decayed mean, kept with its weight; a
    // damaged one is dropped, not trusted.
    QVERIFY(!habits.coveredShare());
    habits.recordCovered(0.5);
    QCOMPARE(*habits.coveredShare(), 0.5);
    habits.recordCovered(0);
    const double covered = *habits.coveredShare();
    QCOMPARE(covered, 0.5 * Habits::Decay / (Habits::Decay + 1.0)); // the newer weighs more
    habits.save(settings);
    QVERIFY(loaded.load(settings) == 0 && loaded.coveredShare());
    QCOMPARE(*loaded.coveredShare(), covered);
    settings.setValue(QStringLiteral("habits/covered-weight"), 1e9); // more than a decayed mean can weigh
    QCOMPARE(loaded.load(settings), 2);
    QVERIFY(!loaded.coveredShare());
    loaded.recordCovered(3); // more than the whole wait is the whole wait
    QCOMPARE(*loaded.coveredShare(), 1.0);
    loaded.clear(); // Forget what was learnt: this too
    QVERIFY(loaded.isEmpty() && !loaded.coveredShare());
}

void tst_SignalLearning::strayedSelectionsStopTheGuessAndActionsBringItBack()
{
    QSignalSpy changed(speculator(), &Speculator::habitsChanged);
    const Strategy selection = Strategy::Selection;
    // A new user: the likeliest actions on a selection are guessed.
    speculator()->selectionChanged(true);
    speculator()->selectionFinished();
    const auto first = speculator()->selectionGuesses();
    QCOMPARE(first.size(), 3);
    QCOMPARE(first.first().action, A::RewriteSelection); // the likeliest first
    QList<A> paying;
    const int maxAnswers = m_stack->engine()->settings().speculation.maxAnswers;
    for (const Speculator::Candidate &c : first) {
        QVERIFY(c.breakEven > 0 && c.breakEven < 1);
        // Guessed: the likeliest that pay, at most speculation.maxAnswers of them.
        QCOMPARE(c.guessed, c.probability >= c.breakEven && paying.size() < maxAnswers);
        if (c.guessed)
            paying.append(c.action);
    }
    QVERIFY(paying.contains(A::RewriteSelection));
    QCOMPARE(speculator()->guesses(selection), paying);
    speculator()->selectionChanged(false); // copied, say, and the selection cleared
    QCOMPARE(changed.count(), 1);
    QCOMPARE(speculator()->habits().nothingCount(Habits::selection()), 1.0);

    // The user keeps selecting without acting: soon nothing is guessed (how soon depends on what
    // a wrong guess costs against an answer: on this short document, within a dozen).
    int strays = 1;
    while (strays < 20) {
        speculator()->selectionChanged(true);
        speculator()->selectionFinished();
        if (speculator()->guesses(selection).isEmpty())
            break;
        speculator()->selectionChanged(false);
        ++strays;
    }
    QVERIFY2(strays < 20, qPrintable(QString::number(strays)));
    for (const Speculator::Candidate &c : speculator()->selectionGuesses())
        QVERIFY(!c.guessed && c.probability < c.breakEven);
    speculator()->selectionChanged(false);
    const qint64 attempts = m_stack->engine()->metrics().stats(selection).attempts;
    for (int i = 0; i < 10; ++i)
        strayOnce();
    QCOMPARE(m_stack->engine()->metrics().stats(selection).attempts, attempts); // nothing more is sent

    // Selections followed by Rewrite again: it is guessed again, and only it at first.
    int acted = 0;
    while (acted < 10) {
        speculator()->selectionChanged(true);
        speculator()->selectionFinished();
        if (speculator()->guesses(selection).contains(A::RewriteSelection))
            break;
        speculator()->activated(A::RewriteSelection);
        speculator()->selectionChanged(false);
        ++acted;
    }
    QVERIFY2(acted >= 1 && acted <= 4, qPrintable(QString::number(acted)));
    QVERIFY(!speculator()->guesses(selection).contains(A::ExplainSelection));
}

void tst_SignalLearning::aSelectionActedOnTeachesNoNothing()
{
    speculator()->selectionChanged(true);
    speculator()->selectionFinished();
    speculator()->activated(A::ExplainSelection);
    speculator()->selectionChanged(false); // the answer read, the selection cleared
    QCOMPARE(speculator()->habits().nothingCount(Habits::selection()), 0.0);
    QCOMPARE(speculator()->habits().count(Habits::selection(), A::ExplainSelection), 1.0);
    // A selection still being made (never finished) that goes teaches nothing either.
    speculator()->selectionChanged(true);
    speculator()->selectionChanged(false);
    QCOMPARE(speculator()->habits().nothingCount(Habits::selection()), 0.0);
    // Stop forgets the guesses, not what was learnt.
    speculator()->selectionChanged(true);
    speculator()->selectionFinished();
    speculator()->stopped();
    speculator()->selectionChanged(false);
    QCOMPARE(speculator()->habits().nothingCount(Habits::selection()), 1.0);
}

void tst_SignalLearning::modifiersHeldForOtherShortcutsStopTheGuess()
{
    speculator()->setContext(m_builder, false);
    const Habits::Context held = Habits::modifiers(false);
    // Ctrl+Alt held and let go with no action: held for another shortcut.
    speculator()->modifiersChanged(true);
    const QList<A> first = speculator()->guesses(Strategy::Keyboard);
    QVERIFY(!first.isEmpty()); // a new user's likeliest actions are guessed
    speculator()->modifiersChanged(false);
    QCOMPARE(speculator()->habits().nothingCount(held), 1.0);
    int strays = 1;
    while (strays < 25) {
        speculator()->modifiersChanged(true);
        if (speculator()->guesses(Strategy::Keyboard).isEmpty())
            break;
        speculator()->modifiersChanged(false);
        ++strays;
    }
    QVERIFY2(strays < 25, qPrintable(QString::number(strays)));
    for (const Speculator::Candidate &c :
         speculator()->decide(held, {A::Summarize, A::ContinueWriting, A::Translate}, 2))
        QVERIFY(!c.guessed && c.probability < c.breakEven);
    // Now Ctrl+Alt+S, a few times: the summary is guessed again while the modifiers are held,
    // and the action taken while they were is not counted as nothing when they are let go.
    const double nothing = speculator()->habits().nothingCount(held);
    int acted = 0;
    while (acted < 10 && !speculator()->guesses(Strategy::Keyboard).contains(A::Summarize)) {
        speculator()->activated(A::Summarize);
        speculator()->modifiersChanged(false);
        speculator()->modifiersChanged(true);
        ++acted;
    }
    QVERIFY2(acted >= 1 && acted < 10, qPrintable(QString::number(acted)));
    QVERIFY(speculator()->habits().nothingCount(held) < nothing); // decayed, never added to
    QVERIFY(speculator()->habits().count(held, A::Summarize) > 0);
    speculator()->modifiersChanged(false);
}

void tst_SignalLearning::openingsLeftUnactedStopTheReadingGuess()
{
    Settings settings;
    settings.reading.dwell = 10ms;
    settings.reading.ttl = 60ms; // the guesses' life, and the window an action counts in
    m_stack = m_local.makeStack(&m_network, {}, settings);
    speculator()->setContext(m_builder, false);
    const Habits::Context opened = Habits::opened();
    // Opened, read, and nothing run before the guesses expire: once more each time, until the
    // opening is no longer guessed on.
    int openings = 0;
    while (openings < 25) {
        const qint64 attempts = m_stack->engine()->metrics().stats(Strategy::Reading).attempts;
        const double nothing = speculator()->habits().nothingCount(opened);
        speculator()->documentOpened();
        QTRY_VERIFY_WITH_TIMEOUT(speculator()->habits().nothingCount(opened) > nothing, 5000);
        ++openings;
        const bool guessed = m_stack->engine()->metrics().stats(Strategy::Reading).attempts > attempts;
        if (openings == 1)
            QVERIFY(guessed); // a new user's first opening is guessed on
        if (!guessed)
            break;
    }
    QVERIFY2(openings < 25, qPrintable(QString::number(openings)));
    // An action right after opening teaches the opposite.
    const double nothing = speculator()->habits().nothingCount(opened);
    speculator()->documentOpened();
    speculator()->activated(A::Summarize);
    QVERIFY(speculator()->habits().count(opened, A::Summarize) > 0);
    QVERIFY(speculator()->habits().nothingCount(opened) < nothing);
}

void tst_SignalLearning::aLeadTheLaterSignalsGiveLowersTheEarlyGuessesWorth()
{
    // Off by default: the same user's covered share changes nothing.
    speculator()->habits().recordCovered(1.0);
    QCOMPARE(speculator()->waitRemoved(Habits::selection()), 1.0);
    speculator()->habits().clear();
    speculator()->setWeighTime(true);
    const auto rewriteGuessed = [this] {
        const auto decision = speculator()->selectionGuesses();
        return std::any_of(decision.cbegin(), decision.cend(),
                           [](const Speculator::Candidate &c) { return c.action == A::RewriteSelection && c.guessed; });
    };
    // A new user: nothing known of how they reach an action, the whole wait counts.
    QCOMPARE(speculator()->waitRemoved(Habits::selection()), 1.0);
    QVERIFY(rewriteGuessed());
    // A user whose pointer had started the answer a whole wait ahead: a right guess on the
    // selection saves nothing the later signals would not, and its waste buys nothing. Not
    // guessed, however likely.
    speculator()->habits().recordCovered(1.0);
    QCOMPARE(speculator()->waitRemoved(Habits::selection()), 0.0);
    QCOMPARE(speculator()->waitRemoved(Habits::opened()), 0.0);
    for (const Speculator::Candidate &c : speculator()->selectionGuesses())
        QVERIFY(!c.guessed && c.breakEven == 1.0 && c.waitRemoved == 0.0);
    // The last signals before an action are guessed on as before: nothing of ours comes later.
    QCOMPARE(speculator()->waitRemoved(Habits::modifiers(true)), 1.0);
    QCOMPARE(speculator()->waitRemoved(Habits::pointer(A::RewriteSelection)), 1.0);

    // The same user switches to shortcuts run straight after selecting (nothing later guessed
    // the action): the covered share shrinks with each, and the selection's guess comes back.
    // Measured against the provider's time to a first token, known once an answer has come.
    speculator()->activated(A::RewriteSelection);
    QCOMPARE(*speculator()->habits().coveredShare(), 1.0); // no wait known: nothing measured
    m_stack->engine()->metrics().recordTtft(Strategy::None, 800);
    int actions = 0;
    while (actions < 20 && !rewriteGuessed()) {
        speculator()->activated(A::RewriteSelection);
        ++actions;
    }
    QVERIFY2(actions >= 1 && actions < 20, qPrintable(QString::number(actions)));
    const double removed = speculator()->waitRemoved(Habits::selection());
    QVERIFY(removed > 0 && removed < 1);
    // What it needs grows as the time it saves shrinks: a wait partly removed asks more than a
    // wait more removed, at the same prices and chances.
    const double needed = speculator()->selectionGuesses().first().breakEven;
    speculator()->habits().recordCovered(0);
    QVERIFY(speculator()->waitRemoved(Habits::selection()) > removed);
    QVERIFY(speculator()->selectionGuesses().first().breakEven < needed);
}

void tst_SignalLearning::theLeadIsMeasuredFromTheFirstSignalThatNamedTheAction()
{
    const double wait = 800;
    m_stack->engine()->metrics().recordTtft(Strategy::None, wait);
    speculator()->setContext(m_builder, true);
    QVERIFY(!speculator()->habits().coveredShare());
    // Tab onto the button, then run it: focus had started the answer that much of a wait ahead.
    QElapsedTimer held;
    held.start();
    speculator()->focusEntered(A::ExplainSelection);
    QTest::qWait(40);
    speculator()->activated(A::ExplainSelection);
    const double covered = *speculator()->habits().coveredShare();
    QVERIFY2(covered >= 40 / wait && covered <= (double(held.elapsed()) + 1) / wait, qPrintable(QString::number(covered)));
    // Enter again with focus still there: the first run dropped its guess and nothing was
    // guessed since, so nothing covered this one.
    speculator()->activated(A::ExplainSelection);
    QCOMPARE(*speculator()->habits().coveredShare(), covered * Habits::Decay / (Habits::Decay + 1.0));
    // Focus on another button started nothing for this action: a click nothing saw coming.
    const double before = *speculator()->habits().coveredShare();
    speculator()->focusEntered(A::Summarize);
    speculator()->activated(A::ExplainSelection);
    const double weight = Habits::Decay + 1.0; // of the two measured so far
    QCOMPARE(*speculator()->habits().coveredShare(), before * weight * Habits::Decay / (weight * Habits::Decay + 1.0));
    speculator()->focusLeft();
    // The modifiers held before the key: from their first guess, not from the last key event.
    speculator()->habits().clear();
    speculator()->modifiersChanged(true);
    QVERIFY(!speculator()->guesses(Strategy::Keyboard).isEmpty());
    const A first = speculator()->guesses(Strategy::Keyboard).first();
    QTest::qWait(40);
    speculator()->modifiersChanged(true); // still held (another key event)
    speculator()->activated(first);
    QVERIFY(*speculator()->habits().coveredShare() >= 40 / wait);
    speculator()->modifiersChanged(false);
}

QTEST_GUILESS_MAIN(tst_SignalLearning)
#include "tst_signallearning.moc"
