#pragma once

// What the two SQLite files of the house (the conversation store, the knowledge index) both need
// to read SQLite's errors and to write safely. Header-only: its users link Qt6::Sql themselves,
// so the base library stays QtCore only.

#include <QSqlDatabase>
#include <QSqlError>
#include <QString>

namespace Base::Sqlite {

// SQLite primary result codes that mean "this file is not (or no longer) a database": the only
// ones for which moving the file aside (or, for a cache, replacing it) is the right repair.
// Anything else (locked, read-only, out of disk) leaves the file alone.
inline constexpr int Corrupt = 11;
inline constexpr int NotADatabase = 26;

// The database's own words for an error where it gave some, else Qt's.
inline QString errorDetail(const QSqlError &error)
{
    const QString db = error.databaseText().trimmed();
    return db.isEmpty() ? error.text().trimmed() : db;
}

// The primary result code of `error`; -1 when it carries none.
inline int primaryCode(const QSqlError &error)
{
    bool ok = false;
    const int code = error.nativeErrorCode().toInt(&ok);
    return ok ? code & 0xff : -1; // extended codes carry the primary one in the low byte
}

inline bool isDamaged(const QSqlError &error)
{
    const int code = primaryCode(error);
    return code == Corrupt || code == NotADatabase;
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

} // namespace Base::Sqlite
