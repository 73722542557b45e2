#pragma once

// Shared by the two halves of ConversationStore (conversationstore.cpp: queries;
// conversationstoreopen.cpp: opening, checking, migrating, moving aside). Not for other users.

#include <QSqlDatabase>
#include <QSqlError>
#include <QString>

namespace Gui::StoreDetail {

// SQLite primary result codes that mean "this file is not (or no longer) a database we can
// read": the only ones for which moving the file aside is the right repair. Anything else
// (locked, read-only, out of disk) leaves the file alone.
inline constexpr int SqliteCorrupt = 11;
inline constexpr int SqliteNotADb = 26;

inline QString errorDetail(const QSqlError &error)
{
    const QString db = error.databaseText().trimmed();
    return db.isEmpty() ? error.text().trimmed() : db;
}

inline int primaryCode(const QSqlError &error)
{
    bool ok = false;
    const int code = error.nativeErrorCode().toInt(&ok);
    return ok ? code & 0xff : -1; // extended codes carry the primary one in the low byte
}

inline bool isDamaged(const QSqlError &error)
{
    const int code = primaryCode(error);
    return code == SqliteCorrupt || code == SqliteNotADb;
}

// Rolled back unless committed: every early return leaves the file as it was.
class Transaction
{
public:
    explicit Transaction(QSqlDatabase &db)
        : m_db(db)
        , m_active(db.transaction())
    {
    }
    ~Transaction()
    {
        if (m_active)
            m_db.rollback();
    }
    Transaction(const Transaction &) = delete;
    Transaction &operator=(const Transaction &) = delete;

    bool isActive() const { return m_active; }
    bool commit()
    {
        m_active = false;
        return m_db.commit();
    }

private:
    QSqlDatabase &m_db;
    bool m_active;
};

} // namespace Gui::StoreDetail
