#pragma once

#include <QCoreApplication>
#include <QSqlDatabase>
#include <QSqlError>
#include <QString>

namespace Gui {

// The conversation store's SQLite file, opened and ready for its queries.
//
// Opening checks the file (PRAGMA quick_check) and moves a file that is not a database, or
// whose pages fail the check, aside (renamed, never deleted) as "<file>.broken-<timestamp>"
// before starting a fresh one. After an unclean stop the database and its log are copied to
// "<file>.unclean-<time>" until SQLite has shown that it reads all of the log back. The schema
// carries its version in PRAGMA user_version and is migrated step by step, and the search index
// is set up where SQLite has FTS5 with the trigram tokenizer. When no file can be used at all
// (a read-only location, a file from a newer Headstart) the database is in memory and
// isPersistent() is false. recoveryMessage() says, in a sentence for the user, what opening had
// to do. Files are owner-only (PrivateFiles).
//
// One connection per instance: QSqlDatabase connections are process-global by name, so each
// gets a name of its own, removed when it is destroyed. GUI thread.
class ConversationDatabase
{
    // The strings stay in the store's translation context, where the catalogue has them.
    Q_DECLARE_TR_FUNCTIONS(Gui::ConversationStore)

public:
    static constexpr int SchemaVersion = 7;

    // `fullTextSearch` false: no search index, whatever SQLite offers (tests of the LIKE path).
    ConversationDatabase(const QString &path, bool fullTextSearch);
    ~ConversationDatabase();
    ConversationDatabase(const ConversationDatabase &) = delete;
    ConversationDatabase &operator=(const ConversationDatabase &) = delete;

    // For queries and transactions; not valid when not even an in-memory database could be
    // opened (the SQLite driver is missing), and every query then fails.
    QSqlDatabase &connection() { return m_db; }
    const QSqlDatabase &connection() const { return m_db; }

    QString path() const { return m_path; }
    // False when it runs in memory because the file could not be used.
    bool isPersistent() const { return m_persistent; }
    bool hasFullTextSearch() const { return m_fullText; }
    // Non-empty when opening needed a repair or a fallback.
    QString recoveryMessage() const { return m_recovery; }
    // Where a damaged file was moved to, or empty.
    QString movedAsidePath() const { return m_movedAside; }
    // The latest change time (ms since the epoch) the file held when opened; 0 for a new one.
    qint64 lastChange() const { return m_lastChange; }

    // Copies the log into the main file and empties it (after the schema, after each answer).
    void checkpoint();

private:
    bool openFile();
    bool openMemory();
    // Empty when PRAGMA quick_check finds nothing wrong, else what it found.
    QString quickCheck();
    QSqlError configure();
    QSqlError migrate(int from);
    void setUpSearchIndex();
    bool moveAside();
    // After an unclean stop: the database and its log copied to a new "<file>.unclean-<time>"
    // folder (owner-only); its path, or empty.
    QString keepCopies() const;
    // How many frames of the log SQLite reads back, through a connection of its own; -1 when
    // the file cannot be opened (the damage checks then have their say).
    qint64 readableLogFrames() const;
    bool hasTables();
    void closeConnection();

    QString m_path;
    bool m_wantFullText = true;
    QString m_connection; // unique per instance
    QSqlDatabase m_db;
    bool m_persistent = false;
    bool m_fullText = false;
    QString m_recovery;
    QString m_movedAside;
    qint64 m_lastChange = 0;
};

} // namespace Gui
