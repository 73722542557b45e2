#include "acknowledgement.h"

#include "engine.h"
#include "prefetch/stream/answerreader.h"

#include "llm/clock.h"
#include "llm/providerrequest.h"

namespace Prefetch {

namespace {

// The first line of `text`, trimmed and cut to a line's length; empty until it has a word.
QString firstLine(const QString &text)
{
    QString line = text.section(u'\n', 0, 0).trimmed();
    if (line.size() > Acknowledgement::MaxLineChars)
        line = line.first(Acknowledgement::MaxLineChars).trimmed() + u'…';
    return line;
}

double msSince(qint64 ns)
{
    return double(Llm::monotonicNowNs() - ns) / 1e6;
}

} // namespace

Acknowledgement::Acknowledgement(Engine *engine, QObject *parent)
    : QObject(parent)
    , m_engine(engine)
{
}

// A stream still open is destroyed with this object, its child: the engine settles it as cancelled.
Acknowledgement::~Acknowledgement() = default;

Llm::ChatRequest Acknowledgement::buildRequest(const QString &model, const QString &message)
{
    Llm::ChatRequest r;
    r.model = model;
    r.system = QStringLiteral(
        "You acknowledge messages. In one short sentence, in the language of the user's message, say what "
        "you are about to think through to answer it. Do not answer it, do not greet, no lists, no quotes "
        "around the whole sentence.");
    r.staticMessageCount = 0;
    r.messages.append({Llm::Role::User, message});
    r.maxTokens = 48;
    r.temperature = 0.0;
    return r;
}

bool Acknowledgement::isWanted(const Engine &engine, const QString &answeringModel)
{
    const Llm::ProviderProfile &profile = engine.profile();
    return engine.settings().routing.acknowledge && profile.hasDistinctFastModel()
           && answeringModel != profile.fastModel && profile.thinksFirst(answeringModel)
           && !profile.thinksFirst(profile.fastModel);
}

bool Acknowledgement::start(const QString &message, AnswerReader *answer, qint64 sentNs)
{
    if (!m_engine || !answer || m_stream)
        return false;
    m_model = m_engine->profile().fastModel;
    m_answer = answer;
    m_sentNs = sentNs;
    m_stream = m_engine->startSideRequest(buildRequest(m_model, message), this, Engine::SidePurpose::Acknowledgement);
    if (!m_stream)
        return false;
    connect(m_stream, &Llm::ProviderRequest::eventReceived, this, &Acknowledgement::onStreamEvent);
    connect(m_stream, &Llm::ProviderRequest::finished, this, [this] {
        grow(firstLine(m_stream->text()));
        end(m_line.isEmpty() ? Metrics::SideEnd::Fallback : Metrics::SideEnd::Answered);
    });
    connect(m_stream, &Llm::ProviderRequest::failed, this, [this](const Llm::Error &error) {
        end(error.code() == Llm::Error::Code::Cancelled ? Metrics::SideEnd::Cancelled : Metrics::SideEnd::Fallback);
    });
    connect(answer, &AnswerReader::eventReceived, this, &Acknowledgement::onAnswerEvent);
    // The answer ended (Stop, an error, or done before the line): nothing is left to bridge.
    const auto answerEnded = [this] { end(Metrics::SideEnd::Cancelled); };
    connect(answer, &AnswerReader::finished, this, answerEnded);
    connect(answer, &AnswerReader::failed, this, answerEnded);
    return true;
}

void Acknowledgement::onStreamEvent()
{
    if (!m_stream)
        return;
    const QString text = m_stream->text();
    grow(firstLine(text));
    // The first line is all it is asked for: what follows is not worth paying for.
    if (text.contains(u'\n') && !m_line.isEmpty())
        end(Metrics::SideEnd::Truncated);
}

void Acknowledgement::onAnswerEvent(const Llm::StreamEvent &event)
{
    if (event.type != Llm::StreamEvent::Type::TextDelta || event.text.isEmpty())
        return;
    if (m_line.isEmpty()) {
        end(Metrics::SideEnd::Fallback); // the answer came first: the line is too late
    } else {
        if (m_engine)
            m_engine->recorder().acknowledgementLead(msSince(m_shownNs));
        end(Metrics::SideEnd::Truncated); // the answer replaces it: the rest is not worth paying for
    }
    // Only the answer's first text matters: the lead is recorded once.
    if (m_answer)
        disconnect(m_answer, &AnswerReader::eventReceived, this, &Acknowledgement::onAnswerEvent);
}

void Acknowledgement::grow(const QString &line)
{
    if (line.isEmpty() || line == m_line)
        return;
    if (m_line.isEmpty()) { // its first words: from now on the user has something to read
        m_shownNs = Llm::monotonicNowNs();
        if (m_engine)
            m_engine->recorder().acknowledgementShown(msSince(m_sentNs));
    }
    m_line = line;
    emit lineChanged(line);
}

void Acknowledgement::end(Metrics::SideEnd how)
{
    Llm::ProviderRequest *stream = m_stream;
    if (!stream)
        return;
    m_stream = nullptr;
    disconnect(stream, nullptr, this, nullptr);
    if (m_engine)
        m_engine->endSideRequest(stream, how); // closes it when it still streams
    stream->deleteLater();                     // maybe inside its own signal
}

} // namespace Prefetch
