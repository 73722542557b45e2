#pragma once

#include <QJsonArray>
#include <QList>
#include <QString>
#include <QStringList>

#include <expected>
#include <optional>

namespace Gui {

// A text file attached to a chat message: its file name (no folder) and its text as it is sent,
// line breaks as '\n'. The text is read once, when it is attached, and kept with the question
// in the conversation store: the history sends the same bytes later even if the file has
// changed or gone since.
struct Attachment {
    QString name;
    QString text;

    // Its size as sent: the text's UTF-8 bytes.
    qint64 bytes() const { return text.toUtf8().size(); }
    friend bool operator==(const Attachment &, const Attachment &) = default;
};

// The limits (docs/ui.md, "Attachments"). The history that goes with the next message keeps at
// most 32,000 tokens (ChatSession); 80 KiB is about 20,000 tokens of English and 27,000 of
// Chinese, so a message's attachments still fit in it, with its question and answer.
inline constexpr qint64 MaxAttachmentBytes = 64 * 1024;
inline constexpr qint64 MaxMessageAttachmentBytes = 80 * 1024;

// Reads the file at `path` to attach, or a sentence for the user that names the file and says
// what to do: not a file, not found, unreadable, empty, binary (NUL bytes, mostly control
// characters), not text in UTF-8 (UTF-16 with a BOM and GB18030 are read too, as the library
// reads them), or over MaxAttachmentBytes. "\r\n" becomes "\n". GUI thread or any: it reads at
// most MaxAttachmentBytes + 1 bytes of a regular file, never blocks on a pipe or a device.
std::expected<Attachment, QString> readAttachment(const QString &path);

// `current` with the files at `paths` added in order: all of them or none. Refused, with the
// first problem's sentence, when one cannot be read, is attached already (same name and text),
// or would take the message's attachments over MaxMessageAttachmentBytes.
std::expected<QList<Attachment>, QString> withAttachments(const QList<Attachment> &current, const QStringList &paths);

// The user message as it is sent: each attachment in order as a fenced block under its name,
// then `text`; `text` unchanged when there are none. Deterministic: the same attachments and
// text give the same bytes, so a prefetch of the draft is the request Enter sends, and the
// question in a later request's history is the bytes the provider cached. The fence is longer
// than any run of backticks in the file, so a Markdown file with code blocks stays whole.
QString messageWithAttachments(const QList<Attachment> &attachments, const QString &text);
// An attachment's text in that fence, the closing one ending the last line: "```\n…\n```".
QString fencedText(const Attachment &attachment);

// An attachment for a Markdown file the user reads (the export, a salvage): folded under
// "Attached: name (size)", like the chips, with its text in fencedText()'s fence.
QString foldedAttachmentMarkdown(const Attachment &attachment);

// The attach dialog's name filters: text files (the kinds the library reads), then all files.
QStringList attachmentNameFilters();
// "1.2 KiB", in the user's locale.
QString attachmentSizeText(qint64 bytes);

// As the conversation store keeps them with the question, and the conversation export: a JSON
// array of {name, text}. The store's column: '' for none; a value that is not such an array
// reads as none. The export's array: nullopt when an entry is not an object with a non-empty
// string name and a string text (the importer refuses the message).
QString attachmentsToJson(const QList<Attachment> &attachments);
QList<Attachment> attachmentsFromJson(const QString &json);
QJsonArray attachmentsToJsonArray(const QList<Attachment> &attachments);
std::optional<QList<Attachment>> attachmentsFromJsonArray(const QJsonArray &array);

} // namespace Gui
