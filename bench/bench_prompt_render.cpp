// Cost of building one request body for a document action: rendering a compiled prompt (the
// static prefix encoded once per document revision, only the instruction and the parameters
// encoded per request) against encoding the whole request from scratch, for a document of about
// 20k tokens by default. Prints the median of many runs per path and their ratio, per format.
//
//   bench_prompt_render [tokens] [runs]
#include "prefetch/prompts/actionprompts.h"
#include "prefetch/prompts/prompttemplate.h"

#include "llm/requestencoder.h"

#include <QCryptographicHash>
#include <QElapsedTimer>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <vector>

namespace {

// Prose with quotes, newlines and some Chinese, as a real document has: the encoder's escaping
// and UTF-8 conversion are what a pre-encoded prefix saves.
QString makeDocument(qint64 tokens)
{
    const QString paragraph = QStringLiteral(
        "Provider prompt caches key on the exact \"prefix\" of a request, so the system prompt and "
        "the document come first.\nWarm-ups, prefetches and real requests share those bytes; "
        "only the instruction differs. 静态前缀必须逐字节相同。\n\n");
    QString document;
    while (Prefetch::estimateTokens(document) < tokens)
        document += paragraph;
    return document;
}

// Median nanoseconds of `runs` calls, after a few unmeasured ones.
double medianNs(int runs, const std::function<void()> &work)
{
    for (int i = 0; i < 5; ++i)
        work();
    std::vector<qint64> ns;
    ns.reserve(size_t(runs));
    QElapsedTimer timer;
    for (int i = 0; i < runs; ++i) {
        timer.start();
        work();
        ns.push_back(timer.nsecsElapsed());
    }
    std::nth_element(ns.begin(), ns.begin() + runs / 2, ns.end());
    return double(ns[size_t(runs / 2)]);
}

void report(Llm::ApiFormat format, const QString &document, int runs)
{
    Llm::ProviderProfile profile;
    profile.id = QStringLiteral("bench");
    profile.displayName = QStringLiteral("Bench");
    profile.format = format;
    profile.baseUrl = QUrl(QStringLiteral("http://127.0.0.1:1/v1"));
    profile.model = QStringLiteral("bench-model");
    const auto action = Prefetch::DocumentAction::ExplainSelection;
    const QString selection = QStringLiteral("only the instruction differs");
    const char *name = format == Llm::ApiFormat::OpenAiChat ? "openai" : "anthropic";

    Prefetch::CompiledPrompt compiled;
    const double compileNs = medianNs(std::max(runs / 20, 5), [&] {
        compiled = *Prefetch::documentTemplate().compile(profile, Prefetch::documentValues(document));
    });
    const Llm::ChatRequest request = Prefetch::buildActionRequest(action, document, selection, profile.model);
    qsizetype bodySize = 0;
    volatile qsizetype sink = 0;

    const double renderNs = medianNs(runs, [&] {
        const auto r = Prefetch::renderAction(compiled, action, selection);
        bodySize = r->body.size();
        sink = sink + r->fingerprint.size();
    });
    const double encodeNs = medianNs(runs, [&] {
        sink = sink + Llm::encodeRequest(format, request, profile.encodeOptions)->size();
    });
    const double buildEncodeNs = medianNs(runs, [&] {
        const Llm::ChatRequest built = Prefetch::buildActionRequest(action, document, selection, profile.model);
        sink = sink + Llm::encodeRequest(format, built, profile.encodeOptions)->size();
    });
    // What hashing the whole body for the fingerprint would add, were the prefix's hash state
    // not saved at compile time.
    const QByteArray body = Prefetch::renderAction(compiled, action, selection)->body;
    const double hashNs = medianNs(runs, [&] {
        sink = sink + QCryptographicHash::hash(body, QCryptographicHash::Sha256).size();
    });

    std::printf("%-9s body %7.1f KiB, prefix %7.1f KiB, ~%lld prefix tokens\n", name, double(bodySize) / 1024.0,
                double(compiled.prefix().bytes().size()) / 1024.0,
                static_cast<long long>(compiled.estimatedPrefixTokens()));
    std::printf("  compile (once per document revision)        %9.1f us\n", compileNs / 1e3);
    std::printf("  render with the pre-encoded prefix          %9.1f us  (incl. fingerprint)\n", renderNs / 1e3);
    std::printf("  encodeRequest from scratch                  %9.1f us  %6.1fx the render\n", encodeNs / 1e3,
                encodeNs / renderNs);
    std::printf("  buildActionRequest + encodeRequest          %9.1f us  %6.1fx the render\n", buildEncodeNs / 1e3,
                buildEncodeNs / renderNs);
    std::printf("  (SHA-256 of the whole body, for reference   %9.1f us)\n", hashNs / 1e3);
}

} // namespace

int main(int argc, char **argv)
{
    const qint64 tokens = argc > 1 ? std::atoll(argv[1]) : 20'000;
    const int runs = argc > 2 ? std::max(std::atoi(argv[2]), 1) : 1001;
    const QString document = makeDocument(tokens);
    std::printf("Prompt render vs encode from scratch: %lld-token document (%lld chars), median of %d runs\n",
                static_cast<long long>(tokens), static_cast<long long>(document.size()), runs);
    report(Llm::ApiFormat::OpenAiChat, document, runs);
    report(Llm::ApiFormat::AnthropicMessages, document, runs);
    return 0;
}
