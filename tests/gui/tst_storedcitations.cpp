// A library answer's citations in the conversation store: the passages (path, heading, offsets,
// page) are stored with the answer and read back after reopening; a schema-2 file (before
// citations were kept) is upgraded in place with its messages intact and no citations; a value
// that is not ours reads as no citations; the JSON form round-trips; the tooltip of a PDF's
// citation names the page and the viewer, and an answer's [n] links carry their tooltips
// exactly, quotes and backslashes in a path included.
#include "support/expectederror.h"
#include "gui/answer/markdownview.h"
#include "workspace/conversations/conversationstore.h"
#include "workspace/conversations/storedcitations.h"

#include <QSqlDatabase>
#include <QSqlError>
#include <QSqlQuery>
#include <QSqlRecord>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QTextBlock>
#include <QTextBrowser>

#include <memory>

using Gui::ConversationStore;
using Gui::MessageState;
using Knowledge::Passage;

namespace {

// Schema 2 as it shipped: schema 1, then the usage columns.
const char *const SchemaTwo[] = {
    "CREATE TABLE conversations (id INTEGER PRIMARY KEY, title TEXT NOT NULL, document_path TEXT NOT NULL DEFAULT '',"
    " mode TEXT NOT NULL DEFAULT 'free', created_at INTEGER NOT NULL, updated_at INTEGER NOT NULL)",
    "CREATE INDEX conversations_updated ON conversations (updated_at DESC, id DESC)",
    "CREATE TABLE messages (id INTEGER PRIMARY KEY,"
    " conversation_id INTEGER NOT NULL REFERENCES conversations (id) ON DELETE CASCADE, role TEXT NOT NULL,"
    " content TEXT NOT NULL DEFAULT '', reasoning TEXT NOT NULL DEFAULT '', state TEXT NOT NULL DEFAULT 'complete',"
    " error TEXT NOT NULL DEFAULT '', created_at INTEGER NOT NULL)",
    "CREATE INDEX messages_conversation ON messages (conversation_id, id)",
    "ALTER TABLE messages ADD COLUMN input_tokens INTEGER NOT NULL DEFAULT -1",
    "ALTER TABLE messages ADD COLUMN cache_read_tokens INTEGER NOT NULL DEFAULT -1",
    "ALTER TABLE messages ADD COLUMN cache_write_tokens INTEGER NOT NULL DEFAULT -1",
    "ALTER TABLE messages ADD COLUMN output_tokens INTEGER NOT NULL DEFAULT -1",
    "ALTER TABLE messages ADD COLUMN reasoning_tokens INTEGER NOT NULL DEFAULT -1",
    "ALTER TABLE messages ADD COLUMN first_token_ms REAL NOT NULL DEFAULT -1",
    "ALTER TABLE messages ADD COLUMN tokens_per_second REAL NOT NULL DEFAULT -1",
    "ALTER TABLE messages ADD COLUMN cost REAL NOT NULL DEFAULT -1",
    "ALTER TABLE messages ADD COLUMN currency TEXT NOT NULL DEFAULT ''",
    "INSERT INTO conversations VALUES (1, 'Library chat', '', 'library', 1000, 2000)",
    "INSERT INTO messages (id, conversation_id, role, content, state, created_at, output_tokens)"
    " VALUES (1, 1, 'user', 'Where is the pump code?', 'complete', 1000, -1)",
    "INSERT INTO messages (id, conversation_id, role, content, state, created_at, output_tokens)"
    " VALUES (2, 1, 'assistant', 'It is 4471-QZ [1].', 'complete', 2000, 7)",
    "PRAGMA user_version = 2",
};

QList<Passage> samplePassages()
{
    Passage text;
    text.path = QStringLiteral("/home/user/notes/garden.md");
    text.headingTrail = QStringLiteral("Garden manual > Pumps");
    text.start = 120;
    text.end = 181;
    text.text = QStringLiteral("not stored");
    Passage pdf;
    pdf.path = QStringLiteral("/home/user/papers/harbour \"2026\".pdf");
    pdf.start = 4000;
    pdf.end = 4410;
    pdf.page = 7;
    return {text, pdf};
}

// What is stored of a passage: everything but its text and score.
void compareStored(const QList<Passage> &got, const QList<Passage> &want)
{
    QCOMPARE(got.size(), want.size());
    for (qsizetype i = 0; i < got.size(); ++i) {
        QCOMPARE(got[i].path, want[i].path);
        QCOMPARE(got[i].headingTrail, want[i].headingTrail);
        QCOMPARE(got[i].start, want[i].start);
        QCOMPARE(got[i].end, want[i].end);
        QCOMPARE(got[i].page, want[i].page);
        QVERIFY(got[i].text.isEmpty());
    }
}

} // namespace

class tst_StoredCitations : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void init();

    void citationsAreStoredAndSurviveReopening();
    void schemaTwoFileIsUpgradedInPlace();
    void foreignValuesReadAsNoCitations();
    void jsonRoundTrips();
    void toolTipsSayWhereThePassageIs();
    void linksCarryTheirToolTips();

private:
    void runOnFile(const QStringList &statements);
    int userVersion();
    QString dbPath() const { return m_dir->filePath(QStringLiteral("conversations.sqlite")); }
    std::unique_ptr<QTemporaryDir> m_dir;
};

void tst_StoredCitations::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);
}

void tst_StoredCitations::init()
{
    m_dir = std::make_unique<QTemporaryDir>();
    QVERIFY(m_dir->isValid());
}

void tst_StoredCitations::runOnFile(const QStringList &statements)
{
    const QString name = QStringLiteral("direct");
    {
        QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), name);
        db.setDatabaseName(dbPath());
        QVERIFY(db.open());
        QSqlQuery q(db);
        for (const QString &s : statements)
            QVERIFY2(q.exec(s), qPrintable(s + u' ' + q.lastError().text()));
    }
    QSqlDatabase::removeDatabase(name);
}

int tst_StoredCitations::userVersion()
{
    int version = -1;
    const QString name = QStringLiteral("version");
    {
        QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), name);
        db.setDatabaseName(dbPath());
        if (db.open()) {
            QSqlQuery q(db);
            if (q.exec(QStringLiteral("PRAGMA user_version")) && q.next())
                version = q.value(0).toInt();
        }
    }
    QSqlDatabase::removeDatabase(name);
    return version;
}

void tst_StoredCitations::citationsAreStoredAndSurviveReopening()
{
    qint64 conversation = 0;
    {
        ConversationStore store(dbPath());
        QVERIFY(store.isPersistent());
        conversation = *store.create(QStringLiteral("Library"), {}, Gui::ConversationMode::Library);
        QVERIFY(store.appendMessage(conversation, Llm::Role::User, QStringLiteral("Where is the pump code?")));
        const auto answer = store.appendMessage(conversation, Llm::Role::Assistant, {}, {}, MessageState::Partial);
        QVERIFY(answer);
        QVERIFY(store.setCitations(*answer, samplePassages()));
        QVERIFY(store.updateMessage(*answer, QStringLiteral("It is 4471-QZ [1]."), {}, MessageState::Complete));
        QVERIFY(!store.setCitations(*answer + 100, samplePassages())); // no such message: said so
    }
    ConversationStore reopened(dbPath());
    const auto messages = reopened.messages(conversation);
    QVERIFY2(messages, TestSupport::errorOf(messages).constData());
    QCOMPARE(messages->size(), 2);
    QVERIFY(messages->at(0).citations.isEmpty());
    compareStored(messages->at(1).citations, samplePassages());
}

void tst_StoredCitations::schemaTwoFileIsUpgradedInPlace()
{
    QStringList statements;
    for (const char *s : SchemaTwo)
        statements << QLatin1String(s);
    runOnFile(statements);
    QCOMPARE(userVersion(), 2);
    {
        ConversationStore store(dbPath());
        QVERIFY(store.isPersistent());
        QVERIFY2(store.recoveryMessage().isEmpty(), qPrintable(store.recoveryMessage()));
        const auto messages = store.messages(1);
        QVERIFY2(messages, TestSupport::errorOf(messages).constData());
        QCOMPARE(messages->size(), 2);
        QCOMPARE(messages->at(1).content, QStringLiteral("It is 4471-QZ [1]."));
        QCOMPARE(messages->at(1).usage.tokens.outputTokens, 7);
        QVERIFY(messages->at(1).citations.isEmpty()); // answered before citations were kept
        QVERIFY(store.setCitations(2, samplePassages()));
    }
    QCOMPARE(userVersion(), ConversationStore::SchemaVersion);
    ConversationStore reopened(dbPath());
    compareStored(reopened.messages(1)->at(1).citations, samplePassages());
}

void tst_StoredCitations::foreignValuesReadAsNoCitations()
{
    {
        ConversationStore store(dbPath());
        const qint64 conversation = *store.create(QStringLiteral("Odd"));
        QVERIFY(store.appendMessage(conversation, Llm::Role::Assistant, QStringLiteral("One [1]")));
        QVERIFY(store.appendMessage(conversation, Llm::Role::Assistant, QStringLiteral("Two [1]")));
        QVERIFY(store.appendMessage(conversation, Llm::Role::Assistant, QStringLiteral("Three [1]")));
    }
    runOnFile({QStringLiteral("UPDATE messages SET citations = 'not json' WHERE id = 1"),
               QStringLiteral("UPDATE messages SET citations = '{\"path\": \"/a\"}' WHERE id = 2"),
               QStringLiteral("UPDATE messages SET citations = '[{\"start\": 3}]' WHERE id = 3")});
    ConversationStore store(dbPath());
    const auto messages = store.messages(1);
    QVERIFY2(messages, TestSupport::errorOf(messages).constData());
    QCOMPARE(messages->size(), 3);
    for (const Gui::StoredMessage &m : *messages)
        QVERIFY2(m.citations.isEmpty(), qPrintable(m.content));
}

void tst_StoredCitations::jsonRoundTrips()
{
    QVERIFY(Gui::citationsToJson({}).isEmpty());
    QVERIFY(Gui::citationsFromJson({}).isEmpty());
    const QString json = Gui::citationsToJson(samplePassages());
    QVERIFY(!json.contains(QLatin1String("not stored"))); // the text stays in the file
    compareStored(Gui::citationsFromJson(json), samplePassages());
}

void tst_StoredCitations::toolTipsSayWhereThePassageIs()
{
    const QList<Passage> passages = samplePassages();
    const QString text = Gui::citationToolTip(passages[0]);
    QVERIFY(text.contains(QStringLiteral("garden.md")));
    QVERIFY(text.contains(QStringLiteral("Garden manual > Pumps")));
    QVERIFY(!text.contains(QLatin1String("page")));
    const QString pdf = Gui::citationToolTip(passages[1]);
    QVERIFY2(pdf.contains(QStringLiteral("harbour \"2026\".pdf")) && pdf.contains(QLatin1String("page 7"))
                 && pdf.contains(QLatin1String("PDF viewer")),
             qPrintable(pdf));
}

void tst_StoredCitations::linksCarryTheirToolTips()
{
    Gui::MarkdownView view;
    const QStringList tips{QStringLiteral("C:\\notes\\\"odd\" name.md. Opens the file."), QStringLiteral("Second")};
    view.setCitations(tips);
    view.setMarkdown(QStringLiteral("First [1], then [2], never [3]."));
    auto *browser = view.findChild<QTextBrowser *>();
    QVERIFY(browser);
    QHash<QString, QString> found; // href -> tooltip
    for (QTextBlock block = browser->document()->begin(); block.isValid(); block = block.next()) {
        for (auto it = block.begin(); !it.atEnd(); ++it) {
            const QTextCharFormat format = it.fragment().charFormat();
            if (format.isAnchor())
                found.insert(format.anchorHref(), format.toolTip());
        }
    }
    QCOMPARE(found.size(), 2); // [3] has no passage: plain text
    QCOMPARE(found.value(QStringLiteral("cite:1")), tips[0]);
    QCOMPARE(found.value(QStringLiteral("cite:2")), tips[1]);
    QVERIFY(browser->toPlainText().contains(QLatin1String("never [3].")));
}

QTEST_MAIN(tst_StoredCitations)
#include "tst_storedcitations.moc"
