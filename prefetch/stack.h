#pragma once

#include "settings.h"

#include "llm/providerprofile.h"

#include <QString>

#include <memory>

class QNetworkAccessManager;

namespace Prefetch {

class CompletenessClassifier;
class DebounceStrategy;
class Engine;
class HoverStrategy;
class ResponseCache;
class Speculator;
class WarmupStrategy;
class WorkflowStrategy;

// The engine stack, assembled the one way for the app, the replay benchmark and the test suites
// (tests/support's fixture): the response cache (when asked for), the Engine on a provider
// profile with the prefetch Settings (its lanes, budgets, metrics and recorder), the four
// strategies — warm-up, hover, debounce (its completeness classifier: the local heuristic, or
// the provider's quick model while Settings::debounce.modelClassifier is on) and workflow — and
// the Speculator of the early signals. Idle strategies do nothing: what is wired to the UI (or
// the replay's trace) is up to the owner. Owns all of it; strategies go before the engine, the
// engine before the cache. GUI thread.
class Stack
{
public:
    struct Options {
        // The response cache's file (the app's responses.sqlite); empty: no response cache. A
        // file that cannot be used leaves the cache in memory (ResponseCache::isPersistent()).
        QString responseCachePath;
    };

    // `network` must outlive the stack.
    Stack(QNetworkAccessManager *network, Llm::ProviderProfile profile, const Settings &settings = {},
          const Options &options = {});
    ~Stack();
    Stack(const Stack &) = delete;
    Stack &operator=(const Stack &) = delete;

    Engine *engine() const { return m_engine.get(); }
    HoverStrategy *hover() const { return m_hover.get(); }
    DebounceStrategy *debounce() const { return m_debounce.get(); }
    WorkflowStrategy *workflow() const { return m_workflow.get(); }
    WarmupStrategy *warmup() const { return m_warmup.get(); }
    Speculator *speculator() const { return m_speculator.get(); }
    // Null without Options::responseCachePath.
    ResponseCache *responseCache() const { return m_cache.get(); }

private:
    std::unique_ptr<ResponseCache> m_cache; // the engine borrows it: made before it, gone after it
    std::unique_ptr<Engine> m_engine;
    std::shared_ptr<CompletenessClassifier> m_classifier;
    std::unique_ptr<HoverStrategy> m_hover;
    std::unique_ptr<DebounceStrategy> m_debounce;
    std::unique_ptr<WorkflowStrategy> m_workflow;
    std::unique_ptr<WarmupStrategy> m_warmup;
    std::unique_ptr<Speculator> m_speculator;
};

} // namespace Prefetch
