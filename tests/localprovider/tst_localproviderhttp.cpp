// The local provider's HTTP over raw loopback sockets: keep-alive and pipelining, a body sent
// one byte per write, garbage of every kind answered or dropped without hurting the server,
// and headstart-localprovider as a process.

#include "support/localprovidersuite.h"
#include "support/localproviderwire.h"
#include "support/rawclient.h"

#include "localprovider/serverthread.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTest>
#include <QTimer>

using namespace LocalProvider;
using namespace TestSupport::Wire;
using namespace Qt::StringLiterals;

class tst_LocalProviderHttp : public QObject, private TestSupport::LocalProviderSuite
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();

    void keepAliveAndPipelining();
    void bodyOneBytePerWrite();
    void garbageDoesNotHurt_data();
    void garbageDoesNotHurt();
    void executable();
};

void tst_LocalProviderHttp::initTestCase()
{
    QVERIFY2(m_local.start(), qPrintable(m_local.errorString()));
}

void tst_LocalProviderHttp::keepAliveAndPipelining()
{
    RawClient client(m_local.server().url());
    QVERIFY(client.waitConnected());
    const QByteArray body = chatBody(u"Keep the line open."_s, {{u"max_tokens"_s, 3}});
    QByteArray head;
    QByteArray response;

    client.socket().write(httpPost("/v1/chat/completions", body));
    QVERIFY(client.readResponse(&head, &response));
    QVERIFY2(head.startsWith("HTTP/1.1 200"), head.constData());
    QVERIFY(head.toLower().contains("connection: keep-alive"));
    const QString first = json(response)[u"choices"][0][u"message"][u"content"].toString();

    client.socket().write(httpPost("/v1/chat/completions", body));
    QVERIFY(client.readResponse(&head, &response));
    QVERIFY(head.startsWith("HTTP/1.1 200"));
    QCOMPARE(json(response)[u"choices"][0][u"message"][u"content"].toString(), first);

    // Two requests in one write: answered in order.
    client.socket().write(httpPost("/v1/chat/completions", body) + "GET /health HTTP/1.1\r\nHost: x\r\n\r\n");
    QVERIFY(client.readResponse(&head, &response));
    QCOMPARE(json(response)[u"choices"][0][u"message"][u"content"].toString(), first);
    QVERIFY(client.readResponse(&head, &response));
    QCOMPARE(response, QByteArray("ok"));
    QCOMPARE(client.socket().state(), QAbstractSocket::ConnectedState);

    client.socket().write("GET /health HTTP/1.1\r\nConnection: close\r\n\r\n");
    QVERIFY(client.readResponse(&head, &response));
    QVERIFY(client.waitDisconnected());
}

void tst_LocalProviderHttp::bodyOneBytePerWrite()
{
    RawClient client(m_local.server().url());
    QVERIFY(client.waitConnected());
    client.socket().setSocketOption(QAbstractSocket::LowDelayOption, 1);
    const QByteArray body = chatBody(u"Sent one byte at a time, slowly."_s, {{u"max_tokens"_s, 4}});
    const QByteArray bytes = httpPost("/v1/chat/completions", body);
    qsizetype sent = 0;
    QTimer drip;
    drip.setInterval(0);
    connect(&drip, &QTimer::timeout, this, [&] {
        if (sent < bytes.size()) {
            client.socket().write(bytes.mid(sent++, 1));
            client.socket().flush();
        }
    });
    drip.start();
    QTRY_COMPARE_WITH_TIMEOUT(sent, bytes.size(), 10000);
    QByteArray head;
    QByteArray response;
    QVERIFY(client.readResponse(&head, &response));
    QVERIFY2(head.startsWith("HTTP/1.1 200"), head.constData());
    QCOMPARE(json(response)[u"choices"][0][u"message"][u"content"].toString(),
             textOf(post(u"v1/chat/completions"_s, body)));
}

void tst_LocalProviderHttp::garbageDoesNotHurt_data()
{
    QTest::addColumn<QByteArray>("bytes");
    QTest::addColumn<QByteArray>("statusLine"); // empty: any answer or none
    QTest::addColumn<bool>("abortEarly");

    QByteArray noise;
    quint32 x = 12345;
    for (int i = 0; i < 20000; ++i) {
        x = x * 1103515245u + 12345u;
        noise.append(static_cast<char>(x >> 16));
        if (i % 997 == 0)
            noise.append("\r\n\r\n");
    }
    QTest::addRow("noise") << noise << QByteArray() << false;
    QTest::addRow("bad request line") << QByteArray("HELLO\r\n\r\n") << QByteArray("HTTP/1.1 400") << false;
    QTest::addRow("http/2 preface") << QByteArray("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n") << QByteArray("HTTP/1.1 400")
                                    << false;
    QTest::addRow("http/9") << QByteArray("GET /health HTTP/9.9\r\n\r\n") << QByteArray("HTTP/1.1 505") << false;
    QTest::addRow("huge headers") << "GET /health HTTP/1.1\r\nX-Big: " + QByteArray(70000, 'a')
                                  << QByteArray("HTTP/1.1 431") << false;
    QTest::addRow("body too large") << QByteArray(
        "POST /v1/chat/completions HTTP/1.1\r\nContent-Length: 70000000\r\n\r\n")
                                    << QByteArray("HTTP/1.1 413") << false;
    QTest::addRow("negative length") << QByteArray("POST /v1/chat/completions HTTP/1.1\r\nContent-Length: -5\r\n\r\n")
                                     << QByteArray("HTTP/1.1 400") << false;
    QTest::addRow("chunked body") << QByteArray(
        "POST /v1/chat/completions HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n")
                                  << QByteArray("HTTP/1.1 411") << false;
    QTest::addRow("vanish mid-body") << QByteArray(
        "POST /v1/chat/completions HTTP/1.1\r\nContent-Length: 1000\r\n\r\n{\"mod")
                                     << QByteArray() << true;
    QTest::addRow("vanish mid-headers") << QByteArray("POST /v1/chat/completions HTTP/1.1\r\nContent-Le")
                                        << QByteArray() << true;
    QTest::addRow("deep json") << httpPost("/v1/chat/completions", QByteArray(100000, '['), "Connection: close\r\n")
                               << QByteArray("HTTP/1.1 400") << false;
}

void tst_LocalProviderHttp::garbageDoesNotHurt()
{
    QFETCH(QByteArray, bytes);
    QFETCH(QByteArray, statusLine);
    QFETCH(bool, abortEarly);
    {
        RawClient client(m_local.server().url());
        QVERIFY(client.waitConnected());
        client.socket().write(bytes);
        client.socket().flush();
        if (abortEarly) {
            client.socket().abort();
        } else if (!statusLine.isEmpty()) {
            QByteArray head;
            QByteArray body;
            QVERIFY(client.readResponse(&head, &body));
            QVERIFY2(head.startsWith(statusLine), head.left(40).constData());
            QVERIFY(json(body).contains(u"error"));
            QVERIFY(client.waitDisconnected());
        } else {
            QVERIFY(client.waitDisconnected());
        }
    }
    QCOMPARE(get(u"health"_s).status, 200);
    QCOMPARE(post(u"v1/chat/completions"_s, chatBody(u"Still alive?"_s, {{u"max_tokens"_s, 2}})).status, 200);
}

void tst_LocalProviderHttp::executable()
{
    const QString program = QStringLiteral(HEADSTART_BIN_DIR "/localprovider/headstart-localprovider");
    {
        // A demo server: it refuses to be reachable from the network unless told otherwise.
        QProcess refused;
        refused.start(program, {u"--host"_s, u"0.0.0.0"_s});
        QTRY_COMPARE_WITH_TIMEOUT(refused.state(), QProcess::NotRunning, 10000);
        QCOMPARE(refused.exitCode(), 2);
    }
    QProcess process;
    process.start(program, {u"--profile"_s, u"instant"_s, u"--quiet"_s});
    QTRY_VERIFY_WITH_TIMEOUT(process.canReadLine(), 10000);
    const QByteArray line = process.readLine().trimmed();
    QVERIFY2(line.startsWith("http://127.0.0.1:") && line.endsWith('/'), line.constData());
    const QUrl url(QString::fromLatin1(line));
    const Reply health = request(url, "GET", u"health"_s);
    QCOMPARE(health.status, 200);
    QCOMPARE(health.body, QByteArray("ok"));
    QCOMPARE(request(url, "POST", u"v1/chat/completions"_s, chatBody(u"From a process."_s)).status, 200);
    process.terminate();
    QTRY_COMPARE_WITH_TIMEOUT(process.state(), QProcess::NotRunning, 10000);
    QCOMPARE(process.exitStatus(), QProcess::NormalExit);
    QCOMPARE(process.exitCode(), 0);
}

QTEST_GUILESS_MAIN(tst_LocalProviderHttp)
#include "tst_localproviderhttp.moc"
