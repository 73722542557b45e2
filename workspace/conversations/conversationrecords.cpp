#include "workspace/conversations/conversationrecords.h"

namespace Gui {

QString roleName(Llm::Role role)
{
    switch (role) {
    case Llm::Role::System: return QStringLiteral("system");
    case Llm::Role::User: return QStringLiteral("user");
    case Llm::Role::Assistant: return QStringLiteral("assistant");
    }
    return QStringLiteral("user");
}

Llm::Role roleFromName(const QString &name)
{
    if (name == QLatin1String("assistant"))
        return Llm::Role::Assistant;
    if (name == QLatin1String("system"))
        return Llm::Role::System;
    return Llm::Role::User;
}

QString stateName(MessageState state)
{
    switch (state) {
    case MessageState::Complete: return QStringLiteral("complete");
    case MessageState::Partial: return QStringLiteral("partial");
    case MessageState::Failed: return QStringLiteral("failed");
    }
    return QStringLiteral("complete");
}

MessageState stateFromName(const QString &name)
{
    if (name == QLatin1String("partial"))
        return MessageState::Partial;
    if (name == QLatin1String("failed"))
        return MessageState::Failed;
    return MessageState::Complete;
}

QString modeName(ConversationMode mode)
{
    switch (mode) {
    case ConversationMode::Document: return QStringLiteral("document");
    case ConversationMode::Library: return QStringLiteral("library");
    case ConversationMode::FreeChat: break;
    }
    return QStringLiteral("free");
}

ConversationMode modeFromName(const QString &name)
{
    if (name == QLatin1String("library"))
        return ConversationMode::Library;
    return name == QLatin1String("document") ? ConversationMode::Document : ConversationMode::FreeChat;
}

} // namespace Gui
