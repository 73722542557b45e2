#include "stack.h"

#include "engine.h"
#include "prefetch/cache/responsecache.h"
#include "prefetch/strategies/classifier.h"
#include "prefetch/strategies/debouncestrategy.h"
#include "prefetch/strategies/hoverstrategy.h"
#include "prefetch/strategies/modelclassifier.h"
#include "prefetch/strategies/speculator.h"
#include "prefetch/strategies/warmupstrategy.h"
#include "prefetch/strategies/workflowstrategy.h"

#include <QPointer>

namespace Prefetch {

namespace {

// Debounce asks this; it asks the provider's quick model or the local heuristic, whichever the
// engine's settings say at the time, so switching needs no new strategy.
class SettingsClassifier final : public CompletenessClassifier
{
public:
    explicit SettingsClassifier(Engine *engine)
        : m_engine(engine)
        , m_model(engine)
    {
    }

    void classify(const QString &draft, DraftContext about, QObject *context, std::function<void(double)> done) override
    {
        if (m_engine && m_engine->settings().debounce.modelClassifier)
            m_model.classify(draft, about, context, std::move(done));
        else
            m_heuristic.classify(draft, about, context, std::move(done));
    }

private:
    QPointer<Engine> m_engine;
    HeuristicClassifier m_heuristic;
    ModelClassifier m_model;
};

} // namespace

Stack::Stack(QNetworkAccessManager *network, Llm::ProviderProfile profile, const Settings &settings,
             const Options &options)
{
    if (!options.responseCachePath.isEmpty())
        m_cache = std::make_unique<ResponseCache>(options.responseCachePath);
    m_engine = std::make_unique<Engine>(network, std::move(profile), settings);
    // Given whether or not Settings::cache is on: the setting decides, and can change.
    if (m_cache)
        m_engine->setResponseCache(m_cache.get());
    m_classifier = std::make_shared<SettingsClassifier>(m_engine.get());
    m_hover = std::make_unique<HoverStrategy>(m_engine.get());
    m_debounce = std::make_unique<DebounceStrategy>(m_engine.get(), m_classifier);
    m_workflow = std::make_unique<WorkflowStrategy>(m_engine.get());
    m_warmup = std::make_unique<WarmupStrategy>(m_engine.get());
    m_speculator = std::make_unique<Speculator>(m_engine.get());
}

// Members go in reverse order: the Speculator and the strategies, the classifier, the engine
// (its sessions close their connections), the response cache.
Stack::~Stack() = default;

} // namespace Prefetch
