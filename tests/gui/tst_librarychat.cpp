// Chatting with the library, as a user does it: a folder of English and Chinese notes is
// indexed, the chat is switched to "About my library" with the keyboard, a question typed and
// sent with Enter. The pause in typing retrieved the passages and prefetched the answer with
// them; Enter retrieves the same passages, so the request is the same and the prefetch is taken
// over (nothing asked afresh). The local engine answers from the passages with citations [n],
// which are links: a click opens the file at the passage, selected; a PDF's passage says its page
// in the link's tooltip and opens the PDF through QDesktopServices (caught here by a URL handler).
// After a restart (a new store on the same file, a new window) the conversation's earlier
// answers still have their citation links, and they open their passages.
#include "support/localproviderfixture.h"
#include "support/minimalpdf.h"
#include "support/windowservices.h"
#include "gui/answer/markdownview.h"
#include "gui/chat/chatdock.h"
#include "gui/chat/chatinput.h"
#include "gui/chat/chattranscript.h"
#include "gui/mainwindow/documenttab.h"
#include "gui/mainwindow/documenttabs.h"
#include "gui/mainwindow/mainwindow.h"
#include "knowledge/library.h"
#include "prefetch/engine.h"
#include "prefetch/strategies/debouncestrategy.h"
#include "prefetch/strategies/hoverstrategy.h"
#include "prefetch/strategies/warmupstrategy.h"
#include "prefetch/strategies/workflowstrategy.h"
#include "prefetch/stream/answerreader.h"
#include "workspace/conversations/conversationstore.h"
#include "workspace/documents/document.h"

#include <QApplication>
#include <QComboBox>
#include <QDesktopServices>
#include <QDir>
#include <QFile>
#include <QInputMethodEvent>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QTextBlock>
#include <QTextBrowser>

#include <algorithm>
#include <memory>

using Prefetch::Strategy;

const QString LighthouseNote = QStringLiteral(
    "# Lighthouse\n\nThe harbour has a small museum.\n\n## Keeper\n\n"
    "The keeper climbs the tower every evening at dusk. He trims the wick first.\n\n"
    "## Lamp\n\nThe lamp burns whale oil until dawn.\n");

// Where QDesktopServices sends file URLs during the test: what would have opened the PDF viewer.
class UrlCatcher : public QObject
{
    Q_OBJECT

public:
    QList<QUrl> opened;

public slots:
    void open(const QUrl &url) { opened.append(url); }
};

class tst_LibraryChat : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void cleanupTestCase();
    void askTheLibraryAndFollowACitation();
    void passagesChangedAfterThePauseAreSentAtEnter();
    void aPdfCitationOpensTheViewerAndNamesThePage();
    void citationsStillOpenAfterARestart();

private:
    static bool write(const QString &path, const QString &text);
    // Types `question` and sends it with Enter. `prefetched`: after the pause that prefetches
    // it, and the answer must be that prefetch, taken over; otherwise at once, a fresh request.
    void ask(const QString &question, bool prefetched);
    // Clicks the link of citation [n] in the newest answer (or `answer`).
    void clickCitation(int n, Gui::AnswerWidget *answer = nullptr);
    // The character format of citation [n]'s link in `answer`; invalid when there is no link.
    static QTextCharFormat citationFormat(Gui::AnswerWidget *answer, int n, int *position = nullptr);
    void makeWindow();
    QString newestAnswer() const;

    TestSupport::LocalProviderFixture m_local{u"instant"};
    QNetworkAccessManager m_network;
    QTemporaryDir m_dir;
    std::unique_ptr<Prefetch::Stack> m_stack;
    std::unique_ptr<Gui::ConversationStore> m_store;
    std::unique_ptr<Knowledge::Library> m_library;
    std::unique_ptr<Gui::MainWindow> m_window;
};

bool tst_LibraryChat::write(const QString &path, const QString &text)
{
    QDir().mkpath(QFileInfo(path).absolutePath());
    QFile file(path);
    const QByteArray bytes = text.toUtf8();
    return file.open(QIODevice::WriteOnly) && file.write(bytes) == bytes.size();
}

void tst_LibraryChat::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);
    QVERIFY(m_dir.isValid());
    QVERIFY2(m_local.start(), qPrintable(m_local.errorString()));
    const QString notes = m_dir.filePath(QStringLiteral("notes"));
    QVERIFY(write(notes + QStringLiteral("/lighthouse.md"), LighthouseNote));
    QVERIFY(
        write(notes + QStringLiteral("/茶.md"),
              QStringLiteral("# 龙井\n\n龙井茶产于杭州西湖一带。清明前采摘的最好。\n\n# 普洱\n\n普洱茶产于云南。\n")));
    QFile pdf(notes + QStringLiteral("/harbour.pdf"));
    QVERIFY(pdf.open(QIODevice::WriteOnly));
    pdf.write(TestSupport::minimalPdf({QStringLiteral("Harbour report\nShips came and went all year."),
                                       QStringLiteral("Finances\nThe quay crane costs ninety guilders a month.")}));
    pdf.close();

    Knowledge::Library::Options options;
    options.databasePath = m_dir.filePath(QStringLiteral("index/index.sqlite"));
    m_library = std::make_unique<Knowledge::Library>(options);
    QSignalSpy indexed(m_library.get(), &Knowledge::Library::indexingFinished);
    m_library->setFolders({notes});
    QVERIFY(indexed.wait(20000));

    m_stack = m_local.makeStack(&m_network);
    makeWindow();
}

void tst_LibraryChat::makeWindow()
{
    m_store = std::make_unique<Gui::ConversationStore>(m_dir.filePath(QStringLiteral("conversations.sqlite")));
    const Gui::Services services = TestSupport::windowServices(*m_stack, m_store.get(), m_library.get());
    m_window = std::make_unique<Gui::MainWindow>(services);
    m_window->show();
    QApplication::setActiveWindow(m_window.get());
    QVERIFY(QTest::qWaitForWindowActive(m_window.get()));
}

void tst_LibraryChat::cleanupTestCase()
{
    if (m_window) {
        for (Gui::Document *document : m_window->tabs()->documents())
            document->setModified(false);
    }
    m_window.reset();
    m_library.reset();
    m_store.reset();
    m_stack.reset();
}

QString tst_LibraryChat::newestAnswer() const
{
    const QList<Gui::AnswerWidget *> answers = m_window->chatDock()->findChildren<Gui::AnswerWidget *>();
    return answers.isEmpty() ? QString() : answers.constLast()->view()->plainText();
}

void tst_LibraryChat::ask(const QString &question, bool prefetched)
{
    Gui::ChatDock *chat = m_window->chatDock();
    const auto before = m_local.stats();
    const auto takenBefore = m_stack->engine()->metrics().stats(Strategy::Debounce).hits
                             + m_stack->engine()->metrics().stats(Strategy::Debounce).partialHits;
    QSignalSpy started(m_stack->debounce(), &Prefetch::DebounceStrategy::prefetchStarted);
    chat->input()->setFocus();
    for (const QChar c : question) {
        if (c.unicode() < 0x80) {
            QTest::keyClick(chat->input(), c.toLatin1());
        } else {
            // Chinese arrives from an input method, as a committed string.
            QInputMethodEvent commit;
            commit.setCommitString(QString(c));
            QApplication::sendEvent(chat->input(), &commit);
        }
    }
    if (prefetched)
        QVERIFY(started.wait(5000)); // the pause: passages retrieved for the draft, the answer prefetched

    QSignalSpy ended(chat, &Gui::ChatDock::answerEnded);
    QTest::keyClick(chat->input(), Qt::Key_Return);
    QVERIFY(chat->isAnswering());
    QCOMPARE(chat->currentAnswer()->isPrefetched(), prefetched);
    QVERIFY(ended.wait(15000));
    QCOMPARE(ended.first().first().toBool(), true);
    if (!prefetched)
        return;
    // The final text retrieved the same passages: the same request, taken over; nothing was
    // asked afresh in the foreground.
    const auto debounce = m_stack->engine()->metrics().stats(Strategy::Debounce);
    QCOMPARE(debounce.hits + debounce.partialHits, takenBefore + 1);
    QCOMPARE(m_local.stats().prefetchRequests, before.prefetchRequests + 1);
    QCOMPARE(m_local.stats().billedByPurpose.value(QStringLiteral("foreground")),
             before.billedByPurpose.value(QStringLiteral("foreground")));
}

QTextCharFormat tst_LibraryChat::citationFormat(Gui::AnswerWidget *answer, int n, int *position)
{
    auto *browser = answer->view()->findChild<QTextBrowser *>();
    if (!browser)
        return {};
    const QString href = QStringLiteral("cite:%1").arg(n);
    // Where the link is: the first character whose format carries it.
    for (QTextBlock block = browser->document()->begin(); block.isValid(); block = block.next()) {
        for (auto it = block.begin(); !it.atEnd(); ++it) {
            if (it.fragment().charFormat().anchorHref() == href) {
                if (position)
                    *position = it.fragment().position() + 1;
                return it.fragment().charFormat();
            }
        }
    }
    return {};
}

void tst_LibraryChat::clickCitation(int n, Gui::AnswerWidget *answer)
{
    if (!answer) {
        const QList<Gui::AnswerWidget *> answers = m_window->chatDock()->findChildren<Gui::AnswerWidget *>();
        QVERIFY(!answers.isEmpty());
        answer = answers.constLast();
    }
    auto *browser = answer->view()->findChild<QTextBrowser *>();
    QVERIFY(browser);
    int position = -1;
    citationFormat(answer, n, &position);
    QVERIFY2(position >= 0, qPrintable(browser->toPlainText()));
    QTextCursor cursor(browser->document());
    cursor.setPosition(position);
    browser->setTextCursor(cursor);
    browser->ensureCursorVisible();
    const QPoint at = browser->cursorRect(cursor).center();
    QTest::mouseClick(browser->viewport(), Qt::LeftButton, {}, at);
}

void tst_LibraryChat::askTheLibraryAndFollowACitation()
{
    Gui::ChatDock *chat = m_window->chatDock();
    QVERIFY(chat);
    chat->show();
    // The mode, chosen with the keyboard: "About my library" is the last entry.
    QComboBox *mode = chat->modeSelector();
    QCOMPARE(mode->itemText(mode->count() - 1), QStringLiteral("About my library"));
    mode->setFocus();
    QTest::keyClick(mode, Qt::Key_End);
    QCOMPARE(chat->mode(), Gui::ConversationMode::Library);

    ask(QStringLiteral("When does the keeper climb the tower?"), true);
    if (QTest::currentTestFailed())
        return;
    // Answered from the passage, citing it.
    QTRY_VERIFY_WITH_TIMEOUT(newestAnswer().contains(
                                 QLatin1String("The keeper climbs the tower every evening at dusk")),
                             2000);
    QVERIFY2(newestAnswer().contains(QLatin1String("[1]")), qPrintable(newestAnswer()));

    const QString lighthouse = QDir(m_dir.filePath(QStringLiteral("notes"))).filePath(QStringLiteral("lighthouse.md"));
    clickCitation(1);
    if (QTest::currentTestFailed())
        return;
    QTRY_VERIFY_WITH_TIMEOUT(m_window->tabs()->currentDocument()
                                 && m_window->tabs()->currentDocument()->filePath() == lighthouse,
                             3000);
    const QString selected = m_window->tabs()->currentTab()->textCursor().selectedText();
    QVERIFY2(selected.contains(QLatin1String("The keeper climbs the tower")), qPrintable(selected));
    QVERIFY(!selected.contains(QLatin1String("whale oil"))); // the passage, not the file

    // In Chinese, from the Chinese note.
    // Sent at once (no pause): retrieved at Enter.
    ask(QStringLiteral("龙井茶产于哪里？"), false);
    if (QTest::currentTestFailed())
        return;
    QTRY_VERIFY_WITH_TIMEOUT(newestAnswer().contains(QStringLiteral("杭州西湖")), 2000);
    clickCitation(1);
    const QString tea = QDir(m_dir.filePath(QStringLiteral("notes"))).filePath(QStringLiteral("茶.md"));
    QTRY_VERIFY_WITH_TIMEOUT(m_window->tabs()->currentDocument()->filePath() == tea, 3000);
    QVERIFY(m_window->tabs()->currentTab()->textCursor().selectedText().contains(QStringLiteral("龙井茶产于杭州西湖")));
}

void tst_LibraryChat::passagesChangedAfterThePauseAreSentAtEnter()
{
    Gui::ChatDock *chat = m_window->chatDock();
    QCOMPARE(chat->mode(), Gui::ConversationMode::Library);
    const auto cancelledBefore = m_stack->engine()->metrics().stats(Strategy::Debounce).cancelled;
    QSignalSpy started(m_stack->debounce(), &Prefetch::DebounceStrategy::prefetchStarted);
    chat->input()->setFocus();
    QTest::keyClicks(chat->input(), QStringLiteral("Who trims the wick of the keeper's lamp?"));
    QVERIFY(started.wait(5000));

    // The note changes after the pause: its passages are not the ones prefetched with.
    QSignalSpy changed(m_library.get(), &Knowledge::Library::contentsChanged);
    QVERIFY(
        write(m_dir.filePath(QStringLiteral("notes/lighthouse.md")),
              QStringLiteral("# Lighthouse\n\n## Keeper\n\nThe keeper trims the wick of the brass lamp at nine.\n")));
    QVERIFY(changed.wait(15000));
    // The prefetch made from the old passages is let go.
    QTRY_VERIFY_WITH_TIMEOUT(m_stack->engine()->metrics().stats(Strategy::Debounce).cancelled > cancelledBefore, 3000);

    QSignalSpy ended(chat, &Gui::ChatDock::answerEnded);
    QTest::keyClick(chat->input(), Qt::Key_Return);
    QVERIFY(ended.wait(15000));
    QVERIFY2(newestAnswer().contains(QLatin1String("brass lamp at nine")), qPrintable(newestAnswer()));
    QVERIFY(!newestAnswer().contains(QLatin1String("at dusk")));
}

void tst_LibraryChat::aPdfCitationOpensTheViewerAndNamesThePage()
{
    Gui::ChatDock *chat = m_window->chatDock();
    QCOMPARE(chat->mode(), Gui::ConversationMode::Library);
    ask(QStringLiteral("How much does the quay crane cost?"), false);
    if (QTest::currentTestFailed())
        return;
    QTRY_VERIFY_WITH_TIMEOUT(newestAnswer().contains(QLatin1String("The quay crane costs ninety guilders a month")),
                             2000);
    const QString pdf = QDir(m_dir.filePath(QStringLiteral("notes"))).filePath(QStringLiteral("harbour.pdf"));
    Gui::AnswerWidget *answer = chat->findChildren<Gui::AnswerWidget *>().constLast();
    // The citation that points into the PDF, by its tooltip: the file and the page.
    int cited = 0;
    for (int n = 1; n <= 5 && cited == 0; ++n) {
        if (citationFormat(answer, n).toolTip().contains(QDir::toNativeSeparators(pdf)))
            cited = n;
    }
    QVERIFY2(cited > 0, qPrintable(newestAnswer()));
    const QString tip = citationFormat(answer, cited).toolTip();
    QVERIFY2(tip.contains(QLatin1String("page 2")) && tip.contains(QLatin1String("PDF viewer")), qPrintable(tip));

    UrlCatcher catcher;
    QDesktopServices::setUrlHandler(QStringLiteral("file"), &catcher, "open");
    const Gui::Document *before = m_window->tabs()->currentDocument();
    clickCitation(cited, answer);
    QTRY_COMPARE_WITH_TIMEOUT(catcher.opened.size(), 1, 3000);
    QDesktopServices::unsetUrlHandler(QStringLiteral("file"));
    QCOMPARE(catcher.opened.first(), QUrl::fromLocalFile(pdf));
    // Not in a text tab.
    QCOMPARE(m_window->tabs()->currentDocument(), before);
    QVERIFY(std::ranges::none_of(m_window->tabs()->documents(),
                                 [&](const Gui::Document *d) { return d->filePath() == pdf; }));
}

void tst_LibraryChat::citationsStillOpenAfterARestart()
{
    // The conversation so far: the keeper's answer first, with its citation [1] to lighthouse.md.
    const qsizetype answers = m_window->chatDock()->findChildren<Gui::AnswerWidget *>().size();
    QVERIFY(answers >= 3);
    for (Gui::Document *document : m_window->tabs()->documents())
        document->setModified(false);
    m_window.reset();
    m_store.reset();
    // The note as it was when the keeper's answer cited it (a test above rewrote it).
    const QString lighthouse = QDir(m_dir.filePath(QStringLiteral("notes"))).filePath(QStringLiteral("lighthouse.md"));
    QVERIFY(write(lighthouse, LighthouseNote));
    makeWindow();
    if (QTest::currentTestFailed())
        return;
    Gui::ChatDock *chat = m_window->chatDock();
    chat->show();
    QTRY_COMPARE_WITH_TIMEOUT(chat->findChildren<Gui::AnswerWidget *>().size(), answers, 3000);
    Gui::AnswerWidget *first = chat->findChildren<Gui::AnswerWidget *>().constFirst();
    QVERIFY2(first->view()->plainText().contains(QLatin1String("at dusk")), qPrintable(first->view()->plainText()));
    QVERIFY(citationFormat(first, 1).toolTip().contains(QDir::toNativeSeparators(lighthouse)));
    clickCitation(1, first);
    if (QTest::currentTestFailed())
        return;
    QTRY_VERIFY_WITH_TIMEOUT(m_window->tabs()->currentDocument()
                                 && m_window->tabs()->currentDocument()->filePath() == lighthouse,
                             3000);
    const QString selected = m_window->tabs()->currentTab()->textCursor().selectedText();
    QVERIFY2(selected.contains(QLatin1String("The keeper climbs the tower")), qPrintable(selected));
    QVERIFY(!selected.contains(QLatin1String("whale oil")));
}

QTEST_MAIN(tst_LibraryChat)
#include "tst_librarychat.moc"
