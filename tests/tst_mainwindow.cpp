// The main window against the local provider: Summarize streams an answer into the answer
// pane; resting on (or pressing) the button starts it early and the click takes it over; Esc
// stops everything and the provider sees the connections closed; opening a document warms the
// cache; the status bar names the local demo engine.
#include "localprovider/serverthread.h"
#include "prefetch/engine.h"
#include "prefetch/hoverstrategy.h"
#include "prefetch/warmupstrategy.h"
#include "ui/answerpane.h"
#include "ui/mainwindow.h"

#include <QEnterEvent>

#include <QAction>
#include <QLabel>
#include <QNetworkAccessManager>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QStatusBar>
#include <QTest>

#include <memory>

class tst_MainWindow : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void init();
    void cleanup();
    void statusBarNamesTheLocalEngine();
    void summarizeStreamsIntoAnswerPane();
    void escapeStopsAndClosesServerStream();
    void emptyDocumentDoesNotCallTheProvider();
    void providerErrorIsShownNotThrown();
    void hoverPrefetchesAndClickTakesOver();
    void leavingTheButtonCancelsAtTheServer();
    void pressStartsBeforeRelease();
    void openingADocumentWarmsTheCache();

private:
    std::unique_ptr<LocalProvider::ServerThread> m_server;
    Llm::ProviderProfile m_profile;
    QNetworkAccessManager m_network;
    std::unique_ptr<Prefetch::Engine> m_engine;
    std::unique_ptr<Prefetch::HoverStrategy> m_hover;
    std::unique_ptr<Prefetch::WarmupStrategy> m_warmup;
    std::unique_ptr<Ui::MainWindow> m_window;

    void enter(QWidget *w);
    void leave(QWidget *w);
};

// Offscreen there is no real pointer; send the events the window system would.
void tst_MainWindow::enter(QWidget *w)
{
    QEnterEvent event(QPointF(5, 5), w->mapTo(w->window(), QPointF(5, 5)), w->mapToGlobal(QPointF(5, 5)));
    QApplication::sendEvent(w, &event);
}

void tst_MainWindow::leave(QWidget *w)
{
    QEvent event(QEvent::Leave);
    QApplication::sendEvent(w, &event);
}

void tst_MainWindow::initTestCase()
{
    LocalProvider::ServerConfig config;
    // Slow enough decode that Esc lands mid-stream.
    config.profile = *LocalProvider::LatencyProfile::byName(u"instant");
    config.profile.decodeTokensPerSec = 60;
    m_server = std::make_unique<LocalProvider::ServerThread>(config);
    QVERIFY(m_server->start());
    m_profile = Llm::builtinProfile(u"local");
    m_profile.baseUrl = m_server->url().resolved(QUrl(QStringLiteral("v1")));
}

void tst_MainWindow::init()
{
    m_engine = std::make_unique<Prefetch::Engine>(&m_network, m_profile);
    m_hover = std::make_unique<Prefetch::HoverStrategy>(m_engine.get());
    m_warmup = std::make_unique<Prefetch::WarmupStrategy>(m_engine.get());
    m_window = std::make_unique<Ui::MainWindow>(m_engine.get(), m_hover.get(), m_warmup.get());
    m_window->setDocumentText(QStringLiteral(
        "Prefetching starts the answer early. The cache keeps the document warm. "
        "Users feel the first token, not the last one."));
    m_window->show();
    QVERIFY(QTest::qWaitForWindowExposed(m_window.get()));
}

void tst_MainWindow::cleanup()
{
    m_window.reset();
    m_warmup.reset();
    m_hover.reset();
    m_engine.reset();
    QTRY_COMPARE_WITH_TIMEOUT(m_server->stats().streamsOpen, 0, 2000);
}

void tst_MainWindow::statusBarNamesTheLocalEngine()
{
    const auto labels = m_window->statusBar()->findChildren<QLabel *>();
    const bool named = std::any_of(labels.cbegin(), labels.cend(), [](const QLabel *l) {
        return l->text().contains(QLatin1String("Local demo engine (offline, not a language model)"));
    });
    QVERIFY(named);
}

void tst_MainWindow::summarizeStreamsIntoAnswerPane()
{
    QSignalSpy painted(m_window->answerPane(), &Ui::AnswerPane::firstTokenPainted);
    QSignalSpy ended(m_window->answerPane(), &Ui::AnswerPane::answerEnded);
    QTest::mouseClick(m_window->summarizeButton(), Qt::LeftButton);
    QTRY_COMPARE_WITH_TIMEOUT(painted.count(), 1, 5000);
    QVERIFY(painted.first().first().toDouble() > 0);
    QVERIFY(!m_window->answerPane()->text().isEmpty());
    QTRY_COMPARE_WITH_TIMEOUT(ended.count(), 1, 15000);
    QCOMPARE(ended.first().first().toBool(), true);
    QVERIFY2(m_window->answerPane()->statusText().startsWith(QLatin1String("Done.")),
             qPrintable(m_window->answerPane()->statusText()));
    QVERIFY(!m_window->stopAction()->isEnabled());
}

void tst_MainWindow::escapeStopsAndClosesServerStream()
{
    const auto cancelledBefore = m_server->stats().streamsCancelled;
    QSignalSpy ended(m_window->answerPane(), &Ui::AnswerPane::answerEnded);
    m_window->summarizeAction()->trigger();
    QTRY_VERIFY_WITH_TIMEOUT(!m_window->answerPane()->text().isEmpty(), 5000);
    QVERIFY(m_window->stopAction()->isEnabled());
    QTest::keyClick(m_window->editor(), Qt::Key_Escape);
    QTRY_COMPARE_WITH_TIMEOUT(ended.count(), 1, 1000);
    QCOMPARE(ended.first().first().toBool(), false);
    QCOMPARE(m_window->answerPane()->statusText(), QStringLiteral("Stopped."));
    QTRY_COMPARE_WITH_TIMEOUT(m_server->stats().streamsOpen, 0, 200);
    QCOMPARE(m_server->stats().streamsCancelled, cancelledBefore + 1);
    QVERIFY(!m_window->answerPane()->text().isEmpty()); // the partial answer stays
}

void tst_MainWindow::emptyDocumentDoesNotCallTheProvider()
{
    const auto served = m_server->stats().requestsServed;
    m_window->setDocumentText(QStringLiteral("   \n"));
    m_window->summarizeAction()->trigger();
    QTest::qWait(50);
    QCOMPARE(m_server->stats().requestsServed, served);
    QVERIFY(!m_window->stopAction()->isEnabled());
}

void tst_MainWindow::providerErrorIsShownNotThrown()
{
    Llm::ProviderProfile broken = m_profile;
    broken.model = QStringLiteral("no-such-model");
    m_engine->setProfile(broken);
    QSignalSpy ended(m_window->answerPane(), &Ui::AnswerPane::answerEnded);
    m_window->summarize();
    QTRY_COMPARE_WITH_TIMEOUT(ended.count(), 1, 5000);
    QCOMPARE(ended.first().first().toBool(), false);
    QVERIFY2(m_window->answerPane()->statusText().contains(QLatin1String("model")),
             qPrintable(m_window->answerPane()->statusText()));
}

void tst_MainWindow::hoverPrefetchesAndClickTakesOver()
{
    const auto served = m_server->stats().requestsServed;
    enter(m_window->summarizeButton());
    QTRY_VERIFY_WITH_TIMEOUT(m_hover->isReady(QStringLiteral("summarize")), 3000);
    QCOMPARE(m_server->stats().requestsServed, served + 1);
    QSignalSpy ended(m_window->answerPane(), &Ui::AnswerPane::answerEnded);
    QTest::mouseClick(m_window->summarizeButton(), Qt::LeftButton);
    QTRY_COMPARE_WITH_TIMEOUT(ended.count(), 1, 15000);
    QCOMPARE(m_server->stats().requestsServed, served + 1); // taken over: no second request
    QVERIFY(m_window->answerPane()->statusText().contains(QLatin1String("prefetched")));
    QCOMPARE(m_engine->metrics().stats(Prefetch::Strategy::Hover).hits, 1);
}

void tst_MainWindow::leavingTheButtonCancelsAtTheServer()
{
    const auto cancelled = m_server->stats().streamsCancelled;
    enter(m_window->summarizeButton());
    QTRY_VERIFY_WITH_TIMEOUT(m_hover->isReady(QStringLiteral("summarize")), 3000);
    leave(m_window->summarizeButton());
    QTRY_COMPARE_WITH_TIMEOUT(m_server->stats().streamsOpen, 0, 200);
    QCOMPARE(m_server->stats().streamsCancelled, cancelled + 1);
    QVERIFY(m_window->answerPane()->text().isEmpty()); // nothing shown without a click
}

void tst_MainWindow::pressStartsBeforeRelease()
{
    QTest::mousePress(m_window->summarizeButton(), Qt::LeftButton);
    QVERIFY(m_hover->isPrefetching(QStringLiteral("summarize"))); // before the release
    QSignalSpy ended(m_window->answerPane(), &Ui::AnswerPane::answerEnded);
    QTest::mouseRelease(m_window->summarizeButton(), Qt::LeftButton);
    QTRY_COMPARE_WITH_TIMEOUT(ended.count(), 1, 15000);
    QCOMPARE(m_engine->metrics().stats(Prefetch::Strategy::Hover).hits
                 + m_engine->metrics().stats(Prefetch::Strategy::Hover).partialHits,
             1);
}

void tst_MainWindow::openingADocumentWarmsTheCache()
{
    QSignalSpy warmed(m_warmup.get(), &Prefetch::WarmupStrategy::warmed);
    QString text;
    for (int i = 0; i < 100; ++i)
        text += QStringLiteral("Sentence %1 of a document long enough to be worth caching. ").arg(i);
    m_window->setDocumentText(text);
    QVERIFY(warmed.wait(5000));
    QSignalSpy ended(m_window->answerPane(), &Ui::AnswerPane::answerEnded);
    m_window->summarize();
    QTRY_COMPARE_WITH_TIMEOUT(ended.count(), 1, 15000);
    QVERIFY2(m_window->answerPane()->statusText().contains(QLatin1String("from cache")),
             qPrintable(m_window->answerPane()->statusText()));
    QCOMPARE(m_engine->metrics().stats(Prefetch::Strategy::Warmup).hits, 1);
}

QTEST_MAIN(tst_MainWindow)
#include "tst_mainwindow.moc"
