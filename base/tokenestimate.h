#pragma once

#include <QStringView>
#include <QtGlobal>

namespace Base {

// Rough prompt size for budgets, chunking and the warm-up threshold, without a tokenizer: one
// token per CJK character (Han, kana, Hangul, CJK punctuation and full-width forms), one per four
// other UTF-16 code units. BPE tokenizers give roughly that for English and Chinese prose; code
// and rare scripts come out low. Here, below the engine and the knowledge base, so both count
// the same way without one depending on the other.
qint64 estimateTokens(QStringView text);

} // namespace Base
