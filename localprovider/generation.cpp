#include "generation.h"

#include "answers.h"
#include "httpconnection.h"
#include "log.h"
#include "serverstate.h"

#include <spdlog/spdlog.h>

#include <chrono>
#include <cmath>
#include <utility>

namespace LocalProvider {

namespace {

qint64 nowNs()
{
    return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch())
        .count();
}

qint64 nowMs()
{
    return nowNs() / 1000000;
}

// Nanoseconds per unit at `rate` units per second; 0 when the rate means "no delay".
double nsPer(double rate)
{
    return rate > 0 && std::isfinite(rate) ? 1e9 / rate : 0.0;
}

int msUntil(qint64 deadlineNs)
{
    const qint64 remaining = deadlineNs - nowNs();
    // A day is as good as forever here, and QTimer takes an int.
    return remaining <= 0 ? 0 : static_cast<int>(qMin<qint64>((remaining + 999999) / 1000000, 86400000));
}

} // namespace

Generation::Generation(HttpConnection *connection, ServerState &state, Setup setup, Prompt prompt)
    : QObject(connection)
    , m_connection(connection)
    , m_state(state)
    , m_setup(std::move(setup))
    , m_prompt(std::move(prompt))
{
    m_timer.setSingleShot(true);
    m_timer.setTimerType(Qt::PreciseTimer);
    connect(&m_timer, &QTimer::timeout, this, &Generation::onTimer);
    connect(m_connection, &HttpConnection::closed, this, [this] { finish(Outcome::Cancelled, 499); });
}

Generation::~Generation()
{
    // Only reached before Done when the server shuts down with this request in flight.
    if (m_phase != Phase::Done) {
        m_state.scheduler().release(m_ticket);
        if (m_setup.request.stream)
            m_state.updateStats([](Stats &s) { --s.streamsOpen; });
    }
}

void Generation::start()
{
    const ChatRequest &r = m_setup.request;
    m_answers = answersFor(r);
    // headstart-local-reasoner thinks; so does a provider profile's model that thinks by
    // default (DeepSeek V4, Claude 5, GPT-6) unless the request turns thinking off. A
    // continuation does not think again.
    const bool thinksByDefault = m_setup.profile.thinksByDefault && r.thinking.value_or(true) && !r.prefill;
    if (thinksFirst(r) || thinksByDefault)
        m_reasoning = reasoningFor(r, m_setup.profile.thinkTokens);
    m_serial = m_state.nextSerial();
    m_positions.fill(0, m_answers.size());
    m_choiceDone.fill(false, m_answers.size());
    m_format = WireFormat::create(r.api, r.model, m_state.nextSerial(), !m_reasoning.isEmpty());
    if (r.stream)
        m_state.updateStats([](Stats &s) { ++s.streamsOpen; });
    m_phase = Phase::Network;
    m_timer.start(m_setup.profile.rttMs);
}

void Generation::onTimer()
{
    switch (m_phase) {
    case Phase::Network: onRttElapsed(); break;
    case Phase::Prefill: onPrefillDone(); break;
    case Phase::Decode: decodeTick(); break;
    case Phase::Queued:
    case Phase::Done: break;
    }
}

HttpHeaders Generation::responseHeaders() const
{
    return {{"x-request-id", m_setup.requestId}};
}

qint64 Generation::ttlMs() const
{
    return static_cast<qint64>(m_setup.profile.cacheTtlSec) * 1000;
}

int Generation::minimumCacheTokens() const
{
    if (m_setup.profile.cacheMinimumTokens > 0)
        return m_setup.profile.cacheMinimumTokens;
    // Anthropic's minimum cacheable prompt: 1024 tokens for its large models, 2048 for the small ones.
    if (m_setup.request.api == Api::Anthropic)
        return m_setup.request.model.endsWith(u"-small") ? 2048 : 1024;
    return 0; // the automatic cache of the older profiles has none
}

double Generation::overheadFactor() const
{
    return m_setup.profile.overheadFactor(m_serial);
}

void Generation::onRttElapsed()
{
    if (m_setup.request.stream) {
        m_connection->beginStream(200, "text/event-stream", responseHeaders());
        if (!m_connection->isOpen())
            return finish(Outcome::Cancelled, 499);
    }
    // Set before asking: the slot may be granted inside request().
    m_phase = Phase::Queued;
    m_ticket = m_state.scheduler().request(m_setup.profile.slotCount, [this] { onSlotGranted(); });
}

void Generation::onSlotGranted()
{
    m_phase = Phase::Prefill;
    const qint64 now = nowMs();
    m_usage.promptTokens = m_prompt.tokenCount();
    const LatencyProfile &profile = m_setup.profile;
    if (m_setup.request.api == Api::OpenAi) {
        if (profile.cacheUnitsOnly)
            m_usage.cacheReadTokens = m_state.cache().lookupUnits(m_prompt, now, ttlMs(), profile.cacheBuildMs);
        else if (m_prompt.tokenCount() >= minimumCacheTokens())
            m_usage.cacheReadTokens = m_state.cache().lookupBlocks(m_prompt, now, ttlMs());
        // OpenAI from GPT-5.6 on reports (and bills) what the request writes to its cache.
        if (profile.reportsCacheWrites && m_prompt.tokenCount() >= minimumCacheTokens())
            m_usage.cacheCreationTokens = std::max(0, int(m_prompt.blockKeys().size()) * m_prompt.blockTokens()
                                                          - m_usage.cacheReadTokens);
    } else {
        const auto hit = m_state.cache().lookupBreakpoints(m_prompt, minimumCacheTokens(), now, ttlMs());
        m_usage.cacheReadTokens = hit.readTokens;
        m_usage.cacheCreationTokens = hit.creationTokens;
    }
    m_state.updateStats([this](Stats &s) {
        s.promptTokens += m_usage.promptTokens;
        s.cacheHitTokens += m_usage.cacheReadTokens;
    });
    // Billed now, not at the first token: the model has begun, and a hosted provider bills the
    // input of a request cancelled during its prefill.
    BilledTokens input;
    input.cacheRead = m_usage.cacheReadTokens;
    input.cacheWrite = m_usage.cacheCreationTokens;
    input.inputUncached = m_usage.promptTokens - m_usage.cacheReadTokens - m_usage.cacheCreationTokens;
    m_state.bill(m_setup.purpose, m_setup.request.model, input);
    // A cached prompt is not free: its tokens are read, faster (cachedTokensPerSec).
    const double prefillNs = (m_usage.promptTokens - m_usage.cacheReadTokens) * nsPer(profile.prefillTokensPerSec)
                             + m_usage.cacheReadTokens * nsPer(profile.cachedTokensPerSec)
                             + double(profile.overheadMs) * 1e6 * overheadFactor();
    m_timer.start(msUntil(nowNs() + static_cast<qint64>(prefillNs)));
}

void Generation::onPrefillDone()
{
    const qint64 now = nowMs();
    if (m_setup.request.api == Api::OpenAi && m_setup.profile.cacheUnitsOnly)
        m_state.cache().insertUnit(m_prompt.end().key, m_prompt.end().tokens, m_prompt.blockTokens(), now, ttlMs(),
                                   m_setup.profile.cacheBuildMs); // the input's end
    else if (m_setup.request.api == Api::OpenAi && m_prompt.tokenCount() >= minimumCacheTokens())
        m_state.cache().insertBlocks(m_prompt, now, ttlMs());
    else if (m_setup.request.api == Api::Anthropic)
        m_state.cache().insertBreakpoints(m_prompt, minimumCacheTokens(), m_usage.cacheReadTokens, now, ttlMs());

    m_phase = Phase::Decode;
    m_prefilled = true;
    if (m_setup.request.stream && !write(m_format->streamStart(static_cast<int>(m_answers.size()), m_usage)))
        return;
    m_nextTickNs = nowNs();
    decodeTick();
}

void Generation::decodeTick()
{
    const FaultSpec &fault = m_setup.fault;
    const bool stream = m_setup.request.stream;
    // A reasoning model thinks first, one token a tick like the answer, billed as output.
    // The faults count the answer's tokens: an error at token 0 comes after the thinking.
    if (m_thought < m_reasoning.size()) {
        const QString &token = m_reasoning[m_thought++];
        countGenerated(1);
        if (stream) {
            if (!write(m_format->streamReasoning(0, token)))
                return;
            noteFirstTokenWritten();
        }
        return scheduleNextTick();
    }
    const int before = m_sent;
    const auto countTokens = [&] { countGenerated(m_sent - before); };
    // One token per unfinished choice per tick: the choices of one request decode as a batch.
    while (m_cursor < m_answers.size()) {
        const int c = m_cursor;
        if (m_choiceDone[c]) {
            ++m_cursor;
            continue;
        }
        const QStringList &tokens = m_answers[c].tokens;
        if (m_positions[c] >= tokens.size()) {
            endChoice(c);
            if (m_phase == Phase::Done)
                return countTokens();
            ++m_cursor;
            continue;
        }
        if (fault.dropAfter == m_sent) {
            countTokens();
            finish(Outcome::Dropped, 200);
            m_connection->abort();
            return;
        }
        if (fault.errorAt == m_sent) {
            countTokens();
            return failMidResponse();
        }
        if (fault.stallAt == m_sent && !m_stalled) {
            m_stalled = true;
            countTokens();
            m_nextTickNs = nowNs() + static_cast<qint64>(fault.stallMs) * 1000000;
            m_timer.start(msUntil(m_nextTickNs));
            return; // resumes at the same choice
        }
        if (fault.malformedAt == m_sent && !m_malformedSent) {
            m_malformedSent = true;
            if (stream && !write(m_format->streamMalformed()))
                return countTokens();
        }
        const QString &token = tokens[m_positions[c]++];
        ++m_sent;
        if (stream) {
            if (!write(m_format->streamToken(c, token)))
                return countTokens();
            noteFirstTokenWritten();
        }
        if (m_positions[c] >= tokens.size()) {
            endChoice(c);
            if (m_phase == Phase::Done)
                return countTokens();
        }
        ++m_cursor;
    }
    countTokens();
    m_cursor = 0;
    if (!m_choiceDone.contains(false))
        return complete();
    scheduleNextTick();
}

void Generation::billPastTheClose(Outcome outcome)
{
    // A provider that notices a closed connection late, or not at all, bills what it went on
    // generating (LatencyProfile::CancelBilling): the client cannot see it, the bill does.
    if (outcome != Outcome::Cancelled || !m_prefilled)
        return;
    const int remaining = std::max(0, m_setup.request.maxTokens - m_sent - int(m_thought)) * int(m_answers.size());
    switch (m_setup.profile.cancelBilling) {
    case LatencyProfile::CancelBilling::Generated: break;
    case LatencyProfile::CancelBilling::GeneratedPlus:
        countGenerated(std::min(remaining, m_setup.profile.cancelExtraTokens));
        break;
    case LatencyProfile::CancelBilling::MaxTokens: countGenerated(remaining); break;
    }
}

void Generation::noteFirstTokenWritten()
{
    if (!std::exchange(m_firstTokenRecorded, true))
        m_state.recordFirstToken(m_setup.requestId, nowNs());
}

void Generation::countGenerated(int tokens)
{
    if (tokens <= 0)
        return;
    m_state.updateStats([tokens](Stats &s) { s.tokensGenerated += tokens; });
    BilledTokens output;
    output.output = tokens;
    m_state.bill(m_setup.purpose, m_setup.request.model, output);
}

void Generation::cacheWhatWasComputed()
{
    // Anthropic caches at breakpoints only, and the answer carries none; an automatic block
    // cache keeps whatever the request computed: the prompt and the tokens generated so far,
    // also when max_tokens cut them or the client left. A continuation then reads most of its
    // prefill from the cache.
    if (!m_prefilled || m_setup.request.api != Api::OpenAi)
        return;
    if (!m_setup.profile.cacheUnitsOnly && m_prompt.tokenCount() < minimumCacheTokens())
        return;
    const QString prefill = m_setup.request.prefill.value_or(QString());
    const qint64 now = nowMs();
    for (qsizetype c = 0; c < m_answers.size(); ++c) {
        const QString generated = m_answers[c].tokens.first(m_positions[c]).join(QString());
        if (m_setup.profile.cacheUnitsOnly) {
            const Prompt::Boundary output = m_prompt.endWithAnswer(prefill + generated); // the output's end
            m_state.cache().insertUnit(output.key, output.tokens, m_prompt.blockTokens(), now, ttlMs(),
                                       m_setup.profile.cacheBuildMs);
        } else {
            m_state.cache().insertBlockKeys(m_prompt.blockKeysWithAnswer(prefill + generated), now, ttlMs());
        }
    }
}

void Generation::scheduleNextTick()
{
    const qint64 now = nowNs();
    m_nextTickNs += static_cast<qint64>(nsPer(m_setup.profile.decodeTokensPerSec));
    // After a long hiccup of the event loop, resume the pace instead of bursting to catch up.
    if (m_nextTickNs < now - 100000000)
        m_nextTickNs = now;
    m_timer.start(msUntil(m_nextTickNs));
}

void Generation::endChoice(int choice)
{
    m_choiceDone[choice] = true;
    if (m_setup.request.stream)
        write(m_format->streamChoiceEnd(choice, m_answers[choice].truncated));
}

void Generation::complete()
{
    m_usage.completionTokens = m_sent + int(m_thought);
    m_usage.reasoningTokens = int(m_thought);
    const bool truncated = m_answers.first().truncated;
    if (m_setup.request.stream) {
        if (!write(m_format->streamEnd(m_usage, truncated, m_setup.request.includeUsage)))
            return;
        m_connection->endStream();
        return finish(Outcome::Completed, 200);
    }
    QList<ChoiceText> choices;
    for (const TextGenerator::Answer &a : std::as_const(m_answers))
        choices.append({a.tokens.join(QString()), a.truncated});
    QByteArray body = m_format->completeBody(choices, m_usage);
    if (m_malformedSent)
        body.truncate(body.size() / 2);
    m_connection->sendResponse(200, "application/json", body, responseHeaders());
    finish(Outcome::Completed, 200);
}

void Generation::failMidResponse()
{
    if (m_setup.request.stream) {
        if (!write(m_format->streamError()))
            return;
        m_connection->endStream();
        return finish(Outcome::Failed, 200);
    }
    const ApiError error = m_format->midResponseError();
    m_connection->sendResponse(error.status, "application/json", m_format->errorBody(error), responseHeaders());
    finish(Outcome::Failed, error.status);
}

bool Generation::write(const QByteArray &bytes)
{
    if (m_connection->writeStream(bytes))
        return true;
    finish(Outcome::Cancelled, 499);
    return false;
}

void Generation::finish(Outcome outcome, int status)
{
    if (m_phase == Phase::Done)
        return;
    m_phase = Phase::Done;
    m_timer.stop();
    cacheWhatWasComputed();
    billPastTheClose(outcome);
    const bool stream = m_setup.request.stream;
    m_state.updateStats([stream, outcome](Stats &s) {
        if (!stream)
            return;
        --s.streamsOpen;
        if (outcome == Outcome::Completed)
            ++s.streamsCompleted;
        else if (outcome == Outcome::Cancelled)
            ++s.streamsCancelled;
    });
    // Last: granting the slot starts another generation.
    const SlotScheduler::Ticket ticket = std::exchange(m_ticket, 0);
    if (ticket)
        m_state.scheduler().release(ticket);

    const char *outcomeName = outcome == Outcome::Completed   ? "completed"
                              : outcome == Outcome::Cancelled ? "cancelled"
                              : outcome == Outcome::Dropped   ? "dropped"
                                                              : "failed";
    log().info("POST {} {} id={} purpose={} prompt={} cached={} out={} {} ms {}{}{}", m_setup.path.constData(), status,
               m_setup.requestId.constData(), m_setup.purpose.toStdString(), m_usage.promptTokens,
               m_usage.cacheReadTokens, m_sent, (nowNs() - m_setup.receivedNs) / 1000000, outcomeName,
               stream ? " stream" : "", m_setup.request.prefill ? " continuation" : "");
    deleteLater();
}

} // namespace LocalProvider
