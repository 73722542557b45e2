// The "New document" wizard against the local provider: a settled page 1 prefetches the
// outline and Next takes it over (sooner than a fresh generation, no second request, a workflow
// hit); an edited outline still yields the right introduction, whether its prefetch came first
// or Next did; Back and Next keep what the user has; errors are shown and typing still works;
// Finish emits the document; Esc stops, and Cancel closes every stream at the server.
#include "support/localproviderfixture.h"
#include "gui/wizard/newdocumentwizard.h"
#include "prefetch/engine.h"
#include "prefetch/prefetchsession.h"
#include "prefetch/strategies/workflowstrategy.h"
#include "prefetch/stream/answerreader.h"

#include "llm/clock.h"

#include <QComboBox>
#include <QLineEdit>
#include <QMessageBox>
#include <QNetworkAccessManager>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTest>

#include <memory>

using namespace Prefetch;
using Gui::NewDocumentWizard;
using Gui::WizardGenerationPage;

namespace {
// 300 ms to the first token, as a hosted model on a short prompt.
const QByteArray HostedLatency = "rtt=300,prefill=1000000,decode=400";
// Slow enough that streams are still open when the test acts.
const QByteArray SlowLatency = "rtt=0,prefill=1000000,decode=20";
const QString Topic = QStringLiteral("Prompt caching for desktop writing tools");
const QString Audience = QStringLiteral("engineers new to the project");
} // namespace

class tst_Wizard : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void init();
    void cleanup();

    void topicIsRequired();
    void pauseOnPageOnePrefetchesAndNextTakesOver();
    void editedOutlinePrefetchesTheIntroduction();
    void editedOutlineThenNextAtOnceIsAMiss();
    void backAndNextKeepTheResult();
    void textFinishedBehindPredictsOnReturn();
    void ownWordsAreKeptWhenEarlierStepsChange();
    void regenerateWritesAnotherText();
    void errorIsShownAndTypingStillWorks();
    void busyProviderRetryIsShownAndStopEndsIt();
    void finishEmitsTheDocument();
    void escapeStopsTheGenerationFirst();
    void escapeWithNothingTypedClosesAtOnce();
    void cancelClosesEveryStream();
    void splitItems();

private:
    void makeWizard(const QByteArray &latency, const QByteArray &fault = {}, const Prefetch::Settings &settings = {});
    void fillPageOne(const QString &topic = Topic);
    // The wizard's "Discard this document?", while it is open.
    QMessageBox *discardQuestion() const
    {
        // One that was answered may still be there, hidden, until it is deleted.
        for (QMessageBox *box : m_wizard->findChildren<QMessageBox *>(QStringLiteral("discardQuestion"))) {
            if (box->isVisible())
                return box;
        }
        return static_cast<QMessageBox *>(nullptr);
    }
    bool waitForPrefetches(qint64 count);
    bool waitDone(WizardGenerationPage *page);
    void goToOutline();
    QString freshText(const std::expected<RenderedRequest, Llm::Error> &request);

    TestSupport::LocalProviderFixture m_local;
    QNetworkAccessManager m_network;
    std::unique_ptr<Prefetch::Stack> m_stack;
    std::unique_ptr<NewDocumentWizard> m_wizard;
};

void tst_Wizard::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);
    QVERIFY2(m_local.start(), qPrintable(m_local.errorString()));
}

void tst_Wizard::init()
{
    QVERIFY(m_local.waitForNoOpenStream(2000));
}

void tst_Wizard::cleanup()
{
    m_wizard.reset();
    m_stack.reset();
}

void tst_Wizard::makeWizard(const QByteArray &latency, const QByteArray &fault, const Prefetch::Settings &settings)
{
    m_stack = std::make_unique<Prefetch::Stack>(&m_network, m_local.profile(latency, fault), settings);
    m_wizard = std::make_unique<NewDocumentWizard>(m_stack->engine(), m_stack->workflow());
    m_wizard->show();
    QVERIFY(QTest::qWaitForWindowExposed(m_wizard.get()));
}

void tst_Wizard::fillPageOne(const QString &topic)
{
    m_wizard->topicPage()->topicEdit()->setText(topic);
    m_wizard->topicPage()->audienceEdit()->setText(Audience);
    m_wizard->topicPage()->toneBox()->setCurrentIndex(2);
}

bool tst_Wizard::waitForPrefetches(qint64 count)
{
    return QTest::qWaitFor([&] { return m_local.stats().prefetchRequests >= count; }, 3000);
}

bool tst_Wizard::waitDone(WizardGenerationPage *page)
{
    return QTest::qWaitFor([page] { return !page->isGenerating(); }, 15000);
}

// Page 1 filled and settled, the outline prefetched, Next, and the outline complete.
void tst_Wizard::goToOutline()
{
    const qint64 prefetches = m_local.stats().prefetchRequests;
    fillPageOne();
    QVERIFY(waitForPrefetches(prefetches + 1));
    m_wizard->next();
    QCOMPARE(m_wizard->currentId(), int(NewDocumentWizard::OutlineStep));
    QVERIFY(waitDone(m_wizard->outlinePage()));
    QVERIFY(!m_wizard->outlinePage()->text().isEmpty());
}

QString tst_Wizard::freshText(const std::expected<RenderedRequest, Llm::Error> &request)
{
    if (!request)
        return QStringLiteral("<no request>");
    return TestSupport::freshText(&m_network, m_stack->engine()->profile(), *request);
}

void tst_Wizard::topicIsRequired()
{
    makeWizard(HostedLatency);
    QVERIFY(!m_wizard->topicPage()->isComplete());
    QVERIFY(!m_wizard->button(QWizard::NextButton)->isEnabled());
    m_wizard->topicPage()->topicEdit()->setText(QStringLiteral("   "));
    QVERIFY(!m_wizard->button(QWizard::NextButton)->isEnabled());
    m_wizard->topicPage()->topicEdit()->setText(Topic);
    QVERIFY(m_wizard->button(QWizard::NextButton)->isEnabled());
    // Without a topic nothing is predicted, however long the user pauses.
    m_wizard->topicPage()->topicEdit()->clear();
    QSignalSpy completed(m_wizard.get(), &NewDocumentWizard::stepCompleted);
    QVERIFY(m_local.settle(&m_network, 600, 5000)); // well past the 350 ms settle
    QCOMPARE(completed.count(), 0);
    QCOMPARE(m_local.stats().prefetchRequests, 0);
    // A topic alone leaves Next enabled but predicts nothing either: the audience is still to
    // come, and a guess made now would be thrown away when it does.
    m_wizard->topicPage()->topicEdit()->setText(Topic);
    QVERIFY(m_local.settle(&m_network, 600, 5000));
    QCOMPARE(completed.count(), 0);
    QCOMPARE(m_local.stats().prefetchRequests, 0);
    m_wizard->topicPage()->audienceEdit()->setText(Audience);
    QVERIFY(completed.wait(2000));
    QVERIFY(waitForPrefetches(1));
}

void tst_Wizard::pauseOnPageOnePrefetchesAndNextTakesOver()
{
    makeWizard(HostedLatency);

    // Without a pause: Next at once, nothing prefetched, the outline starts fresh.
    const qint64 prefetches = m_local.stats().prefetchRequests;
    fillPageOne();
    m_wizard->next();
    WizardGenerationPage *outline = m_wizard->outlinePage();
    QVERIFY(QTest::qWaitFor([&] { return outline->perceivedLatencyMs() >= 0; }, 5000));
    const double freshMs = outline->perceivedLatencyMs();
    QVERIFY(!outline->isPrefetched());
    QVERIFY(waitDone(outline));
    QCOMPARE(m_local.stats().prefetchRequests, prefetches);
    m_wizard->reject();
    cleanup();
    QTRY_COMPARE_WITH_TIMEOUT(m_local.stats().streamsOpen, 0, 2000);

    // With a pause on page 1: the outline is prefetched, and Next takes it over.
    makeWizard(HostedLatency);
    QSignalSpy completed(m_wizard.get(), &NewDocumentWizard::stepCompleted);
    fillPageOne();
    QVERIFY(completed.wait(2000));
    QCOMPARE(completed.first().at(0).toInt(), int(NewDocumentWizard::TopicStep));
    QCOMPARE(completed.first().at(1).toBool(), true);
    QVERIFY(waitForPrefetches(prefetches + 1));
    QVERIFY(m_stack->workflow()->isPrefetching(NewDocumentWizard::OutlineStep));
    QVERIFY(QTest::qWaitFor(
        [&] {
            const auto live = m_stack->engine()->liveSessions();
            return live.size() == 1 && live.first()->hasFirstToken();
        },
        5000));

    const qint64 served = m_local.stats().requestsServed;
    const auto foreground = m_local.stats().billedByPurpose.value(QStringLiteral("foreground"));
    outline = m_wizard->outlinePage();
    QSignalSpy shown(outline, &WizardGenerationPage::firstTokenShown);
    m_wizard->next();
    QVERIFY(shown.wait(5000));
    const double hitMs = outline->perceivedLatencyMs();
    QVERIFY2(hitMs * 3 < freshMs, qPrintable(QStringLiteral("prefetched %1 ms, fresh %2 ms").arg(hitMs).arg(freshMs)));
    qInfo("outline first token: prefetched %.1f ms, fresh %.1f ms", hitMs, freshMs);
    QVERIFY(outline->isPrefetched());
    QVERIFY(waitDone(outline));
    // Taken over: no request afresh, only the continuation of an outline longer than the prefetch.
    QVERIFY(m_local.stats().requestsServed <= served + 1);
    QCOMPARE(m_local.stats().billedByPurpose.value(QStringLiteral("foreground")), foreground);
    // Its first token was there before Next: ready, in words.
    QVERIFY2(outline->statusText().contains(QLatin1String("ready at Next")) && !outline->statusText().contains(u"not ready"),
             qPrintable(outline->statusText()));
    QCOMPARE(m_stack->engine()->metrics().stats(Strategy::Workflow).hits, 1);
    QCOMPARE(outline->text(), freshText(m_wizard->stepRequest(NewDocumentWizard::OutlineStep,
                                                              m_wizard->formData(NewDocumentWizard::OutlineStep))));
}

void tst_Wizard::editedOutlinePrefetchesTheIntroduction()
{
    makeWizard(HostedLatency);
    QSignalSpy completed(m_wizard.get(), &NewDocumentWizard::stepCompleted);
    goToOutline();
    // The finished outline predicts the introduction.
    QTRY_VERIFY_WITH_TIMEOUT(!completed.isEmpty() && completed.last().at(0).toInt() == NewDocumentWizard::OutlineStep,
                             2000);
    const qint64 prefetches = m_local.stats().prefetchRequests;

    // The user edits the outline and pauses: the introduction is prefetched again, for the edit.
    completed.clear();
    QPlainTextEdit *editor = m_wizard->outlinePage()->editor();
    editor->setFocus();
    editor->moveCursor(QTextCursor::End);
    QTest::keyClick(editor, Qt::Key_Return);
    QTest::keyClicks(editor, QStringLiteral("5. Measuring what the cache saves"));
    QVERIFY(completed.wait(2000));
    QCOMPARE(completed.last().at(0).toInt(), int(NewDocumentWizard::OutlineStep));
    QVERIFY(waitForPrefetches(prefetches + 1));
    const QVariantMap data = m_wizard->formData(NewDocumentWizard::IntroductionStep);
    QVERIFY(data.value(QStringLiteral("outline")).toString().endsWith(QLatin1String("Measuring what the cache saves")));

    m_wizard->next();
    WizardGenerationPage *introduction = m_wizard->introductionPage();
    QVERIFY(waitDone(introduction));
    QVERIFY(introduction->isPrefetched());
    QCOMPARE(introduction->sourceData(), data);
    QCOMPARE(introduction->text(), freshText(m_wizard->stepRequest(NewDocumentWizard::IntroductionStep, data)));
    QCOMPARE(m_stack->engine()->metrics().stats(Strategy::Workflow).hits
                 + m_stack->engine()->metrics().stats(Strategy::Workflow).partialHits,
             2);
}

void tst_Wizard::editedOutlineThenNextAtOnceIsAMiss()
{
    makeWizard(HostedLatency);
    QSignalSpy completed(m_wizard.get(), &NewDocumentWizard::stepCompleted);
    goToOutline();
    QTRY_VERIFY_WITH_TIMEOUT(m_stack->workflow()->isPrefetching(NewDocumentWizard::IntroductionStep), 2000);

    // Next before the edit settles: the introduction prefetched for the old outline is a miss.
    QPlainTextEdit *editor = m_wizard->outlinePage()->editor();
    editor->moveCursor(QTextCursor::End);
    QTest::keyClick(editor, Qt::Key_Return);
    QTest::keyClicks(editor, QStringLiteral("5. Measuring what the cache saves"));
    const QVariantMap data = m_wizard->formData(NewDocumentWizard::IntroductionStep);
    m_wizard->next();
    WizardGenerationPage *introduction = m_wizard->introductionPage();
    QVERIFY(waitDone(introduction));
    QVERIFY(!introduction->isPrefetched());
    QCOMPARE(m_stack->engine()->metrics().stats(Strategy::Workflow).misses, 1);
    QCOMPARE(introduction->sourceData(), data);
    QCOMPARE(introduction->text(), freshText(m_wizard->stepRequest(NewDocumentWizard::IntroductionStep, data)));
}

void tst_Wizard::backAndNextKeepTheResult()
{
    makeWizard(HostedLatency);
    goToOutline();
    m_wizard->next();
    WizardGenerationPage *introduction = m_wizard->introductionPage();
    QVERIFY(waitDone(introduction));
    const QString outlineText = m_wizard->outlinePage()->text();
    const QString introductionText = introduction->text();
    // The finished introduction predicted the titles: let that request reach the server first.
    QVERIFY(QTest::qWaitFor(
        [&] {
            const auto live = m_stack->engine()->liveSessions();
            return m_stack->workflow()->isPrefetching(NewDocumentWizard::TitleStep) && live.size() == 1
                   && live.first()->hasFirstToken();
        },
        5000));
    const qint64 served = m_local.stats().requestsServed;

    m_wizard->back();
    m_wizard->back();
    QCOMPARE(m_wizard->currentId(), int(NewDocumentWizard::TopicStep));
    m_wizard->next();
    QVERIFY(!m_wizard->outlinePage()->isGenerating());
    m_wizard->next();
    QVERIFY(!introduction->isGenerating());
    QCOMPARE(m_wizard->outlinePage()->text(), outlineText);
    QCOMPARE(introduction->text(), introductionText);
    // The unchanged data also predicts nothing new: the user already has both texts.
    QSignalSpy completed(m_wizard.get(), &NewDocumentWizard::stepCompleted);
    QVERIFY(m_local.settle(&m_network, 500, 5000));
    QCOMPARE(completed.count(), 0);
    QCOMPARE(m_local.stats().requestsServed, served);

    // A changed page 1 regenerates the outline the user has not touched.
    m_wizard->back();
    m_wizard->back();
    m_wizard->topicPage()->toneBox()->setCurrentIndex(4);
    m_wizard->next();
    QVERIFY(m_wizard->outlinePage()->isGenerating());
    QVERIFY(waitDone(m_wizard->outlinePage()));
    QVERIFY(m_wizard->outlinePage()->text() != outlineText);
}

void tst_Wizard::textFinishedBehindPredictsOnReturn()
{
    makeWizard(HostedLatency);
    fillPageOne();
    m_wizard->next();
    QVERIFY(m_wizard->outlinePage()->isGenerating());
    // Back on page 1 while the outline is written: its end predicts nothing from there ...
    QSignalSpy completed(m_wizard.get(), &NewDocumentWizard::stepCompleted);
    m_wizard->back();
    QVERIFY(waitDone(m_wizard->outlinePage()));
    QVERIFY(!m_stack->workflow()->isPrefetching(NewDocumentWizard::IntroductionStep));
    QVERIFY(completed.isEmpty());
    // ... but returning to the finished outline does: the introduction is prefetched.
    const qint64 prefetches = m_local.stats().prefetchRequests;
    m_wizard->next();
    QVERIFY(!m_wizard->outlinePage()->isGenerating());
    QCOMPARE(completed.count(), 1);
    QCOMPARE(completed.first().at(0).toInt(), int(NewDocumentWizard::OutlineStep));
    QVERIFY(waitForPrefetches(prefetches + 1));
    m_wizard->next();
    QVERIFY(waitDone(m_wizard->introductionPage()));
    QVERIFY(m_wizard->introductionPage()->isPrefetched());
}

void tst_Wizard::ownWordsAreKeptWhenEarlierStepsChange()
{
    makeWizard(HostedLatency);
    goToOutline();
    WizardGenerationPage *outline = m_wizard->outlinePage();
    outline->editor()->setPlainText(QStringLiteral("1. My own section"));
    QVERIFY(outline->isUserEdited());
    m_wizard->back();
    m_wizard->topicPage()->toneBox()->setCurrentIndex(3);
    m_wizard->next();
    // The user's words stay; Regenerate writes the outline for the new page 1.
    QVERIFY(!outline->isGenerating());
    QCOMPARE(outline->text(), QStringLiteral("1. My own section"));
    QVERIFY(outline->isStale());
    QTest::mouseClick(outline->regenerateButton(), Qt::LeftButton);
    QVERIFY(waitDone(outline));
    QVERIFY(!outline->isStale());
    QCOMPARE(outline->sourceData(), m_wizard->formData(NewDocumentWizard::OutlineStep));
    QCOMPARE(outline->text(), freshText(m_wizard->stepRequest(NewDocumentWizard::OutlineStep,
                                                              m_wizard->formData(NewDocumentWizard::OutlineStep))));
}

void tst_Wizard::regenerateWritesAnotherText()
{
    makeWizard(HostedLatency);
    goToOutline();
    WizardGenerationPage *outline = m_wizard->outlinePage();
    const QString first = outline->text();
    QTest::mouseClick(outline->regenerateButton(), Qt::LeftButton);
    QVERIFY(outline->isGenerating());
    QVERIFY(outline->stopButton()->isEnabled());
    QVERIFY(!m_wizard->button(QWizard::NextButton)->isEnabled()); // Next waits for the text
    QVERIFY(waitDone(outline));
    QVERIFY(!outline->text().isEmpty());
    QVERIFY(outline->text() != first);
    QVERIFY(m_wizard->button(QWizard::NextButton)->isEnabled());
}

void tst_Wizard::errorIsShownAndTypingStillWorks()
{
    Prefetch::Settings fastRetries; // the 500 is retried (in ms here) before it is shown
    fastRetries.retry.firstDelay = std::chrono::milliseconds(5);
    fastRetries.retry.maxDelay = std::chrono::milliseconds(20);
    makeWizard(HostedLatency, "status=500", fastRetries);
    fillPageOne();
    m_wizard->next();
    WizardGenerationPage *outline = m_wizard->outlinePage();
    QVERIFY(waitDone(outline));
    QVERIFY2(outline->statusText().contains(QLatin1String("HTTP 500")), qPrintable(outline->statusText()));
    QVERIFY(outline->statusText().contains(m_stack->engine()->profile().displayName));
    QVERIFY(m_wizard->button(QWizard::NextButton)->isEnabled());

    QTest::keyClicks(outline->editor(), QStringLiteral("1. Why caches"));
    QCOMPARE(outline->text(), QStringLiteral("1. Why caches"));
    QVERIFY(outline->isUserEdited());
    QCOMPARE(m_wizard->formData(NewDocumentWizard::IntroductionStep).value(QStringLiteral("outline")).toString(),
             QStringLiteral("1. Why caches"));
}

void tst_Wizard::busyProviderRetryIsShownAndStopEndsIt()
{
    // A long back-off, so that the wait is seen and stopped; nothing waits it out.
    Prefetch::Settings slowRetries;
    slowRetries.retry.firstDelay = std::chrono::seconds(20);
    slowRetries.retry.maxDelay = std::chrono::seconds(20);
    slowRetries.retry.jitter = 0;
    makeWizard(HostedLatency, "status=429", slowRetries);
    fillPageOne();
    m_wizard->next();
    WizardGenerationPage *outline = m_wizard->outlinePage();
    QTRY_VERIFY2_WITH_TIMEOUT(outline->statusText().contains(QLatin1String("retrying in 20 s")),
                              qPrintable(outline->statusText()), 10000);
    QVERIFY2(outline->statusText().contains(m_stack->engine()->profile().displayName
                                            + QLatin1String(" is busy (rate limited)")),
             qPrintable(outline->statusText()));
    QVERIFY(outline->statusText().contains(QLatin1String("attempt 1 of 3")));
    QVERIFY(outline->stopButton()->isEnabled());
    const qint64 served = m_local.stats().requestsServed;
    QTest::mouseClick(outline->stopButton(), Qt::LeftButton);
    QVERIFY(!outline->stopButton()->isEnabled());
    QVERIFY2(outline->statusText().startsWith(QLatin1String("Stopped")), qPrintable(outline->statusText()));
    QVERIFY(m_local.settle(&m_network, 200, 5000));
    QCOMPARE(m_local.stats().requestsServed, served); // the retry never left
}

void tst_Wizard::finishEmitsTheDocument()
{
    makeWizard(HostedLatency);
    QSignalSpy created(m_wizard.get(), &NewDocumentWizard::documentCreated);
    goToOutline();
    m_wizard->outlinePage()->editor()->setPlainText(
        QStringLiteral("1. Why prompts repeat\n   - system prompts\n2. Measuring cache hits"));
    m_wizard->next();
    QVERIFY(waitDone(m_wizard->introductionPage()));
    const QString introduction = m_wizard->introductionPage()->text().trimmed();
    m_wizard->next();
    Gui::WizardTitlePage *titles = m_wizard->titlePage();
    QVERIFY(waitDone(titles));
    // The first option is picked; the user may pick another or type their own.
    QVERIFY(!titles->title().isEmpty());
    QVERIFY(titles->titleBox()->count() > 0);
    QCOMPARE(titles->title(), titles->titleBox()->itemText(0));
    QVERIFY(m_wizard->button(QWizard::FinishButton)->isEnabled());
    titles->titleBox()->setEditText(QString());
    QVERIFY(!m_wizard->button(QWizard::FinishButton)->isEnabled());
    titles->titleBox()->setEditText(QStringLiteral("Caching, Explained"));

    QTest::mouseClick(m_wizard->button(QWizard::FinishButton), Qt::LeftButton);
    QCOMPARE(created.count(), 1);
    QCOMPARE(created.first().at(0).toString(), QStringLiteral("Caching, Explained"));
    const QString markdown = created.first().at(1).toString();
    QVERIFY2(markdown.startsWith(QStringLiteral("# Caching, Explained\n\n") + introduction + QStringLiteral("\n\n")),
             qPrintable(markdown));
    QVERIFY(
        markdown.endsWith(QStringLiteral("## Why prompts repeat\n\n- system prompts\n\n## Measuring cache hits\n")));
    QVERIFY(!m_wizard->isVisible());
}

void tst_Wizard::escapeStopsTheGenerationFirst()
{
    makeWizard(SlowLatency);
    fillPageOne();
    m_wizard->next();
    WizardGenerationPage *outline = m_wizard->outlinePage();
    QTRY_VERIFY_WITH_TIMEOUT(!outline->text().isEmpty(), 5000);
    QTest::keyClick(m_wizard.get(), Qt::Key_Escape);
    QVERIFY(!outline->isGenerating());
    QVERIFY(m_wizard->isVisible());
    QVERIFY(!outline->text().isEmpty()); // the partial text is kept for editing
    QTRY_COMPARE_WITH_TIMEOUT(m_local.stats().streamsOpen, 0, 200);

    // The next Esc would close it: with a topic typed, it asks first. Esc on the question (or
    // Enter: Cancel is its default) keeps the wizard with everything in it.
    QTest::keyClick(m_wizard.get(), Qt::Key_Escape);
    QMessageBox *question = discardQuestion();
    QVERIFY(question);
    QVERIFY(m_wizard->isVisible());
    QTest::keyClick(question, Qt::Key_Escape);
    QTRY_VERIFY(!discardQuestion());
    QVERIFY(m_wizard->isVisible());
    QCOMPARE(m_wizard->topicPage()->topic(), QString(Topic));
    QVERIFY(!outline->text().isEmpty());
    QTest::keyClick(m_wizard.get(), Qt::Key_Escape);
    question = discardQuestion();
    QVERIFY(question);
    QTest::keyClick(question, Qt::Key_Return);
    QTRY_VERIFY(!discardQuestion());
    QVERIFY(m_wizard->isVisible());

    // Discard closes it.
    QTest::keyClick(m_wizard.get(), Qt::Key_Escape);
    QVERIFY(discardQuestion());
    QTest::mouseClick(discardQuestion()->button(QMessageBox::Discard), Qt::LeftButton);
    QVERIFY(!m_wizard->isVisible());
}

void tst_Wizard::escapeWithNothingTypedClosesAtOnce()
{
    makeWizard(SlowLatency);
    QTest::keyClick(m_wizard.get(), Qt::Key_Escape);
    QVERIFY(!discardQuestion());
    QVERIFY(!m_wizard->isVisible());
}

void tst_Wizard::cancelClosesEveryStream()
{
    makeWizard(SlowLatency);
    fillPageOne();
    QVERIFY(waitForPrefetches(m_local.stats().prefetchRequests + 1));
    m_wizard->next(); // takes the prefetch over; it keeps streaming slowly
    QVERIFY(m_wizard->outlinePage()->isGenerating());
    // Back on page 1 another topic prefetches another outline: two streams open.
    m_wizard->back();
    const qint64 prefetches = m_local.stats().prefetchRequests;
    m_wizard->topicPage()->topicEdit()->setText(QStringLiteral("Lanes and budgets for speculative requests"));
    QVERIFY(waitForPrefetches(prefetches + 1));
    QTRY_COMPARE_WITH_TIMEOUT(m_local.stats().streamsOpen, 2, 2000);

    QTest::mouseClick(m_wizard->button(QWizard::CancelButton), Qt::LeftButton);
    QVERIFY(discardQuestion());
    QTest::mouseClick(discardQuestion()->button(QMessageBox::Discard), Qt::LeftButton);
    QVERIFY(!m_wizard->isVisible());
    QTRY_COMPARE_WITH_TIMEOUT(m_local.stats().streamsOpen, 0, 200);
    QVERIFY(m_stack->engine()->liveSessions().isEmpty());
    QVERIFY(!m_stack->workflow()->isPrefetching(NewDocumentWizard::OutlineStep));
    QCOMPARE(m_stack->engine()->metrics().stats(Strategy::Workflow).cancelled, 1);
}

void tst_Wizard::splitItems()
{
    QCOMPARE(NewDocumentWizard::splitItems(QStringLiteral("1. One\n  - two\n\n## Three\n\"Four\"")),
             QStringList(
                 {QStringLiteral("One"), QStringLiteral("two"), QStringLiteral("Three"), QStringLiteral("Four")}));
    QCOMPARE(NewDocumentWizard::splitItems(QStringLiteral("A first idea. A second one? 第三个。第四个")),
             QStringList({QStringLiteral("A first idea."), QStringLiteral("A second one?"), QStringLiteral("第三个。"),
                          QStringLiteral("第四个")}));
    QVERIFY(NewDocumentWizard::splitItems(QStringLiteral("  \n ")).isEmpty());
}

QTEST_MAIN(tst_Wizard)
#include "tst_wizard.moc"
