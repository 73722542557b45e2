#include "server.h"

#include "chatrequest.h"
#include "flood.h"
#include "generation.h"
#include "httpconnection.h"
#include "log.h"
#include "prompt.h"
#include "serverstate.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTcpServer>
#include <QTcpSocket>
#include <QTimer>

#include <spdlog/spdlog.h>

#include <chrono>

namespace LocalProvider {

namespace {

// A feature the request uses that the fault says the model refuses, in the words the providers
// use (quoted in docs/providers.md, "Models and what each accepts"); nullopt: none.
std::optional<ApiError> refusalOf(const FaultSpec &fault, const LatencyProfile &profile, const ChatRequest &chat)
{
    const bool anthropic = chat.api == Api::Anthropic;
    // A provider profile whose model cannot continue (Claude 4.6 and later) refuses it always.
    if ((fault.refusePrefill || profile.refusesContinuation) && chat.prefill)
        return ApiError::make(400, anthropic
                                       ? QStringLiteral("This model does not support assistant message prefill. "
                                                        "The conversation must end with a user message.")
                                       : QStringLiteral("The last message must be a user message; this model does "
                                                        "not continue an assistant message."));
    if (fault.refuseTemperature && chat.temperatureGiven)
        return ApiError::make(400, QStringLiteral("`temperature` is deprecated for this model."), {}, "temperature");
    if (fault.refuseThinkingBudget && chat.thinkingBudgetField)
        return ApiError::make(400, QStringLiteral("\"thinking.type.enabled\" is not supported for this model. Use "
                                                  "\"thinking.type.adaptive\" and \"output_config.effort\" to control "
                                                  "thinking behavior."));
    if (fault.refuseMaxTokens && chat.maxTokensField)
        return ApiError::make(400,
                              QStringLiteral("Unsupported parameter: 'max_tokens' is not supported with this model. "
                                             "Use 'max_completion_tokens' instead."),
                              "unsupported_parameter", "max_tokens");
    return std::nullopt;
}

constexpr int MaxConnections = 1024;
// The main model, a reasoning model that thinks before it answers (DeepSeek's
// deepseek-reasoner), and the small one.
const QStringList Models{QStringLiteral("headstart-local"), QStringLiteral("headstart-local-reasoner"),
                         QStringLiteral("headstart-local-small")};

qint64 nowNs()
{
    return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch())
        .count();
}

bool isAnthropicPath(QByteArrayView path)
{
    return path == "/v1/messages" || path == "/messages";
}

// Compares without an early exit, so the time taken does not reveal how much of a key matched.
bool sameSecret(QByteArrayView a, QByteArrayView b)
{
    if (a.size() != b.size())
        return false;
    unsigned char diff = 0;
    for (qsizetype i = 0; i < a.size(); ++i)
        diff |= static_cast<unsigned char>(a[i] ^ b[i]);
    return diff == 0;
}

QJsonObject openAiModel(const QString &id)
{
    return QJsonObject{{QStringLiteral("id"), id},
                       {QStringLiteral("object"), QStringLiteral("model")},
                       {QStringLiteral("created"), 1735689600},
                       {QStringLiteral("owned_by"), QStringLiteral("headstart")}};
}

QJsonObject anthropicModel(const QString &id)
{
    return QJsonObject{{QStringLiteral("type"), QStringLiteral("model")},
                       {QStringLiteral("id"), id},
                       {QStringLiteral("display_name"), id},
                       {QStringLiteral("created_at"), QStringLiteral("2025-01-01T00:00:00Z")}};
}

// Request ids are echoed and logged: only short, plain ones are taken as given.
bool isPlainId(QByteArrayView id)
{
    if (id.isEmpty() || id.size() > 200)
        return false;
    for (char c : id) {
        const bool plain = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')
                           || QByteArrayView("-_.:/+=").contains(c);
        if (!plain)
            return false;
    }
    return true;
}

// X-Headstart-Purpose: a short lowercase token ("hover", "warmup"), so that it can key the stats
// and be logged as it is.
bool isPurpose(QByteArrayView purpose)
{
    if (purpose.isEmpty() || purpose.size() > 32)
        return false;
    for (char c : purpose) {
        if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-'))
            return false;
    }
    return true;
}

QJsonObject billedJson(const BilledTokens &b)
{
    return QJsonObject{{QStringLiteral("input_uncached"), b.inputUncached},
                       {QStringLiteral("cache_read"), b.cacheRead},
                       {QStringLiteral("cache_write"), b.cacheWrite},
                       {QStringLiteral("output"), b.output}};
}

QJsonObject statsJson(const Stats &s)
{
    QJsonObject byPurpose;
    for (auto it = s.billedByPurpose.cbegin(); it != s.billedByPurpose.cend(); ++it)
        byPurpose.insert(it.key(), billedJson(it.value()));
    QJsonObject billed = billedJson(s.billed);
    billed.insert(QStringLiteral("by_purpose"), byPurpose);
    QJsonObject byModel;
    for (auto it = s.billedByModel.cbegin(); it != s.billedByModel.cend(); ++it)
        byModel.insert(it.key(), billedJson(it.value()));
    billed.insert(QStringLiteral("by_model"), byModel);
    return QJsonObject{
        {QStringLiteral("requests_served"), s.requestsServed},
        {QStringLiteral("prefetch_requests"), s.prefetchRequests},
        {QStringLiteral("streams_open"), s.streamsOpen},
        {QStringLiteral("streams_cancelled"), s.streamsCancelled},
        {QStringLiteral("streams_completed"), s.streamsCompleted},
        {QStringLiteral("requests_rejected"), s.requestsRejected},
        {QStringLiteral("tokens_generated"), s.tokensGenerated},
        {QStringLiteral("prompt_tokens"), s.promptTokens},
        {QStringLiteral("cache_hit_tokens"), s.cacheHitTokens},
        {QStringLiteral("flood_bytes"), s.floodBytes},
        {QStringLiteral("billed"), billed},
    };
}

ApiError contextTooLong(Api api, int promptTokens, int completionTokens, int maximum)
{
    const int requested = qMax(promptTokens + completionTokens, maximum + 1);
    if (api == Api::Anthropic) {
        return ApiError::make(400,
                              QStringLiteral("prompt is too long: %1 tokens > %2 maximum").arg(requested).arg(maximum));
    }
    return ApiError::make(400,
                          QStringLiteral("This model's maximum context length is %1 tokens. However, you requested %2 "
                                         "tokens (%3 in the messages, %4 in the completion). Please reduce the length "
                                         "of the messages or completion.")
                              .arg(maximum)
                              .arg(requested)
                              .arg(requested - completionTokens)
                              .arg(completionTokens),
                          "context_length_exceeded", "messages");
}

} // namespace

Server::Server(ServerConfig config, QObject *parent)
    : QObject(parent)
    , m_state(std::make_unique<ServerState>(std::move(config)))
    , m_tcpServer(new QTcpServer(this))
{
    // Bursts of connections (benchmarks) must not overflow the kernel's accept queue.
    m_tcpServer->setListenBacklogSize(1024);
    m_tcpServer->setMaxPendingConnections(MaxConnections);
    connect(m_tcpServer, &QTcpServer::newConnection, this, &Server::onNewConnection);
}

Server::~Server()
{
    // Generations release their slots into m_state on destruction: delete them while it exists.
    const QList<HttpConnection *> connections = findChildren<HttpConnection *>(Qt::FindDirectChildrenOnly);
    qDeleteAll(connections);
}

bool Server::listen(const QHostAddress &address, quint16 port)
{
    if (!m_tcpServer->listen(address, port))
        return false;
    QString host = address.toString();
    if (address == QHostAddress::Any || address == QHostAddress::AnyIPv4)
        host = QStringLiteral("127.0.0.1");
    else if (address == QHostAddress::AnyIPv6)
        host = QStringLiteral("::1");
    QUrl url;
    url.setScheme(QStringLiteral("http"));
    url.setHost(host);
    url.setPort(m_tcpServer->serverPort());
    url.setPath(QStringLiteral("/"));
    m_url = url;
    return true;
}

QString Server::errorString() const
{
    return m_tcpServer->errorString();
}

QUrl Server::url() const
{
    return m_url;
}

Stats Server::stats() const
{
    return m_state->stats();
}

qint64 Server::firstTokenWrittenNs(const QByteArray &requestId) const
{
    return m_state->firstTokenWrittenNs(requestId);
}

ReceivedRequests Server::receivedRequests() const
{
    return m_state->receivedRequests();
}

void Server::onNewConnection()
{
    while (QTcpSocket *socket = m_tcpServer->nextPendingConnection()) {
        if (m_connections >= MaxConnections) {
            socket->abort();
            socket->deleteLater();
            continue;
        }
        ++m_connections;
        auto *connection = new HttpConnection(socket, this);
        connect(connection, &HttpConnection::requestReceived, this, &Server::onRequest);
        connect(connection, &HttpConnection::closed, this, [this](HttpConnection *closed) {
            --m_connections;
            closed->deleteLater();
        });
    }
}

void Server::respond(HttpConnection *connection, const HttpRequest &request, int status, QByteArrayView contentType,
                     const QByteArray &body, qint64 startNs, bool quiet)
{
    connection->sendResponse(status, contentType, body);
    const auto level = quiet ? spdlog::level::debug : spdlog::level::info;
    log().log(level, "{} {} {} {} bytes {} ms", request.method.constData(), request.path.left(200).constData(), status,
              body.size(), (nowNs() - startNs) / 1000000);
}

void Server::respondError(HttpConnection *connection, const HttpRequest &request, const ApiError &error, qint64 startNs)
{
    HttpHeaders headers;
    if (error.retryAfterSec >= 0)
        headers.append({"Retry-After", QByteArray::number(error.retryAfterSec)});
    if (error.status == 405) {
        const QByteArray allow = request.path == "/health" || request.path == "/stats"
                                         || request.path.contains("/models")
                                     ? "GET"
                                     : "POST";
        headers.append({"Allow", allow});
    }
    const QByteArray body = isAnthropicPath(request.path) ? error.anthropicBody() : error.openAiBody();
    connection->sendResponse(error.status, "application/json", body, headers);
    log().info("{} {} {} {} ms", request.method.constData(), request.path.left(200).constData(), error.status,
               (nowNs() - startNs) / 1000000);
}

void Server::reject(HttpConnection *connection, const HttpRequest &request, const ApiError &error, int delayMs,
                    qint64 startNs)
{
    m_state->updateStats([](Stats &s) { ++s.requestsRejected; });
    if (delayMs <= 0)
        return respondError(connection, request, error, startNs);
    // Errors, too, take a network round trip. `connection` as context: if the client leaves
    // first, there is nobody to answer. The body (up to 64 MiB) is not needed for the answer.
    HttpRequest head;
    head.method = request.method;
    head.path = request.path;
    QTimer::singleShot(delayMs, connection,
                       [this, connection, head, error, startNs] { respondError(connection, head, error, startNs); });
}

std::optional<QString> Server::authorizedKey(const HttpRequest &request) const
{
    const ServerConfig &config = m_state->config();
    if (config.apiKey.isEmpty())
        return QString();
    const QByteArray authorization = request.header("authorization");
    const QByteArray given = authorization.startsWith("Bearer ") ? authorization.mid(7).trimmed()
                                                                 : request.header("x-api-key");
    // Every accepted key is compared, whichever matches, so the time taken says nothing of which.
    std::optional<QString> matched;
    for (const QString &key : QStringList{config.apiKey} + config.moreApiKeys) {
        if (sameSecret(given, key.toUtf8()) && !matched)
            matched = key;
    }
    return matched;
}

void Server::onRequest(HttpConnection *connection, const HttpRequest &request)
{
    const qint64 startNs = nowNs();
    if (request.protocolError) {
        m_state->updateStats([](Stats &s) { ++s.requestsRejected; });
        return respondError(connection, request, ApiError::make(request.protocolError, request.protocolErrorMessage),
                            startNs);
    }
    const QByteArray &path = request.path;
    const bool get = request.method == "GET";
    const bool post = request.method == "POST";
    const auto methodNotAllowed = [&] {
        respondError(connection, request,
                     ApiError::make(405,
                                    QStringLiteral("Method %1 is not allowed on %2.")
                                        .arg(QString::fromLatin1(request.method), QString::fromUtf8(path)),
                                    "method_not_allowed"),
                     startNs);
    };

    if (path == "/health") {
        if (!get)
            return methodNotAllowed();
        return respond(connection, request, 200, "text/plain; charset=utf-8", "ok", startNs, true);
    }
    if (path == "/stats") {
        if (!get)
            return methodNotAllowed();
        return respond(connection, request, 200, "application/json",
                       QJsonDocument(statsJson(m_state->stats())).toJson(QJsonDocument::Compact), startNs, true);
    }
    if (path == "/v1/models" || path == "/models" || path.startsWith("/v1/models/") || path.startsWith("/models/")) {
        if (!get)
            return methodNotAllowed();
        return handleModels(connection, request, startNs);
    }
    if (path == "/v1/chat/completions" || path == "/chat/completions") {
        if (!post)
            return methodNotAllowed();
        return handleGeneration(connection, request, Api::OpenAi, startNs);
    }
    if (isAnthropicPath(path)) {
        if (!post)
            return methodNotAllowed();
        return handleGeneration(connection, request, Api::Anthropic, startNs);
    }
    respondError(connection, request,
                 ApiError::make(404, QStringLiteral("Unknown path %1.").arg(QString::fromUtf8(path.left(200))),
                                "not_found"),
                 startNs);
}

void Server::handleModels(HttpConnection *connection, const HttpRequest &request, qint64 startNs)
{
    if (!authorizedKey(request))
        return respondError(connection, request, ApiError::forStatus(401, {}), startNs);
    // Anthropic clients send anthropic-version; they expect Anthropic's list format.
    const bool anthropic = !request.header("anthropic-version").isEmpty();
    const qsizetype slash = request.path.lastIndexOf('/');
    const QString id = QString::fromUtf8(request.path.mid(slash + 1));
    if (id != u"models") {
        if (!Models.contains(id))
            return respondError(connection, request, ApiError::forStatus(404, id), startNs);
        const QJsonObject model = anthropic ? anthropicModel(id) : openAiModel(id);
        return respond(connection, request, 200, "application/json",
                       QJsonDocument(model).toJson(QJsonDocument::Compact), startNs);
    }
    QJsonArray data;
    for (const QString &model : Models)
        data.append(anthropic ? anthropicModel(model) : openAiModel(model));
    QJsonObject list;
    if (anthropic) {
        list = {{QStringLiteral("data"), data},
                {QStringLiteral("has_more"), false},
                {QStringLiteral("first_id"), Models.first()},
                {QStringLiteral("last_id"), Models.last()}};
    } else {
        list = {{QStringLiteral("object"), QStringLiteral("list")}, {QStringLiteral("data"), data}};
    }
    respond(connection, request, 200, "application/json", QJsonDocument(list).toJson(QJsonDocument::Compact), startNs);
}

void Server::handleGeneration(HttpConnection *connection, const HttpRequest &request, Api api, qint64 startNs)
{
    // A gateway can tell speculative traffic by this marker; counting it lets tests check the
    // client sends it.
    const bool prefetch = request.header("x-prefetch") == "1";
    m_state->updateStats([prefetch](Stats &s) {
        ++s.requestsServed;
        if (prefetch)
            ++s.prefetchRequests;
    });
    // As it arrived, before anything can refuse it: what the client sent is the point.
    m_state->keepRequest({request.path, request.header("x-headstart-purpose"), prefetch, request.body});

    QString purpose = QStringLiteral("unmarked");
    if (const QByteArray value = request.header("x-headstart-purpose"); !value.isEmpty()) {
        if (!isPurpose(value)) {
            return reject(connection, request,
                          ApiError::make(400, QStringLiteral("X-Headstart-Purpose: expected 1 to 32 characters of "
                                                             "[a-z0-9-], such as \"hover\".")),
                          0, startNs);
        }
        purpose = QString::fromLatin1(value);
    }

    LatencyProfile profile = m_state->config().profile;
    if (const QByteArray name = request.header("x-headstart-profile"); !name.isEmpty()) {
        const auto named = LatencyProfile::byName(QString::fromLatin1(name));
        if (!named) {
            return reject(connection, request,
                          ApiError::make(400, QStringLiteral("X-Headstart-Profile: unknown profile \"%1\"; known: %2.")
                                                  .arg(QString::fromLatin1(name), LatencyProfile::names().join(u", "))),
                          0, startNs);
        }
        profile = *named;
    }
    if (const QByteArray spec = request.header("x-headstart-latency"); !spec.isEmpty()) {
        const auto tuned = profile.withOverrides(QString::fromLatin1(spec));
        if (!tuned)
            return reject(connection, request,
                          ApiError::make(400, QStringLiteral("X-Headstart-Latency: ") + tuned.error()), 0, startNs);
        profile = *tuned;
    }
    FaultSpec fault = m_state->fault();
    QString faultText = m_state->config().fault;
    if (const QByteArray spec = request.header("x-headstart-fault"); !spec.isEmpty()) {
        const auto parsed = FaultSpec::parse(QString::fromLatin1(spec));
        if (!parsed)
            return reject(connection, request,
                          ApiError::make(400, QStringLiteral("X-Headstart-Fault: ") + parsed.error()), 0, startNs);
        fault = fault.mergedWith(*parsed);
        faultText = QString::fromLatin1(spec);
    }
    if (fault.failFirst >= 0 && !fault.isEmpty()
        && !m_state->countFaulted(fault.failFirstKey.isEmpty() ? faultText : fault.failFirstKey, fault.failFirst))
        fault = FaultSpec{}; // past the first N: served as if no fault had been asked for
    const int rtt = profile.rttMs;

    const std::optional<QString> key = authorizedKey(request);
    if (!key) {
        ApiError error = ApiError::forStatus(401, {});
        if (api == Api::Anthropic)
            error.message = QStringLiteral("invalid x-api-key");
        return reject(connection, request, error, rtt, startNs);
    }
    if (const auto keyFault = m_state->config().keyFaults.constFind(*key);
        keyFault != m_state->config().keyFaults.cend())
        fault = fault.mergedWith(*keyFault);

    auto parsed = api == Api::OpenAi ? ChatRequest::fromOpenAi(request.body) : ChatRequest::fromAnthropic(request.body);
    if (!parsed)
        return reject(connection, request, parsed.error(), rtt, startNs);
    ChatRequest chat = std::move(*parsed);

    if (fault.status) {
        ApiError error = ApiError::forStatus(fault.status, chat.model);
        error.retryAfterSec = fault.retryAfterSec;
        return reject(connection, request, error, rtt, startNs);
    }
    if (const std::optional<ApiError> refusal = refusalOf(fault, profile, chat))
        return reject(connection, request, *refusal, rtt, startNs);
    if (fault.flood != FaultSpec::Flood::None) {
        auto *flood = new Flood(connection, *m_state, fault.flood, api, chat.model);
        flood->start();
        return;
    }
    if (!Models.contains(chat.model)) {
        ApiError error = ApiError::forStatus(404, chat.model);
        if (api == Api::Anthropic)
            error.message = QStringLiteral("model: %1").arg(chat.model);
        return reject(connection, request, error, rtt, startNs);
    }

    if (chat.model == u"headstart-local-small")
        profile = profile.forSmallModel();
    Prompt prompt(chat, profile.cacheBlockTokens);
    const int completion = chat.maxTokens;
    if (fault.contextTooLong || static_cast<qint64>(prompt.tokenCount()) + completion > profile.contextTokens)
        return reject(connection, request, contextTooLong(api, prompt.tokenCount(), completion, profile.contextTokens),
                      rtt, startNs);

    // The provider's rate limits per minute (LatencyProfile::requestsPerMinute and
    // inputTokensPerMinute): past them a 429 with the seconds until the window has room.
    if (const std::optional<int> wait = m_state->admitRate(profile, prompt.tokenCount())) {
        ApiError error = ApiError::make(429,
                                        QStringLiteral("Rate limit reached: too many requests or input tokens per "
                                                       "minute for this model. Please try again later."),
                                        "rate_limit_exceeded");
        error.retryAfterSec = *wait;
        return reject(connection, request, error, rtt, startNs);
    }

    const int maxStreams = m_state->config().maxConcurrentStreams;
    if (chat.stream && maxStreams > 0 && m_state->stats().streamsOpen >= maxStreams) {
        ApiError error = ApiError::make(429, QStringLiteral("Too many concurrent streams (limit %1).").arg(maxStreams),
                                        "rate_limit_exceeded");
        error.retryAfterSec = 1;
        return reject(connection, request, error, rtt, startNs);
    }

    QByteArray requestId = request.header("x-request-id");
    if (!isPlainId(requestId))
        requestId = "req_" + QByteArray::number(m_state->nextSerial());
    Generation::Setup setup{std::move(chat), profile, fault, requestId, request.path, purpose, startNs};
    auto *generation = new Generation(connection, *m_state, std::move(setup), std::move(prompt));
    generation->start();
}

} // namespace LocalProvider
