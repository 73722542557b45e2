#include "workspace/conversations/attachments.h"

#include "knowledge/filereader.h"

#include <QCoreApplication>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLocale>

#include <algorithm>

namespace Gui {

namespace {

// A file name as one line: a name with a line break or a control character in it (possible on
// Linux) must not end the "Attached file:" line early.
QString displayName(const QString &path)
{
    QString name = QFileInfo(path).fileName();
    for (QChar &c : name) {
        if (c.category() == QChar::Other_Control || c == QChar::LineSeparator || c == QChar::ParagraphSeparator)
            c = u'_';
    }
    return name;
}

qsizetype longestBacktickRun(const QString &text)
{
    qsizetype longest = 0;
    qsizetype run = 0;
    for (const QChar c : text) {
        run = c == u'`' ? run + 1 : 0;
        longest = std::max(longest, run);
    }
    return longest;
}

QString tooLarge(const QString &name, qint64 bytes)
{
    return QCoreApplication::translate("Gui::Attachments",
                                       "%1 is too large to attach (%2; a file can be at most %3). Attach a shorter "
                                       "part of it.")
        .arg(name, attachmentSizeText(bytes), attachmentSizeText(MaxAttachmentBytes));
}

QString notFound(const QString &name)
{
    return QCoreApplication::translate("Gui::Attachments",
                                       "%1 was not found: it was moved or deleted. Attach it from where it is now.")
        .arg(name);
}

QString readProblem(const QString &name, Knowledge::SkipReason reason)
{
    switch (reason) {
    case Knowledge::SkipReason::Binary:
        return QCoreApplication::translate("Gui::Attachments",
                                           "%1 is not a text file (it holds binary data). Attach Markdown, plain "
                                           "text or source code.")
            .arg(name);
    case Knowledge::SkipReason::BadEncoding:
        return QCoreApplication::translate("Gui::Attachments",
                                           "%1 is not text in UTF-8 (nor UTF-16 or GB18030). Save it as UTF-8, then "
                                           "attach it again.")
            .arg(name);
    case Knowledge::SkipReason::Vanished: return notFound(name);
    default:
        return QCoreApplication::translate("Gui::Attachments",
                                           "%1 cannot be read. Check that you may read it (its permissions), then "
                                           "attach it again.")
            .arg(name);
    }
}

} // namespace

std::expected<Attachment, QString> readAttachment(const QString &path)
{
    const QFileInfo info(path);
    const QString name = displayName(path);
    if (!info.exists())
        return std::unexpected(notFound(name));
    // A folder, a pipe or a device: reading a pipe would wait for a writer, forever.
    if (!info.isFile())
        return std::unexpected(QCoreApplication::translate("Gui::Attachments",
                                                           "%1 is not a file. Attach text files: Markdown, plain "
                                                           "text or source code.")
                                   .arg(name));
    const auto read = Knowledge::readTextFile(path, MaxAttachmentBytes);
    if (!read && read.error() == Knowledge::SkipReason::TooLarge)
        return std::unexpected(tooLarge(name, info.size()));
    if (!read)
        return std::unexpected(readProblem(name, read.error()));
    Attachment attachment{name, read->text};
    attachment.text.replace(QStringLiteral("\r\n"), QStringLiteral("\n"));
    if (attachment.text.trimmed().isEmpty())
        return std::unexpected(
            QCoreApplication::translate("Gui::Attachments", "%1 is empty: there is nothing in it to attach.")
                .arg(name));
    // UTF-16 and GB18030 files grow when they are sent as UTF-8.
    if (attachment.bytes() > MaxAttachmentBytes)
        return std::unexpected(tooLarge(name, attachment.bytes()));
    return attachment;
}

std::expected<QList<Attachment>, QString> withAttachments(const QList<Attachment> &current, const QStringList &paths)
{
    QList<Attachment> out = current;
    qint64 total = 0;
    for (const Attachment &a : current)
        total += a.bytes();
    // A refusal names the file; with several, it also says that none of them went in.
    const auto refused = [&paths](const QString &why) {
        if (paths.size() < 2)
            return why;
        return why + u' '
               + QCoreApplication::translate("Gui::Attachments", "None of the %n files was attached.", nullptr,
                                             int(paths.size()));
    };
    for (const QString &path : paths) {
        auto attachment = readAttachment(path);
        if (!attachment)
            return std::unexpected(refused(attachment.error()));
        if (out.contains(*attachment))
            return std::unexpected(refused(
                QCoreApplication::translate("Gui::Attachments", "%1 is attached already.").arg(attachment->name)));
        total += attachment->bytes();
        if (total > MaxMessageAttachmentBytes) {
            return std::unexpected(refused(
                QCoreApplication::translate("Gui::Attachments",
                                            "With %1 the attachments would come to %2, more than the %3 one message "
                                            "can carry. Remove an attachment or attach a shorter file.")
                    .arg(attachment->name, attachmentSizeText(total), attachmentSizeText(MaxMessageAttachmentBytes))));
        }
        out.append(std::move(*attachment));
    }
    return out;
}

QString messageWithAttachments(const QList<Attachment> &attachments, const QString &text)
{
    if (attachments.isEmpty())
        return text;
    // English for the model, like every prompt; the user's language is in their own text.
    QString out;
    for (const Attachment &a : attachments)
        out += QStringLiteral("Attached file: ") + a.name + u'\n' + fencedText(a) + QStringLiteral("\n\n");
    return out + text;
}

QString fencedText(const Attachment &attachment)
{
    const QString fence(std::max<qsizetype>(3, longestBacktickRun(attachment.text) + 1), u'`');
    QString out = fence + u'\n' + attachment.text;
    if (!attachment.text.endsWith(u'\n'))
        out += u'\n';
    return out + fence;
}

QString foldedAttachmentMarkdown(const Attachment &attachment)
{
    return QStringLiteral("<details><summary>%1</summary>\n\n%2\n\n</details>\n\n")
        .arg(QCoreApplication::translate("Gui::ConversationExport", "Attached: %1 (%2)")
                 .arg(attachment.name, attachmentSizeText(attachment.bytes()))
                 .toHtmlEscaped(),
             fencedText(attachment));
}

QStringList attachmentNameFilters()
{
    return {QCoreApplication::translate("Gui::Attachments", "Text files (%1)")
                .arg(Knowledge::textFilePatterns().join(u' ')),
            QCoreApplication::translate("Gui::Attachments", "All files (*)")};
}

QString attachmentSizeText(qint64 bytes)
{
    return QLocale().formattedDataSize(bytes, 1);
}

QJsonArray attachmentsToJsonArray(const QList<Attachment> &attachments)
{
    QJsonArray array;
    for (const Attachment &a : attachments)
        array.append(QJsonObject{{QStringLiteral("name"), a.name}, {QStringLiteral("text"), a.text}});
    return array;
}

std::optional<QList<Attachment>> attachmentsFromJsonArray(const QJsonArray &array)
{
    QList<Attachment> out;
    for (const QJsonValue &v : array) {
        const QJsonObject o = v.toObject();
        const QJsonValue name = o.value(QLatin1String("name"));
        const QJsonValue text = o.value(QLatin1String("text"));
        if (!name.isString() || name.toString().isEmpty() || !text.isString())
            return std::nullopt;
        out.append({name.toString(), text.toString()});
    }
    return out;
}

QString attachmentsToJson(const QList<Attachment> &attachments)
{
    if (attachments.isEmpty())
        return QStringLiteral("");
    return QString::fromUtf8(QJsonDocument(attachmentsToJsonArray(attachments)).toJson(QJsonDocument::Compact));
}

QList<Attachment> attachmentsFromJson(const QString &json)
{
    if (json.isEmpty())
        return {};
    return attachmentsFromJsonArray(QJsonDocument::fromJson(json.toUtf8()).array()).value_or(QList<Attachment>{});
}

} // namespace Gui
