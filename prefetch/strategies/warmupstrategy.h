#pragma once

#include "prefetch/prompts/prompttemplate.h"

#include <QHash>
#include <QObject>
#include <QPointer>
#include <QTimer>

namespace Prefetch {

class Engine;
class PrefetchSession;
enum class Strategy;

// Context warm-up: when a document is opened (or becomes current, or its text changes) a
// one-token request carrying the document's static prefix fills the provider's prompt cache,
// and it is renewed every `interval` while the document stays open (sooner where the
// provider's cache lifetime is shorter) and in use: one left alone for `idleLimit` is not
// renewed until it is opened or used again. Documents below the
// provider's minimum cacheable size are skipped. A warm-up counts as a hit when the next answer
// about that document reports prompt-cache reads, a miss when it reports none. GUI thread.
class WarmupStrategy : public QObject
{
    Q_OBJECT

public:
    explicit WarmupStrategy(Engine *engine, QObject *parent = nullptr);
    ~WarmupStrategy() override;

    // `prompt` is the document's compiled prompt for the current provider and revision.
    // Counts as use of the document, like an answer about it.
    void documentOpened(const QString &documentId, const CompiledPrompt &prompt);
    void documentClosed(const QString &documentId);
    void closeAll();

    bool isOpen(const QString &documentId) const { return m_documents.contains(documentId); }
    // Open and renewed every interval (not left alone past the idle limit).
    bool isRenewing(const QString &documentId) const
    {
        const auto it = m_documents.constFind(documentId);
        return it != m_documents.cend() && it->timer && it->timer->isActive();
    }

    // How often a warm-up is renewed: `setting`, or less where the provider keeps its cache for
    // less (`lifetime`, zero where the provider decides): a tenth of the lifetime to spare, for
    // the renewal's own queueing and prefill. bench_cachelifetime plays it over a working day.
    static std::chrono::milliseconds renewalInterval(std::chrono::milliseconds setting,
                                                     std::chrono::milliseconds lifetime);

signals:
    // A warm-up completed: what the provider reported writing to and reading from its cache.
    void warmed(const QString &documentId, qint64 cacheReadTokens, qint64 cacheWriteTokens);
    // Not warmed: below the provider's minimum cacheable size, strategy off or refused.
    void skipped(const QString &documentId, const QString &reason);

private:
    struct Document {
        CompiledPrompt prompt;
        QTimer *timer = nullptr; // child of the strategy; deleted with the entry
        QByteArray warmedPrefix; // prefix fingerprint of the last warm-up sent
        qint64 warmedAtNs = -1;
        qint64 usedAtNs = -1;     // opened, current again, edited or answered about
        bool awaitingUse = false; // the next answer about it decides hit or miss
        QPointer<PrefetchSession> session;
    };

    void warm(const QString &documentId);
    void renew(const QString &documentId);
    // The re-warm interval for the provider in use (renewalInterval()).
    std::chrono::milliseconds interval() const;
    void onResponseEnded(Strategy origin, const Llm::ChatRequest &request, const Llm::Usage &usage);

    Engine *m_engine;
    QHash<QString, Document> m_documents;
};

} // namespace Prefetch
