#include "modelclassifier.h"

#include "prefetch/engine.h"

#include "llm/providerrequest.h"

#include <QTimer>

#include <memory>

namespace Prefetch {

ModelClassifier::ModelClassifier(Engine *engine, std::chrono::milliseconds timeout)
    : m_engine(engine)
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

void ModelClassifier::classify(const QString &draft, DraftContext about, QObject *context,
                               std::function<void(double)> done)
{
    Llm::ProviderRequest *stream = nullptr;
    if (m_engine)
        stream = m_engine->startSideRequest(buildRequest(m_engine->profile().quickModel(), draft), context);
    if (!stream) {
        // No slot, no budget, or speculation paused: the heuristic answers, later, as the
        // interface promises.
        const double c = heuristicCompleteness(draft, about);
        QTimer::singleShot(0, context, [done, c] { done(c); });
        return;
    }
    auto *timer = new QTimer(stream);
    timer->setSingleShot(true);
    // Whichever comes first answers; the others find `answered` set. The stream is a child of
    // `context`: if the context goes, so does every callback here.
    auto answered = std::make_shared<bool>(false);
    QPointer<Engine> engine = m_engine;
    auto answer = [=](std::optional<double> fromModel, Metrics::SideEnd end) {
        if (*answered)
            return;
        *answered = true;
        timer->stop();
        if (engine)
            engine->endSideRequest(stream, end); // closes it when it still streams
        stream->deleteLater();
        // From the event loop, never from inside a signal of the stream being closed.
        const double c = fromModel.value_or(heuristicCompleteness(draft, about));
        QTimer::singleShot(0, context, [done, c] { done(c); });
    };
    QObject::connect(timer, &QTimer::timeout, stream, [=] { answer(std::nullopt, Metrics::SideEnd::Fallback); });
    QObject::connect(stream, &Llm::ProviderRequest::eventReceived, stream, [=] {
        if (const auto c = parseConfidencePrefix(stream->text()))
            answer(c, Metrics::SideEnd::Truncated);
    });
    QObject::connect(stream, &Llm::ProviderRequest::finished, stream, [=] {
        const auto c = parseConfidenceReply(stream->text());
        answer(c, c ? Metrics::SideEnd::Answered : Metrics::SideEnd::Fallback);
    });
    QObject::connect(stream, &Llm::ProviderRequest::failed, stream,
                     [=](const Llm::Error &) { answer(std::nullopt, Metrics::SideEnd::Fallback); });
    timer->start(m_timeout);
}

} // namespace Prefetch
