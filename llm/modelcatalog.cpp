#include "modelcatalog.h"

#include "providerprofile.h"

#include <QDate>
#include <QRegularExpression>
#include <QStringList>

namespace Llm {

namespace {

using namespace std::chrono_literals;

// The pages each family's facts were read on, on 2026-12-06 from stored copies (a copy's own
// date, where the page shows one, is in docs/providers.md with the quotes).
constexpr const char *DeepSeekPricing = "https://api-docs.deepseek.com/quick_start/pricing";
constexpr const char *AnthropicModels = "https://platform.claude.com/docs/en/models/overview";
constexpr const char *AnthropicClaude46 =
    "https://platform.claude.com/docs/en/about-claude/models/whats-new-claude-4-6";
constexpr const char *OpenAiModels = "https://developers.openai.com/api/docs/models";
constexpr const char *OpenAiDeprecations = "https://developers.openai.com/api/docs/deprecations";
constexpr const char *QwenPartialMode = "https://www.alibabacloud.com/help/en/model-studio/partial-mode";

struct Family {
    const char *provider; // ModelCatalog::familyProvider()
    const char *pattern;  // against the lower-case model name, after any "vendor/" prefix
    ModelCapabilities capabilities;
};

ModelCapabilities deepSeekV4(const char *name, std::optional<Prices> prices)
{
    ModelCapabilities c;
    c.family = QString::fromLatin1(name);
    c.known = true;
    // Chat prefix completion on the beta endpoint, for both V4 models; thinking is on by
    // default and turned off with "thinking": {"type": "disabled"} (guides/thinking_mode).
    c.continuation = ContinuationStyle::PrefixFlag;
    c.thinkingForm = ThinkingForm::TypeField;
    c.thinksByDefault = true;
    // The disk cache hits only a prefix it has persisted as a unit; no minimum is published
    // (guides/kv_cache), entries are "usually" cleared "within a few hours to a few days".
    c.prices = prices;
    c.source = DeepSeekPricing;
    return c;
}

ModelCapabilities claude(const char *name, ContinuationStyle continuation, ThinkingForm thinking, int minCache,
                         std::optional<Prices> prices)
{
    ModelCapabilities c;
    c.family = QString::fromLatin1(name);
    c.known = true;
    c.continuation = continuation;
    c.thinkingForm = thinking;
    c.minCacheableTokens = minCache;
    c.cacheLifetime = 5min; // the breakpoints' default; one hour on request
    c.cacheBreakpoints = true;
    c.prices = prices;
    // The refused prefill is stated on the Claude 4.6 page; the rest on the models overview.
    c.source = continuation == ContinuationStyle::None ? AnthropicClaude46 : AnthropicModels;
    return c;
}

ModelCapabilities gpt(const char *name, ThinkingForm thinking, bool alwaysReasons, std::optional<Prices> prices)
{
    ModelCapabilities c;
    c.family = QString::fromLatin1(name);
    c.known = true;
    // Neither Chat Completions nor Responses can continue an assistant message.
    c.continuation = ContinuationStyle::None;
    c.thinkingForm = thinking;
    c.thinksByDefault = thinking == ThinkingForm::ReasoningEffort;
    c.thinkingAlwaysOn = alwaysReasons;
    c.useMaxCompletionTokens = true;
    c.minCacheableTokens = 1024;
    c.promptCacheKey = true;
    c.prices = prices;
    c.source = OpenAiModels;
    return c;
}

ModelCapabilities qwen(const char *name, bool partial, std::optional<Prices> prices)
{
    ModelCapabilities c;
    c.family = QString::fromLatin1(name);
    c.known = true;
    // Partial mode for the listed series, in non-thinking mode only; enable_thinking sent
    // explicitly, since the newer models think by default (deep-thinking guide).
    c.continuation = partial ? ContinuationStyle::PartialFlag : ContinuationStyle::None;
    c.thinkingForm = ThinkingForm::EnableFlag;
    // The implicit context cache: from 256 tokens, kept as long as the system decides.
    c.minCacheableTokens = 256;
    c.prices = prices;
    c.source = QwenPartialMode;
    return c;
}

ModelCapabilities retiring(ModelCapabilities c, const char *deprecated, const char *retires, const char *replacement,
                           const char *source)
{
    c.deprecatedOn = QString::fromLatin1(deprecated);
    c.retiresOn = QString::fromLatin1(retires);
    c.replacement = QString::fromLatin1(replacement);
    c.source = source;
    return c;
}

// Prices: {input, cache write, cache read, output} per million tokens, US dollars. Where a
// provider bills no cache write, a write is billed as input (docs/providers.md, "Prices").
std::optional<Prices> price(double input, double cacheWrite, double cacheRead, double output)
{
    return Prices{input, cacheWrite, cacheRead, output, QStringLiteral("USD")};
}

ModelCapabilities thinkingAlwaysOn(ModelCapabilities c)
{
    c.thinksByDefault = c.thinkingAlwaysOn = true;
    return c;
}

ModelCapabilities noSampling(ModelCapabilities c)
{
    c.acceptsTemperature = false;
    return c;
}

ModelCapabilities thinksByDefault(ModelCapabilities c)
{
    c.thinksByDefault = true;
    return c;
}

ModelCapabilities cachedFor(ModelCapabilities c, std::chrono::seconds lifetime)
{
    c.cacheLifetime = lifetime;
    return c;
}

const QList<Family> &families()
{
    static const QList<Family> list = [] {
        constexpr auto None = ContinuationStyle::None;
        constexpr auto Prefill = ContinuationStyle::AssistantPrefill;
        constexpr auto Adaptive = ThinkingForm::AnthropicAdaptive;
        constexpr auto Budget = ThinkingForm::AnthropicBudget;
        constexpr auto Effort = ThinkingForm::ReasoningEffort;
        const char *deprecations = "https://platform.claude.com/docs/en/about-claude/model-deprecations";
        QList<Family> f;

        // DeepSeek: peak-hour prices (off-peak bills half).
        f << Family{"deepseek", "^deepseek-v4-pro", deepSeekV4("DeepSeek V4 Pro", price(1.32, 1.32, 0.044, 3.96))};
        f << Family{"deepseek", "^deepseek-(v4-)?flash",
                    deepSeekV4("DeepSeek V4.1 Flash", price(0.30, 0.30, 0.006, 1.20))};
        f << Family{"deepseek", "^deepseek-(chat|reasoner)$",
                    retiring(deepSeekV4("DeepSeek (retired name)", std::nullopt), "2026-04-24", "2026-07-24",
                             "deepseek-flash", DeepSeekPricing)};

        // Anthropic. No prefill from Claude 4.6 on ("Prefilling assistant messages returns a 400
        // error on Claude 4.6 models", and every 5.x family); adaptive thinking from 4.6 on,
        // on by default from Claude 5 (always on for Fable 5.1 and Opus 5.5); no sampling
        // parameters from Opus 4.7 on (sent to no 5.x model either, unverified there).
        f << Family{"anthropic", "^claude-fable-5-1",
                    noSampling(thinkingAlwaysOn(
                        claude("Claude Fable 5.1", None, Adaptive, 512, price(10.00, 12.50, 0.25, 50.00))))};
        f << Family{"anthropic", "^claude-opus-5-5",
                    noSampling(thinkingAlwaysOn(
                        claude("Claude Opus 5.5", None, Adaptive, 512, price(4.00, 5.00, 0.20, 20.00))))};
        f << Family{"anthropic", "^claude-sonnet-5-5",
                    noSampling(thinksByDefault(
                        claude("Claude Sonnet 5.5", None, Adaptive, 512, price(2.00, 2.50, 0.10, 10.00))))};
        f << Family{"anthropic", "^claude-haiku-5-5",
                    noSampling(thinksByDefault(
                        claude("Claude Haiku 5.5", None, Adaptive, 512, price(0.10, 0.125, 0.01, 0.50))))};
        f << Family{"anthropic", "^claude-opus-5",
                    noSampling(
                        thinksByDefault(claude("Claude Opus 5", None, Adaptive, 512, price(5.00, 6.25, 0.50, 25.00))))};
        f << Family{"anthropic", "^claude-sonnet-5",
                    noSampling(thinksByDefault(claude("Claude Sonnet 5", None, Adaptive, 1024, std::nullopt)))};
        f << Family{"anthropic", "^claude-(fable|mythos|haiku)-5",
                    noSampling(thinksByDefault(claude("Claude 5", None, Adaptive, 512, std::nullopt)))};
        f << Family{"anthropic", "^claude-opus-4-8",
                    noSampling(claude("Claude Opus 4.8", None, Adaptive, 1024, std::nullopt))};
        f << Family{"anthropic", "^claude-opus-4-7",
                    noSampling(claude("Claude Opus 4.7", None, Adaptive, 2048, price(5.00, 6.25, 0.50, 25.00)))};
        f << Family{"anthropic", "^claude-sonnet-4-6",
                    claude("Claude Sonnet 4.6", None, Adaptive, 1024, price(3.00, 3.75, 0.30, 15.00))};
        f << Family{"anthropic", "^claude-opus-4-6", claude("Claude Opus 4.6", None, Adaptive, 4096, std::nullopt)};
        f << Family{"anthropic", "^claude-haiku-4-5",
                    claude("Claude Haiku 4.5", Prefill, Budget, 4096, price(1.00, 1.25, 0.10, 5.00))};
        f << Family{"anthropic", "^claude-sonnet-4-5",
                    retiring(claude("Claude Sonnet 4.5", Prefill, Budget, 1024, price(3.00, 3.75, 0.30, 15.00)),
                             "2026-09-30", "", "claude-sonnet-5-5", deprecations)};
        f << Family{"anthropic", "^claude-opus-4-5",
                    retiring(claude("Claude Opus 4.5", Prefill, Budget, 4096, std::nullopt), "2026-11-23", "2027-01-22",
                             "claude-opus-5-5", deprecations)};
        f << Family{"anthropic", "^claude-opus-4-1",
                    retiring(claude("Claude Opus 4.1", Prefill, Budget, 1024, std::nullopt), "", "2026-08-05",
                             "claude-opus-5-5", deprecations)};
        f << Family{"anthropic", "^claude-(sonnet|opus)-4-2025",
                    retiring(claude("Claude 4", Prefill, Budget, 1024, std::nullopt), "", "2026-06-15",
                             "claude-sonnet-5-5", deprecations)};

        // OpenAI. Reasoning effort "none" answers at once on GPT-6 Luna, Terra and the 6.0/6.1
        // Sol and on GPT-5.6; GPT-6.2 Sol and the Astras always reason. From GPT-5.6 on, a cache
        // write costs 1.25 × input and a read 0.1 × (prompt-caching guide, where the models page
        // gives no cached price), and an entry lives 30 minutes after its last use.
        f << Family{"openai", "^gpt-6(\\.\\d+)?-luna",
                    cachedFor(gpt("GPT-6 Luna", Effort, false, price(0.10, 0.125, 0.01, 0.50)), 30min)};
        f << Family{"openai", "^gpt-6(\\.\\d+)?-terra",
                    cachedFor(gpt("GPT-6.1 Terra", Effort, false, price(1.00, 1.25, 0.10, 5.00)), 30min)};
        f << Family{"openai", "^gpt-6\\.2-sol",
                    cachedFor(gpt("GPT-6.2 Sol", Effort, true, price(2.00, 2.50, 0.10, 10.00)), 30min)};
        f << Family{"openai", "^gpt-6(\\.1)?-sol",
                    cachedFor(gpt("GPT-6 Sol", Effort, false, price(2.00, 2.50, 0.20, 10.00)), 30min)};
        f << Family{"openai", "^gpt-6\\.2-astra",
                    cachedFor(gpt("GPT-6.2 Astra", Effort, true, price(8.00, 10.00, 0.40, 40.00)), 30min)};
        f << Family{"openai", "^gpt-6(\\.\\d+)?-astra",
                    cachedFor(gpt("GPT-6 Astra", Effort, true, price(10.00, 12.50, 1.00, 50.00)), 30min)};
        f << Family{"openai", "^gpt-5\\.6-luna",
                    cachedFor(gpt("GPT-5.6 Luna", Effort, false, price(0.20, 0.25, 0.02, 1.20)), 30min)};
        f << Family{"openai", "^gpt-5\\.6-terra",
                    cachedFor(gpt("GPT-5.6 Terra", Effort, false, price(2.00, 2.50, 0.20, 12.00)), 30min)};
        f << Family{"openai", "^gpt-5\\.6",
                    cachedFor(gpt("GPT-5.6 Sol", Effort, false, price(4.00, 5.00, 0.40, 20.00)), 30min)};
        f << Family{"openai", "^gpt-5(-mini|-nano)?(-\\d{4}-\\d{2}-\\d{2})?$",
                    retiring(gpt("GPT-5", ThinkingForm::None, false, std::nullopt), "2026-06-11", "2026-12-11",
                             "gpt-6.1-terra", OpenAiDeprecations)};
        f << Family{"openai", "^gpt-4o-mini",
                    retiring(gpt("GPT-4o mini", ThinkingForm::None, false, price(0.15, 0.15, 0.075, 0.60)),
                             "2026-10-14", "2027-01-14", "gpt-6-luna", OpenAiDeprecations)};
        f << Family{"openai", "^gpt-4(o|\\.1)",
                    retiring(gpt("GPT-4o / GPT-4.1", ThinkingForm::None, false, std::nullopt), "2026-10-14",
                             "2027-01-14", "gpt-6.1-sol", OpenAiDeprecations)};

        // Qwen (International prices). Partial mode: the Max, Plus, Flash and Turbo series up
        // to Qwen3.7; Qwen3.8 is not on the page's list. A cache hit bills 20 % of input.
        f << Family{"qwen", "^qwen3\\.8-max", qwen("Qwen3.8-Max", false, price(2.00, 2.00, 0.40, 6.00))};
        f << Family{"qwen", "^qwen3\\.8-flash", qwen("Qwen3.8-Flash", false, price(0.15, 0.15, 0.03, 0.47))};
        f << Family{"qwen", "^qwen3\\.8-", qwen("Qwen3.8", false, std::nullopt)};
        f << Family{"qwen", "^(qwen-flash|qwen3(\\.\\d)?-flash)", qwen("Qwen-Flash", true, std::nullopt)};
        f << Family{"qwen", "^qwen-turbo", qwen("Qwen-Turbo", true, price(0.05, 0.05, 0.01, 0.20))};
        f << Family{"qwen", "^(qwen-plus|qwen3(\\.\\d)?-plus)", qwen("Qwen-Plus", true, price(0.40, 0.40, 0.08, 1.20))};
        f << Family{"qwen", "^(qwen-max|qwen3(\\.\\d)?-max)", qwen("Qwen-Max", true, std::nullopt)};
        return f;
    }();
    return list;
}

} // namespace

QString ModelCatalog::familyProvider(const ProviderProfile &profile)
{
    static const QStringList known{QStringLiteral("deepseek"), QStringLiteral("anthropic"), QStringLiteral("openai"),
                                   QStringLiteral("qwen")};
    if (known.contains(profile.id))
        return profile.id;
    const QString host = profile.baseUrl.host().toLower();
    if (host == u"api.deepseek.com")
        return QStringLiteral("deepseek");
    if (host == u"api.anthropic.com")
        return QStringLiteral("anthropic");
    if (host == u"api.openai.com")
        return QStringLiteral("openai");
    if (host.endsWith(u".aliyuncs.com") && host.contains(u"dashscope"))
        return QStringLiteral("qwen");
    return {};
}

ModelCapabilities ModelCatalog::find(QStringView provider, QStringView model)
{
    if (provider.isEmpty())
        return {};
    const QString name = model.toString().toLower().section(u'/', -1);
    for (const Family &family : families()) {
        if (provider != QLatin1StringView(family.provider))
            continue;
        if (QRegularExpression(QString::fromLatin1(family.pattern)).match(name).hasMatch())
            return family.capabilities;
    }
    return {};
}

bool ModelCatalog::isRetired(const ModelCapabilities &model, const QDate &today)
{
    const QDate retires = QDate::fromString(model.retiresOn, Qt::ISODate);
    return retires.isValid() && today >= retires;
}

ProviderProfile ModelCatalog::applied(ProviderProfile profile)
{
    const QString provider = familyProvider(profile);
    const ModelCapabilities main = find(provider, profile.model);
    if (main.known) {
        EncodeOptions &o = profile.encodeOptions;
        o.continuation = main.continuation;
        o.thinkingForm = main.thinkingForm;
        o.thinkingAlwaysOn = main.thinkingAlwaysOn;
        o.acceptsTemperature = main.acceptsTemperature;
        o.useMaxCompletionTokens = main.useMaxCompletionTokens;
        o.promptCacheKey = main.promptCacheKey;
        profile.minCacheableTokens = main.minCacheableTokens;
        if (main.prices)
            profile.prices = *main.prices;
    }
    if (profile.hasDistinctFastModel()) {
        const ModelCapabilities fast = find(provider, profile.fastModel);
        if (fast.known) {
            EncodeOptions o = profile.encodeOptions;
            o.thinkingBudgetTokens = 0;
            o.thinkingForm = fast.thinkingForm;
            o.thinkingAlwaysOn = fast.thinkingAlwaysOn;
            o.acceptsTemperature = fast.acceptsTemperature;
            o.useMaxCompletionTokens = fast.useMaxCompletionTokens;
            profile.fastEncodeOptions = o;
            if (fast.prices)
                profile.fastPrices = *fast.prices;
        }
    } else if (!profile.fastModel.isEmpty() && main.prices) {
        profile.fastPrices = *main.prices; // the main model is the quick one
    }
    return profile;
}

} // namespace Llm
