#pragma once

#include <QList>
#include <QMetaType>
#include <QString>

namespace Knowledge {

// How the full-text index splits text into terms; they differ for Chinese (docs/knowledge.md has
// the measured comparison that picked the default).
enum class Tokenization {
    Bigram,  // porter + unicode61, CJK runs rewritten as overlapping character pairs
    Trigram, // FTS5's trigram tokenizer: any substring of three or more characters
};

// Why a file of a library folder is not in the index. Stored by name in the index, so the
// message follows the user's language, not the one the file was scanned in.
enum class SkipReason {
    Binary,      // NUL bytes or mostly control characters
    TooLarge,    // over the size limit
    Unreadable,  // no permission, or a read error
    BadEncoding, // not UTF-8, UTF-16 with a BOM, or GB18030
    Vanished,    // deleted (or replaced) between being listed and being read
    Encrypted,   // a PDF that needs a password to be opened
    Damaged,     // a PDF that cannot be parsed
    NoText,      // a PDF without text on any page (a scan)
};

// A translated sentence for the user, e.g. "Not text: the file has NUL bytes."
QString skipMessage(SkipReason reason);
// Stable names for the index ("binary", "too_large", ...), and back (false for an unknown name).
const char *skipReasonName(SkipReason reason);
bool skipReasonFromName(const QString &name, SkipReason *reason);

struct SkippedFile {
    QString path;
    SkipReason reason = SkipReason::Unreadable;
    QString message() const { return skipMessage(reason); }
};

// One folder of the library as the index has it now.
struct FolderStatus {
    QString path;
    int files = 0;   // indexed files
    int chunks = 0;  // passages of those files
    int skipped = 0; // files skipped with a reason
};

// A ranked search result: a chunk of a file, where it is, and its text.
struct Passage {
    QString path;         // absolute file path
    QString headingTrail; // "Intro > Setup"; empty outside any heading
    qsizetype start = 0;  // UTF-16 offsets into the decoded file text: [start, end)
    qsizetype end = 0;
    QString text;
    int page = 0;     // PDF: the page the passage is on, from 1; 0 for text files
    double score = 0; // BM25, higher is better; only comparable within one query
};

} // namespace Knowledge

Q_DECLARE_METATYPE(Knowledge::SkippedFile)
Q_DECLARE_METATYPE(Knowledge::FolderStatus)
Q_DECLARE_METATYPE(Knowledge::Passage)
