#pragma once

#include <QString>
#include <QStringList>

namespace Bench {

// A deterministic document of about `tokens` tokens (the same estimate the engine uses: ~4
// characters per English token, one per Chinese character), built from `seed`: paragraphs of
// sentences drawn from a fixed vocabulary. Traces name documents by size and seed instead of
// carrying their text.
QString makeDocument(int tokens, quint64 seed, const QString &language);
QStringList paragraphs(const QString &document);

} // namespace Bench
