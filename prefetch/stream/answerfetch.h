#pragma once

#include "prefetch/prompts/prompttemplate.h"
#include "retrypolicy.h"

#include "llm/error.h"
#include "llm/llmtypes.h"
#include "llm/providerprofile.h"
#include "llm/providerrequest.h"
#include "llm/refusal.h"

#include <QObject>
#include <QPointer>
#include <QTimer>

#include <chrono>
#include <optional>

class QNetworkAccessManager;

namespace Prefetch {

// The three streams: Llm::ProviderRequest is one HTTP request to a provider; Prefetch::AnswerFetch
// is one answer over one or more of them (a prefix and its continuation); Prefetch::AnswerReader
// is what a consumer reads that answer from.
//
// One answer, fetched in one request or in several: a speculative request may ask for only the
// beginning of the answer (the real request with a small max_tokens, a *prefix*), and once the
// answer is wanted the rest comes as a *continuation* — the same prompt with the text so far as
// the beginning of the assistant's turn, in the provider's form. What a guess costs is then
// bounded by the request itself, where a paused read bounds nothing: a provider generates, and
// bills, up to the max_tokens it was asked for.
//
// Consumers see one stream: the content events of every part in order, then the last part's
// finish, one usage (every part's, summed: what the provider bills) and finished() or failed().
// The white space a part ends with is not sent as the beginning of the next (providers refuse
// it); the continuation's own copy of it is dropped, so the joined text is what one request
// would have given. When the provider refuses a continuation, or the beginning cannot be
// continued (reasoning, tool calls), the answer is asked for again whole: restarted() tells the
// consumer to drop what it has, and continuationRefused() tells the engine.
//
// A part that ends at the answer's current limit (its prefix) leaves the answer waiting, not
// finished: isWaitingForLimit().
//
// With a fast opening (RenderedRequest::opening, a profile that can continue, one choice), the
// first part asks the fast model for the opening's length and the request's own model continues
// from what it wrote; openingLength() says how much of the text is the fast model's. An opening
// refused before its first token (an unknown model, say) falls back to the main model at once;
// an answer asked for again whole has none.
//
// A wanted (not speculative) answer whose first part fails before any content because the
// provider is busy is asked for again after a back-off (setRetryPolicy()): retrying() says so,
// and cancel() during the wait ends it at once, before another request leaves. Once content
// came, a failure ends the answer with what it has: a half-shown answer is never restarted.
// GUI thread; owned by a PrefetchSession, then an AnswerReader.
class AnswerFetch : public QObject
{
    Q_OBJECT

public:
    AnswerFetch(QNetworkAccessManager *network, Llm::ProviderProfile profile, RenderedRequest request, bool speculative,
                QObject *parent = nullptr);
    ~AnswerFetch() override;

    // Tells the local provider what the request is for (X-Headstart-Purpose: "foreground",
    // "hover", ...), so its bill can be read by purpose. Other providers are not told.
    void setPurpose(const QByteArray &purpose) { m_purpose = purpose; }
    // Starts the first part; the answer may grow to `limit` tokens for now (at most the
    // request's max_tokens: the whole answer).
    void start(int limit);
    // The answer may grow to `limit` now (raised for a stronger signal, or to the request's
    // max_tokens once the user asked): a part that ended at the old limit is continued, one
    // still streaming is continued when it does. `speculative` marks the parts that follow.
    void extend(int limit, bool speculative);
    // Keeps only `tokens` of the first part unless extend() comes before they are in: the
    // part is then closed (the provider stops generating, and billing, when the connection
    // closes) and the answer waits at its limit as if it had asked for that many. A weak guess
    // asks for a stronger one's length and keeps a short prefix of it: a click or a hover that
    // comes while it streams finds an answer that flows on, with no continuation to wait for.
    // 0: none. Call before start().
    void setKeepUnlessExtended(int tokens) { m_keep = tokens; }
    // How a busy provider's refusal is retried while the answer is wanted (never while it is
    // speculative). The default never retries.
    void setRetryPolicy(const RetryPolicy &policy) { m_retryPolicy = policy; }
    // No data for this long fails the part as a timeout; 0: the transport's default.
    void setIdleTimeout(std::chrono::milliseconds timeout) { m_idleTimeout = timeout; }
    // Each request's overall limit (Llm::StreamOptions::overallTimeout); 0: the transport's.
    void setTimeLimit(std::chrono::milliseconds limit) { m_timeLimit = limit; }
    // Aborts the part in flight; failed(Cancelled) unless the answer had ended.
    void cancel();
    // Back-pressure on the part in flight (see Llm::ProviderRequest::setPaused).
    void setPaused(bool paused);
    bool isPaused() const;

    bool isStarted() const { return m_started; }
    bool isDone() const { return m_done; }
    // A part ended at the current limit: the beginning is here, the rest waits for extend().
    bool isWaitingForLimit() const { return m_waiting; }
    int limit() const { return m_limit; }
    bool isSpeculative() const { return m_speculative; }
    std::optional<Llm::Error> error() const { return m_error; }

    const RenderedRequest &request() const { return m_request; }
    const Llm::ProviderProfile &profile() const { return m_profile; }
    // What the provider bills for every part so far (estimated for a part cut before its usage).
    Llm::Usage usage() const;
    // What the provider bills for `billed` (this answer's usage(), or that completed by an
    // estimate) at `priced`'s prices (the engine's profile: prices may change while an answer
    // streams): the fast opening's share at the fast model's, the rest at the request's model's.
    double costOf(const Llm::Usage &billed, const Llm::ProviderProfile &priced) const;
    // The characters of text() the fast model wrote (0: none), its model, and its share of
    // usage().
    qsizetype openingLength() const { return m_openingChars; }
    QString openingModel() const;
    Llm::Usage openingUsage() const;
    // The share of usage() billed for parts sent before the user asked (speculative ones): a
    // guess's prefix whose continuation is the user's answer read the prompt once more, and
    // that is what the early start cost on top of the answer.
    Llm::Usage earlyUsage() const;
    int parts() const { return m_parts; }
    // Requests sent for the answer again after a busy provider refused it.
    int retries() const { return m_retries; }
    // Waiting out the back-off before the next retry.
    bool isWaitingToRetry() const { return m_retryTimer.isActive(); }
    // Content events received (every part): what the answer has, in tokens as the stream counts.
    qsizetype contentEvents() const { return m_contentEvents; }
    // The answer's text so far (choice 0).
    const QString &text() const { return m_text; }
    // The rate the provider sent the answer's pieces at, pieces per second, measured within the
    // parts (not across the wait for a continuation); 0 until a few have come.
    double measuredRate() const;
    // While a continuation is on its way (its part has sent nothing yet): when its first token
    // is due, judged by this answer's own first part (the same provider, prompt and, by now, a
    // warmer cache); -1 otherwise. What a consumer reveals meanwhile can be spread over the wait.
    qint64 continuationDueNs() const;
    // Monotonic ns: the first part started; the first content event; the end. -1 before.
    qint64 startedNs() const { return m_startedNs; }
    qint64 firstTokenNs() const { return m_firstTokenNs; }
    qint64 finishedNs() const { return m_finishedNs; }
    // The part in flight, or the last one (its timestamps, request id). Null before start().
    const Llm::ProviderRequest *currentPart() const { return m_part; }

signals:
    void eventReceived(const Llm::StreamEvent &event);
    // Everything delivered so far is void: the answer starts again from its first token.
    void restarted();
    // A part ended at the limit (see isWaitingForLimit()).
    void waitingForLimit();
    void finished();
    void failed(const Llm::Error &error);
    // The provider refused the answer (`error`); it is asked for again in `delay`, retry
    // number `attempt` of `attempts`. Nothing was delivered yet.
    void retrying(const Llm::Error &error, std::chrono::milliseconds delay, int attempt, int attempts);
    // The provider refused to continue an answer: it cannot, for this model.
    void continuationRefused();
    // A continuation was sent: continuationDueNs() says when its first token is due.
    void continuationStarted();
    // The provider refused a part of the request its model does not take (a temperature, a
    // thinking budget, max_tokens): the answer was asked for again without it, and requests
    // to this model should leave it out from now on.
    void featureRefused(Llm::RefusedFeature feature, const QString &model);

private:
    void startPart(int maxTokens, const QString &continuation);
    void onEvent(const Llm::StreamEvent &event);
    void onPartFinished();
    void onPartFailed(const Llm::Error &error);
    bool retryLater(const Llm::Error &error);
    void continueOrWait();
    void closeAtKeep();
    void restartWhole();
    // Asks for the part again without a feature the provider refused; false when that cannot
    // help (text came already, or it was left out before).
    bool retryWithout(const Llm::Error &error);
    void end(std::optional<Llm::Error> error);
    void addPartUsage();
    // Forgets the part's estimate: the provider refused it and bills nothing.
    void dropPartUsage();
    bool canContinue() const;
    int outputSoFar() const;
    // The part in flight's usage as its stream reported it, estimated where it did not (yet):
    // the prompt it asked, the content events it sent.
    Llm::Usage partUsage() const;

    QPointer<QNetworkAccessManager> m_network;
    QByteArray m_purpose;
    Llm::ProviderProfile m_profile;
    RenderedRequest m_request;
    bool m_speculative;
    QPointer<Llm::ProviderRequest> m_part;
    int m_parts = 0;
    int m_limit = 0;
    int m_keep = 0;               // see setKeepUnlessExtended()
    int m_partMaxTokens = 0;      // the max_tokens the part in flight asked for
    int m_partContent = 0;        // content events of the part in flight
    bool m_partContinues = false; // the part in flight is a continuation
    bool m_partOpening = false;   // the part in flight is the fast model's opening
    qsizetype m_openingChars = 0; // of m_text, the fast model's
    Llm::Usage m_openingBilled;   // the opening's part, once done (also in m_billed)
    Llm::Usage m_earlyBilled;     // the speculative parts, once done (also in m_billed)
    bool m_started = false;
    bool m_waiting = false;
    bool m_done = false;
    bool m_continuable = true;            // nothing yet that a continuation could not carry on
    QList<Llm::RefusedFeature> m_refused; // left out of this answer after a refusal
    std::optional<Llm::Error> m_error;
    RetryPolicy m_retryPolicy{.maxRetries = 0};
    int m_retries = 0;
    int m_keySwitches = 0; // immediate retries on another key after a 429 (Llm::KeyRing)
    std::chrono::milliseconds m_idleTimeout{0};
    std::chrono::milliseconds m_timeLimit{0};
    QTimer m_retryTimer; // the back-off before the next retry
    QString m_text;
    QString m_held;         // white space the last part ended with, not sent as the beginning
    QString m_finishReason; // of the last part
    Llm::Usage m_billed;    // the parts before the one in flight
    Llm::Usage m_partUsage; // the part in flight, as its stream reports it
    qsizetype m_contentEvents = 0;
    qint64 m_startedNs = -1;
    qint64 m_firstTokenNs = -1;
    qint64 m_finishedNs = -1;
    qint64 m_partStartedNs = -1; // the part in flight was sent
    qint64 m_partFirstNs = -1;   // the part in flight's first and last content event
    qint64 m_partLastNs = -1;
    qint64 m_rateSpanNs = 0;   // the parts before it: time between their first and last piece
    qsizetype m_rateSteps = 0; // and the pieces after their first
};

} // namespace Prefetch
