#pragma once

#include "prompttemplate.h"

#include "llm/llmtypes.h"

#include <QString>
#include <QVariantMap>

#include <expected>
#include <optional>

namespace Prefetch {

// The AI actions a user can run on a document.
enum class DocumentAction { Summarize, ContinueWriting, RewriteSelection, Translate, ExplainSelection };
inline constexpr DocumentAction AllDocumentActions[] = {DocumentAction::Summarize, DocumentAction::ContinueWriting,
                                                        DocumentAction::RewriteSelection, DocumentAction::Translate,
                                                        DocumentAction::ExplainSelection};
// Stable lower-case names for traces, object names and logs: "summarize", "continue",
// "rewrite", "translate", "explain".
const char *documentActionId(DocumentAction action);
std::optional<DocumentAction> documentActionFromId(QStringView id);
// Rewrite and Explain work on the selection; the others on the document (Translate on the
// selection when there is one).
bool actionNeedsSelection(DocumentAction action);

QString systemPrompt();

// The one template every document action shares: the system prompt and the document are the
// static prefix (identical for every action on the same document, so one warm-up serves them
// all); the action's instruction is the dynamic tail. Static value "document"; dynamic value
// "instruction" (from actionValues()).
const PromptTemplate &documentTemplate();
TemplateValues documentValues(const QString &document);

// The instruction of an action, over {selection} and {language}. Translate without a
// selection translates the whole document, which is already in the prefix.
const TemplateText &actionInstruction(DocumentAction action, bool hasSelection);
// Translate's target when the user chose none (an empty target language): the other language
// of the pair English and Chinese, by the text to translate: "English" for text mostly in Han,
// "Simplified Chinese" for any other. Reads the first few thousand characters only.
QString automaticTranslateTarget(QStringView text);
// documentTemplate()'s dynamic values for an action. An empty language means
// automaticTranslateTarget() of the selection, or without one of `document`.
TemplateValues actionValues(DocumentAction action, const QString &selection, const QString &targetLanguage = {},
                            QStringView document = {});

// An action on a document compiled from documentTemplate(): the prefix is not encoded again.
// An empty target language is automatic, as in actionValues().
std::expected<RenderedRequest, Llm::Error> renderAction(const CompiledPrompt &document, DocumentAction action,
                                                        const QString &selection, const QString &targetLanguage = {},
                                                        const GenerationParams &params = {});

// The same request, unencoded (ProviderRequest encodes it).
Llm::ChatRequest buildActionRequest(DocumentAction action, const QString &document, const QString &selection,
                                    const QString &model, const QString &targetLanguage = {});

// Chat: the system prompt and, when there is one, the document (static), then the conversation
// so far (the `history` of render()) and the user's new text (dynamic value "message").
// Static value "document" when `withDocument`.
const PromptTemplate &chatTemplate(bool withDocument);
// The chat "about my library": a static system prompt (cached), the history, then the message
// with the passages retrieved for it, numbered, which the answer cites as [1], [2].
const PromptTemplate &libraryChatTemplate();
// The chat's request for the user's `text`: `chat` (chatTemplate() compiled) rendered after
// `history`. When it is null (it could not be compiled for the provider: no model, ...), an
// unencoded request without a fingerprint, which is never prefetched and, sent, fails on the
// provider path the way any request to that provider would. `params` follow the messages (a
// regenerate's new seed); the default is what every chat message sends.
// The same templates with an assistant's `instructions` (ui/assistants.h) joined to the system
// prompt: a second System segment after the first, so they are part of the static prefix and a
// warm-up, a prefetch and the real request of that conversation share them byte for byte. The
// instructions are literal text (braces in them are no placeholders). Empty instructions give
// exactly the template above, the same bytes. With instructions, a chat about a document has a
// prefix of its own: the instructions come before the document, so it cannot be the document
// actions' prefix (withDynamicPartOf() refuses it), and the document is encoded and cached once
// more for that chat.
PromptTemplate chatTemplate(bool withDocument, const QString &instructions);
PromptTemplate libraryChatTemplate(const QString &instructions);
RenderedRequest renderChatMessage(const CompiledPrompt &chat, const QList<Llm::ChatMessage> &history,
                                  const QString &model, const QString &text, const GenerationParams &params = {});
// The one-token warm-up of a chat message's start (`messageStart`, a byte prefix of the message
// a later request sends: a library question's passages) after `history`: what
// DebounceStrategy::Warmer builds. Without a fingerprint when there is nothing to warm (an empty
// start, a prompt that could not be compiled).
RenderedRequest renderChatWarmup(const CompiledPrompt &chat, const QList<Llm::ChatMessage> &history,
                                 const QString &messageStart);

// One wizard step: the wizard's system prompt (static value "system") and the step's prompt
// with the form data filled in (dynamic value "prompt"). Steps of one wizard share the prefix.
const PromptTemplate &workflowStepTemplate();

// The new-document wizard (ui/newdocumentwizard.cpp; the replay benchmark sends the same
// requests). Steps 1 (topic form) to 4; steps 2..4 generate.
enum WizardStep { WizardTopicStep = 1, WizardOutlineStep = 2, WizardIntroductionStep = 3, WizardTitleStep = 4 };
namespace WizardKeys {
// The form data's keys: each step's prompt is built from these alone.
inline const QString TopicKey = QStringLiteral("topic");
inline const QString AudienceKey = QStringLiteral("audience");
inline const QString ToneKey = QStringLiteral("tone");
inline const QString LengthKey = QStringLiteral("length"); // "short", "medium", "long"
inline const QString OutlineKey = QStringLiteral("outline");
inline const QString IntroductionKey = QStringLiteral("introduction");
} // namespace WizardKeys
// workflowStepTemplate() with the wizard's system prompt: every step shares that prefix.
std::expected<CompiledPrompt, Llm::Error> compileWizard(const Llm::ProviderProfile &profile);
// The prompt of step `step` (2..4) built from `data` alone; empty for other steps.
QString wizardStepPrompt(int step, const QVariantMap &data);
int wizardMaxTokens(int step);
// The topic form looks finished, so a pause on it predicts step 2: the topic and the audience
// are filled in. A field still empty is usually one the user has not reached yet, and a
// prefetch made before it would be thrown away when they do (the audience is optional for Next).
bool wizardFormFilledIn(const QVariantMap &data);

} // namespace Prefetch
