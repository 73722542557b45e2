#pragma once

#include "chunker.h"
#include "types.h"

#include <QByteArray>
#include <QString>
#include <QStringList>

#include <expected>
#include <optional>

namespace Knowledge {

// Larger files are skipped: a 5 MB text is a log or a dump, not a document someone asks about.
inline constexpr qint64 DefaultMaxFileBytes = 5 * 1024 * 1024;

// A library file read and decoded.
struct FileText {
    QString text;
    QByteArray encoding; // "UTF-8", "UTF-16LE", "UTF-16BE" or "GB18030"
    QByteArray hash;     // SHA-1 of the bytes, hex: what "changed" means once size or mtime moved
    qint64 size = 0;
};

// The kind of text a path holds by its suffix, or nullopt for a file the library does not read
// at all (images, archives, ...: left out silently, not listed as skipped). PDF is read by
// readPdfFile() (pdfreader.h).
enum class FileType { Text, Pdf };
std::optional<FileType> fileTypeOf(const QString &path);
TextKind textKindOf(const QString &path);
// The names of the text files fileTypeOf() knows ("*.md", "*.cpp", …, "Makefile"), sorted, for a
// file dialog's name filter.
QStringList textFilePatterns();

// The bytes of a file of at most `maxBytes`, read once: Vanished, TooLarge (by the listing or by
// what was read: the file may have grown since) or Unreadable otherwise. Thread-safe.
std::expected<QByteArray, SkipReason> readFileBytes(const QString &path, qint64 maxBytes);

// Reads a file of at most `maxBytes` and decodes it: UTF-8 (BOM or not), UTF-16 with a BOM, else
// GB18030 (what Chinese Windows tools write). Anything else is a reason to skip it. Thread-safe.
std::expected<FileText, SkipReason> readTextFile(const QString &path, qint64 maxBytes);

// The decoding readTextFile() does, of bytes already read: the text and its encoding (as
// FileText::encoding names it), or Binary / BadEncoding. Thread-safe.
struct DecodedText {
    QString text;
    QByteArray encoding;
};
std::expected<DecodedText, SkipReason> decodeText(const QByteArray &bytes);

// True for bytes that are not text: a NUL byte, or more than 10 % control characters other than
// tab, line breaks and form feed. Looks at the first 64 KiB.
bool looksBinary(const QByteArray &bytes);

} // namespace Knowledge
