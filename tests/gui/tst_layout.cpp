// The window's layout holds still while it is used: it fits in 800 pixels with every button
// whole, the hover's "ready" mark moves no button, the chat dock keeps its width while the user
// types and sends, and its share of the window when the window is resized; the metrics dock
// leaves the chat its height. Issue 13, "Looks and layout".

#include "support/localproviderfixture.h"
#include "support/windowservices.h"
#include "gui/answer/answerpane.h"
#include "gui/chat/chatdock.h"
#include "gui/chat/chatinput.h"
#include "gui/chat/chattranscript.h"
#include "gui/mainwindow/documenttab.h"
#include "gui/mainwindow/mainwindow.h"
#include "gui/metrics/metricsdock.h"
#include "prefetch/engine.h"
#include "prefetch/strategies/debouncestrategy.h"
#include "prefetch/strategies/hoverstrategy.h"
#include "prefetch/strategies/warmupstrategy.h"
#include "prefetch/strategies/workflowstrategy.h"
#include "workspace/conversations/conversationstore.h"

#include <QAction>
#include <QApplication>
#include <QFile>
#include <QListWidget>
#include <QNetworkAccessManager>
#include <QPushButton>
#include <QScrollBar>
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

private:
    // Every action and answer button is shown in full inside the window.
    bool buttonsAreWhole() const;
    // Every message of the transcript lies inside its viewport (none under the scroll bar) and
    // none of their text runs past its own view.
    static bool textInside(const Gui::ChatTranscript *transcript);

    TestSupport::LocalProviderFixture m_local{u"instant"};
    QNetworkAccessManager m_network;
    QTemporaryDir m_home;
    std::unique_ptr<Gui::ConversationStore> m_store;
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
    QFile::remove(m_home.filePath(QStringLiteral("conversations.sqlite")));
    m_store = std::make_unique<Gui::ConversationStore>(m_home.filePath(QStringLiteral("conversations.sqlite")));
    m_stack = m_local.makeStack(&m_network);
    const Gui::Services services = TestSupport::windowServices(*m_stack, m_store.get());
    m_window = std::make_unique<Gui::MainWindow>(services);
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

QTEST_MAIN(tst_Layout)
#include "tst_layout.moc"
