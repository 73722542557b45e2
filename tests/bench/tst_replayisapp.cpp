// The replay benchmark sends the app's requests, byte for byte (issue 38). The same user actions
// are done twice: by a person in the real window (a Gui::MainWindow with its chat dock, built as
// the application builds it, driven with the mouse and the keyboard) against a local provider
// that keeps every request it receives, and by the Replayer on a trace of the same actions
// against its own such provider. The person pastes the text the trace's document is made of into
// a new document, selects a paragraph and clicks every document action in turn, waiting for each
// answer; then, in the chat, picks free chat and the Writing editor assistant (its temperature),
// asks a short question that routing sends to the fast model, attaches a text file and asks for
// work, which goes to the main model. Both sides run with prefetch off (the replay's Mode::Off
// settings; routing on, as the app's default), so every request is one the user asked for; the
// bodies are compared in order, and a difference names the request, its first differing byte and
// the text around it. The provider's keeping of requests is checked first.
// Over 600 lines: 9 scenarios, each a test function readable on its own; what they share is
// at the top or in tests/support.
#include "support/localproviderfixture.h"

#include "bench/replay/documents.h"
#include "bench/replay/replayer.h"
#include "bench/replay/replaysettings.h"
#include "bench/replay/trace.h"

#include "gui/answer/answerpane.h"
#include "gui/chat/chatdock.h"
#include "gui/chat/chatinput.h"
#include "gui/mainwindow/documenttab.h"
#include "gui/mainwindow/documenttabs.h"
#include "gui/mainwindow/mainwindow.h"
#include "workspace/conversations/conversationstore.h"
#include "workspace/settings/appsettings.h"
#include "workspace/settings/assistantsettings.h"

#include "prefetch/cache/responsecache.h"
#include "prefetch/engine.h"
#include "prefetch/strategies/classifier.h"
#include "prefetch/strategies/debouncestrategy.h"
#include "prefetch/strategies/hoverstrategy.h"
#include "prefetch/strategies/speculator.h"
#include "prefetch/strategies/warmupstrategy.h"
#include "prefetch/strategies/workflowstrategy.h"

#include <QAbstractItemView>
#include <QApplication>
#include <QClipboard>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QFile>
#include <QFileDialog>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLineEdit>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QPointer>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QTextBlock>
#include <QToolButton>

#include <memory>

using Prefetch::DocumentAction;

namespace {

// The document: Bench::makeDocument() of this size and seed, as the trace's open_document makes
// it; small enough that the whole text shows in the window, so its paragraphs can be clicked.
constexpr int DocumentTokens = 260;
constexpr quint64 DocumentSeed = 7;
constexpr int SelectedParagraph = 1;

// The replay's clock runs twice as fast as the trace's (and its strategies' delays shrink with
// it; the window gets the same settings).
constexpr double Speed = 2;

const QString Assistant = QStringLiteral("editor"); // Writing editor: a temperature of its own
const QString QuickQuestion = QStringLiteral("What is the capital of France?"); // routed to the fast model
const QString WorkQuestion = QStringLiteral("Rewrite these notes as a short checklist.");
const QString NotesName = QStringLiteral("notes.md");
const QString NotesText = QStringLiteral(
    "# Pump notes\n\nThe pump's service code is 4471-QZ.\nCheck the seal every spring.\n");

const QString MainModel = QStringLiteral("headstart-local");
const QString FastModel = QStringLiteral("headstart-local-small");

QString documentText()
{
    return Bench::makeDocument(DocumentTokens, DocumentSeed, QStringLiteral("en"));
}

// The requests a user asked for: foreground, never a prefetch.
QList<LocalProvider::ReceivedRequest> foreground(const QList<LocalProvider::ReceivedRequest> &all)
{
    QList<LocalProvider::ReceivedRequest> out;
    for (const LocalProvider::ReceivedRequest &r : all) {
        if (!r.prefetch && r.purpose == "foreground")
            out.append(r);
    }
    return out;
}

QString describe(const QList<LocalProvider::ReceivedRequest> &all)
{
    QStringList parts;
    for (const LocalProvider::ReceivedRequest &r : all)
        parts.append(QStringLiteral("%1%2").arg(QString::fromLatin1(r.purpose.isEmpty() ? "unmarked" : r.purpose),
                                                r.prefetch ? QStringLiteral(" (prefetch)") : QString()));
    return parts.join(QStringLiteral(", "));
}

// Where two bodies first differ, with the bytes around it from each.
QString difference(const QString &label, const QByteArray &app, const QByteArray &replay)
{
    qsizetype at = 0;
    while (at < app.size() && at < replay.size() && app.at(at) == replay.at(at))
        ++at;
    constexpr qsizetype Context = 120;
    const qsizetype from = std::max<qsizetype>(0, at - Context);
    const auto window = [&](const QByteArray &body) {
        return QString::fromUtf8(body.mid(from, at - from)) + QStringLiteral("⟦")
               + QString::fromUtf8(body.mid(at, Context)) + QStringLiteral("⟧");
    };
    return QStringLiteral("%1: the bodies differ at byte %2 (the app's is %3 bytes, the replay's %4); from byte %5, "
                          "the first difference after ⟦:\n  app:    %6\n  replay: %7")
        .arg(label)
        .arg(at)
        .arg(app.size())
        .arg(replay.size())
        .arg(from)
        .arg(window(app), window(replay));
}

QJsonObject json(const QByteArray &body)
{
    return QJsonDocument::fromJson(body).object();
}

// The text of every message of an OpenAI-format body, one after the other.
QString messagesText(const QJsonObject &body)
{
    QString out;
    for (const QJsonValue &m : body.value(QStringLiteral("messages")).toArray())
        out += m.toObject().value(QStringLiteral("content")).toString() + u'\n';
    return out;
}

QByteArray line(qint64 t, const char *event, QJsonObject fields = {})
{
    fields.insert(QStringLiteral("t"), t);
    fields.insert(QStringLiteral("event"), QLatin1StringView(event));
    return QJsonDocument(fields).toJson(QJsonDocument::Compact) + '\n';
}

} // namespace

class tst_ReplayIsApp : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void cleanup();

    void providerKeepsTheRequestsItReceives();
    void traceChecksAttachAndAssistant_data();
    void traceChecksAttachAndAssistant();
    void replayRequestsAreTheWindowsByteForByte();

private:
    // The user's side: every foreground request the window sent, and the chat's answers.
    void useTheWindow(QList<LocalProvider::ReceivedRequest> *sent, QStringList *chatAnswers);
    void makeWindow();
    void pasteDocument(const QString &text);
    void selectParagraph(int index);
    void runAction(DocumentAction action);
    void chooseFreeChatWithTheAssistant();
    void attachNotes();
    void ask(const QString &question, QStringList *answers);
    // The replay's side: the same actions as a trace.
    static QByteArray trace();

    TestSupport::LocalProviderFixture m_local{u"instant",
                                              [](LocalProvider::ServerConfig &c) { c.keepRequests = true; }};
    QNetworkAccessManager m_network;
    QTemporaryDir m_dir;
    std::unique_ptr<Prefetch::ResponseCache> m_cache;
    std::unique_ptr<Prefetch::Engine> m_engine;
    std::unique_ptr<Prefetch::HoverStrategy> m_hover;
    std::unique_ptr<Prefetch::DebounceStrategy> m_debounce;
    std::unique_ptr<Prefetch::WorkflowStrategy> m_workflow;
    std::unique_ptr<Prefetch::WarmupStrategy> m_warmup;
    std::unique_ptr<Prefetch::Speculator> m_speculator;
    std::unique_ptr<Gui::ConversationStore> m_store;
    std::unique_ptr<Gui::MainWindow> m_window;
};

void tst_ReplayIsApp::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);
    {
        QSettings settings; // the last assistant chosen is remembered across runs: start from none
        Gui::setLastAssistant(settings, Gui::AssistantSettings::GeneralId);
    }
    QVERIFY(m_dir.isValid());
    QVERIFY2(m_local.start(), qPrintable(m_local.errorString()));
}

void tst_ReplayIsApp::cleanup()
{
    if (m_window) {
        for (Gui::Document *document : m_window->tabs()->documents())
            document->setModified(false); // nothing unsaved may hold the close up
    }
    m_window.reset();
    m_store.reset();
    m_speculator.reset();
    m_warmup.reset();
    m_workflow.reset();
    m_debounce.reset();
    m_hover.reset();
    m_engine.reset();
    m_cache.reset();
    QVERIFY(m_local.waitForNoOpenStream(5000));
}

// --- the provider keeps what it receives -------------------------------------------------------

void tst_ReplayIsApp::providerKeepsTheRequestsItReceives()
{
    // Off by default: a server that serves for hours keeps nothing.
    LocalProvider::ServerThread plain(LocalProvider::ServerConfig{});
    QVERIFY(plain.start());
    LocalProvider::ServerConfig keeping;
    keeping.keepRequests = true;
    LocalProvider::ServerThread kept(keeping);
    QVERIFY(kept.start());

    const QByteArray body = R"({"model":"headstart-local","max_tokens":8,"messages":[{"role":"user","content":"Hi"}]})";
    const auto post = [&](const LocalProvider::ServerThread &server, const char *path, const QByteArray &purpose,
                          bool prefetch) {
        QNetworkRequest request(server.url().resolved(QUrl(QString::fromLatin1(path))));
        request.setHeader(QNetworkRequest::ContentTypeHeader, QByteArrayLiteral("application/json"));
        if (!purpose.isEmpty())
            request.setRawHeader("X-Headstart-Purpose", purpose);
        if (prefetch)
            request.setRawHeader("X-Prefetch", "1");
        std::unique_ptr<QNetworkReply> reply(m_network.post(request, body));
        QSignalSpy finished(reply.get(), &QNetworkReply::finished);
        return reply->isFinished() || finished.wait(10000);
    };
    QVERIFY(post(plain, "v1/chat/completions", "foreground", false));
    QCOMPARE(plain.stats().requestsServed, 1);
    QVERIFY(plain.receivedRequests().requests.isEmpty());

    QVERIFY(post(kept, "v1/chat/completions", "hover", true));
    QVERIFY(post(kept, "v1/messages", {}, false));
    // One the server refuses (a purpose it does not accept) is kept too: it is what was sent.
    QVERIFY(post(kept, "v1/chat/completions", "Not A Purpose", false));
    QVERIFY(post(kept, "health", {}, false)); // not a generation request
    const LocalProvider::ReceivedRequests received = kept.receivedRequests();
    QCOMPARE(received.notKept, 0);
    QCOMPARE(received.requests.size(), 3);
    QCOMPARE(received.requests.at(0), (LocalProvider::ReceivedRequest{"/v1/chat/completions", "hover", true, body}));
    QCOMPARE(received.requests.at(1), (LocalProvider::ReceivedRequest{"/v1/messages", {}, false, body}));
    QCOMPARE(received.requests.at(2).purpose, QByteArray("Not A Purpose"));
    QCOMPARE(received.bytes, 3 * body.size());
    QCOMPARE(kept.stats().requestsRejected, 1);
}

// --- the trace's new lines -----------------------------------------------------------------------

void tst_ReplayIsApp::traceChecksAttachAndAssistant_data()
{
    QTest::addColumn<QByteArray>("line");
    QTest::addColumn<QString>("error"); // empty: accepted
    QTest::addRow("attach") << line(0, "attach",
                                    {{QStringLiteral("name"), NotesName}, {QStringLiteral("text"), NotesText}})
                            << QString();
    QTest::addRow("attach, no text") << line(0, "attach", {{QStringLiteral("name"), NotesName}})
                                     << QStringLiteral("\"attach\" needs the field \"text\"");
    QTest::addRow("attach, a folder") << line(0, "attach",
                                              {{QStringLiteral("name"), QStringLiteral("../notes.md")},
                                               {QStringLiteral("text"), NotesText}})
                                      << QStringLiteral("\"name\" must be a file name without a folder");
    QTest::addRow("attach, text not a string")
        << line(0, "attach", {{QStringLiteral("name"), NotesName}, {QStringLiteral("text"), 3}})
        << QStringLiteral("\"text\" must be a string");
    const QJsonObject chat{{QStringLiteral("conversation"), QStringLiteral("c1")},
                           {QStringLiteral("mode"), QStringLiteral("free")}};
    QTest::addRow("chat_open, no assistant") << line(0, "chat_open", chat) << QString();
    QJsonObject withAssistant = chat;
    withAssistant.insert(QStringLiteral("assistant"), Assistant);
    QTest::addRow("chat_open, an assistant") << line(0, "chat_open", withAssistant) << QString();
    withAssistant.insert(QStringLiteral("assistant"), 2);
    QTest::addRow("chat_open, assistant not a string")
        << line(0, "chat_open", withAssistant) << QStringLiteral("\"assistant\" must be an assistant's id");
}

void tst_ReplayIsApp::traceChecksAttachAndAssistant()
{
    QFETCH(QByteArray, line);
    QFETCH(QString, error);
    const auto parsed = Bench::Trace::parse(line + ::line(10, "end"), QStringLiteral("test"));
    if (error.isEmpty()) {
        QVERIFY2(parsed, qPrintable(parsed.error()));
    } else {
        QVERIFY(!parsed);
        QVERIFY2(parsed.error().contains(error), qPrintable(parsed.error()));
    }
}

// --- the window, used by a person ---------------------------------------------------------------

void tst_ReplayIsApp::makeWindow()
{
    // The application's settings for a new user: the local demo engine's profile as the app
    // makes it (Gui::AppSettings, with the embedded provider's address, as
    // Application::resolveProfile() sets it), with the settings the replay uses with prefetch off.
    const Gui::AppSettings app;
    Llm::ProviderProfile profile = app.selectedProfile();
    QVERIFY(profile.isLocalDemo);
    profile.baseUrl = m_local.server().apiUrl();
    const Prefetch::Settings settings = Bench::settingsFor(Bench::Mode::Off, Speed, {});
    QVERIFY(settings.routing.enabled); // the app's default: short questions go to the fast model
    m_engine = std::make_unique<Prefetch::Engine>(&m_network, profile, settings);
    QVERIFY(m_engine->profile().hasDistinctFastModel());
    m_cache = std::make_unique<Prefetch::ResponseCache>(m_dir.filePath(QStringLiteral("responses.sqlite")));
    m_engine->setResponseCache(m_cache.get());
    m_hover = std::make_unique<Prefetch::HoverStrategy>(m_engine.get());
    m_debounce = std::make_unique<Prefetch::DebounceStrategy>(m_engine.get(),
                                                              std::make_shared<Prefetch::HeuristicClassifier>());
    m_workflow = std::make_unique<Prefetch::WorkflowStrategy>(m_engine.get());
    m_warmup = std::make_unique<Prefetch::WarmupStrategy>(m_engine.get());
    m_speculator = std::make_unique<Prefetch::Speculator>(m_engine.get());
    m_store = std::make_unique<Gui::ConversationStore>(m_dir.filePath(QStringLiteral("conversations.sqlite")));
    Gui::Services services{m_engine.get(), m_hover.get(), m_debounce.get(),   m_workflow.get(),
                           m_warmup.get(), m_store.get(), m_speculator.get(), nullptr};
    m_window = std::make_unique<Gui::MainWindow>(services);
    // As Application::addWindow() sets a window up.
    m_window->setTranslateTarget(app.translateTarget);
    QVERIFY(m_window->chatDock());
    m_window->chatDock()->setAssistants(app.assistants);
    m_window->show();
    QVERIFY(QTest::qWaitForWindowExposed(m_window.get()));
    m_window->activateWindow();
    QVERIFY(QTest::qWaitForWindowActive(m_window.get()));
}

void tst_ReplayIsApp::pasteDocument(const QString &text)
{
    // File, New (Ctrl+N), then the text pasted in (Ctrl+V): an untitled document, as the
    // replay's are.
    QWidget *focus = QApplication::focusWidget() ? QApplication::focusWidget() : m_window.get();
    QTest::keyClick(focus, Qt::Key_N, Qt::ControlModifier);
    QTRY_VERIFY_WITH_TIMEOUT(m_window->currentTab() && m_window->currentTab()->hasFocus(), 5000);
    Gui::DocumentTab *tab = m_window->currentTab();
    QGuiApplication::clipboard()->setText(text);
    QTest::keyClick(tab, Qt::Key_V, Qt::ControlModifier);
    QCOMPARE(tab->model()->text(), text);
}

void tst_ReplayIsApp::selectParagraph(int index)
{
    // The mouse down at the paragraph's first character, Shift+click after its last: what the
    // replay's `select` line stands for.
    Gui::DocumentTab *tab = m_window->currentTab();
    QTextBlock block = tab->document()->firstBlock();
    for (int seen = -1; block.isValid(); block = block.next()) {
        if (!block.text().isEmpty() && ++seen == index)
            break;
    }
    QVERIFY2(block.isValid(), "the document has too few paragraphs");
    QTextCursor start(block);
    QTextCursor end(block);
    end.movePosition(QTextCursor::EndOfBlock);
    const QRect first = tab->cursorRect(start);
    const QRect last = tab->cursorRect(end);
    QVERIFY2(tab->viewport()->rect().contains(first) && tab->viewport()->rect().contains(last),
             "the paragraph is not all in view: the document must be smaller or the window larger");
    QTest::mouseClick(tab->viewport(), Qt::LeftButton, {}, first.center());
    QTest::mouseClick(tab->viewport(), Qt::LeftButton, Qt::ShiftModifier, last.center());
    QCOMPARE(tab->selectedText(), Bench::paragraphs(documentText()).at(index));
}

void tst_ReplayIsApp::runAction(DocumentAction action)
{
    QPushButton *button = m_window->actionButton(action);
    QVERIFY(button);
    QTRY_VERIFY_WITH_TIMEOUT(button->isEnabled(), 5000);
    QSignalSpy ended(m_window.get(), &Gui::MainWindow::answerEnded);
    QTest::mouseClick(button, Qt::LeftButton);
    QTRY_COMPARE_WITH_TIMEOUT(ended.count(), 1, 20000);
    QVERIFY2(ended.first().first().toBool(), qPrintable(m_window->answerPane()->statusText()));
}

void tst_ReplayIsApp::chooseFreeChatWithTheAssistant()
{
    Gui::ChatDock *chat = m_window->chatDock();
    // The mode, with the keyboard: "Free chat" is the last entry (no library).
    QComboBox *mode = chat->modeSelector();
    mode->setFocus();
    QTRY_VERIFY_WITH_TIMEOUT(mode->hasFocus(), 2000);
    QTest::keyClick(mode, Qt::Key_End);
    QCOMPARE(chat->mode(), Gui::ConversationMode::FreeChat);

    // The assistant, with the mouse, from the box's list.
    QComboBox *box = chat->assistantSelector();
    QTest::mouseClick(box, Qt::LeftButton);
    QAbstractItemView *popup = box->view();
    QTRY_VERIFY_WITH_TIMEOUT(popup->isVisible(), 2000);
    const QModelIndex editor = box->model()->index(box->findData(Assistant), 0);
    QVERIFY(editor.isValid());
    // The popup ignores a release within the double-click interval of its opening (the click that
    // opened it must not pick an entry), so the click is repeated until the popup takes it.
    QTRY_VERIFY_WITH_TIMEOUT((QTest::mouseClick(popup->viewport(), Qt::LeftButton, {},
                                                popup->visualRect(editor).center()),
                              box->currentData().toString() == Assistant),
                             3000);
    QTRY_VERIFY_WITH_TIMEOUT(!popup->isVisible(), 2000);
    QCOMPARE(chat->session()->assistant().id, Assistant);
    QVERIFY(chat->session()->assistant().temperature);
}

void tst_ReplayIsApp::attachNotes()
{
    Gui::ChatDock *chat = m_window->chatDock();
    QFile file(m_dir.filePath(NotesName));
    QVERIFY(file.open(QIODevice::WriteOnly));
    QCOMPARE(file.write(NotesText.toUtf8()), NotesText.toUtf8().size());
    file.close();
    // The paperclip, then the file's name typed into the dialog and Attach clicked.
    QTest::mouseClick(chat->attachButton(), Qt::LeftButton);
    QPointer<QFileDialog> dialog; // it deletes itself when closed
    QTRY_VERIFY_WITH_TIMEOUT((dialog = chat->findChild<QFileDialog *>(QStringLiteral("attachDialog")))
                                 && dialog->isVisible(),
                             5000);
    auto *name = dialog->findChild<QLineEdit *>(QStringLiteral("fileNameEdit"));
    auto *buttons = dialog->findChild<QDialogButtonBox *>(QStringLiteral("buttonBox"));
    QVERIFY(name && buttons);
    QPushButton *attach = buttons->button(QDialogButtonBox::Open);
    QVERIFY(attach);
    dialog->setDirectory(m_dir.path()); // the user's way to the folder is not what is compared
    name->setFocus();
    QTRY_VERIFY_WITH_TIMEOUT(name->hasFocus(), 2000);
    QTest::keyClicks(name, NotesName);
    // The button, not Return: the name field's completer popup may take the key.
    QTRY_VERIFY_WITH_TIMEOUT(attach->isEnabled(), 5000);
    QTest::mouseClick(attach, Qt::LeftButton);
    QTRY_VERIFY_WITH_TIMEOUT(!dialog, 5000);
    QCOMPARE(chat->session()->attachments().size(), 1);
    // Back in the window (the offscreen platform has no window manager to give it back).
    m_window->activateWindow();
    QVERIFY(QTest::qWaitForWindowActive(m_window.get()));
}

void tst_ReplayIsApp::ask(const QString &question, QStringList *answers)
{
    Gui::ChatDock *chat = m_window->chatDock();
    QTest::mouseClick(chat->input()->viewport(), Qt::LeftButton);
    QTRY_VERIFY_WITH_TIMEOUT(chat->input()->hasFocus(), 2000);
    QSignalSpy ended(chat, &Gui::ChatDock::answerEnded);
    QTest::keyClicks(chat->input(), question);
    QTest::keyClick(chat->input(), Qt::Key_Return);
    QTRY_COMPARE_WITH_TIMEOUT(ended.count(), 1, 20000);
    QVERIFY(ended.first().first().toBool());
    answers->append(chat->session()->messages().constLast().content);
}

void tst_ReplayIsApp::useTheWindow(QList<LocalProvider::ReceivedRequest> *sent, QStringList *chatAnswers)
{
    const qsizetype before = m_local.server().receivedRequests().requests.size();
    makeWindow();
    if (QTest::currentTestFailed())
        return;
    pasteDocument(documentText());
    if (QTest::currentTestFailed())
        return;
    selectParagraph(SelectedParagraph);
    if (QTest::currentTestFailed())
        return;
    for (DocumentAction action : Prefetch::AllDocumentActions) {
        runAction(action);
        if (QTest::currentTestFailed())
            return;
    }
    chooseFreeChatWithTheAssistant();
    if (QTest::currentTestFailed())
        return;
    ask(QuickQuestion, chatAnswers);
    if (QTest::currentTestFailed())
        return;
    attachNotes();
    if (QTest::currentTestFailed())
        return;
    ask(WorkQuestion, chatAnswers);
    if (QTest::currentTestFailed())
        return;
    *sent = m_local.server().receivedRequests().requests.mid(before);
}

// --- the replay ---------------------------------------------------------------------------------

QByteArray tst_ReplayIsApp::trace()
{
    QByteArray out = line(0, "meta", {{QStringLiteral("name"), QStringLiteral("replay-is-app")}});
    out += line(0, "open_document",
                {{QStringLiteral("doc"), QStringLiteral("d1")},
                 {QStringLiteral("tokens"), DocumentTokens},
                 {QStringLiteral("seed"), qint64(DocumentSeed)},
                 {QStringLiteral("language"), QStringLiteral("en")}});
    out += line(400, "selecting");
    out += line(800, "select", {{QStringLiteral("paragraph"), SelectedParagraph}});
    // Each action pressed and clicked, four seconds of the trace (two of the replay's) apart: the
    // answer before has come by then. (A click cancels the answer before it, which only matters
    // if its request had not gone out: a stall of that long between two lines.)
    qint64 t = 2000;
    for (DocumentAction action : Prefetch::AllDocumentActions) {
        const QJsonObject which{{QStringLiteral("action"), QLatin1StringView(Prefetch::documentActionId(action))}};
        out += line(t, "press", which);
        out += line(t + 80, "click", which);
        t += 4000;
    }
    out += line(t, "chat_open",
                {{QStringLiteral("conversation"), QStringLiteral("c1")},
                 {QStringLiteral("mode"), QStringLiteral("free")},
                 {QStringLiteral("assistant"), Assistant}});
    out += line(t + 1000, "type", {{QStringLiteral("text"), QuickQuestion}});
    out += line(t + 1500, "send");
    // Seven and a half seconds of the trace (under four of the replay's) for the first answer to
    // end before the second question: its text goes with it.
    t += 7500;
    out += line(t, "attach", {{QStringLiteral("name"), NotesName}, {QStringLiteral("text"), NotesText}});
    out += line(t + 1000, "type", {{QStringLiteral("text"), WorkQuestion}});
    out += line(t + 1500, "send");
    out += line(t + 2000, "end");
    return out;
}

// --- the comparison -------------------------------------------------------------------------------

void tst_ReplayIsApp::replayRequestsAreTheWindowsByteForByte()
{
    QList<LocalProvider::ReceivedRequest> appSent;
    QStringList appAnswers;
    useTheWindow(&appSent, &appAnswers);
    if (QTest::currentTestFailed())
        return;
    // The replay's profile for the local engine (Bench::simulatedProfile) is the app's in all that
    // decides a request's bytes: its target, and the fast model's name and encoding.
    const Llm::ProviderProfile &profile = m_engine->profile();
    const Llm::ProviderProfile simulated = Bench::simulatedProfile({}, profile.baseUrl);
    QVERIFY(simulated.target() == profile.target());
    QCOMPARE(simulated.fastModel, profile.fastModel);
    QVERIFY(simulated.fastEncodeOptions == profile.fastEncodeOptions);
    QCOMPARE(simulated.minCacheableTokens, profile.minCacheableTokens);

    {
        // The window left its assistant in the settings as the last one chosen; the replay must
        // take it from its trace.
        QSettings settings;
        Gui::setLastAssistant(settings, Gui::AssistantSettings::GeneralId);
    }
    const auto parsed = Bench::Trace::parse(trace(), QStringLiteral("replay-is-app"));
    QVERIFY2(parsed, qPrintable(parsed.error()));
    Bench::Replayer replayer(*parsed, *Bench::Preset::byName(u"instant"), Bench::Mode::Off, Speed);
    replayer.setKeepRequests(true);
    QSignalSpy finished(&replayer, &Bench::Replayer::finished);
    const auto error = replayer.start();
    QVERIFY2(!error, qPrintable(error.value_or(QString())));
    QVERIFY(finished.wait(120000));
    const Bench::RunResult &replayed = replayer.result();
    QVERIFY2(replayed.problems.isEmpty(), qPrintable(replayed.problems.join(u'\n')));

    // Prefetch is off on both sides: nothing but what the user asked for went out.
    const QList<LocalProvider::ReceivedRequest> window = foreground(appSent);
    const QList<LocalProvider::ReceivedRequest> replay = foreground(replayed.received);
    constexpr qsizetype Expected = std::size(Prefetch::AllDocumentActions) + 2;
    QVERIFY2(window.size() == Expected && appSent.size() == Expected,
             qPrintable(QStringLiteral("the window sent: %1").arg(describe(appSent))));
    QVERIFY2(replay.size() == Expected && replayed.received.size() == Expected,
             qPrintable(QStringLiteral("the replay sent: %1").arg(describe(replayed.received))));
    QCOMPARE(replayed.chatAnswers.size(), 2);

    QStringList labels;
    for (DocumentAction action : Prefetch::AllDocumentActions)
        labels.append(QStringLiteral("request %1 (%2)")
                          .arg(labels.size() + 1)
                          .arg(QLatin1StringView(Prefetch::documentActionId(action))));
    labels.append(QStringLiteral("request %1 (the chat's quick question)").arg(labels.size() + 1));
    labels.append(QStringLiteral("request %1 (the chat's question with the file)").arg(labels.size() + 1));
    for (qsizetype i = 0; i < Expected; ++i) {
        if (i == Expected - 1) {
            // The second question's history has the first answer: the replay's must have ended
            // before it was sent, as the window's had. Its request was the window's, so the answer
            // was too unless the second question cut it short.
            QVERIFY2(replayed.chatAnswers.first() == appAnswers.first(),
                     "the replay's first chat answer was cut short by the second question: a busy machine held "
                     "the replay's clock up past the trace's gap");
        }
        QCOMPARE(replay.at(i).path, window.at(i).path);
        QVERIFY2(replay.at(i).body == window.at(i).body,
                 qPrintable(difference(labels.at(i), window.at(i).body, replay.at(i).body)));
    }

    // What the comparison covered: the selection, the assistant, both routes and the file.
    const QString selection = Bench::paragraphs(documentText()).at(SelectedParagraph);
    const QJsonObject rewrite = json(window.at(qsizetype(DocumentAction::RewriteSelection)).body);
    QVERIFY2(messagesText(rewrite).contains(selection), "the Rewrite request does not carry the selection");
    const QJsonObject quick = json(window.at(Expected - 2).body);
    const QJsonObject work = json(window.at(Expected - 1).body);
    QCOMPARE(quick.value(QStringLiteral("model")).toString(), FastModel);
    QCOMPARE(work.value(QStringLiteral("model")).toString(), MainModel);
    const double temperature = *Gui::AssistantSettings().find(Assistant).temperature;
    QCOMPARE(quick.value(QStringLiteral("temperature")).toDouble(), temperature);
    QCOMPARE(work.value(QStringLiteral("temperature")).toDouble(), temperature);
    QVERIFY2(messagesText(work).contains(NotesText), qPrintable(messagesText(work)));
    QVERIFY2(messagesText(work).contains(appAnswers.first()), "the second question's history lacks the first answer");
}

QTEST_MAIN(tst_ReplayIsApp)
#include "tst_replayisapp.moc"
