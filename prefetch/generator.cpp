#include "generator.h"

namespace Prefetch {

Generator::Generator(QNetworkAccessManager *network, Llm::ProviderProfile profile, QObject *parent)
    : QObject(parent)
    , m_network(network)
    , m_profile(std::move(profile))
{
}

void Generator::setProfile(Llm::ProviderProfile profile)
{
    cancelAll();
    m_profile = std::move(profile);
    emit profileChanged();
}

Llm::LlmStream *Generator::start(const Llm::ChatRequest &request, QObject *owner,
                                 Llm::StreamOptions options)
{
    Llm::ChatRequest r = request;
    if (r.model.isEmpty())
        r.model = m_profile.model;
    auto *stream = new Llm::LlmStream(m_network, m_profile, std::move(r), std::move(options), owner);
    m_running.removeIf([](const QPointer<Llm::LlmStream> &s) { return !s || s->isDone(); });
    m_running.append(stream);
    stream->start();
    return stream;
}

void Generator::cancelAll()
{
    // Copy: cancelling emits failed(), and a receiver may start a new stream meanwhile.
    const auto running = m_running;
    m_running.clear();
    for (const QPointer<Llm::LlmStream> &s : running) {
        if (s)
            s->cancel();
    }
}

int Generator::runningCount() const
{
    return int(std::count_if(m_running.cbegin(), m_running.cend(),
                             [](const QPointer<Llm::LlmStream> &s) { return s && !s->isDone(); }));
}

} // namespace Prefetch
