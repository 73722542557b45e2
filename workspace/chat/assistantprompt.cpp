#include "workspace/chat/assistantprompt.h"

#include "workspace/documents/document.h"

#include "prefetch/prompts/actionprompts.h"

#include <QtConcurrent/QtConcurrentRun>

namespace Gui {

AssistantDocumentPrompt::AssistantDocumentPrompt(QObject *parent)
    : QObject(parent)
{
    connect(&m_watcher, &QFutureWatcher<Result>::finished, this, [this] {
        Result result = m_watcher.result();
        const bool current = m_running && result.key == *m_running;
        m_running.reset();
        if (!current)
            return; // asked for another one since: prompt() started that
        m_done = std::move(result);
        emit ready();
    });
}

AssistantDocumentPrompt::~AssistantDocumentPrompt()
{
    // The worker holds copies only: it may finish after this, its result unseen.
    m_watcher.disconnect(this);
}

const Prefetch::CompiledPrompt *AssistantDocumentPrompt::prompt(Document *document, const Llm::ProviderProfile &profile,
                                                                const QString &instructions)
{
    const Key key{document, document->revision(), profile.target(), instructions};
    if (m_done && m_done->key == key)
        return m_done->error ? nullptr : &m_done->prompt;
    if (m_running && *m_running == key)
        return nullptr;
    const QString text = document->text();
    // The document's cache key: a chat about it lands where its other requests do.
    const QString cacheKey = Prefetch::cacheKeyFor(QStringLiteral("document:") + document->documentId());
    auto compile = [key, profile, text, cacheKey] {
        Result out{key, {}, std::nullopt};
        auto compiled = Prefetch::chatTemplate(true, key.instructions).compile(profile, Prefetch::documentValues(text));
        if (compiled)
            out.prompt = compiled->withCacheKey(cacheKey);
        else
            out.error = compiled.error();
        return out;
    };
    if (text.size() < Document::LargeDocumentChars) {
        m_running.reset(); // a result still on its way is for another key
        m_done = compile();
        return m_done->error ? nullptr : &m_done->prompt;
    }
    m_done.reset();
    m_running = key;
    m_watcher.setFuture(QtConcurrent::run(compile));
    return nullptr;
}

} // namespace Gui
