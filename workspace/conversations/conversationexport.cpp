#include "workspace/conversations/conversationexport.h"
#include "workspace/conversations/storedcitations.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QJsonParseError>
#include <QRegularExpression>
#include <QSaveFile>

namespace Gui::ConversationExport {

namespace {

// Larger than any conversation the store keeps (its history is bounded); a bigger file is not ours.
constexpr qint64 MaxImportBytes = 256LL * 1024 * 1024;

// Usage fields in the file; absent from a message whose usage is not known (MessageUsage::isEmpty).
QJsonObject usageJson(const MessageUsage &u)
{
    QJsonObject o;
    auto put = [&o](const char *key, double value) {
        if (value >= 0)
            o.insert(QLatin1String(key), value);
    };
    put("inputTokens", double(u.tokens.inputTokens));
    put("cacheReadTokens", double(u.tokens.cacheReadTokens));
    put("cacheWriteTokens", double(u.tokens.cacheWriteTokens));
    put("outputTokens", double(u.tokens.outputTokens));
    put("reasoningTokens", double(u.tokens.reasoningTokens));
    put("firstTokenMs", u.firstTokenMs);
    put("tokensPerSecond", u.tokensPerSecond);
    put("cost", u.cost);
    if (!u.currency.isEmpty())
        o.insert(QLatin1String("currency"), u.currency);
    if (!u.model.isEmpty())
        o.insert(QLatin1String("model"), u.model);
    if (!u.openingModel.isEmpty()) {
        o.insert(QLatin1String("openingModel"), u.openingModel);
        o.insert(QLatin1String("openingChars"), double(u.openingChars));
    }
    return o;
}

MessageUsage usageFrom(const QJsonObject &o)
{
    MessageUsage u;
    auto count = [&o](const char *key) { return qint64(o.value(QLatin1String(key)).toDouble(-1)); };
    u.tokens.inputTokens = count("inputTokens");
    u.tokens.cacheReadTokens = count("cacheReadTokens");
    u.tokens.cacheWriteTokens = count("cacheWriteTokens");
    u.tokens.outputTokens = count("outputTokens");
    u.tokens.reasoningTokens = count("reasoningTokens");
    u.firstTokenMs = o.value(QLatin1String("firstTokenMs")).toDouble(-1);
    u.tokensPerSecond = o.value(QLatin1String("tokensPerSecond")).toDouble(-1);
    u.cost = o.value(QLatin1String("cost")).toDouble(-1);
    u.currency = o.value(QLatin1String("currency")).toString();
    u.model = o.value(QLatin1String("model")).toString();
    u.openingModel = o.value(QLatin1String("openingModel")).toString();
    u.openingChars = std::max<qint64>(0, qint64(o.value(QLatin1String("openingChars")).toDouble(0)));
    return u;
}

QString notOurs()
{
    return QCoreApplication::translate("Gui::ConversationExport",
                                       "This file is not a Headstart conversation. Choose a .json file exported "
                                       "from Headstart's conversation list.");
}

QString invalidMessage(qsizetype index, const QString &why)
{
    return QCoreApplication::translate("Gui::ConversationExport",
                                       "Message %1 in this file is not valid (%2). Nothing was imported.")
        .arg(index + 1)
        .arg(why);
}

} // namespace

StoreResult<Conversation> load(const ConversationStore &store, qint64 id)
{
    auto info = store.conversation(id);
    if (!info)
        return std::unexpected(info.error());
    auto messages = store.messages(id);
    if (!messages)
        return std::unexpected(messages.error());
    return Conversation{std::move(*info), std::move(*messages)};
}

QByteArray toJson(const Conversation &c)
{
    QJsonArray messages;
    for (const StoredMessage &m : c.messages) {
        QJsonObject o{{QStringLiteral("role"), roleName(m.role)},
                      {QStringLiteral("content"), m.content},
                      {QStringLiteral("state"), stateName(m.state)}};
        if (!m.reasoning.isEmpty())
            o.insert(QStringLiteral("reasoning"), m.reasoning);
        if (!m.error.isEmpty())
            o.insert(QStringLiteral("error"), m.error);
        if (m.created.isValid())
            o.insert(QStringLiteral("created"), m.created.toUTC().toString(Qt::ISODateWithMs));
        if (!m.usage.isEmpty() || !m.usage.model.isEmpty())
            o.insert(QStringLiteral("usage"), usageJson(m.usage));
        if (!m.citations.isEmpty())
            o.insert(QStringLiteral("citations"), citationsToJsonArray(m.citations));
        if (!m.attachments.isEmpty())
            o.insert(QStringLiteral("attachments"), attachmentsToJsonArray(m.attachments));
        messages.append(o);
    }
    const QJsonObject conversation{{QStringLiteral("title"), c.info.title},
                                   {QStringLiteral("mode"), modeName(c.info.mode)},
                                   {QStringLiteral("documentPath"), c.info.documentPath},
                                   {QStringLiteral("assistant"), c.info.assistantId},
                                   {QStringLiteral("messages"), messages}};
    const QJsonObject root{{QStringLiteral("format"), QLatin1String(FormatName)},
                           {QStringLiteral("version"), FormatVersion},
                           {QStringLiteral("conversation"), conversation}};
    return QJsonDocument(root).toJson(QJsonDocument::Indented);
}

StoreResult<Conversation> fromJson(const QByteArray &json)
{
    QJsonParseError error{};
    const QJsonDocument doc = QJsonDocument::fromJson(json, &error);
    if (error.error != QJsonParseError::NoError) {
        // Valid up to where the bytes stop: a file that was cut off (a copy or download ended early).
        if (json.trimmed().startsWith('{') && error.offset >= json.trimmed().size() - 1)
            return std::unexpected(QCoreApplication::translate(
                "Gui::ConversationExport",
                "This conversation file is cut off: it ends before the conversation does. Export it again from "
                "the Headstart it came from. Nothing was imported."));
        return std::unexpected(notOurs());
    }
    const QJsonObject root = doc.object();
    if (!doc.isObject() || root.value(QLatin1String("format")).toString() != QLatin1String(FormatName))
        return std::unexpected(notOurs());
    const int version = root.value(QLatin1String("version")).toInt(0);
    if (version > FormatVersion)
        return std::unexpected(
            QCoreApplication::translate("Gui::ConversationExport",
                                        "This conversation was exported by a newer Headstart (format version %1; this "
                                        "one reads up to %2). Update Headstart to import it. Nothing was imported.")
                .arg(version)
                .arg(FormatVersion));
    const QJsonObject c = root.value(QLatin1String("conversation")).toObject();
    if (version < 1 || !c.value(QLatin1String("messages")).isArray() || !c.value(QLatin1String("title")).isString())
        return std::unexpected(notOurs());

    Conversation out;
    out.info.title = c.value(QLatin1String("title")).toString();
    out.info.documentPath = c.value(QLatin1String("documentPath")).toString();
    const QString mode = c.value(QLatin1String("mode")).toString(QStringLiteral("free"));
    if (modeName(modeFromName(mode)) != mode)
        return std::unexpected(notOurs());
    out.info.mode = modeFromName(mode);
    // Optional (files from before assistants have none). Kept as it is when it looks like an id:
    // one this Headstart does not know is used as General when the conversation is opened, and
    // becomes itself again where that assistant exists. Anything else is General.
    const QString assistant = c.value(QLatin1String("assistant")).toString();
    static const QRegularExpression assistantId(QStringLiteral("^[a-z0-9-]{1,48}$"));
    out.info.assistantId = assistantId.match(assistant).hasMatch() ? assistant : QStringLiteral("general");
    const QJsonArray messages = c.value(QLatin1String("messages")).toArray();
    for (qsizetype i = 0; i < messages.size(); ++i) {
        if (!messages.at(i).isObject())
            return std::unexpected(
                invalidMessage(i, QCoreApplication::translate("Gui::ConversationExport", "not an object")));
        const QJsonObject o = messages.at(i).toObject();
        StoredMessage m;
        const QString role = o.value(QLatin1String("role")).toString();
        if (roleName(roleFromName(role)) != role)
            return std::unexpected(
                invalidMessage(i,
                               QCoreApplication::translate("Gui::ConversationExport", "unknown role “%1”").arg(role)));
        m.role = roleFromName(role);
        if (!o.value(QLatin1String("content")).isString())
            return std::unexpected(
                invalidMessage(i, QCoreApplication::translate("Gui::ConversationExport", "no text")));
        m.content = o.value(QLatin1String("content")).toString();
        m.reasoning = o.value(QLatin1String("reasoning")).toString();
        const QString state = o.value(QLatin1String("state")).toString(QStringLiteral("complete"));
        if (stateName(stateFromName(state)) != state)
            return std::unexpected(invalidMessage(
                i, QCoreApplication::translate("Gui::ConversationExport", "unknown state “%1”").arg(state)));
        m.state = stateFromName(state);
        m.error = o.value(QLatin1String("error")).toString();
        m.created = QDateTime::fromString(o.value(QLatin1String("created")).toString(), Qt::ISODateWithMs);
        m.usage = usageFrom(o.value(QLatin1String("usage")).toObject());
        // Read as the store reads them: an entry that is not a passage gives no citations (the
        // answer shows [n] as text), which is no reason to refuse the conversation.
        m.citations = citationsFromJsonArray(o.value(QLatin1String("citations")).toArray());
        // Unlike citations, attachments are part of what was asked: a question without them would
        // be another question, and its history another prompt.
        const QJsonValue attachments = o.value(QLatin1String("attachments"));
        const auto attached = attachmentsFromJsonArray(attachments.toArray());
        if (!(attachments.isUndefined() || attachments.isArray()) || !attached)
            return std::unexpected(
                invalidMessage(i, QCoreApplication::translate("Gui::ConversationExport",
                                                              "an attachment without a name or text")));
        m.attachments = *attached;
        out.messages.append(std::move(m));
    }
    return out;
}

QString toMarkdown(const Conversation &c)
{
    QString out = QStringLiteral("# %1\n\n").arg(c.info.title);
    if (c.info.mode == ConversationMode::Document)
        out += QCoreApplication::translate("Gui::ConversationExport", "About the document %1")
                   .arg(c.info.documentPath.isEmpty() ? QStringLiteral("-") : c.info.documentPath)
               + QStringLiteral("\n\n");
    for (const StoredMessage &m : c.messages) {
        const bool user = m.role == Llm::Role::User;
        out += QStringLiteral("## %1\n\n")
                   .arg(user ? QCoreApplication::translate("Gui::ChatDock", "You")
                             : QCoreApplication::translate("Gui::ChatDock", "Assistant"));
        for (const Attachment &a : m.attachments)
            out += foldedAttachmentMarkdown(a); // the file's text as it was sent
        if (!m.reasoning.isEmpty()) {
            // Folded, as in the chat: a <details> block reads as such on GitHub and most viewers.
            out += QStringLiteral("<details><summary>%1</summary>\n\n%2\n\n</details>\n\n")
                       .arg(QCoreApplication::translate("Gui::ConversationExport", "Reasoning"), m.reasoning);
        }
        out += m.content + QStringLiteral("\n\n");
        if (m.state == MessageState::Failed)
            out += QStringLiteral("> %1\n\n")
                       .arg(QCoreApplication::translate("Gui::ConversationExport", "Failed: %1").arg(m.error));
        else if (m.state == MessageState::Partial && !user)
            out += QStringLiteral("> %1\n\n")
                       .arg(QCoreApplication::translate("Gui::ChatDock",
                                                        "Incomplete: the answer was stopped or interrupted."));
        if (!m.citations.isEmpty()) {
            // The numbers the answer cites, in a list a reader can follow by hand.
            out += QCoreApplication::translate("Gui::ConversationExport", "Sources:") + QStringLiteral("\n\n");
            for (qsizetype n = 0; n < m.citations.size(); ++n)
                out += QStringLiteral("- %1\n").arg(citationLine(int(n + 1), m.citations.at(n)));
            out += u'\n';
        }
        if (const QString line = usageLine(m.usage); !line.isEmpty())
            out += QStringLiteral("*%1*\n\n").arg(line);
    }
    return out;
}

StoreResult<void> exportToFile(const ConversationStore &store, qint64 id, Format format, const QString &path)
{
    const auto conversation = load(store, id);
    if (!conversation)
        return std::unexpected(conversation.error());
    const QByteArray bytes = format == Format::Json ? toJson(*conversation) : toMarkdown(*conversation).toUtf8();
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly) || file.write(bytes) != bytes.size() || !file.commit())
        return std::unexpected(
            QCoreApplication::translate("Gui::ConversationExport", "Could not write %1: %2. Choose another folder.")
                .arg(QDir::toNativeSeparators(path), file.errorString()));
    return {};
}

StoreResult<qint64> importFromFile(ConversationStore &store, const QString &path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return std::unexpected(QCoreApplication::translate("Gui::ConversationExport", "Could not read %1: %2.")
                                   .arg(QDir::toNativeSeparators(path), file.errorString()));
    if (file.size() > MaxImportBytes)
        return std::unexpected(notOurs());
    const auto conversation = fromJson(file.readAll());
    if (!conversation)
        return std::unexpected(conversation.error());
    return store.insertConversation(conversation->info, conversation->messages);
}

QString fileStem(const ConversationInfo &info)
{
    QString stem = info.title.simplified();
    stem.replace(QRegularExpression(QStringLiteral("[\\\\/:*?\"<>|\\x00-\\x1f]")), QStringLiteral("_"));
    if (stem.isEmpty())
        stem = QStringLiteral("conversation");
    return stem.left(80);
}

} // namespace Gui::ConversationExport
