#include "actionprompts.h"

namespace Prefetch {

QString systemPrompt()
{
    // Not translated: the prompt is for the model, and a stable prompt keeps provider caches warm.
    return QStringLiteral(
        "You are Headstart, a careful writing assistant. You work on the document the user "
        "provides. Answer in the language of the document unless asked otherwise. Be concise "
        "and concrete; keep the author's voice; never invent facts that are not in the document.");
}

Llm::ChatRequest buildActionRequest(DocumentAction action, const QString &document,
                                    const QString &selection, const QString &model,
                                    const QString &targetLanguage)
{
    Llm::ChatRequest request;
    request.model = model;
    request.system = systemPrompt();
    request.messages.append({Llm::Role::User,
                             QStringLiteral("<document>\n") + document + QStringLiteral("\n</document>")});
    request.staticMessageCount = 1;

    QString instruction;
    switch (action) {
    case DocumentAction::Summarize:
        instruction = QStringLiteral("Summarize the document in a short paragraph.");
        break;
    case DocumentAction::ContinueWriting:
        instruction = QStringLiteral("Continue writing the document from where it ends, in the same style.");
        break;
    case DocumentAction::RewriteSelection:
        instruction = QStringLiteral("Rewrite this passage of the document to read more clearly:\n") + selection;
        break;
    case DocumentAction::Translate:
        instruction = QStringLiteral("Translate this passage into %1:\n")
                          .arg(targetLanguage.isEmpty() ? QStringLiteral("English") : targetLanguage)
            + (selection.isEmpty() ? document : selection);
        break;
    case DocumentAction::ExplainSelection:
        instruction = QStringLiteral("Explain this passage of the document:\n") + selection;
        break;
    }
    request.messages.append({Llm::Role::User, instruction});
    return request;
}

} // namespace Prefetch
