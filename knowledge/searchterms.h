#pragma once

#include "types.h"

#include <QString>
#include <QStringList>
#include <QStringView>

namespace Knowledge {

// The text FTS5 indexes for a passage under `mode`: the passage itself for Trigram; for Bigram
// every run of CJK characters is replaced by its overlapping character pairs ("知识库" →
// "知识 识库"), which unicode61 then sees as words. Deterministic: deleting a row from the
// contentless index needs the same text again.
QString indexedText(QStringView text, Tokenization mode);

// The terms of a question, as FTS5 will match them: lower-cased words without English stop
// words, and for CJK runs pairs (Bigram) or triples (Trigram; a run of fewer than three
// characters cannot be matched and is dropped). Duplicates removed, order kept.
QStringList queryTerms(QStringView question, Tokenization mode);

// An FTS5 MATCH expression that ORs the terms as quoted strings, so BM25 ranks passages by how
// many rare terms they share; empty when no term is left.
QString matchExpression(const QStringList &terms);

// The FTS5 tokenize= argument for `mode`.
QString tokenizerSpec(Tokenization mode);

} // namespace Knowledge
