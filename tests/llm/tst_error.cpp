// Error classification: HTTP statuses and provider bodies become the error classes users see,
// with Retry-After honoured and no secrets in the message.
#include "llm/error.h"

#include <QDateTime>
#include <QLocale>
#include <QTest>

using namespace Llm;

class tst_Error : public QObject
{
    Q_OBJECT

private slots:
    void classifiesHttp_data();
    void classifiesHttp();
    void retryAfterSecondsAndDate();
    void retryAfterIsParsedDefensively_data();
    void retryAfterIsParsedDefensively();
    void notAnApiIsNamedSo_data();
    void notAnApiIsNamedSo();
    void messageNamesProviderAndDetail();
    void secretsAreRedacted_data();
    void secretsAreRedacted();
    void everyCodeHasNameAndMessage();
    void proxyMessagesNameTheProxy();
};

void tst_Error::classifiesHttp_data()
{
    QTest::addColumn<int>("status");
    QTest::addColumn<QByteArray>("body");
    QTest::addColumn<Error::Code>("code");
    QTest::addColumn<QString>("detail");

    QTest::addRow("401 openai")
        << 401
        << QByteArray(
               R"({"error":{"message":"Incorrect API key provided.","type":"invalid_request_error","code":"invalid_api_key"}})")
        << Error::Code::BadKey << "Incorrect API key provided.";
    QTest::addRow("403") << 403 << QByteArray("forbidden") << Error::Code::BadKey << "forbidden";
    QTest::addRow("404 ollama") << 404 << QByteArray(R"({"error":"model 'llama9' not found"})")
                                << Error::Code::UnknownModel << "model 'llama9' not found";
    QTest::addRow("429") << 429 << QByteArray(R"({"error":{"message":"Rate limit reached","type":"requests"}})")
                         << Error::Code::RateLimited << "Rate limit reached";
    QTest::addRow("openai context")
        << 400
        << QByteArray(
               R"({"error":{"message":"This model's maximum context length is 128000 tokens.","type":"invalid_request_error","code":"context_length_exceeded"}})")
        << Error::Code::ContextTooLong << "This model's maximum context length is 128000 tokens.";
    QTest::addRow("anthropic context")
        << 400
        << QByteArray(
               R"({"type":"error","error":{"type":"invalid_request_error","message":"prompt is too long: 210000 tokens > 200000 maximum"}})")
        << Error::Code::ContextTooLong << "prompt is too long: 210000 tokens > 200000 maximum";
    QTest::addRow("413") << 413 << QByteArray() << Error::Code::ContextTooLong << "";
    QTest::addRow("400 other")
        << 400 << QByteArray(R"({"error":{"message":"temperature must be <= 2","type":"invalid_request_error"}})")
        << Error::Code::BadRequest << "temperature must be <= 2";
    // Never raw HTML: a page's title at most.
    QTest::addRow("500 html") << 500 << QByteArray("<html>oops</html>") << Error::Code::ServerError << "";
    QTest::addRow("502 html title")
        << 502
        << QByteArray("<html><head><title>502 Bad Gateway</title></head><body><center>nginx</center></body></html>")
        << Error::Code::ServerError << "502 Bad Gateway";
    QTest::addRow("404 anthropic model")
        << 404 << QByteArray(R"({"type":"error","error":{"type":"not_found_error","message":"model: claude-9"}})")
        << Error::Code::UnknownModel << "model: claude-9";
    QTest::addRow("404 openai model")
        << 404
        << QByteArray(
               R"({"error":{"message":"The model `gpt-9` does not exist or you do not have access to it.","type":"invalid_request_error","code":"model_not_found"}})")
        << Error::Code::UnknownModel << "The model `gpt-9` does not exist or you do not have access to it.";
    QTest::addRow("529 anthropic overloaded")
        << 529 << QByteArray(R"({"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}})")
        << Error::Code::ServerError << "Overloaded";
}

void tst_Error::classifiesHttp()
{
    QFETCH(int, status);
    QFETCH(QByteArray, body);
    QFETCH(Error::Code, code);
    QFETCH(QString, detail);
    const Error e = Error::fromHttpStatus(QStringLiteral("DeepSeek"), status, body);
    QCOMPARE(e.code(), code);
    QCOMPARE(e.httpStatus(), status);
    QCOMPARE(e.detail(), detail);
    QVERIFY(!e.retryAfter());
}

void tst_Error::retryAfterSecondsAndDate()
{
    const Error seconds = Error::fromHttpStatus(QStringLiteral("OpenAI"), 429, {}, "12");
    QVERIFY(seconds.retryAfter());
    QCOMPARE(seconds.retryAfter()->count(), 12);
    QVERIFY(seconds.message().contains(QLocale().toString(12)));

    const QDateTime when = QDateTime::currentDateTimeUtc().addSecs(90);
    const QByteArray date = QLocale::c().toString(when, QStringLiteral("ddd, dd MMM yyyy hh:mm:ss 'GMT'")).toLatin1();
    const Error dated = Error::fromHttpStatus(QStringLiteral("OpenAI"), 429, {}, date);
    QVERIFY(dated.retryAfter());
    QVERIFY(dated.retryAfter()->count() >= 85 && dated.retryAfter()->count() <= 90);

    const Error bogus = Error::fromHttpStatus(QStringLiteral("OpenAI"), 429, {}, "soon");
    QVERIFY(!bogus.retryAfter());
}

void tst_Error::retryAfterIsParsedDefensively_data()
{
    QTest::addColumn<QByteArray>("value");
    QTest::addColumn<qint64>("seconds"); // -1: no retry-after

    QTest::addRow("integer") << QByteArray("30") << qint64(30);
    QTest::addRow("zero") << QByteArray("0") << qint64(0);
    QTest::addRow("padded") << QByteArray("  45 ") << qint64(45);
    QTest::addRow("capped") << QByteArray("86400") << qint64(3600);
    QTest::addRow("huge digits") << QByteArray("99999999999999999999999999") << qint64(3600);
    QTest::addRow("inf") << QByteArray("inf") << qint64(-1);
    QTest::addRow("infinity") << QByteArray("Infinity") << qint64(-1);
    QTest::addRow("nan") << QByteArray("nan") << qint64(-1);
    QTest::addRow("1e308") << QByteArray("1e308") << qint64(-1);
    QTest::addRow("negative") << QByteArray("-5") << qint64(-1);
    QTest::addRow("fraction") << QByteArray("1.5") << qint64(-1);
    QTest::addRow("hex") << QByteArray("0x10") << qint64(-1);
    QTest::addRow("garbage") << QByteArray("soon") << qint64(-1);
    QTest::addRow("past date") << QByteArray("Wed, 21 Oct 2015 07:28:00 GMT") << qint64(0);
    const QDateTime inTwoDays = QDateTime::currentDateTimeUtc().addDays(2);
    QTest::addRow("far date")
        << QLocale::c().toString(inTwoDays, QStringLiteral("ddd, dd MMM yyyy hh:mm:ss 'GMT'")).toLatin1()
        << qint64(3600);
}

void tst_Error::retryAfterIsParsedDefensively()
{
    QFETCH(QByteArray, value);
    QFETCH(qint64, seconds);
    const Error e = Error::fromHttpStatus(QStringLiteral("OpenAI"), 429, {}, value);
    if (seconds < 0) {
        QVERIFY2(!e.retryAfter(),
                 qPrintable(QString::number(e.retryAfter().value_or(std::chrono::seconds(0)).count())));
        QVERIFY(e.message().contains(QLatin1String("Wait a moment")));
        return;
    }
    QVERIFY(e.retryAfter());
    QCOMPARE(qint64(e.retryAfter()->count()), seconds);
    QVERIFY2(e.message().contains(QLocale().toString(seconds)), qPrintable(e.message()));
    QVERIFY2(!e.message().contains(QLatin1Char('-')), qPrintable(e.message()));
}

void tst_Error::notAnApiIsNamedSo_data()
{
    QTest::addColumn<int>("status");
    QTest::addColumn<QByteArray>("body");
    QTest::addColumn<QByteArray>("contentType");

    QTest::addRow("404 wrong path, openai json")
        << 404
        << QByteArray(
               R"j({"error":{"message":"Invalid URL (POST /v1/chat/completion)","type":"invalid_request_error","code":null}})j")
        << QByteArray("application/json");
    QTest::addRow("404 fastapi") << 404 << QByteArray(R"({"detail":"Not Found"})") << QByteArray("application/json");
    QTest::addRow("404 html")
        << 404 << QByteArray("<html><head><title>404 Not Found</title></head><body><h1>Not Found</h1></body></html>")
        << QByteArray("text/html");
    QTest::addRow("404 plain") << 404 << QByteArray("404 page not found") << QByteArray("text/plain");
    QTest::addRow("405 html") << 405 << QByteArray("<!DOCTYPE html><html><body>Method Not Allowed</body></html>")
                              << QByteArray("text/html; charset=utf-8");
}

void tst_Error::notAnApiIsNamedSo()
{
    QFETCH(int, status);
    QFETCH(QByteArray, body);
    QFETCH(QByteArray, contentType);
    Error e = Error::fromHttpStatus(QStringLiteral("Custom"), status, body, {}, contentType);
    QCOMPARE(e.code(), Error::Code::NotAnApi);
    QCOMPARE(QByteArray(e.codeName()), QByteArray("not_an_api"));
    QVERIFY2(e.message().contains(QLatin1String("OpenAI-compatible")), qPrintable(e.message()));
    QVERIFY2(e.message().contains(QLatin1String("base URL")), qPrintable(e.message()));
    QVERIFY2(e.message().contains(QString::number(status)), qPrintable(e.message()));
    QVERIFY2(!e.message().contains(QLatin1String("requested model")), qPrintable(e.message()));
    QVERIFY2(!e.message().contains(QLatin1Char('<')), qPrintable(e.message()));
    e.setExpectedAnthropic(true);
    QVERIFY2(e.message().contains(QLatin1String("Anthropic")), qPrintable(e.message()));
}

void tst_Error::messageNamesProviderAndDetail()
{
    const Error e = Error::fromHttpStatus(QStringLiteral("Qwen (DashScope)"), 401,
                                          R"({"error":{"message":"Invalid key","code":"InvalidApiKey"}})");
    QVERIFY(e.message().contains(QLatin1String("Qwen (DashScope)")));
    QVERIFY(e.message().contains(QLatin1String("Invalid key")));
    QVERIFY(e.message().contains(QLatin1String("Settings")));
    QCOMPARE(Error(Error::Code::Cancelled, QStringLiteral("X")).message(), QStringLiteral("Cancelled."));
}

void tst_Error::secretsAreRedacted_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<QString>("secret");
    QTest::addRow("openai key") << "Incorrect API key provided: sk-proj-abcdefghij1234567890. Find yours at ..."
                                << "sk-proj-abcdefghij1234567890";
    QTest::addRow("masked key") << "Incorrect API key provided: sk-abc12************************xyz9."
                                << "sk-abc12";
    QTest::addRow("anthropic key") << "bad x-api-key sk-ant-api03-AAAAbbbbCCCC1111dddd"
                                   << "sk-ant-api03-AAAAbbbbCCCC1111dddd";
    QTest::addRow("bearer token") << "Authorization: Bearer abcdefABCDEF0123456789abcdefABCDEF0123"
                                  << "abcdefABCDEF0123456789abcdefABCDEF0123";
}

void tst_Error::secretsAreRedacted()
{
    QFETCH(QString, text);
    QFETCH(QString, secret);
    const Error e(Error::Code::BadKey, QStringLiteral("OpenAI"), text, 401);
    QVERIFY2(!e.detail().contains(secret), qPrintable(e.detail()));
    QVERIFY2(!e.message().contains(secret), qPrintable(e.message()));
    QVERIFY(e.detail().contains(QLatin1String("[redacted]")));
    // Ordinary words survive.
    const Error plain(Error::Code::BadRequest, QStringLiteral("OpenAI"), QStringLiteral("temperature must be <= 2"));
    QCOMPARE(plain.detail(), QStringLiteral("temperature must be <= 2"));
}

void tst_Error::everyCodeHasNameAndMessage()
{
    QSet<QByteArray> names;
    for (int c = int(Error::Code::Cancelled); c <= int(Error::LastCode); ++c) {
        const Error e(Error::Code(c), QStringLiteral("Prov"), {}, 500);
        const QByteArray name = Error::codeName(Error::Code(c));
        QVERIFY(name != "unknown");
        QVERIFY2(!names.contains(name), name.constData());
        names.insert(name);
        QVERIFY(!e.message().isEmpty());
        if (e.code() != Error::Code::Cancelled)
            QVERIFY2(e.message().contains(QLatin1String("Prov")), name.constData());
    }
    QCOMPARE(names.size(), 21);
}

void tst_Error::proxyMessagesNameTheProxy()
{
    for (Error::Code code : {Error::Code::ProxyRefused, Error::Code::ProxyUnreachable, Error::Code::ProxyAuth}) {
        const Error e(code, QStringLiteral("DeepSeek"), QStringLiteral("10.0.0.1:8080"));
        QVERIFY2(e.message().contains(QLatin1String("10.0.0.1:8080")), qPrintable(e.message()));
        QVERIFY2(e.message().contains(QStringLiteral("Settings → Network")), qPrintable(e.message()));
        QVERIFY2(e.message().contains(QLatin1String("DeepSeek")), qPrintable(e.message()));
    }
    QVERIFY(Error(Error::Code::ProxyRefused, QStringLiteral("X"), QStringLiteral("10.0.0.1:8080"))
                .message()
                .contains(QLatin1String("refused the connection")));
}

QTEST_GUILESS_MAIN(tst_Error)
#include "tst_error.moc"
