#pragma once

#include "types.h"

#include <QByteArray>
#include <QList>
#include <QString>

#include <expected>

namespace Knowledge {

// PDFs carry figures and fonts, so they are allowed to be far larger than a text file; what
// limits the index is the text, which is held to the text files' limit (maxTextBytes).
inline constexpr qint64 DefaultMaxPdfBytes = 100 * 1024 * 1024;

// The text of a PDF, page by page, through Poppler's Qt 6 binding.
struct PdfText {
    QStringList pages; // page 1 first; a page without text is an empty string
    QByteArray hash;   // SHA-1 of the file's bytes, hex, like FileText::hash
    qint64 size = 0;
};

// Reads a PDF of at most `maxBytes` whose text is at most `maxTextBytes` (UTF-16 units * 2).
// Encrypted (a password is needed to open it) → Encrypted; not a PDF Poppler can parse → Damaged;
// no page with text (a scan) → NoText. Thread-safe: each call has its own Poppler document; the
// indexer calls it on its worker thread.
std::expected<PdfText, SkipReason> readPdfFile(const QString &path, qint64 maxBytes, qint64 maxTextBytes);

} // namespace Knowledge
