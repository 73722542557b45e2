#include "workspace/conversations/conversationsalvage.h"

#include "base/privatefiles.h"

#include "llm/log.h"

#include <spdlog/spdlog.h>

#include <QAtomicInteger>
#include <QDir>
#include <QHash>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QSaveFile>
#include <QSet>
#include <QSqlDatabase>
#include <QSqlError>
#include <QSqlQuery>
#include <QVariant>

#include <algorithm>
#include <optional>

namespace Gui {

namespace {

spdlog::logger &log()
{
    return Llm::moduleLogger("ui");
}

// Ids are looked up one by one up to the largest one found; a file claiming more rows than
// this is damaged in its counters too, and the lookups stop there.
constexpr qint64 MaxIdsTried = 1'000'000;

QDateTime fromStamp(const QVariant &value)
{
    return QDateTime::fromMSecsSinceEpoch(value.toLongLong(), Qt::UTC);
}

// The largest id of `table`: read through the b-tree's rightmost path, which survives damage
// elsewhere in the table.
std::optional<qint64> maxId(QSqlDatabase &db, const QString &table)
{
    QSqlQuery q(db);
    if (!q.exec(QStringLiteral("SELECT max(id) FROM %1").arg(table)) || !q.next())
        return std::nullopt;
    return q.value(0).toLongLong();
}

// A file name from a title: letters, digits and a few safe marks, at most 60 characters.
QString fileStem(const ConversationSalvage::Conversation &c)
{
    QString stem = c.title;
    stem.replace(QRegularExpression(QStringLiteral("[^\\w\\- ]+")), QStringLiteral(" "));
    stem = stem.simplified().left(60).replace(u' ', u'-');
    return QStringLiteral("%1-%2")
        .arg(c.id, 5, 10, QLatin1Char('0'))
        .arg(stem.isEmpty() ? QStringLiteral("untitled") : stem);
}

QString markdown(const ConversationSalvage::Conversation &c)
{
    QString out =
        QStringLiteral("# %1\n\n").arg(c.title.isEmpty() ? ConversationSalvage::tr("Untitled conversation") : c.title);
    if (!c.documentPath.isEmpty())
        out += ConversationSalvage::tr("Document: %1").arg(c.documentPath) + QStringLiteral("\n\n");
    if (c.updated.isValid())
        out += ConversationSalvage::tr("Last changed: %1").arg(c.updated.toString(Qt::ISODate))
               + QStringLiteral("\n\n");
    if (!c.complete)
        out += ConversationSalvage::tr("Some messages of this conversation could not be read from the damaged file.")
               + QStringLiteral("\n\n");
    for (const ConversationSalvage::Message &m : c.messages) {
        out += QStringLiteral("## %1").arg(m.role);
        if (m.state != QLatin1String("complete"))
            out += QStringLiteral(" (%1)").arg(m.state);
        out += QStringLiteral("\n\n");
        for (const Attachment &a : m.attachments)
            out += foldedAttachmentMarkdown(a);
        out += m.content + QStringLiteral("\n\n");
    }
    return out;
}

} // namespace

std::expected<ConversationSalvage, QString> ConversationSalvage::read(const QString &path)
{
    static QAtomicInteger<quint64> counter;
    const QString connection = QStringLiteral("headstart-salvage-%1").arg(counter.fetchAndAddRelaxed(1) + 1);
    ConversationSalvage out;
    QString failure;
    {
        QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), connection);
        db.setDatabaseName(path);
        // Read-only: salvaging must not change the evidence, nor replay a journal into it.
        db.setConnectOptions(QStringLiteral("QSQLITE_OPEN_READONLY"));
        const std::optional<qint64> last = db.open() ? maxId(db, QStringLiteral("conversations")) : std::nullopt;
        if (!last) {
            failure =
                ConversationSalvage::tr("Nothing can be read from %1 any more.").arg(QDir::toNativeSeparators(path));
        } else {
            QSqlQuery conversation(db);
            conversation.prepare(
                QStringLiteral("SELECT title, document_path, updated_at FROM conversations WHERE id = ?"));
            QHash<qint64, qsizetype> index; // conversation id -> position in the list
            for (qint64 id = 1; id <= std::min(*last, MaxIdsTried); ++id) {
                conversation.bindValue(0, id);
                if (!conversation.exec() || !conversation.next())
                    continue; // deleted, or on a damaged page
                Conversation c;
                c.id = id;
                c.title = conversation.value(0).toString();
                c.documentPath = conversation.value(1).toString();
                c.updated = fromStamp(conversation.value(2));
                conversation.finish();
                index.insert(id, out.m_conversations.size());
                out.m_conversations.append(std::move(c));
            }
            // Messages by their own id, not through the conversation index: the index may be
            // on a damaged page when the rows are not.
            QSqlQuery message(db);
            // Files written before schema 4 have no attachments column: without it, then.
            const bool withAttachments = message.prepare(
                QStringLiteral("SELECT conversation_id, role, content, state, created_at, attachments FROM messages"
                               " WHERE id = ?"));
            if (!withAttachments)
                message.prepare(QStringLiteral("SELECT conversation_id, role, content, state, created_at FROM messages"
                                               " WHERE id = ?"));
            const qint64 lastMessage = maxId(db, QStringLiteral("messages")).value_or(0);
            QSet<qint64> incomplete;
            for (qint64 id = 1; id <= std::min(lastMessage, MaxIdsTried); ++id) {
                message.bindValue(0, id);
                if (!message.exec() || !message.next()) {
                    // Deleted, or lost: which conversation it belonged to is lost with it, so
                    // every conversation is marked as possibly incomplete once any row fails.
                    if (message.lastError().isValid())
                        incomplete.insert(-1);
                    continue;
                }
                const auto at = index.constFind(message.value(0).toLongLong());
                if (at != index.constEnd())
                    out.m_conversations[*at].messages.append(
                        {message.value(1).toString(), message.value(2).toString(), message.value(3).toString(),
                         fromStamp(message.value(4)),
                         withAttachments ? attachmentsFromJson(message.value(5).toString()) : QList<Attachment>{}});
                message.finish();
            }
            // A conversation whose count of messages differs from what its index says, or any
            // conversation when a message row was unreadable, may miss messages.
            QSqlQuery count(db);
            count.prepare(QStringLiteral("SELECT count(*) FROM messages WHERE conversation_id = ?"));
            for (Conversation &c : out.m_conversations) {
                count.bindValue(0, c.id);
                const bool counted = count.exec() && count.next();
                c.complete = counted && count.value(0).toLongLong() == c.messages.size() && !incomplete.contains(-1);
                count.finish();
            }
        }
        db.close();
    }
    QSqlDatabase::removeDatabase(connection);
    if (!failure.isEmpty())
        return std::unexpected(failure);
    log().info("conversation salvage: {} conversations readable", out.m_conversations.size());
    return out;
}

std::expected<int, QString> ConversationSalvage::exportTo(const QString &directory) const
{
    if (!Base::PrivateFiles::makeDirectory(directory))
        return std::unexpected(
            ConversationSalvage::tr("The folder %1 cannot be created.").arg(QDir::toNativeSeparators(directory)));
    const QDir dir(directory);
    const auto write = [](const QString &path, const QByteArray &bytes) {
        QSaveFile file(path);
        if (!file.open(QIODevice::WriteOnly))
            return false;
        file.setPermissions(QFileDevice::ReadOwner | QFileDevice::WriteOwner);
        file.write(bytes);
        return file.commit();
    };
    QJsonArray all;
    for (const Conversation &c : m_conversations) {
        if (!write(dir.filePath(fileStem(c) + QStringLiteral(".md")), markdown(c).toUtf8()))
            return std::unexpected(
                ConversationSalvage::tr("Cannot write into %1.").arg(QDir::toNativeSeparators(directory)));
        QJsonArray messages;
        for (const Message &m : c.messages) {
            QJsonObject o{{QStringLiteral("role"), m.role},
                          {QStringLiteral("content"), m.content},
                          {QStringLiteral("state"), m.state},
                          {QStringLiteral("created"), m.created.toString(Qt::ISODateWithMs)}};
            if (!m.attachments.isEmpty()) // as the conversation export writes them: [{name, text}]
                o.insert(QStringLiteral("attachments"), attachmentsToJsonArray(m.attachments));
            messages.append(o);
        }
        all.append(QJsonObject{{QStringLiteral("id"), c.id},
                               {QStringLiteral("title"), c.title},
                               {QStringLiteral("documentPath"), c.documentPath},
                               {QStringLiteral("updated"), c.updated.toString(Qt::ISODateWithMs)},
                               {QStringLiteral("complete"), c.complete},
                               {QStringLiteral("messages"), messages}});
    }
    if (!write(dir.filePath(QStringLiteral("conversations.json")), QJsonDocument(all).toJson()))
        return std::unexpected(
            ConversationSalvage::tr("Cannot write into %1.").arg(QDir::toNativeSeparators(directory)));
    return int(m_conversations.size());
}

} // namespace Gui
