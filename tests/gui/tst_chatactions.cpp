// The buttons on chat messages, driven as a user does in the real main window against the local
// provider on loopback: Copy (button and Ctrl+Shift+C), Regenerate (button and Ctrl+Shift+R: a
// fresh request at the provider, never a prefetch of the same prompt taken over; Esc stops it),
// Edit and resend (the conversation is cut at the edited question, in the store too), Delete
// (asked first; gone after the store is opened again).
#include "support/localproviderfixture.h"
#include "support/windowservices.h"
#include "gui/answer/markdownview.h"
#include "gui/chat/chatdock.h"
#include "gui/chat/chatinput.h"
#include "gui/chat/chattranscript.h"
#include "gui/mainwindow/documenttabs.h"
#include "gui/mainwindow/mainwindow.h"
#include "prefetch/engine.h"
#include "prefetch/prefetchsession.h"
#include "prefetch/prompts/actionprompts.h"
#include "prefetch/strategies/debouncestrategy.h"
#include "prefetch/strategies/hoverstrategy.h"
#include "prefetch/strategies/warmupstrategy.h"
#include "prefetch/strategies/workflowstrategy.h"
#include "prefetch/stream/answerreader.h"
#include "workspace/conversations/conversationstore.h"
#include "workspace/documents/document.h"

#include <QApplication>
#include <QClipboard>
#include <QLabel>
#include <QMessageBox>
#include <QNetworkAccessManager>
#include <QPushButton>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QTextBrowser>
#include <QToolButton>

#include <chrono>
#include <memory>

using Gui::ChatDock;
using Gui::MessageState;
using Gui::StoredMessage;
using Prefetch::Strategy;

namespace {

// Slow enough that an answer is still streaming when the test presses Esc.
const QByteArray SlowDecode = "rtt=0,prefill=1000000,decode=30";

} // namespace

class tst_ChatActions : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void init();
    void cleanup();

    void copyButtonAndShortcutCopyTheAnswer();
    void regenerateIsAFreshRequestNeverAPrefetch();
    void escStopsARegenerate();
    void editAndResendCutsTheConversation();
    void cancelEditKeepsEverything();
    void deleteAsksThenRemovesTheMessage();
    void aQuestionWhoseAnswerWasDeletedIsAskedAgain();

private:
    void makeWindow(const QByteArray &latency = {});
    void closeWindow();
    ChatDock *chat() const { return m_window->chatDock(); }
    // Types `text` into the chat's input and sends it with Enter; waits for the answer.
    void ask(const QString &text);
    QList<Gui::AnswerWidget *> answers() const { return chat()->findChildren<Gui::AnswerWidget *>(); }
    // The message widget's button `name` (chatCopy, chatRegenerate, chatEdit, chatDelete) of the
    // `n`-th message widget that has one, in transcript order.
    QToolButton *button(const char *name, qsizetype n) const;
    void click(QToolButton *button);
    QList<StoredMessage> stored() const;
    // The request the chat sends for `text` after `history` in free chat, as a first-time
    // request renders it (no seed): what a prefetch of the same prompt would be.
    Prefetch::RenderedRequest chatRequest(const QList<Llm::ChatMessage> &history, const QString &text) const;
    QString dbPath() const { return m_dir->filePath(QStringLiteral("conversations.sqlite")); }

    TestSupport::LocalProviderFixture m_local;
    QNetworkAccessManager m_network;
    std::unique_ptr<QTemporaryDir> m_dir;
    std::unique_ptr<Prefetch::Stack> m_stack;
    std::unique_ptr<Gui::ConversationStore> m_store;
    std::unique_ptr<Gui::MainWindow> m_window;
};

void tst_ChatActions::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);
    QVERIFY2(m_local.start(), qPrintable(m_local.errorString()));
}

void tst_ChatActions::init()
{
    m_dir = std::make_unique<QTemporaryDir>();
    QVERIFY(m_dir->isValid());
    makeWindow();
}

void tst_ChatActions::cleanup()
{
    closeWindow();
    QVERIFY(m_local.waitForNoOpenStream(3000));
}

void tst_ChatActions::makeWindow(const QByteArray &latency)
{
    closeWindow();
    // The main model answers everything here (its answers are what the checks expect); routing
    // to the fast model has its own suite, tst_chatrouting.
    Prefetch::Settings mainModelOnly;
    mainModelOnly.routing.enabled = false;
    m_stack = m_local.makeStack(&m_network, latency, mainModelOnly);
    m_store = std::make_unique<Gui::ConversationStore>(dbPath());
    const Gui::Services services = TestSupport::windowServices(*m_stack, m_store.get());
    m_window = std::make_unique<Gui::MainWindow>(services);
    m_window->resize(1200, 800);
    m_window->show();
    QApplication::setActiveWindow(m_window.get());
    QVERIFY(QTest::qWaitForWindowActive(m_window.get()));
    QVERIFY(chat() && chat()->isVisible());
}

void tst_ChatActions::closeWindow()
{
    if (m_window) {
        for (Gui::Document *document : m_window->tabs()->documents())
            document->setModified(false);
    }
    m_window.reset();
    m_store.reset();
    m_stack.reset();
}

void tst_ChatActions::ask(const QString &text)
{
    QSignalSpy ended(chat(), &ChatDock::answerEnded);
    chat()->input()->setFocus();
    QTest::keyClicks(chat()->input(), text);
    QTest::keyClick(chat()->input(), Qt::Key_Return);
    QVERIFY(chat()->isAnswering());
    QVERIFY(ended.wait(15000));
    QCOMPARE(ended.first().first().toBool(), true);
}

QToolButton *tst_ChatActions::button(const char *name, qsizetype n) const
{
    const QList<QToolButton *> buttons = chat()->transcript()->findChildren<QToolButton *>(QLatin1String(name));
    // findChildren gives creation order, which is transcript order: each rebuild makes them anew.
    return n < buttons.size() ? buttons.at(n) : nullptr;
}

void tst_ChatActions::click(QToolButton *button)
{
    QVERIFY(button);
    chat()->transcript()->ensureWidgetVisible(button);
    QTRY_VERIFY_WITH_TIMEOUT(button->isVisible() && button->isEnabled(), 2000);
    QTest::mouseClick(button, Qt::LeftButton);
}

QList<StoredMessage> tst_ChatActions::stored() const
{
    const auto messages = m_store->messages(chat()->currentConversationId());
    return messages ? *messages : QList<StoredMessage>{};
}

Prefetch::RenderedRequest tst_ChatActions::chatRequest(const QList<Llm::ChatMessage> &history,
                                                       const QString &text) const
{
    const auto compiled = Prefetch::chatTemplate(false).compile(m_stack->engine()->profile(), {});
    return compiled ? Prefetch::renderChatMessage(*compiled, history, m_stack->engine()->profile().model, text)
                    : Prefetch::RenderedRequest{};
}

// --- Copy ------------------------------------------------------------------------------------------

void tst_ChatActions::copyButtonAndShortcutCopyTheAnswer()
{
    ask(QStringLiteral("What does a lighthouse keeper do?"));
    ask(QStringLiteral("And what does the lamp burn?"));
    const QList<StoredMessage> messages = stored();
    QCOMPARE(messages.size(), 4);
    const QString first = messages.at(1).content;
    const QString second = messages.at(3).content;
    QVERIFY(!first.isEmpty() && !second.isEmpty() && first != second);

    // The button on the first answer: its Markdown, and the chat says so.
    QApplication::clipboard()->clear();
    click(button("chatCopy", 0));
    QCOMPARE(QApplication::clipboard()->text(), first);
    QVERIFY2(chat()->statusText().contains(QLocale().toString(first.size()))
                 || chat()->statusText().contains(QString::number(first.size())),
             qPrintable(chat()->statusText()));
    // Said, read, gone: the notice does not stay for minutes.
    QTRY_VERIFY_WITH_TIMEOUT(chat()->statusText().isEmpty(), int(ChatDock::NoticeLifetime.count()) + 3000);

    // Ctrl+Shift+C in the text of the first answer copies that one; the chat stays open
    // (the same keys elsewhere show the chat).
    QApplication::clipboard()->clear();
    auto *browser = answers().at(0)->view()->findChild<QTextBrowser *>();
    QVERIFY(browser);
    QTest::mouseClick(browser->viewport(), Qt::LeftButton, {}, QPoint(5, 5));
    QTRY_VERIFY_WITH_TIMEOUT(browser->hasFocus(), 2000);
    QTest::keyClick(browser, Qt::Key_C, Qt::ControlModifier | Qt::ShiftModifier);
    QCOMPARE(QApplication::clipboard()->text(), first);
    QVERIFY(chat()->isVisible());

    // With the focus on the transcript itself, the newest answer.
    QApplication::clipboard()->clear();
    chat()->transcript()->setFocus(Qt::TabFocusReason);
    QTRY_VERIFY_WITH_TIMEOUT(chat()->transcript()->hasFocus(), 2000);
    QTest::keyClick(chat()->transcript(), Qt::Key_C, Qt::ControlModifier | Qt::ShiftModifier);
    QCOMPARE(QApplication::clipboard()->text(), second);
    QVERIFY(chat()->isVisible());
}

// --- Regenerate ------------------------------------------------------------------------------------

void tst_ChatActions::regenerateIsAFreshRequestNeverAPrefetch()
{
    const QString question = QStringLiteral("What does a lighthouse keeper do?");
    ask(question);
    const QList<StoredMessage> before = stored();
    QCOMPARE(before.size(), 2);
    const QString oldAnswer = before.at(1).content;
    // The first answer was the chat's request for the question with no history, no seed.
    const Prefetch::RenderedRequest same = chatRequest({}, question);
    QVERIFY(!same.fingerprint.isEmpty());
    QCOMPARE(TestSupport::freshText(&m_network, m_stack->engine()->profile(), same), oldAnswer);

    // A guess of exactly that prompt is live: Engine::request() would take it over.
    const qint64 prefetchesBefore = m_local.stats().prefetchRequests;
    Prefetch::PrefetchSession *guess = m_stack->engine()->prefetch(Strategy::Hover, same, std::chrono::seconds(30));
    QVERIFY(guess);
    QCOMPARE(m_stack->engine()->liveSession(same.fingerprint), guess);
    QTRY_COMPARE_WITH_TIMEOUT(m_local.stats().prefetchRequests, prefetchesBefore + 1, 5000);
    QTRY_VERIFY_WITH_TIMEOUT(guess->state() != Prefetch::PrefetchSession::State::Pending, 5000);
    const auto stats = m_local.stats();
    const auto foreground = stats.billedByPurpose.value(QStringLiteral("foreground"));

    // The button is on the last answer only; clicking it replaces the answer.
    QSignalSpy ended(chat(), &ChatDock::answerEnded);
    click(button("chatRegenerate", 0));
    QVERIFY(chat()->isAnswering());
    QVERIFY(!chat()->currentAnswer()->isPrefetched());
    QVERIFY(ended.wait(15000));
    QCOMPARE(ended.first().first().toBool(), true);

    // A new request reached the provider, in the foreground; nothing was taken over.
    QCOMPARE(m_local.stats().requestsServed, stats.requestsServed + 1);
    QCOMPARE(m_local.stats().prefetchRequests, stats.prefetchRequests);
    QVERIFY(m_local.stats().billedByPurpose.value(QStringLiteral("foreground")).output > foreground.output);
    const auto hover = m_stack->engine()->metrics().stats(Strategy::Hover);
    QCOMPARE(hover.hits + hover.partialHits, 0);
    QCOMPARE(m_stack->engine()->liveSession(same.fingerprint), guess); // still there, unused

    // One answer, a new one, in the transcript and the store.
    const QList<StoredMessage> after = stored();
    QCOMPARE(after.size(), 2);
    QCOMPARE(after.at(0).content, question);
    QCOMPARE(after.at(1).state, MessageState::Complete);
    QVERIFY(!after.at(1).content.isEmpty());
    QVERIFY2(after.at(1).content != oldAnswer, qPrintable(after.at(1).content));
    QCOMPARE(answers().size(), 1);
    QCOMPARE(answers().at(0)->markdown(), after.at(1).content);

    // Ctrl+Shift+R from the input does the same, and once a second exchange follows, only its
    // answer offers Regenerate.
    ended.clear();
    chat()->input()->setFocus();
    const qint64 served = m_local.stats().requestsServed;
    QTest::keyClick(chat()->input(), Qt::Key_R, Qt::ControlModifier | Qt::ShiftModifier);
    QVERIFY(chat()->isAnswering());
    QVERIFY(ended.wait(15000));
    QCOMPARE(m_local.stats().requestsServed, served + 1);
    QCOMPARE(stored().size(), 2);
    ask(QStringLiteral("And what does the lamp burn?"));
    QTRY_VERIFY_WITH_TIMEOUT(!button("chatRegenerate", 0)->isVisible() && button("chatRegenerate", 1)->isVisible(),
                             2000);
    m_stack->engine()->cancel(guess);
}

void tst_ChatActions::escStopsARegenerate()
{
    makeWindow(SlowDecode);
    QSignalSpy ended(chat(), &ChatDock::answerEnded);
    chat()->input()->setFocus();
    QTest::keyClicks(chat()->input(), QStringLiteral("Write a long story about caches."));
    QTest::keyClick(chat()->input(), Qt::Key_Return);
    QTRY_VERIFY_WITH_TIMEOUT(chat()->currentAnswer() && !chat()->currentAnswer()->text().isEmpty(), 5000);
    QTest::keyClick(chat()->input(), Qt::Key_Escape);
    QTRY_COMPARE_WITH_TIMEOUT(ended.count(), 1, 3000);
    QVERIFY(m_local.waitForNoOpenStream(3000));

    // A stopped answer can be asked for again; Esc stops that one too.
    const auto stats = m_local.stats();
    ended.clear();
    QTest::keyClick(chat()->input(), Qt::Key_R, Qt::ControlModifier | Qt::ShiftModifier);
    QVERIFY(chat()->isAnswering());
    QTRY_VERIFY_WITH_TIMEOUT(!chat()->currentAnswer()->text().isEmpty(), 5000);
    QTest::keyClick(chat()->input(), Qt::Key_Escape);
    QTRY_COMPARE_WITH_TIMEOUT(ended.count(), 1, 3000);
    QCOMPARE(ended.first().first().toBool(), false);
    QVERIFY(!chat()->isAnswering());
    QTRY_COMPARE_WITH_TIMEOUT(m_local.stats().streamsCancelled, stats.streamsCancelled + 1, 3000);
    QCOMPARE(m_local.stats().requestsServed, stats.requestsServed + 1);
    const QList<StoredMessage> messages = stored();
    QCOMPARE(messages.size(), 2);
    QCOMPARE(messages.at(1).state, MessageState::Partial);
    QVERIFY(!messages.at(1).content.isEmpty());
    QCOMPARE(chat()->statusText(), QStringLiteral("Stopped."));
}

// --- Edit and resend -------------------------------------------------------------------------------

void tst_ChatActions::editAndResendCutsTheConversation()
{
    ask(QStringLiteral("What does a lighthouse keeper do?"));
    ask(QStringLiteral("And what does the lamp burn?"));
    ask(QStringLiteral("When was the tower built?"));
    const QList<StoredMessage> before = stored();
    QCOMPARE(before.size(), 6);
    const qint64 conversation = chat()->currentConversationId();

    // Edit on the second question: its text in the input, a notice over it.
    click(button("chatEdit", 1));
    QCOMPARE(chat()->input()->toPlainText(), before.at(2).content);
    auto *notice = chat()->findChild<QWidget *>(QStringLiteral("chatEditNotice"));
    QVERIFY(notice && notice->isVisible());
    QVERIFY(chat()->input()->hasFocus());
    // Buttons that would change the conversation wait until the edit is sent or cancelled.
    QVERIFY(!button("chatDelete", 0)->isEnabled());
    QVERIFY(!chat()->regenerateAction()->isEnabled());

    // New text; the pause prefetches it with the history before the edited question, and Enter
    // takes that prefetch over.
    const QString edited = QStringLiteral("How tall is the tower?");
    QSignalSpy prefetched(m_stack->debounce(), &Prefetch::DebounceStrategy::prefetchStarted);
    QTest::keyClick(chat()->input(), Qt::Key_A, Qt::ControlModifier);
    QTest::keyClicks(chat()->input(), edited);
    QVERIFY(prefetched.wait(5000));
    QSignalSpy ended(chat(), &ChatDock::answerEnded);
    QTest::keyClick(chat()->input(), Qt::Key_Return);
    QVERIFY(chat()->isAnswering());
    QVERIFY(chat()->currentAnswer()->isPrefetched());
    QVERIFY(ended.wait(15000));
    QVERIFY(!notice->isVisible());

    // The answer is the one to the cut conversation: the first exchange, then the new text.
    const QList<Llm::ChatMessage> history = {{Llm::Role::User, before.at(0).content},
                                             {Llm::Role::Assistant, before.at(1).content}};
    const QString expected = TestSupport::freshText(&m_network, m_stack->engine()->profile(),
                                                    chatRequest(history, edited));
    QVERIFY(!expected.startsWith(u'<'));
    QList<StoredMessage> after = stored();
    QCOMPARE(after.size(), 4);
    QCOMPARE(after.at(3).content, expected);
    QCOMPARE(answers().size(), 2);
    QVERIFY(!chat()->transcriptText().contains(before.at(4).content));

    // After a restart: the cut holds.
    closeWindow();
    m_store = std::make_unique<Gui::ConversationStore>(dbPath());
    const auto reopened = m_store->messages(conversation);
    QVERIFY(reopened);
    QCOMPARE(reopened->size(), 4);
    QCOMPARE(reopened->at(0).id, before.at(0).id);
    QCOMPARE(reopened->at(1).content, before.at(1).content);
    QCOMPARE(reopened->at(2).content, edited);
    QCOMPARE(reopened->at(3).content, expected);
    QCOMPARE(m_store->conversation(conversation)->messageCount, 4);
}

void tst_ChatActions::cancelEditKeepsEverything()
{
    ask(QStringLiteral("What does a lighthouse keeper do?"));
    ask(QStringLiteral("And what does the lamp burn?"));
    QTest::keyClicks(chat()->input(), QStringLiteral("a draft"));
    click(button("chatEdit", 0));
    QCOMPARE(chat()->input()->toPlainText(), stored().at(0).content);
    auto *cancel = chat()->findChild<QToolButton *>(QStringLiteral("chatCancelEdit"));
    QVERIFY(cancel && cancel->isVisible());
    QTest::mouseClick(cancel, Qt::LeftButton);
    QCOMPARE(chat()->input()->toPlainText(), QStringLiteral("a draft"));
    QVERIFY(!chat()->findChild<QWidget *>(QStringLiteral("chatEditNotice"))->isVisible());
    QCOMPARE(stored().size(), 4);
    QVERIFY(button("chatDelete", 0)->isEnabled());

    // Sent now, the draft follows the whole conversation.
    QTest::keyClick(chat()->input(), Qt::Key_A, Qt::ControlModifier);
    ask(QStringLiteral("Thanks"));
    QCOMPARE(stored().size(), 6);
}

// --- Delete ----------------------------------------------------------------------------------------

void tst_ChatActions::deleteAsksThenRemovesTheMessage()
{
    ask(QStringLiteral("What does a lighthouse keeper do?"));
    ask(QStringLiteral("And what does the lamp burn?"));
    const QList<StoredMessage> before = stored();
    QCOMPARE(before.size(), 4);
    const qint64 conversation = chat()->currentConversationId();

    // Delete on the first answer (the second delete button: the question has the first). Cancel
    // keeps it.
    click(button("chatDelete", 1));
    QMessageBox *box = nullptr;
    QTRY_VERIFY_WITH_TIMEOUT((box = chat()->findChild<QMessageBox *>()) && box->isVisible(), 2000);
    box->button(QMessageBox::Cancel)->click();
    QTRY_VERIFY_WITH_TIMEOUT(!chat()->findChild<QMessageBox *>(), 2000);
    QCOMPARE(stored().size(), 4);

    click(button("chatDelete", 1));
    QTRY_VERIFY_WITH_TIMEOUT((box = chat()->findChild<QMessageBox *>()) && box->isVisible(), 2000);
    QAbstractButton *remove = nullptr;
    for (QAbstractButton *b : box->buttons()) {
        if (box->buttonRole(b) == QMessageBox::DestructiveRole)
            remove = b;
    }
    QVERIFY(remove);
    QTest::mouseClick(remove, Qt::LeftButton);
    QTRY_COMPARE_WITH_TIMEOUT(stored().size(), 3, 2000);
    QCOMPARE(answers().size(), 1);
    QVERIFY(!chat()->transcriptText().contains(before.at(1).content));
    QVERIFY(chat()->transcriptText().contains(before.at(3).content));

    // A question can go too. The next message's history is what the transcript shows: the
    // first question and the answer that now follows it.
    click(button("chatDelete", 1)); // the second question's
    QTRY_VERIFY_WITH_TIMEOUT((box = chat()->findChild<QMessageBox *>()) && box->isVisible(), 2000);
    for (QAbstractButton *b : box->buttons()) {
        if (box->buttonRole(b) == QMessageBox::DestructiveRole)
            QTest::mouseClick(b, Qt::LeftButton);
    }
    QTRY_COMPARE_WITH_TIMEOUT(stored().size(), 2, 2000);
    const QString next = QStringLiteral("Thanks");
    ask(next);
    const QList<Llm::ChatMessage> history = {{Llm::Role::User, before.at(0).content},
                                             {Llm::Role::Assistant, before.at(3).content}};
    const QString expected = TestSupport::freshText(&m_network, m_stack->engine()->profile(),
                                                    chatRequest(history, next));
    QCOMPARE(stored().last().content, expected);

    // After a restart: gone for good.
    closeWindow();
    m_store = std::make_unique<Gui::ConversationStore>(dbPath());
    const auto reopened = m_store->messages(conversation);
    QVERIFY(reopened);
    QCOMPARE(reopened->size(), 4);
    QCOMPARE(reopened->at(0).content, before.at(0).content);
    QCOMPARE(reopened->at(1).content, before.at(3).content);
    QCOMPARE(reopened->at(2).content, next);
}

void tst_ChatActions::aQuestionWhoseAnswerWasDeletedIsAskedAgain()
{
    const QString question = QStringLiteral("What does a lighthouse keeper do?");
    ask(question);
    QCOMPARE(stored().size(), 2);
    // While it has its answer, the question offers nothing of the kind.
    QVERIFY(!button("chatAskAgain", 0)->isVisible());
    const auto deleteAnswer = [this] {
        click(button("chatDelete", 1));
        QMessageBox *box = nullptr;
        QTRY_VERIFY_WITH_TIMEOUT((box = chat()->findChild<QMessageBox *>()) && box->isVisible(), 2000);
        for (QAbstractButton *b : box->buttons()) {
            if (box->buttonRole(b) == QMessageBox::DestructiveRole)
                QTest::mouseClick(b, Qt::LeftButton);
        }
        QTRY_COMPARE_WITH_TIMEOUT(stored().size(), 1, 2000);
    };
    deleteAnswer();

    // The question is left without an answer: Ask Again on it asks it.
    QSignalSpy ended(chat(), &ChatDock::answerEnded);
    click(button("chatAskAgain", 0));
    QVERIFY(ended.wait(15000));
    QCOMPARE(ended.first().first().toBool(), true);
    QCOMPARE(stored().size(), 2);
    QCOMPARE(stored().at(0).content, question);
    QCOMPARE(stored().at(1).role, Llm::Role::Assistant);
    QVERIFY(!stored().at(1).content.isEmpty());
    QVERIFY(!button("chatAskAgain", 0)->isVisible());

    // And Ctrl+Shift+R, from the input, as for an answer.
    deleteAnswer();
    m_window->activateWindow(); // the question about deleting had it
    chat()->input()->setFocus();
    QTRY_VERIFY(chat()->input()->hasFocus());
    ended.clear();
    QTest::keyClick(chat()->input(), Qt::Key_R, Qt::ControlModifier | Qt::ShiftModifier);
    QVERIFY(ended.wait(15000));
    QCOMPARE(stored().size(), 2);
    QCOMPARE(stored().at(1).role, Llm::Role::Assistant);
}

QTEST_MAIN(tst_ChatActions)
#include "tst_chatactions.moc"
