// Assistants in use, against the real local provider: the chat dock's "Assistant" box chosen by
// keyboard (its mnemonic, then the arrow keys) and by mouse; the request the provider received
// carries the assistant's instructions, temperature and answer length (the answer is the one a
// fresh request of exactly that prompt gets, and the engine reports the request it sent); a
// prefetch at a typing pause is made with them and taken over by Enter; the choice is stored
// with the conversation and restored, new conversations take the last one, a removed assistant
// falls back to General; a chat about a large document with an assistant compiles off the GUI
// thread. And the Settings page, driven by clicks and keys: add, name, instruct, tune, remove,
// restore a changed built-in.
#include "support/chatdocksuite.h"
#include "support/localproviderfixture.h"
#include "gui/chat/chatdock.h"
#include "gui/settings/settingsdialog.h"
#include "prefetch/engine.h"
#include "prefetch/prompts/actionprompts.h"
#include "prefetch/strategies/debouncestrategy.h"
#include "prefetch/stream/answerreader.h"
#include "workspace/conversations/conversationstore.h"
#include "workspace/documents/document.h"
#include "workspace/settings/appsettings.h"
#include "workspace/settings/assistantsettings.h"
#include "workspace/settings/secretstore.h"

#include <QAbstractItemView>
#include <QApplication>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QLineEdit>
#include <QListWidget>
#include <QMainWindow>
#include <QNetworkAccessManager>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QSpinBox>
#include <QStandardPaths>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTest>

#include <memory>

using Gui::AppSettings;
using Gui::Assistant;
using Gui::AssistantSettings;
using Gui::ChatDock;
using Gui::ConversationMode;
using Gui::ConversationStore;
using Gui::SettingsDialog;

namespace {

const QString PirateInstructions = QStringLiteral("Answer as a ship's captain would, in short sentences.");

// What the engine reported sending for the answer the user saw.
struct Sent {
    Prefetch::Strategy origin = Prefetch::Strategy::None;
    Llm::ChatRequest request;
};

} // namespace

class tst_ChatAssistants : public QObject, private TestSupport::ChatDockSuite
{
    Q_OBJECT

private slots:
    void initTestCase();
    void init();
    void cleanup();

    void chosenByKeyboardTheRequestCarriesIt();
    void chosenByMousePrefetchCarriesItAndIsTakenOver();
    void choiceIsStoredRestoredAndNewConversationsTakeTheLast();
    void removedAssistantFallsBackToGeneral();
    void largeDocumentChatWithAnAssistantCompilesInTheBackground();

    void pageAddsNamesAndTunesAnAssistant();
    void pageRestoresAndRemovesByKeyboard();

private:
    void makeDock();
    void typeAndSend(const QString &text);
    // The answer's text, and what the engine sent for it.
    QString waitForAnswer(Sent *sent = nullptr);
    // The text a fresh request of the chat prompt with `instructions` and `params` gets.
    QString expectedAnswer(const QString &instructions, const Prefetch::GenerationParams &params, const QString &text);
    AssistantSettings withPirate(QString *id) const;

    std::unique_ptr<Gui::MemorySecretStore> m_secrets;
    std::unique_ptr<SettingsDialog> m_dialog;
    Sent m_lastSent;
    int m_sentCount = 0;
};

void tst_ChatAssistants::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);
    QVERIFY(startProvider());
}

void tst_ChatAssistants::init()
{
    {
        QSettings settings; // the last assistant chosen is remembered across runs: start from none
        Gui::setLastAssistant(settings, AssistantSettings::GeneralId);
    }
    QVERIFY(openStore());
    // The main model answers everything here (its answers are what the checks expect); routing
    // to the fast model has its own suite, tst_chatrouting.
    Prefetch::Settings mainModelOnly;
    mainModelOnly.routing.enabled = false;
    m_stack = m_local.makeStack(&m_network, {}, mainModelOnly);
    connect(m_stack->engine(), &Prefetch::Engine::responseEnded, this,
            [this](Prefetch::Strategy origin, const Llm::ChatRequest &request, const Llm::Usage &) {
                m_lastSent = {origin, request};
                ++m_sentCount;
            });
    makeDock();
}

void tst_ChatAssistants::cleanup()
{
    m_dialog.reset();
    m_secrets.reset();
    QVERIFY(closeDock());
}

void tst_ChatAssistants::makeDock()
{
    QVERIFY(showDock());
}

AssistantSettings tst_ChatAssistants::withPirate(QString *id) const
{
    AssistantSettings s;
    *id = s.add(QStringLiteral("Captain"));
    Assistant pirate = s.find(*id);
    pirate.systemPrompt = PirateInstructions;
    pirate.temperature = 0.7;
    pirate.maxTokens = 40;
    s.update(pirate);
    return s;
}

void tst_ChatAssistants::typeAndSend(const QString &text)
{
    QTest::keyClicks(m_dock->input(), text);
    QTest::keyClick(m_dock->input(), Qt::Key_Return);
}

QString tst_ChatAssistants::waitForAnswer(Sent *sent)
{
    const int reported = m_sentCount;
    QSignalSpy ended(m_dock.get(), &ChatDock::answerEnded);
    if (!ended.wait(15000))
        return QStringLiteral("<timeout>");
    if (sent) {
        if (!QTest::qWaitFor([&] { return m_sentCount > reported; }, 2000))
            return QStringLiteral("<not reported>");
        *sent = m_lastSent;
    }
    const auto messages = m_store->messages(m_dock->currentConversationId());
    return messages && !messages->isEmpty() ? messages->last().content : QStringLiteral("<not stored>");
}

QString tst_ChatAssistants::expectedAnswer(const QString &instructions, const Prefetch::GenerationParams &params,
                                           const QString &text)
{
    const auto compiled = Prefetch::chatTemplate(false, instructions).compile(m_stack->engine()->profile(), {});
    if (!compiled)
        return QStringLiteral("<not compiled>");
    // Free chat's requests carry the conversation's cache key once it is stored.
    const Prefetch::CompiledPrompt keyed = compiled->withCacheKey(
        Prefetch::cacheKeyFor(QStringLiteral("conversation:%1").arg(m_dock->currentConversationId())));
    return TestSupport::freshText(&m_network, m_stack->engine()->profile(),
                                  Prefetch::renderChatMessage(keyed, {}, m_stack->engine()->profile().model, text,
                                                              params));
}

void tst_ChatAssistants::chosenByKeyboardTheRequestCarriesIt()
{
    QString id;
    m_dock->setAssistants(withPirate(&id));
    QComboBox *box = m_dock->assistantSelector();
    QCOMPARE(box->currentData().toString(), AssistantSettings::GeneralId);
    QCOMPARE(box->count(), 6);

    // Alt+S, the label's mnemonic, reaches the box from the input; End picks the last one.
    QTest::keyClick(m_dock->input(), Qt::Key_S, Qt::AltModifier);
    QTRY_COMPARE_WITH_TIMEOUT(QApplication::focusWidget(), box, 2000);
    QTest::keyClick(box, Qt::Key_End);
    QCOMPARE(box->currentText(), QStringLiteral("Captain"));
    QCOMPARE(m_dock->session()->assistant().id, id);

    m_dock->input()->setFocus();
    const QString question = QStringLiteral("Where is the harbour");
    typeAndSend(question);
    Sent sent;
    const QString answer = waitForAnswer(&sent);
    // What the provider received: the chat's system prompt with the instructions after it, and
    // the assistant's parameters.
    QVERIFY2(sent.request.system.endsWith(QStringLiteral("\n\n") + PirateInstructions),
             qPrintable(sent.request.system));
    QCOMPARE(sent.request.temperature, std::optional<double>(0.7));
    QCOMPARE(sent.request.maxTokens, 40);
    Prefetch::GenerationParams params;
    params.temperature = 0.7;
    params.maxTokens = 40;
    QCOMPARE(answer, expectedAnswer(PirateInstructions, params, question));
    QVERIFY(answer != expectedAnswer({}, {}, question));
    QCOMPARE(m_store->conversation(m_dock->currentConversationId())->assistantId, id);
}

void tst_ChatAssistants::chosenByMousePrefetchCarriesItAndIsTakenOver()
{
    QComboBox *box = m_dock->assistantSelector();
    QTest::mouseClick(box, Qt::LeftButton);
    QAbstractItemView *popup = box->view();
    QTRY_VERIFY_WITH_TIMEOUT(popup->isVisible(), 2000);
    const QModelIndex concise = box->model()->index(box->findData(QStringLiteral("concise")), 0);
    // The popup ignores a release within the double-click interval of its opening (the click that
    // opened it must not pick an entry), so the click is repeated until the popup takes it.
    QTRY_VERIFY_WITH_TIMEOUT((QTest::mouseClick(popup->viewport(), Qt::LeftButton, {},
                                                popup->visualRect(concise).center()),
                              box->currentData().toString() == QLatin1String("concise")),
                             3000);
    QTRY_VERIFY_WITH_TIMEOUT(!popup->isVisible(), 2000);
    const Assistant chosen = m_dock->session()->assistant();
    QCOMPARE(chosen.id, QStringLiteral("concise"));

    // A pause on a complete question prefetches it; Enter takes that over: the prefetch had the
    // assistant's instructions and length, or its fingerprint would not have matched.
    const auto before = m_local.stats();
    QSignalSpy started(m_stack->debounce(), &Prefetch::DebounceStrategy::prefetchStarted);
    m_dock->input()->setFocus();
    QTest::keyClicks(m_dock->input(), QStringLiteral("How do I reset my password?"));
    QVERIFY(started.wait(3000));
    QTRY_COMPARE_WITH_TIMEOUT(m_local.stats().prefetchRequests, before.prefetchRequests + 1, 3000);
    QTest::keyClick(m_dock->input(), Qt::Key_Return);
    QVERIFY(m_dock->isAnswering());
    QVERIFY(m_dock->currentAnswer()->isPrefetched());
    Sent sent;
    QVERIFY(!waitForAnswer(&sent).isEmpty());
    QCOMPARE(sent.origin, Prefetch::Strategy::Debounce);
    QVERIFY2(sent.request.system.endsWith(chosen.systemPrompt), qPrintable(sent.request.system));
    QCOMPARE(sent.request.maxTokens, 300);
    QCOMPARE(m_local.stats().prefetchRequests, before.prefetchRequests + 1);
    QCOMPARE(m_local.stats().billedByPurpose.value(QStringLiteral("foreground")),
             before.billedByPurpose.value(QStringLiteral("foreground")));
    const auto debounce = m_stack->engine()->metrics().stats(Prefetch::Strategy::Debounce);
    QCOMPARE(debounce.hits + debounce.partialHits, 1);
}

void tst_ChatAssistants::choiceIsStoredRestoredAndNewConversationsTakeTheLast()
{
    QComboBox *box = m_dock->assistantSelector();
    box->setFocus();
    QTest::keyClick(box, Qt::Key_Down); // Writing editor
    QCOMPARE(box->currentData().toString(), QStringLiteral("editor"));
    m_dock->input()->setFocus();
    typeAndSend(QStringLiteral("First, edited"));
    QVERIFY(!waitForAnswer().isEmpty());
    const qint64 first = m_dock->currentConversationId();

    // A new conversation starts with the assistant used last.
    m_dock->newConversation();
    QVERIFY(m_dock->currentConversationId() != first);
    QCOMPARE(box->currentData().toString(), QStringLiteral("editor"));
    box->setFocus();
    QTest::keyClick(box, Qt::Key_Home); // General
    QCOMPARE(box->currentData().toString(), AssistantSettings::GeneralId);
    m_dock->input()->setFocus();
    typeAndSend(QStringLiteral("Second, plain"));
    Sent sent;
    QVERIFY(!waitForAnswer(&sent).isEmpty());
    QCOMPARE(sent.request.system, Prefetch::chatTemplate(false).segments().first().text.source());
    QCOMPARE(sent.request.maxTokens, Prefetch::GenerationParams().maxTokens);
    QVERIFY(!sent.request.temperature);
    const qint64 second = m_dock->currentConversationId();

    // Reopened, each has its own again, in this dock and in a new one on the same store.
    QVERIFY(m_dock->openConversation(first));
    QCOMPARE(box->currentData().toString(), QStringLiteral("editor"));
    QVERIFY(m_dock->openConversation(second));
    QCOMPARE(box->currentData().toString(), AssistantSettings::GeneralId);
    QCOMPARE(m_store->conversation(first)->assistantId, QStringLiteral("editor"));
    makeDock();
    QVERIFY(m_dock->openConversation(first));
    QCOMPARE(m_dock->assistantSelector()->currentData().toString(), QStringLiteral("editor"));
    typeAndSend(QStringLiteral("And again"));
    QVERIFY(!waitForAnswer(&sent).isEmpty());
    QVERIFY(sent.request.system.endsWith(AssistantSettings().find(QStringLiteral("editor")).systemPrompt));
}

void tst_ChatAssistants::removedAssistantFallsBackToGeneral()
{
    QString id;
    AssistantSettings assistants = withPirate(&id);
    m_dock->setAssistants(assistants);
    m_dock->session()->setAssistant(id);
    typeAndSend(QStringLiteral("Ahoy"));
    QVERIFY(!waitForAnswer().isEmpty());
    const qint64 conversation = m_dock->currentConversationId();
    QCOMPARE(m_store->conversation(conversation)->assistantId, id);

    // Removed in Settings: the conversation is General now, and its next message says so.
    assistants.remove(id);
    m_dock->setAssistants(assistants);
    QCOMPARE(m_dock->assistantSelector()->currentData().toString(), AssistantSettings::GeneralId);
    QCOMPARE(m_dock->assistantSelector()->count(), 5);
    typeAndSend(QStringLiteral("Still there?"));
    Sent sent;
    QVERIFY(!waitForAnswer(&sent).isEmpty());
    QVERIFY2(!sent.request.system.contains(PirateInstructions), qPrintable(sent.request.system));
    QCOMPARE(sent.request.maxTokens, Prefetch::GenerationParams().maxTokens);

    // An id nobody knows (an imported conversation) opens as General, without a crash.
    const qint64 imported = *m_store->create(QStringLiteral("Imported"), {}, ConversationMode::FreeChat,
                                             QStringLiteral("custom-from-elsewhere"));
    QVERIFY(m_dock->openConversation(imported));
    QCOMPARE(m_dock->assistantSelector()->currentData().toString(), AssistantSettings::GeneralId);
    QCOMPARE(m_dock->session()->assistant().id, AssistantSettings::GeneralId);
}

void tst_ChatAssistants::largeDocumentChatWithAnAssistantCompilesInTheBackground()
{
    QString document;
    while (document.size() < Gui::Document::LargeDocumentChars + 10'000)
        document += QStringLiteral("A long document line that keeps going on about prompt caches and prefetching. ");
    Gui::Document open;
    open.setText(document);
    m_dock->setDocument(&open);
    m_dock->setMode(ConversationMode::Document);
    m_dock->session()->setAssistant(QStringLiteral("reviewer"));
    QCOMPARE(m_dock->assistantSelector()->currentData().toString(), QStringLiteral("reviewer"));
    typeAndSend(QStringLiteral("What is this document about?"));
    QCOMPARE(m_dock->statusText(), QStringLiteral("Preparing the document…"));
    QVERIFY(!m_dock->isAnswering());
    Sent sent;
    QVERIFY(!waitForAnswer(&sent).isEmpty());
    // The document's system prompt, then the reviewer's instructions; the document after them.
    QVERIFY(sent.request.system.startsWith(Prefetch::systemPrompt()));
    QVERIFY(sent.request.system.endsWith(AssistantSettings().find(QStringLiteral("reviewer")).systemPrompt));
    QVERIFY(sent.request.messages.first().content.contains(document.left(200)));
    QCOMPARE(sent.request.temperature, std::optional<double>(0.2));
}

// --- the Settings page ---------------------------------------------------------------------------

void tst_ChatAssistants::pageAddsNamesAndTunesAnAssistant()
{
    m_secrets = std::make_unique<Gui::MemorySecretStore>();
    SettingsDialog::Services services;
    services.secrets = m_secrets.get();
    m_dialog = std::make_unique<SettingsDialog>(AppSettings(), services);
    QSignalSpy changed(m_dialog.get(), &SettingsDialog::settingsChanged);
    m_dialog->show();
    QApplication::setActiveWindow(m_dialog.get());
    QVERIFY(QTest::qWaitForWindowActive(m_dialog.get()));
    auto *tabs = m_dialog->findChild<QTabWidget *>(QStringLiteral("pages"));
    // Alt+T, the tab's mnemonic, opens the page.
    QTest::keyClick(m_dialog.get(), Qt::Key_T, Qt::AltModifier);
    QTRY_COMPARE_WITH_TIMEOUT(tabs->currentIndex(), int(SettingsDialog::Page::Assistants), 2000);

    auto *list = m_dialog->findChild<QListWidget *>(QStringLiteral("assistantList"));
    auto *add = m_dialog->findChild<QPushButton *>(QStringLiteral("addAssistant"));
    auto *remove = m_dialog->findChild<QPushButton *>(QStringLiteral("removeAssistant"));
    auto *name = m_dialog->findChild<QLineEdit *>(QStringLiteral("assistantName"));
    auto *prompt = m_dialog->findChild<QPlainTextEdit *>(QStringLiteral("assistantPrompt"));
    auto *temperature = m_dialog->findChild<QDoubleSpinBox *>(QStringLiteral("assistantTemperature"));
    auto *maxTokens = m_dialog->findChild<QSpinBox *>(QStringLiteral("assistantMaxTokens"));
    QVERIFY(list && add && remove && name && prompt && temperature && maxTokens);
    QCOMPARE(list->count(), 5);
    QVERIFY(!remove->isEnabled()); // General is selected: built-ins stay

    QTest::mouseClick(add, Qt::LeftButton);
    QCOMPARE(list->count(), 6);
    QCOMPARE(list->currentRow(), 5);
    QTRY_COMPARE_WITH_TIMEOUT(QApplication::focusWidget(), name, 2000); // straight to naming it
    QVERIFY(remove->isEnabled());
    QTest::keyClicks(name, QStringLiteral("Lawyer"));
    QTest::keyClick(name, Qt::Key_Tab);
    QCOMPARE(QApplication::focusWidget(), prompt);
    QTest::keyClicks(prompt, QStringLiteral("Read {contracts} closely."));
    QTest::keyClick(prompt, Qt::Key_Tab); // Tab leaves the instructions, it types no tab
    QCOMPARE(QApplication::focusWidget(), temperature);
    temperature->selectAll();
    QTest::keyClicks(temperature, QStringLiteral("0.5"));
    QTest::keyClick(temperature, Qt::Key_Tab);
    QCOMPARE(QApplication::focusWidget(), maxTokens);
    maxTokens->selectAll();
    QTest::keyClicks(maxTokens, QStringLiteral("800"));
    QTest::keyClick(maxTokens, Qt::Key_Return);

    QTRY_VERIFY_WITH_TIMEOUT(!changed.isEmpty(), 3000);
    QTRY_VERIFY_WITH_TIMEOUT(changed.last().first().value<AppSettings>().assistants.custom.value(0).maxTokens
                                 == std::optional<int>(800),
                             3000);
    const AssistantSettings edited = changed.last().first().value<AppSettings>().assistants;
    QCOMPARE(edited.custom.size(), 1);
    const Assistant lawyer = edited.custom.first();
    QCOMPARE(lawyer.name, QStringLiteral("Lawyer"));
    QCOMPARE(lawyer.systemPrompt, QStringLiteral("Read {contracts} closely."));
    QCOMPARE(lawyer.temperature, std::optional<double>(0.5));
    QCOMPARE(list->item(5)->text(), QStringLiteral("Lawyer"));

    // Temperature back to the provider's default: Page Down steps below 0, to "off".
    temperature->setFocus();
    QTest::keyClick(temperature, Qt::Key_PageDown);
    QTRY_VERIFY_WITH_TIMEOUT(!changed.last().first().value<AppSettings>().assistants.custom.value(0).temperature, 3000);
    QCOMPARE(temperature->text(), QStringLiteral("Provider default"));

    // Removed by a click: the list is the built-ins again.
    QTest::mouseClick(remove, Qt::LeftButton);
    QCOMPARE(list->count(), 5);
    QVERIFY(changed.last().first().value<AppSettings>().assistants.custom.isEmpty());
}

void tst_ChatAssistants::pageRestoresAndRemovesByKeyboard()
{
    m_secrets = std::make_unique<Gui::MemorySecretStore>();
    SettingsDialog::Services services;
    services.secrets = m_secrets.get();
    AppSettings settings;
    settings.assistants.add(QStringLiteral("Mine"));
    m_dialog = std::make_unique<SettingsDialog>(settings, services);
    QSignalSpy changed(m_dialog.get(), &SettingsDialog::settingsChanged);
    m_dialog->showPage(SettingsDialog::Page::Assistants);
    m_dialog->show();
    QApplication::setActiveWindow(m_dialog.get());
    QVERIFY(QTest::qWaitForWindowActive(m_dialog.get()));
    auto *list = m_dialog->findChild<QListWidget *>(QStringLiteral("assistantList"));
    auto *restore = m_dialog->findChild<QPushButton *>(QStringLiteral("restoreAssistant"));
    auto *prompt = m_dialog->findChild<QPlainTextEdit *>(QStringLiteral("assistantPrompt"));
    auto *name = m_dialog->findChild<QLineEdit *>(QStringLiteral("assistantName"));

    // Alt+A to the list, Down to Writing editor; Alt+I to its instructions.
    QTest::keyClick(m_dialog.get(), Qt::Key_A, Qt::AltModifier);
    QTRY_COMPARE_WITH_TIMEOUT(QApplication::focusWidget(), list, 2000);
    QTest::keyClick(list, Qt::Key_Down);
    QCOMPARE(list->currentItem()->text(), AssistantSettings().find(QStringLiteral("editor")).name);
    QCOMPARE(name->text(), list->currentItem()->text());
    QVERIFY(!restore->isEnabled());
    QTest::keyClick(m_dialog.get(), Qt::Key_I, Qt::AltModifier);
    QTRY_COMPARE_WITH_TIMEOUT(QApplication::focusWidget(), prompt, 2000);
    QTest::keyClick(prompt, Qt::Key_End, Qt::ControlModifier);
    QTest::keyClicks(prompt, QStringLiteral(" Be brief."));
    QTRY_VERIFY_WITH_TIMEOUT(!changed.isEmpty()
                                 && changed.last().first().value<AppSettings>().assistants.isModified(
                                     QStringLiteral("editor")),
                             3000);
    QVERIFY(changed.last()
                .first()
                .value<AppSettings>()
                .assistants.find(QStringLiteral("editor"))
                .systemPrompt.endsWith(QStringLiteral(" Be brief.")));
    QVERIFY(restore->isEnabled());

    // Alt+B restores it as shipped.
    QTest::keyClick(m_dialog.get(), Qt::Key_B, Qt::AltModifier);
    QTRY_VERIFY_WITH_TIMEOUT(!changed.last().first().value<AppSettings>().assistants.isModified(
                                 QStringLiteral("editor")),
                             2000);
    QCOMPARE(prompt->toPlainText(), AssistantSettings().find(QStringLiteral("editor")).systemPrompt);
    QVERIFY(!restore->isEnabled());

    // The user's own, at the end: End, then Alt+V removes it.
    list->setFocus();
    QTest::keyClick(list, Qt::Key_End);
    QCOMPARE(list->currentItem()->text(), QStringLiteral("Mine"));
    QTest::keyClick(m_dialog.get(), Qt::Key_V, Qt::AltModifier);
    QTRY_COMPARE_WITH_TIMEOUT(list->count(), 5, 2000);
    QVERIFY(changed.last().first().value<AppSettings>().assistants.custom.isEmpty());
}

QTEST_MAIN(tst_ChatAssistants)
#include "tst_chatassistants.moc"
