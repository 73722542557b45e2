// The instant acknowledgement (issue 15, item 2): with a reasoning main model, how soon the fast
// model's one line is on screen against the reasoning model's first thought and first word of
// its answer, and what the line costs beside the answer. Each message of a fixed pool (English
// and Chinese messages that need the main model) is sent to the local provider's reasoning model
// (headstart-local-reasoner) through the engine, with the app's Prefetch::Acknowledgement asking
// headstart-local-small beside it, as ChatSession does with the setting on. Three messages go
// together: six requests, as many connections as Qt opens to one host (a seventh would wait
// for one of the others to end, which no user sending one message at a time sees).
//
// What the user sees first without the line depends on the provider: DeepSeek streams its
// reasoning (the chat shows it as it comes), OpenAI's o-series and hidden-thinking models send
// nothing before the answer. Both are printed.
//
//   bench_acknowledgement [--profiles hosted-fast,hosted,hosted-slow] [--rounds 2]
#include "support/localproviderfixture.h"
#include "percentile.h"

#include "llm/clock.h"
#include "localprovider/latencyprofile.h"
#include "prefetch/acknowledgement.h"
#include "prefetch/engine.h"
#include "prefetch/prompts/actionprompts.h"
#include "prefetch/stream/answerreader.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QEventLoop>
#include <QNetworkAccessManager>

#include <cstdio>
#include <memory>
#include <vector>

using namespace Prefetch;

namespace {

const char *const Messages[] = {
    "What are the trade-offs of microservices for a team of five?",
    "Plan a two-week trip to Japan for a family with a toddler, on a budget.",
    "Why does my recursive Fibonacci function get so slow past n = 40, and how do I fix it?",
    "Compare PostgreSQL and SQLite for a desktop app that syncs across devices.",
    "Write a short cover letter for a junior data analyst position at a hospital.",
    "Explain how a heat pump works to someone who knows only basic physics.",
    "帮我分析一下远程办公对小团队沟通的影响，并给出改进建议。",
    "比较一下学习钢琴和学习吉他对成年初学者的难度。",
    "为一家小咖啡店写一份开业宣传文案，突出手冲咖啡。",
    "解释一下为什么天空是蓝色的，用中学生能懂的话。",
};

struct Sample {
    double ackMs = -1;       // the line's first words shown (Acknowledgement::lineChanged)
    double reasoningMs = -1; // the reasoning model's first thought delivered
    double answerMs = -1;    // its answer's first word delivered
    double answerCost = 0;
};

// One message: the answer on the reasoning model and the line beside it, both from `sentNs`.
class Exchange : public QObject
{
public:
    Exchange(Engine &engine, const CompiledPrompt &prompt, const QString &text, Sample &sample, int &pending)
        : m_engine(engine)
        , m_sample(sample)
        , m_pending(pending)
    {
        const qint64 sentNs = Llm::monotonicNowNs();
        RenderedRequest rendered = renderChatMessage(prompt, {}, engine.profile().model, text);
        rendered.request.maxTokens = 64; // the first word is what is measured
        m_answer = engine.request(Strategy::None, rendered, sentNs, this);
        const auto since = [sentNs] { return double(Llm::monotonicNowNs() - sentNs) / 1e6; };
        connect(m_answer, &AnswerReader::eventReceived, this, [this, since](const Llm::StreamEvent &e) {
            if (e.type == Llm::StreamEvent::Type::ReasoningDelta && m_sample.reasoningMs < 0)
                m_sample.reasoningMs = since();
            if (e.type == Llm::StreamEvent::Type::TextDelta && m_sample.answerMs < 0)
                m_sample.answerMs = since();
        });
        connect(m_answer, &AnswerReader::finished, this, [this] { done(); });
        connect(m_answer, &AnswerReader::failed, this, [](const Llm::Error &error) {
            std::fprintf(stderr, "an answer failed: %s\n", qPrintable(error.detail()));
            std::exit(1);
        });
        auto *ack = new Acknowledgement(&engine, m_answer);
        connect(ack, &Acknowledgement::lineChanged, this, [this, since] {
            if (m_sample.ackMs < 0)
                m_sample.ackMs = since();
        });
        if (!ack->start(text, m_answer, sentNs)) {
            std::fprintf(stderr, "the acknowledgement was not sent\n");
            std::exit(1);
        }
    }

private:
    void done()
    {
        const Llm::ProviderProfile &p = m_engine.profile();
        m_sample.answerCost = p.pricesFor(p.model).cost(m_answer->usage());
        --m_pending;
    }

    Engine &m_engine;
    Sample &m_sample;
    int &m_pending;
    AnswerReader *m_answer = nullptr;
};

std::vector<double> column(const std::vector<Sample> &samples, double Sample::*field)
{
    std::vector<double> out;
    for (const Sample &s : samples) {
        if (s.*field >= 0)
            out.push_back(s.*field);
    }
    return out;
}

bool runProfile(const QString &name, int rounds, QNetworkAccessManager *network)
{
    TestSupport::LocalProviderFixture local(name);
    if (!local.start()) {
        std::fprintf(stderr, "local provider failed: %s\n", qPrintable(local.errorString()));
        return false;
    }
    Llm::ProviderProfile profile = local.profile();
    profile.model = QStringLiteral("headstart-local-reasoner");
    Settings settings; // the app's defaults, with the line switched on (it is off by default)
    settings.routing.acknowledge = true;
    Engine engine(network, profile, settings);
    if (!Acknowledgement::isWanted(engine, profile.model)) {
        std::fprintf(stderr, "the acknowledgement is not wanted for %s\n", qPrintable(profile.model));
        return false;
    }
    auto compiled = chatTemplate(false, QString()).compile(profile, {});
    if (!compiled) {
        std::fprintf(stderr, "the chat prompt does not compile\n");
        return false;
    }
    std::vector<Sample> samples;
    samples.reserve(std::size(Messages) * rounds);
    constexpr std::size_t Together = 3;
    for (std::size_t batch = 0; batch < std::size(Messages) * std::size_t(rounds); batch += Together) {
        int pending = 0;
        std::vector<std::unique_ptr<Exchange>> exchanges;
        for (std::size_t i = batch; i < std::min(batch + Together, std::size(Messages) * std::size_t(rounds)); ++i) {
            samples.emplace_back();
            ++pending;
            exchanges.push_back(std::make_unique<Exchange>(engine, *compiled,
                                                           QString::fromUtf8(Messages[i % std::size(Messages)]),
                                                           samples.back(), pending));
        }
        while (pending > 0)
            QCoreApplication::processEvents(QEventLoop::WaitForMoreEvents, 50);
        exchanges.clear();
        QCoreApplication::processEvents(); // the lines' streams settle
    }
    const AcknowledgementStats ack = engine.metrics().acknowledgement();
    double answerCost = 0;
    for (const Sample &s : samples)
        answerCost += s.answerCost;
    const auto p = [](const std::vector<double> &v, double q) { return Bench::percentile(v, q); };
    const std::vector<double> line = column(samples, &Sample::ackMs), thought = column(samples, &Sample::reasoningMs),
                              word = column(samples, &Sample::answerMs);
    std::printf("%-12s %5zu  %6.0f %6.0f   %6.0f %6.0f   %6.0f %6.0f   %4lld/%-4lld %5lld  %6.1f %%\n",
                qPrintable(name), samples.size(), p(line, 0.5), p(line, 0.95), p(thought, 0.5), p(thought, 0.95),
                p(word, 0.5), p(word, 0.95), static_cast<long long>(ack.shown), static_cast<long long>(ack.requests),
                static_cast<long long>(ack.late), answerCost > 0 ? 100.0 * ack.cost / answerCost : 0.0);
    return true;
}

} // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral("The instant acknowledgement beside a reasoning model."));
    parser.addHelpOption();
    const QCommandLineOption profilesOption(QStringLiteral("profiles"), QStringLiteral("Latency profiles."),
                                            QStringLiteral("names"), QStringLiteral("hosted-fast,hosted,hosted-slow"));
    const QCommandLineOption roundsOption(QStringLiteral("rounds"), QStringLiteral("Rounds of the pool."),
                                          QStringLiteral("n"), QStringLiteral("2"));
    parser.addOptions({profilesOption, roundsOption});
    parser.process(app);
    const int rounds = std::max(1, parser.value(roundsOption).toInt());

    QNetworkAccessManager network;
    std::printf(
        "A reasoning model (headstart-local-reasoner, %d tokens of thinking) with the fast model's line beside it;\n"
        "%zu messages (6 English, 4 Chinese) x %d rounds per profile. Times in ms from sending, as delivered.\n\n",
        LocalProvider::LatencyProfile().thinkTokens, std::size(Messages), rounds);
    std::printf("%-12s %5s  %13s   %13s   %13s   %9s %5s  %8s\n", "profile", "msgs", "line p50/p95", "thought p50/p95",
                "answer p50/p95", "shown", "late", "line cost");
    for (const QString &name : parser.value(profilesOption).split(u',', Qt::SkipEmptyParts)) {
        if (!runProfile(name.trimmed(), rounds, &network))
            return 1;
    }
    std::printf(
        "\nline: the fast model's line on screen; thought: the reasoning model's first thought (DeepSeek streams\n"
        "it; hidden-thinking models do not); answer: its answer's first word. Line cost: the lines' billed cost\n"
        "as a share of the answers' (answers cut at 64 tokens here, so a full answer makes the share smaller).\n");
    return 0;
}
