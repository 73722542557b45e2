#include "benchcommand.h"

#include "bench/replay/replayer.h"
#include "bench/replay/replaylibraries.h"
#include "bench/replay/report.h"
#include "bench/replay/trace.h"
#include "bench/replay/tracegen.h"
#include "llm/log.h"

#include <QCommandLineParser>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QFileInfo>
#include <QJsonDocument>
#include <QTimer>

#include <spdlog/logger.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <memory>
#include <utility>

namespace Cli {

namespace {

// "--trace a.jsonl b.jsonl" (what a shell glob gives) as "--trace a.jsonl --trace b.jsonl":
// values after a repeatable option belong to it until the next option.
QStringList spreadValues(const QStringList &arguments, const QStringList &repeatable)
{
    QStringList out;
    QString current; // the repeatable option whose values are being read
    bool hasValue = false;
    for (const QString &arg : arguments) {
        if (arg.startsWith(QLatin1Char('-'))) {
            const QString name = arg.section(QLatin1Char('='), 0, 0);
            current = repeatable.contains(name) ? name : QString();
            hasValue = arg.contains(QLatin1Char('='));
            out.append(arg);
            continue;
        }
        if (!current.isEmpty() && hasValue)
            out.append(current);
        hasValue = true;
        out.append(arg);
    }
    return out;
}

// "2-6", "1,3,5", "1,4-6" as numbers; empty text: none. nullopt: not such a list.
std::optional<QList<int>> numberList(const QString &text)
{
    QList<int> out;
    for (const QString &part : text.split(QLatin1Char(','), Qt::SkipEmptyParts)) {
        bool ok1 = false, ok2 = false;
        const int from = part.section(QLatin1Char('-'), 0, 0).trimmed().toInt(&ok1);
        const int to = part.contains(QLatin1Char('-')) ? part.section(QLatin1Char('-'), 1, 1).trimmed().toInt(&ok2)
                                                       : from;
        if (!ok1 || (part.contains(QLatin1Char('-')) && !ok2) || from < 0 || to < from || to - from > 1000)
            return std::nullopt;
        for (int n = from; n <= to; ++n)
            out.append(n);
    }
    return out;
}

} // namespace

int runBench(const QStringList &arguments)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral(
        "Replays behaviour traces against the embedded local provider, with prefetch off, each strategy alone and "
        "all strategies on, and writes report.md, report.json and PNG charts into --out."));
    parser.addHelpOption();
    const QCommandLineOption traceOpt(QStringLiteral("trace"),
                                      QStringLiteral(
                                          "JSON Lines traces: --trace a.jsonl b.jsonl, or the option repeated."),
                                      QStringLiteral("file"));
    const QCommandLineOption kindOpt(
        QStringLiteral("kind"),
        QStringLiteral(
            "Generated traces of these kinds (%1, or all: every kind but repeat-user, issue 10's nine), one per --seeds.")
            .arg(Bench::traceKinds().join(QStringLiteral(", "))),
        QStringLiteral("kind"));
    const QCommandLineOption seedsOpt(QStringLiteral("seeds"),
                                      QStringLiteral("The seeds of the generated traces: 2-6, or 1,3,5 (default 1)."),
                                      QStringLiteral("list"), QStringLiteral("1"));
    const QCommandLineOption prefixOpt(
        QStringLiteral("prefix-tokens"),
        QStringLiteral("Also run every mode but off with these early-guess lengths (the frontier): 16,32,64."),
        QStringLiteral("list"));
    const QCommandLineOption warmPassagesOpt(
        QStringLiteral("warm-passages"),
        QStringLiteral("Also run every mode but off with the library's passages warmed at each typing pause."));
    const QCommandLineOption noFollowUpsOpt(
        QStringLiteral("no-short-follow-ups"),
        QStringLiteral("Also run every mode but off with short follow-ups after an answer never guessed."));
    const QCommandLineOption noSuggestionsOpt(
        QStringLiteral("no-suggestions"),
        QStringLiteral("Also run every mode but off with no follow-up suggested (or guessed) after an answer."));
    const QCommandLineOption noCompositionOpt(
        QStringLiteral("no-composition"),
        QStringLiteral("Also run every mode but off with the input method's pre-edit (\"compose\" lines) not played."));
    const QCommandLineOption noCompletionOpt(
        QStringLiteral("no-completion"),
        QStringLiteral("Also run every mode but off with no chat draft completed (none shown, none taken)."));
    const QCommandLineOption fastOpeningOpt(
        QStringLiteral("fast-opening"),
        QStringLiteral("Also run every mode, off too, with the fast model writing the first words of chat answers "
                       "(free chat) and the main model continuing them."));
    const QCommandLineOption fixedGuessesOpt(
        QStringLiteral("fixed-guesses"),
        QStringLiteral("Also run every mode but off with the early signals guessing their likeliest actions "
                       "whatever their chance (the fixed rules before issue 40)."));
    const QCommandLineOption weighTimeOpt(
        QStringLiteral("weigh-time"),
        QStringLiteral("Also run every mode but off with the selection's and the opening's guesses weighing the "
                       "time they save beyond the user's later signals (off in the app: Speculator::setWeighTime)."));
    const QCommandLineOption noBillBoundOpt(
        QStringLiteral("no-bill-bound"),
        QStringLiteral("Also run every mode but off with the early guesses not kept under the bound on what they add "
                       "to the bill (as before: Prefetch::BillEstimate)."));
    const QCommandLineOption selectionActionOpt(
        QStringLiteral("selection-action"),
        QStringLiteral("Generated document traces with this share (in %) of the user's selections leading to an "
                       "action, the rest stray (copied, typed over, deleted): 100,50,20,5; 0 is a user who never "
                       "runs one. Each share is a trace of its own, named kind#seed@selN (default 100 only)."),
        QStringLiteral("list"));
    const QCommandLineOption
        answersOpt(QStringLiteral("answers"),
                   QStringLiteral("Also run with at most this many answers guessed at once (the frontier): 1,2,3."),
                   QStringLiteral("list"));
    const QCommandLineOption cacheOpt(
        QStringLiteral("cache"),
        QStringLiteral("The response cache: on (the app's default, near duplicates too), exact (exact repeats only), "
                       "off; several (on,off) run each side by side (default on)."),
        QStringLiteral("list"), QStringLiteral("on"));
    const QCommandLineOption
        profileOpt(QStringLiteral("profile"),
                   QStringLiteral("Latency presets: %1 (several after one --profile, or repeated; default hosted).")
                       .arg(Bench::Preset::names().join(QStringLiteral(", "))),
                   QStringLiteral("name"));
    const QCommandLineOption modeOpt(
        QStringLiteral("mode"),
        QStringLiteral("Only these modes: off, warmup, hover, debounce, workflow, early, all (default every one)."),
        QStringLiteral("mode"));
    const QCommandLineOption outOpt(QStringLiteral("out"),
                                    QStringLiteral("The folder for the report (default bench-results)."),
                                    QStringLiteral("dir"), QStringLiteral("bench-results"));
    const QCommandLineOption speedOpt(
        QStringLiteral("speed"),
        QStringLiteral("Compress time by this factor: trace gaps, provider latencies and strategy delays shrink, "
                       "measured latencies are scaled back (default 1: real time)."),
        QStringLiteral("factor"), QStringLiteral("1"));
    const QCommandLineOption jobsOpt(QStringLiteral("jobs"),
                                     QStringLiteral(
                                         "Runs played at the same time, each with its own provider (default 18)."),
                                     QStringLiteral("n"), QStringLiteral("18"));
    const QCommandLineOption jsonOpt(QStringLiteral("json"),
                                     QStringLiteral("Also print the figures as one JSON object on stdout."));
    const QCommandLineOption
        verboseOpt(QStringLiteral("verbose"),
                   QStringLiteral("Log every cancelled or failed stream (the report lists failures either way)."));
    parser.addOptions({traceOpt,
                       kindOpt,
                       seedsOpt,
                       prefixOpt,
                       answersOpt,
                       warmPassagesOpt,
                       noFollowUpsOpt,
                       noSuggestionsOpt,
                       noCompositionOpt,
                       noCompletionOpt,
                       fastOpeningOpt,
                       fixedGuessesOpt,
                       weighTimeOpt,
                       noBillBoundOpt,
                       selectionActionOpt,
                       cacheOpt,
                       profileOpt,
                       modeOpt,
                       outOpt,
                       speedOpt,
                       jobsOpt,
                       jsonOpt,
                       verboseOpt});
    const QStringList spread = spreadValues(arguments, {QStringLiteral("--trace"), QStringLiteral("--kind"),
                                                        QStringLiteral("--profile"), QStringLiteral("--mode")});
    if (!parser.parse(QStringList{QStringLiteral("headstart-cli bench")} + spread)) {
        std::fprintf(stderr, "headstart-cli bench: %s\n", qPrintable(parser.errorText()));
        return 2;
    }
    if (!parser.positionalArguments().isEmpty()) {
        std::fprintf(stderr, "headstart-cli bench: unexpected argument '%s'\n",
                     qPrintable(parser.positionalArguments().first()));
        return 2;
    }
    if (parser.isSet(QStringLiteral("help"))) {
        std::fputs(qPrintable(parser.helpText()), stdout);
        return 0;
    }

    // Prefetches are cancelled all the time by design; a warning for each would bury the progress.
    if (!parser.isSet(verboseOpt)) {
        for (const char *module : {"llm", "prefetch"})
            Llm::moduleLogger(module).set_level(spdlog::level::err);
    }

    QList<Bench::Trace> traces;
    for (const QString &path : parser.values(traceOpt)) {
        auto trace = Bench::Trace::load(path);
        if (!trace) {
            std::fprintf(stderr, "headstart-cli bench: %s\n", qPrintable(trace.error()));
            return 2;
        }
        // Two seeds of one kind share a name: the report and the charts need them apart.
        const bool taken = std::any_of(traces.cbegin(), traces.cend(),
                                       [&](const Bench::Trace &t) { return t.name == trace->name; });
        if (taken)
            trace->name += QLatin1Char('-') + QFileInfo(path).completeBaseName();
        traces.append(*trace);
    }
    const auto seeds = numberList(parser.value(seedsOpt));
    if (!seeds || seeds->isEmpty()) {
        std::fprintf(stderr, "headstart-cli bench: --seeds needs numbers: 2-6, or 1,3,5\n");
        return 2;
    }
    QStringList kinds = parser.values(kindOpt);
    if (kinds.contains(QStringLiteral("all")))
        kinds = Bench::pooledKinds();
    const auto shares = numberList(parser.value(selectionActionOpt));
    if (!shares || std::any_of(shares->cbegin(), shares->cend(), [](int p) { return p > 100; })) {
        std::fprintf(stderr, "headstart-cli bench: --selection-action needs shares in %% from 0 to 100: 100,50,20,5\n");
        return 2;
    }
    QList<Bench::TraceKnobs> knobs;
    for (int share : shares->isEmpty() ? QList<int>{100} : *shares)
        knobs.append(Bench::TraceKnobs{share / 100.0});
    const QStringList selecting = Bench::documentKinds();
    for (const QString &kind : std::as_const(kinds)) {
        // Only the document kinds select: the others are the same trace at every share.
        const bool selects = selecting.contains(kind);
        for (int seed : *seeds) {
            for (const Bench::TraceKnobs &knob : selects ? knobs : QList<Bench::TraceKnobs>{{}}) {
                auto trace = Bench::generatedTrace(kind, quint64(seed), knob);
                if (!trace) {
                    std::fprintf(stderr, "headstart-cli bench: %s\n", qPrintable(trace.error()));
                    return 2;
                }
                traces.append(*trace);
            }
        }
    }
    if (traces.isEmpty()) {
        std::fprintf(stderr, "headstart-cli bench: give at least one --trace (bench/traces/*.jsonl) or --kind\n");
        return 2;
    }
    // The frontier: every combination of the lengths and answer counts asked for.
    const auto prefixes = numberList(parser.value(prefixOpt));
    const auto answers = numberList(parser.value(answersOpt));
    if (!prefixes || !answers) {
        std::fprintf(stderr, "headstart-cli bench: --prefix-tokens and --answers need numbers: 16,32,64\n");
        return 2;
    }
    QList<Bench::Variant> variants{Bench::Variant{}};
    for (int n : prefixes->isEmpty() ? QList<int>{-1} : *prefixes) {
        for (int a : answers->isEmpty() ? QList<int>{-1} : *answers) {
            Bench::Variant v;
            if (n > 0)
                v.prefixTokens = n;
            if (a > 0)
                v.maxAnswers = a;
            if (!v.name().isEmpty())
                variants.append(v);
        }
    }
    // Each switch a variant of its own, beside the defaults.
    const std::pair<const QCommandLineOption *, bool Bench::Variant::*> switches[] = {
        {&warmPassagesOpt, &Bench::Variant::warmPassages},     {&noFollowUpsOpt, &Bench::Variant::noShortFollowUps},
        {&noSuggestionsOpt, &Bench::Variant::noSuggestions},   {&noCompositionOpt, &Bench::Variant::noComposition},
        {&noCompletionOpt, &Bench::Variant::noCompletion},     {&fastOpeningOpt, &Bench::Variant::fastOpening},
        {&fixedGuessesOpt, &Bench::Variant::fixedGuesses},     {&weighTimeOpt, &Bench::Variant::weighTime},
        {&noBillBoundOpt, &Bench::Variant::noBillBound},
    };
    for (const auto &[option, member] : switches) {
        if (parser.isSet(*option)) {
            Bench::Variant v;
            v.*member = true;
            variants.append(v);
        }
    }
    // Every variant with each cache setting asked for.
    QList<Bench::CacheUse> caches;
    for (const QString &id : parser.value(cacheOpt).split(QLatin1Char(','), Qt::SkipEmptyParts)) {
        const auto use = Bench::cacheUseFromId(id.trimmed());
        if (!use) {
            std::fprintf(stderr, "headstart-cli bench: --cache takes on, exact or off: on,off\n");
            return 2;
        }
        if (!caches.contains(*use))
            caches.append(*use);
    }
    if (caches.isEmpty())
        caches.append(Bench::CacheUse::On);
    QList<Bench::Variant> withCaches;
    for (Bench::CacheUse use : std::as_const(caches)) {
        for (Bench::Variant v : std::as_const(variants)) {
            v.cache = use;
            withCaches.append(v);
        }
    }
    variants = withCaches;
    QList<Bench::Preset> presets;
    for (const QString &name :
         parser.isSet(profileOpt) ? parser.values(profileOpt) : QStringList{QStringLiteral("hosted")}) {
        const auto preset = Bench::Preset::byName(name);
        if (!preset) {
            std::fprintf(stderr, "headstart-cli bench: unknown profile '%s' (one of %s)\n", qPrintable(name),
                         qPrintable(Bench::Preset::names().join(QStringLiteral(", "))));
            return 2;
        }
        presets.append(*preset);
    }
    QList<Bench::Mode> modes;
    for (const QString &id : parser.values(modeOpt)) {
        const auto mode = Bench::modeFromId(id);
        if (!mode) {
            std::fprintf(stderr, "headstart-cli bench: unknown mode '%s'\n", qPrintable(id));
            return 2;
        }
        modes.append(*mode);
    }
    if (modes.isEmpty())
        modes = QList<Bench::Mode>(std::begin(Bench::AllModes), std::end(Bench::AllModes));
    bool ok = false;
    const double speed = parser.value(speedOpt).toDouble(&ok);
    if (!ok || speed <= 0 || speed > 100) {
        std::fprintf(stderr, "headstart-cli bench: --speed needs a number in (0, 100]\n");
        return 2;
    }
    const int jobs = parser.value(jobsOpt).toInt(&ok);
    if (!ok || jobs <= 0) {
        std::fprintf(stderr, "headstart-cli bench: --jobs needs a positive number\n");
        return 2;
    }

    // The libraries the traces chat about, indexed before any run starts: indexing inside a run
    // would hold up every other run's events.
    for (const Bench::Trace &trace : std::as_const(traces)) {
        if (auto error = Bench::ReplayLibraries::prepare(trace)) {
            std::fprintf(stderr, "headstart-cli bench: %s\n", qPrintable(*error));
            return 1;
        }
    }

    // Every trace × preset × mode; played `jobs` at a time, a trace's runs side by side.
    std::vector<std::unique_ptr<Bench::Replayer>> runs;
    for (const Bench::Trace &trace : traces) {
        for (const Bench::Preset &preset : presets) {
            for (Bench::Mode mode : modes) {
                for (const Bench::Variant &variant : variants) {
                    // Off has no strategy a variant could change; the response cache it has.
                    if (mode != Bench::Mode::Off || !variant.changesStrategies())
                        runs.push_back(std::make_unique<Bench::Replayer>(trace, preset, mode, speed, variant));
                }
            }
        }
    }
    std::fprintf(
        stderr,
        "headstart-cli bench: %zu runs (%lld traces × %lld profiles × %lld modes × %lld settings), %d at a time\n",
        runs.size(), static_cast<long long>(traces.size()), static_cast<long long>(presets.size()),
        static_cast<long long>(modes.size()), static_cast<long long>(variants.size()), jobs);
    QEventLoop loop;
    size_t started = 0, done = 0;
    int exitCode = 0;
    std::function<void()> startMore = [&] {
        while (started < runs.size() && started - done < size_t(jobs)) {
            Bench::Replayer *run = runs[started++].get();
            QObject::connect(run, &Bench::Replayer::finished, &loop, [&, run] {
                ++done;
                const Bench::RunResult &r = run->result();
                QList<double> perceived;
                for (const Bench::Sample &s : r.samples) {
                    if (s.perceivedMs >= 0)
                        perceived.append(s.perceivedMs);
                }
                const Prefetch::Percentiles p = Prefetch::percentiles(perceived);
                std::fprintf(stderr, "[%zu/%zu] %s × %s × %s%s: %lld answers, p50 %.0f ms, p95 %.0f ms, %.0f s%s\n",
                             done, runs.size(), qPrintable(r.trace), qPrintable(r.preset), Bench::modeId(r.mode),
                             r.variant.isEmpty() ? "" : qPrintable(QStringLiteral(" (%1)").arg(r.variant)),
                             static_cast<long long>(p.count), p.p50, p.p95, r.wallSeconds,
                             r.problems.isEmpty() ? ""
                                                  : qPrintable(QStringLiteral(", %1 problems").arg(r.problems.size())));
                startMore();
            });
            if (auto error = run->start()) {
                std::fprintf(stderr, "headstart-cli bench: %s\n", qPrintable(*error));
                exitCode = 1;
                ++done;
            }
        }
        if (done == runs.size())
            loop.quit();
    };
    // Runs play in real time by default: say every half minute that it is still going.
    QTimer progress;
    QElapsedTimer elapsed;
    elapsed.start();
    qint64 longestMs = 0;
    for (const Bench::Trace &trace : traces)
        longestMs = std::max(longestMs, trace.durationMs());
    QObject::connect(&progress, &QTimer::timeout, &loop, [&] {
        std::fprintf(stderr, "headstart-cli bench: %lld s in, %zu of %zu runs done (the longest trace plays %lld s)\n",
                     static_cast<long long>(std::llround(double(elapsed.elapsed()) / 1000)), done, runs.size(),
                     static_cast<long long>(std::llround(double(longestMs) / speed / 1000)));
    });
    progress.start(30'000);
    startMore();
    if (done < runs.size())
        loop.exec();
    progress.stop();
    if (exitCode != 0)
        return exitCode;

    QList<const Bench::RunResult *> results;
    for (const auto &run : runs)
        results.append(&run->result());
    const Bench::Report report = Bench::Report::build(results, speed);
    const QString out = parser.value(outOpt);
    if (auto error = report.write(out)) {
        std::fprintf(stderr, "headstart-cli bench: %s\n", qPrintable(*error));
        return 1;
    }
    std::fprintf(stderr, "headstart-cli bench: wrote %s/report.md, report.json and the charts\n", qPrintable(out));
    if (parser.isSet(jsonOpt))
        std::fprintf(stdout, "%s\n", QJsonDocument(report.toJson()).toJson(QJsonDocument::Compact).constData());
    return 0;
}

int runTraceGen(const QStringList &arguments)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral("Writes a generated behaviour trace (JSON Lines) to stdout."));
    parser.addHelpOption();
    const QCommandLineOption kindOpt(QStringLiteral("kind"),
                                     QStringLiteral("One of: %1.").arg(Bench::traceKinds().join(QStringLiteral(", "))),
                                     QStringLiteral("kind"));
    const QCommandLineOption seedOpt(QStringLiteral("seed"), QStringLiteral("The random seed (default 1)."),
                                     QStringLiteral("n"), QStringLiteral("1"));
    parser.addOptions({kindOpt, seedOpt});
    if (!parser.parse(QStringList{QStringLiteral("headstart-cli tracegen")} + arguments)) {
        std::fprintf(stderr, "headstart-cli tracegen: %s\n", qPrintable(parser.errorText()));
        return 2;
    }
    if (parser.isSet(QStringLiteral("help"))) {
        std::fputs(qPrintable(parser.helpText()), stdout);
        return 0;
    }
    bool ok = false;
    const quint64 seed = parser.value(seedOpt).toULongLong(&ok);
    if (!ok) {
        std::fprintf(stderr, "headstart-cli tracegen: --seed needs a non-negative integer\n");
        return 2;
    }
    const auto trace = Bench::generateTrace(parser.value(kindOpt), seed);
    if (!trace) {
        std::fprintf(stderr, "headstart-cli tracegen: %s\n", qPrintable(trace.error()));
        return 2;
    }
    std::fwrite(trace->constData(), 1, size_t(trace->size()), stdout);
    return 0;
}

} // namespace Cli
