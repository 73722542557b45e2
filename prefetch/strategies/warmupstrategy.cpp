#include "warmupstrategy.h"

#include "prefetch/engine.h"
#include "prefetch/log.h"
#include "prefetch/prefetchsession.h"

#include "llm/clock.h"

#include <QCoreApplication>

#include <spdlog/spdlog.h>

#include <algorithm>

namespace Prefetch {

namespace {

// Whether `request` starts with the static part of `prompt`: same system prompt, tools and
// static messages, so the provider's cache entry for the warm-up serves it.
bool sharesPrefix(const Llm::ChatRequest &request, const CompiledPrompt &prompt)
{
    const Llm::ChatRequest &s = prompt.staticRequest();
    if (request.model != s.model || request.system != s.system || request.tools != s.tools
        || request.messages.size() < s.messages.size())
        return false;
    for (qsizetype i = 0; i < s.messages.size(); ++i) {
        if (request.messages.at(i) != s.messages.at(i))
            return false;
    }
    return true;
}

} // namespace

WarmupStrategy::WarmupStrategy(Engine *engine, QObject *parent)
    : QObject(parent)
    , m_engine(engine)
{
    connect(m_engine, &Engine::responseEnded, this, &WarmupStrategy::onResponseEnded);
}

WarmupStrategy::~WarmupStrategy() = default;

void WarmupStrategy::documentOpened(const QString &documentId, const CompiledPrompt &prompt)
{
    Document &doc = m_documents[documentId];
    doc.prompt = prompt;
    if (!doc.timer) {
        doc.timer = new QTimer(this);
        connect(doc.timer, &QTimer::timeout, this, [this, documentId] { renew(documentId); });
    }
    doc.usedAtNs = Llm::monotonicNowNs();
    const std::chrono::milliseconds renewal = interval();
    doc.timer->start(renewal);
    // Opening the same revision again (switching back to its tab) within the interval finds
    // the cache still warm: no second request.
    const qint64 intervalNs = std::chrono::nanoseconds(renewal).count();
    if (doc.warmedPrefix == prompt.prefixFingerprint() && doc.warmedAtNs >= 0
        && Llm::monotonicNowNs() - doc.warmedAtNs < intervalNs)
        return;
    warm(documentId);
}

void WarmupStrategy::documentClosed(const QString &documentId)
{
    auto it = m_documents.find(documentId);
    if (it == m_documents.end())
        return;
    if (it->session)
        m_engine->cancel(it->session);
    delete it->timer;
    m_documents.erase(it);
}

void WarmupStrategy::closeAll()
{
    const QStringList ids = m_documents.keys();
    for (const QString &id : ids)
        documentClosed(id);
}

std::chrono::milliseconds WarmupStrategy::renewalInterval(std::chrono::milliseconds setting,
                                                          std::chrono::milliseconds lifetime)
{
    return lifetime.count() > 0 ? std::min(setting, lifetime * 9 / 10) : setting;
}

std::chrono::milliseconds WarmupStrategy::interval() const
{
    return renewalInterval(m_engine->settings().warmup.interval, m_engine->profile().cacheLifetime());
}

void WarmupStrategy::renew(const QString &documentId)
{
    auto it = m_documents.find(documentId);
    if (it == m_documents.end())
        return;
    const qint64 idleNs = std::chrono::nanoseconds(m_engine->settings().warmup.idleLimit).count();
    if (it->usedAtNs >= 0 && Llm::monotonicNowNs() - it->usedAtNs >= idleNs) {
        // Left alone: nobody is reading what the renewals would pay for. documentOpened()
        // starts them again.
        it->timer->stop();
        log().debug("warm-up: a document unused for {} min is no longer renewed",
                    std::chrono::duration_cast<std::chrono::minutes>(m_engine->settings().warmup.idleLimit).count());
        return;
    }
    it->timer->start(interval()); // the provider in use may have changed
    warm(documentId);
}

void WarmupStrategy::warm(const QString &documentId)
{
    auto it = m_documents.find(documentId);
    if (it == m_documents.end())
        return;
    Document &doc = *it;
    if (!m_engine->isEnabled(Strategy::Warmup)) {
        emit skipped(documentId, QCoreApplication::translate("Prefetch::WarmupStrategy", "Warm-up is switched off."));
        return;
    }
    const qint64 minimum = m_engine->profile().minCacheableTokens;
    if (doc.prompt.estimatedPrefixTokens() < minimum) {
        emit skipped(documentId, QCoreApplication::translate("Prefetch::WarmupStrategy",
                                                             "The document (about %1 tokens) is below the %2 tokens "
                                                             "%3 caches.")
                                     .arg(doc.prompt.estimatedPrefixTokens())
                                     .arg(minimum)
                                     .arg(m_engine->profile().displayName));
        return;
    }
    if (m_engine->profile().format == Llm::ApiFormat::AnthropicMessages
        && m_engine->profile().encodeOptions.thinkingBudgetTokens > 0) {
        // With extended thinking the one-token warm-up must allow the whole budget on top and
        // would think at full length every renewal; the first answer writes the cache instead.
        emit skipped(documentId, QCoreApplication::translate("Prefetch::WarmupStrategy",
                                                             "Extended thinking is on: a warm-up would think at "
                                                             "full length each time."));
        return;
    }
    if (doc.session && doc.session->isLive())
        return; // one warm-up at a time per document
    if (m_engine->isSpeculationSuspended()) {
        emit skipped(documentId, QCoreApplication::translate("Prefetch::WarmupStrategy", "Prefetch is paused."));
        return;
    }
    const auto request = doc.prompt.warmupRequest();
    if (!request) {
        emit skipped(documentId, request.error().message());
        return;
    }
    // A warm-up lives as long as it takes to send; its effect lives in the provider's cache.
    doc.session = m_engine->prefetch(Strategy::Warmup, *request, std::chrono::minutes(2));
    if (!doc.session) {
        emit skipped(documentId, QCoreApplication::translate("Prefetch::WarmupStrategy",
                                                             "The prefetch budget or lane refused the warm-up."));
        return;
    }
    doc.warmedPrefix = doc.prompt.prefixFingerprint();
    doc.warmedAtNs = Llm::monotonicNowNs();
    doc.awaitingUse = true;
    PrefetchSession *session = doc.session;
    connect(session, &PrefetchSession::stateChanged, this, [this, documentId, session](PrefetchSession::State state) {
        if (state != PrefetchSession::State::Complete || !session->answer())
            return;
        const Llm::Usage usage = session->answer()->usage();
        log().debug("warm-up of a document: {} prompt tokens, {} read from cache, {} written", usage.inputTokens,
                    usage.cacheReadTokens, usage.cacheWriteTokens);
        emit warmed(documentId, std::max<qint64>(0, usage.cacheReadTokens),
                    std::max<qint64>(0, usage.cacheWriteTokens));
    });
}

void WarmupStrategy::onResponseEnded(Strategy origin, const Llm::ChatRequest &request, const Llm::Usage &usage)
{
    Q_UNUSED(origin);
    for (Document &doc : m_documents) {
        if (doc.warmedAtNs < 0 || !sharesPrefix(request, doc.prompt))
            continue;
        doc.usedAtNs = Llm::monotonicNowNs(); // an answer about it: in use
        // Every answer on the warmed prefix is one the warm-up served (it keeps the cache warm
        // for all of them, re-warming while the document stays open): its tokens are what the
        // warm-up's cost is set against (extra cost = warm-up tokens / tokens of those answers).
        m_engine->recorder().warmedAnswerEnded(usage);
        // The first answer after a warm-up decides whether it hit.
        if (doc.awaitingUse) {
            doc.awaitingUse = false;
            m_engine->recorder().warmupUsed(usage);
        }
        return;
    }
}

} // namespace Prefetch
