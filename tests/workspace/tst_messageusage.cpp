// Per-message usage in the conversation store: an answer's tokens, speed and cost are stored
// with it and read back after reopening; a schema-1 file (before usage existed) is upgraded
// in place with its messages intact and their usage "not known"; a migration that fails
// half-way leaves the file exactly at schema 1 (one transaction); the compact line and its
// tooltip show what is known and leave out what is not.
#include "support/expectederror.h"
#include "workspace/conversations/conversationstore.h"
#include "workspace/conversations/messageusage.h"
#include "workspace/settings/money.h"

#include <QLocale>
#include <QSqlDatabase>
#include <QSqlError>
#include <QSqlQuery>
#include <QSqlRecord>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

#include <memory>

using Gui::ConversationStore;
using Gui::MessageState;
using Gui::MessageUsage;

namespace {

// Schema 1 as it shipped: the tables an older Headstart left on disk.
const char *const SchemaOne[] = {
    "CREATE TABLE conversations (id INTEGER PRIMARY KEY, title TEXT NOT NULL, document_path TEXT NOT NULL DEFAULT '',"
    " mode TEXT NOT NULL DEFAULT 'free', created_at INTEGER NOT NULL, updated_at INTEGER NOT NULL)",
    "CREATE INDEX conversations_updated ON conversations (updated_at DESC, id DESC)",
    "CREATE TABLE messages (id INTEGER PRIMARY KEY,"
    " conversation_id INTEGER NOT NULL REFERENCES conversations (id) ON DELETE CASCADE, role TEXT NOT NULL,"
    " content TEXT NOT NULL DEFAULT '', reasoning TEXT NOT NULL DEFAULT '', state TEXT NOT NULL DEFAULT 'complete',"
    " error TEXT NOT NULL DEFAULT '', created_at INTEGER NOT NULL)",
    "CREATE INDEX messages_conversation ON messages (conversation_id, id)",
    "INSERT INTO conversations VALUES (1, 'Old chat', '', 'free', 1000, 2000)",
    "INSERT INTO messages VALUES (1, 1, 'user', 'An old question', '', 'complete', '', 1000)",
    "INSERT INTO messages VALUES (2, 1, 'assistant', 'An old answer', 'old thoughts', 'complete', '', 2000)",
    "PRAGMA user_version = 1",
};

MessageUsage sampleUsage()
{
    MessageUsage u;
    u.tokens.inputTokens = 1204;
    u.tokens.cacheReadTokens = 1024;
    u.tokens.cacheWriteTokens = 64;
    u.tokens.outputTokens = 310;
    u.tokens.reasoningTokens = 12;
    u.firstTokenMs = 420.4;
    u.tokensPerSecond = 58.25;
    u.cost = 0.0031;
    u.currency = QStringLiteral("USD");
    u.model = QStringLiteral("qwen-plus");
    // Begun by the fast model (schema 7).
    u.openingModel = QStringLiteral("qwen-turbo");
    u.openingChars = 97;
    return u;
}

} // namespace

class tst_MessageUsage : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void init();

    void usageIsStoredAndSurvivesReopening();
    void schemaOneFileIsUpgradedInPlace();
    void failedMigrationLeavesTheFileAsItWas();
    void lineShowsWhatIsKnown();

private:
    // Runs `statements` on the file at dbPath() through a connection of its own.
    void runOnFile(const QStringList &statements);
    QStringList messageColumns();
    int userVersion();
    QString dbPath() const { return m_dir->filePath(QStringLiteral("conversations.sqlite")); }
    std::unique_ptr<QTemporaryDir> m_dir;
};

void tst_MessageUsage::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);
    QLocale::setDefault(QLocale(QLocale::English, QLocale::UnitedStates)); // fixed separators
}

void tst_MessageUsage::init()
{
    m_dir = std::make_unique<QTemporaryDir>();
    QVERIFY(m_dir->isValid());
}

void tst_MessageUsage::runOnFile(const QStringList &statements)
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

QStringList tst_MessageUsage::messageColumns()
{
    QStringList out;
    const QString name = QStringLiteral("columns");
    {
        QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), name);
        db.setDatabaseName(dbPath());
        if (db.open()) {
            const QSqlRecord record = db.record(QStringLiteral("messages"));
            for (int i = 0; i < record.count(); ++i)
                out << record.fieldName(i);
        }
    }
    QSqlDatabase::removeDatabase(name);
    return out;
}

int tst_MessageUsage::userVersion()
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

void tst_MessageUsage::usageIsStoredAndSurvivesReopening()
{
    const MessageUsage usage = sampleUsage();
    qint64 conversation = 0;
    qint64 answer = 0;
    {
        ConversationStore store(dbPath());
        QVERIFY(store.isPersistent());
        conversation = *store.create(QStringLiteral("Usage"));
        QVERIFY(store.appendMessage(conversation, Llm::Role::User, QStringLiteral("How much?")));
        const auto id = store.appendMessage(conversation, Llm::Role::Assistant, {}, {}, MessageState::Partial);
        QVERIFY2(id, TestSupport::errorOf(id).constData());
        answer = *id;
        // While it streams there is no usage yet; the end brings it.
        const auto partial = store.messages(conversation);
        QVERIFY(partial->at(1).usage.isEmpty());
        QVERIFY(store.updateMessage(answer, QStringLiteral("This much."), {}, MessageState::Complete, {}, usage));
    }
    ConversationStore reopened(dbPath());
    const auto messages = reopened.messages(conversation);
    QVERIFY2(messages, TestSupport::errorOf(messages).constData());
    QCOMPARE(messages->size(), 2);
    QVERIFY(messages->at(0).usage.isEmpty());
    QCOMPARE(messages->at(1).id, answer);
    QCOMPARE(messages->at(1).usage, usage);

    // Written with a message in one go, as an import does.
    const auto direct = reopened.appendMessage(conversation, Llm::Role::Assistant, QStringLiteral("Again"), {},
                                               MessageState::Complete, {}, usage);
    QVERIFY(direct);
    QCOMPARE(reopened.messages(conversation)->at(2).usage, usage);
}

void tst_MessageUsage::schemaOneFileIsUpgradedInPlace()
{
    QStringList statements;
    for (const char *s : SchemaOne)
        statements << QLatin1String(s);
    runOnFile(statements);
    QCOMPARE(userVersion(), 1);

    {
        ConversationStore store(dbPath());
        QVERIFY(store.isPersistent());
        QVERIFY2(store.recoveryMessage().isEmpty(), qPrintable(store.recoveryMessage()));
        QVERIFY(store.movedAsidePath().isEmpty());
        const auto messages = store.messages(1);
        QVERIFY2(messages, TestSupport::errorOf(messages).constData());
        QCOMPARE(messages->size(), 2);
        QCOMPARE(messages->at(0).content, QStringLiteral("An old question"));
        QCOMPARE(messages->at(1).content, QStringLiteral("An old answer"));
        QCOMPARE(messages->at(1).reasoning, QStringLiteral("old thoughts"));
        // Answers from before usage was kept: nothing known, nothing shown.
        QVERIFY(messages->at(1).usage.isEmpty());
        QVERIFY(Gui::usageLine(messages->at(1).usage).isEmpty());
        QVERIFY(store.updateMessage(2, QStringLiteral("An old answer"), {}, MessageState::Complete, {}, sampleUsage()));
    }
    QCOMPARE(userVersion(), ConversationStore::SchemaVersion);
    QVERIFY(messageColumns().contains(QStringLiteral("cache_write_tokens")));
    ConversationStore reopened(dbPath());
    QCOMPARE(reopened.messages(1)->at(1).usage, sampleUsage());
}

void tst_MessageUsage::failedMigrationLeavesTheFileAsItWas()
{
    // A schema-1 file that somehow has the last column of step 2 already: that step's last
    // statement fails after the others ran.
    QStringList statements;
    for (const char *s : SchemaOne)
        statements << QLatin1String(s);
    statements << QStringLiteral("ALTER TABLE messages ADD COLUMN currency TEXT");
    runOnFile(statements);
    const QStringList before = messageColumns();

    {
        ConversationStore store(dbPath());
        // Not upgraded, not moved aside (the file is not damaged), and the user is told.
        QVERIFY(!store.isPersistent());
        QVERIFY(!store.recoveryMessage().isEmpty());
        QVERIFY(store.movedAsidePath().isEmpty());
    }
    QCOMPARE(userVersion(), 1);
    // Rolled back whole: none of the columns added before the failing one stayed.
    QCOMPARE(messageColumns(), before);
    QVERIFY(!messageColumns().contains(QStringLiteral("input_tokens")));
}

void tst_MessageUsage::lineShowsWhatIsKnown()
{
    const MessageUsage usage = sampleUsage();
    const QString line = Gui::usageLine(usage);
    QCOMPARE(line, QStringLiteral("1,204 in (1,024 cached) · 310 out · 420 ms · 58 tok/s · ")
                       + Gui::formatMoney(0.0031, QStringLiteral("USD")));
    const QString details = Gui::usageDetails(usage);
    for (const char *part : {"1,204", "1,024", "Cache write (input stored in the cache): 64", "310", "reasoning: 12",
                             "420 ms", "58 tok/s"})
        QVERIFY2(details.contains(QLatin1String(part)), part);

    // A provider that reports no cache figures, a free one, a slow first token.
    MessageUsage sparse;
    sparse.tokens.inputTokens = 50;
    sparse.tokens.outputTokens = 7;
    sparse.firstTokenMs = 2500;
    sparse.cost = 0;
    sparse.currency = QStringLiteral("USD");
    QCOMPARE(Gui::usageLine(sparse), QStringLiteral("50 in · 7 out · 2.50 s · free"));
    QVERIFY(Gui::usageDetails(sparse).contains(QLatin1String("Cache write (input stored in the cache): not reported")));
    QVERIFY(Gui::usageDetails(sparse).contains(QLatin1String("Output speed: not reported")));
    QVERIFY(Gui::usageLine(MessageUsage{}).isEmpty());
}

QTEST_GUILESS_MAIN(tst_MessageUsage)
#include "tst_messageusage.moc"
