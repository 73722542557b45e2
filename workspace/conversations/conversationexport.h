#pragma once

#include "workspace/conversations/conversationstore.h"

#include <QByteArray>
#include <QList>
#include <QString>

namespace Gui {

// One conversation as a file: JSON that imports back to the same conversation (the schema is in
// docs/conversation-format.md) and Markdown to read or share (one-way). Pure functions on
// values; reading and writing the store is the caller's (ConversationStore). Any thread.
namespace ConversationExport {

inline constexpr int FormatVersion = 1;
inline constexpr char FormatName[] = "headstart-conversation";

struct Conversation {
    ConversationInfo info; // title, mode, documentPath are exported; id, updated, count are not
    QList<StoredMessage> messages;
};

// The conversation `id` with its messages, as stored.
StoreResult<Conversation> load(const ConversationStore &store, qint64 id);

QByteArray toJson(const Conversation &conversation);
QString toMarkdown(const Conversation &conversation);

// The conversation in `json`, or a sentence for the user: not a Headstart conversation file,
// cut off, written by a newer Headstart, or a message that is not valid. Nothing is written.
StoreResult<Conversation> fromJson(const QByteArray &json);

enum class Format { Markdown, Json };

// Writes conversation `id` of `store` to `path` (whole or not at all: QSaveFile).
StoreResult<void> exportToFile(const ConversationStore &store, qint64 id, Format format, const QString &path);
// Reads `path` and adds its conversation to `store` in one transaction: the new id, or a
// sentence for the user and nothing written.
StoreResult<qint64> importFromFile(ConversationStore &store, const QString &path);

// A file name for it: the title with characters no file system takes replaced.
QString fileStem(const ConversationInfo &info);

} // namespace ConversationExport

} // namespace Gui
