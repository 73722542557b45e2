#pragma once

#include "llm/error.h"
#include "prefetch/prompts/actionprompts.h"
#include "prefetch/prompts/prompttemplate.h"
#include "prefetch/stream/answerreader.h"

#include <QHash>
#include <QMetaObject>
#include <QObject>
#include <QPointer>

#include <optional>

namespace Prefetch {
class Engine;
class HoverStrategy;
class WarmupStrategy;
} // namespace Prefetch

namespace Gui {

class Document;

// The document actions (Summarize, Rewrite, …) of one window, without its widgets: the request
// for an action on a document, running one (the hover prefetch taken over, or asked anew for
// Regenerate), the pointer's signals for the hover strategy, and the warm-up of the document in
// front. The window gives it the document and selection the user sees; the replay benchmark
// drives the same class, so its requests are the app's.
//
// A large document's prompt compiles in the thread pool (Document::compiledPrompt). This is the
// one place that waits for it: a run asked for meanwhile keeps its activation time and goes
// when the prompt is ready (preparing(), then started()); a warm-up and a pointer resting on a
// button go then too. Until then request() is empty, which the engine never prefetches.
//
// GUI thread. The engine and strategies belong to the app and outlive it.
class DocumentActions : public QObject
{
    Q_OBJECT

public:
    DocumentActions(Prefetch::Engine *engine, Prefetch::HoverStrategy *hover, Prefetch::WarmupStrategy *warmup,
                    QObject *parent = nullptr);
    ~DocumentActions() override;

    // The language Translate translates into; empty: the strategy's default.
    void setTranslateTarget(const QString &language) { m_translateTarget = language; }
    QString translateTarget() const { return m_translateTarget; }

    // Whether `action` can run on `document` with `selection`: there is text, and a selection
    // where the action works on one.
    static bool isUsable(Prefetch::DocumentAction action, const Document *document, bool hasSelection);
    // The request for `action` on `document` with `selection`; empty while the document's
    // prompt is not compiled for the engine's provider (or cannot be).
    Prefetch::RenderedRequest request(Prefetch::DocumentAction action, Document *document,
                                      const QString &selection) const;

    // Runs `action` (clicked at `activatedNs`): the answer is taken over from a prefetch where
    // one was guessed, or, `fresh` (Regenerate), asked anew past any prefetch or cached answer.
    // Whatever this object ran before and has not ended is cancelled first. Emits started(),
    // or preparing() and later started() or failed().
    void run(Prefetch::DocumentAction action, Document *document, const QString &selection, qint64 activatedNs,
             bool fresh = false);
    // The answer of the last run, until it ends; null while preparing.
    Prefetch::AnswerReader *current() const { return m_current; }
    Document *currentDocument() const { return m_currentDocument; }
    // A run waits for its document's prompt.
    bool isPreparing() const { return m_pending.has_value(); }
    Document *preparingDocument() const { return m_pending ? m_pending->document.data() : nullptr; }
    // Drops the run waiting for its prompt (Stop); its document, or null when none waited.
    Document *cancelPending();

    // The pointer entered, left or pressed `action`'s button over `document` (the hover
    // strategy's signals). An unusable action only leaves.
    void pointerEntered(Prefetch::DocumentAction action, Document *document, const QString &selection);
    void pointerLeft(Prefetch::DocumentAction action);
    void pressed(Prefetch::DocumentAction action, Document *document, const QString &selection);
    std::optional<Prefetch::DocumentAction> hoveredAction() const { return m_hovered; }

    // `document` is in front (opened, switched to, or the provider changed): its prefix is
    // warmed in the provider's cache, now or once its prompt is compiled.
    void warmUp(Document *document);
    // `document` goes: its warm-up ends, and a run waiting for it or answering about it stops.
    void documentClosing(Document *document);

signals:
    // The answer to a run began; `answer` is deleted when it ends.
    void started(Gui::Document *document, Prefetch::AnswerReader *answer);
    // A run waits for `document`'s prompt.
    void preparing(Gui::Document *document);
    // A run could not start: the prompt cannot be made (too long for the model, …).
    void failed(Gui::Document *document, const Llm::Error &error);

private:
    struct PendingRun {
        Prefetch::DocumentAction action;
        qint64 activatedNs = 0;
        QPointer<Document> document;
        QString selection;
        bool fresh = false;
    };
    struct Hover {
        QPointer<Document> document;
        QString selection;
    };
    void dispatch(const PendingRun &run);
    // Calls promptReady() once `document`'s prompt is compiled (one connection per document).
    void waitForPrompt(Document *document);
    void promptReady(Document *document);

    QPointer<Prefetch::Engine> m_engine;
    QPointer<Prefetch::HoverStrategy> m_hover;
    QPointer<Prefetch::WarmupStrategy> m_warmup;
    QString m_translateTarget;
    QPointer<Prefetch::AnswerReader> m_current;
    QPointer<Document> m_currentDocument;
    std::optional<PendingRun> m_pending;
    QPointer<Document> m_warmUpWhenReady;
    std::optional<Prefetch::DocumentAction> m_hovered;
    Hover m_hoverTarget; // what m_hovered would run on, for a prompt that was not ready
    QHash<const Document *, QMetaObject::Connection> m_waits;
};

} // namespace Gui
