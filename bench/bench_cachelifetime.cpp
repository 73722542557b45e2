// How long the provider keeps a document's prompt cached, and how the warm-up keeps it there over
// a working day (issue 15, "Provider caches used to the full"): Anthropic's five-minute and
// one-hour cache lifetimes, the renewal interval that follows the lifetime
// (WarmupStrategy::renewalInterval), and the idle limit that stops renewing a document nobody
// uses (Settings::warmup.idleLimit).
//
// These effects take hours to show, so this is a simulation in simulated time, not a run
// against the local provider: an eight-hour day per seed (three documents open, stretches of
// work with actions on the current one, tab switches, breaks of five minutes to an hour and a
// half), played through the same rules the app follows: a document becoming current is warmed
// unless it was within the renewal interval; a renewal is sent every interval while the document
// was used within the idle limit; an answer about a document counts as use. The provider side
// is Anthropic's published cache: an entry lives for its lifetime after its last read or write,
// a read refreshes it; a write costs 1.25 x input (five minutes) or 2 x (an hour), a read 0.1 x
// (Llm::Prices of the built-in `anthropic` profile, as the app prices it). The time to the first
// token is the `hosted` latency profile's (LocalProvider::LatencyProfile): round trip and
// overhead, plus the uncached prompt at its prefill rate; a warm-up still being prefilled when
// the action comes is not in the cache yet.
//
// The behaviour figures (stretch and break lengths, the gaps between actions, document sizes)
// are assumptions, not measurements; they are printed with the results and the figures are
// given per seed so their spread shows.
#include "percentile.h"

#include "llm/providerprofile.h"
#include "localprovider/latencyprofile.h"
#include "prefetch/settings.h"
#include "prefetch/strategies/warmupstrategy.h"

#include <QCoreApplication>
#include <QStringList>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <limits>
#include <random>
#include <vector>

using namespace std::chrono_literals;

namespace {

constexpr double Never = std::numeric_limits<double>::infinity();
constexpr double DaySeconds = 8 * 3600;
// The app stays open after work until the next morning, as a desktop assistant does: nothing is
// asked then, and only renewals can spend.
constexpr double OpenSeconds = 24 * 3600;
constexpr int Documents = 3;
constexpr qint64 TailTokens = 60;    // the action's instruction and selection after the prefix
constexpr qint64 AnswerTokens = 300; // what an action's answer generates

// One thing the user does at a moment of the day.
struct UserEvent {
    double at = 0; // seconds since the day started
    enum Kind { Switch, Action } kind = Action;
    int document = 0;
};

struct Day {
    std::vector<qint64> documentTokens;
    std::vector<UserEvent> events;
};

// Work in stretches of 15-75 minutes on the current document, an action every ~75 s (log-normal,
// median 75 s, up to 15 minutes), a tab switch before one action in seven; breaks between
// stretches: 60 % short (5-15 min), 30 % a meeting (20-50 min), 10 % lunch (60-100 min). After a
// break the user goes back to the same document half the time, with no tab switch.
Day makeDay(unsigned seed)
{
    std::mt19937_64 rng(seed * 7919 + 17);
    std::uniform_real_distribution<double> unit(0, 1);
    auto between = [&](double lo, double hi) { return lo + (hi - lo) * unit(rng); };
    std::lognormal_distribution<double> gap(std::log(75.0), 1.0);

    Day day;
    for (int i = 0; i < Documents; ++i)
        day.documentTokens.push_back(qint64(between(3000, 20000)));
    int current = 0;
    double t = 0;
    day.events.push_back({t, UserEvent::Switch, current});
    while (t < DaySeconds) {
        const double stretchEnd = t + between(15, 75) * 60;
        while (t < stretchEnd && t < DaySeconds) {
            t += std::min(gap(rng), 900.0);
            if (unit(rng) < 1.0 / 7) {
                current = (current + 1 + int(unit(rng) * (Documents - 1))) % Documents;
                day.events.push_back({t, UserEvent::Switch, current});
                t += between(3, 20); // finds the place, reads a little
            }
            day.events.push_back({t, UserEvent::Action, current});
        }
        const double kind = unit(rng);
        t += (kind < 0.6 ? between(5, 15) : kind < 0.9 ? between(20, 50) : between(60, 100)) * 60;
        if (unit(rng) < 0.5) {
            current = (current + 1 + int(unit(rng) * (Documents - 1))) % Documents;
            day.events.push_back({t, UserEvent::Switch, current});
            t += between(3, 20);
        }
    }
    return day;
}

struct Variant {
    const char *name;
    bool warmup = true;
    bool renew = true;
    bool longLifetime = false;  // Anthropic's one-hour cache (EncodeOptions::longCacheLifetime)
    bool followLifetime = true; // the interval follows the cache lifetime (renewalInterval)
    std::chrono::milliseconds idleLimit = Prefetch::Settings{}.warmup.idleLimit; // 0: none
};

struct Result {
    int actions = 0;
    int actionsCached = 0;
    qint64 actionPrompt = 0;
    qint64 actionCacheRead = 0;
    std::vector<double> firstTokenMs;
    int warmups = 0;
    double warmupCost = 0;
    double totalCost = 0;
};

struct Provider {
    Llm::Prices prices;
    std::chrono::milliseconds lifetime{};
    LocalProvider::LatencyProfile latency;

    double prefillMs(qint64 uncached) const
    {
        return latency.rttMs + latency.overheadMs + 1000.0 * double(uncached) / latency.prefillTokensPerSec;
    }
};

// The provider's cache entry for one document's prefix.
struct CacheEntry {
    double availableAt = Never; // when the write's prefill ends
    double expiresAt = -Never;
    bool holdsAt(double t) const { return availableAt <= t && t < expiresAt; }
};

struct DocumentState {
    CacheEntry cache;
    double usedAt = -Never;
    double warmedAt = -Never;
    double nextRenewal = Never;
};

class Simulation
{
public:
    Simulation(const Day &day, const Variant &variant, const Provider &provider)
        : m_day(day)
        , m_variant(variant)
        , m_provider(provider)
        , m_documents(day.documentTokens.size())
    {
        const auto setting = Prefetch::Settings{}.warmup.interval;
        const auto interval = m_variant.followLifetime
                                  ? Prefetch::WarmupStrategy::renewalInterval(setting, provider.lifetime)
                                  : setting;
        m_interval = std::chrono::duration<double>(interval).count();
        m_ttl = std::chrono::duration<double>(provider.lifetime).count();
        m_idle = m_variant.idleLimit.count() > 0 ? std::chrono::duration<double>(m_variant.idleLimit).count() : Never;
    }

    Result run()
    {
        for (const UserEvent &e : m_day.events) {
            renewUntil(e.at);
            if (e.kind == UserEvent::Switch)
                becameCurrent(e.document, e.at);
            else
                act(e.document, e.at);
        }
        renewUntil(OpenSeconds);
        return m_result;
    }

    double interval() const { return m_interval; }

private:
    // A request whose prompt starts with the document's prefix, at `t`: returns the uncached
    // prompt tokens and bills it.
    qint64 send(int document, double t, qint64 extraInput, qint64 output, double *cost, qint64 *cacheRead)
    {
        DocumentState &doc = m_documents[size_t(document)];
        const qint64 prefix = m_day.documentTokens[size_t(document)];
        Llm::Usage usage;
        usage.outputTokens = output;
        usage.inputTokens = prefix + extraInput;
        qint64 uncached = extraInput;
        const bool hit = doc.cache.holdsAt(t);
        if (hit) {
            usage.cacheReadTokens = prefix;
            usage.cacheWriteTokens = 0;
        } else {
            usage.cacheReadTokens = 0;
            usage.cacheWriteTokens = prefix;
            uncached += prefix;
            doc.cache.availableAt = std::min(doc.cache.expiresAt > t ? doc.cache.availableAt : Never,
                                             t + m_provider.prefillMs(uncached) / 1000);
        }
        // A read refreshes the entry's lifetime; a write starts it once its prefill is done.
        doc.cache.expiresAt = std::max(doc.cache.expiresAt, (hit ? t : doc.cache.availableAt) + m_ttl);
        *cost = m_provider.prices.cost(usage);
        *cacheRead = usage.cacheReadTokens;
        return uncached;
    }

    void warm(int document, double t)
    {
        double cost = 0;
        qint64 read = 0;
        send(document, t, 1, 1, &cost, &read);
        m_documents[size_t(document)].warmedAt = t;
        ++m_result.warmups;
        m_result.warmupCost += cost;
        m_result.totalCost += cost;
    }

    // WarmupStrategy::documentOpened.
    void becameCurrent(int document, double t)
    {
        DocumentState &doc = m_documents[size_t(document)];
        doc.usedAt = t;
        if (!m_variant.warmup)
            return;
        doc.nextRenewal = m_variant.renew ? t + m_interval : Never;
        if (t - doc.warmedAt < m_interval)
            return;
        warm(document, t);
    }

    // An action's answer about the document (WarmupStrategy::onResponseEnded counts it as use).
    void act(int document, double t)
    {
        double cost = 0;
        qint64 read = 0;
        const qint64 uncached = send(document, t, TailTokens, AnswerTokens, &cost, &read);
        ++m_result.actions;
        if (read > 0)
            ++m_result.actionsCached;
        m_result.actionPrompt += m_day.documentTokens[size_t(document)] + TailTokens;
        m_result.actionCacheRead += read;
        m_result.firstTokenMs.push_back(m_provider.prefillMs(uncached));
        m_result.totalCost += cost;
        m_documents[size_t(document)].usedAt = t;
    }

    // WarmupStrategy::renew for every renewal due before `until`, in time order.
    void renewUntil(double until)
    {
        for (;;) {
            int next = -1;
            for (int i = 0; i < int(m_documents.size()); ++i) {
                if (m_documents[size_t(i)].nextRenewal < until
                    && (next < 0 || m_documents[size_t(i)].nextRenewal < m_documents[size_t(next)].nextRenewal))
                    next = i;
            }
            if (next < 0)
                return;
            DocumentState &doc = m_documents[size_t(next)];
            const double t = doc.nextRenewal;
            if (t - doc.usedAt >= m_idle) {
                doc.nextRenewal = Never; // left alone: renewed again once it is current
                continue;
            }
            doc.nextRenewal = t + m_interval;
            warm(next, t);
        }
    }

    Day m_day;
    Variant m_variant;
    Provider m_provider;
    std::vector<DocumentState> m_documents;
    double m_interval = 0;
    double m_ttl = 0;
    double m_idle = Never;
    Result m_result;
};

Provider anthropic(bool longLifetime)
{
    Llm::ProviderProfile profile = Llm::builtinProfile(u"anthropic");
    profile.encodeOptions.longCacheLifetime = longLifetime;
    Provider p;
    p.prices = profile.prices;
    // As the app prices it (AppSettings::profileFor): an hour's entry is written at 2 x input.
    if (longLifetime)
        p.prices.cacheWrite = 2 * p.prices.input;
    p.lifetime = profile.cacheLifetime();
    p.latency = *LocalProvider::LatencyProfile::byName(u"hosted");
    return p;
}

double median(std::vector<double> v)
{
    return Bench::percentile(std::move(v), 0.5);
}

} // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    int firstSeed = 1;
    int lastSeed = 6;
    if (argc > 1) {
        const QStringList range = QString::fromLocal8Bit(argv[1]).split(u'-');
        firstSeed = range.value(0).toInt();
        lastSeed = range.size() > 1 ? range.value(1).toInt() : firstSeed;
        if (firstSeed < 1 || lastSeed < firstSeed) {
            std::fprintf(stderr, "usage: bench_cachelifetime [FIRST-LAST seeds, default 1-6]\n");
            return 2;
        }
    }

    const Variant variants[] = {
        {"no warm-up", false, false, false, true, 0ms},
        {"warm-up at open only", true, false, false, true, 0ms},
        {"5 min cache, renewed every 10 min (before)", true, true, false, false, 0ms},
        {"5 min cache, renewed every 4.5 min, no idle limit", true, true, false, true, 0ms},
        {"5 min cache, 4.5 min, idle limit 30 min (default)", true, true, false, true,
         Prefetch::Settings{}.warmup.idleLimit},
        {"5 min cache, 4.5 min, idle limit 60 min", true, true, false, true, 60min},
        {"1 h cache, renewed every 10 min, idle limit 30 min", true, true, true, true,
         Prefetch::Settings{}.warmup.idleLimit},
        {"1 h cache, 10 min, no idle limit", true, true, true, true, 0ms},
    };

    std::printf(
        "Anthropic prompt cache over an 8-hour working day with the app open for 24 h, simulated; seeds %d-%d, %d documents of 3k-20k tokens,\n"
        "hosted latency (%d ms + prefill at %.0f tokens/s), prices $%.2f input, $%.2f / $%.2f cache write (5 min / 1 h),\n"
        "$%.2f read, $%.2f output per million; an action sends %lld tokens after the document and generates %lld.\n\n",
        firstSeed, lastSeed, Documents, anthropic(false).latency.rttMs + anthropic(false).latency.overheadMs,
        anthropic(false).latency.prefillTokensPerSec, anthropic(false).prices.input, anthropic(false).prices.cacheWrite,
        anthropic(true).prices.cacheWrite, anthropic(false).prices.cacheRead, anthropic(false).prices.output,
        static_cast<long long>(TailTokens), static_cast<long long>(AnswerTokens));
    std::printf(
        "| warm-up | interval | actions answered from the cache | cache-read share of their prompts | first token p50 / p95 ms | warm-ups a day | warm-up $ a day | day's $ (median [range] per seed) | vs no warm-up |\n");
    std::printf("|---|---|---|---|---|---|---|---|---|\n");
    double baseline = 0;
    const double days = lastSeed - firstSeed + 1;
    for (const Variant &variant : variants) {
        const Provider provider = anthropic(variant.longLifetime);
        Result pooled;
        std::vector<double> dayCosts;
        double interval = 0;
        for (int seed = firstSeed; seed <= lastSeed; ++seed) {
            Simulation sim(makeDay(unsigned(seed)), variant, provider);
            interval = sim.interval();
            const Result r = sim.run();
            pooled.actions += r.actions;
            pooled.actionsCached += r.actionsCached;
            pooled.actionPrompt += r.actionPrompt;
            pooled.actionCacheRead += r.actionCacheRead;
            pooled.firstTokenMs.insert(pooled.firstTokenMs.end(), r.firstTokenMs.begin(), r.firstTokenMs.end());
            pooled.warmups += r.warmups;
            pooled.warmupCost += r.warmupCost;
            pooled.totalCost += r.totalCost;
            dayCosts.push_back(r.totalCost);
        }
        if (!variant.warmup)
            baseline = pooled.totalCost;
        char intervalText[32] = "-";
        if (variant.renew)
            std::snprintf(intervalText, sizeof intervalText, "%.1f min", interval / 60);
        std::printf(
            "| %s | %s | %d of %d (%.0f %%) | %.0f %% | %.0f / %.0f | %.0f | %.2f | %.2f [%.2f-%.2f] | %+.0f %% |\n",
            variant.name, intervalText, pooled.actionsCached, pooled.actions,
            100.0 * pooled.actionsCached / std::max(1, pooled.actions),
            100.0 * double(pooled.actionCacheRead) / double(std::max<qint64>(1, pooled.actionPrompt)),
            median(pooled.firstTokenMs), Bench::percentile(pooled.firstTokenMs, 0.95), double(pooled.warmups) / days,
            pooled.warmupCost / days, median(dayCosts), *std::min_element(dayCosts.begin(), dayCosts.end()),
            *std::max_element(dayCosts.begin(), dayCosts.end()),
            baseline > 0 ? 100.0 * (pooled.totalCost - baseline) / baseline : 0.0);
    }
    return 0;
}
