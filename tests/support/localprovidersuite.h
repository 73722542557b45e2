#pragma once

#include "support/localproviderfixture.h"
#include "support/localproviderwire.h"

#include <QJsonObject>
#include <QNetworkAccessManager>
#include <QString>
#include <QUrl>

#include <functional>

class QNetworkReply;

namespace TestSupport {

// What the local provider's suites share: a server of their own (m_local, profile "instant",
// started by the suite's initTestCase() when it uses one) and plain HTTP requests to it or to
// any server the test starts, through a QNetworkAccessManager, collected into a Wire::Reply.
// A second base of the suites' test classes, after QObject; not a QObject itself, so that it
// needs no moc and adds no slot to the suites.
class LocalProviderSuite
{
protected:
    // Sends `method` to `root` + `path` and waits (20 s at most) for the whole reply, noting
    // when each content event arrived; `onData` is called after each read.
    Wire::Reply request(const QUrl &root, const QByteArray &method, const QString &path, const QByteArray &body = {},
                        const Wire::Headers &headers = {},
                        const std::function<void(QNetworkReply *, const Wire::Reply &)> &onData = {});
    Wire::Reply post(const QString &path, const QByteArray &body, const Wire::Headers &headers = {})
    {
        return request(m_local.server().url(), "POST", path, body, headers);
    }
    Wire::Reply get(const QString &path) { return request(m_local.server().url(), "GET", path); }
    QJsonObject statsJson(const QUrl &root) { return request(root, "GET", QStringLiteral("stats")).object(); }

    TestSupport::LocalProviderFixture m_local;
    QNetworkAccessManager m_nam;
};

} // namespace TestSupport
