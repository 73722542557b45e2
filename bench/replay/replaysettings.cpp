// Modes, variants, presets and the settings of a run; the replay itself is in replayer.cpp.
#include "replaysettings.h"

#include "llm/providerprofile.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace Bench {

namespace {

using std::chrono::milliseconds;

milliseconds shrink(milliseconds value, double speed)
{
    return milliseconds(std::max<qint64>(1, std::llround(double(value.count()) / speed)));
}

} // namespace

// The provider runs `speed` times faster: fixed delays shrink, rates grow, the cache lives
// shorter in proportion.
LocalProvider::LatencyProfile compress(LocalProvider::LatencyProfile p, double speed)
{
    p.rttMs = int(std::lround(p.rttMs / speed));
    p.overheadMs = int(std::lround(p.overheadMs / speed));
    if (p.prefillTokensPerSec > 0 && std::isfinite(p.prefillTokensPerSec))
        p.prefillTokensPerSec *= speed;
    if (p.decodeTokensPerSec > 0 && std::isfinite(p.decodeTokensPerSec))
        p.decodeTokensPerSec *= speed;
    p.cacheTtlSec = std::max(1, int(std::lround(p.cacheTtlSec / speed)));
    if (p.cachedTokensPerSec > 0 && std::isfinite(p.cachedTokensPerSec))
        p.cachedTokensPerSec *= speed;
    p.cacheBuildMs = int(std::lround(p.cacheBuildMs / speed));
    // Limits per minute of the trace's time: a real minute holds `speed` of them.
    p.requestsPerMinute = int(std::lround(p.requestsPerMinute * speed));
    p.inputTokensPerMinute = int(std::min<double>(std::lround(p.inputTokensPerMinute * speed), 2e9));
    return p;
}

// The app's defaults (PREFETCH.md), with only this mode's strategies on, the variant's changes,
// and every delay and TTL compressed like the trace. The hourly budgets stay the app's: the
// hour is the user's, so the engine's hour of wall time gets `speed` hours of their spending.
Prefetch::Settings settingsFor(Mode mode, double speed, const Variant &variant)
{
    Prefetch::Settings s;
    const bool all = mode == Mode::All;
    const bool early = mode == Mode::Early || all;
    s.warmup.enabled = mode == Mode::Warmup || all;
    s.hover.enabled = mode == Mode::Hover || all;
    s.debounce.enabled = mode == Mode::Debounce || all;
    s.workflow.enabled = mode == Mode::Workflow || all;
    s.trajectory.enabled = s.selection.enabled = s.keyboard.enabled = s.reading.enabled = s.habits.enabled = early;
    if (variant.prefixTokens)
        s.speculation.prefixTokens = *variant.prefixTokens;
    if (variant.maxAnswers)
        s.speculation.maxAnswers = *variant.maxAnswers;
    if (variant.warmPassages)
        s.debounce.warmContext = true;
    if (variant.noShortFollowUps)
        s.debounce.shortFollowUps = false;
    if (variant.noSuggestions)
        s.debounce.suggestFollowUps = false;
    if (variant.noCompletion)
        s.debounce.completeDrafts = false;
    if (variant.fastOpening)
        s.routing.fastOpening = true;
    if (variant.fixedGuesses)
        s.speculation.wasteShare = std::numeric_limits<double>::infinity();
    // The cache's own switches; both on is the app's default.
    s.cache.enabled = variant.cache != CacheUse::Off;
    s.cache.nearDuplicates = variant.cache == CacheUse::On;
    for (milliseconds *value :
         {&s.warmup.interval, &s.warmup.idleLimit, &s.hover.delay, &s.hover.ttl, &s.debounce.delay,
          &s.debounce.sentenceEndDelay, &s.debounce.ttl, &s.debounce.followUpTtl, &s.workflow.ttl, &s.trajectory.grace,
          &s.trajectory.ttl, &s.selection.settle, &s.selection.ttl, &s.keyboard.ttl, &s.reading.dwell, &s.reading.ttl,
          &s.habits.ttl})
        *value = shrink(*value, speed);
    s.hourlyTokenBudget = qint64(std::llround(double(s.hourlyTokenBudget) * speed));
    s.hourlyMoneyBudget *= speed;
    return s;
}

const char *modeId(Mode mode)
{
    switch (mode) {
    case Mode::Off: return "off";
    case Mode::Warmup: return "warmup";
    case Mode::Hover: return "hover";
    case Mode::Debounce: return "debounce";
    case Mode::Workflow: return "workflow";
    case Mode::Early: return "early";
    case Mode::All: return "all";
    }
    return "?";
}

std::optional<Mode> modeFromId(QStringView id)
{
    for (Mode mode : AllModes) {
        if (id == QLatin1StringView(modeId(mode)))
            return mode;
    }
    return std::nullopt;
}

const char *cacheLevelId(CacheLevel level)
{
    switch (level) {
    case CacheLevel::NotAsked: return "not asked";
    case CacheLevel::Miss: return "miss";
    case CacheLevel::Exact: return "exact";
    case CacheLevel::NearServed: return "near served";
    case CacheLevel::NearDraft: return "near draft";
    }
    return "?";
}

const char *cacheUseId(CacheUse use)
{
    switch (use) {
    case CacheUse::On: return "on";
    case CacheUse::ExactOnly: return "exact";
    case CacheUse::Off: return "off";
    }
    return "?";
}

std::optional<CacheUse> cacheUseFromId(QStringView id)
{
    for (CacheUse use : {CacheUse::On, CacheUse::ExactOnly, CacheUse::Off}) {
        if (id == QLatin1StringView(cacheUseId(use)))
            return use;
    }
    return std::nullopt;
}

QString Variant::name() const
{
    QStringList parts;
    if (prefixTokens)
        parts.append(QStringLiteral("N=%1").arg(*prefixTokens));
    if (maxAnswers)
        parts.append(QStringLiteral("answers=%1").arg(*maxAnswers));
    if (warmPassages)
        parts.append(QStringLiteral("passages warmed"));
    if (noShortFollowUps)
        parts.append(QStringLiteral("short follow-ups off"));
    if (noSuggestions)
        parts.append(QStringLiteral("suggestions off"));
    if (noComposition)
        parts.append(QStringLiteral("pre-edit unheard"));
    if (noCompletion)
        parts.append(QStringLiteral("completion off"));
    if (fastOpening)
        parts.append(QStringLiteral("fast opening"));
    if (fixedGuesses)
        parts.append(QStringLiteral("fixed guesses"));
    if (weighTime)
        parts.append(QStringLiteral("weigh time"));
    if (noBillBound)
        parts.append(QStringLiteral("no bill bound"));
    if (cache == CacheUse::ExactOnly)
        parts.append(QStringLiteral("cache exact only"));
    else if (cache == CacheUse::Off)
        parts.append(QStringLiteral("cache off"));
    return parts.join(QLatin1Char(' '));
}

double Billing::cost(const LocalProvider::BilledTokens &tokens) const
{
    Llm::Usage usage;
    usage.inputTokens = tokens.inputUncached + tokens.cacheRead + tokens.cacheWrite;
    usage.cacheReadTokens = tokens.cacheRead;
    usage.cacheWriteTokens = tokens.cacheWrite;
    usage.outputTokens = tokens.output;
    return prices.cost(usage);
}

std::optional<Preset> Preset::byName(QStringView name)
{
    auto latency = LocalProvider::LatencyProfile::byName(name);
    if (!latency)
        return std::nullopt;
    // The latency of "hosted-long-doc" is hosted's; the long documents are the benchmark's part.
    static const QStringList providers{QStringLiteral("deepseek"), QStringLiteral("openai"),
                                       QStringLiteral("anthropic"), QStringLiteral("qwen")};
    return Preset{name.toString(), *latency, name == u"hosted-long-doc" ? 20'000 : 0,
                  providers.contains(name) ? name.toString() : QString()};
}

Llm::ProviderProfile simulatedProfile(const QString &provider, const QUrl &baseUrl)
{
    const Llm::ProviderProfile local = Llm::builtinProfile(u"local");
    Llm::ProviderProfile p = provider.isEmpty() ? local : Llm::builtinProfile(provider);
    p.baseUrl = baseUrl;
    p.continuationBaseUrl = {};
    p.model = local.model;
    p.fastModel = local.fastModel;
    // The local provider serves it: no key, nothing leaves the machine, and each request says
    // what it is for (X-Headstart-Purpose), which the bill is split by.
    p.isLocalDemo = true;
    p.isCloud = false;
    p.requiresApiKey = false;
    p.apiKey.clear();
    return p;
}

QStringList Preset::names()
{
    return LocalProvider::LatencyProfile::names();
}

} // namespace Bench
