#include "answerfetch.h"

#include "prefetch/log.h"

#include "llm/clock.h"
#include "llm/keyring.h"

#include <QNetworkAccessManager>

#include <spdlog/spdlog.h>

namespace Prefetch {

namespace {

// The counts of a Usage, for the field-by-field sums below.
constexpr qint64 Llm::Usage::*UsageFields[] = {&Llm::Usage::inputTokens, &Llm::Usage::outputTokens,
                                               &Llm::Usage::cacheReadTokens, &Llm::Usage::cacheWriteTokens,
                                               &Llm::Usage::reasoningTokens};

// Adds `part` to `sum` field by field; -1 (not reported) adds nothing.
void addUsage(Llm::Usage &sum, const Llm::Usage &part)
{
    for (auto field : UsageFields) {
        if (part.*field >= 0)
            sum.*field = std::max<qint64>(0, sum.*field) + part.*field;
    }
}

// `all` less `part`, field by field; a field `all` did not report stays unreported.
Llm::Usage withoutPart(const Llm::Usage &all, const Llm::Usage &part)
{
    Llm::Usage rest = all;
    for (auto field : UsageFields) {
        if (rest.*field >= 0 && part.*field > 0)
            rest.*field = std::max<qint64>(0, rest.*field - part.*field);
    }
    return rest;
}

// A provider that cannot continue an answer says so before it sends anything: the request is
// invalid for it (400, 404 for an unknown beta endpoint, 422 for an unknown field).
bool isRefusal(const Llm::Error &error)
{
    using C = Llm::Error::Code;
    return error.code() == C::InvalidRequest || error.code() == C::BadRequest || error.code() == C::UnknownModel
           || error.code() == C::NotAnApi; // an unknown beta endpoint's 404 names no model
}

// A request the provider refused by its status, or that never reached an API: nothing was
// generated, and hosted providers bill nothing for it. A timeout or a broken stream may have
// been processed: its estimate stands.
bool billsNothing(const Llm::Error &error)
{
    using C = Llm::Error::Code;
    if (error.httpStatus() >= 400)
        return true;
    switch (error.code()) {
    case C::InvalidRequest:
    case C::MissingKey:
    case C::InsecureHttp:
    case C::RedirectRefused:
    case C::NotAnApi:
    case C::NetworkUnreachable:
    case C::Tls: return true;
    default: return false;
    }
}

} // namespace

AnswerFetch::AnswerFetch(QNetworkAccessManager *network, Llm::ProviderProfile profile, RenderedRequest request,
                         bool speculative, QObject *parent)
    : QObject(parent)
    , m_network(network)
    , m_profile(std::move(profile))
    , m_request(std::move(request))
    , m_speculative(speculative)
{
    if (m_request.request.model.isEmpty())
        m_request.request.model = m_profile.model;
    // An opening needs a continuation to carry it on, and a model other than the answer's.
    if (m_request.opening
        && (!m_profile.canContinue() || m_request.request.choiceCount != 1
            || m_request.opening->request.model == m_request.request.model))
        m_request.opening.reset();
    m_retryTimer.setSingleShot(true);
    connect(&m_retryTimer, &QTimer::timeout, this, [this] {
        // Asked for again exactly as the first time: nothing of it was delivered.
        startPart(m_limit, {});
    });
}

AnswerFetch::~AnswerFetch()
{
    // The part is a child and closes its connection when destroyed; no signals from here.
    if (m_part)
        disconnect(m_part, nullptr, this, nullptr);
}

void AnswerFetch::start(int limit)
{
    if (m_started)
        return;
    m_started = true;
    m_startedNs = Llm::monotonicNowNs();
    m_limit = std::clamp(limit, 1, std::max(1, m_request.request.maxTokens));
    startPart(m_limit, {});
}

void AnswerFetch::extend(int limit, bool speculative)
{
    if (m_done)
        return;
    m_speculative = speculative;
    m_keep = 0; // wanted now: what streams is kept
    m_limit = std::max(m_limit, std::min(limit, m_request.request.maxTokens));
    if (m_waiting) {
        m_waiting = false;
        continueOrWait();
    }
}

void AnswerFetch::cancel()
{
    if (m_done)
        return;
    if (m_part && !m_part->isDone()) {
        disconnect(m_part, nullptr, this, nullptr);
        m_part->cancel();
        addPartUsage();
    }
    end(Llm::Error(Llm::Error::Code::Cancelled, m_profile.displayName));
}

void AnswerFetch::setPaused(bool paused)
{
    if (m_part && !m_part->isDone())
        m_part->setPaused(paused);
}

bool AnswerFetch::isPaused() const
{
    return m_part && !m_part->isDone() && m_part->isPaused();
}

Llm::Usage AnswerFetch::usage() const
{
    Llm::Usage usage = m_billed;
    if (m_part && !m_part->isDone())
        addUsage(usage, partUsage());
    return usage;
}

Llm::Usage AnswerFetch::openingUsage() const
{
    Llm::Usage usage = m_openingBilled;
    if (m_partOpening && m_part && !m_part->isDone())
        addUsage(usage, partUsage());
    return usage;
}

Llm::Usage AnswerFetch::earlyUsage() const
{
    Llm::Usage usage = m_earlyBilled;
    if (m_part && !m_part->isDone() && m_part->isPrefetch())
        addUsage(usage, partUsage());
    return usage;
}

QString AnswerFetch::openingModel() const
{
    // Only while the text has the fast model's words: an answer asked for again whole after its
    // opening has none, though the opening is still billed (openingUsage()).
    return m_openingChars > 0 ? m_profile.fastModel : QString();
}

double AnswerFetch::costOf(const Llm::Usage &billed, const Llm::ProviderProfile &priced) const
{
    const Llm::Prices &prices = priced.pricesFor(m_request.request.model);
    const Llm::Usage opening = openingUsage();
    if (opening.isEmpty())
        return prices.cost(billed);
    return prices.cost(withoutPart(billed, opening)) + priced.pricesFor(m_profile.fastModel).cost(opening);
}

double AnswerFetch::measuredRate() const
{
    qint64 span = m_rateSpanNs;
    qsizetype steps = m_rateSteps;
    if (m_partFirstNs >= 0 && m_partLastNs > m_partFirstNs) {
        span += m_partLastNs - m_partFirstNs;
        steps += m_partContent - 1;
    }
    return steps >= 3 && span > 0 ? double(steps) * 1e9 / double(span) : 0.0;
}

Llm::Usage AnswerFetch::partUsage() const
{
    Llm::Usage part = m_partUsage;
    if (part.inputTokens < 0) {
        // The prompt as estimated for the request the part asked (the opening's or the answer's).
        const RenderedRequest &asked = m_partOpening && m_request.opening ? *m_request.opening : m_request;
        part.inputTokens = asked.estimatedPromptTokens > 0 ? asked.estimatedPromptTokens
                                                           : estimatePromptTokens(asked.request);
    }
    if (part.outputTokens < 0)
        part.outputTokens = m_partContent;
    return part;
}

int AnswerFetch::outputSoFar() const
{
    return int(std::max<qint64>(0, m_billed.outputTokens));
}

bool AnswerFetch::canContinue() const
{
    return m_continuable && m_profile.canContinue() && m_request.request.choiceCount == 1
           && !QStringView(m_text).trimmed().isEmpty();
}

// --- parts ----------------------------------------------------------------------------------

void AnswerFetch::startPart(int maxTokens, const QString &continuation)
{
    // The fast model writes the beginning, up to the opening's length; every later part is the
    // request's own model's.
    const bool opening = continuation.isEmpty() && m_request.opening && m_text.isEmpty();
    const RenderedRequest &asked = opening ? *m_request.opening : m_request;
    if (opening)
        maxTokens = std::min(maxTokens, asked.request.maxTokens);
    const bool whole = maxTokens == asked.request.maxTokens && continuation.isEmpty();
    QByteArray body = asked.body;
    if (!whole || body.isEmpty()) {
        auto variant = encodeVariant(m_profile, asked, maxTokens, continuation);
        if (!variant) {
            if (!continuation.isEmpty()) {
                // The encoder refuses this continuation (the profile has no form for one).
                emit continuationRefused();
                restartWhole();
                return;
            }
            // Nothing else can be sent either; ProviderRequest reports the encoder's error.
            body.clear();
        } else {
            body = std::move(*variant);
        }
    }
    Llm::StreamOptions options;
    options.prefetch = m_speculative;
    options.encodedBody = body;
    if (m_idleTimeout.count() > 0)
        options.idleTimeout = m_idleTimeout;
    if (m_timeLimit.count() > 0)
        options.overallTimeout = m_timeLimit;
    // A speculative part paused at the session's cap holds its unread bytes: keep that small
    // (about 40 SSE events); the kernel's socket buffer and TCP flow control hold the rest.
    if (m_speculative)
        options.readBufferBytes = 8 * 1024;
    if (m_profile.isLocalDemo && !m_purpose.isEmpty())
        options.extraHeaders.append({"X-Headstart-Purpose", m_purpose});
    Llm::ChatRequest described = asked.request;
    described.maxTokens = maxTokens;
    described.continuation = continuation;
    const Llm::ProviderProfile profile = continuation.isEmpty() ? m_profile : m_profile.forContinuation();

    if (m_part)
        m_part->deleteLater(); // done; its figures are in m_billed
    m_part = new Llm::ProviderRequest(m_network, profile, std::move(described), std::move(options), this);
    ++m_parts;
    m_partMaxTokens = maxTokens;
    m_partContent = 0;
    m_partUsage = {};
    m_partContinues = !continuation.isEmpty();
    m_partOpening = opening;
    m_finishReason.clear();
    connect(m_part, &Llm::ProviderRequest::eventReceived, this, &AnswerFetch::onEvent);
    connect(m_part, &Llm::ProviderRequest::finished, this, &AnswerFetch::onPartFinished);
    connect(m_part, &Llm::ProviderRequest::failed, this, &AnswerFetch::onPartFailed);
    m_partStartedNs = Llm::monotonicNowNs();
    m_part->start();
    if (m_partContinues)
        emit continuationStarted();
}

qint64 AnswerFetch::continuationDueNs() const
{
    if (!m_partContinues || m_partContent > 0 || m_done || m_partStartedNs < 0 || m_startedNs < 0
        || m_firstTokenNs < m_startedNs)
        return -1;
    return m_partStartedNs + (m_firstTokenNs - m_startedNs);
}

void AnswerFetch::onEvent(const Llm::StreamEvent &event)
{
    using T = Llm::StreamEvent::Type;
    if (event.type == T::Usage) {
        m_partUsage.merge(event.usage); // summed over the parts at the end
        return;
    }
    if (event.type == T::Finish) {
        if (event.choice == 0)
            m_finishReason = event.text;
        else
            emit eventReceived(event); // other choices are never continued
        return;
    }
    if (!event.isContent() || event.choice != 0) {
        if (event.isContent())
            m_continuable = false; // several answers: only the first could be continued
        emit eventReceived(event);
        return;
    }
    if (event.type != T::TextDelta)
        m_continuable = false; // reasoning, refusals, tool calls cannot be carried on as a text
    Llm::StreamEvent delivered = event;
    if (event.type == T::TextDelta && m_partContinues && !m_held.isEmpty()) {
        // The continuation begins with the white space the previous part ended with and was
        // not sent as the beginning: it was shown already.
        qsizetype same = 0;
        while (same < m_held.size() && same < delivered.text.size() && m_held.at(same) == delivered.text.at(same))
            ++same;
        if (same == m_held.size() || same == delivered.text.size()) {
            delivered.text.remove(0, same);
            m_held.remove(0, same);
        } else {
            m_held.clear(); // it went another way; nothing to drop
        }
    }
    ++m_partContent;
    const qint64 now = Llm::monotonicNowNs();
    if (m_firstTokenNs < 0)
        m_firstTokenNs = now;
    if (m_partFirstNs < 0)
        m_partFirstNs = now;
    m_partLastNs = now;
    if (delivered.text.isEmpty() && event.type == T::TextDelta)
        return;
    ++m_contentEvents;
    if (delivered.type == T::TextDelta)
        m_text += delivered.text;
    if (m_partOpening)
        m_openingChars = m_text.size();
    emit eventReceived(delivered);
    if (m_keep > 0 && m_part && !m_part->isDone() && outputSoFar() + m_partContent >= m_keep)
        closeAtKeep();
}

void AnswerFetch::closeAtKeep()
{
    m_keep = 0;
    disconnect(m_part, nullptr, this, nullptr);
    m_part->cancel();
    addPartUsage();
    // What it has is the beginning it keeps: the rest is a continuation, once wanted.
    m_limit = std::min(m_limit, outputSoFar());
    continueOrWait();
}

void AnswerFetch::addPartUsage()
{
    const Llm::Usage part = partUsage();
    addUsage(m_billed, part);
    if (m_part && m_part->isPrefetch())
        addUsage(m_earlyBilled, part);
    if (m_partOpening) {
        addUsage(m_openingBilled, part);
        m_partOpening = false;
    }
    if (m_partFirstNs >= 0 && m_partLastNs > m_partFirstNs && m_partContent > 1) {
        m_rateSpanNs += m_partLastNs - m_partFirstNs;
        m_rateSteps += m_partContent - 1;
    }
    m_partFirstNs = m_partLastNs = -1;
    m_partUsage = {};
    m_partContent = 0;
}

void AnswerFetch::dropPartUsage()
{
    // Known to be nothing, not unknown: whoever settles the bill must not estimate it again.
    Llm::Usage nothing;
    nothing.inputTokens = 0;
    nothing.outputTokens = 0;
    addUsage(m_billed, nothing);
    m_partUsage = {};
    m_partContent = 0;
    m_partFirstNs = m_partLastNs = -1;
    m_partOpening = false;
}

void AnswerFetch::onPartFinished()
{
    addPartUsage();
    const bool cut = Llm::finishReasonFrom(m_finishReason) == Llm::FinishReason::Length
                     && outputSoFar() < m_request.request.maxTokens;
    if (!cut) {
        end(std::nullopt); // the answer's own end, or its limit
        return;
    }
    continueOrWait();
}

void AnswerFetch::continueOrWait()
{
    const int soFar = outputSoFar();
    if (m_limit <= soFar) {
        // The beginning is here; the rest is fetched when the answer is wanted (extend()).
        m_waiting = true;
        emit waitingForLimit();
        return;
    }
    if (!canContinue()) {
        // It must come whole: asked for again, from its first token.
        restartWhole();
        return;
    }
    qsizetype end = m_text.size();
    while (end > 0 && m_text.at(end - 1).isSpace())
        --end;
    m_held = m_text.mid(end);
    startPart(m_limit - soFar, m_text.left(end));
}

bool AnswerFetch::retryWithout(const Llm::Error &error)
{
    const std::optional<Llm::RefusedFeature> feature = Llm::refusedFeature(error);
    // A refused continuation is restartWhole()'s; other features only before any text, once.
    if (!feature || *feature == Llm::RefusedFeature::Continuation || !m_text.isEmpty() || m_refused.contains(*feature))
        return false;
    m_refused.append(*feature);
    log().warn("{} refused a part of the request its model does not take ({}); asking again without it",
               m_profile.id.toStdString(), Llm::featureId(*feature));
    const QString model = m_request.request.model;
    const bool fast = m_profile.hasDistinctFastModel() && model == m_profile.fastModel && m_profile.fastEncodeOptions;
    Llm::withoutFeature(fast ? *m_profile.fastEncodeOptions : m_profile.encodeOptions, *feature);
    if (*feature == Llm::RefusedFeature::Temperature)
        m_request.request.temperature.reset();
    // Encoded afresh from the request: the encoded static part may carry what was refused.
    m_request.prefix = {};
    m_request.body.clear();
    emit featureRefused(*feature, model);
    startPart(m_partMaxTokens, m_partContinues ? m_text : QString());
    return true;
}

void AnswerFetch::restartWhole()
{
    log().info("an answer is asked for again whole after its beginning could not be continued ({} parts)", m_parts);
    m_continuable = false;
    m_profile.encodeOptions.continuation = Llm::ContinuationStyle::None; // this answer does not try again
    m_request.opening.reset();                                           // nothing could carry an opening on
    m_openingChars = 0;
    m_text.clear();
    m_held.clear();
    m_contentEvents = 0;
    m_firstTokenNs = -1;
    emit restarted();
    if (m_limit < m_request.request.maxTokens) {
        // Still a guess: the whole answer is fetched once it is wanted.
        m_waiting = true;
        emit waitingForLimit();
        return;
    }
    startPart(m_request.request.maxTokens, {});
}

bool AnswerFetch::retryLater(const Llm::Error &error)
{
    // Only a wanted answer with nothing delivered yet: a guess that fails is a miss, and a
    // continuation or a part after content would restart what the user is reading.
    if (m_speculative || m_partContinues || m_contentEvents > 0 || m_partContent > 0 || !m_text.isEmpty())
        return false;
    // One of several keys was rate-limited and another is free: the same request goes again at
    // once with it (ProviderRequest takes the ring's current key), once per other key at most. Not a
    // back-off retry, so neither counted against the policy nor shown as one.
    const qsizetype otherKeys = Llm::KeyRing::keysOf(m_profile).size() - 1;
    if (m_part && m_part->anotherKeyReady() && m_keySwitches < otherKeys) {
        ++m_keySwitches;
        dropPartUsage(); // a refused request bills nothing
        log().info("{} rate-limited a key; asking again at once with the next one ({} of {} switches)",
                   m_profile.id.toStdString(), m_keySwitches, otherKeys);
        m_retryTimer.start(0);
        return true;
    }
    const auto delay = m_retryPolicy.delayBefore(m_retries + 1, error);
    if (!delay)
        return false;
    ++m_retries;
    dropPartUsage(); // a refused request bills nothing
    log().info("{} refused an answer ({}, HTTP {}); retry {} of {} in {} ms", m_profile.id.toStdString(),
               error.codeName(), error.httpStatus(), m_retries, m_retryPolicy.maxRetries, qint64(delay->count()));
    m_retryTimer.start(*delay); // before the signal: a consumer may cancel from it
    emit retrying(error, *delay, m_retries, m_retryPolicy.maxRetries);
    return true;
}

void AnswerFetch::onPartFailed(const Llm::Error &error)
{
    if (retryLater(error))
        return;
    const bool opening = m_partOpening;
    if (billsNothing(error))
        dropPartUsage();
    else
        addPartUsage();
    if (opening && m_text.isEmpty() && error.code() != Llm::Error::Code::Cancelled) {
        // The fast model could not write the opening (unknown to this account, say): the
        // answer is the main model's alone, asked for now.
        log().warn("{}: the fast model's opening failed before its first token ({}); asking the main model",
                   m_profile.id.toStdString(), error.codeName());
        m_request.opening.reset();
        startPart(m_limit, {});
        return;
    }
    if (retryWithout(error))
        return;
    if (m_partContinues && m_partContent == 0 && isRefusal(error)) {
        log().warn("{} refused to continue an answer ({}); asking for it whole", m_profile.id.toStdString(),
                   error.codeName());
        emit continuationRefused();
        restartWhole();
        return;
    }
    end(error);
}

void AnswerFetch::end(std::optional<Llm::Error> error)
{
    if (m_done)
        return;
    m_done = true;
    m_waiting = false;
    m_retryTimer.stop(); // Stop during a back-off: no request leaves after it
    m_error = error;
    m_finishedNs = Llm::monotonicNowNs();
    QPointer<AnswerFetch> self(this);
    if (!error && !m_finishReason.isEmpty()) {
        Llm::StreamEvent finish;
        finish.type = Llm::StreamEvent::Type::Finish;
        finish.text = m_finishReason;
        emit eventReceived(finish);
        if (!self)
            return;
    }
    if (!m_billed.isEmpty()) {
        Llm::StreamEvent usage;
        usage.type = Llm::StreamEvent::Type::Usage;
        usage.usage = m_billed;
        emit eventReceived(usage);
        if (!self)
            return;
    }
    if (error)
        emit failed(*error);
    else
        emit finished();
}

} // namespace Prefetch
