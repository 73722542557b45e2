// The early signals in the main window, produced the way a person produces them, against the
// local provider over loopback: the pointer moving toward Summarize guesses it before it gets
// there; a selection made with Shift+Right is guessed once it stays, and the click takes the
// guess over (no fresh foreground request, the same answer a fresh one gives); another selection,
// an edit or another document discards a guess; Tab onto an action and Ctrl+Alt held guess, and
// the key or shortcut takes it over; a document opened is guessed on, a large one once its prompt
// is ready; running an action teaches the habits and its end guesses the next; Stop cancels every
// guess and what was about to be guessed; a cloud provider without consent gets none of it.
//
// The pointer is moved by the clock, one position per frame along a minimum-jerk path (the hand's
// pace); every assertion waits for an event or a state, never for a fixed time.
// Over 600 lines: 13 scenarios, each a test function readable on its own; what they share is
// at the top or in tests/support.
#include "support/localproviderfixture.h"
#include "support/windowservices.h"

#include "gui/answer/answerpane.h"
#include "gui/mainwindow/documenttab.h"
#include "gui/mainwindow/documenttabs.h"
#include "gui/mainwindow/mainwindow.h"
#include "gui/metrics/metricsdock.h"
#include "gui/metrics/selectionlearningline.h"
#include "llm/clock.h"
#include "prefetch/engine.h"
#include "prefetch/prefetchsession.h"
#include "prefetch/recorder.h"
#include "prefetch/prompts/actionprompts.h"
#include "prefetch/strategies/debouncestrategy.h"
#include "prefetch/strategies/habits.h"
#include "prefetch/strategies/hoverstrategy.h"
#include "prefetch/strategies/speculator.h"
#include "prefetch/strategies/warmupstrategy.h"
#include "prefetch/strategies/workflowstrategy.h"
#include "workspace/documents/document.h"
#include "workspace/settings/appsettings.h"

#include <QAction>
#include <QClipboard>
#include <QFile>
#include <QGuiApplication>
#include <QLabel>
#include <QNetworkAccessManager>
#include <QPushButton>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTabBar>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>

#include <algorithm>
#include <functional>
#include <limits>
#include <memory>

using Prefetch::DocumentAction;
using Prefetch::Strategy;

namespace {

const QString Text = QStringLiteral("Prefetching starts the answer early. The cache keeps the document warm. "
                                    "Users feel the first token, not the last one.");
// A passage whose rewrite and explanation by the demo engine (its own sentences, reworked) are
// longer than a guess's prefix, so that taking a guess over needs its continuation.
const QString Passage = QStringLiteral(
    "Prefetching starts the answer early. The cache keeps the document warm. Users feel the first token, not the "
    "last one. A guess made while the pointer rests on a button is usually right, because people look before they "
    "click. When the guess is wrong, the prefix it fetched costs a few tokens and nothing else. When it is right, "
    "the continuation brings the rest of the answer at the provider's own pace.");
// About 300 ms to the first token, then 400 tokens/s: a guess made early is what hides the wait.
const QByteArray Hosted = "rtt=300,prefill=1000000,decode=400";

// The defaults with only `early` of the early signals on, so that each test hears the signal it
// is about: a document just opened is guessed on by Reading in every test otherwise, and its
// guesses would fill the prefetch lane that the guess under test then waits in.
Prefetch::Settings only(std::initializer_list<Strategy> early)
{
    auto on = [early](Strategy s) { return std::find(early.begin(), early.end(), s) != early.end(); };
    Prefetch::Settings settings;
    settings.trajectory.enabled = on(Strategy::Trajectory);
    settings.selection.enabled = on(Strategy::Selection);
    settings.keyboard.enabled = on(Strategy::Keyboard);
    settings.reading.enabled = on(Strategy::Reading);
    settings.habits.enabled = on(Strategy::Habits);
    // A selection's two likeliest actions are guessed whatever their chance: these tests are
    // about what the window forwards (whether a guess pays is selectionsMadeToCopyAreLearnt's,
    // and tst_signallearning's).
    settings.speculation.wasteShare = std::numeric_limits<double>::infinity();
    return settings;
}

} // namespace

class tst_ActionSignals : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void init();
    void cleanup();

    void approachingSummarizeGuessesItBeforeTheHover();
    void finishedSelectionIsGuessedAndTheClickTakesItOver();
    void anotherSelectionDiscardsTheGuess();
    void selectionIsGuessedWhenTheUserLetsGo();
    void selectionsMadeToCopyAreLearnt();
    void aBillOverItsBoundHoldsTheSelectionGuessBack();
    void anEditCancelsTheGuess();
    void anotherDocumentCancelsTheGuess();
    void largeDocumentIsGuessedOnceItsPromptIsReady();
    void tabOntoAnActionGuessesItAndSpaceTakesItOver();
    void ctrlAltHeldGuessesAndTheShortcutTakesItOver();
    void runningAnActionTeachesTheHabitsAndItsEndGuessesTheNext();
    void stopCancelsTheGuessesAndWhatWasAboutToBeGuessed();
    void withoutConsentACloudProviderGetsNoGuess();

private:
    void makeWindow(const QByteArray &latency = {}, const Prefetch::Settings &settings = {});
    bool waitForAnswer(int timeoutMs = 15000);
    Gui::DocumentTab *openDocument(const QString &name, const QString &text);
    void selectRight(int characters);             // Shift down, the arrows, Shift up
    void holdShiftAndSelectRight(int characters); // ... with Shift still down
    // Moves the pointer from `from` to `to` (window coordinates) along a minimum-jerk path
    // (Flash & Hogan) in `durationMs`, one position per 60 Hz frame placed by the clock;
    // `step` runs after each position was delivered. False if it did not get there.
    bool movePointer(QPointF from, QPointF to, double durationMs, const std::function<void()> &step = {});
    QPointF centerOf(const QWidget *widget) const;
    // What a fresh request for `action` on `text` with `selection` answers, from another engine.
    QString freshAnswer(DocumentAction action, const QString &text, const QString &selection);
    qint64 attemptsOfEarlySignals() const;
    QList<QPointer<Prefetch::PrefetchSession>> live() const;
    LocalProvider::BilledTokens billed(const char *purpose) const;

    // Guesses are still streaming when they are cancelled: a 32-token prefix takes ~0.5 s.
    TestSupport::LocalProviderFixture m_local{u"instant", [](LocalProvider::ServerConfig &c) {
                                                  c.profile.decodeTokensPerSec = 60;
                                              }};
    QNetworkAccessManager m_network;
    QTemporaryDir m_dir;
    std::unique_ptr<Prefetch::Stack> m_stack;
    std::unique_ptr<Gui::MainWindow> m_window;
};

void tst_ActionSignals::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);
    QVERIFY(m_dir.isValid());
    QVERIFY2(m_local.start(), qPrintable(m_local.errorString()));
}

void tst_ActionSignals::makeWindow(const QByteArray &latency, const Prefetch::Settings &settings)
{
    cleanup();
    m_stack = m_local.makeStack(&m_network, latency, settings);
    const Gui::Services services = TestSupport::windowServices(*m_stack, nullptr, nullptr, true);
    m_window = std::make_unique<Gui::MainWindow>(services);
    m_window->show();
    QVERIFY(QTest::qWaitForWindowActive(m_window.get()));
}

void tst_ActionSignals::init()
{
    makeWindow();
}

void tst_ActionSignals::cleanup()
{
    if (m_window) {
        for (Gui::Document *document : m_window->tabs()->documents())
            document->setModified(false);                   // nothing unsaved may block the close
        QTest::mouseMove(m_window.get(), QPoint(-40, -40)); // the pointer leaves for the next test
    }
    m_window.reset();
    m_stack.reset();
    QVERIFY(m_local.waitForNoOpenStream(2000));
}

bool tst_ActionSignals::waitForAnswer(int timeoutMs)
{
    QSignalSpy ended(m_window->answerPane(), &Gui::AnswerPane::answerEnded);
    return ended.wait(timeoutMs);
}

Gui::DocumentTab *tst_ActionSignals::openDocument(const QString &name, const QString &text)
{
    const QString path = m_dir.filePath(name);
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly))
        return nullptr;
    file.write(text.toUtf8());
    file.close();
    return m_window->openFile(path) ? m_window->currentTab() : nullptr;
}

void tst_ActionSignals::selectRight(int characters)
{
    holdShiftAndSelectRight(characters);
    QTest::keyRelease(m_window->currentTab(), Qt::Key_Shift);
}

void tst_ActionSignals::holdShiftAndSelectRight(int characters)
{
    // As a person does: Shift down once, the arrow pressed and released under it (keyClick()
    // would release Shift after every arrow, each a finished selection of its own).
    Gui::DocumentTab *tab = m_window->currentTab();
    QTest::keyPress(tab, Qt::Key_Shift);
    for (int i = 0; i < characters; ++i) {
        QTest::simulateEvent(tab, true, Qt::Key_Right, Qt::ShiftModifier, QString(), false);
        QTest::simulateEvent(tab, false, Qt::Key_Right, Qt::ShiftModifier, QString(), false);
    }
}

QPointF tst_ActionSignals::centerOf(const QWidget *widget) const
{
    return QPointF(widget->mapTo(m_window.get(), widget->rect().center()));
}

bool tst_ActionSignals::movePointer(QPointF from, QPointF to, double durationMs, const std::function<void()> &step)
{
    QTest::mouseMove(m_window.get(), from.toPoint());
    QTimer frame;
    frame.setTimerType(Qt::PreciseTimer);
    frame.setInterval(16);
    const qint64 start = Llm::monotonicNowNs();
    bool arrived = false;
    connect(&frame, &QTimer::timeout, this, [&] {
        const double tau = std::min(1.0, double(Llm::monotonicNowNs() - start) / 1e6 / durationMs);
        const double s = tau * tau * tau * (10 - 15 * tau + 6 * tau * tau);
        QTest::mouseMove(m_window.get(), (from + (to - from) * s).toPoint());
        if (step)
            step();
        if (tau >= 1.0) {
            frame.stop();
            arrived = true;
        }
    });
    frame.start();
    return QTest::qWaitFor([&] { return arrived; }, int(durationMs) + 10000);
}

QString tst_ActionSignals::freshAnswer(DocumentAction action, const QString &text, const QString &selection)
{
    const auto prompt = Prefetch::documentTemplate().compile(m_stack->engine()->profile(),
                                                             Prefetch::documentValues(text));
    if (!prompt)
        return QStringLiteral("(not compiled: %1)").arg(prompt.error().message());
    const auto rendered = Prefetch::renderAction(*prompt, action, selection);
    if (!rendered)
        return QStringLiteral("(not rendered: %1)").arg(rendered.error().message());
    return TestSupport::freshText(&m_network, m_stack->engine()->profile(), *rendered);
}

qint64 tst_ActionSignals::attemptsOfEarlySignals() const
{
    qint64 n = 0;
    for (Strategy s : Prefetch::EarlyStrategies)
        n += m_stack->engine()->metrics().stats(s).attempts;
    return n;
}

QList<QPointer<Prefetch::PrefetchSession>> tst_ActionSignals::live() const
{
    QList<QPointer<Prefetch::PrefetchSession>> out;
    for (Prefetch::PrefetchSession *session : m_stack->engine()->liveSessions())
        out.append(session);
    return out;
}

LocalProvider::BilledTokens tst_ActionSignals::billed(const char *purpose) const
{
    return m_local.stats().billedByPurpose.value(QLatin1String(purpose));
}

// --- the pointer ----------------------------------------------------------------------------

void tst_ActionSignals::approachingSummarizeGuessesItBeforeTheHover()
{
    makeWindow(Hosted, only({Strategy::Trajectory}));
    m_window->newDocument(Text);
    QPushButton *button = m_window->summarizeButton();
    const auto foreground = billed("foreground");

    // From the middle of the text to the button, in about the second Fitts's law gives it.
    bool guessedBeforeArriving = false;
    bool guessedAfterArriving = false;
    QVERIFY(movePointer(centerOf(m_window->currentTab()), centerOf(button) + QPointF(4, 2), 900, [&] {
        if (!m_stack->speculator()->guesses(Strategy::Trajectory).contains(DocumentAction::Summarize))
            return;
        if (!button->underMouse() && !m_stack->hover()->isPrefetching(DocumentAction::Summarize))
            guessedBeforeArriving = true;
        else
            guessedAfterArriving = true;
    }));
    QVERIFY2(guessedBeforeArriving, guessedAfterArriving ? "guessed only once on the button" : "never guessed");
    QVERIFY(button->underMouse());
    QCOMPARE(m_stack->engine()->metrics().stats(Strategy::Trajectory).attempts, 1);
    QTRY_VERIFY_WITH_TIMEOUT(billed("trajectory").inputUncached + billed("trajectory").cacheRead > 0, 5000);

    // Resting on it, the hover takes the same guess on instead of asking again; the click takes it over.
    QTRY_VERIFY_WITH_TIMEOUT(m_stack->hover()->isPrefetching(DocumentAction::Summarize), 5000);
    QCOMPARE(m_stack->engine()->liveSessions().size(), 1);
    QTest::mouseClick(button, Qt::LeftButton);
    QVERIFY(waitForAnswer());
    const auto trajectory = m_stack->engine()->metrics().stats(Strategy::Trajectory);
    QCOMPARE(trajectory.hits + trajectory.partialHits, 1);
    QCOMPARE(m_stack->engine()->metrics().stats(Strategy::Hover).attempts, 0);
    QCOMPARE(billed("foreground"), foreground);
    QCOMPARE(m_window->answerPane()->text(), freshAnswer(DocumentAction::Summarize, Text, {}));
}

// --- the selection --------------------------------------------------------------------------

void tst_ActionSignals::finishedSelectionIsGuessedAndTheClickTakesItOver()
{
    makeWindow(Hosted, only({Strategy::Selection}));
    Gui::DocumentTab *tab = m_window->newDocument(Passage);
    tab->setFocus();
    tab->moveCursor(QTextCursor::Start);
    const auto before = m_local.stats();
    QTest::keyClick(tab, Qt::Key_End, Qt::ShiftModifier | Qt::ControlModifier); // all of it, in one go
    QCOMPARE(tab->selectedText(), Passage);
    // Once it stays, the likeliest actions on it are guessed: a short prefix each.
    QTRY_COMPARE_WITH_TIMEOUT(m_stack->speculator()->guesses(Strategy::Selection),
                              (QList<DocumentAction>{DocumentAction::RewriteSelection,
                                                     DocumentAction::ExplainSelection}),
                              5000);
    // The passage is long enough for the prompt cache: the guesses go after its warm-up.
    QTRY_COMPARE_WITH_TIMEOUT(m_local.stats().prefetchRequests, before.prefetchRequests + 3, 5000);
    // Both prefixes in (one still streaming would give its lane to the click's continuation).
    QTRY_VERIFY_WITH_TIMEOUT(std::ranges::all_of(live(),
                                                 [](const QPointer<Prefetch::PrefetchSession> &session) {
                                                     return session
                                                            && session->state()
                                                                   == Prefetch::PrefetchSession::State::Complete;
                                                 })
                                 && live().size() == 2,
                             5000);

    QTest::mouseClick(m_window->actionButton(DocumentAction::RewriteSelection), Qt::LeftButton);
    QVERIFY(waitForAnswer());
    // The answer came from the guess: no fresh foreground request, and the same text as one.
    const auto selection = m_stack->engine()->metrics().stats(Strategy::Selection);
    QCOMPARE(selection.hits + selection.partialHits, 1);
    // The other guess was sent, its prompt billed: it is kept, not cancelled, for its TTL.
    QCOMPARE(selection.cancelled, 0);
    QCOMPARE(m_stack->engine()->metrics().stats(Strategy::Hover).attempts, 0);
    QCOMPARE(billed("foreground"), before.billedByPurpose.value(QStringLiteral("foreground")));
    // Said in words: the guess had its prefix whole before the click, so it was ready.
    QVERIFY2(m_window->answerPane()->statusText().contains(QLatin1String("started before you asked: it was ready")),
             qPrintable(m_window->answerPane()->statusText()));
    QCOMPARE(m_window->answerPane()->text(), freshAnswer(DocumentAction::RewriteSelection, Passage, Passage));
    const auto foreground = billed("foreground"); // freshAnswer() asked the same server
    // The rate shown is the provider's pace (Hosted: 400 tokens/s), not the answer's tokens over the time
    // since its prefix came in, which includes the wait for the click.
    const QRegularExpressionMatch rate =
        QRegularExpression(QStringLiteral("(\\d+) tokens/s")).match(m_window->answerPane()->statusText());
    QVERIFY2(rate.hasMatch(), qPrintable(m_window->answerPane()->statusText()));
    QVERIFY2(rate.captured(1).toInt() >= 300 && rate.captured(1).toInt() <= 500,
             qPrintable(m_window->answerPane()->statusText()));

    // Changing their mind, the user asks for the explanation after all: the kept guess answers;
    // the one new request is its continuation (the rest after the prefix), no fresh answer.
    QTest::mouseClick(m_window->actionButton(DocumentAction::ExplainSelection), Qt::LeftButton);
    QVERIFY(waitForAnswer());
    QCOMPARE(m_stack->engine()->metrics().stats(Strategy::Selection).hits
                 + m_stack->engine()->metrics().stats(Strategy::Selection).partialHits,
             2);
    QCOMPARE(m_local.stats().prefetchRequests,
             before.prefetchRequests + 5); // a warm-up, two prefixes, two continuations
    QCOMPARE(billed("foreground"), foreground);
    QCOMPARE(m_window->answerPane()->text(), freshAnswer(DocumentAction::ExplainSelection, Passage, Passage));
}

void tst_ActionSignals::anotherSelectionDiscardsTheGuess()
{
    makeWindow(Hosted, only({Strategy::Selection}));
    Gui::DocumentTab *tab = m_window->newDocument(Text);
    tab->setFocus();
    tab->moveCursor(QTextCursor::Start);
    selectRight(6);
    QTRY_VERIFY_WITH_TIMEOUT(
        m_stack->speculator()->guesses(Strategy::Selection).contains(DocumentAction::ExplainSelection), 5000);
    const QList<QPointer<Prefetch::PrefetchSession>> first = live();
    QCOMPARE(first.size(), 2);

    selectRight(6); // the user goes on selecting: those guesses are for a passage no longer selected
    for (const auto &session : first)
        QVERIFY(!session || !session->isLive());
    QTRY_VERIFY_WITH_TIMEOUT(
        m_stack->speculator()->guesses(Strategy::Selection).contains(DocumentAction::ExplainSelection), 5000);

    QTest::mouseClick(m_window->actionButton(DocumentAction::ExplainSelection), Qt::LeftButton);
    QVERIFY(waitForAnswer());
    const auto selection = m_stack->engine()->metrics().stats(Strategy::Selection);
    QCOMPARE(selection.attempts, 4);
    QCOMPARE(selection.hits + selection.partialHits, 1);
    QCOMPARE(m_window->answerPane()->text(), freshAnswer(DocumentAction::ExplainSelection, Text, Text.left(12)));
}

void tst_ActionSignals::selectionIsGuessedWhenTheUserLetsGo()
{
    // A settle no test waits for: only letting go of Shift or of the mouse button can guess.
    Prefetch::Settings settings = only({Strategy::Selection});
    settings.selection.settle = std::chrono::minutes(10);
    makeWindow(Hosted, settings);
    Gui::DocumentTab *tab = m_window->newDocument(Text);
    tab->setFocus();
    tab->moveCursor(QTextCursor::Start);

    // Shift+arrows: nothing while Shift is down, the guesses the moment it comes up.
    holdShiftAndSelectRight(9);
    QCOMPARE(tab->selectedText(), Text.left(9));
    QVERIFY(m_stack->speculator()->guesses(Strategy::Selection).isEmpty());
    QTest::keyRelease(tab, Qt::Key_Shift);
    QCOMPARE(m_stack->speculator()->guesses(Strategy::Selection),
             (QList<DocumentAction>{DocumentAction::RewriteSelection, DocumentAction::ExplainSelection}));

    // A drag in the text: nothing while the button is down, the guesses at its release.
    QWidget *text = tab->viewport();
    const QPoint from = tab->cursorRect(tab->document()->find(QStringLiteral("The cache"))).center();
    const QPoint to = tab->cursorRect(tab->document()->find(QStringLiteral("warm."))).center();
    QTest::mousePress(text, Qt::LeftButton, {}, from);
    QVERIFY(m_stack->speculator()->guesses(Strategy::Selection).isEmpty()); // the click cleared the old one
    QTest::mouseMove(text, (from + to) / 2);
    QTest::mouseMove(text, to);
    QVERIFY(tab->textCursor().hasSelection());
    QVERIFY(m_stack->speculator()->guesses(Strategy::Selection).isEmpty());
    QTest::mouseRelease(text, Qt::LeftButton, {}, to);
    QCOMPARE(m_stack->speculator()->guesses(Strategy::Selection),
             (QList<DocumentAction>{DocumentAction::RewriteSelection, DocumentAction::ExplainSelection}));
    QCOMPARE(m_stack->engine()->metrics().stats(Strategy::Selection).attempts, 4);

    // The click takes the drag's guess over.
    QTest::mouseClick(m_window->actionButton(DocumentAction::ExplainSelection), Qt::LeftButton);
    QVERIFY(waitForAnswer());
    const auto selection = m_stack->engine()->metrics().stats(Strategy::Selection);
    QCOMPARE(selection.hits + selection.partialHits, 1);
    QCOMPARE(m_window->answerPane()->text(),
             freshAnswer(DocumentAction::ExplainSelection, Text, tab->textCursor().selectedText()));
}

// --- edits and documents --------------------------------------------------------------------

void tst_ActionSignals::selectionsMadeToCopyAreLearnt()
{
    // The app's defaults but for the other early signals: a guess is made where it pays.
    Prefetch::Settings settings = only({Strategy::Selection});
    settings.speculation.wasteShare = Prefetch::Settings().speculation.wasteShare;
    makeWindow(Hosted, settings);
    Gui::DocumentTab *tab = m_window->newDocument(Text);
    tab->setFocus();
    const Prefetch::Habits::Context selection = Prefetch::Habits::selection();
    QWidget *text = tab->viewport();
    const QPoint elsewhere = tab->cursorRect(tab->document()->find(QStringLiteral("warm."))).center();
    // The user selects a few words, copies them (Ctrl+C) and clicks elsewhere to paste, again and again.
    int copies = 0;
    for (; copies < 20; ++copies) {
        tab->moveCursor(QTextCursor::Start);
        selectRight(12);
        if (copies == 0) // a new user's likeliest action on a selection is guessed
            QTRY_VERIFY_WITH_TIMEOUT(!m_stack->speculator()->guesses(Strategy::Selection).isEmpty(), 5000);
        else if (m_stack->speculator()->guesses(Strategy::Selection).isEmpty())
            break; // what they select for is not an action: nothing is guessed for it
        QTest::keyClick(tab, Qt::Key_C, Qt::ControlModifier);
        QCOMPARE(QGuiApplication::clipboard()->text(), Text.left(12));
        QTest::mouseClick(text, Qt::LeftButton, {}, elsewhere);
        QVERIFY(!tab->textCursor().hasSelection());
        QCOMPARE(m_stack->speculator()->habits().nothingCount(selection) > 0, true);
    }
    QVERIFY2(copies >= 1 && copies < 20, qPrintable(QString::number(copies)));
    // The metrics panel says so in words.
    const QLabel *learnt = m_window->metricsDock()->selectionLearningLine();
    QVERIFY(!learnt->isHidden());
    QVERIFY2(learnt->text().contains(QLatin1String("Lately an action followed 0 % of your selections"))
                 && learnt->text().contains(QLatin1String("not guessed for now")),
             qPrintable(learnt->text()));
    const qint64 attempts = m_stack->engine()->metrics().stats(Strategy::Selection).attempts;
    QTest::mouseClick(text, Qt::LeftButton, {}, elsewhere);
    selectRight(12);
    QVERIFY(m_stack->speculator()->guesses(Strategy::Selection).isEmpty());
    QCOMPARE(m_stack->engine()->metrics().stats(Strategy::Selection).attempts, attempts);

    // Rewrite run on a selection from the toolbar: the next selection is guessed for again.
    QTest::mouseClick(m_window->actionButton(DocumentAction::RewriteSelection), Qt::LeftButton);
    QVERIFY(waitForAnswer());
    QVERIFY(m_stack->speculator()->habits().count(selection, DocumentAction::RewriteSelection) > 0);
    for (int rewrites = 1;
         rewrites < 4
         && !m_stack->speculator()->guesses(Strategy::Selection).contains(DocumentAction::RewriteSelection);
         ++rewrites) {
        tab->setFocus();
        QTest::mouseClick(text, Qt::LeftButton, {}, elsewhere);
        tab->moveCursor(QTextCursor::Start);
        selectRight(12);
        if (m_stack->speculator()->guesses(Strategy::Selection).contains(DocumentAction::RewriteSelection))
            break;
        QTest::mouseClick(m_window->actionButton(DocumentAction::RewriteSelection), Qt::LeftButton);
        QVERIFY(waitForAnswer());
    }
    QVERIFY(m_stack->speculator()->guesses(Strategy::Selection).contains(DocumentAction::RewriteSelection));
    QVERIFY2(learnt->text().contains(QLatin1String(": guessed.")), qPrintable(learnt->text()));

    // Forgotten (Settings, Prefetch): a new user's habits again, and the panel has nothing to say.
    m_stack->speculator()->forget();
    QCOMPARE(m_stack->speculator()->habits().nothingCount(selection), 0.0);
    QCOMPARE(m_stack->speculator()->habits().count(selection, DocumentAction::RewriteSelection), 0.0);
    QVERIFY(learnt->isHidden());
}

void tst_ActionSignals::aBillOverItsBoundHoldsTheSelectionGuessBack()
{
    // The app's defaults for the selection: a guess is made where it pays.
    Prefetch::Settings settings = only({Strategy::Selection});
    settings.speculation.wasteShare = Prefetch::Settings().speculation.wasteShare;
    makeWindow(Hosted, settings);
    // A document long enough that a guess's prompt weighs (a few thousand tokens).
    QString essay;
    for (int i = 0; i < 40; ++i)
        essay += Passage + (i % 4 == 3 ? QStringLiteral("\n\n") : QStringLiteral(" "));
    Gui::DocumentTab *tab = openDocument(QStringLiteral("essay.md"), essay);
    QVERIFY(tab);
    tab->setFocus();
    QTest::mouseClick(m_window->actionButton(DocumentAction::Summarize), Qt::LeftButton);
    QVERIFY(waitForAnswer());
    tab->setFocus();
    // A selection made to copy: a new user's likeliest action on it, Rewrite (1 in 3), was
    // guessed; then it went with nothing run on it, and Rewrite is a little less likely (1 in 4).
    tab->moveCursor(QTextCursor::Start);
    selectRight(12);
    QVERIFY(m_stack->speculator()->guesses(Strategy::Selection).contains(DocumentAction::RewriteSelection));
    QTest::keyClick(tab, Qt::Key_Right);

    // Guesses nobody used, worth four times what the user's answer cost: what a user whose
    // selections are all for copying runs up before the habits know it.
    Prefetch::BillEstimate &bill = m_stack->engine()->recorder().bill();
    Llm::Usage nothing;
    nothing.inputTokens = 0;
    nothing.outputTokens = 0;
    bill.billedAside(nothing, 4 * bill.billed());
    QVERIFY(m_stack->speculator()->isCutting());

    // Rewrite at 1 in 4 would pay within the default share; over the bound a guess may waste
    // less, must be likelier to pay, and is not made.
    tab->moveCursor(QTextCursor::Start);
    selectRight(12);
    const Prefetch::Speculator::Candidate cut = m_stack->speculator()->lastSelectionDecision().first();
    QCOMPARE(cut.action, DocumentAction::RewriteSelection);
    QVERIFY2(cut.probability > 0.2 && cut.probability < cut.breakEven,
             qPrintable(QStringLiteral("%1 < %2").arg(cut.probability).arg(cut.breakEven)));
    QVERIFY(m_stack->speculator()->guesses(Strategy::Selection).isEmpty());
    const QLabel *learnt = m_window->metricsDock()->selectionLearningLine();
    QVERIFY2(learnt->text().contains(QLatin1String("not guessed for now"))
                 && learnt->text().contains(QLatin1String("added more to your bill than Settings allow")),
             qPrintable(learnt->text()));

    // With a bound the bill is within (set far higher), Rewrite is guessed again,
    // though a little less likely still (another selection went with nothing run on it).
    QTest::keyClick(tab, Qt::Key_Right);
    Prefetch::Settings looser = m_stack->engine()->settings();
    looser.extraCostCeiling = looser.extraCostResume = 100;
    m_stack->engine()->setSettings(looser);
    QVERIFY2(!m_stack->speculator()->isCutting(),
             qPrintable(QStringLiteral("%1 over %2").arg(bill.extraShare()).arg(bill.without())));
    tab->moveCursor(QTextCursor::Start);
    selectRight(12);
    QVERIFY(m_stack->speculator()->guesses(Strategy::Selection).contains(DocumentAction::RewriteSelection));
    QVERIFY2(!learnt->text().contains(QLatin1String("added more to your bill")), qPrintable(learnt->text()));
}

void tst_ActionSignals::anEditCancelsTheGuess()
{
    makeWindow({}, only({Strategy::Reading}));
    Gui::DocumentTab *tab = openDocument(QStringLiteral("notes.md"), Text);
    QVERIFY(tab);
    // Opened and read: what is usually asked of a document just opened is guessed.
    QTRY_COMPARE_WITH_TIMEOUT(m_stack->speculator()->guesses(Strategy::Reading),
                              (QList<DocumentAction>{DocumentAction::Summarize, DocumentAction::ContinueWriting}),
                              5000);
    QTRY_COMPARE_WITH_TIMEOUT(m_local.stats().streamsOpen, 2, 5000);
    const auto cancelled = m_local.stats().streamsCancelled;

    tab->setFocus();
    tab->moveCursor(QTextCursor::End);
    QTest::keyClicks(tab, QStringLiteral(" Edited."));
    QVERIFY(m_stack->speculator()->guesses(Strategy::Reading).isEmpty());
    QVERIFY(m_stack->engine()->liveSessions().isEmpty());
    QCOMPARE(m_stack->engine()->metrics().stats(Strategy::Reading).attempts, 2);
    QCOMPARE(m_stack->engine()->metrics().stats(Strategy::Reading).cancelled, 2);
    QTRY_COMPARE_WITH_TIMEOUT(m_local.stats().streamsOpen, 0, 2000); // the provider sees them closed
    QCOMPARE(m_local.stats().streamsCancelled, cancelled + 2);

    // Asked now, the answer is about the text as it is.
    m_window->summarizeAction()->trigger();
    QVERIFY(waitForAnswer());
    QCOMPARE(m_stack->engine()->metrics().stats(Strategy::Reading).hits
                 + m_stack->engine()->metrics().stats(Strategy::Reading).partialHits,
             0);
    QCOMPARE(m_window->answerPane()->text(),
             freshAnswer(DocumentAction::Summarize, Text + QStringLiteral(" Edited."), {}));
}

void tst_ActionSignals::anotherDocumentCancelsTheGuess()
{
    makeWindow(Hosted, only({Strategy::Reading}));
    QVERIFY(openDocument(QStringLiteral("first.md"), Text));
    QTRY_COMPARE_WITH_TIMEOUT(m_stack->speculator()->guesses(Strategy::Reading).size(), 2, 5000);
    const QList<QPointer<Prefetch::PrefetchSession>> first = live();

    const QString other = QStringLiteral("Another document altogether, about tea and the people who grow it.");
    QVERIFY(openDocument(QStringLiteral("second.md"), other));
    for (const auto &session : first)
        QVERIFY(!session || !session->isLive());
    QTRY_COMPARE_WITH_TIMEOUT(m_stack->speculator()->guesses(Strategy::Reading).size(), 2, 5000);

    // Back to the first by its tab: the second's guesses go, the first is read again.
    const QList<QPointer<Prefetch::PrefetchSession>> second = live();
    Gui::DocumentTabs *tabs = m_window->tabs();
    QCOMPARE(tabs->count(), 2);
    const int firstIndex = 0;
    QTest::mouseClick(tabs->tabBar(), Qt::LeftButton, {}, tabs->tabBar()->tabRect(firstIndex).center());
    QCOMPARE(tabs->currentIndex(), firstIndex);
    for (const auto &session : second)
        QVERIFY(!session || !session->isLive());
    QTRY_COMPARE_WITH_TIMEOUT(m_stack->speculator()->guesses(Strategy::Reading).size(), 2, 5000);

    m_window->summarizeAction()->trigger();
    QVERIFY(waitForAnswer());
    const auto reading = m_stack->engine()->metrics().stats(Strategy::Reading);
    QCOMPARE(reading.attempts, 6);
    QCOMPARE(reading.hits + reading.partialHits, 1);
    QCOMPARE(m_window->answerPane()->text(), freshAnswer(DocumentAction::Summarize, Text, {}));
}

void tst_ActionSignals::largeDocumentIsGuessedOnceItsPromptIsReady()
{
    Prefetch::Settings settings = only({Strategy::Reading});
    settings.hourlyTokenBudget = 0; // a 75k-token document: what is tested here is not the budget
    settings.reading.dwell = std::chrono::milliseconds(1); // read before its prompt compiles
    makeWindow("rtt=5,prefill=100000000,decode=5000", settings);
    QString text;
    for (int i = 0; text.size() < 300 * 1024; ++i)
        text += QStringLiteral("Paragraph %1 of a long report about caches, latency and users. ").arg(i);
    QSignalSpy ready(m_window->tabs(), &Gui::DocumentTabs::promptReady);
    QVERIFY(openDocument(QStringLiteral("long.md"), text));
    QVERIFY(m_window->currentDocument()->isCompiling()); // from 256 KiB on, in the thread pool
    QVERIFY(ready.wait(10000));
    QTRY_VERIFY_WITH_TIMEOUT(m_stack->speculator()->guesses(Strategy::Reading).contains(DocumentAction::Summarize),
                             5000);
}

// --- the keyboard ---------------------------------------------------------------------------

void tst_ActionSignals::tabOntoAnActionGuessesItAndSpaceTakesItOver()
{
    makeWindow(Hosted, only({Strategy::Keyboard}));
    m_window->newDocument(Text);
    const auto foreground = billed("foreground");
    // From the answer (clicked into) Tab walks onto the actions, one by one.
    QWidget *answer = m_window->answerPane()->view();
    QVERIFY(answer);
    QTest::mouseClick(answer->focusProxy() ? answer->focusProxy() : answer, Qt::LeftButton);
    QTRY_VERIFY_WITH_TIMEOUT(answer->hasFocus(), 2000);
    QPushButton *summarize = m_window->summarizeButton();
    QPushButton *continueWriting = m_window->actionButton(DocumentAction::ContinueWriting);
    QTest::keyClick(QApplication::focusWidget(), Qt::Key_Tab);
    QVERIFY(summarize->hasFocus());
    QCOMPARE(m_stack->speculator()->guesses(Strategy::Keyboard), QList<DocumentAction>{DocumentAction::Summarize});
    QTest::keyClick(summarize, Qt::Key_Tab);
    QVERIFY(continueWriting->hasFocus());
    QCOMPARE(m_stack->speculator()->guesses(Strategy::Keyboard),
             QList<DocumentAction>{DocumentAction::ContinueWriting});
    // The one it walked past was sent: it is kept for its TTL (Shift+Tab back takes it over).
    QCOMPARE(m_stack->engine()->metrics().stats(Strategy::Keyboard).cancelled, 0);
    QCOMPARE(m_stack->engine()->metrics().stats(Strategy::Keyboard).attempts, 2);

    QTest::keyClick(continueWriting, Qt::Key_Space);
    QVERIFY(waitForAnswer());
    const auto keyboard = m_stack->engine()->metrics().stats(Strategy::Keyboard);
    QCOMPARE(keyboard.hits + keyboard.partialHits, 1);
    QCOMPARE(billed("foreground"), foreground);
    QCOMPARE(m_window->answerPane()->text(), freshAnswer(DocumentAction::ContinueWriting, Text, {}));
}

void tst_ActionSignals::ctrlAltHeldGuessesAndTheShortcutTakesItOver()
{
    makeWindow(Hosted, only({Strategy::Keyboard}));
    Gui::DocumentTab *tab = m_window->newDocument(Text);
    tab->setFocus();
    const auto foreground = billed("foreground");
    QTest::keyPress(tab, Qt::Key_Control);
    QVERIFY(m_stack->speculator()->guesses(Strategy::Keyboard).isEmpty()); // Ctrl alone is not our shortcuts'
    QTest::keyPress(tab, Qt::Key_Alt, Qt::ControlModifier);
    QCOMPARE(m_stack->speculator()->guesses(Strategy::Keyboard),
             (QList<DocumentAction>{DocumentAction::Summarize, DocumentAction::ContinueWriting}));
    QTest::keyClick(tab, Qt::Key_S, Qt::ControlModifier | Qt::AltModifier); // ... and S: Summarize
    QVERIFY(waitForAnswer());
    const auto keyboard = m_stack->engine()->metrics().stats(Strategy::Keyboard);
    QCOMPARE(keyboard.hits + keyboard.partialHits, 1);
    QCOMPARE(keyboard.cancelled, 0); // Continue Writing, not chosen, but sent: kept for its TTL
    QCOMPARE(billed("foreground"), foreground);
    QCOMPARE(m_window->answerPane()->text(), freshAnswer(DocumentAction::Summarize, Text, {}));
    // What the user chose with the modifiers held is what is guessed first next time.
    QCOMPARE(m_stack->speculator()->habits().count(Prefetch::Habits::modifiers(false), DocumentAction::Summarize), 1.0);
}

// --- habits ---------------------------------------------------------------------------------

void tst_ActionSignals::runningAnActionTeachesTheHabitsAndItsEndGuessesTheNext()
{
    makeWindow(Hosted, only({Strategy::Habits}));
    QVERIFY(openDocument(QStringLiteral("habits.md"), Text));
    QSignalSpy learnt(m_stack->speculator(), &Prefetch::Speculator::habitsChanged);
    m_window->summarizeAction()->trigger(); // from the menu
    QCOMPARE(learnt.count(), 1);
    QCOMPARE(m_stack->speculator()->habits().count(Prefetch::Habits::opened(), DocumentAction::Summarize), 1.0);
    QVERIFY(m_stack->speculator()->guesses(Strategy::Habits).isEmpty());
    QVERIFY(waitForAnswer());
    // What a new user might do after a summary (the prior) is not evidence enough to pay for.
    QVERIFY(m_stack->speculator()->guesses(Strategy::Habits).isEmpty());

    // This user continues the text after a summary (learnt on earlier days, kept in the settings).
    for (int i = 0; i < 3; ++i)
        m_stack->speculator()->habits().record(Prefetch::Habits::after(DocumentAction::Summarize),
                                               DocumentAction::ContinueWriting);
    m_window->summarizeAction()->trigger();
    QVERIFY(waitForAnswer());
    QCOMPARE(m_stack->speculator()->guesses(Strategy::Habits), QList<DocumentAction>{DocumentAction::ContinueWriting});
}

// --- Stop -----------------------------------------------------------------------------------

void tst_ActionSignals::stopCancelsTheGuessesAndWhatWasAboutToBeGuessed()
{
    makeWindow({}, only({Strategy::Reading, Strategy::Selection}));
    Gui::DocumentTab *tab = openDocument(QStringLiteral("stop.md"), Text); // read for 400 ms ...
    QVERIFY(tab);
    tab->setFocus();
    tab->moveCursor(QTextCursor::Start);
    selectRight(10); // ... and a selection guessed after 200 ms
    QTRY_COMPARE_WITH_TIMEOUT(m_stack->speculator()->guesses(Strategy::Selection).size(), 2, 5000);
    QTRY_VERIFY_WITH_TIMEOUT(m_window->stopAction()->isEnabled(), 2000);
    QTRY_VERIFY_WITH_TIMEOUT(m_local.stats().streamsOpen >= 2, 5000);

    QTest::keyClick(tab, Qt::Key_Escape);
    QVERIFY(m_stack->engine()->liveSessions().isEmpty());
    QVERIFY(m_stack->speculator()->guesses(Strategy::Selection).isEmpty());
    QTRY_COMPARE_WITH_TIMEOUT(m_local.stats().streamsOpen, 0, 200);
    // Nothing starts afterwards either: not the reading guess that was due, not the selection's.
    const qint64 attempts = attemptsOfEarlySignals();
    const auto served = m_local.stats().requestsServed;
    const auto &s = m_stack->engine()->settings();
    QVERIFY(m_local.settle(&m_network, int(std::max(s.reading.dwell, s.selection.settle).count()) + 100, 5000));
    QCOMPARE(attemptsOfEarlySignals(), attempts);
    QCOMPARE(m_local.stats().requestsServed, served);
    QVERIFY(m_stack->engine()->liveSessions().isEmpty());
}

// --- consent --------------------------------------------------------------------------------

void tst_ActionSignals::withoutConsentACloudProviderGetsNoGuess()
{
    // The engine gets what the app gives it for a cloud provider the user has not consented for.
    Gui::AppSettings app;
    const QString cloud = QStringLiteral("deepseek");
    QVERIFY(Gui::AppSettings::needsPrefetchConsent(app.profile(cloud)));
    makeWindow(Hosted, app.effectivePrefetch(cloud));
    const auto before = m_local.stats();

    Gui::DocumentTab *tab = openDocument(QStringLiteral("private.md"), Text); // reading
    QVERIFY(tab);
    tab->setFocus();
    tab->moveCursor(QTextCursor::Start);
    selectRight(8);                        // a selection
    QTest::keyPress(tab, Qt::Key_Control); // Ctrl+Alt held
    QTest::keyPress(tab, Qt::Key_Alt, Qt::ControlModifier);
    QTest::keyRelease(tab, Qt::Key_Alt, Qt::ControlModifier | Qt::AltModifier);
    QTest::keyRelease(tab, Qt::Key_Control, Qt::ControlModifier);
    QVERIFY(movePointer(centerOf(tab), centerOf(m_window->summarizeButton()), 600)); // the pointer on its way
    QTest::mouseMove(m_window.get(), centerOf(tab).toPoint());                       // and back
    m_window->run(DocumentAction::ExplainSelection);                                 // an answer that ends
    QVERIFY(waitForAnswer());
    const auto &s = m_stack->engine()->settings();
    QVERIFY(m_local.settle(&m_network,
                           int(std::max({s.reading.dwell, s.selection.settle, s.hover.delay}).count()) + 100, 5000));

    QCOMPARE(attemptsOfEarlySignals(), 0);
    QCOMPARE(m_stack->engine()->metrics().stats(Strategy::Hover).attempts, 0);
    QCOMPARE(m_local.stats().prefetchRequests, before.prefetchRequests); // the document is too small to warm
    for (Strategy strategy : Prefetch::EarlyStrategies) {
        const QString purpose = QLatin1String(Prefetch::strategyId(strategy));
        QCOMPARE(m_local.stats().billedByPurpose.value(purpose), before.billedByPurpose.value(purpose));
    }

    // With consent, the same selection is guessed on: it was the consent that held it back.
    app.setPrefetchConsent(cloud, true);
    m_stack->engine()->setSettings(app.effectivePrefetch(cloud));
    selectRight(2);
    QTRY_VERIFY_WITH_TIMEOUT(!m_stack->speculator()->guesses(Strategy::Selection).isEmpty(), 5000);
}

QTEST_MAIN(tst_ActionSignals)
#include "tst_actionsignals.moc"
