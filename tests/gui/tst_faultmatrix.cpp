// Every fault the local provider injects, for a foreground answer and a prefetch, in both wire
// formats, through the engine: what the user reads, what text is kept, whether it was retried
// (requests counted at the server) and that no connection is left open. With
// At app level, the main window driven by clicks and keys: a failed generation never touches
// the document, and a retry is shown and stopped with Esc. With
// HEADSTART_FAULT_TABLE=<file> it writes the outcomes it asserted as the markdown table of
// docs/reliability.md.

#include "support/localproviderfixture.h"
#include "support/windowservices.h"

#include "gui/answer/answerpane.h"
#include "gui/mainwindow/documenttab.h"
#include "gui/mainwindow/documenttabs.h"
#include "gui/mainwindow/mainwindow.h"
#include "prefetch/engine.h"
#include "prefetch/prefetchsession.h"
#include "prefetch/strategies/debouncestrategy.h"
#include "prefetch/strategies/hoverstrategy.h"
#include "prefetch/strategies/warmupstrategy.h"
#include "prefetch/strategies/workflowstrategy.h"
#include "prefetch/stream/answerfetch.h"
#include "prefetch/stream/answerreader.h"
#include "workspace/conversations/conversationstore.h"
#include "workspace/documents/document.h"

#include "llm/clock.h"

#include <QFile>
#include <QNetworkAccessManager>
#include <QPointer>
#include <QPushButton>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

#include <memory>

using namespace Prefetch;
using namespace std::chrono_literals;
using Code = Llm::Error::Code;

namespace {

// Millisecond back-off: the order of events is asserted, not the durations.
Settings fastRetries()
{
    Settings s;
    s.retry.maxRetries = 3;
    s.retry.firstDelay = 5ms;
    s.retry.maxDelay = 20ms;
    s.retry.maxRetryAfter = 30s;
    s.streamIdleTimeout = 300ms; // the stall fault's
    s.bufferTokens = 40;
    return s;
}

struct Row {
    QString tag;
    QString outcome; // "failed: <code>" or "answered"
    QString message;
    bool textKept = false;
    int requests = 0;
    qint64 openAfter = 0;
};

QList<Row> &table()
{
    static QList<Row> rows;
    return rows;
}

} // namespace

class tst_FaultMatrix : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void init();
    void cleanupTestCase();
    void policyDelays();
    void policyRetriesOnlyABusyProvider_data();
    void policyRetriesOnlyABusyProvider();
    void matrix_data();
    void matrix();
    void retryHonoursRetryAfterAndStopCancelsIt();
    void retryAfterPastTheCapIsNotWaitedFor();
    void streamLimit_data();
    void streamLimit();
    void failedGenerationNeverTouchesTheDocument_data();
    void failedGenerationNeverTouchesTheDocument();
    void retryIsShownAndEscStopsIt();

private:
    // The main window on an engine whose every request carries `fault`.
    struct App {
        std::unique_ptr<Prefetch::Stack> stack;
        std::unique_ptr<Gui::ConversationStore> store;
        std::unique_ptr<Gui::MainWindow> window; // last: goes first
        ~App();
    };
    std::unique_ptr<App> makeApp(const QByteArray &fault, const Settings &settings);
    Llm::ProviderProfile profile(const QString &format, const QByteArray &fault) const;
    Llm::ChatRequest chat() const;

    TestSupport::LocalProviderFixture m_local{u"instant"};
    QNetworkAccessManager m_network;
    QTemporaryDir m_dir;
};

tst_FaultMatrix::App::~App()
{
    if (window) {
        for (Gui::Document *document : window->tabs()->documents())
            document->setModified(false); // no "save changes?" in tests
    }
    window.reset();
}

std::unique_ptr<tst_FaultMatrix::App> tst_FaultMatrix::makeApp(const QByteArray &fault, const Settings &settings)
{
    auto app = std::make_unique<App>();
    app->stack = std::make_unique<Prefetch::Stack>(&m_network, m_local.profile("decode=400", fault), settings);
    app->store = std::make_unique<Gui::ConversationStore>(m_dir.filePath(QStringLiteral("conversations.sqlite")));
    const Gui::Services services = TestSupport::windowServices(*app->stack, app->store.get());
    app->window = std::make_unique<Gui::MainWindow>(services);
    app->window->newDocument(QStringLiteral("Faults happen. A provider refuses, a connection breaks, a stream stalls. "
                                            "The document stays what the writer wrote."));
    app->window->show();
    if (!QTest::qWaitForWindowExposed(app->window.get()))
        return nullptr;
    return app;
}

void tst_FaultMatrix::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);
    QVERIFY(m_dir.isValid());
    QVERIFY2(m_local.start(), qPrintable(m_local.errorString()));
}

void tst_FaultMatrix::init()
{
    QVERIFY(m_local.waitForNoOpenStream(5000));
}

void tst_FaultMatrix::cleanupTestCase()
{
    const QByteArray path = qgetenv("HEADSTART_FAULT_TABLE");
    if (path.isEmpty())
        return;
    QFile out(QString::fromLocal8Bit(path));
    QVERIFY(out.open(QIODevice::WriteOnly | QIODevice::Truncate));
    out.write("| Case | Outcome | Requests at the server | Text shown and kept | Streams open after | Message shown |\n"
              "|---|---|---|---|---|---|\n");
    for (const Row &r : std::as_const(table())) {
        QString message = r.message;
        message.replace(QLatin1Char('|'), QLatin1String("\\|"));
        out.write(QStringLiteral("| %1 | %2 | %3 | %4 | %5 | %6 |\n")
                      .arg(r.tag, r.outcome, QString::number(r.requests),
                           r.textKept ? QStringLiteral("yes") : QStringLiteral("no"), QString::number(r.openAfter),
                           message.isEmpty() ? QStringLiteral("—") : message)
                      .toUtf8());
    }
}

Llm::ProviderProfile tst_FaultMatrix::profile(const QString &format, const QByteArray &fault) const
{
    Llm::ProviderProfile p = m_local.profile({}, fault);
    if (format == QLatin1String("anthropic")) {
        p.format = Llm::ApiFormat::AnthropicMessages;
        p.encodeOptions.continuation = Llm::ContinuationStyle::AssistantPrefill;
    }
    return p;
}

Llm::ChatRequest tst_FaultMatrix::chat() const
{
    Llm::ChatRequest r;
    r.system = QStringLiteral("You answer questions about faults.");
    r.messages = {{Llm::Role::User, QStringLiteral("What happens when the provider fails?")}};
    r.maxTokens = 40;
    return r;
}

void tst_FaultMatrix::policyDelays()
{
    const RetryPolicy defaults; // 1 s, 2 s, 4 s (+ up to 10 %), then no more
    const Llm::Error busy(Code::ServerError, QStringLiteral("DeepSeek"), {}, 503);
    for (int retry = 1; retry <= 3; ++retry) {
        const auto delay = defaults.delayBefore(retry, busy);
        QVERIFY(delay);
        const auto base = std::chrono::milliseconds(1000 << (retry - 1));
        QVERIFY2(*delay >= base && *delay <= base + base / 10, qPrintable(QString::number(delay->count())));
    }
    QVERIFY(!defaults.delayBefore(4, busy));
    // The back-off is capped.
    RetryPolicy many = defaults;
    many.maxRetries = 10;
    many.jitter = 0;
    QCOMPARE(many.delayBefore(8, busy), std::optional(many.maxDelay));
    // Retry-After wins when longer, and past the cap is not waited for.
    Llm::Error limited(Code::RateLimited, QStringLiteral("DeepSeek"), {}, 429);
    limited.setRetryAfter(std::chrono::seconds(7));
    QCOMPARE(many.delayBefore(1, limited), std::optional(std::chrono::milliseconds(7000)));
    limited.setRetryAfter(std::chrono::seconds(31));
    QVERIFY(!many.delayBefore(1, limited));
    RetryPolicy never = defaults;
    never.maxRetries = 0;
    QVERIFY(!never.delayBefore(1, busy));
}

void tst_FaultMatrix::policyRetriesOnlyABusyProvider_data()
{
    QTest::addColumn<Llm::Error>("error");
    QTest::addColumn<bool>("retried");
    const QString p = QStringLiteral("Anthropic");
    QTest::addRow("429") << Llm::Error(Code::RateLimited, p, {}, 429) << true;
    QTest::addRow("500") << Llm::Error(Code::ServerError, p, {}, 500) << true;
    QTest::addRow("529 overloaded") << Llm::Error(Code::ServerError, p, {}, 529) << true;
    QTest::addRow("in-stream overloaded")
        << Llm::Error(Code::ProviderError, p, QStringLiteral("overloaded_error: Overloaded")) << true;
    QTest::addRow("in-stream invalid") << Llm::Error(Code::ProviderError, p,
                                                     QStringLiteral("invalid_request_error: no"))
                                       << false;
    QTest::addRow("bad key") << Llm::Error(Code::BadKey, p, {}, 401) << false;
    QTest::addRow("bad request") << Llm::Error(Code::BadRequest, p, {}, 400) << false;
    QTest::addRow("unknown model") << Llm::Error(Code::UnknownModel, p, {}, 404) << false;
    QTest::addRow("context") << Llm::Error(Code::ContextTooLong, p, {}, 400) << false;
    QTest::addRow("timeout") << Llm::Error(Code::Timeout, p) << false;
    QTest::addRow("broken") << Llm::Error(Code::StreamBroken, p) << false;
    QTest::addRow("unreachable") << Llm::Error(Code::NetworkUnreachable, p) << false;
    QTest::addRow("cancelled") << Llm::Error(Code::Cancelled, p) << false;
}

void tst_FaultMatrix::policyRetriesOnlyABusyProvider()
{
    QFETCH(Llm::Error, error);
    QFETCH(bool, retried);
    QCOMPARE(RetryPolicy::isRetryable(error), retried);
    QCOMPARE(RetryPolicy().delayBefore(1, error).has_value(), retried);
}

void tst_FaultMatrix::matrix_data()
{
    QTest::addColumn<QString>("format");
    QTest::addColumn<bool>("foreground");
    QTest::addColumn<QByteArray>("fault");
    QTest::addColumn<bool>("succeeds"); // foreground: the retry cures it
    QTest::addColumn<Code>("code");     // when it fails
    QTest::addColumn<QString>("fix");   // what the message tells the user to do
    QTest::addColumn<bool>("partial");  // content arrived before the fault
    QTest::addColumn<int>("foregroundRequests");

    struct Fault {
        const char *spec;
        bool succeeds;
        Code code;
        const char *fix;
        bool partial;
        int requests; // a foreground answer's, at the server; a prefetch sends one
    };
    // fail-first's key is made unique per row below: each row's first requests fail.
    const Fault faults[] = {
        {"status=401", false, Code::BadKey, "Check the key", false, 1},
        {"status=403", false, Code::BadKey, "Check the key", false, 1},
        {"status=404", false, Code::UnknownModel, "Check the model name", false, 1},
        {"status=429", false, Code::RateLimited, "Wait a moment and try again", false, 4},
        {"status=429,retry-after=60", false, Code::RateLimited, "Try again in 60 s", false, 1},
        {"status=500", false, Code::ServerError, "Try again", false, 4},
        {"status=503", false, Code::ServerError, "Try again", false, 4},
        {"status=429,fail-first=2", true, Code::RateLimited, "", false, 3},
        {"status=503,fail-first=1", true, Code::ServerError, "", false, 2},
        {"error-at=0", false, Code::ProviderError, "The text so far is kept", false, 4},
        {"error-at=0,fail-first=1", true, Code::ProviderError, "", false, 2},
        {"error-at=5", false, Code::ProviderError, "The text so far is kept", true, 1},
        {"drop-after=0", false, Code::StreamBroken, "The text so far is kept", false, 1},
        {"drop-after=5", false, Code::StreamBroken, "The text so far is kept", true, 1},
        {"stall=1500@5", false, Code::Timeout, "Try again", true, 1},
        {"malformed-at=5", false, Code::MalformedStream, "The text so far is kept", true, 1},
        {"context-too-long", false, Code::ContextTooLong, "Shorten the document", false, 1},
    };
    int serial = 0;
    for (const char *format : {"openai", "anthropic"}) {
        for (const bool foreground : {true, false}) {
            for (const Fault &f : faults) {
                QByteArray spec = f.spec;
                if (spec.contains("fail-first"))
                    spec += "@row" + QByteArray::number(++serial);
                QTest::addRow("%s %s %s", format, foreground ? "foreground" : "prefetch", f.spec)
                    << QString::fromLatin1(format) << foreground << spec << f.succeeds << f.code
                    << QString::fromLatin1(f.fix) << f.partial << f.requests;
            }
        }
    }
}

void tst_FaultMatrix::matrix()
{
    QFETCH(QString, format);
    QFETCH(bool, foreground);
    QFETCH(QByteArray, fault);
    QFETCH(bool, succeeds);
    QFETCH(Code, code);
    QFETCH(QString, fix);
    QFETCH(bool, partial);
    QFETCH(int, foregroundRequests);

    Engine engine(&m_network, profile(format, fault), fastRetries());
    const QString provider = engine.profile().displayName;
    const qint64 servedBefore = m_local.stats().requestsServed;
    Row row;
    row.tag = QStringLiteral("%1, %2, `%3`")
                  .arg(format, foreground ? QStringLiteral("foreground") : QStringLiteral("prefetch"),
                       QString::fromLatin1(fault).remove(QRegularExpression(QStringLiteral("@row\\d+"))));

    if (foreground) {
        std::unique_ptr<AnswerReader> handle(
            engine.request(Strategy::None, engine.render(chat()), Llm::monotonicNowNs(), nullptr));
        QSignalSpy retrying(handle.get(), &AnswerReader::retrying);
        QStringList order; // what the consumer heard, in order
        connect(handle.get(), &AnswerReader::retrying, this, [&order] { order << QStringLiteral("retry"); });
        connect(handle.get(), &AnswerReader::eventReceived, this, [&order](const Llm::StreamEvent &e) {
            if (e.isContent())
                order << QStringLiteral("content");
        });
        QSignalSpy failed(handle.get(), &AnswerReader::failed);
        QSignalSpy finished(handle.get(), &AnswerReader::finished);
        QTRY_VERIFY_WITH_TIMEOUT(handle->isDone(), 15000);
        const int retries = foregroundRequests - 1;
        QCOMPARE(retrying.size(), retries);
        for (int i = 0; i < retrying.size(); ++i) {
            QCOMPARE(retrying.at(i).at(2).toInt(), i + 1); // attempts numbered in order
            QCOMPARE(retrying.at(i).at(3).toInt(), 3);
            QCOMPARE(qvariant_cast<Llm::Error>(retrying.at(i).at(0)).code(), code);
        }
        if (succeeds) {
            QCOMPARE(finished.size(), 1);
            QCOMPARE(failed.size(), 0);
            QVERIFY(!handle->text().isEmpty());
            row.outcome = QStringLiteral("answered after %1 %2").arg(retries).arg(retries == 1 ? "retry" : "retries");
            row.textKept = true;
        } else {
            QCOMPARE(failed.size(), 1);
            QCOMPARE(finished.size(), 0);
            const Llm::Error error = qvariant_cast<Llm::Error>(failed.at(0).at(0));
            QCOMPARE(error.code(), code);
            QVERIFY2(error.message().contains(provider), qPrintable(error.message()));
            QVERIFY2(error.message().contains(fix), qPrintable(error.message()));
            // A failure after content keeps what came (the answer is incomplete: it failed);
            // no retry ever restarted it.
            QCOMPARE(!handle->text().isEmpty(), partial);
            row.outcome = QStringLiteral("failed: `%1`%2")
                              .arg(QString::fromLatin1(error.codeName()),
                                   retries > 0 ? QStringLiteral(" after %1 retries").arg(retries) : QString());
            row.message = error.message().replace(provider, QLatin1String("[provider]"));
            row.textKept = !handle->text().isEmpty();
        }
        // Every retry came before the first content: nothing shown was ever restarted.
        QCOMPARE(order.count(QStringLiteral("retry")), retries);
        QCOMPARE(order.lastIndexOf(QStringLiteral("retry")), retries - 1);
        QCOMPARE(order.contains(QStringLiteral("content")), succeeds || partial);
        QCOMPARE(handle->answer()->retries(), retries);
        QCOMPARE(m_local.stats().requestsServed - servedBefore, qint64(foregroundRequests));
    } else {
        const qint64 prefetchesBefore = m_local.stats().prefetchRequests;
        QPointer<PrefetchSession> session = engine.prefetch(Strategy::Hover, engine.render(chat()), 30s,
                                                            SignalStrength::Strong);
        QVERIFY(session);
        QVERIFY(session->answer());
        QSignalSpy retrying(session->answer(), &AnswerFetch::retrying);
        QSignalSpy failed(session->answer(), &AnswerFetch::failed);
        QTRY_VERIFY_WITH_TIMEOUT(!session || !session->isLive() || session->state() == PrefetchSession::State::Complete,
                                 15000);
        // Every fault fails a guess, the ones a retry would cure too: it is a miss, not retried.
        QCOMPARE(retrying.size(), 0);
        QCOMPARE(failed.size(), 1);
        const Llm::Error error = qvariant_cast<Llm::Error>(failed.at(0).at(0));
        QCOMPARE(error.code(), code);
        QVERIFY2(error.message().contains(provider), qPrintable(error.message()));
        QCOMPARE(m_local.stats().requestsServed - servedBefore, 1);
        QCOMPARE(m_local.stats().prefetchRequests - prefetchesBefore, 1);
        row.outcome = QStringLiteral("failed: `%1`, not retried (a miss)").arg(QString::fromLatin1(error.codeName()));
        row.message = QStringLiteral("none (a guess is never shown)");
    }
    QVERIFY(m_local.waitForNoOpenStream(5000));
    row.openAfter = m_local.stats().streamsOpen;
    QCOMPARE(row.openAfter, 0);
    QCOMPARE(row.requests = int(m_local.stats().requestsServed - servedBefore), foreground ? foregroundRequests : 1);
    table().append(row);
}

void tst_FaultMatrix::retryHonoursRetryAfterAndStopCancelsIt()
{
    // Retry-After: 1 with a 5 ms back-off: the provider's time wins. Stop during the wait
    // ends the answer at once, and no request leaves after it.
    Settings settings = fastRetries();
    Engine engine(&m_network, profile(QStringLiteral("openai"), "status=429,retry-after=1"), settings);
    const qint64 servedBefore = m_local.stats().requestsServed;
    std::unique_ptr<AnswerReader> handle(
        engine.request(Strategy::None, engine.render(chat()), Llm::monotonicNowNs(), nullptr));
    QSignalSpy retrying(handle.get(), &AnswerReader::retrying);
    QSignalSpy failed(handle.get(), &AnswerReader::failed);
    QVERIFY(retrying.wait(10000));
    QCOMPARE(retrying.at(0).at(1).value<std::chrono::milliseconds>(), 1000ms);
    QCOMPARE(retrying.at(0).at(2).toInt(), 1);
    QVERIFY(handle->answer()->isWaitingToRetry());
    QVERIFY(!handle->isDone());
    engine.stopAll();
    QCOMPARE(failed.size(), 1);
    QCOMPARE(qvariant_cast<Llm::Error>(failed.at(0).at(0)).code(), Code::Cancelled);
    // Past the Retry-After: had the retry gone out, it would have reached the server by now.
    QVERIFY(m_local.settle(&m_network, 1300, 5000));
    QCOMPARE(m_local.stats().requestsServed - servedBefore, 1);
    QCOMPARE(retrying.size(), 1);
}

void tst_FaultMatrix::retryAfterPastTheCapIsNotWaitedFor()
{
    // A provider asking for longer than the cap is not retried: the user reads when to try.
    Settings settings = fastRetries();
    settings.retry.maxRetryAfter = 5s;
    Engine engine(&m_network, profile(QStringLiteral("anthropic"), "status=429,retry-after=6"), settings);
    const qint64 servedBefore = m_local.stats().requestsServed;
    std::unique_ptr<AnswerReader> handle(
        engine.request(Strategy::None, engine.render(chat()), Llm::monotonicNowNs(), nullptr));
    QSignalSpy retrying(handle.get(), &AnswerReader::retrying);
    QSignalSpy failed(handle.get(), &AnswerReader::failed);
    QVERIFY(failed.wait(10000));
    QCOMPARE(retrying.size(), 0);
    const Llm::Error error = qvariant_cast<Llm::Error>(failed.at(0).at(0));
    QCOMPARE(error.code(), Code::RateLimited);
    QVERIFY2(error.message().contains(QLatin1String("6 s")), qPrintable(error.message()));
    QCOMPARE(m_local.stats().requestsServed - servedBefore, 1);
}

void tst_FaultMatrix::streamLimit_data()
{
    QTest::addColumn<QString>("format");
    QTest::addRow("openai") << QStringLiteral("openai");
    QTest::addRow("anthropic") << QStringLiteral("anthropic");
}

void tst_FaultMatrix::streamLimit()
{
    // --max-streams 1: while one stream is open the next gets 429 with Retry-After: 1. The
    // foreground answer waits that second once and is answered when the first stream ended;
    // a prefetch refused so is a miss, not retried.
    QFETCH(QString, format);
    TestSupport::LocalProviderFixture limited(u"instant",
                                              [](LocalProvider::ServerConfig &c) { c.maxConcurrentStreams = 1; });
    QVERIFY2(limited.start(), qPrintable(limited.errorString()));
    Llm::ProviderProfile p = limited.profile("decode=100");
    if (format == QLatin1String("anthropic"))
        p.format = Llm::ApiFormat::AnthropicMessages;
    Llm::ProviderProfile slow = limited.profile("decode=40");
    slow.format = p.format;

    Engine holder(&m_network, slow, fastRetries());
    Llm::ChatRequest longer = chat();
    longer.maxTokens = 30; // at 40 tokens/s: open for ~0.75 s, less than the Retry-After
    std::unique_ptr<AnswerReader> held(
        holder.request(Strategy::None, holder.render(longer), Llm::monotonicNowNs(), nullptr));
    QTRY_COMPARE_WITH_TIMEOUT(limited.stats().streamsOpen, qint64(1), 5000);

    Engine engine(&m_network, p, fastRetries());
    QPointer<PrefetchSession> session = engine.prefetch(Strategy::Hover, engine.render(chat()), 30s,
                                                        SignalStrength::Strong);
    QVERIFY(session && session->answer());
    QSignalSpy prefetchRetrying(session->answer(), &AnswerFetch::retrying);
    QSignalSpy prefetchFailed(session->answer(), &AnswerFetch::failed);
    QVERIFY(prefetchFailed.wait(5000));
    QCOMPARE(qvariant_cast<Llm::Error>(prefetchFailed.at(0).at(0)).code(), Code::RateLimited);
    QCOMPARE(prefetchRetrying.size(), 0);

    const qint64 servedBefore = limited.stats().requestsServed;
    std::unique_ptr<AnswerReader> handle(
        engine.request(Strategy::None, engine.render(chat()), Llm::monotonicNowNs(), nullptr));
    QSignalSpy retrying(handle.get(), &AnswerReader::retrying);
    QSignalSpy finished(handle.get(), &AnswerReader::finished);
    QVERIFY(retrying.wait(5000));
    QCOMPARE(retrying.at(0).at(1).value<std::chrono::milliseconds>(), 1000ms);
    QCOMPARE(TestSupport::drain(held.get(), 10000).isEmpty(), false);
    QVERIFY(finished.wait(10000));
    QVERIFY(!handle->text().isEmpty());
    QCOMPARE(retrying.size(), 1);
    QCOMPARE(limited.stats().requestsServed - servedBefore, 2);
    QVERIFY(limited.waitForNoOpenStream(5000));

    Row row;
    row.tag = QStringLiteral("%1, foreground, `--max-streams 1` (one stream open)").arg(format);
    row.outcome = QStringLiteral("answered after 1 retry (waited the Retry-After: 1 s)");
    row.textKept = true;
    row.requests = 2;
    table().append(row);
    row.tag = QStringLiteral("%1, prefetch, `--max-streams 1` (one stream open)").arg(format);
    row.outcome = QStringLiteral("failed: `rate_limited`, not retried (a miss)");
    row.message = QStringLiteral("none (a guess is never shown)");
    row.textKept = false;
    row.requests = 1;
    table().append(row);
}

void tst_FaultMatrix::failedGenerationNeverTouchesTheDocument_data()
{
    QTest::addColumn<QByteArray>("fault");
    QTest::addColumn<bool>("partial");
    QTest::addRow("refused (401)") << QByteArray("status=401") << false;
    QTest::addRow("busy, retried, still failing (503)") << QByteArray("status=503") << false;
    QTest::addRow("broken after 5 tokens") << QByteArray("drop-after=5") << true;
    QTest::addRow("error event after 5 tokens") << QByteArray("error-at=5") << true;
    QTest::addRow("malformed after 5 tokens") << QByteArray("malformed-at=5") << true;
}

void tst_FaultMatrix::failedGenerationNeverTouchesTheDocument()
{
    QFETCH(QByteArray, fault);
    QFETCH(bool, partial);
    const std::unique_ptr<App> app = makeApp(fault, fastRetries());
    QVERIFY(app);
    Gui::DocumentTab *tab = app->window->currentTab();
    const QString original = tab->toPlainText();
    tab->setFocus();
    tab->moveCursor(QTextCursor::End);
    QSignalSpy ended(app->window->answerPane(), &Gui::AnswerPane::answerEnded);
    QTest::mouseClick(app->window->summarizeButton(), Qt::LeftButton);
    QVERIFY(ended.wait(15000));
    QCOMPARE(ended.at(0).at(0).toBool(), false);
    const QString status = app->window->answerPane()->statusText();
    QVERIFY2(status.contains(app->stack->engine()->profile().displayName), qPrintable(status));
    // What came before the fault stays readable in the pane, marked as failed; the document
    // is what the user wrote, with nothing to undo.
    QCOMPARE(!app->window->answerPane()->text().isEmpty(), partial);
    QCOMPARE(tab->toPlainText(), original);
    QVERIFY(!tab->document()->isUndoAvailable());
    // Typing goes on as usual.
    QTest::keyClicks(tab, QStringLiteral(" Still mine."));
    QCOMPARE(tab->toPlainText(), original + QStringLiteral(" Still mine."));
}

void tst_FaultMatrix::retryIsShownAndEscStopsIt()
{
    // A long back-off, so that the wait can be seen and stopped; nothing waits it out.
    Settings settings = fastRetries();
    settings.retry.firstDelay = 20s;
    settings.retry.maxDelay = 20s;
    settings.retry.jitter = 0;
    const std::unique_ptr<App> app = makeApp("status=503", settings);
    QVERIFY(app);
    Gui::DocumentTab *tab = app->window->currentTab();
    const QString original = tab->toPlainText();
    QSignalSpy ended(app->window->answerPane(), &Gui::AnswerPane::answerEnded);
    QTest::mouseClick(app->window->summarizeButton(), Qt::LeftButton);
    const QString provider = app->stack->engine()->profile().displayName;
    QTRY_VERIFY2_WITH_TIMEOUT(app->window->answerPane()->statusText().contains(QLatin1String("retrying in 20 s")),
                              qPrintable(app->window->answerPane()->statusText()), 10000);
    const QString status = app->window->answerPane()->statusText();
    QVERIFY2(status.contains(provider + QLatin1String(" is busy (server error, HTTP 503)")), qPrintable(status));
    QVERIFY2(status.contains(QLatin1String("attempt 1 of 3")), qPrintable(status));
    QVERIFY(ended.isEmpty());
    const qint64 served = m_local.stats().requestsServed;

    QTest::keyClick(tab, Qt::Key_Escape);
    QCOMPARE(ended.size(), 1);
    QCOMPARE(app->window->answerPane()->statusText(), Gui::AnswerPane::tr("Stopped."));
    QVERIFY(m_local.settle(&m_network, 200, 5000));
    QCOMPARE(m_local.stats().requestsServed, served); // the retry never left
    QCOMPARE(app->stack->engine()->foregroundInFlight(), 0);
    QCOMPARE(tab->toPlainText(), original);
}

QTEST_MAIN(tst_FaultMatrix)
#include "tst_faultmatrix.moc"
