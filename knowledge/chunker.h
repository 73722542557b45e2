#pragma once

#include <QList>
#include <QString>
#include <QStringView>

namespace Knowledge {

// What kind of text a file holds, which decides where a chunk may break.
enum class TextKind {
    Markdown,  // ATX headings (outside fenced code) open sections and build the heading trail
    PlainText, // paragraphs separated by blank lines
    Source,    // blocks separated by blank lines; '#' lines are comments, not headings
};

// A passage of a file: [start, end) in UTF-16 units of the decoded text, never across a heading.
struct Chunk {
    QString headingTrail; // "Intro > Setup"
    qsizetype start = 0;
    qsizetype end = 0;
    int page = 0; // PDF: the page, from 1; 0 for text files
};

// Splits text into passages of at most `maxTokens` (Prefetch::estimateTokens) by heading, then
// paragraph, then sentence; only a sentence longer than that is cut inside, by length. Pure and
// thread-safe: the indexer calls it on its worker thread.
QList<Chunk> chunkText(QStringView text, TextKind kind, int maxTokens = 300);

// The text of a PDF's pages as the index keeps it: the pages joined by a blank line, so that
// offsets are into one text like a text file's.
QString joinPages(const QStringList &pages);
// Each page chunked as plain text on its own (a passage never crosses a page), with offsets into
// joinPages(pages) and the page number in Chunk::page.
QList<Chunk> chunkPages(const QStringList &pages, int maxTokens = 300);

} // namespace Knowledge
