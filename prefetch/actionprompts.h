#pragma once

#include "llm/llmtypes.h"

#include <QString>

namespace Prefetch {

// The AI actions a user can run on a document.
enum class DocumentAction { Summarize, ContinueWriting, RewriteSelection, Translate, ExplainSelection };

// Builds the request for an action. The system prompt and the document form the static prefix
// (identical for every action on the same document, so one warm-up serves them all); the
// instruction and the selection are the dynamic tail.
Llm::ChatRequest buildActionRequest(DocumentAction action, const QString &document,
                                    const QString &selection, const QString &model,
                                    const QString &targetLanguage = {});

QString systemPrompt();

} // namespace Prefetch
