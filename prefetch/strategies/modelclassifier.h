#pragma once

#include "classifier.h"

#include "llm/llmtypes.h"

#include <QPointer>

#include <chrono>

namespace Prefetch {

class Engine;

// Asks the provider's quick model (Llm::ProviderProfile::quickModel(): the fast model where the
// profile has one) whether a chat draft is finished, expecting {"confidence": x}. Its question
// is a side request of the engine (Engine::startSideRequest): it takes a free slot or none,
// is charged to the prefetch budget on its own metrics line, and Stop cancels it. The stream
// is closed the moment the number has arrived: what a model writes after it is not worth
// paying for. Falls back to the local heuristic when no usable number comes within `timeout`:
// by then the typing pause is over and a late answer is worth nothing. The model is asked about
// the draft alone (its question is the one the local provider knows); the context goes to the
// fallback only, so a short follow-up after an answer reads as unfinished to the model. GUI
// thread.
class ModelClassifier final : public CompletenessClassifier
{
public:
    explicit ModelClassifier(Engine *engine, std::chrono::milliseconds timeout = std::chrono::milliseconds(400));

    void classify(const QString &draft, DraftContext about, QObject *context,
                  std::function<void(double confidence)> done) override;

    static Llm::ChatRequest buildRequest(const QString &model, const QString &draft);

private:
    QPointer<Engine> m_engine;
    std::chrono::milliseconds m_timeout;
};

} // namespace Prefetch
