#include "workspace/documents/documentactions.h"

#include "workspace/documents/document.h"

#include "prefetch/engine.h"
#include "prefetch/strategies/hoverstrategy.h"
#include "prefetch/strategies/warmupstrategy.h"
#include "prefetch/stream/answerreader.h"

namespace Gui {

DocumentActions::DocumentActions(Prefetch::Engine *engine, Prefetch::HoverStrategy *hover,
                                 Prefetch::WarmupStrategy *warmup, QObject *parent)
    : QObject(parent)
    , m_engine(engine)
    , m_hover(hover)
    , m_warmup(warmup)
{
}

DocumentActions::~DocumentActions()
{
    for (const QMetaObject::Connection &wait : std::as_const(m_waits))
        disconnect(wait);
}

bool DocumentActions::isUsable(Prefetch::DocumentAction action, const Document *document, bool hasSelection)
{
    return document && !document->isBlank() && (!Prefetch::actionNeedsSelection(action) || hasSelection);
}

Prefetch::RenderedRequest DocumentActions::request(Prefetch::DocumentAction action, Document *document,
                                                   const QString &selection) const
{
    // Only a compiled prompt gives a request its fingerprint; encoding the whole document here
    // instead would also block the GUI thread on a large one.
    if (document && m_engine) {
        if (const Prefetch::CompiledPrompt *prompt = document->compiledPrompt(m_engine->profile())) {
            if (auto rendered = Prefetch::renderAction(*prompt, action, selection, m_translateTarget))
                return *rendered;
        }
    }
    return {};
}

void DocumentActions::run(Prefetch::DocumentAction action, Document *document, const QString &selection,
                          qint64 activatedNs, bool fresh)
{
    if (!m_engine || !document)
        return;
    if (m_current)
        m_current->cancel();
    m_pending.reset();
    const PendingRun run{action, activatedNs, document, selection, fresh};
    const Llm::ProviderProfile &profile = m_engine->profile();
    if (document->compiledPrompt(profile)) {
        dispatch(run);
    } else if (const auto error = document->promptError(profile)) {
        emit failed(document, *error);
    } else {
        // Compiling in the thread pool: the answer starts once it is done, and its wait still
        // counts from the click.
        m_pending = run;
        waitForPrompt(document);
        emit preparing(document);
    }
}

void DocumentActions::dispatch(const PendingRun &run)
{
    QPointer<Document> document = run.document;
    const Prefetch::DocumentAction action = run.action;
    const QString selection = run.selection;
    if (run.fresh) {
        m_current = m_engine->requestFresh(Prefetch::Strategy::None, request(action, document, selection),
                                           run.activatedNs, this);
    } else if (m_hover) {
        m_current = m_hover->activate(
            action, [this, action, document, selection] { return request(action, document, selection); },
            run.activatedNs, this);
    }
    if (!m_current)
        return;
    connect(m_current, &Prefetch::AnswerReader::finished, m_current, &QObject::deleteLater);
    connect(m_current, &Prefetch::AnswerReader::failed, m_current, &QObject::deleteLater);
    m_currentDocument = document;
    emit started(document, m_current);
}

Document *DocumentActions::cancelPending()
{
    const auto pending = std::exchange(m_pending, std::nullopt);
    return pending ? pending->document.data() : nullptr;
}

void DocumentActions::pointerEntered(Prefetch::DocumentAction action, Document *document, const QString &selection)
{
    m_hovered = action;
    m_hoverTarget = {document, selection};
    if (!m_hover || !isUsable(action, document, !selection.isEmpty()))
        return;
    QPointer<Document> doc(document);
    m_hover->pointerEntered(action, [this, action, doc, selection] { return request(action, doc, selection); });
    // No prompt yet, so nothing was prefetched: the pointer's rest counts once there is one.
    if (m_engine && !document->compiledPrompt(m_engine->profile()))
        waitForPrompt(document);
}

void DocumentActions::pointerLeft(Prefetch::DocumentAction action)
{
    m_hovered.reset();
    m_hoverTarget = {};
    if (m_hover)
        m_hover->pointerLeft(action);
}

void DocumentActions::pressed(Prefetch::DocumentAction action, Document *document, const QString &selection)
{
    if (!m_hover || !isUsable(action, document, !selection.isEmpty()))
        return;
    QPointer<Document> doc(document);
    m_hover->pressed(action, [this, action, doc, selection] { return request(action, doc, selection); });
}

void DocumentActions::warmUp(Document *document)
{
    if (!m_engine || !m_warmup || !document || document->isBlank())
        return;
    if (const Prefetch::CompiledPrompt *prompt = document->compiledPrompt(m_engine->profile())) {
        m_warmup->documentOpened(document->documentId(), *prompt);
    } else {
        m_warmUpWhenReady = document;
        waitForPrompt(document);
    }
}

void DocumentActions::documentClosing(Document *document)
{
    if (m_warmup)
        m_warmup->documentClosed(document->documentId());
    if (m_pending && m_pending->document == document)
        m_pending.reset();
    if (m_current && m_currentDocument == document)
        m_current->cancel(); // nobody would read the rest
    if (m_warmUpWhenReady == document)
        m_warmUpWhenReady = nullptr;
    disconnect(m_waits.take(document));
}

void DocumentActions::waitForPrompt(Document *document)
{
    if (m_waits.contains(document))
        return;
    m_waits.insert(document,
                   connect(document, &Document::promptReady, this, [this, document] { promptReady(document); }));
    connect(
        document, &QObject::destroyed, this, [this, document] { m_waits.remove(document); }, Qt::SingleShotConnection);
}

void DocumentActions::promptReady(Document *document)
{
    if (!m_engine)
        return;
    const Llm::ProviderProfile &profile = m_engine->profile();
    if (m_pending && m_pending->document == document) {
        if (document->compiledPrompt(profile)) {
            dispatch(*std::exchange(m_pending, std::nullopt));
        } else if (const auto error = document->promptError(profile)) {
            m_pending.reset();
            emit failed(document, *error);
        } // else edited meanwhile: the next compile brings it
    }
    if (!document->compiledPrompt(profile))
        return; // still waiting
    disconnect(m_waits.take(document));
    // A warm-up asked for while the prompt was compiling goes now. Edits do not re-warm: the
    // provider's cache still holds the prefix before them, and a warm-up per typing pause would
    // cost a document each time.
    if (m_warmUpWhenReady == document) {
        m_warmUpWhenReady = nullptr;
        warmUp(document);
    }
    // The pointer rested on an action while there was no prompt to prefetch with: now there is.
    if (m_hovered && m_hoverTarget.document == document && m_hover && !m_hover->isPrefetching(*m_hovered))
        pointerEntered(*m_hovered, document, m_hoverTarget.selection);
}

} // namespace Gui
