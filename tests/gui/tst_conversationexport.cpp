// Export and import of conversations (ConversationExport, the conversation list's actions):
// JSON export → import gives the same conversation (title, mode, document path, each message's
// role, text, reasoning, state, error, time and usage), through files and through the list's
// file dialog driven by keys; a file that is not ours, cut off, from a newer version or with an
// invalid message is refused with a clear message and writes nothing; Markdown reads as the
// conversation (one-way). A library conversation's citations go with it: the same passages after
// the import, a "Sources" list in Markdown, and an entry that is not a passage imports as no
// citations rather than refusing the file. A question's attachments go with it too, folded in
// Markdown; one without its text refuses the file.
#include "support/expectederror.h"
#include "gui/chat/conversationlist.h"
#include "workspace/conversations/conversationexport.h"
#include "workspace/conversations/conversationstore.h"

#include <QAction>
#include <QDialogButtonBox>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QLineEdit>
#include <QListWidget>
#include <QPushButton>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

#include <memory>

using Gui::ConversationMode;
using Gui::ConversationStore;
using Gui::MessageState;
using Gui::StoredMessage;
namespace Export = Gui::ConversationExport;

class tst_ConversationExport : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void init();

    void jsonRoundTrips();
    void badFilesAreRefusedAndWriteNothing_data();
    void badFilesAreRefusedAndWriteNothing();
    void markdownReadsAsTheConversation();
    void libraryCitationsGoWithTheConversation();
    void attachmentsGoWithTheQuestion();
    void listExportsAndImportsThroughTheFileDialog();

private:
    // A document conversation with every kind of message: reasoning, a stopped and a failed
    // answer, usage. Its id.
    qint64 fill(ConversationStore &store);
    static void compareConversations(const Export::Conversation &a, const Export::Conversation &b);
    // Conversation `id` of `source` exported to a JSON file and imported into a new store: the
    // copy as that store reads it back.
    Gui::StoreResult<Export::Conversation> roundTrip(const ConversationStore &source, qint64 id) const;
    // The list's file dialog, once open: types `path` into its name field and clicks Save/Open.
    static bool acceptFileDialog(QWidget *parent, const QString &path);
    QString path(const QString &name) const { return m_dir->filePath(name); }
    std::unique_ptr<QTemporaryDir> m_dir;
};

void tst_ConversationExport::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);
}

void tst_ConversationExport::init()
{
    m_dir = std::make_unique<QTemporaryDir>();
    QVERIFY(m_dir->isValid());
}

qint64 tst_ConversationExport::fill(ConversationStore &store)
{
    const qint64 id = *store.create(QStringLiteral("Caching “notes” / 缓存"), QStringLiteral("/docs/notes.md"),
                                    ConversationMode::Document);
    Gui::MessageUsage usage;
    usage.tokens.inputTokens = 1200;
    usage.tokens.cacheReadTokens = 1024;
    usage.tokens.cacheWriteTokens = 0;
    usage.tokens.outputTokens = 88;
    usage.firstTokenMs = 312.25;
    usage.tokensPerSecond = 61.5;
    usage.cost = 0.00123;
    usage.currency = QStringLiteral("USD");
    usage.model = QStringLiteral("qwen-plus");
    usage.openingModel = QStringLiteral("qwen-turbo"); // the fast opening's, kept by a round trip
    usage.openingChars = 41;
    store.appendMessage(id, Llm::Role::User, QStringLiteral("What is a prefix cache?\n\nTwo lines."));
    store.appendMessage(id, Llm::Role::Assistant,
                        QStringLiteral("A **cache** of the prompt's start.\n\n```\ncode\n```"),
                        QStringLiteral("The user asks about caches."), MessageState::Complete, {}, usage);
    store.appendMessage(id, Llm::Role::User, QStringLiteral("And then?"));
    store.appendMessage(id, Llm::Role::Assistant, QStringLiteral("Then it was stop"), {}, MessageState::Partial);
    store.appendMessage(id, Llm::Role::User, QStringLiteral("Again"));
    store.appendMessage(id, Llm::Role::Assistant, {}, {}, MessageState::Failed,
                        QStringLiteral("The provider refused."));
    return id;
}

void tst_ConversationExport::compareConversations(const Export::Conversation &a, const Export::Conversation &b)
{
    QCOMPARE(a.info.title, b.info.title);
    QCOMPARE(a.info.mode, b.info.mode);
    QCOMPARE(a.info.documentPath, b.info.documentPath);
    QCOMPARE(a.messages.size(), b.messages.size());
    for (qsizetype i = 0; i < a.messages.size(); ++i) {
        const StoredMessage &x = a.messages.at(i);
        const StoredMessage &y = b.messages.at(i);
        QCOMPARE(x.role, y.role);
        QCOMPARE(x.content, y.content);
        QCOMPARE(x.reasoning, y.reasoning);
        QCOMPARE(x.state, y.state);
        QCOMPARE(x.error, y.error);
        QCOMPARE(x.created, y.created);
        QCOMPARE(x.usage, y.usage);
        QVERIFY(x.attachments == y.attachments);
        QCOMPARE(x.citations.size(), y.citations.size());
        for (qsizetype c = 0; c < x.citations.size(); ++c) {
            QCOMPARE(x.citations.at(c).path, y.citations.at(c).path);
            QCOMPARE(x.citations.at(c).headingTrail, y.citations.at(c).headingTrail);
            QCOMPARE(x.citations.at(c).start, y.citations.at(c).start);
            QCOMPARE(x.citations.at(c).end, y.citations.at(c).end);
            QCOMPARE(x.citations.at(c).page, y.citations.at(c).page);
        }
    }
}

Gui::StoreResult<Export::Conversation> tst_ConversationExport::roundTrip(const ConversationStore &source,
                                                                         qint64 id) const
{
    const QString file = path(QStringLiteral("round-trip.json"));
    if (const auto written = Export::exportToFile(source, id, Export::Format::Json, file); !written)
        return std::unexpected(written.error());
    ConversationStore target(path(QStringLiteral("round-trip.sqlite")));
    const auto imported = Export::importFromFile(target, file);
    if (!imported)
        return std::unexpected(imported.error());
    return Export::load(target, *imported);
}

void tst_ConversationExport::jsonRoundTrips()
{
    ConversationStore source(path(QStringLiteral("a.sqlite")));
    const qint64 id = fill(source);
    const auto original = Export::load(source, id);
    QVERIFY(original);
    QCOMPARE(original->messages.size(), 6);

    const QString file = path(QStringLiteral("c.json"));
    QVERIFY(Export::exportToFile(source, id, Export::Format::Json, file));
    ConversationStore target(path(QStringLiteral("b.sqlite")));
    const auto imported = Export::importFromFile(target, file);
    QVERIFY2(imported, TestSupport::errorOf(imported).constData());
    const auto copy = Export::load(target, *imported);
    QVERIFY(copy);
    compareConversations(*original, *copy);

    // And again: the copy exports to the same bytes.
    QCOMPARE(Export::toJson(*copy), Export::toJson(*original));
    QFile written(file);
    QVERIFY(written.open(QIODevice::ReadOnly));
    QVERIFY(written.readAll().contains("\"format\": \"headstart-conversation\""));
}

void tst_ConversationExport::badFilesAreRefusedAndWriteNothing_data()
{
    QTest::addColumn<QByteArray>("content");
    QTest::addColumn<QString>("says");

    ConversationStore source(path(QStringLiteral("a.sqlite")));
    const QByteArray good = Export::toJson(*Export::load(source, fill(source)));
    QTest::addRow("not json") << QByteArray("# Just some Markdown\n") << QStringLiteral("not a Headstart conversation");
    QTest::addRow("someone else's json") << QByteArray(R"({"messages": [{"role": "user", "content": "hi"}]})")
                                         << QStringLiteral("not a Headstart conversation");
    QTest::addRow("empty") << QByteArray() << QStringLiteral("not a Headstart conversation");
    QTest::addRow("cut off") << good.left(good.size() * 2 / 3) << QStringLiteral("cut off");
    QByteArray newer = good;
    newer.replace("\"version\": 1", "\"version\": 2");
    QTest::addRow("newer version") << newer << QStringLiteral("newer Headstart");
    QByteArray badRole = good;
    badRole.replace("\"role\": \"assistant\"", "\"role\": \"robot\"");
    QTest::addRow("unknown role") << badRole << QStringLiteral("Message 2");
    QByteArray badState = good;
    badState.replace("\"state\": \"failed\"", "\"state\": \"exploded\"");
    QTest::addRow("unknown state") << badState << QStringLiteral("Message 6");
}

void tst_ConversationExport::badFilesAreRefusedAndWriteNothing()
{
    QFETCH(QByteArray, content);
    QFETCH(QString, says);
    const QString file = path(QStringLiteral("bad.json"));
    {
        QFile f(file);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(content);
    }
    ConversationStore target(path(QStringLiteral("b.sqlite")));
    const qint64 kept = *target.create(QStringLiteral("Kept"));
    target.appendMessage(kept, Llm::Role::User, QStringLiteral("still here"));
    QSignalSpy changed(&target, &ConversationStore::conversationsChanged);

    const auto imported = Export::importFromFile(target, file);
    QVERIFY(!imported);
    QVERIFY2(imported.error().contains(says), qPrintable(imported.error()));
    QCOMPARE(changed.size(), 0);
    const auto list = target.conversations();
    QCOMPARE(list->size(), 1);
    QCOMPARE(list->first().id, kept);
    QCOMPARE(target.messages(kept)->size(), 1);
}

void tst_ConversationExport::markdownReadsAsTheConversation()
{
    ConversationStore source(path(QStringLiteral("a.sqlite")));
    const qint64 id = fill(source);
    const QString file = path(QStringLiteral("c.md"));
    QVERIFY(Export::exportToFile(source, id, Export::Format::Markdown, file));
    QFile f(file);
    QVERIFY(f.open(QIODevice::ReadOnly));
    const QString md = QString::fromUtf8(f.readAll());
    QVERIFY(md.startsWith(QStringLiteral("# Caching “notes” / 缓存\n")));
    QVERIFY(md.contains(QLatin1String("/docs/notes.md")));
    QCOMPARE(md.count(QLatin1String("## You\n")), 3);
    QCOMPARE(md.count(QLatin1String("## Assistant\n")), 3);
    QVERIFY(md.contains(QLatin1String("<details><summary>Reasoning</summary>\n\nThe user asks about caches.")));
    QVERIFY(md.contains(QLatin1String("```\ncode\n```")));
    QVERIFY(md.contains(QLatin1String("> Failed: The provider refused.")));
    QVERIFY(md.contains(QLatin1String("Incomplete")));
    QVERIFY(md.contains(u'*' + Gui::usageLine(Export::load(source, id)->messages.at(1).usage) + u'*'));
    // The order is the conversation's.
    QVERIFY(md.indexOf(QLatin1String("What is a prefix cache?")) < md.indexOf(QLatin1String("And then?")));
}

void tst_ConversationExport::libraryCitationsGoWithTheConversation()
{
    ConversationStore source(path(QStringLiteral("a.sqlite")));
    const qint64 id = *source.create(QStringLiteral("Tea and harbours"), {}, ConversationMode::Library);
    source.appendMessage(id, Llm::Role::User, QStringLiteral("龙井茶产于哪里？"));
    const qint64 answer = *source.appendMessage(id, Llm::Role::Assistant, QStringLiteral("杭州西湖 [1]，起重机 [2]。"));
    Knowledge::Passage tea;
    tea.path = QStringLiteral("/notes/茶.md");
    tea.headingTrail = QStringLiteral("龙井");
    tea.start = 8;
    tea.end = 40;
    Knowledge::Passage pdf;
    pdf.path = QStringLiteral("/notes/harbour.pdf");
    pdf.start = 120;
    pdf.end = 180;
    pdf.page = 2;
    QVERIFY(source.setCitations(answer, {tea, pdf}));
    const auto original = Export::load(source, id);
    QVERIFY(original);
    QCOMPARE(original->messages.at(1).citations.size(), 2);

    const auto copy = roundTrip(source, id);
    QVERIFY2(copy, TestSupport::errorOf(copy).constData());
    QCOMPARE(copy->info.mode, ConversationMode::Library);
    compareConversations(*original, *copy);
    QCOMPARE(Export::toJson(*copy), Export::toJson(*original));

    const QString md = Export::toMarkdown(*original);
    QVERIFY2(md.contains(QStringLiteral("Sources:\n\n- [1] /notes/茶.md (龙井)\n- [2] /notes/harbour.pdf, page 2\n")),
             qPrintable(md));

    // A passage without a path is not ours: that answer has no citations, the rest is imported.
    QByteArray foreign = Export::toJson(*original);
    QVERIFY(foreign.contains("\"path\": \"/notes/harbour.pdf\""));
    foreign.replace("\"path\": \"/notes/harbour.pdf\"", "\"where\": \"somewhere\"");
    const auto read = Export::fromJson(foreign);
    QVERIFY2(read, TestSupport::errorOf(read).constData());
    QCOMPARE(read->messages.size(), 2);
    QCOMPARE(read->messages.at(1).content, original->messages.at(1).content);
    QVERIFY(read->messages.at(1).citations.isEmpty());
}

void tst_ConversationExport::attachmentsGoWithTheQuestion()
{
    ConversationStore source(path(QStringLiteral("a.sqlite")));
    const qint64 id = *source.create(QStringLiteral("Pump notes"));
    StoredMessage question;
    question.content = QStringLiteral("What is the code?");
    question.attachments = {{QStringLiteral("notes.md"), QStringLiteral("Run:\n\n```sh\nmake\n```\nCode 4471.\n")},
                            {QStringLiteral("笔记.txt"), QStringLiteral("缓存")}};
    QVERIFY(source.appendMessage(id, question));
    source.appendMessage(id, Llm::Role::Assistant, QStringLiteral("4471."));
    const auto original = Export::load(source, id);
    QVERIFY(original);

    const auto copy = roundTrip(source, id);
    QVERIFY2(copy, TestSupport::errorOf(copy).constData());
    compareConversations(*original, *copy);
    QCOMPARE(copy->messages.at(0).attachments, question.attachments);
    QCOMPARE(Export::toJson(*copy), Export::toJson(*original));

    // Markdown: each file folded above the question, in a fence its own ``` do not close.
    const QString md = Export::toMarkdown(*original);
    QVERIFY2(md.contains(QStringLiteral("<details><summary>Attached: notes.md (")), qPrintable(md));
    QVERIFY2(md.contains(QStringLiteral("````\nRun:\n\n```sh\nmake\n```\nCode 4471.\n````")), qPrintable(md));
    QVERIFY(md.indexOf(QLatin1String("Attached: 笔记.txt")) < md.indexOf(QLatin1String("What is the code?")));

    // An attachment without its text would make it another question: the file is refused.
    QByteArray broken = Export::toJson(*original);
    QVERIFY(broken.contains("\"text\": \"缓存\""));
    broken.replace("\"text\": \"缓存\"", "\"size\": 6");
    const auto read = Export::fromJson(broken);
    QVERIFY(!read);
    QVERIFY2(read.error().contains(QLatin1String("Message 1")) && read.error().contains(QLatin1String("attachment")),
             qPrintable(read.error()));
}

bool tst_ConversationExport::acceptFileDialog(QWidget *parent, const QString &file)
{
    QFileDialog *dialog = nullptr;
    if (!QTest::qWaitFor(
            [&] {
                dialog = parent->findChild<QFileDialog *>(QStringLiteral("conversationFileDialog"));
                return dialog && dialog->isVisible();
            },
            5000))
        return false;
    auto *name = dialog->findChild<QLineEdit *>(QStringLiteral("fileNameEdit"));
    auto *buttons = dialog->findChild<QDialogButtonBox *>(QStringLiteral("buttonBox"));
    if (!name || !buttons)
        return false;
    QPushButton *accept = buttons->button(dialog->acceptMode() == QFileDialog::AcceptSave ? QDialogButtonBox::Save
                                                                                          : QDialogButtonBox::Open);
    if (!accept)
        return false;
    // In the file's folder, the name alone: what a user does after picking the folder.
    dialog->setDirectory(QFileInfo(file).absolutePath());
    name->setFocus();
    name->selectAll();
    QTest::keyClicks(name, QFileInfo(file).fileName());
    // The button, not Return: the name field's completer popup may take the key.
    if (!QTest::qWaitFor([accept] { return accept->isEnabled(); }, 5000))
        return false;
    QTest::mouseClick(accept, Qt::LeftButton);
    return QTest::qWaitFor([&] { return !parent->findChild<QFileDialog *>(QStringLiteral("conversationFileDialog")); },
                           5000);
}

void tst_ConversationExport::listExportsAndImportsThroughTheFileDialog()
{
    ConversationStore store(path(QStringLiteral("a.sqlite")));
    const qint64 id = fill(store);
    Gui::ConversationListPanel panel(&store);
    panel.resize(400, 500);
    panel.show();
    QVERIFY(QTest::qWaitForWindowExposed(&panel));
    panel.reload(id);
    QCOMPARE(panel.list()->count(), 1);
    QVERIFY(panel.exportJsonAction()->isEnabled());
    QVERIFY(panel.list()->actions().contains(panel.exportJsonAction())); // in the context menu
    QVERIFY(panel.list()->actions().contains(panel.exportMarkdownAction()));
    QVERIFY(panel.list()->actions().contains(panel.importAction()));

    const QString file = path(QStringLiteral("exported.json"));
    panel.exportJsonAction()->trigger();
    QVERIFY(acceptFileDialog(&panel, file));
    QVERIFY(QFile::exists(file));

    QSignalSpy selected(&panel, &Gui::ConversationListPanel::conversationSelected);
    QSignalSpy errors(&panel, &Gui::ConversationListPanel::errorOccurred);
    panel.importAction()->trigger();
    QVERIFY(acceptFileDialog(&panel, file));
    QTRY_COMPARE_WITH_TIMEOUT(selected.size(), 1, 5000);
    QCOMPARE(errors.size(), 0);
    const qint64 copyId = selected.first().first().toLongLong();
    QVERIFY(copyId != id);
    QCOMPARE(panel.list()->count(), 2);
    QCOMPARE(panel.list()->currentItem()->data(Qt::UserRole).toLongLong(), copyId);
    compareConversations(*Export::load(store, id), *Export::load(store, copyId));

    // A file that is not ours: the message reaches the user, the list is as it was.
    const QString junk = path(QStringLiteral("junk.json"));
    {
        QFile f(junk);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("{\"hello\": 1}");
    }
    panel.importAction()->trigger();
    QVERIFY(acceptFileDialog(&panel, junk));
    QTRY_COMPARE_WITH_TIMEOUT(errors.size(), 1, 5000);
    QVERIFY(errors.first().first().toString().contains(QLatin1String("not a Headstart conversation")));
    QCOMPARE(store.conversations()->size(), 2);
}

QTEST_MAIN(tst_ConversationExport)
#include "tst_conversationexport.moc"
