#pragma once

// What the conversation store keeps, as values: a conversation's info, a stored message, their
// modes and states, and the names those are written under (in the store and in the export).

#include "knowledge/types.h"
#include "workspace/conversations/attachments.h"
#include "workspace/conversations/messageusage.h"

#include "llm/llmtypes.h"

#include <QDateTime>
#include <QList>
#include <QString>

namespace Gui {

// What a conversation is about: the document open in the editor (its text goes into the
// prompt's static prefix) or nothing.
// Library: the best passages of the user's library for each message go with it (issue 16).
enum class ConversationMode { FreeChat, Document, Library };

// How a stored answer ended. Partial: it was stopped, or the app closed (or crashed) while it
// streamed; the text is what had arrived. Failed: the provider or the network failed; `error`
// says why and the text is what had arrived before.
enum class MessageState { Complete, Partial, Failed };

struct ConversationInfo {
    qint64 id = 0;
    QString title;
    QString documentPath; // empty: no document, or one that was never saved
    ConversationMode mode = ConversationMode::FreeChat;
    // Its assistant (ui/assistants.h), schema 5; "general" for older ones. Stored as it was
    // chosen: an id no longer in the list is read back as it is and used as General.
    QString assistantId = QStringLiteral("general");
    QDateTime updated; // UTC
    int messageCount = 0;
};

struct StoredMessage {
    qint64 id = 0;
    qint64 conversationId = 0;
    Llm::Role role = Llm::Role::User;
    QString content;
    QString reasoning;
    MessageState state = MessageState::Complete;
    QString error;      // Failed: the message shown to the user
    QDateTime created;  // UTC
    MessageUsage usage; // answers: tokens, speed and cost; empty for questions and old messages
    // Library answers: the passages its citations [n] open (n - 1); path, heading, offsets and
    // page only, no text. Empty for other messages and for answers stored before schema 3.
    QList<Knowledge::Passage> citations;
    // Questions: the files attached to it (name and text), sent before its text (schema 4).
    QList<Attachment> attachments;
};

// The names the store writes for roles, states and modes (the export format uses them too).
// Reading falls back to user, complete and free chat for a name it does not know.
QString roleName(Llm::Role role);
Llm::Role roleFromName(const QString &name);
QString stateName(MessageState state);
MessageState stateFromName(const QString &name);
QString modeName(ConversationMode mode);
ConversationMode modeFromName(const QString &name);

} // namespace Gui
