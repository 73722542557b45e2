#include "workspace/conversations/conversationstore.h"

#include <QSqlQuery>

// ConversationStore: a conversation's assistant (schema 5). Apart from conversationstore.cpp,
// which is at its size limit; the same pattern as setMode() there.

namespace Gui {

StoreResult<void> ConversationStore::setAssistant(qint64 id, const QString &assistantId)
{
    const QString what = tr("Could not save the conversation's assistant");
    if (m_damaged)
        return writeFailed<void>(what, damagedDetail());
    QSqlQuery q(m_db);
    q.prepare(QStringLiteral("UPDATE conversations SET assistant = ? WHERE id = ?"));
    q.addBindValue(assistantId.isNull() ? QStringLiteral("") : assistantId);
    q.addBindValue(id);
    if (!q.exec())
        return writeFailed<void>(what, q.lastError());
    if (q.numRowsAffected() != 1)
        return std::unexpected(tr("The conversation no longer exists."));
    emit conversationsChanged();
    return {};
}

} // namespace Gui
