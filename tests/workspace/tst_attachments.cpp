// Files attached to a chat message, without widgets: reading a file (Markdown, source, a BOM,
// Windows line breaks, GB18030) and refusing what is not text to send (binary, not UTF-8, too
// large, empty, a folder, a pipe, missing, unreadable), each with a sentence that names the file;
// adding several is all or nothing, within the per-message limit; the message layout is fixed
// bytes (fences longer than the file's backticks); the JSON forms; the store keeps them with
// the question across reopening, and a schema-3 file is upgraded in place.
#include "support/expectederror.h"
#include "workspace/conversations/attachments.h"
#include "workspace/conversations/conversationstore.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonObject>
#include <QSqlDatabase>
#include <QSqlError>
#include <QSqlQuery>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

#include <sys/stat.h>

#include <memory>

using Gui::Attachment;
using Gui::ConversationStore;

class tst_Attachments : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();

    void textFilesAreRead();
    void badFilesAreRefusedWithTheirName_data();
    void badFilesAreRefusedWithTheirName();
    void limitsAreExact();
    void severalFilesAreAllOrNothing();
    void messageLayoutIsFixedBytes();
    void fenceOutlastsTheFilesBackticks();
    void jsonRoundTripsAndForeignValuesReadAsNone();
    void storeKeepsThemWithTheQuestion();
    void schemaThreeFileIsUpgradedInPlace();

private:
    QString write(const QString &name, const QByteArray &bytes) const;
    // One per test function.
    QString dbPath() const
    {
        return m_dir->filePath(QString::fromLatin1(QTest::currentTestFunction()) + QStringLiteral(".sqlite"));
    }
    // For the whole run: data rows write their files before the test function runs.
    std::unique_ptr<QTemporaryDir> m_dir;
};

void tst_Attachments::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);
    m_dir = std::make_unique<QTemporaryDir>();
    QVERIFY(m_dir->isValid());
}

QString tst_Attachments::write(const QString &name, const QByteArray &bytes) const
{
    QFile file(m_dir->filePath(name));
    if (!file.open(QIODevice::WriteOnly) || file.write(bytes) != bytes.size())
        return {};
    return file.fileName();
}

void tst_Attachments::textFilesAreRead()
{
    const auto markdown = Gui::readAttachment(
        write(QStringLiteral("notes.md"), "# Notes\r\n\r\nThe pump code is 4471.\r\n"));
    QVERIFY2(markdown, TestSupport::errorOf(markdown).constData());
    QCOMPARE(markdown->name, QStringLiteral("notes.md"));
    QCOMPARE(markdown->text, QStringLiteral("# Notes\n\nThe pump code is 4471.\n")); // Windows line breaks as \n
    QCOMPARE(markdown->bytes(), qint64(markdown->text.toUtf8().size()));

    // A UTF-8 BOM is not part of the text; Chinese in UTF-8 and in GB18030 reads the same.
    const auto bom = Gui::readAttachment(write(QStringLiteral("bom.txt"), "\xef\xbb\xbfhello"));
    QVERIFY(bom);
    QCOMPARE(bom->text, QStringLiteral("hello"));
    const auto utf8 = Gui::readAttachment(write(QStringLiteral("cn.txt"), QStringLiteral("缓存的笔记").toUtf8()));
    QVERIFY(utf8);
    QCOMPARE(utf8->text, QStringLiteral("缓存的笔记"));
    const auto gb = Gui::readAttachment(write(QStringLiteral("cn-gb.txt"), "\xbb\xba\xb4\xe6\xb5\xc4\xb1\xca\xbc\xc7"));
    QVERIFY2(gb, TestSupport::errorOf(gb).constData());
    QCOMPARE(gb->text, QStringLiteral("缓存的笔记"));

    // Any suffix, if it is text: the dialog's filter only suggests.
    const auto source = Gui::readAttachment(write(QStringLiteral("main.weird"), "int main() { return 0; }"));
    QVERIFY(source);
    QCOMPARE(source->name, QStringLiteral("main.weird"));

    // The dialog offers the library's text kinds first, then everything.
    const QStringList filters = Gui::attachmentNameFilters();
    QCOMPARE(filters.size(), 2);
    QVERIFY(filters.at(0).contains(QLatin1String("*.md")) && filters.at(0).contains(QLatin1String("*.cpp"))
            && filters.at(0).contains(QLatin1String("*.txt")));
    QVERIFY(filters.at(1).contains(QLatin1String("(*)")));
}

void tst_Attachments::badFilesAreRefusedWithTheirName_data()
{
    QTest::addColumn<QString>("path");
    QTest::addColumn<QString>("says");
    QTest::addRow("NUL bytes") << write(QStringLiteral("image.png"), QByteArray("\x89PNG\r\n\x1a\n\0\0\0\rIHDR", 16))
                               << QStringLiteral("image.png is not a text file (it holds binary data)");
    QTest::addRow("not UTF-8") << write(QStringLiteral("latin1.txt"), "caf\xe9 au lait, cr\xe8me br\xfbl\xe9\x65")
                               << QStringLiteral("latin1.txt is not text in UTF-8");
    QTest::addRow("too large") << write(QStringLiteral("big.log"), QByteArray(Gui::MaxAttachmentBytes + 1, 'x'))
                               << QStringLiteral("big.log is too large to attach");
    QTest::addRow("empty") << write(QStringLiteral("empty.md"), " \n\n") << QStringLiteral("empty.md is empty");
    QTest::addRow("missing") << m_dir->filePath(QStringLiteral("gone.md")) << QStringLiteral("gone.md was not found");
    QTest::addRow("folder") << m_dir->path() << QStringLiteral("is not a file");
    const QString fifo = m_dir->filePath(QStringLiteral("pipe.txt"));
    QVERIFY(::mkfifo(QFile::encodeName(fifo).constData(), 0600) == 0);
    QTest::addRow("pipe") << fifo << QStringLiteral("pipe.txt is not a file");
    // A regular file whose read fails, even for root (chmod 000 would not stop it): the first
    // page of this process's memory is not mapped, so reading it is EIO.
    QTest::addRow("unreadable") << QStringLiteral("/proc/self/mem") << QStringLiteral("mem cannot be read");
}

void tst_Attachments::badFilesAreRefusedWithTheirName()
{
    QFETCH(QString, path);
    QFETCH(QString, says);
    QVERIFY(!path.isEmpty());
    const auto read = Gui::readAttachment(path);
    QVERIFY(!read);
    QVERIFY2(read.error().contains(says), qPrintable(read.error()));
    // And it says what to do.
    QVERIFY2(read.error().contains(QLatin1String("Attach")) || read.error().contains(QLatin1String("attach")),
             qPrintable(read.error()));
}

void tst_Attachments::limitsAreExact()
{
    const auto atLimit = Gui::readAttachment(write(QStringLiteral("a.txt"), QByteArray(Gui::MaxAttachmentBytes, 'a')));
    QVERIFY2(atLimit, TestSupport::errorOf(atLimit).constData());
    QCOMPARE(atLimit->bytes(), Gui::MaxAttachmentBytes);

    // A UTF-16 file under the limit on disk that is over it as sent (UTF-8: 3 bytes a character).
    QByteArray utf16("\xff\xfe");
    const QString chinese(30'000, QChar(0x7f13));
    utf16 += QByteArray(reinterpret_cast<const char *>(chinese.utf16()), chinese.size() * 2);
    QVERIFY(utf16.size() < Gui::MaxAttachmentBytes);
    const auto grown = Gui::readAttachment(write(QStringLiteral("wide.txt"), utf16));
    QVERIFY(!grown);
    QVERIFY2(grown.error().contains(QLatin1String("too large")), qPrintable(grown.error()));

    // Per message: two files of 40 KiB fit (80 KiB), a third byte does not.
    const QString first = write(QStringLiteral("one.txt"), QByteArray(40 * 1024, 'o'));
    const QString second = write(QStringLiteral("two.txt"), QByteArray(40 * 1024, 't'));
    const QString third = write(QStringLiteral("three.txt"), "x");
    const auto both = Gui::withAttachments({}, {first, second});
    QVERIFY2(both, TestSupport::errorOf(both).constData());
    QCOMPARE(both->size(), 2);
    const auto over = Gui::withAttachments(*both, {third});
    QVERIFY(!over);
    QVERIFY2(over.error().contains(QLatin1String("three.txt")) && over.error().contains(QLatin1String("more than")),
             qPrintable(over.error()));
}

void tst_Attachments::severalFilesAreAllOrNothing()
{
    const QList<Attachment> current{{QStringLiteral("kept.md"), QStringLiteral("already here")}};
    const QString good = write(QStringLiteral("good.md"), "fine text");
    const QString binary = write(QStringLiteral("data.bin"), QByteArray("ab\0cd", 5));
    const auto refused = Gui::withAttachments(current, {good, binary});
    QVERIFY(!refused);
    QVERIFY2(refused.error().contains(QLatin1String("data.bin")), qPrintable(refused.error()));
    QVERIFY2(refused.error().contains(QLatin1String("None of the 2 files was attached.")), qPrintable(refused.error()));

    const auto added = Gui::withAttachments(current, {good});
    QVERIFY(added);
    QCOMPARE(added->size(), 2);
    QCOMPARE(added->at(0).name, QStringLiteral("kept.md"));
    QCOMPARE(added->at(1).name, QStringLiteral("good.md"));
    // The same file again is refused rather than sent twice.
    const auto twice = Gui::withAttachments(*added, {good});
    QVERIFY(!twice);
    QVERIFY2(twice.error().contains(QLatin1String("good.md is attached already")), qPrintable(twice.error()));
}

void tst_Attachments::messageLayoutIsFixedBytes()
{
    const QList<Attachment> files{{QStringLiteral("notes.md"), QStringLiteral("# Notes\nThe code is 4471.\n")},
                                  {QStringLiteral("main.cpp"), QStringLiteral("int main() {}")}};
    const QString expected = QStringLiteral("Attached file: notes.md\n```\n# Notes\nThe code is 4471.\n```\n\n"
                                            "Attached file: main.cpp\n```\nint main() {}\n```\n\n"
                                            "What is the code?");
    QCOMPARE(Gui::messageWithAttachments(files, QStringLiteral("What is the code?")), expected);
    // Without attachments the message is the text, byte for byte (the chat as it always was).
    QCOMPARE(Gui::messageWithAttachments({}, QStringLiteral("What is the code?")), QStringLiteral("What is the code?"));
    // The typed text is a suffix: the attachments are the part of the message that is the same
    // whatever is typed after them.
    QVERIFY(Gui::messageWithAttachments(files, QStringLiteral("Another question")).startsWith(expected.chopped(17)));
}

void tst_Attachments::fenceOutlastsTheFilesBackticks()
{
    const Attachment readme{QStringLiteral("README.md"), QStringLiteral("Run:\n\n```sh\nmake\n```\n\nand ````` too")};
    QCOMPARE(Gui::fencedText(readme), QStringLiteral("``````\n") + readme.text + QStringLiteral("\n``````"));
    // A name with a line break in it stays on its line.
    const QString odd = write(QStringLiteral("two\nlines.txt"), "text");
    const auto read = Gui::readAttachment(odd);
    QVERIFY(read);
    QCOMPARE(read->name, QStringLiteral("two_lines.txt"));
}

void tst_Attachments::jsonRoundTripsAndForeignValuesReadAsNone()
{
    const QList<Attachment> files{{QStringLiteral("a “b”.md"), QStringLiteral("line\n\"quoted\" \\ 缓存\n")},
                                  {QStringLiteral("c.txt"), QStringLiteral("x")}};
    QCOMPARE(Gui::attachmentsFromJson(Gui::attachmentsToJson(files)), files);
    QCOMPARE(Gui::attachmentsToJson({}), QStringLiteral(""));
    QCOMPARE(Gui::attachmentsFromJsonArray(Gui::attachmentsToJsonArray(files)), std::optional(files));
    QVERIFY(Gui::attachmentsFromJson(QStringLiteral("not json")).isEmpty());
    QVERIFY(Gui::attachmentsFromJson(QStringLiteral("[{\"name\":\"\",\"text\":\"x\"}]")).isEmpty());
    QVERIFY(!Gui::attachmentsFromJsonArray(QJsonArray{QJsonObject{{QStringLiteral("name"), QStringLiteral("n")}}}));
    QVERIFY(!Gui::attachmentsFromJsonArray(QJsonArray{42}));
}

void tst_Attachments::storeKeepsThemWithTheQuestion()
{
    const QList<Attachment> files{{QStringLiteral("notes.md"), QStringLiteral("The pump code is 4471.\n")}};
    qint64 conversation = 0;
    {
        ConversationStore store(dbPath());
        QVERIFY(store.isPersistent());
        conversation = *store.create(QStringLiteral("Attached"));
        Gui::StoredMessage question;
        question.role = Llm::Role::User;
        question.content = QStringLiteral("What is the code?");
        question.attachments = files;
        const auto id = store.appendMessage(conversation, question);
        QVERIFY2(id, TestSupport::errorOf(id).constData());
        QVERIFY(store.appendMessage(conversation, Llm::Role::Assistant, QStringLiteral("4471.")));
    }
    ConversationStore reopened(dbPath());
    const auto messages = reopened.messages(conversation);
    QVERIFY2(messages, TestSupport::errorOf(messages).constData());
    QCOMPARE(messages->size(), 2);
    QCOMPARE(messages->at(0).content, QStringLiteral("What is the code?"));
    QCOMPARE(messages->at(0).attachments, files);
    QVERIFY(messages->at(1).attachments.isEmpty());
}

void tst_Attachments::schemaThreeFileIsUpgradedInPlace()
{
    // A file as schema 3 left it: written by the store of that version, then put back to 3.
    {
        ConversationStore store(dbPath());
        const qint64 id = *store.create(QStringLiteral("Before attachments"));
        QVERIFY(store.appendMessage(id, Llm::Role::User, QStringLiteral("An old question")));
    }
    const QString name = QStringLiteral("direct");
    {
        QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), name);
        db.setDatabaseName(dbPath());
        QVERIFY(db.open());
        QSqlQuery q(db);
        QVERIFY2(q.exec(QStringLiteral("ALTER TABLE messages DROP COLUMN attachments")),
                 qPrintable(q.lastError().text()));
        // And what later schemas added (5: the conversation's assistant).
        QVERIFY2(q.exec(QStringLiteral("ALTER TABLE conversations DROP COLUMN assistant")),
                 qPrintable(q.lastError().text()));
        // (6: the model of an answer.)
        QVERIFY2(q.exec(QStringLiteral("ALTER TABLE messages DROP COLUMN model")), qPrintable(q.lastError().text()));
        // And schema 7's: the fast opening.
        for (const char *column : {"opening_model", "opening_chars"})
            QVERIFY2(q.exec(QStringLiteral("ALTER TABLE messages DROP COLUMN %1").arg(QLatin1String(column))),
                     qPrintable(q.lastError().text()));
        QVERIFY(q.exec(QStringLiteral("PRAGMA user_version = 3")));
    }
    QSqlDatabase::removeDatabase(name);

    ConversationStore store(dbPath());
    QVERIFY(store.isPersistent());
    QVERIFY2(store.recoveryMessage().isEmpty(), qPrintable(store.recoveryMessage()));
    const qint64 id = store.conversations()->first().id;
    const auto messages = store.messages(id);
    QVERIFY2(messages, TestSupport::errorOf(messages).constData());
    QCOMPARE(messages->size(), 1);
    QCOMPARE(messages->at(0).content, QStringLiteral("An old question"));
    QVERIFY(messages->at(0).attachments.isEmpty());
    Gui::StoredMessage question;
    question.content = QStringLiteral("A new one");
    question.attachments = {{QStringLiteral("n.md"), QStringLiteral("text")}};
    QVERIFY(store.appendMessage(id, question));
    QCOMPARE(store.messages(id)->at(1).attachments, question.attachments);
}

QTEST_GUILESS_MAIN(tst_Attachments)
#include "tst_attachments.moc"
