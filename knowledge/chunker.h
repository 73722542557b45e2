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
struct Chunk
{
    QString headingTrail; // "Intro > Setup"
    qsizetype start = 0;
    qsizetype end = 0;
};

// Splits text into passages of at most `maxTokens` (Prefetch::estimateTokens) by heading, then
// paragraph, then sentence; only a sentence longer than that is cut inside, by length. Pure and
// thread-safe: the indexer calls it on its worker thread.
QList<Chunk> chunkText(QStringView text, TextKind kind, int maxTokens = 300);

} // namespace Knowledge
