#pragma once

#include "llm/error.h"
#include "llm/providerprofile.h"
#include "prefetch/prompts/prompttemplate.h"

#include <QFutureWatcher>
#include <QObject>
#include <QPointer>
#include <QString>

#include <optional>

namespace Gui {

class Document;

// The prompt of a chat about a document whose assistant adds instructions:
// Prefetch::chatTemplate(true, instructions) compiled with the document's text. The document's
// own compiled prompt (shared by its actions and its warm-up) cannot serve it, since the
// instructions come before the document in the prefix; so this compiles the document once more,
// once per revision, provider target and instructions, in the thread pool for a large document
// like Document does. GUI thread; the worker gets copies only.
class AssistantDocumentPrompt : public QObject
{
    Q_OBJECT

public:
    explicit AssistantDocumentPrompt(QObject *parent = nullptr);
    ~AssistantDocumentPrompt() override;

    // The prompt for the document's current revision, or nullptr while it compiles (`ready`
    // follows) or when it cannot be compiled (error() says why).
    const Prefetch::CompiledPrompt *prompt(Document *document, const Llm::ProviderProfile &profile,
                                           const QString &instructions);
    std::optional<Llm::Error> error() const { return m_done ? m_done->error : std::nullopt; }

signals:
    void ready();

private:
    struct Key {
        const Document *document = nullptr;
        quint64 revision = 0;
        Llm::ProviderTarget target;
        QString instructions;
        friend bool operator==(const Key &, const Key &) = default;
    };
    struct Result {
        Key key;
        Prefetch::CompiledPrompt prompt;
        std::optional<Llm::Error> error;
    };

    std::optional<Result> m_done;
    std::optional<Key> m_running;
    QFutureWatcher<Result> m_watcher;
};

} // namespace Gui
