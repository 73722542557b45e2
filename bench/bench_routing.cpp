// Fast/slow routing in free chat (issue 15, item 2): how much sooner a routed message starts, how
// often the router sends the fast model a message it should not have, and what the re-asks that
// follow cost. Each seed plays 40 free-chat messages drawn from a labelled pool (small talk,
// simple factual questions, and messages that need the main model, English and Chinese) twice,
// against two local providers on the same latency profile: once with routing on
// (Prefetch::messageKind picks the model, as ChatSession does) and once with routing off (every
// message to the main model). A message routed to the fast model is asked again of the main model
// (the answer's "Ask <main model>") with a probability that depends on whether the fast model was
// the right one: the re-ask rate is an assumption of this run, printed with its figures, not a
// measurement of users.
//
// The pool is written for this benchmark, by the same hand as the router's rules, and includes
// messages chosen to fool them (a factual opening that asks for advice, a greeting before a
// request). The confusion table is therefore an optimistic estimate of the router's accuracy
// on real messages, and the router was not changed after this benchmark first ran.
//
//   bench_routing [--profile hosted] [--seeds 1-6] [--messages 40]
#include "support/localproviderfixture.h"
#include "percentile.h"

#include "llm/clock.h"
#include "llm/requestencoder.h"
#include "prefetch/engine.h"
#include "prefetch/prompts/actionprompts.h"
#include "prefetch/stream/answerreader.h"
#include "prefetch/text/messageroute.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QEventLoop>
#include <QNetworkAccessManager>

#include <cstdio>
#include <functional>
#include <memory>
#include <numeric>
#include <random>
#include <set>
#include <vector>

using namespace Prefetch;

namespace {

// What a message needs: the first two are answered as well by a fast model.
enum class Need { SmallTalk, Fact, MainModel };
constexpr int NeedCount = 3;
const char *const NeedNames[NeedCount] = {"small talk", "simple factual question", "needs the main model"};

// Of the messages a user sends in free chat, what share is each need. An assumption: published
// analyses of chat logs (LMSYS-Chat-1M, WildChat) classify by topic, not by this split.
constexpr double NeedShare[NeedCount] = {0.15, 0.25, 0.60};

// How often a user asks the main model again after a routed answer: often when the fast model
// was the wrong one, rarely when it was right. Assumptions.
constexpr double ReaskWhenMisrouted = 0.5;
constexpr double ReaskWhenRight = 0.05;

struct Labelled {
    const char *text; // UTF-8
    Need need;
};

const std::vector<Labelled> &pool()
{
    static const std::vector<Labelled> messages = {
        // Small talk.
        {"hi", Need::SmallTalk},
        {"Hello!", Need::SmallTalk},
        {"thanks, that's perfect", Need::SmallTalk},
        {"Thank you so much!", Need::SmallTalk},
        {"good morning", Need::SmallTalk},
        {"ok got it", Need::SmallTalk},
        {"How are you today?", Need::SmallTalk},
        {"cool, thanks", Need::SmallTalk},
        {"你好", Need::SmallTalk},
        {"谢谢！", Need::SmallTalk},
        {"好的，明白了", Need::SmallTalk},
        {"早上好", Need::SmallTalk},
        // Simple factual questions.
        {"What is the capital of Australia?", Need::Fact},
        {"Who wrote Pride and Prejudice?", Need::Fact},
        {"How many ounces are in a pound?", Need::Fact},
        {"When did the Berlin Wall fall?", Need::Fact},
        {"What's the boiling point of water in Fahrenheit?", Need::Fact},
        {"How tall is Mount Kilimanjaro?", Need::Fact},
        {"Who painted the Night Watch?", Need::Fact},
        {"What year did the first iPhone come out?", Need::Fact},
        {"define serendipity", Need::Fact},
        {"Is Pluto a planet?", Need::Fact},
        {"What does HTTP stand for?", Need::Fact},
        {"How far is the Moon from Earth?", Need::Fact},
        {"珠穆朗玛峰有多高？", Need::Fact},
        {"《红楼梦》的作者是谁？", Need::Fact},
        {"一公里等于多少英里？", Need::Fact},
        {"澳大利亚的首都是哪里？", Need::Fact},
        // Messages that need the main model, some phrased like the two kinds above.
        {"Explain how a hash map handles collisions.", Need::MainModel},
        {"Write a short poem about autumn rain.", Need::MainModel},
        {"Why does my bread come out dense?", Need::MainModel},
        {"Draft an email declining a meeting politely.", Need::MainModel},
        {"Compare SQLite and PostgreSQL for a desktop app.", Need::MainModel},
        {"What is the best way to structure a thesis introduction?", Need::MainModel},
        {"What are the trade-offs of microservices for a team of five?", Need::MainModel},
        {"How many hours a week should I study for the bar exam, given a full-time job?", Need::MainModel},
        {"Who is more persuasive in the Lincoln-Douglas debates, and on which points?", Need::MainModel},
        {"hi, can you help me plan a three-day trip to Kyoto?", Need::MainModel},
        {"thanks! now make the second paragraph shorter", Need::MainModel},
        {"What is wrong with this sentence: Me and him goes to the store.", Need::MainModel},
        {"Give me five names for a bakery that sells only sourdough.", Need::MainModel},
        {"Which is more idiomatic in C++, a raw loop or std::ranges::find_if, and why?", Need::MainModel},
        {"Is it rude to reply-all to a company-wide email?", Need::MainModel},
        {"What happens to the time complexity if the array is already sorted?", Need::MainModel},
        {"Summarize the plot of Hamlet in four sentences.", Need::MainModel},
        {"How do I tell my landlord the heating has failed for a week?", Need::MainModel},
        {"为什么天空是蓝色的？", Need::MainModel},
        {"帮我写一封请假邮件", Need::MainModel},
        {"比较一下Python和Go的并发模型", Need::MainModel},
        {"明天去面试，我应该穿什么？", Need::MainModel},
        {"给我的咖啡店起五个名字", Need::MainModel},
        {"这段话有什么语法错误：我昨天去了商店买了。", Need::MainModel},
    };
    return messages;
}

// One message as played: its need, where the router sent it, and the two runs' answers.
struct Played {
    const char *text = nullptr;
    Need need = Need::MainModel;
    bool routed = false; // to the fast model, in the routing-on run
    double onMs = 0;     // first token, routing on
    double offMs = 0;    // first token, routing off (the main model)
    double onCost = 0;   // dollars, routing on, with the re-ask if any
    double offCost = 0;
    bool reasked = false;
    double reaskMs = 0; // the re-ask's first token on the main model
};

struct Run {
    std::unique_ptr<TestSupport::LocalProviderFixture> local;
    Llm::ProviderProfile profile;
    std::unique_ptr<Engine> engine;
    CompiledPrompt main;
    CompiledPrompt fast;
};

bool makeRun(Run &run, const QString &latencyProfile, QNetworkAccessManager *network)
{
    run.local = std::make_unique<TestSupport::LocalProviderFixture>(latencyProfile, [](LocalProvider::ServerConfig &c) {
        c.profile.decodeTokensPerSec = 2000; // the run takes minutes; no first token changes
    });
    if (!run.local->start()) {
        std::fprintf(stderr, "local provider failed: %s\n", qPrintable(run.local->errorString()));
        return false;
    }
    run.profile = run.local->profile();
    run.engine = std::make_unique<Engine>(network, run.profile, Settings{});
    Llm::ProviderProfile fast = run.profile;
    fast.model = run.profile.fastModel;
    auto main = chatTemplate(false, QString()).compile(run.profile, {});
    auto routed = chatTemplate(false, QString()).compile(fast, {});
    if (!main || !routed) {
        std::fprintf(stderr, "the chat prompt does not compile\n");
        return false;
    }
    run.main = std::move(*main);
    run.fast = std::move(*routed);
    return true;
}

// Asks `text` of `model` on `run` as the first message of a conversation; calls `done` with the
// time to the first token and the cost, or stops the program on a failure.
void ask(Run &run, bool fastModel, const QString &text, std::function<void(double, double)> done)
{
    const QString model = fastModel ? run.profile.fastModel : run.profile.model;
    RenderedRequest rendered = renderChatMessage(fastModel ? run.fast : run.main, {}, model, text);
    AnswerReader *answer = run.engine->request(Strategy::None, rendered, Llm::monotonicNowNs(), run.engine.get());
    auto finish = [answer, &run, model, done]() {
        if (answer->error()) {
            std::fprintf(stderr, "a message failed: %s\n", qPrintable(answer->error()->detail()));
            std::exit(1);
        }
        const double cost = run.profile.pricesFor(model).cost(answer->usage());
        const double ms = answer->perceivedLatencyMs();
        answer->deleteLater();
        done(ms, cost);
    };
    if (answer->isDone()) {
        finish();
        return;
    }
    QObject::connect(answer, &AnswerReader::finished, answer, finish);
    QObject::connect(answer, &AnswerReader::failed, answer, finish);
}

// One seed: its messages drawn from the pool (each at most once), played one after another; the
// two runs of a message at the same time, on their own providers.
class Seed
{
public:
    Seed(int seed, int count)
        : m_rng(std::uint32_t(seed) * 2654435761u + 17)
    {
        std::vector<std::vector<const Labelled *>> byNeed(NeedCount);
        for (const Labelled &m : pool())
            byNeed[int(m.need)].push_back(&m);
        for (auto &list : byNeed)
            std::shuffle(list.begin(), list.end(), m_rng);
        std::discrete_distribution<int> need({NeedShare[0], NeedShare[1], NeedShare[2]});
        for (int i = 0; i < count; ++i) {
            int n = need(m_rng);
            while (byNeed[n].empty())
                n = (n + 1) % NeedCount;
            m_messages.push_back(byNeed[n].back());
            byNeed[n].pop_back();
        }
    }

    bool start(const QString &latencyProfile, QNetworkAccessManager *network, std::function<void()> ended)
    {
        m_ended = std::move(ended);
        if (!makeRun(m_on, latencyProfile, network) || !makeRun(m_off, latencyProfile, network))
            return false;
        next();
        return true;
    }

    const std::vector<Played> &played() const { return m_played; }

private:
    void next()
    {
        if (m_played.size() == m_messages.size()) {
            m_ended();
            return;
        }
        const Labelled &message = *m_messages[m_played.size()];
        const QString text = QString::fromUtf8(message.text);
        Played p;
        p.text = message.text;
        p.need = message.need;
        p.routed = m_on.profile.hasDistinctFastModel() && routesToFastModel(messageKind(text));
        m_played.push_back(p);
        m_pending = 2;
        ask(m_on, p.routed, text, [this, text](double ms, double cost) {
            m_played.back().onMs = ms;
            m_played.back().onCost = cost;
            reaskOrNext(text);
        });
        ask(m_off, false, text, [this, text](double ms, double cost) {
            m_played.back().offMs = ms;
            m_played.back().offCost = cost;
            reaskOrNext(text);
        });
    }

    void reaskOrNext(const QString &text)
    {
        if (--m_pending > 0)
            return;
        Played &p = m_played.back();
        const double chance = p.need == Need::MainModel ? ReaskWhenMisrouted : ReaskWhenRight;
        if (p.routed && std::uniform_real_distribution<double>(0, 1)(m_rng) < chance) {
            p.reasked = true;
            ask(m_on, false, text, [this](double ms, double cost) {
                m_played.back().reaskMs = ms;
                m_played.back().onCost += cost;
                next();
            });
            return;
        }
        next();
    }

    std::mt19937 m_rng;
    std::vector<const Labelled *> m_messages;
    std::vector<Played> m_played;
    Run m_on;
    Run m_off;
    int m_pending = 0;
    std::function<void()> m_ended;
};

struct Figures {
    std::vector<double> routedOn, routedOff, allOn, allOff, reask;
    int confusion[NeedCount][2] = {}; // [need][routed]
    int reasked = 0;
    double costOn = 0, costOff = 0;
    std::set<QByteArray> wrongFast, wrongMain; // distinct texts the router sent the wrong way

    void add(const std::vector<Played> &played)
    {
        for (const Played &p : played) {
            ++confusion[int(p.need)][p.routed ? 1 : 0];
            allOn.push_back(p.onMs);
            allOff.push_back(p.offMs);
            if (p.routed) {
                routedOn.push_back(p.onMs);
                routedOff.push_back(p.offMs);
            }
            if (p.reasked) {
                ++reasked;
                reask.push_back(p.reaskMs);
            }
            costOn += p.onCost;
            costOff += p.offCost;
            if (p.routed && p.need == Need::MainModel)
                wrongFast.insert(p.text);
            if (!p.routed && p.need != Need::MainModel)
                wrongMain.insert(p.text);
        }
    }
};

void printSeedLine(int seed, const Figures &f)
{
    std::printf("| %d | %zu of %zu | %.0f / %.0f | %.0f / %.0f | %d | $%.4f / $%.4f |\n", seed, f.routedOn.size(),
                f.allOn.size(), Bench::percentile(f.routedOn, 0.5), Bench::percentile(f.routedOff, 0.5),
                Bench::percentile(f.allOn, 0.5), Bench::percentile(f.allOff, 0.5), f.reasked, f.costOn, f.costOff);
}

} // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    QCommandLineParser parser;
    parser.addHelpOption();
    parser.addOption({QStringLiteral("profile"), QStringLiteral("The local provider's latency profile."),
                      QStringLiteral("name"), QStringLiteral("hosted")});
    parser.addOption({QStringLiteral("seeds"), QStringLiteral("First and last seed, as 1-6."), QStringLiteral("a-b"),
                      QStringLiteral("1-6")});
    parser.addOption(
        {QStringLiteral("messages"), QStringLiteral("Messages per seed."), QStringLiteral("n"), QStringLiteral("40")});
    parser.process(app);
    const QStringList range = parser.value(QStringLiteral("seeds")).split(u'-');
    const int first = range.value(0).toInt();
    const int last = range.size() > 1 ? range.value(1).toInt() : first;
    const int count = parser.value(QStringLiteral("messages")).toInt();
    const QString latency = parser.value(QStringLiteral("profile"));
    if (first < 1 || last < first || count < 1 || !LocalProvider::LatencyProfile::byName(latency)) {
        std::fprintf(stderr, "bad --seeds, --messages or --profile\n");
        return 2;
    }

    std::printf("Free chat, %d messages per seed (%.0f %% small talk, %.0f %% simple factual questions, %.0f %% "
                "needing the main model, English and Chinese), each sent with routing on and off to its own local "
                "provider on `%s` (decode 2,000 tokens/s instead of the profile's, which changes no first token), "
                "app default settings, the local profile's prices (fast model $0.075/$0.30 per million). A routed "
                "answer is asked again of the main model with p = %.2f when it needed the main model and %.2f "
                "when it did not (assumptions).\n\n",
                count, 100 * NeedShare[0], 100 * NeedShare[1], 100 * NeedShare[2], qPrintable(latency),
                ReaskWhenMisrouted, ReaskWhenRight);

    QNetworkAccessManager network;
    std::vector<std::unique_ptr<Seed>> seeds;
    int running = 0;
    QEventLoop loop;
    for (int s = first; s <= last; ++s) {
        seeds.push_back(std::make_unique<Seed>(s, count));
        ++running;
        if (!seeds.back()->start(latency, &network, [&] {
                if (--running == 0)
                    loop.quit();
            }))
            return 1;
    }
    loop.exec();

    std::printf("| seed | routed to the fast model | routed p50 ms, fast / main | all p50 ms, routing on / off | "
                "re-asks | cost, routing on / off |\n|---|---|---|---|---|---|\n");
    Figures pooled; // seeds after the first: the first is the one a tuner would look at
    for (int s = first; s <= last; ++s) {
        Figures f;
        f.add(seeds[size_t(s - first)]->played());
        printSeedLine(s, f);
        if (s > first || first == last)
            pooled.add(seeds[size_t(s - first)]->played());
    }
    const QByteArray poolName = first == last ? QByteArray::number(first)
                                              : QByteArray::number(first + 1) + "–" + QByteArray::number(last);

    std::printf("\nSeeds %s pooled:\n\n| what the message needs | routed to the fast model | to the main model |\n"
                "|---|---|---|\n",
                poolName.constData());
    for (int n = 0; n < NeedCount; ++n)
        std::printf("| %s | %d | %d |\n", NeedNames[n], pooled.confusion[n][1], pooled.confusion[n][0]);
    const int routed = int(pooled.routedOn.size());
    std::printf("\n- routed messages: %d of %zu; first token p50 %.0f ms on the fast model against %.0f ms for the "
                "same messages on the main model (p95 %.0f / %.0f)\n",
                routed, pooled.allOn.size(), Bench::percentile(pooled.routedOn, 0.5),
                Bench::percentile(pooled.routedOff, 0.5), Bench::percentile(pooled.routedOn, 0.95),
                Bench::percentile(pooled.routedOff, 0.95));
    auto mean = [](const std::vector<double> &v) {
        return v.empty() ? 0.0 : std::accumulate(v.begin(), v.end(), 0.0) / double(v.size());
    };
    std::printf("- all messages: p50 %.0f ms with routing, %.0f ms without (mean %.0f / %.0f, p95 %.0f / %.0f)\n",
                Bench::percentile(pooled.allOn, 0.5), Bench::percentile(pooled.allOff, 0.5), mean(pooled.allOn),
                mean(pooled.allOff), Bench::percentile(pooled.allOn, 0.95), Bench::percentile(pooled.allOff, 0.95));
    std::printf("- re-asks: %d of %d routed answers (%.0f %%); a re-ask waits p50 %.0f ms for the main model's first "
                "token, after the fast answer was read\n",
                pooled.reasked, routed, routed ? 100.0 * pooled.reasked / routed : 0.0,
                Bench::percentile(pooled.reask, 0.5));
    std::printf("- cost with routing, re-asks included: $%.4f against $%.4f without (%+.0f %%)\n", pooled.costOn,
                pooled.costOff, pooled.costOff > 0 ? 100.0 * (pooled.costOn / pooled.costOff - 1) : 0.0);
    std::printf("\nSent to the fast model though they need the main one:\n");
    for (const QByteArray &text : pooled.wrongFast)
        std::printf("- %s\n", text.constData());
    std::printf("\nSent to the main model though the fast one would do:\n");
    for (const QByteArray &text : pooled.wrongMain)
        std::printf("- %s\n", text.constData());
    return 0;
}
