#pragma once

#include "classifier.h"

#include "llm/providerprofile.h"

#include <chrono>

class QNetworkAccessManager;

namespace Prefetch {

class TokenBudget;

// Asks a small, fast model whether a chat draft is finished, expecting {"confidence": x}. Falls
// back to the local heuristic when the model gives no usable number within `timeout`: by then
// the typing pause is over and a late answer is worth nothing. Its requests are prefetch
// traffic (prefetch key, `X-Prefetch: 1`) and are charged to the prefetch budget when one is
// given. GUI thread.
class ModelClassifier final : public CompletenessClassifier
{
public:
    ModelClassifier(QNetworkAccessManager *network, Llm::ProviderProfile profile, TokenBudget *budget = nullptr,
                    std::chrono::milliseconds timeout = std::chrono::milliseconds(400));

    void classify(const QString &draft, QObject *context, std::function<void(double confidence)> done) override;

    static Llm::ChatRequest buildRequest(const QString &model, const QString &draft);

private:
    QNetworkAccessManager *m_network;
    Llm::ProviderProfile m_profile;
    TokenBudget *m_budget;
    std::chrono::milliseconds m_timeout;
};

} // namespace Prefetch
