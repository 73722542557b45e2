#pragma once

#include <QList>
#include <QString>
#include <QStringList>

namespace LocalProvider {

struct PromptPart;
struct Turn;

// What the user gave a request, separated from our instructions: the document, the selection,
// the chat messages, the wizard's form fields. The answer is made of these words only, never of
// the system prompt or of an action's instruction. The request's kind is read from the
// instruction texts the app sends (prefetch/prompts/actionprompts.cpp; prompts are English whatever the
// UI language); a request that matches none of them is a chat. Pure; any thread.
struct Material {
    enum class Kind {
        Chat,
        Summarize,
        ContinueWriting,
        RewriteSelection,
        ExplainSelection,
        Translate,
        WizardOutline,
        WizardIntroduction,
        WizardTitles,
        LibraryChat, // a chat message with numbered passages of the user's files before it
        // The completeness classifier's question (prefetch/strategies/modelclassifier.cpp): is this chat
        // draft finished? Known by its system prompt, which from() does not see (judgesDrafts()).
        DraftJudgement,
        // The instant acknowledgement's question (prefetch/acknowledgement.cpp): one line on what
        // the main model is about to think through. Known by its system prompt (acknowledges()).
        Acknowledgement,
    };

    Kind kind = Kind::Chat;
    QString document;       // inside the <document> tags, if the request has them
    QString selection;      // the passage an action works on
    QString targetLanguage; // Translate's target, as the instruction names it ("Simplified Chinese")
    QStringList messages;   // the user's chat messages, oldest first
    // The wizard's form: empty where the user left a field empty.
    QString topic;
    QString audience;
    QString tone;
    QString outline;
    QString introduction;
    // LibraryChat: the passages' texts in their numbering ([1] first) and the question.
    QStringList passages;
    QString question;

    static Material from(const QList<Turn> &turns);
    // The system prompt of `parts` is the completeness classifier's.
    static bool judgesDrafts(const QList<PromptPart> &parts);
    // The system prompt of `parts` is the instant acknowledgement's.
    static bool acknowledges(const QList<PromptPart> &parts);

    // Every word the answer may use, for the kinds made by a word chain.
    QString text() const;
};

} // namespace LocalProvider
