// Text files attached to a chat message, used as a person does against the real local provider
// on loopback: files dropped onto the input become chips (not text), removed with the mouse and
// with the keyboard; Ctrl+Shift+A opens the file dialog, and a file typed there is attached; the
// request carries the files before the text, and a prefetch of the draft is taken over only
// with the same files; a restart shows the chips on the sent message and the next request's
// history has the file's text; Edit puts a question's files back and Regenerate asks with them;
// a binary or too large file is refused with a message naming it and nothing of it is sent.
#include "support/chatdocksuite.h"
#include "support/localproviderfixture.h"
#include "gui/chat/attachmentchips.h"
#include "gui/chat/chatdock.h"
#include "gui/chat/chattranscript.h"
#include "prefetch/engine.h"
#include "prefetch/prompts/actionprompts.h"
#include "prefetch/strategies/debouncestrategy.h"
#include "prefetch/stream/answerreader.h"
#include "workspace/conversations/attachments.h"
#include "workspace/conversations/conversationstore.h"

#include <QAction>
#include <QApplication>
#include <QDialogButtonBox>
#include <QDir>
#include <QDropEvent>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QLabel>
#include <QLineEdit>
#include <QMainWindow>
#include <QMimeData>
#include <QNetworkAccessManager>
#include <QPointer>
#include <QPushButton>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QToolButton>
#include <QUrl>

#include <memory>

using Gui::Attachment;
using Gui::ChatDock;

namespace {

const QString Notes = QStringLiteral("# Pump notes\n\nThe pump's service code is 4471-QZ.\n");
const QString Source = QStringLiteral("int pumpCode() { return 4471; }\n");

} // namespace

class tst_ChatAttachments : public QObject, private TestSupport::ChatDockSuite
{
    Q_OBJECT

private slots:
    void initTestCase();
    void init();
    void cleanup();

    void droppedFilesBecomeChipsRemovedByMouseAndKeyboard();
    void shortcutOpensTheDialogAndAttachesTheFileTyped();
    void requestCarriesTheFilesAndAPrefetchNeedsTheSameFiles();
    void restartKeepsTheChipsAndTheHistorySendsTheText();
    void editPutsTheFilesBackAndRegenerateAsksWithThem();
    void binaryAndTooLargeAreRefusedAndNothingOfThemIsSent();

private:
    void makeDock();
    QString write(const QString &name, const QByteArray &bytes) const;
    // Drags `paths` from a file manager onto the input and drops them, as a desktop does.
    void drop(const QStringList &paths);
    void typeAndSend(const QString &text);
    // Waits for the answer to end; its text.
    QString waitForAnswer();
    Gui::AttachmentChips *chips() const { return m_dock->attachmentChips(); }
    // The chat's request for `text` with `files` after `history`, rendered as the session does.
    Prefetch::RenderedRequest request(const QList<Llm::ChatMessage> &history, const QList<Attachment> &files,
                                      const QString &text, qint64 conversationId = 0) const;
    QString fresh(const Prefetch::RenderedRequest &r)
    {
        return TestSupport::freshText(&m_network, m_stack->engine()->profile(), r);
    }
};

void tst_ChatAttachments::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);
    QVERIFY(startProvider());
}

void tst_ChatAttachments::init()
{
    QVERIFY(openStore());
    m_stack = m_local.makeStack(&m_network);
    makeDock();
}

void tst_ChatAttachments::cleanup()
{
    QVERIFY(closeDock());
}

void tst_ChatAttachments::makeDock()
{
    QVERIFY(showDock());
    QTRY_VERIFY_WITH_TIMEOUT(m_dock->input()->hasFocus(), 2000);
}

QString tst_ChatAttachments::write(const QString &name, const QByteArray &bytes) const
{
    QFile file(m_dir->filePath(name));
    if (!file.open(QIODevice::WriteOnly) || file.write(bytes) != bytes.size())
        return {};
    return file.fileName();
}

void tst_ChatAttachments::drop(const QStringList &paths)
{
    QMimeData mime;
    QList<QUrl> urls;
    for (const QString &path : paths)
        urls.append(QUrl::fromLocalFile(path));
    mime.setUrls(urls);
    QWidget *target = m_dock->input()->viewport();
    const QPoint at = target->rect().center();
    QDragEnterEvent enter(at, Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
    QApplication::sendEvent(target, &enter);
    QVERIFY(enter.isAccepted()); // the input takes files
    QDragMoveEvent move(at, Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
    QApplication::sendEvent(target, &move);
    QDropEvent dropped(QPointF(at), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
    QApplication::sendEvent(target, &dropped);
    QVERIFY(dropped.isAccepted());
}

void tst_ChatAttachments::typeAndSend(const QString &text)
{
    QTest::keyClicks(m_dock->input(), text);
    QTest::keyClick(m_dock->input(), Qt::Key_Return);
}

QString tst_ChatAttachments::waitForAnswer()
{
    QSignalSpy ended(m_dock.get(), &ChatDock::answerEnded);
    if (m_dock->isAnswering() && !ended.wait(15000))
        return QStringLiteral("<timeout>");
    const QList<Gui::StoredMessage> &messages = m_dock->session()->messages();
    return messages.isEmpty() ? QString() : messages.constLast().content;
}

Prefetch::RenderedRequest tst_ChatAttachments::request(const QList<Llm::ChatMessage> &history,
                                                       const QList<Attachment> &files, const QString &text,
                                                       qint64 conversationId) const
{
    auto compiled = Prefetch::chatTemplate(false).compile(m_stack->engine()->profile(), {});
    if (!compiled)
        return {};
    if (conversationId > 0)
        compiled = compiled->withCacheKey(Prefetch::cacheKeyFor(QStringLiteral("conversation:%1").arg(conversationId)));
    return Prefetch::renderChatMessage(*compiled, history, m_stack->engine()->profile().model,
                                       Gui::messageWithAttachments(files, text));
}

// --- adding and removing ---------------------------------------------------------------------------

void tst_ChatAttachments::droppedFilesBecomeChipsRemovedByMouseAndKeyboard()
{
    const QString notes = write(QStringLiteral("notes.md"), Notes.toUtf8());
    const QString source = write(QStringLiteral("pump.cpp"), Source.toUtf8());
    const QString readme = write(QStringLiteral("README.txt"), "Read me first.\n");
    QTest::keyClicks(m_dock->input(), QStringLiteral("Draft"));

    drop({notes, source});
    // Chips, not paths in the text.
    QCOMPARE(m_dock->input()->toPlainText(), QStringLiteral("Draft"));
    QVERIFY(chips()->isVisible());
    QCOMPARE(chips()->chipTexts(),
             (QStringList{QStringLiteral("notes.md (%1)").arg(Gui::attachmentSizeText(Notes.toUtf8().size())),
                          QStringLiteral("pump.cpp (%1)").arg(Gui::attachmentSizeText(Source.toUtf8().size()))}));
    QCOMPARE(m_dock->session()->attachments().size(), 2);
    QCOMPARE(m_dock->session()->attachments().at(0).text, Notes);
    drop({readme});
    QCOMPARE(m_dock->session()->attachments().size(), 3);

    // The mouse: the ✕ of the first chip.
    QToolButton *first = chips()->removeButton(0);
    QVERIFY(first);
    QTRY_VERIFY_WITH_TIMEOUT(first->isVisible(), 2000);
    QCOMPARE(first->accessibleName(), QStringLiteral("Remove notes.md"));
    QTest::mouseClick(first, Qt::LeftButton);
    QCOMPARE(m_dock->session()->attachments().size(), 2);
    QCOMPARE(m_dock->session()->attachments().at(0).name, QStringLiteral("pump.cpp"));

    // The keyboard: the chips come before the input in the Tab order, the paperclip after it.
    m_dock->input()->setFocus();
    QTRY_VERIFY_WITH_TIMEOUT(m_dock->input()->hasFocus(), 2000);
    QTest::keyClick(m_dock->input(), Qt::Key_Tab);
    QTRY_VERIFY_WITH_TIMEOUT(m_dock->attachButton()->hasFocus(), 2000);
    QTest::keyClick(m_dock->attachButton(), Qt::Key_Backtab);
    QTRY_VERIFY_WITH_TIMEOUT(m_dock->input()->hasFocus(), 2000);
    QTest::keyClick(m_dock->input(), Qt::Key_Backtab);
    QToolButton *last = chips()->removeButton(1);
    QTRY_VERIFY_WITH_TIMEOUT(last && last->hasFocus(), 2000);
    QCOMPARE(last->accessibleName(), QStringLiteral("Remove README.txt"));
    QTest::keyClick(last, Qt::Key_Backtab);
    QToolButton *pump = chips()->removeButton(0);
    QTRY_VERIFY_WITH_TIMEOUT(pump->hasFocus(), 2000);
    // Delete on a chip removes it; the focus goes on to the chip that took its place.
    QTest::keyClick(pump, Qt::Key_Delete);
    QCOMPARE(m_dock->session()->attachments().size(), 1);
    QCOMPARE(m_dock->session()->attachments().at(0).name, QStringLiteral("README.txt"));
    QToolButton *remaining = chips()->removeButton(0);
    QTRY_VERIFY_WITH_TIMEOUT(remaining && remaining->hasFocus(), 2000);
    // Space on the last one; then the input has the focus, and there are no chips.
    QTest::keyClick(remaining, Qt::Key_Space);
    QVERIFY(m_dock->session()->attachments().isEmpty());
    QTRY_VERIFY_WITH_TIMEOUT(m_dock->input()->hasFocus(), 2000);
    QTRY_VERIFY_WITH_TIMEOUT(!chips()->isVisible(), 2000);
    QCOMPARE(m_dock->input()->toPlainText(), QStringLiteral("Draft"));
    QVERIFY(m_dock->attachmentProblem().isEmpty());
}

void tst_ChatAttachments::shortcutOpensTheDialogAndAttachesTheFileTyped()
{
    const QString notes = write(QStringLiteral("notes.md"), Notes.toUtf8());
    QCOMPARE(m_dock->attachAction()->shortcut(), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_A));
    // The shortcut works with the focus in the input, where one is when attaching.
    QTest::keyClick(m_dock->input(), Qt::Key_A, Qt::ControlModifier | Qt::ShiftModifier);
    QPointer<QFileDialog> dialog; // it deletes itself when closed
    QTRY_VERIFY_WITH_TIMEOUT((dialog = m_dock->findChild<QFileDialog *>(QStringLiteral("attachDialog")))
                                 && dialog->isVisible(),
                             5000);
    QVERIFY(dialog->nameFilters().first().contains(QLatin1String("*.md")));
    QCOMPARE(dialog->fileMode(), QFileDialog::ExistingFiles);
    auto *name = dialog->findChild<QLineEdit *>(QStringLiteral("fileNameEdit"));
    auto *buttons = dialog->findChild<QDialogButtonBox *>(QStringLiteral("buttonBox"));
    QVERIFY(name && buttons);
    QPushButton *attach = buttons->button(QDialogButtonBox::Open);
    QVERIFY(attach);
    QCOMPARE(attach->text(), QStringLiteral("Attach"));
    // In the file's folder, its name: what a user does after picking the folder.
    dialog->setDirectory(m_dir->path());
    name->setFocus();
    QTRY_VERIFY_WITH_TIMEOUT(name->hasFocus(), 2000);
    QTest::keyClicks(name, QStringLiteral("notes.md"));
    // The button, not Return: the name field's completer popup may take the key.
    QTRY_VERIFY_WITH_TIMEOUT(attach->isEnabled(), 5000);
    QTest::mouseClick(attach, Qt::LeftButton);
    QTRY_VERIFY_WITH_TIMEOUT(!dialog, 5000);
    QCOMPARE(m_dock->session()->attachments().size(), 1);
    QCOMPARE(m_dock->session()->attachments().at(0).name, QStringLiteral("notes.md"));
    // Back in the window (the offscreen platform has no window manager to give it back the
    // activation), the input has the focus.
    m_window->activateWindow();
    QVERIFY(QTest::qWaitForWindowActive(m_window.get()));
    QTRY_VERIFY_WITH_TIMEOUT(m_dock->input()->hasFocus(), 2000);

    // A second file the same way: the shortcut opens the dialog again, in the folder of the
    // first, and the file joins the first one.
    const QString more = write(QStringLiteral("more.txt"), QByteArrayLiteral("More notes."));
    QTest::keyClick(m_dock->input(), Qt::Key_A, Qt::ControlModifier | Qt::ShiftModifier);
    QTRY_VERIFY_WITH_TIMEOUT((dialog = m_dock->findChild<QFileDialog *>(QStringLiteral("attachDialog")))
                                 && dialog->isVisible(),
                             5000);
    QCOMPARE(QDir(dialog->directory()).canonicalPath(), QDir(m_dir->path()).canonicalPath());
    name = dialog->findChild<QLineEdit *>(QStringLiteral("fileNameEdit"));
    attach = dialog->findChild<QDialogButtonBox *>(QStringLiteral("buttonBox"))->button(QDialogButtonBox::Open);
    name->setFocus();
    QTRY_VERIFY_WITH_TIMEOUT(name->hasFocus(), 2000);
    QTest::keyClicks(name, QFileInfo(more).fileName());
    QTRY_VERIFY_WITH_TIMEOUT(attach->isEnabled(), 5000);
    QTest::mouseClick(attach, Qt::LeftButton);
    QTRY_VERIFY_WITH_TIMEOUT(!dialog, 5000);
    QCOMPARE(m_dock->session()->attachments().size(), 2);
    QCOMPARE(m_dock->session()->attachments().at(1).name, QStringLiteral("more.txt"));
}

// --- what is sent ----------------------------------------------------------------------------------

void tst_ChatAttachments::requestCarriesTheFilesAndAPrefetchNeedsTheSameFiles()
{
    const QString question = QStringLiteral("What is the pump's service code?");
    const QList<Attachment> notes{{QStringLiteral("notes.md"), Notes}};
    const QList<Attachment> both{notes.first(), {QStringLiteral("pump.cpp"), Source}};
    const QString withNotes = fresh(request({}, notes, question));
    const QString withBoth = fresh(request({}, both, question));
    const QString without = fresh(request({}, {}, question));
    QVERIFY(!withNotes.isEmpty() && withNotes != without && withBoth != withNotes);

    drop({write(QStringLiteral("notes.md"), Notes.toUtf8())});
    const auto before = m_local.stats();
    QSignalSpy started(m_stack->debounce(), &Prefetch::DebounceStrategy::prefetchStarted);
    QTest::keyClicks(m_dock->input(), question);
    QVERIFY(started.wait(3000));
    QTRY_COMPARE_WITH_TIMEOUT(m_local.stats().prefetchRequests, before.prefetchRequests + 1, 3000);

    // Another file while it is prepared: that answer is not for this message any more. It goes,
    // and the pause prepares the message with both.
    drop({write(QStringLiteral("pump.cpp"), Source.toUtf8())});
    QVERIFY(!m_stack->debounce()->isPrefetching());
    QVERIFY(started.wait(3000));
    QTRY_COMPARE_WITH_TIMEOUT(m_local.stats().prefetchRequests, before.prefetchRequests + 2, 3000);

    QTest::keyClick(m_dock->input(), Qt::Key_Return);
    QVERIFY(m_dock->isAnswering());
    QVERIFY(m_dock->currentAnswer()->isPrefetched());    // taken over: the same request
    QVERIFY(m_dock->session()->attachments().isEmpty()); // they went with it
    QVERIFY(!chips()->isVisible());
    QCOMPARE(waitForAnswer(), withBoth);
    QCOMPARE(m_local.stats().billedByPurpose.value(QStringLiteral("foreground")),
             before.billedByPurpose.value(QStringLiteral("foreground"))); // nothing asked afresh
    QVERIFY(m_local.stats().promptTokens - before.promptTokens
            >= Prefetch::estimateTokens(Gui::messageWithAttachments(both, question)));

    // Stored with the question, shown as chips on it.
    const auto stored = m_store->messages(m_dock->currentConversationId());
    QVERIFY(stored);
    QCOMPARE(stored->size(), 2);
    QCOMPARE(stored->at(0).content, question);
    QCOMPARE(stored->at(0).attachments, both);
    const auto shown = m_dock->transcript()->findChildren<Gui::AttachmentChips *>();
    QCOMPARE(shown.size(), 1);
    QCOMPARE(shown.first()->attachments(), both);
    QVERIFY(!shown.first()->removeButton(0)); // a sent message's files stay
}

void tst_ChatAttachments::restartKeepsTheChipsAndTheHistorySendsTheText()
{
    const QString question = QStringLiteral("Which code is in the notes?");
    const QList<Attachment> notes{{QStringLiteral("notes.md"), Notes}};
    drop({write(QStringLiteral("notes.md"), Notes.toUtf8())});
    typeAndSend(question);
    const QString first = waitForAnswer();
    QCOMPARE(first, fresh(request({}, notes, question)));
    const qint64 conversation = m_dock->currentConversationId();

    // "After a restart": a new dock on the same file opens the conversation again.
    m_dock.reset();
    m_store = std::make_unique<Gui::ConversationStore>(m_dir->filePath(QStringLiteral("conversations.sqlite")));
    makeDock();
    QCOMPARE(m_dock->currentConversationId(), conversation);
    const auto shown = m_dock->transcript()->findChildren<Gui::AttachmentChips *>();
    QCOMPARE(shown.size(), 1);
    QVERIFY(shown.first()->isVisible());
    QCOMPARE(shown.first()->chipTexts().first(),
             QStringLiteral("notes.md (%1)").arg(Gui::attachmentSizeText(Notes.toUtf8().size())));

    // The next message's history has the question as it was sent: the file, then the text.
    const QString followUp = QStringLiteral("And in which file was it?");
    const QList<Llm::ChatMessage> history{{Llm::Role::User, Gui::messageWithAttachments(notes, question)},
                                          {Llm::Role::Assistant, first}};
    typeAndSend(followUp);
    QCOMPARE(waitForAnswer(), fresh(request(history, {}, followUp, conversation)));
}

void tst_ChatAttachments::editPutsTheFilesBackAndRegenerateAsksWithThem()
{
    const QString question = QStringLiteral("Summarize the notes.");
    drop({write(QStringLiteral("notes.md"), Notes.toUtf8())});
    qint64 prompt = m_local.stats().promptTokens;
    typeAndSend(question);
    QVERIFY(!waitForAnswer().isEmpty());
    const qint64 asked = m_local.stats().promptTokens - prompt;

    // Regenerate: a new request (a new seed) with the same messages, the file included.
    prompt = m_local.stats().promptTokens;
    auto *regenerate = m_dock->transcript()->findChild<QToolButton *>(QStringLiteral("chatRegenerate"));
    QVERIFY(regenerate);
    QTRY_VERIFY_WITH_TIMEOUT(regenerate->isVisible() && regenerate->isEnabled(), 2000);
    QTest::mouseClick(regenerate, Qt::LeftButton);
    QVERIFY(!waitForAnswer().isEmpty());
    QCOMPARE(m_local.stats().promptTokens - prompt, asked);

    // Edit: the question's text and its file go back into the input; Cancel brings the draft's.
    const QString draft = write(QStringLiteral("draft.txt"), "A draft's file.\n");
    drop({draft});
    auto *edit = m_dock->transcript()->findChild<QToolButton *>(QStringLiteral("chatEdit"));
    QVERIFY(edit);
    QTRY_VERIFY_WITH_TIMEOUT(edit->isVisible() && edit->isEnabled(), 2000);
    QTest::mouseClick(edit, Qt::LeftButton);
    QCOMPARE(m_dock->input()->toPlainText(), question);
    QCOMPARE(chips()->chipTexts().size(), 1);
    QVERIFY(chips()->chipTexts().first().startsWith(QLatin1String("notes.md")));
    auto *cancel = m_dock->findChild<QToolButton *>(QStringLiteral("chatCancelEdit"));
    QVERIFY(cancel);
    QTest::mouseClick(cancel, Qt::LeftButton);
    QCOMPARE(chips()->chipTexts().size(), 1);
    QVERIFY(chips()->chipTexts().first().startsWith(QLatin1String("draft.txt")));
}

// --- refused ---------------------------------------------------------------------------------------

void tst_ChatAttachments::binaryAndTooLargeAreRefusedAndNothingOfThemIsSent()
{
    auto *problem = m_dock->findChild<QLabel *>(QStringLiteral("chatAttachmentProblem"));
    QVERIFY(problem);
    QVERIFY(!problem->isVisible());

    drop({write(QStringLiteral("photo.jpg"), QByteArray("\xff\xd8\xff\xe0\0\x10JFIF\0", 11))});
    QVERIFY(problem->isVisible());
    QVERIFY2(problem->text().contains(QLatin1String("photo.jpg is not a text file")), qPrintable(problem->text()));
    QVERIFY(m_dock->session()->attachments().isEmpty());
    QVERIFY(!chips()->isVisible());

    // Several at once with one too large: none of them, so no message goes with part of them.
    const QString good = write(QStringLiteral("notes.md"), Notes.toUtf8());
    const QString big = write(QStringLiteral("dump.log"), QByteArray(Gui::MaxAttachmentBytes + 1, 'x'));
    drop({good, big});
    QVERIFY2(problem->text().contains(QLatin1String("dump.log is too large")), qPrintable(problem->text()));
    QVERIFY2(problem->text().contains(QLatin1String("None of the 2 files was attached.")), qPrintable(problem->text()));
    QVERIFY(m_dock->session()->attachments().isEmpty());
    QVERIFY(!chips()->isVisible());

    // The message then goes as typed, without any of them; the notice has done its job.
    const QString question = QStringLiteral("Is anything attached?");
    typeAndSend(question);
    QCOMPARE(waitForAnswer(), fresh(request({}, {}, question)));
    QVERIFY(!problem->isVisible());
    const auto stored = m_store->messages(m_dock->currentConversationId());
    QVERIFY(stored);
    QVERIFY(stored->at(0).attachments.isEmpty());
    QVERIFY(m_dock->transcript()->findChildren<Gui::AttachmentChips *>().isEmpty());

    // Dropping a good file after the refusal clears the notice.
    drop({write(QStringLiteral("photo.jpg"), "\xff\xd8")});
    QVERIFY(problem->isVisible());
    drop({good});
    QVERIFY(!problem->isVisible());
    QCOMPARE(m_dock->session()->attachments().size(), 1);

    // A refusal nobody acts on goes by itself once it has been read.
    drop({write(QStringLiteral("photo.jpg"), "\xff\xd8")});
    QVERIFY(problem->isVisible());
    QTRY_VERIFY_WITH_TIMEOUT(!problem->isVisible(), 2 * int(Gui::ChatDock::NoticeLifetime.count()) + 3000);
    QCOMPARE(m_dock->session()->attachments().size(), 1); // the file attached stays
}

QTEST_MAIN(tst_ChatAttachments)
#include "tst_chatattachments.moc"
