#pragma once

#include "error.h"
#include "llmtypes.h"
#include "providerprofile.h"
#include "sseparser.h"
#include "streamdecoder.h"

#include <QNetworkRequest>
#include <QObject>
#include <QPointer>
#include <QTimer>

#include <chrono>
#include <memory>
#include <optional>

class QNetworkAccessManager;
class QNetworkReply;

namespace Llm {

// How much of a response is read before the stream fails as malformed. Generous for any real
// answer, small against a server that never stops: the answer is bounded by the request's own
// max_tokens, not by what the server chooses to send.
struct ResponseLimits {
    // Characters of answer (text, refusal, tool calls' names and arguments) per token of
    // max_tokens. A token is about 4 characters of English and 1-2 of Chinese; a run of
    // white space or of one symbol can be 16 or more. An average of 24 over a whole answer is
    // out of reach for a real model.
    int charsPerToken = 24;
    // Added to every answer's allowance: a one-token warm-up still reads its whole first event.
    qsizetype marginChars = 4096;
    // Reasoning the model does before its answer, in tokens, beyond max_tokens: the current
    // providers count it inside max_tokens (docs/providers.md), older reasoning servers did not.
    int reasoningTokens = 32768;
    // Events that carry no answer (usage, finish), beyond one per answer event.
    int otherEvents = 256;
    // An HTTP error's body: read up to this, then the connection is closed and the error
    // reported from what was read.
    qsizetype errorBodyBytes = 64 * 1024;
};

struct StreamOptions {
    // A prefetch uses the profile's prefetch key when it has one, and tells gateways that it is
    // speculative (`X-Prefetch: 1`, low request priority).
    bool prefetch = false;
    // Unset: the profile's (ProviderProfile::timeouts, which the user sets per provider).
    std::optional<std::chrono::milliseconds> connectTimeout;
    std::optional<std::chrono::milliseconds> firstByteTimeout;
    std::optional<std::chrono::milliseconds> idleTimeout;
    // The whole request, however the server paces it (keep-alives included); 0: none. Time
    // spent paused by the consumer is not counted.
    std::chrono::milliseconds overallTimeout{600'000};
    // Response headers larger than this fail the stream (Qt 6.4 has no limit of its own).
    qsizetype maxHeaderBytes = 64 * 1024;
    // Same-origin redirects followed; a redirect to another origin is always refused.
    int maxRedirects = 3;
    QByteArray requestId; // sent as X-Request-Id; a process-unique one is made when empty
    QList<QPair<QByteArray, QByteArray>> extraHeaders;
    // What one response may hold before it is cut (docs/reliability.md, "Bounds"): a server
    // that streams without end fails the stream within a bounded amount of memory.
    ResponseLimits limits;
    // How much the reply may hold unread while paused; beyond it TCP flow control stops the
    // sender. A prefetch paused at its cap keeps this much per session, so it uses less.
    qint64 readBufferBytes = 64 * 1024;
    // A body already encoded for the profile's format (a rendered prompt template, whose static
    // prefix was encoded once): sent as is instead of encoding the ChatRequest, which then only
    // describes the request (stream or not, for logs and consumers). Empty: encode the request.
    QByteArray encodedBody;
};

// The three streams: Llm::ProviderRequest is one HTTP request to a provider; Prefetch::AnswerFetch
// is one answer over one or more of them (a prefix and its continuation); Prefetch::AnswerReader
// is what a consumer reads that answer from.
//
// One streamed chat request over a QNetworkReply.
//
// Lives in the thread of its QNetworkAccessManager (the GUI thread in the app); owns its
// reply and deletes it when done. Decoded events are emitted as bytes arrive. Exactly one
// terminal signal follows start(): finished() on a complete answer, failed() otherwise,
// cancel() included (Error::Code::Cancelled). The text received before a failure stays
// available through text().
class ProviderRequest : public QObject
{
    Q_OBJECT

public:
    enum class State { Idle, Connecting, Waiting, Streaming, Finished, Failed };

    // Monotonic nanoseconds (Llm::monotonicNowNs); -1 where the moment has not happened.
    struct Timestamps {
        qint64 started = -1;
        qint64 requestSent = -1;
        qint64 headers = -1;
        qint64 firstByte = -1;
        qint64 firstTokenRead = -1; // when the bytes holding the first token were read
        qint64 firstToken = -1;     // when the first token was emitted
        qint64 finished = -1;
    };

    ProviderRequest(QNetworkAccessManager *network, ProviderProfile profile, ChatRequest request,
                    StreamOptions options = {}, QObject *parent = nullptr);
    ~ProviderRequest() override;

    void start();
    // Aborts the connection; emits failed(Cancelled) unless already finished or failed.
    void cancel();
    // Back-pressure: while paused nothing is read, the reply's bounded buffer fills and TCP
    // flow control stops the sender. Events already decoded are not withheld.
    void setPaused(bool paused);
    bool isPaused() const { return m_paused; }

    State state() const { return m_state; }
    bool isDone() const { return m_state == State::Finished || m_state == State::Failed; }
    const Timestamps &timestamps() const { return m_times; }
    const ProviderProfile &profile() const { return m_profile; }
    const ChatRequest &request() const { return m_request; }
    QByteArray requestId() const { return m_options.requestId; }
    bool isPrefetch() const { return m_options.prefetch; }

    // Accumulated answer of choice 0 (partial after a failure).
    QString text() const { return m_text; }
    QString reasoning() const { return m_reasoning; }
    QString finishReason() const { return m_finishReason; }
    Usage usage() const { return m_usage; }
    std::optional<Error> error() const { return m_error; }
    int httpStatus() const { return m_httpStatus; }
    qint64 bytesReceived() const { return m_bytesReceived; }
    qint64 eventCount() const { return m_eventCount; }
    // After a 429 on one of several main keys: another key is there to use now (Llm::KeyRing),
    // so the same request may go again at once instead of after a back-off.
    bool anotherKeyReady() const { return m_anotherKeyReady; }

signals:
    void headersReceived(int httpStatus);
    void eventReceived(const Llm::StreamEvent &event);
    void finished();
    void failed(const Llm::Error &error);

private:
    enum class Phase { Connect, FirstByte, Idle };

    void onReadyRead();
    void onReplyFinished();
    void onMetaDataChanged();
    void onTimeout();
    void onOverallTimeout();
    void onRedirect(const QUrl &target);
    void post(const QUrl &url);
    bool checkResponseHeaders(); // false when it failed the stream
    void drain();
    bool deliver(QList<SseEvent> &events); // false when a terminal state was reached meanwhile
    void armTimer(Phase phase);
    // Counts a decoded event against options.limits; false (the stream failed) past them.
    bool withinLimits(const StreamEvent &event);
    void failFromErrorBody(bool abortReply);
    void completeFromReply();
    void fail(Error error, bool abortReply);
    void succeed();
    void releaseReply(bool abort);
    Error networkError() const;
    // "host:port" of the proxy the request went through; empty when it went direct.
    QString proxyInUse() const;

    QPointer<QNetworkAccessManager> m_network;
    ProviderProfile m_profile;
    ChatRequest m_request;
    QString m_key;             // the key this request sends, until it ends
    bool m_usesMainKey = true; // not the prefetch key
    bool m_anotherKeyReady = false;
    StreamOptions m_options;
    QNetworkReply *m_reply = nullptr;
    std::unique_ptr<StreamDecoder> m_decoder;
    SseParser m_parser;
    QTimer m_timer;
    QTimer m_overallTimer;
    qint64 m_overallRemainingMs = -1; // while paused
    QNetworkRequest m_netRequest;     // kept with the body to follow a same-origin redirect
    QByteArray m_body;
    QUrl m_currentUrl; // where the request went last (after redirects)
    int m_redirects = 0;
    int m_sends = 0;
    Phase m_phase = Phase::Connect;
    State m_state = State::Idle;
    Timestamps m_times;
    QString m_text;
    QString m_reasoning;
    QString m_finishReason;
    Usage m_usage;
    std::optional<Error> m_error;
    std::optional<Error> m_pendingTimeout;
    QByteArray m_errorBody; // HTTP error responses are collected, not parsed as SSE
    int m_httpStatus = 0;
    qint64 m_bytesReceived = 0;
    qint64 m_lastReadNs = -1;
    qint64 m_eventCount = 0;
    qint64 m_contentEvents = 0;
    qint64 m_otherEvents = 0;
    qint64 m_contentChars = 0;   // every choice's answer
    qint64 m_reasoningChars = 0; // every choice's reasoning
    bool m_paused = false;
    bool m_replyFinished = false; // finished arrived while paused; completed on resume
};

} // namespace Llm
