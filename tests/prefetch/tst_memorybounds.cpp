// What a server that never stops sending can make Headstart hold (issue 36). The local
// provider's flood fault (docs/localprovider.md, "Faults") streams endless answer text, ever new
// choices or tool calls, keep-alive comments or an error body that never closes, as fast as the
// client reads. Each is asked for by the engine as the app asks (a foreground answer and a
// one-token warm-up) and by headstart-cli, in both wire formats. The answer must end with a
// clear error soon, and the most memory the process held meanwhile must stay under a bound
// (docs/reliability.md, "Bounds", has the figures). Before the bounds, the text flood took the
// CLI to 1.6 GB in 8 s and the choices flood to 11 GB in a minute.
#include "support/localproviderfixture.h"

#include "base/processmemory.h"

#include "llm/clock.h"
#include "prefetch/engine.h"
#include "prefetch/prefetchsession.h"
#include "prefetch/stream/answerreader.h"

#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QNetworkAccessManager>
#include <QProcess>
#include <QSignalSpy>
#include <QTest>

#include <QTimer>

#include <csignal>
#include <sys/resource.h>

using namespace Prefetch;
using namespace std::chrono_literals;

namespace {

// The most this process may grow while one flooded answer runs. Measured with the bounds in
// place: under 6 MB for every case (docs/reliability.md); the rest is headroom for a busy CI
// machine's allocator, not for the flood.
constexpr qint64 EngineBoundKb = 48 * 1024;
// headstart-cli's whole peak, start-up included (about 26 MB with the bounds).
constexpr qint64 CliBoundKb = 64 * 1024;

// Starts a new peak: Linux resets VmHWM to the current resident size.
bool resetPeak()
{
    QFile clear(QStringLiteral("/proc/self/clear_refs"));
    return clear.open(QIODevice::WriteOnly) && clear.write("5") == 1;
}

} // namespace

class tst_MemoryBounds : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void engine_data();
    void engine();
    void guessPausedAtItsCap();
    void cli_data();
    void cli();

private:
    TestSupport::LocalProviderFixture m_local; // settling the network manager
    QNetworkAccessManager m_network;
};

void tst_MemoryBounds::initTestCase()
{
    QVERIFY2(m_local.start(), qPrintable(m_local.errorString()));
    QVERIFY2(resetPeak(), "/proc/self/clear_refs cannot be written: the peak cannot be measured");
}

void tst_MemoryBounds::engine_data()
{
    QTest::addColumn<QByteArray>("flood");
    QTest::addColumn<bool>("anthropic");
    QTest::addColumn<bool>("warmup");
    QTest::addColumn<Llm::Error::Code>("code");
    for (const char *flood : {"text", "choices", "tools", "comments", "error"}) {
        const Llm::Error::Code code = qstrcmp(flood, "comments") == 0 ? Llm::Error::Code::Timeout
                                      : qstrcmp(flood, "error") == 0  ? Llm::Error::Code::ServerError
                                                                      : Llm::Error::Code::MalformedStream;
        for (bool anthropic : {false, true}) {
            for (bool warmup : {false, true}) {
                QTest::addRow("%s, %s, %s", flood, anthropic ? "anthropic" : "openai",
                              warmup ? "warm-up" : "foreground")
                    << QByteArray(flood) << anthropic << warmup << code;
            }
        }
    }
}

void tst_MemoryBounds::engine()
{
    QFETCH(QByteArray, flood);
    QFETCH(bool, anthropic);
    QFETCH(bool, warmup);
    QFETCH(Llm::Error::Code, code);

    Llm::ProviderProfile profile = m_local.profile({}, "flood=" + flood);
    profile.format = anthropic ? Llm::ApiFormat::AnthropicMessages : Llm::ApiFormat::OpenAiChat;
    // Keep-alives before the first token are waited for up to this; the app's default is five
    // minutes (a reasoning model can think that long).
    profile.timeouts.firstByte = 1500ms;
    Settings settings;
    settings.retry.firstDelay = 5ms;
    settings.retry.maxDelay = 20ms;
    settings.retry.maxRetries = 0; // one flood per case: a retried 500 would flood again
    Engine engine(&m_network, profile, settings);
    Llm::ChatRequest request;
    request.model = profile.model;
    request.maxTokens = warmup ? 1 : 1024;
    request.messages.append({Llm::Role::User, QStringLiteral("Say something.")});
    const RenderedRequest rendered = engine.render(request);

    const qint64 before = Base::processStatusKb("VmRSS");
    QVERIFY(resetPeak());
    // Should the bounds ever break, Stop the flood at four times the bound instead of letting
    // it take the CI machine's memory; the check below then fails.
    QTimer guard;
    connect(&guard, &QTimer::timeout, &engine, [&engine, before] {
        if (Base::processStatusKb("VmRSS") - before > 4 * EngineBoundKb)
            engine.stopAll();
    });
    guard.start(10);
    const qint64 startedNs = Llm::monotonicNowNs();
    if (warmup) {
        QPointer<PrefetchSession> session = engine.prefetch(Strategy::Warmup, rendered, 30s);
        QVERIFY(session);
        QTRY_VERIFY_WITH_TIMEOUT(!session || !session->isLive(), 20000);
        QCOMPARE(engine.metrics().stats(Strategy::Warmup).failed, 1);
    } else {
        AnswerReader *answer = engine.request(Strategy::None, rendered, Llm::monotonicNowNs(), this);
        const QString text = TestSupport::drain(answer, 20000);
        QVERIFY2(text.startsWith(QLatin1String("<failed")), qPrintable(text.left(200)));
        QVERIFY(answer->error());
        QCOMPARE(answer->error()->code(), code);
        // The text that came before the cut is kept, and it is at most the answer's allowance.
        QVERIFY(answer->text().size() <= 1024 * 24 + 4096);
    }
    const double seconds = double(Llm::monotonicNowNs() - startedNs) / 1e9;
    const qint64 growth = Base::processStatusKb("VmHWM") - before;
    qInfo("%s: ended after %.2f s, peak growth %lld KB", QTest::currentDataTag(), seconds,
          static_cast<long long>(growth));
    QVERIFY2(growth < EngineBoundKb, qPrintable(QStringLiteral("grew by %1 KB").arg(growth)));
    QVERIFY(m_local.waitForNoOpenStream(5000));
}

// A guess that has buffered its share pauses, and what it has not read must stay with the
// server: the reply holds at most its read buffer, then TCP holds back the rest. Before the read
// buffer reached Qt's HTTP thread, that thread went on reading as fast as the server wrote and
// queued it all for the main thread (100 MB and more within a second of this flood).
void tst_MemoryBounds::guessPausedAtItsCap()
{
    Llm::ProviderProfile profile = m_local.profile({}, "flood=text");
    // It cannot continue an answer, so the guess asks for all of it and pauses at the cap.
    profile.encodeOptions.continuation = Llm::ContinuationStyle::None;
    Settings settings;
    settings.bufferTokens = 20;
    Engine engine(&m_network, profile, settings);
    Llm::ChatRequest request;
    request.model = profile.model;
    request.maxTokens = 4096; // room for far more than the cap: the answer's bound stays away
    request.messages.append({Llm::Role::User, QStringLiteral("Say something.")});

    const qint64 floodedBefore = m_local.stats().floodBytes;
    const qint64 before = Base::processStatusKb("VmRSS");
    QVERIFY(resetPeak());
    QTimer guard; // as in engine(): a broken bound stops at four times the bound
    connect(&guard, &QTimer::timeout, &engine, [&engine, before] {
        if (Base::processStatusKb("VmRSS") - before > 4 * EngineBoundKb)
            engine.stopAll();
    });
    guard.start(10);
    QPointer<PrefetchSession> session = engine.prefetch(Strategy::Hover, engine.render(request), 30s);
    QVERIFY(session);
    QTRY_VERIFY_WITH_TIMEOUT(!session || session->isPausedAtCap(), 10000);
    QVERIFY(session);
    // The event that matters: the server is held back, its flood no longer written anywhere.
    qint64 written = -1;
    QVERIFY(QTest::qWaitFor(
        [&] {
            const qint64 now = m_local.stats().floodBytes;
            const bool held = now == written;
            written = now;
            QTest::qWait(200);
            return held;
        },
        20000));
    const qint64 growth = Base::processStatusKb("VmHWM") - before;
    qInfo("held back after %lld KB written; peak growth %lld KB", static_cast<long long>((written - floodedBefore) / 1024),
          static_cast<long long>(growth));
    QVERIFY2(session && session->isPausedAtCap(), "the guess was stopped: it held too much");
    QVERIFY2(growth < EngineBoundKb, qPrintable(QStringLiteral("grew by %1 KB").arg(growth)));
    engine.stopAll();
    QVERIFY(m_local.waitForNoOpenStream(5000));
}

void tst_MemoryBounds::cli_data()
{
    QTest::addColumn<QByteArray>("flood");
    QTest::addColumn<bool>("anthropic");
    QTest::addColumn<QString>("error");
    for (const char *flood : {"text", "choices", "tools", "comments", "error"}) {
        const QString error = qstrcmp(flood, "comments") == 0 ? QString() // interrupted: Ctrl-C
                              : qstrcmp(flood, "error") == 0  ? QStringLiteral("server_error")
                                                              : QStringLiteral("malformed_stream");
        for (bool anthropic : {false, true}) {
            QTest::addRow("%s, %s", flood, anthropic ? "anthropic" : "openai")
                << QByteArray(flood) << anthropic << error;
        }
    }
}

void tst_MemoryBounds::cli()
{
    QFETCH(QByteArray, flood);
    QFETCH(bool, anthropic);
    QFETCH(QString, error);

    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("ANTHROPIC_API_KEY"), QStringLiteral("sk-ant-memory-bounds"));
    QProcess cli;
    cli.setProcessEnvironment(env);
    // Should the bounds ever break, the CLI dies at 1 GB of address space instead of taking the
    // CI machine's memory; the check below then fails.
    cli.setChildProcessModifier([] {
        const struct rlimit limit = {1024L * 1024 * 1024, 1024L * 1024 * 1024};
        ::setrlimit(RLIMIT_AS, &limit);
    });
    QStringList arguments{QStringLiteral("chat"), QStringLiteral("--quiet"), QStringLiteral("--stats-json"),
                          QStringLiteral("--header"),
                          QStringLiteral("X-Headstart-Fault: flood=") + QString::fromLatin1(flood)};
    if (anthropic) {
        arguments << QStringLiteral("--provider") << QStringLiteral("anthropic") << QStringLiteral("--model")
                  << QStringLiteral("headstart-local") << QStringLiteral("--base-url")
                  << m_local.server().apiUrl().toString();
    } else {
        arguments << QStringLiteral("--base-url") << m_local.server().url().toString();
    }
    arguments << QStringLiteral("Say something.");
    const qint64 served = m_local.stats().requestsServed;
    cli.start(QStringLiteral(HEADSTART_BIN_DIR "/cli/headstart-cli"), arguments);
    QVERIFY(cli.waitForStarted(5000));
    if (error.isEmpty()) {
        // Keep-alives only: it waits for the first token (five minutes by default) with flat
        // memory; the user's Ctrl-C ends it, and the statistics still print.
        QTRY_VERIFY_WITH_TIMEOUT(m_local.stats().requestsServed == served + 1, 10000);
        QTest::qWait(1000); // a second of comments, read as fast as they come
        ::kill(pid_t(cli.processId()), SIGINT);
    }
    QVERIFY(cli.waitForFinished(20000));
    const QList<QByteArray> lines = cli.readAllStandardError().trimmed().split('\n');
    const QJsonObject stats = QJsonDocument::fromJson(lines.last()).object();
    QVERIFY2(!stats.isEmpty(), lines.last().constData());
    QCOMPARE(stats.value(QStringLiteral("error")).toString(), error.isEmpty() ? QStringLiteral("cancelled") : error);
    const qint64 peak = stats.value(QStringLiteral("max_rss_kb")).toInteger();
    qInfo("%s: peak %lld KB", QTest::currentDataTag(), static_cast<long long>(peak));
    QVERIFY(peak > 0);
    QVERIFY2(peak < CliBoundKb, qPrintable(QStringLiteral("peak %1 KB").arg(peak)));
    QVERIFY(m_local.waitForNoOpenStream(5000));
}

QTEST_GUILESS_MAIN(tst_MemoryBounds)
#include "tst_memorybounds.moc"
