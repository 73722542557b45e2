// The response cache in the chat dock, against the real local provider over loopback, driven
// with keys and the mouse: a question asked again in a new conversation is answered from the
// cache (nothing reaches the provider), marked "From the cache", and Regenerate asks anew; a
// reworded question shows the earlier answer as a draft, marked and muted, which the live answer
// replaces; with the cache off both are asked of the provider; Clear History (confirmed in its
// dialog) deletes every conversation and the cached answers, Cancel keeps them, and it cannot be
// asked while an answer streams.
#include "support/chatdocksuite.h"
#include "support/localproviderfixture.h"
#include "gui/answer/markdownview.h"
#include "gui/chat/chatdock.h"
#include "gui/chat/chattranscript.h"
#include "prefetch/cache/responsecache.h"
#include "prefetch/engine.h"
#include "prefetch/strategies/debouncestrategy.h"
#include "workspace/chat/chatsession.h"
#include "workspace/conversations/conversationstore.h"

#include <QAction>
#include <QApplication>
#include <QLabel>
#include <QMainWindow>
#include <QMessageBox>
#include <QNetworkAccessManager>
#include <QPushButton>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QToolButton>

#include <memory>

using Gui::AnswerWidget;
using Gui::CachedAnswer;
using Gui::ChatDock;
using Gui::ConversationStore;

namespace {

// Asks for work, so routing leaves it on the main model. Against it (MinHash similarity, see
// Prefetch::ResponseCache::confidence): almost the same (0.86: confidence 0.78 with a new
// entry's hit rate of ½, served), and reworded (0.75: confidence 0.73, a draft).
const QString Question = QStringLiteral("Summarize the main risks of lending money to friends.");
const QString AlmostTheSame = QStringLiteral("Please summarize the main risks of lending money to friends");
const QString Reworded = QStringLiteral("Summarize the main risks of lending money to family members.");

} // namespace

class tst_ChatCache : public QObject, private TestSupport::ChatDockSuite
{
    Q_OBJECT

private slots:
    void initTestCase();
    void init();
    void cleanup();

    void questionAskedAgainIsAnsweredFromTheCache();
    void regenerateAsksTheProviderAnew();
    void almostTheSameQuestionIsServedAsASimilarOne();
    void regeneratingASimilarAnswerServedTakesItsHitBack();
    void rewordedQuestionShowsADraftTheLiveAnswerReplaces();
    void cacheOffAsksTheProviderEveryTime();
    void clearHistoryDeletesConversationsAndCachedAnswers();
    void clearHistoryCancelledKeepsEverything();
    void clearHistoryIsRefusedWhileAnAnswerFetches();

private:
    void makeDock(const Prefetch::Settings &settings = {},
                  const QByteArray &latency = "rtt=0,prefill=1000000,decode=2000");
    void askAndWait(const QString &text);
    void newConversation();
    AnswerWidget *lastAnswer() const;
    QLabel *cacheMark(AnswerWidget *answer) const
    {
        return answer ? answer->findChild<QLabel *>(QStringLiteral("chatFromCache")) : nullptr;
    }
    // Clear History from its action, as the File menu triggers it; clicks `button` in its dialog.
    void clearHistoryAndClick(const QString &button);

    std::unique_ptr<Prefetch::ResponseCache> m_cache;
};

void tst_ChatCache::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);
    QVERIFY(startProvider());
}

void tst_ChatCache::init()
{
    QVERIFY(openStore());
    m_cache = std::make_unique<Prefetch::ResponseCache>(m_dir->filePath(QStringLiteral("responses.sqlite")));
    QVERIFY2(m_cache->isPersistent(), qPrintable(m_cache->error()));
}

void tst_ChatCache::cleanup()
{
    QVERIFY(closeDock());
    m_cache.reset(); // after the engine that used it
}

void tst_ChatCache::makeDock(const Prefetch::Settings &settings, const QByteArray &latency)
{
    // The cache alone: the guess of a follow-up offered after each answer (tst_chatfollowups)
    // would be one request more at the provider for every answer.
    Prefetch::Settings alone = settings;
    alone.debounce.suggestFollowUps = false;
    m_stack = m_local.makeStack(&m_network, latency, alone);
    m_stack->engine()->setResponseCache(m_cache.get());
    QVERIFY(showDock());
    m_window->addAction(m_dock->newConversationAction());
}

void tst_ChatCache::askAndWait(const QString &text)
{
    QSignalSpy ended(m_dock->session(), &Gui::ChatSession::exchangeEnded);
    QTest::keyClicks(m_dock->input(), text);
    QTest::keyClick(m_dock->input(), Qt::Key_Return);
    QVERIFY(ended.wait(10000));
}

void tst_ChatCache::newConversation()
{
    const qint64 before = m_dock->session()->conversationId();
    QTest::keySequence(m_window.get(), m_dock->newConversationAction()->shortcut());
    m_dock->input()->setFocus();
    QVERIFY(m_dock->session()->conversationId() != before || m_dock->session()->messages().isEmpty());
    QVERIFY(m_dock->session()->messages().isEmpty());
}

AnswerWidget *tst_ChatCache::lastAnswer() const
{
    const auto answers = m_dock->findChildren<AnswerWidget *>();
    AnswerWidget *last = nullptr;
    for (AnswerWidget *a : answers) {
        if (a->isVisible())
            last = a; // in the order they were added
    }
    return last;
}

void tst_ChatCache::questionAskedAgainIsAnsweredFromTheCache()
{
    makeDock();
    askAndWait(Question);
    const QString first = m_dock->session()->messages().constLast().content;
    QVERIFY(!first.isEmpty());
    QVERIFY(!cacheMark(lastAnswer())->isVisible());
    QTRY_COMPARE(m_cache->count(), 1);
    QVERIFY(m_local.settle(&m_network, 100, 5000));
    const qint64 served = m_local.stats().requestsServed;

    newConversation();
    askAndWait(Question);
    QCOMPARE(m_dock->session()->messages().constLast().content, first);
    AnswerWidget *answer = lastAnswer();
    QCOMPARE(answer->markdown().trimmed(), first.trimmed());
    QVERIFY(cacheMark(answer)->isVisible());
    QCOMPARE(cacheMark(answer)->text(), QStringLiteral("From the cache"));
    QVERIFY(m_local.settle(&m_network, 100, 5000));
    QCOMPARE(m_local.stats().requestsServed, served); // nothing was sent
    QCOMPARE(m_stack->engine()->cachedAnswers().counters().exactHits, 1);
    // The answer is kept in the conversation like any other.
    const auto stored = m_store->messages(m_dock->session()->conversationId());
    QVERIFY(stored);
    QCOMPARE(stored->constLast().content, first);
}

void tst_ChatCache::regenerateAsksTheProviderAnew()
{
    makeDock();
    askAndWait(Question);
    newConversation();
    askAndWait(Question);
    QVERIFY(cacheMark(lastAnswer())->isVisible());
    QVERIFY(m_local.settle(&m_network, 100, 5000));
    const qint64 served = m_local.stats().requestsServed;

    // The last answer's Regenerate button, clicked.
    QToolButton *regenerate = lastAnswer()->button(Gui::MessageAction::Regenerate);
    QVERIFY(regenerate && regenerate->isVisible() && regenerate->isEnabled());
    QSignalSpy ended(m_dock->session(), &Gui::ChatSession::exchangeEnded);
    QTest::mouseClick(regenerate, Qt::LeftButton);
    QVERIFY(ended.wait(10000));
    QVERIFY(m_local.settle(&m_network, 100, 5000));
    QCOMPARE(m_local.stats().requestsServed, served + 1);
    QVERIFY(!cacheMark(lastAnswer())->isVisible());
    QVERIFY(!m_dock->session()->messages().constLast().content.isEmpty());
}

void tst_ChatCache::almostTheSameQuestionIsServedAsASimilarOne()
{
    makeDock();
    askAndWait(Question);
    QTRY_COMPARE(m_cache->count(), 1);
    const QString earlier = m_dock->session()->messages().constLast().content;
    QVERIFY(m_local.settle(&m_network, 100, 5000));
    const qint64 served = m_local.stats().requestsServed;

    newConversation();
    askAndWait(AlmostTheSame);
    AnswerWidget *answer = lastAnswer();
    QCOMPARE(answer->markdown().trimmed(), earlier.trimmed());
    QVERIFY(cacheMark(answer)->isVisible());
    QCOMPARE(cacheMark(answer)->text(), QStringLiteral("From the cache · a similar question"));
    QVERIFY(m_local.settle(&m_network, 100, 5000));
    QCOMPARE(m_local.stats().requestsServed, served);
    QCOMPARE(m_stack->engine()->cachedAnswers().counters().nearServed, 1);
}

// The confidence the newest near-duplicate lookup gave entry `id`, or -1 if it was no neighbour.
static double loggedConfidence(const Prefetch::ResponseCache &cache, qint64 id)
{
    const auto log = cache.decisionLog();
    if (log.isEmpty())
        return -1;
    for (const Prefetch::ResponseCache::Neighbour &n : log.constLast().neighbours)
        if (n.id == id)
            return n.confidence;
    return -1;
}

void tst_ChatCache::regeneratingASimilarAnswerServedTakesItsHitBack()
{
    makeDock();
    askAndWait(Question);
    QTRY_COMPARE(m_cache->count(), 1);
    newConversation();
    askAndWait(AlmostTheSame);
    QCOMPARE(cacheMark(lastAnswer())->text(), QStringLiteral("From the cache · a similar question"));
    const auto served = m_cache->decisionLog().constLast();
    QCOMPARE(served.decision, Prefetch::ResponseCache::Decision::Serve);
    const double before = loggedConfidence(*m_cache, served.neighbours.constFirst().id);
    QVERIFY(before > 0);

    // Not what the user wanted: Regenerate, clicked.
    QToolButton *regenerate = lastAnswer()->button(Gui::MessageAction::Regenerate);
    QVERIFY(regenerate && regenerate->isVisible() && regenerate->isEnabled());
    QSignalSpy ended(m_dock->session(), &Gui::ChatSession::exchangeEnded);
    QTest::mouseClick(regenerate, Qt::LeftButton);
    QVERIFY(ended.wait(10000));
    QCOMPARE(m_stack->engine()->cachedAnswers().counters().servedRegenerated, 1);

    // The same entry, looked up for the next similar question, scores lower than before it was
    // served: its hit rate went from 1/2 (none offered) to 1/3 (offered once, not taken). Had the
    // serve kept its hit, 2/3: higher than before.
    newConversation();
    askAndWait(AlmostTheSame + QStringLiteral("?"));
    const double after = loggedConfidence(*m_cache, served.neighbours.constFirst().id);
    QVERIFY2(after > 0 && after < before - 0.04, qPrintable(QStringLiteral("%1 -> %2").arg(before).arg(after)));
}

void tst_ChatCache::rewordedQuestionShowsADraftTheLiveAnswerReplaces()
{
    // Slow enough to the first token that the draft is on screen for a while.
    makeDock({}, "rtt=1500,prefill=1000000,decode=2000");
    askAndWait(Question);
    QTRY_COMPARE(m_cache->count(), 1);
    const QString earlier = m_dock->session()->messages().constLast().content;
    QVERIFY(m_local.settle(&m_network, 100, 5000));
    const qint64 served = m_local.stats().requestsServed;

    newConversation();
    QSignalSpy ended(m_dock->session(), &Gui::ChatSession::exchangeEnded);
    QTest::keyClicks(m_dock->input(), Reworded);
    QTest::keyClick(m_dock->input(), Qt::Key_Return);
    // At once: the earlier answer, marked as a draft, in the muted colour (the widget is shown
    // on the next turn of the event loop; the live answer is over a second away).
    QCOMPARE(m_dock->session()->currentCached(), CachedAnswer::Draft);
    AnswerWidget *answer = nullptr;
    QTRY_VERIFY((answer = lastAnswer()) && answer->cached() == CachedAnswer::Draft);
    QVERIFY(cacheMark(answer)->isVisible());
    QCOMPARE(cacheMark(answer)->text(), QStringLiteral("Draft from a similar question"));
    QCOMPARE(answer->markdown().trimmed(), earlier.trimmed());
    QCOMPARE(answer->view()->palette().color(QPalette::Text), answer->palette().color(QPalette::PlaceholderText));
    QCOMPARE(m_stack->engine()->cachedAnswers().counters().nearDrafts, 1);

    // The live answer comes from the provider and takes the draft's place.
    QVERIFY(ended.wait(10000));
    QVERIFY(m_local.settle(&m_network, 100, 5000));
    QCOMPARE(m_local.stats().requestsServed, served + 1);
    QCOMPARE(answer->cached(), CachedAnswer::None);
    QVERIFY(!cacheMark(answer)->isVisible());
    const QString live = m_dock->session()->messages().constLast().content;
    QVERIFY(!live.isEmpty());
    QCOMPARE(answer->markdown().trimmed(), live.trimmed());
    QVERIFY(answer->view()->palette().color(QPalette::Text) != answer->palette().color(QPalette::PlaceholderText));
}

void tst_ChatCache::cacheOffAsksTheProviderEveryTime()
{
    Prefetch::Settings settings;
    settings.cache.enabled = false;
    makeDock(settings);
    askAndWait(Question);
    QVERIFY(m_local.settle(&m_network, 100, 5000));
    const qint64 served = m_local.stats().requestsServed;
    newConversation();
    askAndWait(Question);
    newConversation();
    askAndWait(AlmostTheSame);
    QVERIFY(m_local.settle(&m_network, 100, 5000));
    QCOMPARE(m_local.stats().requestsServed, served + 2);
    QVERIFY(!cacheMark(lastAnswer())->isVisible());
    QCOMPARE(m_stack->engine()->cachedAnswers().counters().exactHits, 0);
    QCOMPARE(m_stack->engine()->cachedAnswers().counters().nearDrafts, 0);
    QCOMPARE(m_stack->engine()->cachedAnswers().counters().nearServed, 0);
}

void tst_ChatCache::clearHistoryAndClick(const QString &button)
{
    QAction *clear = m_dock->clearHistoryAction();
    QVERIFY(clear->isEnabled());
    clear->trigger();
    QMessageBox *box = nullptr;
    QTRY_VERIFY((box = m_dock->findChild<QMessageBox *>(QStringLiteral("clearHistoryBox"))) && box->isVisible());
    QPushButton *target = nullptr;
    for (QAbstractButton *b : box->buttons()) {
        if (b->text() == button)
            target = qobject_cast<QPushButton *>(b);
    }
    QVERIFY2(target, qPrintable(button));
    QTest::mouseClick(target, Qt::LeftButton);
    QTRY_VERIFY(!m_dock->findChild<QMessageBox *>(QStringLiteral("clearHistoryBox")));
}

void tst_ChatCache::clearHistoryDeletesConversationsAndCachedAnswers()
{
    makeDock();
    askAndWait(Question);
    newConversation();
    askAndWait(QStringLiteral("Explain why the sky is blue, in two sentences."));
    QTRY_COMPARE(m_cache->count(), 2);
    QCOMPARE(m_store->conversations()->size(), 2);

    clearHistoryAndClick(QStringLiteral("Clear History"));
    QCOMPARE(m_store->conversations()->size(), 0);
    QCOMPARE(m_cache->count(), 0);
    QVERIFY(m_dock->session()->messages().isEmpty());
    QCOMPARE(m_dock->session()->conversationId(), 0);
    QVERIFY(!lastAnswer()); // the transcript is empty

    // The same question again is asked of the provider: nothing of it is remembered.
    QVERIFY(m_local.settle(&m_network, 100, 5000));
    const qint64 served = m_local.stats().requestsServed;
    askAndWait(Question);
    QVERIFY(m_local.settle(&m_network, 100, 5000));
    QCOMPARE(m_local.stats().requestsServed, served + 1);
    QVERIFY(!cacheMark(lastAnswer())->isVisible());
    QCOMPARE(m_store->conversations()->size(), 1);
}

void tst_ChatCache::clearHistoryCancelledKeepsEverything()
{
    makeDock();
    askAndWait(Question);
    QTRY_COMPARE(m_cache->count(), 1);
    const qint64 open = m_dock->session()->conversationId();
    clearHistoryAndClick(QMessageBox::tr("Cancel"));
    QCOMPARE(m_store->conversations()->size(), 1);
    QCOMPARE(m_cache->count(), 1);
    QCOMPARE(m_dock->session()->conversationId(), open);
    QCOMPARE(m_dock->session()->messages().size(), 2);
}

void tst_ChatCache::clearHistoryIsRefusedWhileAnAnswerFetches()
{
    makeDock({}, "rtt=0,prefill=1000000,decode=50"); // a long answer
    askAndWait(Question);
    QSignalSpy started(m_dock->session(), &Gui::ChatSession::exchangeStarted);
    QTest::keyClicks(m_dock->input(), QStringLiteral("Explain why the sky is blue, in detail."));
    QTest::keyClick(m_dock->input(), Qt::Key_Return);
    QCOMPARE(started.size(), 1);
    QVERIFY(m_dock->session()->isAnswering());
    QVERIFY(!m_dock->clearHistoryAction()->isEnabled());
    QVERIFY(!m_dock->session()->clearHistory()); // asked anyway (another way in): refused
    QCOMPARE(m_store->conversations()->size(), 1);
    // Stopped with the chat's Stop button, it can be asked again.
    QPushButton *stop = nullptr;
    for (QPushButton *b : m_dock->findChildren<QPushButton *>()) {
        if (b->text() == QStringLiteral("Stop"))
            stop = b;
    }
    QVERIFY(stop && stop->isEnabled());
    QSignalSpy ended(m_dock->session(), &Gui::ChatSession::exchangeEnded);
    QTest::mouseClick(stop, Qt::LeftButton);
    QVERIFY(ended.size() == 1 || ended.wait(5000));
    QVERIFY(m_dock->clearHistoryAction()->isEnabled());
}

QTEST_MAIN(tst_ChatCache)
#include "tst_chatcache.moc"
