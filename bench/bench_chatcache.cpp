// A long conversation's history in the provider's prompt cache (issue 15, "Provider caches used
// to the full"): on Anthropic, which caches only at breakpoints, the chat marks the last
// completed turn (Llm::ChatRequest::cacheBreakpoint), so each turn reads the history from the
// cache instead of paying its prefill again. Plays one conversation about a document, twelve
// turns, with that breakpoint and without it (the document still cached in both), against the
// local provider speaking Anthropic's Messages API on the `hosted` latency profile (4,000 prefill
// tokens/s, ~750 ms to a first token), and prints per turn the prompt tokens, how many were read
// from the cache and written to it, the time to the first token and what the turn cost at
// Anthropic's prices (cache writes at 1.25x input, reads at 0.1x). Differs from `hosted` in one
// thing, said in the output: answers decode at 2,000 tokens/s so the run takes seconds, which
// changes no time to a first token.
#include "support/localproviderfixture.h"
#include "percentile.h"

#include "llm/clock.h"
#include "llm/requestencoder.h"
#include "prefetch/engine.h"
#include "prefetch/prompts/actionprompts.h"
#include "prefetch/stream/answerreader.h"

#include <QCoreApplication>
#include <QEventLoop>
#include <QNetworkAccessManager>

#include <cstdio>
#include <vector>

using namespace Prefetch;

namespace {

struct Turn {
    qint64 input = 0;
    qint64 cacheRead = 0;
    qint64 cacheWrite = 0;
    double firstTokenMs = 0;
    double cost = 0;
};

QString documentText()
{
    QString text = QStringLiteral("# Field notes on prompt caching\n\n");
    for (int i = 0; i < 260; ++i)
        text += QStringLiteral("Observation %1: a cached prefix is read at a tenth of the input price, and a request "
                               "that shares it starts sooner. ")
                    .arg(i);
    return text;
}

const char *const Questions[] = {
    "What is the main finding of these notes?",
    "Which observation says the most about price?",
    "How does a shared prefix change the first token's time?",
    "Summarize the notes in three sentences.",
    "What would you test next, and why?",
    "Which parts repeat themselves?",
    "How long should a cache live for a writer who pauses often?",
    "What does a cache write cost compared with a read?",
    "Rewrite the first observation for a manager.",
    "Which observation would you drop?",
    "What is missing from these notes?",
    "Give the notes a title.",
};

std::vector<Turn> playConversation(Engine &engine, const CompiledPrompt &chat, bool movingBreakpoint)
{
    std::vector<Turn> turns;
    QList<Llm::ChatMessage> history;
    for (const char *question : Questions) {
        const QString text = QString::fromUtf8(question);
        RenderedRequest rendered = renderChatMessage(chat, history, engine.profile().model, text);
        if (!movingBreakpoint) {
            // What the chat sent before: the history as the uncached dynamic tail.
            rendered.request.cacheBreakpoint = -1;
            rendered.body = *Llm::encodeRequest(engine.profile().format, rendered.request,
                                                engine.profile().encodeOptions);
        }
        AnswerReader *answer = engine.request(Strategy::None, rendered, Llm::monotonicNowNs(), &engine);
        QEventLoop loop;
        QObject::connect(answer, &AnswerReader::finished, &loop, &QEventLoop::quit);
        QObject::connect(answer, &AnswerReader::failed, &loop, &QEventLoop::quit);
        if (!answer->isDone())
            loop.exec();
        if (answer->error()) {
            std::fprintf(stderr, "turn failed: %s\n", qPrintable(answer->error()->detail()));
            return {};
        }
        const Llm::Usage usage = answer->usage();
        turns.push_back({usage.inputTokens, std::max<qint64>(0, usage.cacheReadTokens),
                         std::max<qint64>(0, usage.cacheWriteTokens), answer->perceivedLatencyMs(),
                         engine.profile().prices.cost(usage)});
        history.append({Llm::Role::User, text});
        history.append({Llm::Role::Assistant, answer->text()});
        answer->deleteLater();
    }
    return turns;
}

} // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    TestSupport::LocalProviderFixture local(u"hosted", [](LocalProvider::ServerConfig &c) {
        c.profile.decodeTokensPerSec = 2000; // the run takes seconds; no first token changes
    });
    if (!local.start()) {
        std::fprintf(stderr, "local provider failed: %s\n", qPrintable(local.errorString()));
        return 1;
    }
    QNetworkAccessManager network;
    std::printf("One conversation of %zu turns about a document, Anthropic Messages API, local provider on "
                "`hosted` (decode 2,000 tokens/s instead of 40), Anthropic prices.\n\n",
                std::size(Questions));

    std::vector<Turn> runs[2];
    for (int moving = 1; moving >= 0; --moving) {
        Llm::ProviderProfile profile = local.profile();
        profile.format = Llm::ApiFormat::AnthropicMessages;
        profile.prices = Llm::builtinProfile(u"anthropic").prices;
        Settings settings;
        settings.hourlyTokenBudget = 0;
        settings.hourlyMoneyBudget = 0;
        auto engine = std::make_unique<Engine>(&network, profile, settings);
        // A document of its own per run, so the second run finds nothing the first one cached.
        QString document = documentText();
        document += moving ? QStringLiteral("\nRun A.") : QStringLiteral("\nRun B.");
        const auto chat = chatTemplate(true).compile(profile, documentValues(document));
        if (!chat) {
            std::fprintf(stderr, "compile failed: %s\n", qPrintable(chat.error().detail()));
            return 1;
        }
        runs[moving] = playConversation(*engine, *chat, moving == 1);
        if (runs[moving].empty())
            return 1;
    }

    std::printf("| turn | prompt tokens | read from cache, with / without | written, with / without | first token ms, "
                "with / without | cost $, with / without |\n|---|---|---|---|---|---|\n");
    Turn total[2];
    std::vector<double> ttft[2];
    for (size_t i = 0; i < runs[1].size(); ++i) {
        const Turn &a = runs[1][i];
        const Turn &b = runs[0][i];
        std::printf("| %zu | %lld | %lld / %lld | %lld / %lld | %.0f / %.0f | %.5f / %.5f |\n", i + 1,
                    static_cast<long long>(a.input), static_cast<long long>(a.cacheRead),
                    static_cast<long long>(b.cacheRead), static_cast<long long>(a.cacheWrite),
                    static_cast<long long>(b.cacheWrite), a.firstTokenMs, b.firstTokenMs, a.cost, b.cost);
        for (int r = 0; r < 2; ++r) {
            const Turn &t = runs[r][i];
            total[r].input += t.input;
            total[r].cacheRead += t.cacheRead;
            total[r].cacheWrite += t.cacheWrite;
            total[r].cost += t.cost;
            ttft[r].push_back(t.firstTokenMs);
        }
    }
    for (int r = 1; r >= 0; --r) {
        std::printf("\n%s: %lld prompt tokens, %.0f %% read from the cache, %lld written; first token p50 %.0f ms, "
                    "max %.0f ms; $%.4f",
                    r ? "moving breakpoint" : "document breakpoint only", static_cast<long long>(total[r].input),
                    100.0 * double(total[r].cacheRead) / double(std::max<qint64>(1, total[r].input)),
                    static_cast<long long>(total[r].cacheWrite), Bench::percentile(ttft[r], 0.5),
                    Bench::percentile(ttft[r], 1.0), total[r].cost);
    }
    std::printf("\n");
    return 0;
}
