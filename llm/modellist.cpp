#include "modellist.h"

#include "log.h"
#include "modelcatalog.h"
#include "secrets.h"

#include <QCoreApplication>
#include <QDate>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QJsonParseError>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QNetworkRequest>
#include <QTimer>

#include <spdlog/spdlog.h>

#include <algorithm>

namespace Llm {

namespace {

// A list is one small JSON answer; a server that takes longer than this is not going to send it.
constexpr int ListTimeoutMs = 20'000;
// OpenRouter lists a few hundred models in about 1 MB; far beyond that it is not a model list.
constexpr qint64 MaxListBytes = 16 * 1024 * 1024;

QString translate(const char *text)
{
    return QCoreApplication::translate("Llm::ModelListFetch", text);
}

} // namespace

QUrl modelListUrl(const ProviderProfile &profile)
{
    QUrl url = profile.baseUrl;
    QString path = url.path();
    if (!path.endsWith(QLatin1Char('/')))
        path += QLatin1Char('/');
    url.setPath(path + QLatin1String("models"));
    return url;
}

std::expected<QStringList, QString> parseModelList(QByteArrayView body)
{
    QJsonParseError error;
    const QJsonDocument doc = QJsonDocument::fromJson(body.toByteArray(), &error);
    if (error.error != QJsonParseError::NoError)
        return std::unexpected(QStringLiteral("not JSON (%1 at byte %2)").arg(error.errorString()).arg(error.offset));
    const QJsonValue data = doc.object().value(u"data");
    if (!doc.isObject() || !data.isArray())
        return std::unexpected(QStringLiteral("no \"data\" list"));
    QStringList ids;
    for (const QJsonValue &entry : data.toArray()) {
        const QString id = entry.toObject().value(u"id").toString().trimmed();
        if (!id.isEmpty())
            ids.append(id);
    }
    if (ids.isEmpty() && !data.toArray().isEmpty())
        return std::unexpected(QStringLiteral("no entry of \"data\" has an \"id\""));
    std::sort(ids.begin(), ids.end());
    ids.erase(std::unique(ids.begin(), ids.end()), ids.end());
    return ids;
}

ModelListFetch::ModelListFetch(QNetworkAccessManager *network, ProviderProfile profile, QObject *parent)
    : QObject(parent)
    , m_network(network)
    , m_profile(std::move(profile))
{
}

ModelListFetch::~ModelListFetch()
{
    if (m_reply) {
        m_reply->disconnect(this);
        m_reply->abort();
        m_reply->deleteLater();
    }
}

void ModelListFetch::failLater(const Error &error)
{
    QMetaObject::invokeMethod(
        this, [this, error] { emit failed(error); }, Qt::QueuedConnection);
}

void ModelListFetch::start()
{
    if (m_reply)
        return;
    const QUrl url = modelListUrl(m_profile);
    if (!m_network) {
        failLater(
            Error(Error::Code::InvalidRequest, m_profile.displayName, QStringLiteral("no network access manager")));
        return;
    }
    if (!m_profile.baseUrl.isValid() || url.host().isEmpty()
        || (url.scheme() != QLatin1String("http") && url.scheme() != QLatin1String("https"))) {
        failLater(Error(Error::Code::InvalidRequest, m_profile.displayName,
                        translate("The base URL is not set or not an http(s) URL.")));
        return;
    }
    if (isInsecureRemote(url) && !m_profile.allowInsecureHttp) {
        failLater(Error(Error::Code::InsecureHttp, m_profile.displayName, url.host()));
        return;
    }
    if (m_profile.needsApiKey() && m_profile.apiKey.isEmpty()) {
        failLater(Error(Error::Code::MissingKey, m_profile.displayName));
        return;
    }

    QNetworkRequest req(url);
    req.setRawHeader("Accept", "application/json");
    req.setAttribute(QNetworkRequest::RedirectPolicyAttribute, QNetworkRequest::ManualRedirectPolicy);
    req.setAttribute(QNetworkRequest::CacheLoadControlAttribute, QNetworkRequest::AlwaysNetwork);
    req.setTransferTimeout(ListTimeoutMs);
    // The main key, never the prefetch key: listing models is something the user asked for.
    Secrets::remember(m_profile.apiKey);
    if (m_profile.format == ApiFormat::AnthropicMessages) {
        req.setRawHeader("anthropic-version", "2023-06-01");
        if (!m_profile.apiKey.isEmpty())
            req.setRawHeader("x-api-key", m_profile.apiKey.toUtf8());
    } else if (!m_profile.apiKey.isEmpty()) {
        req.setRawHeader("Authorization", "Bearer " + m_profile.apiKey.toUtf8());
    }
    for (const auto &[name, value] : m_profile.extraHeaders) {
        Secrets::remember(QString::fromUtf8(value));
        req.setRawHeader(name, value);
    }

    m_reply = m_network->get(req);
    connect(m_reply, &QNetworkReply::finished, this, &ModelListFetch::onFinished);
    connect(m_reply, &QNetworkReply::downloadProgress, this, [this](qint64 received, qint64) {
        if (received > MaxListBytes && m_reply)
            m_reply->abort();
    });
    log().debug("model list: GET {}", url.host().toStdString());
}

void ModelListFetch::cancel()
{
    if (!m_reply)
        return;
    m_reply->abort(); // finished() follows, as Cancelled
}

void ModelListFetch::onFinished()
{
    QNetworkReply *reply = std::exchange(m_reply, nullptr);
    reply->deleteLater();
    const int status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
    const QByteArray body = reply->readAll();
    log().debug("model list: status {}, {} bytes", status, body.size());

    if (reply->error() == QNetworkReply::OperationCanceledError) {
        emit failed(Error(Error::Code::Cancelled, m_profile.displayName));
        return;
    }
    if (status >= 300 && status < 400) {
        emit failed(Error(Error::Code::RedirectRefused, m_profile.displayName,
                          QString::fromUtf8(reply->rawHeader("Location")).left(200)));
        return;
    }
    if (status >= 400) {
        emit failed(Error::fromHttpStatus(m_profile.displayName, status, body, reply->rawHeader("Retry-After"),
                                          reply->rawHeader("Content-Type")));
        return;
    }
    if (reply->error() != QNetworkReply::NoError || status == 0) {
        const auto code = reply->error() == QNetworkReply::TimeoutError ? Error::Code::Timeout
                                                                        : Error::Code::NetworkUnreachable;
        emit failed(Error(code, m_profile.displayName, reply->errorString()));
        return;
    }
    const auto models = parseModelList(body);
    if (!models) {
        Error error(Error::Code::NotAnApi, m_profile.displayName, models.error());
        error.setExpectedAnthropic(m_profile.format == ApiFormat::AnthropicMessages);
        emit failed(error);
        return;
    }
    // A name past its retirement date fails at the provider: never offered (some lists keep
    // retired names for a while, as aliases or for accounts that still pay for them).
    const QString provider = ModelCatalog::familyProvider(m_profile);
    QStringList current = *models;
    current.removeIf([&provider](const QString &model) {
        return ModelCatalog::isRetired(ModelCatalog::find(provider, model), QDate::currentDate());
    });
    emit finished(current);
}

} // namespace Llm
