// The real app (headstart) killed with SIGKILL, then started again: mid-edit, the unsaved text
// of a document opened from a path is in its recovery copy (with the path, owner-only) and
// offered at the next start; mid-database-write, the conversation file passes quick_check
// with its conversation, and the next start uses it rather than moving it aside. Runs under
// umask 022 with throwaway XDG folders, the offscreen platform and the embedded local
// provider, and checks every file and folder the app made is owner-only. The app is driven
// through its command line (the hidden --type-document / --type-chat, docs/reliability.md).
#include "support/expectederror.h"
#include "support/throwawayhome.h"

#include "workspace/conversations/conversationstore.h"

#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QSqlDatabase>
#include <QSqlQuery>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

#include <memory>

#include <csignal>

#include <sys/stat.h>

class tst_KillRecovery : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void init();
    void cleanup();
    void killMidEditKeepsTheUnsavedText();
    void killMidDatabaseWriteLeavesItIntact();
    void terminationClosesEverythingCleanly_data();
    void terminationClosesEverythingCleanly();
    void terminationKeepsUnsavedText();
    void damagedSettingsAreReportedOnce();
    void theFilesOpenAtTheEndAreOpenAtTheNextStart();

private:
    void startApp(QProcess &app, const QStringList &arguments);
    void kill(QProcess &app);
    QString home(const char *name) const { return m_root->filePath(QLatin1String(name)); }
    // The app's folder for data (AppLocalDataLocation), found rather than spelt out.
    QString find(const QString &nameFilter) const;
    QString logText() const;
    // Every file and folder under the app's config, data and state folders: owner-only.
    void checkOwnerOnly();
    // Answers in the database at `path` (with some text, if `withText`), read without
    // disturbing the app that writes it.
    static int assistantRows(const QString &path, bool withText = false);
    // Starts the app sending `question` in the chat to a slow stream (hosted-long-doc) and
    // waits until its answer's row is in the database (with some text, if `withText`);
    // returns the database's path.
    QString startAnswering(QProcess &app, const QString &question, bool withText);

    std::unique_ptr<QTemporaryDir> m_root;
    QProcessEnvironment m_env; // the app's, pointed at m_root
    mode_t m_umask = 022;
};

namespace {

int modeOf(const QString &path)
{
    struct stat st {
    };
    return ::stat(QFile::encodeName(path).constData(), &st) == 0 ? int(st.st_mode & 0777) : -1;
}

constexpr int StartTimeoutMs = 60'000;
// The autosave writes at most 5 s after the last key; a loaded machine gets ample slack.
constexpr int AutosaveTimeoutMs = 60'000;

} // namespace

void tst_KillRecovery::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);
    QVERIFY(QFileInfo(QStringLiteral(HEADSTART_BIN_DIR "/app/headstart")).isExecutable());
    // The usual umask: without explicit modes the app's files would be 0644, its folders 0755.
    m_umask = ::umask(022);
}

void tst_KillRecovery::init()
{
    m_root = std::make_unique<QTemporaryDir>();
    QVERIFY(m_root->isValid());
    m_env = TestSupport::throwawayHome(m_root->path());
    QVERIFY(!m_env.isEmpty());
    QVERIFY(QDir().mkdir(home("work")));
}

void tst_KillRecovery::cleanup()
{
    ::umask(022);
}

void tst_KillRecovery::startApp(QProcess &app, const QStringList &arguments)
{
    app.setProcessEnvironment(m_env);
    app.setProcessChannelMode(QProcess::ForwardedErrorChannel);
    app.setStandardOutputFile(QProcess::nullDevice());
    app.start(QStringLiteral(HEADSTART_BIN_DIR "/app/headstart"),
              QStringList{QStringLiteral("--provider"), QStringLiteral("local")} + arguments);
    QVERIFY2(app.waitForStarted(StartTimeoutMs), qPrintable(app.errorString()));
}

void tst_KillRecovery::kill(QProcess &app)
{
    app.kill(); // SIGKILL: no destructor, no close event, no flush
    QVERIFY(app.waitForFinished(StartTimeoutMs));
    QCOMPARE(app.exitStatus(), QProcess::CrashExit);
}

QString tst_KillRecovery::find(const QString &nameFilter) const
{
    QDirIterator it(home("data"), {nameFilter}, QDir::Files | QDir::Dirs | QDir::NoDotAndDotDot,
                    QDirIterator::Subdirectories);
    return it.hasNext() ? it.next() : QString();
}

QString tst_KillRecovery::logText() const
{
    QFile log(find(QStringLiteral("headstart.log")));
    return log.open(QIODevice::ReadOnly) ? QString::fromUtf8(log.readAll()) : QString();
}

void tst_KillRecovery::checkOwnerOnly()
{
    int checked = 0;
    for (const char *base : {"config", "data", "state"}) {
        QDirIterator it(home(base), QDir::AllEntries | QDir::Hidden | QDir::System | QDir::NoDotAndDotDot,
                        QDirIterator::Subdirectories);
        while (it.hasNext()) {
            const QFileInfo info(it.next());
            if (info.fileName().endsWith(QLatin1String(".lock")))
                continue; // QSettings' lock, there only while a write runs; empty of content
            const int expected = info.isDir() ? 0700 : 0600;
            QVERIFY2(modeOf(info.filePath()) == expected,
                     qPrintable(QStringLiteral("%1 is %2").arg(info.filePath()).arg(modeOf(info.filePath()), 0, 8)));
            ++checked;
        }
    }
    QVERIFY2(checked >= 5, qPrintable(QString::number(checked))); // settings, log, database: something was made
}

void tst_KillRecovery::killMidEditKeepsTheUnsavedText()
{
    const QString document = QDir(home("work")).filePath(QStringLiteral("notes.md"));
    {
        QFile f(document);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("Original text on disk.\n");
    }
    const QString typed = QStringLiteral("typed before the crash ");
    QProcess app;
    startApp(app, {QStringLiteral("--type-document"), typed, document});

    // Past the autosave: the copy on disk holds everything typed.
    QString copyPath;
    QJsonObject copy;
    QTRY_VERIFY_WITH_TIMEOUT(
        [&] {
            copyPath = find(QStringLiteral("*.json"));
            QFile f(copyPath);
            if (copyPath.isEmpty() || !f.open(QIODevice::ReadOnly))
                return false;
            copy = QJsonDocument::fromJson(f.readAll()).object();
            return copy.value(QStringLiteral("text")).toString().contains(typed);
        }(),
        AutosaveTimeoutMs);
    kill(app);

    // What the next start finds: the unsaved text, with the document's path, owner-only; the
    // document itself untouched.
    QFile f(copyPath);
    QVERIFY(f.open(QIODevice::ReadOnly));
    copy = QJsonDocument::fromJson(f.readAll()).object();
    f.close();
    QCOMPARE(copy.value(QStringLiteral("path")).toString(), QFileInfo(document).absoluteFilePath());
    QVERIFY(copy.value(QStringLiteral("text")).toString().contains(typed));
    QVERIFY(copy.value(QStringLiteral("text")).toString().contains(QLatin1String("Original text on disk.")));
    QCOMPARE(modeOf(copyPath), 0600);
    QCOMPARE(modeOf(QFileInfo(copyPath).absolutePath()), 0700);
    QFile original(document);
    QVERIFY(original.open(QIODevice::ReadOnly));
    QCOMPARE(original.readAll(), QByteArray("Original text on disk.\n"));

    // Started again, it asks before touching the copy: the copy is still there while it asks.
    const int opensBefore = int(logText().count(QLatin1String("conversation store opened")));
    QProcess again;
    startApp(again, {document});
    QTRY_VERIFY_WITH_TIMEOUT(logText().count(QLatin1String("conversation store opened")) > opensBefore, StartTimeoutMs);
    QVERIFY(QFileInfo::exists(copyPath));
    kill(again);
    checkOwnerOnly();
}

int tst_KillRecovery::assistantRows(const QString &path, bool withText)
{
    int rows = 0;
    {
        QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), QStringLiteral("probe"));
        db.setDatabaseName(path);
        db.setConnectOptions(QStringLiteral("QSQLITE_OPEN_READONLY;QSQLITE_BUSY_TIMEOUT=100"));
        QSqlQuery q(db);
        const QString sql = QStringLiteral("SELECT count(*) FROM messages WHERE role = 'assistant'")
                            + (withText ? QStringLiteral(" AND content != ''") : QString());
        if (db.open() && q.exec(sql) && q.next())
            rows = q.value(0).toInt();
    }
    QSqlDatabase::removeDatabase(QStringLiteral("probe"));
    return rows;
}

QString tst_KillRecovery::startAnswering(QProcess &app, const QString &question, bool withText)
{
    startApp(app, {QStringLiteral("--latency-profile"), QStringLiteral("hosted-long-doc"),
                   QStringLiteral("--type-chat"), question + u'\n'});
    QString database;
    if (!QTest::qWaitFor(
            [&] {
                return !(database = find(QStringLiteral("conversations.sqlite"))).isEmpty()
                       && assistantRows(database, withText) > 0;
            },
            StartTimeoutMs))
        return {};
    return database;
}

void tst_KillRecovery::killMidDatabaseWriteLeavesItIntact()
{
    const QString question = QStringLiteral("What does the local demo engine model faithfully?");
    QProcess app;
    // Killed while the answer streams into the database (the assistant's row is written when
    // the answer starts and updated as it arrives).
    const QString database = startAnswering(app, question, false);
    QVERIFY(!database.isEmpty());
    kill(app);

    {
        QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), QStringLiteral("check"));
        db.setDatabaseName(database);
        QVERIFY(db.open());
        QSqlQuery q(db);
        QVERIFY(q.exec(QStringLiteral("PRAGMA quick_check")) && q.next());
        QCOMPARE(q.value(0).toString(), QStringLiteral("ok"));
    }
    QSqlDatabase::removeDatabase(QStringLiteral("check"));
    {
        Gui::ConversationStore store(database);
        QVERIFY2(store.recoveryMessage().isEmpty(), qPrintable(store.recoveryMessage()));
        QVERIFY(store.movedAsidePath().isEmpty());
        const auto conversations = store.conversations();
        QVERIFY2(conversations, TestSupport::errorOf(conversations).constData());
        QCOMPARE(conversations->size(), 1);
        const auto messages = store.messages(conversations->constFirst().id);
        QVERIFY(messages);
        QVERIFY(messages->size() >= 2);
        QCOMPARE(messages->constFirst().content, question);
        QCOMPARE(messages->at(1).role, Llm::Role::Assistant);
        // Still streaming when killed: what a crash leaves is marked partial, not complete.
        QCOMPARE(messages->at(1).state, Gui::MessageState::Partial);
    }

    // The next start opens the same file: nothing is moved aside.
    const int opensBefore = int(logText().count(QLatin1String("conversation store opened")));
    QProcess again;
    startApp(again, {});
    QTRY_VERIFY_WITH_TIMEOUT(logText().count(QLatin1String("conversation store opened")) > opensBefore, StartTimeoutMs);
    kill(again);
    QVERIFY2(!logText().contains(QLatin1String("moved aside")), qPrintable(logText()));
    QVERIFY(find(QStringLiteral("*.broken-*")).isEmpty());
    checkOwnerOnly();
}

void tst_KillRecovery::terminationClosesEverythingCleanly_data()
{
    QTest::addColumn<int>("signalNumber");
    QTest::addRow("TERM") << int(SIGTERM);
    QTest::addRow("INT") << int(SIGINT);
    QTest::addRow("HUP") << int(SIGHUP);
}

void tst_KillRecovery::terminationClosesEverythingCleanly()
{
    QFETCH(int, signalNumber);
    const QString question = QStringLiteral("What does the local demo engine model faithfully?");
    QProcess app;
    const QString database = startAnswering(app, question, true);
    QVERIFY(!database.isEmpty());
    // The answer streams (its text saved every few seconds) when the session ends.
    ::kill(pid_t(app.processId()), signalNumber);
    QVERIFY(app.waitForFinished(StartTimeoutMs));
    // Before issue 36 the default action of the signal ended the process on the spot.
    QCOMPARE(app.exitStatus(), QProcess::NormalExit);
    QCOMPARE(app.exitCode(), 0);
    // Closed: the log was copied into the main file and removed, as after Quit.
    QVERIFY(!QFileInfo::exists(database + QStringLiteral("-wal")));
    QVERIFY(!QFileInfo::exists(database + QStringLiteral("-shm")));
    Gui::ConversationStore store(database);
    QVERIFY2(store.recoveryMessage().isEmpty(), qPrintable(store.recoveryMessage()));
    const auto conversations = store.conversations();
    QVERIFY(conversations && conversations->size() == 1);
    const auto messages = store.messages(conversations->constFirst().id);
    QVERIFY(messages && messages->size() == 2);
    QCOMPARE(messages->constFirst().content, question);
    // The answer as far as it came, marked unfinished.
    QCOMPARE(messages->at(1).state, Gui::MessageState::Partial);
    QVERIFY(!messages->at(1).content.isEmpty());
    QVERIFY2(logText().contains(QLatin1String("keeping every change and closing")), qPrintable(logText()));
    checkOwnerOnly();
}

void tst_KillRecovery::terminationKeepsUnsavedText()
{
    const QString document = QDir(home("work")).filePath(QStringLiteral("draft.md"));
    {
        QFile f(document);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("On disk.\n");
    }
    // Long enough to still be typing at the first autosave, and after it.
    const QString typed = QStringLiteral("a sentence typed before the session ended ").repeated(8);
    QProcess app;
    startApp(app, {QStringLiteral("--type-document"), typed, document});
    QString copyPath;
    QTRY_VERIFY_WITH_TIMEOUT(!(copyPath = find(QStringLiteral("*.json"))).isEmpty(), AutosaveTimeoutMs);
    ::kill(pid_t(app.processId()), SIGTERM);
    QVERIFY(app.waitForFinished(StartTimeoutMs));
    QCOMPARE(app.exitStatus(), QProcess::NormalExit);
    // Kept, not removed as a close after Save would; with everything typed until the TERM,
    // which is more than the autosave had (it runs every 5 s, the typing goes on).
    QFile f(copyPath);
    QVERIFY(f.open(QIODevice::ReadOnly));
    const QJsonObject copy = QJsonDocument::fromJson(f.readAll()).object();
    QCOMPARE(copy.value(QStringLiteral("path")).toString(), QFileInfo(document).absoluteFilePath());
    QVERIFY(copy.value(QStringLiteral("text")).toString().contains(QLatin1String("session ended")));
    QFile original(document);
    QVERIFY(original.open(QIODevice::ReadOnly));
    QCOMPARE(original.readAll(), QByteArray("On disk.\n"));
}

void tst_KillRecovery::damagedSettingsAreReportedOnce()
{
    const QString settings = QDir(home("config")).filePath(QStringLiteral("Headstart/Headstart.conf"));
    QVERIFY(QDir().mkpath(QFileInfo(settings).absolutePath()));
    {
        QFile f(settings);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("[general]\nfirstRun=false\n[translate]\ntargetLanguage=German\n\x01 this line is damaged\n");
    }
    const QString reported = QStringLiteral("could not be read");
    for (int start = 1; start <= 2; ++start) {
        const int opensBefore = int(logText().count(QLatin1String("conversation store opened")));
        QProcess app;
        startApp(app, {});
        QTRY_VERIFY_WITH_TIMEOUT(logText().count(QLatin1String("conversation store opened")) > opensBefore,
                                 StartTimeoutMs);
        ::kill(pid_t(app.processId()), SIGTERM);
        QVERIFY(app.waitForFinished(StartTimeoutMs));
        // Said at the first start (before issue 36: never, the language's read swallowed it),
        // not again at the second: the file was written clean, with the user's value.
        QCOMPARE(int(logText().count(reported)), 1);
    }
    QCOMPARE(QDir(QFileInfo(settings).absolutePath()).entryList({QStringLiteral("Headstart.conf.damaged-*")}),
             QStringList{QStringLiteral("Headstart.conf.damaged-1")});
    QFile f(settings);
    QVERIFY(f.open(QIODevice::ReadOnly));
    const QByteArray now = f.readAll();
    QVERIFY2(!now.contains("damaged") && now.contains("targetLanguage=German"), now.constData());
}

void tst_KillRecovery::theFilesOpenAtTheEndAreOpenAtTheNextStart()
{
    QStringList files;
    for (const char *name : {"chapter-1.md", "chapter-2.md"}) {
        QFile f(QDir(home("work")).filePath(QLatin1String(name)));
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("A chapter.\n");
        files << QFileInfo(f).absoluteFilePath();
    }
    const auto opened = [this](const QString &path) {
        return int(logText().count(QStringLiteral("opened ") + path));
    };
    const auto endSession = [](QProcess &app) {
        ::kill(pid_t(app.processId()), SIGTERM); // the desktop's logout
        QVERIFY(app.waitForFinished(StartTimeoutMs));
        QCOMPARE(app.exitStatus(), QProcess::NormalExit);
    };
    {
        QProcess app;
        startApp(app, files);
        QTRY_VERIFY_WITH_TIMEOUT(opened(files.at(1)) == 1, StartTimeoutMs);
        endSession(app);
    }
    // Started with no file: the two again, in their order, not the welcome text.
    {
        QProcess app;
        startApp(app, {});
        QTRY_VERIFY_WITH_TIMEOUT(opened(files.at(0)) == 2 && opened(files.at(1)) == 2, StartTimeoutMs);
        const QString log = logText();
        QVERIFY(log.lastIndexOf(QStringLiteral("opened ") + files.at(0))
                < log.lastIndexOf(QStringLiteral("opened ") + files.at(1)));
        endSession(app);
    }
    // One of them deleted meanwhile: the other opens, and nothing is said about the missing one.
    QVERIFY(QFile::remove(files.at(1)));
    {
        QProcess app;
        startApp(app, {});
        QTRY_VERIFY_WITH_TIMEOUT(opened(files.at(0)) == 3, StartTimeoutMs);
        QVERIFY(!logText().contains(QStringLiteral("could not open ") + files.at(1)));
        endSession(app);
    }
}

QTEST_GUILESS_MAIN(tst_KillRecovery)
#include "tst_killrecovery.moc"
