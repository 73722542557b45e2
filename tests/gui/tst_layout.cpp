// The window's layout holds still while it is used: it fits in 800 pixels with every button
// whole, the hover's "ready" mark moves no button, the chat dock keeps its width while the user
// types and sends, and its share of the window when the window is resized; the metrics dock
// leaves the chat its height. Issue 13, "Looks and layout". The chat keeps ten lines of
// conversation at 800 x 600 and at 150 % text, in English and Chinese, its list of conversations
// folding away where there is no room for both, or where the user folds it (issue 41, item 1).

#include "support/localproviderfixture.h"
#include "support/windowservices.h"
#include "gui/answer/answerpane.h"
#include "gui/chat/chatdock.h"
#include "gui/chat/chatinput.h"
#include "gui/chat/chattranscript.h"
#include "gui/mainwindow/documenttab.h"
#include "gui/mainwindow/mainwindow.h"
#include "gui/library/librarydock.h"
#include "gui/metrics/metricsdock.h"
#include "knowledge/library.h"
#include "prefetch/engine.h"
#include "prefetch/strategies/debouncestrategy.h"
#include "prefetch/strategies/hoverstrategy.h"
#include "prefetch/strategies/warmupstrategy.h"
#include "prefetch/strategies/workflowstrategy.h"
#include "workspace/conversations/conversationstore.h"

#include <QAction>
#include <QApplication>
#include <QComboBox>
#include <QFile>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QNetworkAccessManager>
#include <QPushButton>
#include <QScopeGuard>
#include <QScrollBar>
#include <QSettings>
#include <QToolButton>
#include <QTranslator>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QStyle>
#include <QTemporaryDir>
#include <QTest>
#include <QTextBrowser>
#include <QWindow>

#include <memory>

using Prefetch::DocumentAction;

class tst_Layout : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void init();
    void cleanup();

    void fitsIn800PixelsWithEveryButtonWhole();
    void theReadyMarkMovesNoButton();
    void theChatKeepsItsWidthWhileTheUserTypesAndSends();
    void theChatKeepsItsShareOfAResizedWindow();
    void theMetricsLeaveTheChatItsHeight();
    void theChatTextStaysInsideTheDock();
    void theChatKeepsTenLinesOfConversation_data();
    void theChatKeepsTenLinesOfConversation();
    void theUserFoldsTheConversationList();

private:
    // A window in place of init()'s, made now (after a font or a translator has changed).
    void remakeWindow();
    // Every action and answer button is shown in full inside the window.
    bool buttonsAreWhole() const;
    // Every message of the transcript lies inside its viewport (none under the scroll bar) and
    // none of their text runs past its own view.
    static bool textInside(const Gui::ChatTranscript *transcript);

    TestSupport::LocalProviderFixture m_local{u"instant"};
    QNetworkAccessManager m_network;
    QTemporaryDir m_home;
    std::unique_ptr<Gui::ConversationStore> m_store;
    std::unique_ptr<Knowledge::Library> m_library; // no folders: its panel is what counts here
    std::unique_ptr<Prefetch::Stack> m_stack;
    std::unique_ptr<Gui::MainWindow> m_window;
};

void tst_Layout::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);
    QVERIFY2(m_local.start(), qPrintable(m_local.errorString()));
}

void tst_Layout::init()
{
    QSettings().remove(QStringLiteral("chat/conversationList")); // the fit, as on a first start
    QFile::remove(m_home.filePath(QStringLiteral("conversations.sqlite")));
    m_store = std::make_unique<Gui::ConversationStore>(m_home.filePath(QStringLiteral("conversations.sqlite")));
    Knowledge::Library::Options options;
    options.databasePath = m_home.filePath(QStringLiteral("index.sqlite"));
    m_library = std::make_unique<Knowledge::Library>(options);
    m_stack = m_local.makeStack(&m_network);
    const Gui::Services services = TestSupport::windowServices(*m_stack, m_store.get(), m_library.get());
    m_window = std::make_unique<Gui::MainWindow>(services);
    m_window->newDocument(QStringLiteral("The cache keeps the document warm. Users feel the first token."));
    m_window->show();
    QVERIFY(QTest::qWaitForWindowExposed(m_window.get()));
}

void tst_Layout::remakeWindow()
{
    m_window.reset();
    m_window = std::make_unique<Gui::MainWindow>(TestSupport::windowServices(*m_stack, m_store.get(), m_library.get()));
    m_window->newDocument(QStringLiteral("The cache keeps the document warm. Users feel the first token."));
    m_window->show();
    QVERIFY(QTest::qWaitForWindowExposed(m_window.get()));
}

void tst_Layout::cleanup()
{
    if (m_window && m_window->currentDocument())
        m_window->currentTab()->document()->setModified(false);
    m_window.reset();
    m_stack.reset();
    m_library.reset();
    m_store.reset();
    QVERIFY(m_local.waitForNoOpenStream(3000));
}

bool tst_Layout::buttonsAreWhole() const
{
    QList<QPushButton *> buttons{m_window->insertButton(), m_window->replaceButton()};
    for (DocumentAction a : Prefetch::AllDocumentActions)
        buttons << m_window->actionButton(a);
    const QRect window = m_window->rect();
    for (QPushButton *b : std::as_const(buttons)) {
        const QRect shown(b->mapTo(m_window.get(), QPoint(0, 0)), b->size());
        if (!b->isVisible() || !window.contains(shown) || b->width() < b->sizeHint().width()) {
            qWarning("%s at %d,%d %dx%d (needs %d) in %dx%d", qPrintable(b->text()), shown.x(), shown.y(),
                     shown.width(), shown.height(), b->sizeHint().width(), window.width(), window.height());
            return false;
        }
    }
    return true;
}

void tst_Layout::fitsIn800PixelsWithEveryButtonWhole()
{
    QVERIFY2(m_window->minimumSizeHint().width() <= 800,
             qPrintable(QString::number(m_window->minimumSizeHint().width())));
    m_window->resize(800, 600);
    QTRY_COMPARE(m_window->width(), 800);
    QTRY_VERIFY(buttonsAreWhole());
    // The chat is there beside the documents, not pushed out.
    QVERIFY(m_window->chatDock()->isVisible());
    QVERIFY(m_window->chatDock()->geometry().right() <= m_window->width());
    m_window->resize(1280, 800);
    QTRY_VERIFY(buttonsAreWhole());

    // With the Library panel open too (Ctrl+Shift+L), the window still fits in 800 pixels.
    m_window->activateWindow();
    QTRY_VERIFY(m_window->isActiveWindow());
    QTest::keyClick(m_window.get(), Qt::Key_L, Qt::ControlModifier | Qt::ShiftModifier);
    QTRY_VERIFY(m_window->libraryDock()->isVisible());
    m_window->resize(800, 600);
    QTRY_COMPARE(m_window->width(), 800);
    QTRY_VERIFY(buttonsAreWhole());
    QVERIFY(m_window->chatDock()->isVisible());
    QVERIFY(m_window->chatDock()->geometry().right() <= m_window->width());
}

void tst_Layout::theReadyMarkMovesNoButton()
{
    QPushButton *summarize = m_window->summarizeButton();
    QTRY_VERIFY(summarize->isEnabled());
    QHash<DocumentAction, QRect> before;
    for (DocumentAction a : Prefetch::AllDocumentActions)
        before.insert(a, m_window->actionButton(a)->geometry());

    QTest::mouseMove(summarize);
    QTRY_VERIFY(m_stack->hover()->isReady(DocumentAction::Summarize));
    QTRY_VERIFY(summarize->text().endsWith(QStringLiteral("\u2022")));
    QApplication::processEvents(); // the layout's pass after the text changed
    for (DocumentAction a : Prefetch::AllDocumentActions)
        QCOMPARE(m_window->actionButton(a)->geometry(), before.value(a));
}

void tst_Layout::theChatKeepsItsWidthWhileTheUserTypesAndSends()
{
    Gui::ChatDock *chat = m_window->chatDock();
    QTRY_VERIFY(chat->width() > 0);
    const int width = chat->width();
    m_window->activateWindow();
    Gui::ChatInput *input = chat->input();
    input->setFocus();
    QTRY_VERIFY(input->hasFocus());
    // A long message, a pause (the status line says it is being prepared), then Enter.
    QTest::keyClicks(input, QStringLiteral("How long does the provider keep a prompt in its cache, and what does a "
                                           "warm-up cost compared with the answer it speeds up?"));
    QCOMPARE(chat->width(), width);
    QTest::keyClick(input, Qt::Key_Return);
    QTRY_VERIFY(!m_stack->engine()->hasLiveAnswers());
    QTRY_COMPARE(chat->conversationList()->count(), 1);
    QApplication::processEvents();
    QCOMPARE(chat->width(), width);
    // A new conversation (Ctrl+Shift+N).
    QTest::keyClick(input, Qt::Key_N, Qt::ControlModifier | Qt::ShiftModifier);
    QApplication::processEvents();
    QCOMPARE(chat->width(), width);
}

void tst_Layout::theChatKeepsItsShareOfAResizedWindow()
{
    Gui::ChatDock *chat = m_window->chatDock();
    QTRY_VERIFY(chat->width() > 0);
    const double share = double(chat->width()) / m_window->width();
    m_window->resize(1000, 700);
    QTRY_COMPARE(m_window->width(), 1000);
    QTRY_VERIFY(qAbs(double(chat->width()) / m_window->width() - share) < 0.02);
    m_window->resize(1600, 900);
    QTRY_COMPARE(m_window->width(), 1600);
    QTRY_VERIFY(qAbs(double(chat->width()) / m_window->width() - share) < 0.02);
}

void tst_Layout::theMetricsLeaveTheChatItsHeight()
{
    Gui::ChatDock *chat = m_window->chatDock();
    QTRY_VERIFY(chat->height() > 0);
    const int height = chat->height();
    m_window->activateWindow();
    m_window->currentTab()->setFocus();
    QTRY_VERIFY(m_window->currentTab()->hasFocus());
    QTest::keyClick(m_window->currentTab(), Qt::Key_M, Qt::ControlModifier | Qt::ShiftModifier); // View, Metrics
    QTRY_VERIFY(m_window->metricsDock()->isVisible());
    QApplication::processEvents();
    QCOMPARE(chat->height(), height);
    // The metrics take a share of the window's height, not the most of it.
    QVERIFY(m_window->metricsDock()->height() <= m_window->height() / 2);
}

bool tst_Layout::textInside(const Gui::ChatTranscript *transcript)
{
    const QWidget *viewport = transcript->viewport();
    if (transcript->widget()->width() > viewport->width()) {
        qWarning("the transcript's content is %d wide in a %d-wide viewport", transcript->widget()->width(),
                 viewport->width());
        return false;
    }
    const auto views = transcript->widget()->findChildren<QTextBrowser *>();
    int shown = 0;
    for (const QTextBrowser *view : views) {
        if (!view->isVisible())
            continue;
        ++shown;
        const QRect at(view->mapTo(viewport, QPoint(0, 0)), view->size());
        const qreal textWidth = view->document()->size().width();
        if (at.right() >= viewport->width() || textWidth > view->viewport()->width() + 1) {
            qWarning("a message at x %d..%d (text %.0f wide in %d) in a %d-wide viewport: %s", at.left(), at.right(),
                     textWidth, view->viewport()->width(), viewport->width(), qPrintable(view->toPlainText().left(40)));
            return false;
        }
    }
    return shown >= 2;
}

void tst_Layout::theChatTextStaysInsideTheDock()
{
    Gui::ChatDock *chat = m_window->chatDock();
    auto *transcript = chat->findChild<Gui::ChatTranscript *>();
    QVERIFY(transcript);
    m_window->activateWindow();
    Gui::ChatInput *input = chat->input();
    input->setFocus();
    QTRY_VERIFY(input->hasFocus());
    // Enough messages for the transcript to scroll, one with a path too long for any line.
    const QStringList messages{
        QStringLiteral("How long does the provider keep a prompt in its cache, and what does a warm-up cost?"),
        QStringLiteral("Where is docs/benchmarks/replay/report.md#the-latency-cost-frontier-of-guessing-two-answers "
                       "explained, and which users does it cover?"),
        QStringLiteral("Summarize what the cache keeps warm and what the users feel at the first token, in detail."),
    };
    for (const QString &message : messages) {
        QTest::keyClicks(input, message);
        QTest::keyClick(input, Qt::Key_Return);
        QTRY_VERIFY(!m_stack->engine()->hasLiveAnswers());
    }
    QTRY_VERIFY(transcript->verticalScrollBar()->isVisible());
    QTRY_VERIFY(textInside(transcript));

    // The user drags the separator between the documents and the chat to the right: the dock
    // narrows, and the text wraps to it again.
    const int before = chat->width();
    const int extent = m_window->style()->pixelMetric(QStyle::PM_DockWidgetSeparatorExtent, nullptr, m_window.get());
    const QPoint separator(chat->geometry().left() - (extent + 1) / 2, chat->geometry().center().y());
    // Through the window, as the pointer's events come: the separator has no widget of its own.
    QWindow *window = m_window->windowHandle();
    QTest::mouseMove(window, separator);
    QTest::mousePress(window, Qt::LeftButton, {}, separator);
    QTest::mouseMove(window, separator + QPoint(before / 6, 0));
    QTest::mouseMove(window, separator + QPoint(before / 3, 0));
    QTest::mouseRelease(window, Qt::LeftButton, {}, separator + QPoint(before / 3, 0));
    QTRY_VERIFY2(chat->width() < before - before / 5, qPrintable(QString::number(chat->width())));
    QTRY_VERIFY(textInside(transcript));
    // And wider again.
    m_window->resize(m_window->width() + 300, m_window->height());
    QTRY_VERIFY(textInside(transcript));
}

void tst_Layout::theChatKeepsTenLinesOfConversation_data()
{
    QTest::addColumn<QString>("language"); // a catalogue of the app's, or none for English
    QTest::addColumn<QSize>("size");
    QTest::addColumn<double>("textScale");
    QTest::newRow("English, 800 x 600") << QString() << QSize(800, 600) << 1.0;
    QTest::newRow("Chinese, 800 x 600") << QStringLiteral("zh_CN") << QSize(800, 600) << 1.0;
    QTest::newRow("English, 150 % text") << QString() << QSize(1280, 800) << 1.5;
    QTest::newRow("Chinese, 150 % text") << QStringLiteral("zh_CN") << QSize(1280, 800) << 1.5;
}

void tst_Layout::theChatKeepsTenLinesOfConversation()
{
    QFETCH(QString, language);
    QFETCH(QSize, size);
    QFETCH(double, textScale);
    // The text size a user sets on the desktop: the application's font, every widget's.
    const QFont font = QApplication::font();
    QTranslator translator;
    const auto restore = qScopeGuard([font, &translator] {
        QApplication::setFont(font);
        QCoreApplication::removeTranslator(&translator);
    });
    QFont larger = font;
    larger.setPointSizeF(font.pointSizeF() * textScale);
    QApplication::setFont(larger);
    if (!language.isEmpty()) {
        QVERIFY(translator.load(QStringLiteral(HEADSTART_BIN_DIR "/app/headstart_%1.qm").arg(language)));
        QCoreApplication::installTranslator(&translator);
    }
    remakeWindow();
    m_window->resize(size);
    QTRY_COMPARE(m_window->size(), size); // nothing in it needs a larger window
    Gui::ChatDock *chat = m_window->chatDock();
    QVERIFY(chat->isVisible());
    QVERIFY(chat->geometry().right() <= m_window->width());
    // Typed, then a pause before Enter: the answer is started early, and its timing line says
    // so at length ("started before you sent: …"), which must not widen the conversation.
    Gui::ChatInput *input = chat->input();
    m_window->activateWindow();
    QTest::mouseClick(input->viewport(), Qt::LeftButton, {}, input->viewport()->rect().center());
    QTRY_VERIFY(input->hasFocus());
    QSignalSpy early(m_stack->debounce(), &Prefetch::DebounceStrategy::prefetchStarted);
    QTest::keyClicks(input, QStringLiteral("What does the cache keep warm, and what do users feel at the first token?"));
    QVERIFY(early.wait(5000));
    QTest::keyClick(input, Qt::Key_Return);
    QTRY_VERIFY_WITH_TIMEOUT(!chat->isAnswering() && !m_stack->engine()->hasLiveAnswers(), 15000);

    auto *transcript = chat->findChild<Gui::ChatTranscript *>();
    const QList<QLabel *> timings = transcript->findChildren<QLabel *>(QStringLiteral("chatTiming"));
    QVERIFY(!timings.isEmpty());
    QVERIFY2(timings.last()->text().contains(QLatin1String("started before you sent"))
                 || timings.last()->text().contains(QString::fromUtf8("在您发送之前")),
             qPrintable(timings.last()->text()));
    QTRY_VERIFY(textInside(transcript));
    const int line = transcript->fontMetrics().lineSpacing();
    QTRY_VERIFY2(transcript->viewport()->height() >= 10 * line,
                 qPrintable(QStringLiteral("%1 px of conversation, a line is %2")
                                .arg(transcript->viewport()->height())
                                .arg(line)));
    // What goes with each message is one line, not a column of words beside the mode.
    auto *context = chat->findChild<QLabel *>(QStringLiteral("chatContext"));
    QVERIFY(context->isVisible());
    QVERIFY(!context->text().isEmpty());
    QVERIFY2(context->height() < 2 * context->fontMetrics().lineSpacing(), qPrintable(context->text()));
    // The input, Send and the header's selectors are there in full.
    const QList<QWidget *> controls{chat->input(), chat->sendButton(), chat->modeSelector(), chat->assistantSelector()};
    for (QWidget *w : controls) {
        const QRect shown(w->mapTo(chat, QPoint(0, 0)), w->size());
        QVERIFY2(w->isVisible() && chat->rect().contains(shown), qPrintable(w->objectName()));
    }
}

void tst_Layout::theUserFoldsTheConversationList()
{
    m_window->resize(800, 600);
    QTRY_COMPARE(m_window->width(), 800);
    Gui::ChatDock *chat = m_window->chatDock();
    auto *transcript = chat->findChild<Gui::ChatTranscript *>();
    auto *toggle = chat->findChild<QToolButton *>(QStringLiteral("conversationListToggle"));
    QVERIFY(toggle);
    // There is room for the list beside ten lines at 800 x 600: it shows.
    QTRY_VERIFY(chat->conversationList()->isVisible());
    QVERIFY(toggle->isChecked());
    const int withList = transcript->viewport()->height();

    // The user folds it: the conversation takes its room, and the focus goes to the input.
    QTest::mouseClick(toggle, Qt::LeftButton);
    QTRY_VERIFY(!chat->conversationList()->isVisible());
    QVERIFY(!toggle->isChecked());
    QTRY_VERIFY2(transcript->viewport()->height() > withList + 40,
                 qPrintable(QStringLiteral("%1 -> %2").arg(withList).arg(transcript->viewport()->height())));
    QTRY_VERIFY(chat->input()->hasFocus());

    // The choice holds in the next window, however tall it is.
    remakeWindow();
    m_window->resize(1600, 1000);
    QTRY_COMPARE(m_window->width(), 1600);
    chat = m_window->chatDock();
    toggle = chat->findChild<QToolButton *>(QStringLiteral("conversationListToggle"));
    QTest::qWait(0); // the fit is queued after a resize; it must not undo the choice
    QCoreApplication::processEvents();
    QVERIFY(!chat->conversationList()->isVisible());

    // Unfolded again, with the keyboard: the search field takes the focus.
    toggle->setFocus();
    QTRY_VERIFY(toggle->hasFocus());
    QTest::keyClick(toggle, Qt::Key_Space);
    QTRY_VERIFY(chat->conversationList()->isVisible());
    QTRY_VERIFY(chat->searchField()->hasFocus());
    QCOMPARE(QSettings().value(QStringLiteral("chat/conversationList")).toString(), QStringLiteral("shown"));
}

QTEST_MAIN(tst_Layout)
#include "tst_layout.moc"
