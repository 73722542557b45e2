#include "providerprofile.h"

#include "modelcatalog.h"

#include <QCoreApplication>
#include <QHostAddress>
#include <QRegularExpression>

namespace Llm {

bool ProviderProfile::thinksFirst(const QString &requestModel) const
{
    const QString name = (requestModel.isEmpty() ? model : requestModel).toLower();
    // The main model thinks as its encode options say (a budget, a model that always thinks);
    // one that can be told not to is told so (ThinkingForm), whatever its name says.
    if (name == model.toLower() && encodeOptions.thinkingFormFor(format) != ThinkingForm::None)
        return encodeOptions.thinks(format);
    // "deepseek/deepseek-r1" (OpenRouter), "deepseek-r1:7b" (Ollama), "qwen3-235b-a22b-thinking-2507".
    const QString base = name.section(u'/', -1);
    static const QRegularExpression separators(QStringLiteral("[-_:.]"));
    const QStringList words = base.split(separators, Qt::SkipEmptyParts);
    static const QStringList thinkers{QStringLiteral("reasoner"), QStringLiteral("reasoning"),
                                      QStringLiteral("thinking"), QStringLiteral("r1"),
                                      QStringLiteral("qwq"),      QStringLiteral("qvq"),
                                      QStringLiteral("magistral")};
    for (const QString &word : words) {
        if (thinkers.contains(word))
            return true;
    }
    static const QRegularExpression oSeries(QStringLiteral("^o[1-9]$"));
    if (!words.isEmpty() && oSeries.match(words.first()).hasMatch())
        return true;
    if (base.startsWith(u"gpt-oss"))
        return true;
    return base.startsWith(u"gpt-5") && !words.contains(u"chat"); // gpt-5-chat-latest answers at once
}

EncodeOptions ProviderProfile::encodeOptionsFor(const QString &requestModel) const
{
    if (requestModel.isEmpty() || requestModel == model || !hasDistinctFastModel() || requestModel != fastModel)
        return encodeOptions;
    if (fastEncodeOptions)
        return *fastEncodeOptions;
    EncodeOptions fast = encodeOptions;
    fast.thinkingBudgetTokens = 0; // the quick model answers at once
    return fast;
}

QUrl ProviderProfile::endpoint() const
{
    QUrl url = baseUrl;
    QString path = url.path();
    if (!path.endsWith(QLatin1Char('/')))
        path += QLatin1Char('/');
    path += format == ApiFormat::AnthropicMessages ? QLatin1String("messages") : QLatin1String("chat/completions");
    url.setPath(path);
    return url;
}

bool isLoopbackHost(const QString &host)
{
    QString h = host;
    if (h.startsWith(QLatin1Char('[')) && h.endsWith(QLatin1Char(']')))
        h = h.mid(1, h.size() - 2);
    if (h.compare(QLatin1String("localhost"), Qt::CaseInsensitive) == 0)
        return true;
    QHostAddress address;
    return address.setAddress(h) && address.isLoopback();
}

bool isInsecureRemote(const QUrl &url)
{
    return url.scheme().compare(QLatin1String("http"), Qt::CaseInsensitive) == 0 && !isLoopbackHost(url.host());
}

ProviderProfile ProviderProfile::forContinuation() const
{
    ProviderProfile p = *this;
    if (!continuationBaseUrl.isEmpty())
        p.baseUrl = continuationBaseUrl;
    return p;
}

std::chrono::seconds ProviderProfile::cacheLifetime() const
{
    using namespace std::chrono_literals;
    if (format != ApiFormat::AnthropicMessages || isLocalDemo)
        return 0s;
    return encodeOptions.longCacheLifetime ? 1h : 5min;
}

ProviderTarget ProviderProfile::target() const
{
    return {id, endpoint(), format, model, encodeOptions};
}

namespace {

// Per million tokens, as docs/providers.md "Prices" gives them with their sources and dates:
// deepseek-flash's at DeepSeek's peak-hour rates (off-peak hours bill half). DeepSeek bills no
// cache write: a prompt that misses its cache is input.
Prices deepSeekPrices()
{
    return {0.30, 0.30, 0.006, 1.20};
}

} // namespace

QList<ProviderProfile> builtinProfiles()
{
    QList<ProviderProfile> profiles;

    // Minimum cacheable sizes are the providers' documented prompt-cache granularity: below
    // them a warm-up request costs tokens and caches nothing.
    ProviderProfile local;
    local.id = QStringLiteral("local");
    local.displayName = QCoreApplication::translate("Llm::ProviderProfile",
                                                    "Local demo engine (offline, not a language model)");
    local.model = QStringLiteral("headstart-local");
    local.isLocalDemo = true;
    local.isCloud = false;
    local.concurrencyLimit = 16;
    local.minCacheableTokens = 128;
    local.encodeOptions.continuation = ContinuationStyle::PrefixFlag; // it speaks every form; DeepSeek's here
    // Billed nothing; priced as the deepseek profile is, since it caches and continues as DeepSeek
    // does, so that its cost figures mean something.
    local.prices = deepSeekPrices();
    // Answers sooner, as the providers' small models do (LocalProvider::LatencyProfile::
    // forSmallModel()), and is priced as qwen-turbo is beside qwen-plus: a quarter of the input.
    local.fastModel = QStringLiteral("headstart-local-small");
    local.fastPrices = {0.075, 0.075, 0.0015, 0.30};
    profiles << local;

    // The hosted providers' default and fast models are models they serve today; what each
    // accepts (continuation, thinking, sampling), its cache rules and its prices come from the
    // model catalogue (Llm::ModelCatalog, docs/providers.md "Models and what each accepts").
    ProviderProfile deepseek;
    deepseek.id = QStringLiteral("deepseek");
    deepseek.displayName = QStringLiteral("DeepSeek");
    deepseek.baseUrl = QUrl(QStringLiteral("https://api.deepseek.com/v1"));
    deepseek.model = QStringLiteral("deepseek-flash");
    deepseek.apiKeyEnvVar = QStringLiteral("DEEPSEEK_API_KEY");
    deepseek.requiresApiKey = true;
    deepseek.continuationBaseUrl = QUrl(QStringLiteral("https://api.deepseek.com/beta"));
    // The default is already DeepSeek's quick model; beside deepseek-v4-pro it is the fast one.
    deepseek.fastModel = QStringLiteral("deepseek-flash");
    profiles << ModelCatalog::applied(deepseek);

    ProviderProfile qwen;
    qwen.id = QStringLiteral("qwen");
    qwen.displayName = QStringLiteral("Qwen (DashScope)");
    qwen.baseUrl = QUrl(QStringLiteral("https://dashscope.aliyuncs.com/compatible-mode/v1"));
    qwen.model = QStringLiteral("qwen-plus");
    qwen.apiKeyEnvVar = QStringLiteral("DASHSCOPE_API_KEY");
    qwen.requiresApiKey = true;
    qwen.fastModel = QStringLiteral("qwen-turbo");
    profiles << ModelCatalog::applied(qwen);

    ProviderProfile openai;
    openai.id = QStringLiteral("openai");
    openai.displayName = QStringLiteral("OpenAI");
    openai.baseUrl = QUrl(QStringLiteral("https://api.openai.com/v1"));
    openai.model = QStringLiteral("gpt-6.1-terra");
    openai.apiKeyEnvVar = QStringLiteral("OPENAI_API_KEY");
    openai.requiresApiKey = true;
    openai.fastModel = QStringLiteral("gpt-6-luna");
    profiles << ModelCatalog::applied(openai);

    ProviderProfile anthropic;
    anthropic.id = QStringLiteral("anthropic");
    anthropic.displayName = QStringLiteral("Anthropic");
    anthropic.format = ApiFormat::AnthropicMessages;
    anthropic.baseUrl = QUrl(QStringLiteral("https://api.anthropic.com/v1"));
    anthropic.model = QStringLiteral("claude-sonnet-5-5");
    anthropic.apiKeyEnvVar = QStringLiteral("ANTHROPIC_API_KEY");
    anthropic.requiresApiKey = true;
    anthropic.fastModel = QStringLiteral("claude-haiku-5-5");
    profiles << ModelCatalog::applied(anthropic);

    ProviderProfile ollama;
    ollama.id = QStringLiteral("ollama");
    ollama.displayName = QStringLiteral("Ollama");
    ollama.baseUrl = QUrl(QStringLiteral("http://localhost:11434/v1"));
    ollama.model = QStringLiteral("llama3.2");
    ollama.isCloud = false;
    ollama.concurrencyLimit = 2; // OLLAMA_NUM_PARALLEL is small by default; more requests queue
    profiles << ollama;

    ProviderProfile llamacpp;
    llamacpp.id = QStringLiteral("llamacpp");
    llamacpp.displayName = QStringLiteral("llama.cpp server");
    llamacpp.baseUrl = QUrl(QStringLiteral("http://localhost:8080/v1"));
    llamacpp.model = QStringLiteral("default"); // llama-server serves the model it was started with
    llamacpp.isCloud = false;
    llamacpp.concurrencyLimit = 1; // one slot unless started with --parallel
    llamacpp.encodeOptions.continuation =
        ContinuationStyle::AssistantPrefill; // llama-server prefills a final assistant message
    profiles << llamacpp;

    ProviderProfile custom;
    custom.id = QStringLiteral("custom");
    custom.displayName = QCoreApplication::translate("Llm::ProviderProfile", "Custom (OpenAI-compatible)");
    custom.apiKeyEnvVar = QStringLiteral("HEADSTART_API_KEY");
    profiles << custom;

    return profiles;
}

ProviderProfile builtinProfile(QStringView id)
{
    for (const ProviderProfile &p : builtinProfiles()) {
        if (p.id == id)
            return p;
    }
    return {};
}

} // namespace Llm
