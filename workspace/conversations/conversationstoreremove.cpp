#include "workspace/conversations/conversationstore.h"

#include "base/sqlite.h"

#include <QSqlQuery>

// ConversationStore: what deletes (a conversation, messages of one, the whole history), apart
// from conversationstore.cpp, which is at its size limit.

namespace Gui {

using namespace Base::Sqlite;

StoreResult<void> ConversationStore::remove(qint64 id)
{
    const QString what = tr("Could not delete the conversation");
    if (m_damaged)
        return writeFailed<void>(what, damagedDetail());
    Transaction transaction(m_db);
    if (!transaction.isActive())
        return writeFailed<void>(what, m_db.lastError());
    QSqlQuery q(m_db);
    q.prepare(QStringLiteral("DELETE FROM messages WHERE conversation_id = ?"));
    q.addBindValue(id);
    if (!q.exec())
        return writeFailed<void>(what, q.lastError());
    q.prepare(QStringLiteral("DELETE FROM conversations WHERE id = ?"));
    q.addBindValue(id);
    if (!q.exec())
        return writeFailed<void>(what, q.lastError());
    if (q.numRowsAffected() != 1)
        return std::unexpected(tr("The conversation no longer exists."));
    if (!transaction.commit())
        return writeFailed<void>(what, m_db.lastError());
    emit conversationsChanged();
    return {};
}

StoreResult<int> ConversationStore::removeAll()
{
    const QString what = tr("Could not clear the history");
    if (m_damaged)
        return writeFailed<int>(what, damagedDetail());
    Transaction transaction(m_db);
    if (!transaction.isActive())
        return writeFailed<int>(what, m_db.lastError());
    QSqlQuery q(m_db);
    // The messages first: the search index's trigger removes each one's text with it.
    if (!q.exec(QStringLiteral("DELETE FROM messages")))
        return writeFailed<int>(what, q.lastError());
    if (!q.exec(QStringLiteral("DELETE FROM conversations")))
        return writeFailed<int>(what, q.lastError());
    const int removed = q.numRowsAffected();
    if (!transaction.commit())
        return writeFailed<int>(what, m_db.lastError());
    emit historyCleared();
    emit conversationsChanged();
    return removed;
}

StoreResult<void> ConversationStore::removeMessages(qint64 conversationId, const QList<qint64> &messageIds)
{
    const QString what = tr("Could not delete the message");
    if (m_damaged)
        return writeFailed<void>(what, damagedDetail());
    const qint64 now = nextStamp();
    Transaction transaction(m_db);
    if (!transaction.isActive())
        return writeFailed<void>(what, m_db.lastError());
    QSqlQuery q(m_db);
    q.prepare(QStringLiteral("DELETE FROM messages WHERE id = ? AND conversation_id = ?"));
    for (const qint64 id : messageIds) {
        q.addBindValue(id);
        q.addBindValue(conversationId);
        if (!q.exec())
            return writeFailed<void>(what, q.lastError());
        if (q.numRowsAffected() != 1)
            return std::unexpected(tr("The message no longer exists.")); // rolled back: all stay
    }
    q.prepare(QStringLiteral("UPDATE conversations SET updated_at = ? WHERE id = ?"));
    q.addBindValue(now);
    q.addBindValue(conversationId);
    if (!q.exec())
        return writeFailed<void>(what, q.lastError());
    if (!transaction.commit())
        return writeFailed<void>(what, m_db.lastError());
    emit conversationsChanged(); // its message count in the list
    return {};
}

} // namespace Gui
