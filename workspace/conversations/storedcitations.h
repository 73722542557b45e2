#pragma once

#include "knowledge/types.h"

#include <QJsonArray>
#include <QList>
#include <QString>

namespace Gui {

// The passages an answer's citations [n] point to, as the conversation store keeps them with the
// answer: a JSON array of {path, heading, start, end, page}. Not the passage's text: the citation
// opens the file, and the file is the truth. Reading is lenient: a value that is not such an
// array gives no citations (the answer then shows [n] as plain text), never an error.
QString citationsToJson(const QList<Knowledge::Passage> &passages);
QList<Knowledge::Passage> citationsFromJson(const QString &json);
// The same array as a value, for the conversation export (docs/conversation-format.md). An entry
// without a path or with offsets that are not a range makes the whole array read as none.
QJsonArray citationsToJsonArray(const QList<Knowledge::Passage> &passages);
QList<Knowledge::Passage> citationsFromJsonArray(const QJsonArray &array);

// Citation n as a line of plain text, for a Markdown export: "[n] path (heading)" or, for a
// PDF, "[n] path, page p".
QString citationLine(int n, const Knowledge::Passage &passage);

// A citation link's tooltip: where the passage is and what a click does; for a PDF, which page
// (the PDF opens in the desktop's viewer, which cannot be told where the passage is).
QString citationToolTip(const Knowledge::Passage &passage);

} // namespace Gui
