// The response cache behind the document actions, in a real main window against the real local
// provider over loopback: Summarize clicked again on the unchanged document is answered from
// the cache (nothing reaches the provider) and the answer pane says so; Regenerate (its button,
// and Ctrl+Alt+G) asks the provider anew; an edit changes the request, so the provider is asked;
// with the cache off every click is asked; the metrics panel counts the decisions and its
// Decision log lists them.
#include "support/localproviderfixture.h"
#include "support/windowservices.h"
#include "gui/answer/answerpane.h"
#include "gui/mainwindow/documenttab.h"
#include "gui/mainwindow/documenttabs.h"
#include "gui/mainwindow/mainwindow.h"
#include "gui/metrics/metricsdock.h"
#include "prefetch/cache/responsecache.h"
#include "prefetch/engine.h"
#include "prefetch/strategies/debouncestrategy.h"
#include "prefetch/strategies/hoverstrategy.h"
#include "prefetch/strategies/warmupstrategy.h"
#include "prefetch/strategies/workflowstrategy.h"
#include "workspace/conversations/conversationstore.h"
#include "workspace/documents/document.h"

#include <QAbstractButton>
#include <QDialog>
#include <QLabel>
#include <QNetworkAccessManager>
#include <QPushButton>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QToolButton>

#include <memory>

class tst_AnswerCache : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void cleanup();

    void summarizeAgainIsAnsweredFromTheCache();
    void regenerateAsksTheProviderAnew();
    void editedDocumentIsAskedAgain();
    void cacheOffAsksEveryClick();
    void metricsPanelCountsAndLogsTheDecisions();

private:
    void makeWindow(const Prefetch::Settings &settings = {});
    // Clicks Summarize and waits for the answer's end.
    void summarize();
    qint64 served();

    TestSupport::LocalProviderFixture m_local;
    QNetworkAccessManager m_network;
    std::unique_ptr<QTemporaryDir> m_dir;
    std::unique_ptr<Prefetch::Stack> m_stack; // with its response cache, as the app's
    std::unique_ptr<Gui::ConversationStore> m_store;
    std::unique_ptr<Gui::MainWindow> m_window;
};

void tst_AnswerCache::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);
    QVERIFY2(m_local.start(), qPrintable(m_local.errorString()));
}

void tst_AnswerCache::makeWindow(const Prefetch::Settings &settings)
{
    m_dir = std::make_unique<QTemporaryDir>();
    QVERIFY(m_dir->isValid());
    Prefetch::Stack::Options options;
    options.responseCachePath = m_dir->filePath(QStringLiteral("responses.sqlite"));
    m_stack = m_local.makeStack(&m_network, "rtt=100,prefill=1000000,decode=2000", settings, 0, options);
    m_store = std::make_unique<Gui::ConversationStore>(m_dir->filePath(QStringLiteral("conversations.sqlite")));
    const Gui::Services services = TestSupport::windowServices(*m_stack, m_store.get());
    m_window = std::make_unique<Gui::MainWindow>(services);
    m_window->newDocument(QStringLiteral("Prefetching starts the answer early. The cache keeps the document warm. "
                                         "Users feel the first token, not the last one."));
    m_window->show();
    QVERIFY(QTest::qWaitForWindowExposed(m_window.get()));
    m_window->activateWindow();
    QVERIFY(QTest::qWaitForWindowActive(m_window.get()));
}

void tst_AnswerCache::cleanup()
{
    if (m_window) {
        for (Gui::Document *document : m_window->tabs()->documents())
            document->setModified(false);
    }
    m_window.reset();
    m_store.reset();
    m_stack.reset();
    QVERIFY(m_local.waitForNoOpenStream(2000));
}

void tst_AnswerCache::summarize()
{
    QSignalSpy ended(m_window->answerPane(), &Gui::AnswerPane::answerEnded);
    QTest::mouseClick(m_window->summarizeButton(), Qt::LeftButton);
    QVERIFY(ended.wait(10000));
    QCOMPARE(ended.constFirst().constFirst().toBool(), true);
}

qint64 tst_AnswerCache::served()
{
    // The document's warm-up and anything still on its way are counted first.
    if (!m_local.settle(&m_network, 100, 5000))
        return -1;
    return m_local.stats().requestsServed;
}

void tst_AnswerCache::summarizeAgainIsAnsweredFromTheCache()
{
    makeWindow();
    summarize();
    const QString first = m_window->answerPane()->text();
    QVERIFY(!first.isEmpty());
    QVERIFY(!m_window->answerPane()->statusText().startsWith(QLatin1String("From the cache")));
    QTRY_COMPARE(m_stack->responseCache()->count(), 1);
    const qint64 before = served();

    summarize();
    QCOMPARE(m_window->answerPane()->text(), first);
    QVERIFY2(m_window->answerPane()->statusText().startsWith(QLatin1String("From the cache")),
             qPrintable(m_window->answerPane()->statusText()));
    QCOMPARE(served(), before); // nothing was sent, the press's guess included
    QCOMPARE(m_stack->engine()->cachedAnswers().counters().exactHits, 1);
}

void tst_AnswerCache::regenerateAsksTheProviderAnew()
{
    makeWindow();
    summarize();
    summarize();
    QVERIFY(m_window->answerPane()->statusText().startsWith(QLatin1String("From the cache")));
    const qint64 before = served();

    // The pane's Regenerate button.
    QAbstractButton *regenerate = nullptr;
    for (QPushButton *b : m_window->findChildren<QPushButton *>()) {
        if (b->text() == QStringLiteral("Regenerate") && b->isVisible())
            regenerate = b;
    }
    QVERIFY(regenerate && regenerate->isEnabled());
    QSignalSpy ended(m_window->answerPane(), &Gui::AnswerPane::answerEnded);
    QTest::mouseClick(regenerate, Qt::LeftButton);
    QVERIFY(ended.wait(10000));
    QVERIFY2(m_window->answerPane()->statusText().startsWith(QLatin1String("Done.")),
             qPrintable(m_window->answerPane()->statusText()));
    QCOMPARE(served(), before + 1);

    // And its shortcut, from the document.
    m_window->currentTab()->setFocus();
    QTest::keyClick(m_window.get(), Qt::Key_G, Qt::ControlModifier | Qt::AltModifier);
    QVERIFY(ended.wait(10000));
    QVERIFY(m_window->answerPane()->statusText().startsWith(QLatin1String("Done.")));
    QCOMPARE(served(), before + 2);
    // Summarize after a regenerate gives the newest answer, from the cache.
    const QString newest = m_window->answerPane()->text();
    summarize();
    QVERIFY(m_window->answerPane()->statusText().startsWith(QLatin1String("From the cache")));
    QCOMPARE(m_window->answerPane()->text(), newest);
    QCOMPARE(served(), before + 2);
}

void tst_AnswerCache::editedDocumentIsAskedAgain()
{
    makeWindow();
    summarize();
    QTRY_COMPARE(m_stack->responseCache()->count(), 1);
    Gui::DocumentTab *tab = m_window->currentTab();
    tab->setFocus();
    tab->moveCursor(QTextCursor::End);
    QTest::keyClicks(tab, QStringLiteral(" A new sentence."));
    const qint64 before = served();
    summarize();
    QVERIFY2(!m_window->answerPane()->statusText().startsWith(QLatin1String("From the cache")),
             qPrintable(m_window->answerPane()->statusText()));
    QCOMPARE(served(), before + 1);
}

void tst_AnswerCache::cacheOffAsksEveryClick()
{
    Prefetch::Settings settings;
    settings.cache.enabled = false;
    makeWindow(settings);
    summarize();
    const qint64 before = served();
    summarize();
    QVERIFY(!m_window->answerPane()->statusText().startsWith(QLatin1String("From the cache")));
    QCOMPARE(served(), before + 1);
    QCOMPARE(m_stack->engine()->cachedAnswers().counters().exactHits, 0);
}

void tst_AnswerCache::metricsPanelCountsAndLogsTheDecisions()
{
    makeWindow();
    auto *dock = m_window->findChild<Gui::MetricsDock *>();
    QVERIFY(dock);
    if (!dock->isVisible())
        QTest::keyClick(m_window.get(), Qt::Key_M, Qt::ControlModifier | Qt::ShiftModifier); // View, Metrics
    QTRY_VERIFY(dock->isVisible());
    summarize();
    summarize();
    auto *line = dock->findChild<QLabel *>(QStringLiteral("responseCacheLine"));
    QVERIFY(line);
    QTRY_VERIFY2(line->text().startsWith(QLatin1String("Response cache: exact 1,")), qPrintable(line->text()));

    auto *button = dock->findChild<QToolButton *>(QStringLiteral("decisionLogButton"));
    QVERIFY(button && button->isVisible() && button->isEnabled());
    QTest::mouseClick(button, Qt::LeftButton);
    QDialog *log = nullptr;
    QTRY_VERIFY((log = dock->findChild<QDialog *>(QStringLiteral("cacheDecisionLog"))) && log->isVisible());
    auto *table = log->findChild<QTableWidget *>(QStringLiteral("cacheDecisionTable"));
    QVERIFY(table);
    // The second click, served exactly. (The first took over the guess its press started, which
    // asked the cache only whether it held the answer: not a lookup, so not in the log.)
    QCOMPARE(table->rowCount(), 1);
    QCOMPARE(table->item(0, 2)->text(), QStringLiteral("exact"));
    QCOMPARE(table->item(0, 3)->text(), QStringLiteral("served"));
    QVERIFY(!table->item(0, 5)->text().isEmpty()); // the time it saved
    QTest::keyClick(log, Qt::Key_Escape);
    QTRY_VERIFY(!dock->findChild<QDialog *>(QStringLiteral("cacheDecisionLog")));

    // Reset statistics starts the counters and the log again; the answer stays kept.
    QToolButton *reset = nullptr;
    for (QToolButton *b : dock->findChildren<QToolButton *>())
        if (b->accessibleName() == QLatin1String("Reset statistics"))
            reset = b;
    QVERIFY(reset && reset->isVisible());
    QTest::mouseClick(reset, Qt::LeftButton);
    QTRY_VERIFY2(line->text().startsWith(QLatin1String("Response cache: exact 0,")), qPrintable(line->text()));
    QVERIFY2(line->text().endsWith(QLatin1String("answers kept 1")), qPrintable(line->text()));
    QTest::mouseClick(button, Qt::LeftButton);
    QTRY_VERIFY((log = dock->findChild<QDialog *>(QStringLiteral("cacheDecisionLog"))) && log->isVisible());
    table = log->findChild<QTableWidget *>(QStringLiteral("cacheDecisionTable"));
    QVERIFY(table);
    QCOMPARE(table->rowCount(), 0);
    QTest::keyClick(log, Qt::Key_Escape);
}

QTEST_MAIN(tst_AnswerCache)
#include "tst_answercache.moc"
