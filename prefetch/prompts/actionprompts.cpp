#include "actionprompts.h"

namespace Prefetch {

// Not translated: prompts are for the model, and a stable prompt keeps provider caches warm.

const char *documentActionId(DocumentAction action)
{
    switch (action) {
    case DocumentAction::Summarize: return "summarize";
    case DocumentAction::ContinueWriting: return "continue";
    case DocumentAction::RewriteSelection: return "rewrite";
    case DocumentAction::Translate: return "translate";
    case DocumentAction::ExplainSelection: return "explain";
    }
    return "summarize";
}

std::optional<DocumentAction> documentActionFromId(QStringView id)
{
    for (DocumentAction action : AllDocumentActions) {
        if (id == QLatin1String(documentActionId(action)))
            return action;
    }
    return std::nullopt;
}

bool actionNeedsSelection(DocumentAction action)
{
    return action == DocumentAction::RewriteSelection || action == DocumentAction::ExplainSelection;
}

QString systemPrompt()
{
    return QStringLiteral("You are Headstart, a careful writing assistant. You work on the document the user "
                          "provides. Answer in the language of the document unless asked otherwise. Be concise "
                          "and concrete; keep the author's voice; never invent facts that are not in the document.");
}

const PromptTemplate &documentTemplate()
{
    static const PromptTemplate t = PromptTemplate()
                                        .addSystem(systemPrompt())
                                        .addStaticMessage(Llm::Role::User,
                                                          QStringLiteral("<document>\n{document}\n</document>"))
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

QString automaticTranslateTarget(QStringView text)
{
    // Enough to tell the script of a document; a prefetch renders on the GUI thread.
    constexpr qsizetype Probe = 4000;
    text = text.first(qMin(text.size(), Probe));
    qsizetype han = 0;
    qsizetype letters = 0;
    for (const QChar c : text) {
        if (c.unicode() >= 0x3400 && c.unicode() <= 0x9FFF)
            ++han;
        else if (c.isLetter())
            ++letters;
    }
    // One Han character carries about as much as a four-letter word.
    return han > 0 && han * 4 >= letters ? QStringLiteral("English") : QStringLiteral("Simplified Chinese");
}

TemplateValues actionValues(DocumentAction action, const QString &selection, const QString &targetLanguage,
                            QStringView document)
{
    QString language = targetLanguage;
    if (language.isEmpty() && action == DocumentAction::Translate)
        language = automaticTranslateTarget(selection.isEmpty() ? document : QStringView(selection));
    const TemplateValues values{{QStringLiteral("selection"), selection}, {QStringLiteral("language"), language}};
    const auto instruction = actionInstruction(action, !selection.isEmpty()).fill(values);
    Q_ASSERT(instruction); // every placeholder of an instruction is in `values`
    return {{QStringLiteral("instruction"), instruction.value_or(QString())}};
}

std::expected<RenderedRequest, Llm::Error> renderAction(const CompiledPrompt &document, DocumentAction action,
                                                        const QString &selection, const QString &targetLanguage,
                                                        const GenerationParams &params)
{
    // The document is the static message of the prefix (its tags do not tip the balance).
    QStringView text;
    if (action == DocumentAction::Translate && targetLanguage.isEmpty() && selection.isEmpty()
        && !document.staticRequest().messages.isEmpty())
        text = document.staticRequest().messages.constFirst().content;
    return document.render(actionValues(action, selection, targetLanguage, text), params);
}

Llm::ChatRequest buildActionRequest(DocumentAction action, const QString &document, const QString &selection,
                                    const QString &model, const QString &targetLanguage)
{
    auto request = documentTemplate().request(model, documentValues(document),
                                              actionValues(action, selection, targetLanguage, document));
    Q_ASSERT(request); // the values above cover every placeholder of the template
    return request.value_or(Llm::ChatRequest());
}

const PromptTemplate &chatTemplate(bool withDocument)
{
    static const PromptTemplate plain = PromptTemplate()
                                            .addSystem(QStringLiteral(
                                                "You are Headstart, a helpful assistant. Be concise and concrete, "
                                                "and say so when you are not sure."))
                                            .addHistory()
                                            .addDynamicMessage(Llm::Role::User, QStringLiteral("{message}"));
    static const PromptTemplate document = PromptTemplate()
                                               .addSystem(systemPrompt())
                                               .addStaticMessage(Llm::Role::User,
                                                                 QStringLiteral("<document>\n{document}\n</document>"))
                                               .addHistory()
                                               .addDynamicMessage(Llm::Role::User, QStringLiteral("{message}"));
    return withDocument ? document : plain;
}

const PromptTemplate &libraryChatTemplate()
{
    static const PromptTemplate t =
        PromptTemplate()
            .addSystem(QStringLiteral("You are Headstart, a helpful assistant. Answer from the numbered passages of "
                                      "the user's own files that come with each message, and cite the passages you "
                                      "use as [1], [2]. When they do not hold the answer, say so. Be concise."))
            .addHistory()
            .addDynamicMessage(Llm::Role::User, QStringLiteral("{message}"));
    return t;
}

namespace {

// `base` with `instructions` as a System segment after its last one; the other segments as
// they were, in order.
PromptTemplate withInstructions(const PromptTemplate &base, const QString &instructions)
{
    if (instructions.isEmpty())
        return base;
    QString literal = instructions;
    literal.replace(u'{', QStringLiteral("{{")).replace(u'}', QStringLiteral("}}"));
    const QList<PromptSegment> &segments = base.segments();
    qsizetype lastSystem = -1;
    for (qsizetype i = 0; i < segments.size(); ++i) {
        if (segments.at(i).kind == PromptSegment::Kind::System)
            lastSystem = i;
    }
    PromptTemplate t;
    if (lastSystem < 0)
        t.addSystem(literal);
    for (qsizetype i = 0; i < segments.size(); ++i) {
        const PromptSegment &s = segments.at(i);
        switch (s.kind) {
        case PromptSegment::Kind::System: t.addSystem(s.text.source()); break;
        case PromptSegment::Kind::Tools: t.addTools(s.tools); break;
        case PromptSegment::Kind::History: t.addHistory(); break;
        case PromptSegment::Kind::Message:
            if (s.isStatic)
                t.addStaticMessage(s.role, s.text.source());
            else
                t.addDynamicMessage(s.role, s.text.source());
            break;
        }
        if (i == lastSystem)
            t.addSystem(literal);
    }
    return t;
}

} // namespace

PromptTemplate chatTemplate(bool withDocument, const QString &instructions)
{
    return withInstructions(chatTemplate(withDocument), instructions);
}

PromptTemplate libraryChatTemplate(const QString &instructions)
{
    return withInstructions(libraryChatTemplate(), instructions);
}

RenderedRequest renderChatMessage(const CompiledPrompt &chat, const QList<Llm::ChatMessage> &history,
                                  const QString &model, const QString &text, const GenerationParams &params)
{
    const TemplateValues values{{QStringLiteral("message"), text}};
    if (!chat.isNull()) {
        if (auto rendered = chat.render(values, params, history))
            return *rendered;
    }
    RenderedRequest unencoded;
    unencoded.request.model = model;
    unencoded.request.maxTokens = params.maxTokens;
    unencoded.request.temperature = params.temperature;
    unencoded.request.seed = params.seed;
    unencoded.request.choiceCount = params.choiceCount;
    unencoded.request.stream = params.stream;
    unencoded.request.messages = history;
    unencoded.request.messages.append({Llm::Role::User, text});
    return unencoded;
}

RenderedRequest renderChatWarmup(const CompiledPrompt &chat, const QList<Llm::ChatMessage> &history,
                                 const QString &messageStart)
{
    if (chat.isNull() || messageStart.isEmpty())
        return {};
    GenerationParams params;
    params.maxTokens = 1;
    auto rendered = chat.render({{QStringLiteral("message"), messageStart}}, params, history);
    return rendered ? *rendered : RenderedRequest{};
}

const PromptTemplate &workflowStepTemplate()
{
    static const PromptTemplate t = PromptTemplate()
                                        .addSystem(QStringLiteral("{system}"))
                                        .addDynamicMessage(Llm::Role::User, QStringLiteral("{prompt}"));
    return t;
}

namespace {

// The one static part of every step's request, so the steps share the provider's prompt cache.
// Prompts are English whatever the UI language; the model answers in the topic's language.
QString wizardSystemPrompt()
{
    return QStringLiteral(
        "You help the user write a new document step by step: first an outline, then the introduction, then title "
        "options. Each message gives the step, what the user chose so far and what to answer. Answer with the "
        "requested text only: no preamble, no closing remarks, no code fences. Write in the language of the topic.");
}

QString lengthDescription(const QString &key)
{
    if (key == QLatin1String("short"))
        return QStringLiteral("short, about 500 words");
    if (key == QLatin1String("long"))
        return QStringLiteral("long, about 3000 words");
    if (key == QLatin1String("medium"))
        return QStringLiteral("medium, about 1500 words");
    return key;
}

} // namespace

std::expected<CompiledPrompt, Llm::Error> compileWizard(const Llm::ProviderProfile &profile)
{
    return workflowStepTemplate().compile(profile, {{QStringLiteral("system"), wizardSystemPrompt()}});
}

bool wizardFormFilledIn(const QVariantMap &data)
{
    using namespace WizardKeys;
    return !data.value(TopicKey).toString().trimmed().isEmpty()
           && !data.value(AudienceKey).toString().trimmed().isEmpty();
}

int wizardMaxTokens(int step)
{
    return step == WizardTitleStep ? 120 : 400;
}

QString wizardStepPrompt(int step, const QVariantMap &data)
{
    using namespace WizardKeys;
    const auto value = [&data](const QString &key) { return data.value(key).toString(); };
    const QString audience = value(AudienceKey).isEmpty() ? QStringLiteral("general readers") : value(AudienceKey);
    const QString outline = value(OutlineKey).isEmpty() ? QStringLiteral("(none)") : value(OutlineKey);
    const QString introduction = value(IntroductionKey).isEmpty() ? QStringLiteral("(none)") : value(IntroductionKey);
    // Multi-argument arg(): a '%' the user typed is never taken for a placeholder.
    const QString brief =
        QStringLiteral("Topic: %1\nAudience: %2\nTone: %3\n").arg(value(TopicKey), audience, value(ToneKey));
    switch (step) {
    case WizardOutlineStep:
        return QStringLiteral("Step 2 of 4: the outline.\n%1Length: %2\n\nWrite the outline of this document: one "
                              "section per line, numbered \"1.\", \"2.\" and so on; points under a section go on "
                              "their own lines, indented and starting with \"- \".")
            .arg(brief, lengthDescription(value(LengthKey)));
    case WizardIntroductionStep:
        return QStringLiteral("Step 3 of 4: the introduction.\n%1Length: %2\n\nOutline:\n%3\n\nWrite the introduction "
                              "of this document: one or two paragraphs that tell the audience what it covers and why "
                              "it matters, leading into the outline.")
            .arg(brief, lengthDescription(value(LengthKey)), outline);
    case WizardTitleStep:
        return QStringLiteral("Step 4 of 4: title options.\n%1\nOutline:\n%2\n\nIntroduction:\n%3\n\nPropose five "
                              "titles for this document, one per line, without numbering or quotes.")
            .arg(brief, outline, introduction);
    default: return {};
    }
}

} // namespace Prefetch
