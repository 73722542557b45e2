// The question a cloud provider asks once (issue 37, item 5), the way a person meets it: a bar
// above the documents that blocks nothing, answered with the pointer (Allow), the keyboard (its
// mnemonics) or Esc; hover sends nothing before Allow and does after; the status bar says what
// runs and why not (waiting for the answer, not allowed, paused by a 429), per strategy in its
// tooltip. The provider is the local one over loopback, with its profile marked as a cloud's.
#include "support/localproviderfixture.h"
#include "support/windowservices.h"

#include "gui/mainwindow/consentbar.h"
#include "gui/mainwindow/documenttab.h"
#include "gui/mainwindow/mainwindow.h"
#include "prefetch/engine.h"
#include "prefetch/speculationplan.h"
#include "prefetch/strategies/debouncestrategy.h"
#include "prefetch/strategies/hoverstrategy.h"
#include "prefetch/strategies/speculator.h"
#include "prefetch/strategies/warmupstrategy.h"
#include "prefetch/strategies/workflowstrategy.h"
#include "workspace/conversations/conversationstore.h"
#include "workspace/settings/appsettings.h"

#include <QApplication>
#include <QLabel>
#include <QNetworkAccessManager>
#include <QPushButton>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

#include <memory>

using Prefetch::Consent;

class tst_Consent : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void init();
    void cleanup();

    void theBarAsksWithoutTakingTheFocus();
    void allowIsClickedAndHoverStartsSending();
    void notNowByKeyboardKeepsTheFocusInTheDocument();
    void escOnTheBarIsNotNow();
    void statusBarSaysWhyGuessesDoNotRun();
    void aRateLimitIsSaidWhileItHolds();

private:
    void ask();

    TestSupport::LocalProviderFixture m_local{u"instant"};
    QNetworkAccessManager m_network;
    QTemporaryDir m_home;
    Gui::AppSettings m_settings;
    std::unique_ptr<Prefetch::Stack> m_stack;
    std::unique_ptr<Gui::ConversationStore> m_store;
    std::unique_ptr<Gui::MainWindow> m_window;
};

namespace {

const QString Provider = QStringLiteral("deepseek"); // a cloud provider: its consent is asked for

} // namespace

void tst_Consent::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);
    QVERIFY2(m_local.start(), qPrintable(m_local.errorString()));
}

void tst_Consent::init()
{
    m_settings = Gui::AppSettings();
    m_settings.providerId = Provider;
    QCOMPARE(m_settings.prefetchConsent(Provider), Consent::NotAnswered);
    // The local provider stands in for the cloud one: same gating, nothing leaves loopback.
    Llm::ProviderProfile profile = m_local.profile();
    profile.id = Provider;
    profile.displayName = QStringLiteral("DeepSeek");
    profile.isCloud = true;
    profile.apiKey = QStringLiteral("sk-local");
    Prefetch::Settings prefetch = m_settings.effectivePrefetch(Provider);
    prefetch.hover.delay = std::chrono::milliseconds(40);
    m_stack = std::make_unique<Prefetch::Stack>(&m_network, profile, prefetch);
    m_store = std::make_unique<Gui::ConversationStore>(
        m_home.filePath(QStringLiteral("c%1.sqlite").arg(QTest::currentTestFunction())));
    const Gui::Services services = TestSupport::windowServices(*m_stack, m_store.get(), nullptr, true);
    m_window = std::make_unique<Gui::MainWindow>(services);
    m_window->newDocument(QStringLiteral("A short note the pointer will rest on Summarize for. ").repeated(20));
    m_window->setConsent(m_settings.prefetchConsent(Provider));
    m_window->resize(1000, 700);
    m_window->show();
    QVERIFY(QTest::qWaitForWindowExposed(m_window.get()));
    m_window->activateWindow();
    m_window->currentTab()->setFocus();
    QVERIFY(QTest::qWaitForWindowActive(m_window.get()));
    QTRY_VERIFY(m_window->currentTab()->hasFocus());
}

void tst_Consent::cleanup()
{
    if (m_window)
        m_stack->engine()->stopAll();
    m_window.reset();
    m_stack.reset();
    m_store.reset();
}

void tst_Consent::ask()
{
    m_window->consentBar()->ask(Provider, QStringLiteral("DeepSeek"), QStringLiteral("$1.00"),
                                m_stack->engine()->canContinue());
}

void tst_Consent::theBarAsksWithoutTakingTheFocus()
{
    Gui::ConsentBar *bar = m_window->consentBar();
    QVERIFY(!bar->isVisible()); // nothing is asked before the provider is in use with its key
    ask();
    QTRY_VERIFY(bar->isVisible());
    const QString text = bar->textLabel()->text();
    QVERIFY2(text.contains(QStringLiteral("DeepSeek")) && text.contains(QStringLiteral("$1.00")), qPrintable(text));
    QVERIFY2(text.contains(QStringLiteral("first words")), qPrintable(text)); // it can continue an answer
    // Writing goes on: the focus stays in the document, and a key typed goes there.
    QVERIFY(m_window->currentTab()->hasFocus());
    QTest::keyClicks(m_window->currentTab(), QStringLiteral("xyz"));
    QVERIFY(m_window->currentTab()->toPlainText().contains(QStringLiteral("xyz")));
    QVERIFY(bar->isVisible());
    // Above the documents, not over them.
    QVERIFY(bar->mapTo(m_window.get(), QPoint(0, bar->height())).y()
            <= m_window->currentTab()->mapTo(m_window.get(), QPoint()).y());
}

void tst_Consent::allowIsClickedAndHoverStartsSending()
{
    QPushButton *summarize = m_window->summarizeButton();
    // The warm-up of the open document is not gated (it is what the user opened it for): let it
    // go first, then count.
    QVERIFY(m_local.settle(&m_network, 300, 5000));
    const qint64 afterHoverBefore = m_local.stats().prefetchRequests;
    // Before the answer, resting on an action sends nothing.
    QTest::mouseMove(summarize);
    QVERIFY(m_local.settle(&m_network, 300, 5000));
    QCOMPARE(m_local.stats().prefetchRequests, afterHoverBefore);
    QCOMPARE(m_stack->engine()->metrics().stats(Prefetch::Strategy::Hover).attempts, 0);

    ask();
    QSignalSpy answered(m_window.get(), &Gui::MainWindow::consentAnswered);
    QTRY_VERIFY(m_window->consentBar()->allowButton()->isVisible());
    QTest::mouseClick(m_window->consentBar()->allowButton(), Qt::LeftButton);
    QCOMPARE(answered.count(), 1);
    QCOMPARE(answered.first().at(0).toString(), Provider);
    QCOMPARE(answered.first().at(1).toBool(), true);
    QVERIFY(!m_window->consentBar()->isVisible());
    QVERIFY(m_window->currentTab()->hasFocus()); // the click took the focus; the document has it back

    // What the application does with the answer (Application::onConsentAnswered): kept per
    // provider, and the engine gets the settings the answer allows.
    m_settings.setPrefetchConsent(Provider, true);
    m_stack->engine()->setSettings(m_settings.effectivePrefetch(Provider));
    m_window->setConsent(m_settings.prefetchConsent(Provider));
    QCOMPARE(m_window->speculationLabel()->text(), QStringLiteral("Early answers: on"));

    QTest::mouseMove(m_window->currentTab());
    QTest::mouseMove(summarize);
    QTRY_VERIFY_WITH_TIMEOUT(m_stack->engine()->metrics().stats(Prefetch::Strategy::Hover).attempts >= 1, 5000);
    QTRY_VERIFY_WITH_TIMEOUT(m_local.stats().prefetchRequests > afterHoverBefore, 5000);
}

void tst_Consent::notNowByKeyboardKeepsTheFocusInTheDocument()
{
    ask();
    QSignalSpy answered(m_window->consentBar(), &Gui::ConsentBar::answered);
    QTRY_VERIFY(m_window->consentBar()->isVisible());
    QTest::keyClick(m_window->currentTab(), Qt::Key_N, Qt::AltModifier); // "&Not now"
    QTRY_COMPARE(answered.count(), 1);
    QCOMPARE(answered.first().at(1).toBool(), false);
    QVERIFY(!m_window->consentBar()->isVisible());
    QVERIFY(m_window->currentTab()->hasFocus());

    // Asked again (another provider chosen, say), Alt+L allows.
    ask();
    QTRY_VERIFY(m_window->consentBar()->isVisible());
    QTest::keyClick(m_window->currentTab(), Qt::Key_L, Qt::AltModifier); // "A&llow early answers"
    QTRY_COMPARE(answered.count(), 2);
    QCOMPARE(answered.last().at(1).toBool(), true);
}

void tst_Consent::escOnTheBarIsNotNow()
{
    ask();
    Gui::ConsentBar *bar = m_window->consentBar();
    QSignalSpy answered(bar, &Gui::ConsentBar::answered);
    QTRY_VERIFY(bar->isVisible());
    // The user clicks into the question's text (to select a word of it, say), then presses Esc.
    QTest::mouseClick(bar->textLabel(), Qt::LeftButton, {}, QPoint(4, 4));
    QTRY_VERIFY(bar->isAncestorOf(QApplication::focusWidget()));
    QTest::keyClick(QApplication::focusWidget(), Qt::Key_Escape);
    QCOMPARE(answered.count(), 1);
    QCOMPARE(answered.first().at(0).toString(), Provider);
    QCOMPARE(answered.first().at(1).toBool(), false);
    QVERIFY(!bar->isVisible());
    // The focus went back to the document, not to the next widget in the chain.
    QVERIFY(m_window->currentTab()->hasFocus());
}

void tst_Consent::statusBarSaysWhyGuessesDoNotRun()
{
    QLabel *label = m_window->speculationLabel();
    QCOMPARE(label->text(), QStringLiteral("Early answers: waiting for your answer"));
    QVERIFY2(label->toolTip().contains(QStringLiteral("Waits for your answer")), qPrintable(label->toolTip()));

    m_settings.setPrefetchConsent(Provider, false);
    m_window->setConsent(m_settings.prefetchConsent(Provider));
    QCOMPARE(label->text(), QStringLiteral("Early answers: not allowed for DeepSeek"));

    m_settings.setPrefetchConsent(Provider, true);
    m_stack->engine()->setSettings(m_settings.effectivePrefetch(Provider));
    m_window->setConsent(m_settings.prefetchConsent(Provider));
    QCOMPARE(label->text(), QStringLiteral("Early answers: on"));
    const Prefetch::SpeculationPlan plan = Prefetch::SpeculationPlan::of(*m_stack->engine(), Consent::Given);
    QVERIFY(plan.guesses());
    QVERIFY(plan.entry(Prefetch::Strategy::Selection).runs());

    // A provider that cannot continue an answer: whole answers on strong signals only.
    Llm::ProviderProfile whole = m_stack->engine()->profile();
    whole.encodeOptions.continuation = Llm::ContinuationStyle::None;
    m_stack->engine()->setProfile(whole);
    m_window->setConsent(Consent::Given);
    QCOMPARE(label->text(), QStringLiteral("Early answers: whole answers on strong signals"));
    const Prefetch::SpeculationPlan wholePlan = Prefetch::SpeculationPlan::of(*m_stack->engine(), Consent::Given);
    QCOMPARE(wholePlan.entry(Prefetch::Strategy::Selection).state, Prefetch::SpeculationPlan::State::NotWorthIt);
    QVERIFY(wholePlan.entry(Prefetch::Strategy::Hover).runs());

    // The etiquette's pause has a label of its own; this one steps aside meanwhile.
    m_window->setPrefetchPause(QStringLiteral("battery saver"));
    QVERIFY(!label->isVisible());
    m_window->setPrefetchPause(QString());
    QVERIFY(label->isVisible());
}

void tst_Consent::aRateLimitIsSaidWhileItHolds()
{
    // A provider that takes one request a minute: the user's second is answered 429.
    TestSupport::LocalProviderFixture limited(u"instant", [](LocalProvider::ServerConfig &c) {
        c.profile = c.profile.withOverrides(u"rpm=1").value();
    });
    QVERIFY2(limited.start(), qPrintable(limited.errorString()));
    Llm::ProviderProfile profile = limited.profile();
    profile.id = Provider;
    profile.displayName = QStringLiteral("DeepSeek");
    profile.isCloud = true;
    m_settings.setPrefetchConsent(Provider, true);
    m_stack->engine()->setSettings(m_settings.effectivePrefetch(Provider));
    m_stack->engine()->setProfile(profile);
    m_window->setConsent(Consent::Given);
    QLabel *label = m_window->speculationLabel();
    QCOMPARE(label->text(), QStringLiteral("Early answers: on"));

    Llm::ChatRequest request;
    request.messages.append({Llm::Role::User, QStringLiteral("One of two in a minute.")});
    request.maxTokens = 5;
    for (int i = 0; i < 2; ++i)
        m_stack->engine()->request(Prefetch::Strategy::None, m_stack->engine()->render(request), 0, this);
    QTRY_COMPARE_WITH_TIMEOUT(label->text(), QStringLiteral("Early answers: paused, DeepSeek is limiting requests"),
                              10000);
    QVERIFY2(label->toolTip().contains(QStringLiteral("Paused: DeepSeek is limiting requests (")),
             qPrintable(label->toolTip()));
    m_stack->engine()->stopAll();
}

QTEST_MAIN(tst_Consent)
#include "tst_consent.moc"
