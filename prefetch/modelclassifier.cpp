#include "modelclassifier.h"

#include "budget.h"
#include "prompttemplate.h"

#include "llm/llmstream.h"

#include <QTimer>

#include <memory>

namespace Prefetch {

ModelClassifier::ModelClassifier(QNetworkAccessManager *network, Llm::ProviderProfile profile, TokenBudget *budget,
                                 std::chrono::milliseconds timeout)
    : m_network(network)
    , m_profile(std::move(profile))
    , m_budget(budget)
    , m_timeout(timeout)
{
}

Llm::ChatRequest ModelClassifier::buildRequest(const QString &model, const QString &draft)
{
    Llm::ChatRequest r;
    r.model = model;
    r.system = QStringLiteral(
        "You judge chat drafts. Given the text a user has typed so far, estimate the probability "
        "that it is a finished message they are about to send, not a sentence they are still typing. "
        "Reply with JSON only, exactly {\"confidence\": x} with x between 0 and 1.");
    r.staticMessageCount = 0;
    r.messages.append({Llm::Role::User, draft});
    r.maxTokens = 12;
    r.temperature = 0.0;
    return r;
}

void ModelClassifier::classify(const QString &draft, QObject *context, std::function<void(double)> done)
{
    const Llm::ChatRequest request = buildRequest(m_profile.model, draft);
    std::optional<quint64> reservation;
    if (m_budget) {
        reservation = m_budget->reserve(estimatePromptTokens(request) + request.maxTokens);
        if (!reservation) {
            // No budget for a model call: the heuristic answers, later, as the interface promises.
            const double c = heuristicCompleteness(draft);
            QTimer::singleShot(0, context, [done, c] { done(c); });
            return;
        }
    }
    Llm::StreamOptions options;
    options.prefetch = true;
    auto *stream = new Llm::LlmStream(m_network, m_profile, request, options, context);
    auto *timer = new QTimer(stream);
    timer->setSingleShot(true);
    // Whichever comes first answers; the other finds `answered` set.
    auto answered = std::make_shared<bool>(false);
    // The stream is a child of `context`: if the context goes, so does every callback here.
    TokenBudget *budget = m_budget;
    auto answer = [=](std::optional<double> fromModel) {
        if (*answered)
            return;
        *answered = true;
        timer->stop();
        if (budget && reservation) {
            const Llm::Usage u = stream->usage();
            const qint64 spent = u.inputTokens >= 0 ? u.inputTokens + std::max<qint64>(0, u.outputTokens)
                                                    : estimatePromptTokens(request) + stream->eventCount();
            budget->reconcile(*reservation, spent);
        }
        done(fromModel.value_or(heuristicCompleteness(draft)));
        stream->deleteLater();
    };
    QObject::connect(timer, &QTimer::timeout, stream, [=] {
        stream->cancel();
        answer(std::nullopt);
    });
    QObject::connect(stream, &Llm::LlmStream::finished, stream, [=] { answer(parseConfidenceReply(stream->text())); });
    QObject::connect(stream, &Llm::LlmStream::failed, stream, [=](const Llm::Error &) { answer(std::nullopt); });
    timer->start(m_timeout);
    stream->start();
}

} // namespace Prefetch
