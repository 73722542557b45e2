#include "support/localprovidersuite.h"

#include <QElapsedTimer>
#include <QNetworkReply>
#include <QNetworkRequest>
#include <QSignalSpy>

namespace TestSupport {

using namespace Wire;

Reply LocalProviderSuite::request(const QUrl &root, const QByteArray &method, const QString &path,
                                  const QByteArray &body, const Headers &headers,
                                  const std::function<void(QNetworkReply *, const Reply &)> &onData)
{
    QNetworkRequest req(root.resolved(QUrl(path)));
    req.setHeader(QNetworkRequest::ContentTypeHeader, QByteArrayLiteral("application/json"));
    for (const auto &[name, value] : headers)
        req.setRawHeader(name, value);
    QElapsedTimer timer;
    timer.start();
    QNetworkReply *reply = m_nam.sendCustomRequest(req, method, body);
    Reply result;
    qsizetype parsed = 0;
    QObject::connect(reply, &QNetworkReply::readyRead, reply, [&] {
        result.body += reply->readAll();
        qsizetype consumed = 0;
        const QList<SseEvent> events = parseSse(result.body.mid(parsed), &consumed);
        parsed += consumed;
        for (const SseEvent &e : events) {
            if (!contentOf(e).isNull())
                result.tokenMs.append(timer.elapsed());
        }
        if (onData)
            onData(reply, result);
    });
    QSignalSpy finished(reply, &QNetworkReply::finished);
    if (!reply->isFinished())
        finished.wait(20000);
    result.body += reply->readAll();
    result.status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
    result.error = reply->error();
    for (const auto &[name, value] : reply->rawHeaderPairs())
        result.headers.insert(name.toLower(), value);
    reply->deleteLater();
    return result;
}

} // namespace TestSupport
