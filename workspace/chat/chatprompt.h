#pragma once

#include "workspace/conversations/attachments.h"
#include "workspace/conversations/conversationstore.h"
#include "workspace/settings/assistants.h"

#include "llm/error.h"
#include "llm/providerprofile.h"
#include "prefetch/prompts/prompttemplate.h"
#include "prefetch/strategies/debouncestrategy.h"

#include <QObject>

#include <memory>
#include <optional>

namespace Knowledge {
class LibraryRetrieval;
}

namespace Gui {

class AssistantDocumentPrompt;
class Document;

// What goes into each request of one conversation: the compiled prompt (Prefetch::chatTemplate()
// for the provider; in document mode the document's own compiled prefix, shared with its actions
// and warm-up, or one of its own where the assistant adds instructions), the same for the fast
// model where free chat may be routed to it, the assistant's parameters, and the history that
// goes with a message. ChatSession keeps it up to date and hands its builders to the debounce
// strategy; everything a builder captures is a value, so it may run after the session is gone.
//
// GUI thread; a large document's prompt compiles in the thread pool (ready() follows).
class ChatPrompt : public QObject
{
    Q_OBJECT

public:
    // What the prompt is made from.
    struct Inputs {
        ConversationMode mode = ConversationMode::FreeChat;
        Document *document = nullptr; // null unless the mode is Document and it has text
        Llm::ProviderProfile profile;
        Assistant assistant;
        bool routing = false;  // Settings::routing.enabled
        int openingTokens = 0; // Settings::routing.openingTokens where fastOpening is on; 0: off
    };
    // What free chat may ask of the fast model (a null prompt: nothing; so in documents, the
    // library, with a profile without a distinct fast model, or with routing and the opening both
    // off): `prompt` is the conversation compiled for it; `routing` sends small talk and simple
    // questions to it whole; `openingTokens` (0: none) has it write the beginning of the others
    // (Prefetch::RenderedRequest::opening).
    struct FastUse {
        Prefetch::CompiledPrompt prompt;
        bool routing = false;
        int openingTokens = 0;
    };
    enum class Update {
        Unchanged, // made from the same inputs
        Changed,   // compiled anew (or failed: compileError()); builders made before are stale
        Compiling, // the document compiles in the thread pool: no prompt until ready()
    };

    explicit ChatPrompt(QObject *parent = nullptr);
    ~ChatPrompt() override;

    // Cheap when nothing changed: a revision and a target compared, no text read.
    Update update(const Inputs &inputs);
    // Made from nothing yet: the next update() compiles.
    void invalidate() { m_key.reset(); }
    // Why the prompt could not be compiled (no model configured, …); the builder then falls back
    // to an unencoded request and sending it reports the problem.
    const std::optional<Llm::Error> &compileError() const { return m_compileError; }
    // Estimated tokens of the document in the prompt; -1 when none (free chat, compiling).
    qint64 documentTokens() const { return m_documentTokens; }
    const Prefetch::GenerationParams &params() const { return m_params; }

    // The question and answer pairs of `messages`[0, end) that go with the next message: a
    // question without an answer's text is left out, and past the bounds (turns, tokens) the
    // oldest turns leave a block at a time so the history's first bytes stay cacheable.
    static QList<Llm::ChatMessage> history(const QList<StoredMessage> &messages, qsizetype end);

    // The request for `text` after `turns`, with `attachments` before it and, with `retrieval`
    // (library mode), the passages for the text in the message; routed to the fast model where
    // free chat may be, unless `mainModel`.
    Prefetch::RenderedRequest render(const QList<Llm::ChatMessage> &turns, const QString &text,
                                     const QList<Attachment> &attachments,
                                     const std::shared_ptr<Knowledge::LibraryRetrieval> &retrieval,
                                     const Prefetch::GenerationParams &params, bool mainModel = false) const;
    // The model render() asks for `text`.
    QString modelFor(const QString &text, const QList<Attachment> &attachments,
                     const std::shared_ptr<Knowledge::LibraryRetrieval> &retrieval) const;

    // The debounce strategy's builder for the next message after `turns` and its warmer (the
    // message up to the question: the attachments, then the passages). A stored conversation's
    // requests carry its cache key, a document's the document's.
    struct Builders {
        Prefetch::DebounceStrategy::Builder builder;
        Prefetch::DebounceStrategy::Warmer warmer;
    };
    Builders builders(const QList<Llm::ChatMessage> &turns,
                      const std::shared_ptr<Knowledge::LibraryRetrieval> &retrieval,
                      const QList<Attachment> &attachments, qint64 conversationId) const;

signals:
    // A document prompt that was compiling is ready: update() again.
    void ready();

private:
    struct Key {
        ConversationMode mode = ConversationMode::FreeChat;
        const Document *document = nullptr;
        quint64 revision = 0;
        Llm::ProviderTarget target;
        Assistant assistant;
        bool routing = false;  // free chat may go to the fast model
        int openingTokens = 0; // the fast model may write the beginning of the main model's answers
        QString fastModel;
        friend bool operator==(const Key &, const Key &) = default;
    };

    // What free chat may ask of the fast model now (chatRequest() in chatprompt.cpp).
    FastUse fastUse() const;

    std::optional<Key> m_key;
    QString m_model; // the profile's main model
    Prefetch::CompiledPrompt m_compiled;
    // The conversation compiled for the fast model; null where free chat asks nothing of it.
    Prefetch::CompiledPrompt m_compiledFast;
    Prefetch::GenerationParams m_params;        // the assistant's, for every request of the conversation
    AssistantDocumentPrompt *m_assistantPrompt; // child: a document chat with instructions
    std::optional<Llm::Error> m_compileError;
    qint64 m_documentTokens = -1;
};

} // namespace Gui
