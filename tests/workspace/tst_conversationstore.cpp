// The conversation store on real SQLite files in a temporary directory: create, rename, delete
// and list newest first; messages in order and streamed answers updated in place; search over
// titles and message text, with and without the full-text index, LIKE metacharacters literal;
// everything survives closing and reopening; a damaged file (junk, or pages damaged behind an
// intact header) is moved aside, a fresh one works and what still reads is salvaged and
// exported; damage found while open is reported and stops writes; files are owner-only under
// umask 022; a file from a newer version is left alone.
// Over 600 lines: 25 scenarios, each a test function readable on its own; what they share is
// at the top or in tests/support.
#include "support/expectederror.h"
#include "workspace/conversations/conversationsalvage.h"
#include "workspace/conversations/conversationstore.h"

#include "llm/secrets.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QScopeGuard>
#include <QSignalSpy>
#include <QSqlDatabase>
#include <QSqlError>
#include <QSqlQuery>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

#include <memory>
#include <vector>

#include <sys/stat.h>

using Gui::ConversationMode;
using Gui::ConversationStore;
using Gui::MessageState;

class tst_ConversationStore : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void init();

    void createRenameRemove();
    void listIsNewestFirst();
    void messagesKeepTheirOrder();
    void recentRepliesAreQuestionsAfterAnAnswer(); // and recentQuestions() all of them
    void removeMessagesIsAllOrNothing();
    void updateMessageStates();
    void removeTakesTheMessagesAlong();
    void search_data();
    void search();
    void searchFollowsUpdatedText();
    void survivesCloseAndReopen();
    void corruptFileIsMovedAsideAndAFreshOneWorks();
    void damagedPagesAreFoundMovedAsideAndSalvaged();
    void salvageKeepsTheFilesSentWithAQuestion();
    void damageWhileOpenIsReportedAndStopsWrites();
    void filesAndFoldersAreOwnerOnly();
    void newerSchemaIsLeftAlone();
    void unusableLocationFallsBackToMemory();
    void endedAnswerIsInTheMainFile();
    void lostLogAfterACrash_data();
    void lostLogAfterACrash();
    void emptiedFileIsNotTakenForANewOne();
    void sentKeysAreNotStored();
    void connectionsAreUniqueAndRemoved();

private:
    // `count` conversations of two messages each, long enough to fill many pages.
    void fill(int count);
    // Overwrites `pages` pages in the middle of the file (past the header and schema).
    void damageMiddle(const QString &path, int pages);
    static QString question(int i) { return QStringLiteral("Question %1 ").arg(i).repeated(20); }
    static QString answer(int i) { return QStringLiteral("Answer %1 ").arg(i).repeated(30); }
    QString dbPath() const { return m_dir->filePath(QStringLiteral("conversations.sqlite")); }
    // The store's files as a process killed now would leave them (the main file, its log and
    // the wal-index), copied into `folder` while `open` still holds them.
    static QString crashCopy(const QString &from, const QString &folder);
    std::unique_ptr<QTemporaryDir> m_dir;
};

void tst_ConversationStore::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);
}

void tst_ConversationStore::init()
{
    m_dir = std::make_unique<QTemporaryDir>();
    QVERIFY(m_dir->isValid());
}

void tst_ConversationStore::createRenameRemove()
{
    ConversationStore store(dbPath());
    QVERIFY(store.isPersistent());
    QVERIFY2(store.recoveryMessage().isEmpty(), qPrintable(store.recoveryMessage()));

    const auto id = store.create(QStringLiteral("First"), QStringLiteral("/docs/a.md"), ConversationMode::Document);
    QVERIFY2(id, TestSupport::errorOf(id).constData());
    auto info = store.conversation(*id);
    QVERIFY(info);
    QCOMPARE(info->title, QStringLiteral("First"));
    QCOMPARE(info->documentPath, QStringLiteral("/docs/a.md"));
    QCOMPARE(info->mode, ConversationMode::Document);
    QCOMPARE(info->messageCount, 0);
    QVERIFY(info->updated.isValid());

    QVERIFY(store.rename(*id, QStringLiteral("Renamed")));
    QVERIFY(store.setMode(*id, ConversationMode::FreeChat));
    info = store.conversation(*id);
    QCOMPARE(info->title, QStringLiteral("Renamed"));
    QCOMPARE(info->mode, ConversationMode::FreeChat);

    QVERIFY(store.remove(*id));
    QVERIFY(!store.conversation(*id));
    QVERIFY(store.conversations()->isEmpty());
    // Gone is an error the UI can show, not a crash.
    QVERIFY(!store.rename(*id, QStringLiteral("x")));
    QVERIFY(!store.remove(*id));
    QVERIFY(!store.appendMessage(*id, Llm::Role::User, QStringLiteral("hello")));
}

void tst_ConversationStore::listIsNewestFirst()
{
    ConversationStore store(dbPath());
    const qint64 a = *store.create(QStringLiteral("A"));
    const qint64 b = *store.create(QStringLiteral("B"));
    const qint64 c = *store.create(QStringLiteral("C"));
    auto list = store.conversations();
    QVERIFY(list);
    QCOMPARE(list->size(), 3);
    QCOMPARE(list->at(0).id, c);
    QCOMPARE(list->at(1).id, b);
    QCOMPARE(list->at(2).id, a);

    // A new message makes its conversation the newest.
    QVERIFY(store.appendMessage(a, Llm::Role::User, QStringLiteral("bump")));
    list = store.conversations();
    QCOMPARE(list->at(0).id, a);
    QCOMPARE(list->at(0).messageCount, 1);
    QCOMPARE(list->at(1).id, c);
    QVERIFY(list->at(0).updated >= list->at(1).updated);
}

void tst_ConversationStore::removeMessagesIsAllOrNothing()
{
    std::vector<qint64> ids;
    qint64 a = 0;
    qint64 b = 0;
    {
        ConversationStore store(dbPath());
        a = *store.create(QStringLiteral("A"));
        b = *store.create(QStringLiteral("B"));
        for (int i = 0; i < 3; ++i)
            ids.push_back(*store.appendMessage(a, Llm::Role::User, QStringLiteral("m%1").arg(i)));
        const qint64 other = *store.appendMessage(b, Llm::Role::User, QStringLiteral("other"));
        // One id of another conversation: refused, and the valid one stays too.
        QVERIFY(!store.removeMessages(a, {ids[0], other}));
        QCOMPARE(store.messages(a)->size(), 3);
        QCOMPARE(store.messages(b)->size(), 1);
        QVERIFY(store.removeMessages(a, {ids[1], ids[2]}));
        QCOMPARE(store.conversation(a)->messageCount, 1);
    }
    // Reopened: what was deleted stays deleted; search no longer finds it.
    ConversationStore store(dbPath());
    const auto left = store.messages(a);
    QCOMPARE(left->size(), 1);
    QCOMPARE(left->at(0).id, ids[0]);
    QVERIFY(store.conversations(QStringLiteral("m2"))->isEmpty());
    QCOMPARE(store.conversations(QStringLiteral("m0"))->size(), 1);
}

void tst_ConversationStore::messagesKeepTheirOrder()
{
    ConversationStore store(dbPath());
    const qint64 id = *store.create(QStringLiteral("Chat"));
    const qint64 other = *store.create(QStringLiteral("Other"));
    QVERIFY(store.appendMessage(other, Llm::Role::User, QStringLiteral("elsewhere")));
    for (int i = 0; i < 10; ++i) {
        const auto role = i % 2 ? Llm::Role::Assistant : Llm::Role::User;
        QVERIFY(store.appendMessage(id, role, QStringLiteral("message %1").arg(i),
                                    role == Llm::Role::Assistant ? QStringLiteral("thought %1").arg(i) : QString()));
    }
    const auto messages = store.messages(id);
    QVERIFY(messages);
    QCOMPARE(messages->size(), 10);
    for (int i = 0; i < 10; ++i) {
        QCOMPARE(messages->at(i).content, QStringLiteral("message %1").arg(i));
        QCOMPARE(messages->at(i).role, i % 2 ? Llm::Role::Assistant : Llm::Role::User);
        QCOMPARE(messages->at(i).conversationId, id);
        QCOMPARE(messages->at(i).state, MessageState::Complete);
        if (i % 2)
            QCOMPARE(messages->at(i).reasoning, QStringLiteral("thought %1").arg(i));
    }
    QCOMPARE(store.conversation(id)->messageCount, 10);
    QCOMPARE(store.messages(other)->size(), 1);
}

void tst_ConversationStore::recentRepliesAreQuestionsAfterAnAnswer()
{
    ConversationStore store(dbPath());
    const qint64 a = *store.create(QStringLiteral("A"));
    const qint64 b = *store.create(QStringLiteral("B"));
    // Interleaved, as two windows would write them; each conversation's first question is no
    // reply to anything.
    QVERIFY(store.appendMessage(a, Llm::Role::User, QStringLiteral("a first")));
    QVERIFY(store.appendMessage(b, Llm::Role::User, QStringLiteral("b first")));
    QVERIFY(store.appendMessage(a, Llm::Role::Assistant, QStringLiteral("answer")));
    QVERIFY(store.appendMessage(b, Llm::Role::Assistant, QStringLiteral("answer")));
    QVERIFY(store.appendMessage(a, Llm::Role::User, QStringLiteral("a reply 1")));
    QVERIFY(store.appendMessage(b, Llm::Role::User, QStringLiteral("b reply 1")));
    QVERIFY(store.appendMessage(a, Llm::Role::Assistant, QStringLiteral("answer")));
    QVERIFY(store.appendMessage(a, Llm::Role::User, QStringLiteral("a reply 2")));

    const auto replies = store.recentReplies(10);
    QVERIFY(replies);
    QCOMPARE(*replies,
             (QStringList{QStringLiteral("a reply 2"), QStringLiteral("b reply 1"), QStringLiteral("a reply 1")}));
    QCOMPARE(*store.recentReplies(2), replies->mid(0, 2));
    // Every question, the first ones too, newest first (what DraftCompleter completes from).
    QCOMPARE(*store.recentQuestions(10),
             (QStringList{QStringLiteral("a reply 2"), QStringLiteral("b reply 1"), QStringLiteral("a reply 1"),
                          QStringLiteral("b first"), QStringLiteral("a first")}));
    QCOMPARE(*store.recentQuestions(1), QStringList{QStringLiteral("a reply 2")});
    QVERIFY(store.remove(a));
    QCOMPARE(*store.recentReplies(10), QStringList{QStringLiteral("b reply 1")});
    QCOMPARE(*store.recentQuestions(10), (QStringList{QStringLiteral("b reply 1"), QStringLiteral("b first")}));
}

void tst_ConversationStore::updateMessageStates()
{
    ConversationStore store(dbPath());
    const qint64 id = *store.create(QStringLiteral("Chat"));
    QVERIFY(store.appendMessage(id, Llm::Role::User, QStringLiteral("question")));
    const auto answer = store.appendMessage(id, Llm::Role::Assistant, {}, {}, MessageState::Partial);
    QVERIFY(answer);
    QCOMPARE(store.messages(id)->at(1).state, MessageState::Partial);

    // Checkpoints while it streams, then its end.
    QVERIFY(store.updateMessage(*answer, QStringLiteral("The ans"), QStringLiteral("hmm"), MessageState::Partial));
    auto m = store.messages(id)->at(1);
    QCOMPARE(m.content, QStringLiteral("The ans"));
    QCOMPARE(m.reasoning, QStringLiteral("hmm"));
    QCOMPARE(m.state, MessageState::Partial);

    QVERIFY(store.updateMessage(*answer, QStringLiteral("The answer."), QStringLiteral("hmm, yes"),
                                MessageState::Complete));
    m = store.messages(id)->at(1);
    QCOMPARE(m.content, QStringLiteral("The answer."));
    QCOMPARE(m.state, MessageState::Complete);
    QVERIFY(m.error.isEmpty());

    QVERIFY(store.updateMessage(*answer, QStringLiteral("The ans"), {}, MessageState::Failed,
                                QStringLiteral("The connection closed.")));
    m = store.messages(id)->at(1);
    QCOMPARE(m.state, MessageState::Failed);
    QCOMPARE(m.error, QStringLiteral("The connection closed."));
    QCOMPARE(m.content, QStringLiteral("The ans")); // the partial text is kept

    QVERIFY(!store.updateMessage(*answer + 1000, QStringLiteral("x"), {}, MessageState::Complete));
}

void tst_ConversationStore::removeTakesTheMessagesAlong()
{
    ConversationStore store(dbPath());
    const qint64 id = *store.create(QStringLiteral("Doomed"));
    const qint64 keep = *store.create(QStringLiteral("Kept"));
    QVERIFY(store.appendMessage(id, Llm::Role::User, QStringLiteral("unique needle text")));
    QVERIFY(store.appendMessage(keep, Llm::Role::User, QStringLiteral("other")));
    QVERIFY(store.remove(id));
    QVERIFY(store.messages(id)->isEmpty());
    QVERIFY(store.conversations(QStringLiteral("needle"))->isEmpty());
    QCOMPARE(store.messages(keep)->size(), 1);
    QSqlQuery q(QSqlDatabase::database(QSqlDatabase::connectionNames().constFirst()));
    QVERIFY(q.exec(QStringLiteral("SELECT count(*) FROM messages")));
    QVERIFY(q.next());
    QCOMPARE(q.value(0).toInt(), 1);
}

void tst_ConversationStore::search_data()
{
    QTest::addColumn<bool>("fullText");
    QTest::addColumn<QString>("needle");
    QTest::addColumn<QStringList>("expected"); // titles, newest first

    for (bool fullText : {true, false}) {
        const char *index = fullText ? "index" : "like";
        auto row = [&](const char *tag, const QString &needle, const QStringList &expected) {
            QTest::addRow("%s: %s", index, tag) << fullText << needle << expected;
        };
        row("everything", QString(),
            {"Accents über", "Wildcards", "Backslash", "Percent", "Trip to Paris", "Password help"});
        row("blank is everything", QStringLiteral("   "),
            {"Accents über", "Wildcards", "Backslash", "Percent", "Trip to Paris", "Password help"});
        row("title", QStringLiteral("paris"), {"Trip to Paris"});
        row("title, non-ASCII case", QStringLiteral("ÜBER"), {"Accents über"});
        row("message text", QStringLiteral("reset my PASSWORD"), {"Password help"});
        row("message text, short", QStringLiteral("Ok"), {"Password help"});
        row("message text, CJK", QStringLiteral("你好"), {"Trip to Paris"});
        row("message text, CJK long", QStringLiteral("你好世界"), {"Trip to Paris"});
        row("message text, non-ASCII case", QStringLiteral("überall"), {"Accents über"});
        row("percent literal", QStringLiteral("%"), {"Percent"});
        row("percent in a word", QStringLiteral("50%"), {"Percent"});
        row("underscore literal", QStringLiteral("_"), {"Wildcards"});
        row("underscore in a word", QStringLiteral("a_b"), {"Wildcards"});
        row("backslash literal", QStringLiteral("\\"), {"Backslash"});
        row("quote", QStringLiteral("say \"hi\""), {"Backslash"});
        row("no match", QStringLiteral("zebra"), {});
    }
}

void tst_ConversationStore::search()
{
    QFETCH(bool, fullText);
    QFETCH(QString, needle);
    QFETCH(QStringList, expected);

    ConversationStore store(dbPath(), ConversationStore::Options{fullText});
    QCOMPARE(store.hasFullTextSearch(), fullText);
    auto add = [&](const QString &title, const QStringList &texts) {
        const qint64 id = *store.create(title);
        for (const QString &t : texts)
            QVERIFY(store.appendMessage(id, Llm::Role::User, t));
    };
    add(QStringLiteral("Password help"), {QStringLiteral("How do I reset my password?"), QStringLiteral("ok thanks")});
    add(QStringLiteral("Trip to Paris"), {QStringLiteral("Plan three days. 你好世界")});
    add(QStringLiteral("Percent"), {QStringLiteral("A 50% discount")});
    add(QStringLiteral("Backslash"), {QStringLiteral("C:\\path and say \"hi\"")});
    add(QStringLiteral("Wildcards"), {QStringLiteral("snake a_b case")});
    add(QStringLiteral("Accents über"), {QStringLiteral("Grüße ÜBERALL")});

    const auto found = store.conversations(needle);
    QVERIFY2(found, TestSupport::errorOf(found).constData());
    QStringList titles;
    for (const auto &c : *found)
        titles << c.title;
    QCOMPARE(titles, expected);
}

void tst_ConversationStore::searchFollowsUpdatedText()
{
    ConversationStore store(dbPath());
    const qint64 id = *store.create(QStringLiteral("Chat"));
    const qint64 answer = *store.appendMessage(id, Llm::Role::Assistant, QStringLiteral("draft words"), {},
                                               MessageState::Partial);
    QCOMPARE(store.conversations(QStringLiteral("draft"))->size(), 1);
    QVERIFY(store.updateMessage(answer, QStringLiteral("final words"), {}, MessageState::Complete));
    QVERIFY(store.conversations(QStringLiteral("draft"))->isEmpty());
    QCOMPARE(store.conversations(QStringLiteral("final"))->size(), 1);
}

void tst_ConversationStore::survivesCloseAndReopen()
{
    qint64 id = 0;
    qint64 answer = 0;
    {
        ConversationStore store(dbPath());
        id = *store.create(QStringLiteral("Persistent"), {}, ConversationMode::Document);
        QVERIFY(store.appendMessage(id, Llm::Role::User, QStringLiteral("Question?")));
        answer = *store.appendMessage(id, Llm::Role::Assistant, {}, {}, MessageState::Partial);
        QVERIFY(
            store.updateMessage(answer, QStringLiteral("Half an ans"), QStringLiteral("why"), MessageState::Partial));
    }
    ConversationStore store(dbPath());
    QVERIFY(store.isPersistent());
    QVERIFY(store.recoveryMessage().isEmpty());
    const auto list = store.conversations();
    QCOMPARE(list->size(), 1);
    QCOMPARE(list->first().title, QStringLiteral("Persistent"));
    QCOMPARE(list->first().mode, ConversationMode::Document);
    const auto messages = store.messages(id);
    QCOMPARE(messages->size(), 2);
    QCOMPARE(messages->at(1).id, answer);
    QCOMPARE(messages->at(1).content, QStringLiteral("Half an ans"));
    QCOMPARE(messages->at(1).reasoning, QStringLiteral("why"));
    QCOMPARE(messages->at(1).state, MessageState::Partial);
    QCOMPARE(store.conversations(QStringLiteral("half"))->size(), 1);
    // New conversations still sort after the reopened ones' times.
    const qint64 later = *store.create(QStringLiteral("Later"));
    QCOMPARE(store.conversations()->constFirst().id, later);
}

void tst_ConversationStore::corruptFileIsMovedAsideAndAFreshOneWorks()
{
    {
        QFile junk(dbPath());
        QVERIFY(junk.open(QIODevice::WriteOnly));
        QByteArray bytes(8192, '\0');
        for (int i = 0; i < bytes.size(); ++i)
            bytes[i] = char((i * 7919) % 251);
        junk.write(bytes);
    }
    ConversationStore store(dbPath());
    QVERIFY(store.isPersistent());
    QVERIFY(!store.recoveryMessage().isEmpty());
    QVERIFY2(store.movedAsidePath().startsWith(dbPath() + QStringLiteral(".broken-")),
             qPrintable(store.movedAsidePath()));
    QVERIFY(store.recoveryMessage().contains(QDir::toNativeSeparators(store.movedAsidePath())));
    QVERIFY(QFileInfo::exists(store.movedAsidePath()));
    QCOMPARE(QFileInfo(store.movedAsidePath()).size(), 8192); // kept as it was, for recovery by hand

    const auto id = store.create(QStringLiteral("Fresh"));
    QVERIFY(id);
    QVERIFY(store.appendMessage(*id, Llm::Role::User, QStringLiteral("works")));
    QCOMPARE(store.conversations()->size(), 1);
}

void tst_ConversationStore::fill(int count)
{
    ConversationStore store(dbPath());
    QVERIFY(store.isPersistent());
    for (int i = 0; i < count; ++i) {
        const auto id = store.create(QStringLiteral("Conversation %1").arg(i));
        QVERIFY(id);
        QVERIFY(store.appendMessage(*id, Llm::Role::User, question(i)));
        QVERIFY(store.appendMessage(*id, Llm::Role::Assistant, answer(i)));
    }
} // closing the last connection checkpoints the WAL into the file

void tst_ConversationStore::damageMiddle(const QString &path, int pages)
{
    QFile file(path);
    QVERIFY(file.open(QIODevice::ReadWrite));
    constexpr qint64 Page = 4096; // SQLite's default page size
    QVERIFY2(file.size() > 16 * Page, qPrintable(QString::number(file.size())));
    QVERIFY(file.seek((file.size() / 2 / Page) * Page));
    QByteArray junk(int(pages * Page), '\0');
    for (int i = 0; i < junk.size(); ++i)
        junk[i] = char((i * 7919) % 251);
    QCOMPARE(file.write(junk), junk.size());
}

void tst_ConversationStore::damagedPagesAreFoundMovedAsideAndSalvaged()
{
    constexpr int Count = 244;
    fill(Count);
    const QByteArray header = [&] {
        QFile f(dbPath());
        return f.open(QIODevice::ReadOnly) ? f.read(100) : QByteArray();
    }();
    damageMiddle(dbPath(), 3);
    {
        QFile f(dbPath());
        QVERIFY(f.open(QIODevice::ReadOnly));
        QCOMPARE(f.read(100), header); // the header is intact: opening alone does not notice
    }
    const qint64 damagedSize = QFileInfo(dbPath()).size();

    ConversationStore store(dbPath());
    QVERIFY(store.isPersistent());
    // Found, moved aside (not deleted), said so with where it went and how to get at the rest.
    QVERIFY2(store.movedAsidePath().startsWith(dbPath() + QStringLiteral(".broken-")),
             qPrintable(store.recoveryMessage()));
    QCOMPARE(QFileInfo(store.movedAsidePath()).size(), damagedSize);
    QVERIFY2(store.recoveryMessage().contains(QDir::toNativeSeparators(store.movedAsidePath())),
             qPrintable(store.recoveryMessage()));
    QVERIFY2(store.recoveryMessage().contains(QLatin1String("Export")), qPrintable(store.recoveryMessage()));
    // A fresh store: nothing is written into the damage.
    QCOMPARE(store.conversations()->size(), 0);
    QVERIFY(store.create(QStringLiteral("Fresh")));

    // What still reads comes back, each conversation as it was written.
    const auto salvage = Gui::ConversationSalvage::read(store.movedAsidePath());
    QVERIFY2(salvage, TestSupport::errorOf(salvage).constData());
    QVERIFY(!salvage->conversations().isEmpty());
    int messages = 0;
    for (const auto &c : salvage->conversations()) {
        const int i = int(c.id - 1);
        QCOMPARE(c.title, QStringLiteral("Conversation %1").arg(i));
        if (c.complete) {
            QCOMPARE(c.messages.size(), 2);
            QCOMPARE(c.messages[0].role, QStringLiteral("user"));
            QCOMPARE(c.messages[0].content, question(i));
            QCOMPARE(c.messages[1].content, answer(i));
        }
        messages += int(c.messages.size());
    }
    // The tester saw 14 of 244 listed; reading row by row gets far more past the damage.
    QVERIFY2(salvage->conversations().size() > Count / 2, qPrintable(QString::number(salvage->conversations().size())));
    QVERIFY2(messages > Count, qPrintable(QString::number(messages)));

    // Offered for export: Markdown per conversation and one JSON file, owner-only.
    const QString out = m_dir->filePath(QStringLiteral("exported/here"));
    const auto written = salvage->exportTo(out);
    QVERIFY2(written, TestSupport::errorOf(written).constData());
    QCOMPARE(*written, int(salvage->conversations().size()));
    const QFileInfoList files = QDir(out).entryInfoList(QDir::Files);
    QCOMPARE(files.size(), *written + 1);
    QCOMPARE(QFileInfo(out).permissions() & 0x7777, QFileDevice::ReadOwner | QFileDevice::WriteOwner
                                                        | QFileDevice::ExeOwner | QFileDevice::ReadUser
                                                        | QFileDevice::WriteUser | QFileDevice::ExeUser);
    for (const QFileInfo &f : files)
        QCOMPARE(f.permissions() & 0x7777,
                 QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ReadUser | QFileDevice::WriteUser);
    QFile json(QDir(out).filePath(QStringLiteral("conversations.json")));
    QVERIFY(json.open(QIODevice::ReadOnly));
    QCOMPARE(QJsonDocument::fromJson(json.readAll()).array().size(), *written);
    QFile first(files.constFirst().filePath().endsWith(QLatin1String(".md")) ? files.constFirst().filePath()
                                                                             : files.constLast().filePath());
    QVERIFY(first.open(QIODevice::ReadOnly));
    QVERIFY(first.readAll().startsWith("# Conversation "));
}

void tst_ConversationStore::salvageKeepsTheFilesSentWithAQuestion()
{
    {
        ConversationStore store(dbPath());
        const auto id = store.create(QStringLiteral("With files"));
        QVERIFY(id);
        Gui::StoredMessage asked;
        asked.content = QStringLiteral("What do the notes say?");
        asked.attachments = {{QStringLiteral("notes.md"), QStringLiteral("# Notes\n```\ncode\n```\n")},
                             {QStringLiteral("todo.txt"), QStringLiteral("Ship it.")}};
        QVERIFY(store.appendMessage(*id, asked));
        QVERIFY(store.appendMessage(*id, Llm::Role::Assistant, QStringLiteral("They say to ship it.")));
    }
    const auto salvage = Gui::ConversationSalvage::read(dbPath());
    QVERIFY2(salvage, TestSupport::errorOf(salvage).constData());
    QCOMPARE(salvage->conversations().size(), 1);
    const auto &messages = salvage->conversations().constFirst().messages;
    QCOMPARE(messages.size(), 2);
    QCOMPARE(messages[0].attachments.size(), 2);
    QCOMPARE(messages[0].attachments[1].name, QStringLiteral("todo.txt"));
    QCOMPARE(messages[0].attachments[0].text, QStringLiteral("# Notes\n```\ncode\n```\n"));
    QVERIFY(messages[1].attachments.isEmpty());

    const QString out = m_dir->filePath(QStringLiteral("salvaged-files"));
    QVERIFY(salvage->exportTo(out));
    QFile json(QDir(out).filePath(QStringLiteral("conversations.json")));
    QVERIFY(json.open(QIODevice::ReadOnly));
    const QJsonObject first = QJsonDocument::fromJson(json.readAll()).array().at(0).toObject();
    const QJsonArray files =
        first.value(QLatin1String("messages")).toArray().at(0).toObject().value(QLatin1String("attachments")).toArray();
    QCOMPARE(files.size(), 2);
    QCOMPARE(files.at(1).toObject().value(QLatin1String("text")).toString(), QStringLiteral("Ship it."));
    const QStringList markdown = QDir(out).entryList({QStringLiteral("*.md")});
    QCOMPARE(markdown.size(), 1);
    QFile md(QDir(out).filePath(markdown.constFirst()));
    QVERIFY(md.open(QIODevice::ReadOnly));
    const QString text = QString::fromUtf8(md.readAll());
    QVERIFY2(text.contains(QLatin1String("Attached: notes.md")), qPrintable(text));
    // The file's own code fence stays inside a longer one.
    QVERIFY2(text.contains(QLatin1String("````\n# Notes\n```\ncode\n```\n````")), qPrintable(text));

    // A file from before attachments (schema 3: no such column) is salvaged as before.
    const QString old = m_dir->filePath(QStringLiteral("schema3.sqlite"));
    {
        QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), QStringLiteral("schema3"));
        db.setDatabaseName(old);
        QVERIFY(db.open());
        QSqlQuery q(db);
        QVERIFY(
            q.exec(QStringLiteral("CREATE TABLE conversations (id INTEGER PRIMARY KEY, title TEXT, document_path TEXT,"
                                  " updated_at INTEGER)")));
        QVERIFY(
            q.exec(QStringLiteral("CREATE TABLE messages (id INTEGER PRIMARY KEY, conversation_id INTEGER, role TEXT,"
                                  " content TEXT, state TEXT, created_at INTEGER)")));
        QVERIFY(q.exec(QStringLiteral("INSERT INTO conversations VALUES (1, 'Old', '', 0)")));
        QVERIFY(q.exec(QStringLiteral("INSERT INTO messages VALUES (1, 1, 'user', 'Still here?', 'complete', 0)")));
        db.close();
    }
    QSqlDatabase::removeDatabase(QStringLiteral("schema3"));
    const auto older = Gui::ConversationSalvage::read(old);
    QVERIFY2(older, TestSupport::errorOf(older).constData());
    QCOMPARE(older->conversations().size(), 1);
    QCOMPARE(older->conversations().constFirst().messages.size(), 1);
    QCOMPARE(older->conversations().constFirst().messages[0].content, QStringLiteral("Still here?"));
}

void tst_ConversationStore::damageWhileOpenIsReportedAndStopsWrites()
{
    constexpr int Count = 244;
    fill(Count);
    ConversationStore store(dbPath());
    QVERIFY(store.movedAsidePath().isEmpty());
    const auto before = store.conversations();
    QVERIFY(before);
    QCOMPARE(before->size(), Count);

    // The disk fails under the open store. Its page cache holds every page since the check at
    // open; a write by another connection (another program) makes it read from disk again.
    damageMiddle(dbPath(), 3);
    {
        QSqlDatabase other = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), QStringLiteral("other"));
        other.setDatabaseName(dbPath());
        QVERIFY(other.open());
        QSqlQuery q(other);
        QVERIFY2(q.exec(QStringLiteral("PRAGMA user_version = 1")), qPrintable(q.lastError().text()));
    }
    QSqlDatabase::removeDatabase(QStringLiteral("other"));
    QSignalSpy errors(&store, &ConversationStore::errorOccurred);
    int failedReads = 0;
    for (const auto &c : *before) {
        const auto messages = store.messages(c.id);
        if (!messages) {
            ++failedReads;
            QVERIFY2(messages.error().contains(QLatin1String("damaged")), qPrintable(messages.error()));
        }
    }
    const auto list = store.conversations(QStringLiteral("Answer"));
    // Reported, not read as "fewer rows".
    QVERIFY2(failedReads > 0 || !list, "no read noticed the damage");
    QVERIFY(store.damagedWhileOpen());
    // Later writes are refused, each with a message, instead of going on into the damage.
    const auto write = store.appendMessage(before->constFirst().id, Llm::Role::User, QStringLiteral("more"));
    QVERIFY(!write);
    QVERIFY2(write.error().contains(QLatin1String("damaged")), qPrintable(write.error()));
    QCOMPARE(errors.size(), 1);
    QVERIFY(!store.create(QStringLiteral("another")));
    QCOMPARE(errors.size(), 2);
}

void tst_ConversationStore::filesAndFoldersAreOwnerOnly()
{
    const mode_t previous = ::umask(022); // the usual one: new files 0644, folders 0755
    const auto restore = qScopeGuard([previous] { ::umask(previous); });
    const QString path = m_dir->filePath(QStringLiteral("data/Headstart/conversations.sqlite"));
    const auto mode = [](const QString &p) {
        struct stat st {
        };
        return ::stat(QFile::encodeName(p).constData(), &st) == 0 ? int(st.st_mode & 0777) : -1;
    };
    {
        ConversationStore store(path);
        QVERIFY(store.isPersistent());
        const auto id = store.create(QStringLiteral("Private"));
        QVERIFY(store.appendMessage(*id, Llm::Role::User, QStringLiteral("my secret plan")));
        QCOMPARE(mode(m_dir->filePath(QStringLiteral("data"))), 0700);
        QCOMPARE(mode(m_dir->filePath(QStringLiteral("data/Headstart"))), 0700);
        QCOMPARE(mode(path), 0600);
        QVERIFY(QFileInfo::exists(path + QStringLiteral("-wal")));
        QCOMPARE(mode(path + QStringLiteral("-wal")), 0600);
        QCOMPARE(mode(path + QStringLiteral("-shm")), 0600);
    }
    // Files an earlier version left readable are tightened at open.
    QVERIFY(QFile::setPermissions(path, QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ReadGroup
                                            | QFileDevice::ReadOther));
    QCOMPARE(mode(path), 0644);
    ConversationStore store(path);
    QVERIFY(store.isPersistent());
    QCOMPARE(store.conversations()->size(), 1);
    QCOMPARE(mode(path), 0600);
}

void tst_ConversationStore::newerSchemaIsLeftAlone()
{
    {
        const QString name = QStringLiteral("newer");
        {
            QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), name);
            db.setDatabaseName(dbPath());
            QVERIFY(db.open());
            QSqlQuery q(db);
            QVERIFY(q.exec(QStringLiteral("CREATE TABLE future (x)")));
            QVERIFY(q.exec(QStringLiteral("PRAGMA user_version = 99")));
        }
        QSqlDatabase::removeDatabase(name);
    }
    const qint64 size = QFileInfo(dbPath()).size();
    ConversationStore store(dbPath());
    QVERIFY(!store.isPersistent());
    QVERIFY(store.recoveryMessage().contains(QLatin1String("newer version")));
    QVERIFY(store.movedAsidePath().isEmpty());
    QCOMPARE(QFileInfo(dbPath()).size(), size);
    // Still usable for this session.
    const auto id = store.create(QStringLiteral("In memory"));
    QVERIFY(id);
    QCOMPARE(store.conversations()->size(), 1);
}

void tst_ConversationStore::unusableLocationFallsBackToMemory()
{
    // A regular file where the folder should be: nothing can be created below it.
    const QString blocker = m_dir->filePath(QStringLiteral("blocker"));
    QFile f(blocker);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.close();
    ConversationStore store(blocker + QStringLiteral("/sub/conversations.sqlite"));
    QVERIFY(!store.isPersistent());
    QVERIFY(!store.recoveryMessage().isEmpty());
    const auto id = store.create(QStringLiteral("Ephemeral"));
    QVERIFY(id);
    QVERIFY(store.appendMessage(*id, Llm::Role::User, QStringLiteral("still works")));
    QCOMPARE(store.conversations(QStringLiteral("still"))->size(), 1);
}

void tst_ConversationStore::connectionsAreUniqueAndRemoved()
{
    const auto before = QSqlDatabase::connectionNames().size();
    {
        ConversationStore a(dbPath());
        ConversationStore b(m_dir->filePath(QStringLiteral("other.sqlite")));
        QCOMPARE(QSqlDatabase::connectionNames().size(), before + 2);
        QVERIFY(a.create(QStringLiteral("in a")));
        QVERIFY(b.conversations()->isEmpty());
    }
    QCOMPARE(QSqlDatabase::connectionNames().size(), before);
}

QString tst_ConversationStore::crashCopy(const QString &from, const QString &folder)
{
    QDir().mkpath(folder);
    const QString to = QDir(folder).filePath(QFileInfo(from).fileName());
    for (const char *suffix : {"", "-wal", "-shm"}) {
        if (!QFile::copy(from + QLatin1String(suffix), to + QLatin1String(suffix)))
            return {};
    }
    return to;
}

void tst_ConversationStore::endedAnswerIsInTheMainFile()
{
    ConversationStore store(dbPath());
    QVERIFY(store.isPersistent());
    const qint64 id = *store.create(QStringLiteral("Kept"));
    QVERIFY(store.appendMessage(id, Llm::Role::User, QStringLiteral("Is it on disk?")));
    const qint64 answer = *store.appendMessage(id, Llm::Role::Assistant, QStringLiteral("Stre"), {},
                                               MessageState::Partial);
    QVERIFY(QFileInfo(dbPath() + QStringLiteral("-wal")).size() > 0); // streaming: in the log
    QVERIFY(store.updateMessage(answer, QStringLiteral("Streamed, and done."), {}, MessageState::Complete));
    // Ended: copied into the main file and the log emptied. The main file alone has it all.
    QCOMPARE(QFileInfo(dbPath() + QStringLiteral("-wal")).size(), 0);
    const QString alone = m_dir->filePath(QStringLiteral("alone.sqlite"));
    QVERIFY(QFile::copy(dbPath(), alone));
    ConversationStore copy(alone);
    QVERIFY(copy.isPersistent());
    QVERIFY2(copy.recoveryMessage().isEmpty(), qPrintable(copy.recoveryMessage()));
    const auto messages = copy.messages(id);
    QVERIFY(messages);
    QCOMPARE(messages->size(), 2);
    QCOMPARE(messages->at(1).content, QStringLiteral("Streamed, and done."));
}

void tst_ConversationStore::lostLogAfterACrash_data()
{
    QTest::addColumn<QString>("log");
    QTest::addColumn<QString>("said");
    QTest::addRow("intact") << QStringLiteral("intact") << QString();
    QTest::addRow("missing") << QStringLiteral("missing") << QStringLiteral("missing");
    QTest::addRow("cut short") << QStringLiteral("cut") << QStringLiteral("cut short");
    QTest::addRow("zeroed tail") << QStringLiteral("zeroed") << QStringLiteral("damaged");
}

void tst_ConversationStore::lostLogAfterACrash()
{
    QFETCH(QString, log);
    QFETCH(QString, said);
    const QString crashed = m_dir->filePath(QStringLiteral("crashed"));
    qint64 id = 0;
    QString copy;
    {
        ConversationStore store(dbPath());
        QVERIFY(store.isPersistent());
        id = *store.create(QStringLiteral("Before"));
        const qint64 answer = *store.appendMessage(id, Llm::Role::Assistant, QStringLiteral("x"), {},
                                                   MessageState::Partial);
        QVERIFY(store.updateMessage(answer, QStringLiteral("Answered before the crash."), {}, MessageState::Complete));
        // After the last ended answer: a question and the start of its answer, in the log only.
        QVERIFY(store.appendMessage(id, Llm::Role::User, QStringLiteral("Asked after it.")));
        QVERIFY(
            store.appendMessage(id, Llm::Role::Assistant, QStringLiteral("Half an ans"), {}, MessageState::Partial));
        copy = crashCopy(dbPath(), crashed); // the kill
        QVERIFY(!copy.isEmpty());
    }
    QFile wal(copy + QStringLiteral("-wal"));
    const qint64 walBytes = wal.size();
    QVERIFY(walBytes > 4096);
    if (log == QLatin1String("missing")) {
        QVERIFY(wal.remove());
    } else if (log == QLatin1String("cut")) {
        QVERIFY(wal.resize(walBytes / 2));
    } else if (log == QLatin1String("zeroed")) {
        QVERIFY(wal.open(QIODevice::ReadWrite));
        QVERIFY(wal.seek(walBytes - 2048));
        wal.write(QByteArray(2048, '\0'));
        wal.close();
    }

    ConversationStore store(copy);
    QVERIFY(store.isPersistent());
    const auto messages = store.messages(id);
    QVERIFY(messages);
    QVERIFY(messages->size() >= 1);
    QCOMPARE(messages->at(0).content, QStringLiteral("Answered before the crash.")); // never lost
    const QStringList kept = QDir(crashed).entryList({QStringLiteral("*.unclean-*")}, QDir::Dirs);
    if (said.isEmpty()) {
        // An ordinary crash: all of it read back, nothing said, nothing kept.
        QVERIFY2(store.recoveryMessage().isEmpty(), qPrintable(store.recoveryMessage()));
        QCOMPARE(messages->size(), 3);
        QVERIFY(kept.isEmpty());
        return;
    }
    QVERIFY(messages->size() < 3);
    const QString message = store.recoveryMessage();
    QVERIFY2(message.contains(said) && message.contains(QLatin1String("after the last completed answer")),
             qPrintable(message));
    QCOMPARE(kept.size(), 1);
    const QString folder = QDir(crashed).filePath(kept.first());
    QVERIFY2(message.contains(QDir::toNativeSeparators(folder)), qPrintable(message));
    // The files as they were: the log as the crash left it (or none), beside its main file.
    QVERIFY(QFileInfo::exists(QDir(folder).filePath(QStringLiteral("conversations.sqlite"))));
    QCOMPARE(QFileInfo::exists(QDir(folder).filePath(QStringLiteral("conversations.sqlite-wal"))),
             log != QLatin1String("missing"));
    QCOMPARE(QFileInfo(folder).permissions() & (QFileDevice::ReadOther | QFileDevice::ReadGroup),
             QFileDevice::Permissions());
}

void tst_ConversationStore::emptiedFileIsNotTakenForANewOne()
{
    // An older version's crash, then its log lost: a main file of one page with no table.
    {
        QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), QStringLiteral("emptied"));
        db.setDatabaseName(dbPath());
        QVERIFY(db.open());
        QSqlQuery q(db);
        QVERIFY(q.exec(QStringLiteral("PRAGMA journal_mode = WAL")));
        q.finish();
        db.close();
    }
    QSqlDatabase::removeDatabase(QStringLiteral("emptied"));
    QVERIFY(QFileInfo(dbPath()).size() > 0);
    ConversationStore store(dbPath());
    QVERIFY(store.isPersistent());
    // Before issue 36: silently a fresh store in its place, the old file gone.
    QVERIFY2(store.recoveryMessage().contains(QLatin1String("log of recent changes is missing")),
             qPrintable(store.recoveryMessage()));
    QVERIFY(QFileInfo::exists(store.movedAsidePath()));
}

void tst_ConversationStore::sentKeysAreNotStored()
{
    // A gateway that echoes the key it was sent, into an answer and an error: what is stored
    // (and so exported) never holds it.
    const QString key = QStringLiteral("gw.tenant7.Zq3");
    Llm::Secrets::remember(key); // what ProviderRequest does as it sends it
    ConversationStore store(dbPath());
    const qint64 id = *store.create(QStringLiteral("Echo"));
    const qint64 answer = *store.appendMessage(id, Llm::Role::Assistant, QStringLiteral("Your key is ") + key, {},
                                               MessageState::Partial);
    QVERIFY(store.updateMessage(answer, QStringLiteral("Your key is ") + key + QStringLiteral(", indeed."), {},
                                MessageState::Failed, QStringLiteral("Rejected ") + key));
    const auto messages = store.messages(id);
    QVERIFY(messages && messages->size() == 1);
    QCOMPARE(messages->first().content, QStringLiteral("Your key is [redacted], indeed."));
    QCOMPARE(messages->first().error, QStringLiteral("Rejected [redacted]"));
    QFile main(dbPath());
    QVERIFY(main.open(QIODevice::ReadOnly));
    QVERIFY(!main.readAll().contains(key.toUtf8()));
}

QTEST_MAIN(tst_ConversationStore)
#include "tst_conversationstore.moc"
