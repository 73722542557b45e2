// Follow-ups offered after an answer (issue 39), against the real local provider over loopback,
// driven with the pointer and keys: the chat offers three under a complete answer; the first
// one's answer is guessed as the answer ends where this user sends it often (not otherwise), and
// a click on it is answered from that guess; one the pointer rests on, or the focus reaches, is
// guessed then; they are reached with Tab and sent with Enter;
// typing hides them and a draft is never replaced; a file waiting to be sent stops the guess (it
// would go with it); switched off, nothing is offered or guessed; the user's own repeated
// replies come first.
#include "support/chatdocksuite.h"
#include "support/localproviderfixture.h"
#include "gui/chat/attachmentchips.h"
#include "gui/chat/chatdock.h"
#include "gui/chat/followupchips.h"
#include "prefetch/engine.h"
#include "prefetch/stack.h"
#include "prefetch/strategies/debouncestrategy.h"
#include "prefetch/stream/answerreader.h"
#include "workspace/chat/chatsession.h"
#include "workspace/chat/followups.h"
#include "workspace/conversations/conversationstore.h"

#include <QFile>
#include <QMainWindow>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QToolButton>

using Gui::ChatDock;
using Gui::FollowUpChips;

namespace {

// No final full stop: typed at once and sent, it is not guessed while typed (a sentence's end
// would be after 30 ms), so every guess the provider sees is a suggestion's.
const QString Question = QStringLiteral("Explain what a prompt cache keeps between requests");

} // namespace

class tst_ChatFollowUps : public QObject, private TestSupport::ChatDockSuite
{
    Q_OBJECT

private slots:
    void initTestCase();
    void init();
    void cleanup();

    void theFirstSuggestionIsAnsweredFromItsGuess();
    void aSuggestionSentRarelyIsOfferedNotGuessed();
    void thePointerRestingOnASuggestionGuessesIt();
    void suggestionsAreReachedWithTheKeyboard();
    void typingHidesThemAndADraftIsNeverReplaced();
    void aFileWaitingToBeSentStopsTheGuess();
    void switchedOffNothingIsOfferedOrGuessed();
    void switchedOffWhileOfferedTheyGo();
    void theUsersOwnRepliesComeFirst();

private:
    void makeDock(const Prefetch::Settings &settings = {});
    // The store as a user who has sent `reply` after an answer `times` times leaves it (one
    // conversation each), then a new conversation in the dock.
    void haveSent(const QString &reply, int times);
    void askAndWait(const QString &text);
    FollowUpChips *chips() const { return m_dock->followUpChips(); }
};

void tst_ChatFollowUps::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);
    QVERIFY(startProvider());
}

void tst_ChatFollowUps::init()
{
    QVERIFY(openStore());
}

void tst_ChatFollowUps::cleanup()
{
    QVERIFY(closeDock());
}

void tst_ChatFollowUps::makeDock(const Prefetch::Settings &settings)
{
    m_stack = m_local.makeStack(&m_network, "rtt=0,prefill=1000000,decode=200", settings);
    QVERIFY(showDock());
}

void tst_ChatFollowUps::haveSent(const QString &reply, int times)
{
    for (int i = 0; i < times; ++i) {
        const qint64 id = *m_store->create(QStringLiteral("Earlier %1").arg(i));
        QVERIFY(m_store->appendMessage(id, Llm::Role::User, QStringLiteral("What is a cache?")));
        QVERIFY(m_store->appendMessage(id, Llm::Role::Assistant, QStringLiteral("A store of answers.")));
        QVERIFY(m_store->appendMessage(id, Llm::Role::User, reply));
        QVERIFY(m_store->appendMessage(id, Llm::Role::Assistant, QStringLiteral("A store.")));
    }
}

void tst_ChatFollowUps::askAndWait(const QString &text)
{
    QSignalSpy ended(m_dock->session(), &Gui::ChatSession::exchangeEnded);
    QTest::keyClicks(m_dock->input(), text);
    QTest::keyClick(m_dock->input(), Qt::Key_Return);
    QVERIFY(ended.wait(10000));
    QCOMPARE(ended.first().first().value<Gui::MessageState>(), Gui::MessageState::Complete);
}

void tst_ChatFollowUps::theFirstSuggestionIsAnsweredFromItsGuess()
{
    const QStringList offered = Gui::FollowUps::builtIn(false);
    haveSent(offered.constFirst(), 2);
    makeDock();
    // The conversation opened at the start ends with an answer read before: offered, not guessed.
    QTRY_VERIFY(chips()->isVisible());
    QVERIFY(m_stack->debounce()->suggestedFollowUp().isEmpty());
    m_dock->newConversation();
    // Nothing is offered before there is an answer.
    QVERIFY(!chips()->isVisible());
    askAndWait(Question);
    QTRY_VERIFY(chips()->isVisible());
    QCOMPARE(chips()->suggestions(), offered);
    QCOMPARE(chips()->button(0)->text(), offered.constFirst());
    // Said to be a suggestion, not sent until clicked.
    QVERIFY(chips()->button(0)->toolTip().contains(QStringLiteral("suggestion")));
    // The first one's answer was guessed as the answer ended, nothing sent as a message.
    QCOMPARE(m_stack->debounce()->suggestedFollowUp(), offered.constFirst());
    QCOMPARE(m_dock->session()->messages().size(), 2);

    QTest::mouseClick(chips()->button(0), Qt::LeftButton);
    QVERIFY(m_dock->isAnswering());
    QVERIFY(m_dock->currentAnswer()->isPrefetched());
    QCOMPARE(m_dock->session()->messages().at(2).content, offered.constFirst());
    QVERIFY(!chips()->isVisible()); // nothing to follow while an answer comes
    QSignalSpy ended(m_dock->session(), &Gui::ChatSession::exchangeEnded);
    QVERIFY(ended.wait(10000));
    QTRY_VERIFY(chips()->isVisible());
    QCOMPARE(m_stack->engine()->metrics().stats(Prefetch::Strategy::Debounce).hits
                 + m_stack->engine()->metrics().stats(Prefetch::Strategy::Debounce).partialHits,
             1);
}

void tst_ChatFollowUps::aSuggestionSentRarelyIsOfferedNotGuessed()
{
    // Sent once before, as one reply in three: offered first (a built-in one), not guessed.
    const QString first = Gui::FollowUps::builtIn(false).constFirst();
    haveSent(first, 1);
    haveSent(QStringLiteral("Go on"), 1);
    haveSent(QStringLiteral("In French"), 1);
    makeDock();
    m_dock->newConversation();
    const auto before = m_local.stats().prefetchRequests; // the suite's provider counts on
    askAndWait(Question);
    QTRY_VERIFY(chips()->isVisible());
    QCOMPARE(chips()->suggestions().constFirst(), first);
    QVERIFY(m_local.settle(&m_network, 300, 3000));
    QVERIFY(m_stack->debounce()->suggestedFollowUp().isEmpty());
    QCOMPARE(m_local.stats().prefetchRequests, before);
    // A click still sends it, asked for then.
    QTest::mouseClick(chips()->button(0), Qt::LeftButton);
    QVERIFY(m_dock->isAnswering());
    QVERIFY(!m_dock->currentAnswer()->isPrefetched());
    QCOMPARE(m_dock->session()->messages().at(2).content, first);
}

void tst_ChatFollowUps::thePointerRestingOnASuggestionGuessesIt()
{
    makeDock();
    askAndWait(Question);
    QTRY_VERIFY(chips()->isVisible());
    QVERIFY(m_stack->debounce()->suggestedFollowUp().isEmpty()); // no habit: not guessed at the end
    QToolButton *second = chips()->button(1);
    QTest::mouseMove(m_dock->input(), m_dock->input()->rect().center());
    QTest::mouseMove(second, second->rect().center());
    QVERIFY(second->underMouse());
    QVERIFY(m_stack->debounce()->suggestedFollowUp().isEmpty()); // not before it rested
    QTRY_COMPARE(m_stack->debounce()->suggestedFollowUp(), second->text());
    QTest::mouseClick(second, Qt::LeftButton);
    QVERIFY(m_dock->isAnswering());
    QVERIFY(m_dock->currentAnswer()->isPrefetched());
    // The status line says why it came at once: not a typing pause.
    QCOMPARE(m_dock->statusText(), QStringLiteral("Answer prepared in advance for this suggestion."));
}

void tst_ChatFollowUps::suggestionsAreReachedWithTheKeyboard()
{
    makeDock();
    askAndWait(Question);
    QTRY_VERIFY(chips()->isVisible());
    // Shift+Tab from the input: the last suggestion, then the one before it.
    m_dock->input()->setFocus();
    QTest::keyClick(m_dock->input(), Qt::Key_Backtab, Qt::ShiftModifier);
    QTRY_VERIFY(chips()->button(2)->hasFocus());
    QTest::keyClick(chips()->button(2), Qt::Key_Backtab, Qt::ShiftModifier);
    QTRY_VERIFY(chips()->button(1)->hasFocus());
    const QString second = chips()->button(1)->text();
    QTest::keyClick(chips()->button(1), Qt::Key_Return);
    QVERIFY(m_dock->isAnswering());
    QCOMPARE(m_dock->session()->messages().at(2).content, second);
    // The focus coming to it guessed it, as a pointer resting on it does.
    QVERIFY(m_dock->currentAnswer()->isPrefetched());
    QVERIFY(m_dock->input()->hasFocus()); // the buttons go with the offer
}

void tst_ChatFollowUps::typingHidesThemAndADraftIsNeverReplaced()
{
    haveSent(Gui::FollowUps::builtIn(false).constFirst(), 2);
    makeDock();
    m_dock->newConversation();
    askAndWait(Question);
    QTRY_VERIFY(chips()->isVisible());
    QToolButton *first = chips()->button(0);
    QVERIFY(!m_stack->debounce()->suggestedFollowUp().isEmpty());
    QTest::keyClicks(m_dock->input(), QStringLiteral("And what"));
    QVERIFY(!chips()->isVisible());
    // A draft other than the suggestion drops its guess.
    QVERIFY(m_stack->debounce()->suggestedFollowUp().isEmpty());
    // Even asked for directly, a suggestion does not replace the draft.
    m_dock->sendFollowUp(first->text(), 0);
    QCOMPARE(m_dock->input()->toPlainText(), QStringLiteral("And what"));
    QCOMPARE(m_dock->session()->messages().size(), 2);
    m_dock->input()->clear();
    QVERIFY(chips()->isVisible());
}

void tst_ChatFollowUps::aFileWaitingToBeSentStopsTheGuess()
{
    haveSent(Gui::FollowUps::builtIn(false).constFirst(), 2);
    makeDock();
    m_dock->newConversation();
    const QString path = m_dir->filePath(QStringLiteral("notes.txt"));
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write("Private notes that are not sent until the user sends them.\n");
    file.close();
    // A file attached for the next message while the answer comes: when it ends, the first
    // suggestion's guess would carry the file, so there is none.
    const auto before = m_local.stats().prefetchRequests; // the suite's provider counts on
    QSignalSpy ended(m_dock->session(), &Gui::ChatSession::exchangeEnded);
    QTest::keyClicks(m_dock->input(), Question);
    QTest::keyClick(m_dock->input(), Qt::Key_Return);
    QVERIFY(m_dock->isAnswering());
    QVERIFY(m_dock->attachFiles({path}));
    QVERIFY(ended.wait(10000));
    QTRY_VERIFY(chips()->isVisible()); // still offered: a click sends it with the file
    QVERIFY(m_local.settle(&m_network, 300, 3000));
    QVERIFY(m_stack->debounce()->suggestedFollowUp().isEmpty());
    QCOMPARE(m_local.stats().prefetchRequests, before);

    // The file taken off again (its chip's ✕): now the guess goes, without it.
    QTest::mouseClick(m_dock->attachmentChips()->removeButton(0), Qt::LeftButton);
    QTRY_COMPARE(m_stack->debounce()->suggestedFollowUp(), chips()->suggestions().constFirst());
    QTRY_COMPARE_WITH_TIMEOUT(m_local.stats().prefetchRequests, before + 1, 3000);
}

void tst_ChatFollowUps::switchedOffNothingIsOfferedOrGuessed()
{
    Prefetch::Settings settings;
    settings.debounce.suggestFollowUps = false;
    makeDock(settings);
    const auto before = m_local.stats().prefetchRequests; // the suite's provider counts on
    askAndWait(Question);
    QVERIFY(m_local.settle(&m_network, 300, 3000));
    QVERIFY(!chips()->isVisible());
    QVERIFY(m_dock->session()->followUps().isEmpty());
    QVERIFY(m_stack->debounce()->suggestedFollowUp().isEmpty());
    QCOMPARE(m_local.stats().prefetchRequests, before);
}

void tst_ChatFollowUps::switchedOffWhileOfferedTheyGo()
{
    makeDock();
    askAndWait(Question);
    QTRY_VERIFY(chips()->isVisible());
    // Switched off in Settings while they are shown: the application applies the settings to the
    // engine and tells the chat.
    Prefetch::Settings settings = m_stack->engine()->settings();
    settings.debounce.suggestFollowUps = false;
    m_stack->engine()->setSettings(settings);
    m_dock->prefetchSettingsChanged();
    QVERIFY(!chips()->isVisible());
    QVERIFY(m_dock->session()->followUps().isEmpty());
    // And back on: offered again for the same answer.
    settings.debounce.suggestFollowUps = true;
    m_stack->engine()->setSettings(settings);
    m_dock->prefetchSettingsChanged();
    QVERIFY(chips()->isVisible());
}

void tst_ChatFollowUps::theUsersOwnRepliesComeFirst()
{
    makeDock();
    // A reply sent after two answers, in two conversations: offered first from then on, and its
    // answer is the one guessed.
    const QString habit = QStringLiteral("As a table, please");
    for (int i = 0; i < 2; ++i) {
        if (i > 0)
            m_dock->newConversation();
        askAndWait(Question);
        askAndWait(habit);
    }
    m_dock->newConversation();
    askAndWait(Question);
    QTRY_VERIFY(chips()->isVisible());
    QCOMPARE(chips()->suggestions().constFirst(), habit);
    QCOMPARE(m_stack->debounce()->suggestedFollowUp(), habit);
    // Typed instead of clicked, it takes the guess over too.
    QTest::keyClicks(m_dock->input(), habit);
    QTest::keyClick(m_dock->input(), Qt::Key_Return);
    QVERIFY(m_dock->isAnswering());
    QVERIFY(m_dock->currentAnswer()->isPrefetched());
}

QTEST_MAIN(tst_ChatFollowUps)
#include "tst_chatfollowups.moc"
