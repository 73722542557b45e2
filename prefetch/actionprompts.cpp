#include "actionprompts.h"

namespace Prefetch {

// Not translated: prompts are for the model, and a stable prompt keeps provider caches warm.

QString systemPrompt()
{
    return QStringLiteral(
        "You are Headstart, a careful writing assistant. You work on the document the user "
        "provides. Answer in the language of the document unless asked otherwise. Be concise "
        "and concrete; keep the author's voice; never invent facts that are not in the document.");
}

const PromptTemplate &documentTemplate()
{
    static const PromptTemplate t = PromptTemplate()
                                        .addSystem(systemPrompt())
                                        .addStaticMessage(Llm::Role::User, QStringLiteral("<document>\n{document}\n</document>"))
                                        .addDynamicMessage(Llm::Role::User, QStringLiteral("{instruction}"));
    return t;
}

TemplateValues documentValues(const QString &document)
{
    return {{QStringLiteral("document"), document}};
}

const TemplateText &actionInstruction(DocumentAction action, bool hasSelection)
{
    static const TemplateText summarize(QStringLiteral("Summarize the document in a short paragraph."));
    static const TemplateText continueWriting(
        QStringLiteral("Continue writing the document from where it ends, in the same style."));
    static const TemplateText rewrite(
        QStringLiteral("Rewrite this passage of the document to read more clearly:\n{selection}"));
    static const TemplateText translatePassage(QStringLiteral("Translate this passage into {language}:\n{selection}"));
    static const TemplateText translateDocument(QStringLiteral("Translate the document into {language}."));
    static const TemplateText explain(QStringLiteral("Explain this passage of the document:\n{selection}"));
    switch (action) {
    case DocumentAction::Summarize: return summarize;
    case DocumentAction::ContinueWriting: return continueWriting;
    case DocumentAction::RewriteSelection: return rewrite;
    case DocumentAction::Translate: return hasSelection ? translatePassage : translateDocument;
    case DocumentAction::ExplainSelection: return explain;
    }
    return summarize;
}

TemplateValues actionValues(DocumentAction action, const QString &selection, const QString &targetLanguage)
{
    const TemplateValues values{
        {QStringLiteral("selection"), selection},
        {QStringLiteral("language"), targetLanguage.isEmpty() ? QStringLiteral("English") : targetLanguage}};
    const auto instruction = actionInstruction(action, !selection.isEmpty()).fill(values);
    Q_ASSERT(instruction); // every placeholder of an instruction is in `values`
    return {{QStringLiteral("instruction"), instruction.value_or(QString())}};
}

std::expected<RenderedRequest, Llm::Error> renderAction(const CompiledPrompt &document, DocumentAction action,
                                                        const QString &selection, const QString &targetLanguage,
                                                        const GenerationParams &params)
{
    return document.render(actionValues(action, selection, targetLanguage), params);
}

Llm::ChatRequest buildActionRequest(DocumentAction action, const QString &document,
                                    const QString &selection, const QString &model,
                                    const QString &targetLanguage)
{
    auto request = documentTemplate().request(model, documentValues(document),
                                              actionValues(action, selection, targetLanguage));
    Q_ASSERT(request); // the values above cover every placeholder of the template
    return request.value_or(Llm::ChatRequest());
}

const PromptTemplate &chatTemplate(bool withDocument)
{
    static const PromptTemplate plain =
        PromptTemplate()
            .addSystem(QStringLiteral("You are Headstart, a helpful assistant. Be concise and concrete, "
                                      "and say so when you are not sure."))
            .addHistory()
            .addDynamicMessage(Llm::Role::User, QStringLiteral("{message}"));
    static const PromptTemplate document =
        PromptTemplate()
            .addSystem(systemPrompt())
            .addStaticMessage(Llm::Role::User, QStringLiteral("<document>\n{document}\n</document>"))
            .addHistory()
            .addDynamicMessage(Llm::Role::User, QStringLiteral("{message}"));
    return withDocument ? document : plain;
}

const PromptTemplate &workflowStepTemplate()
{
    static const PromptTemplate t = PromptTemplate()
                                        .addSystem(QStringLiteral("{system}"))
                                        .addDynamicMessage(Llm::Role::User, QStringLiteral("{prompt}"));
    return t;
}

} // namespace Prefetch
