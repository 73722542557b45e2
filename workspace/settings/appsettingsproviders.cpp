// AppSettings: which providers there are (the built-ins and the user's endpoints), the profile
// each one resolves to with the user's overrides, and the setters of those overrides. Apart
// from appsettings.cpp, which loads, validates and saves every value.
#include "workspace/settings/appsettings.h"
#include "workspace/settings/appsettingsvalues.h"
#include "workspace/settings/money.h"
#include "llm/modelcatalog.h"

#include <QRegularExpression>

#include <algorithm>
#include <cmath>

namespace Gui {

using namespace SettingsValues;

Llm::ProviderProfile AppSettings::baseProfile(const QString &id) const
{
    if (const UserEndpoint *endpoint = endpoints.find(id))
        return endpoint->profile();
    if (isBuiltinProvider(id))
        return Llm::builtinProfile(id);
    return {};
}

QList<Llm::ProviderProfile> AppSettings::providerProfiles() const
{
    QList<Llm::ProviderProfile> out;
    for (const Llm::ProviderProfile &builtin : builtinProviders())
        out << profile(builtin.id);
    for (const UserEndpoint &endpoint : endpoints.list())
        out << profile(endpoint.id);
    return out;
}

std::expected<QString, QString> AppSettings::findProvider(const QString &idOrName) const
{
    const QString wanted = idOrName.trimmed();
    // An id first: it never changes, so a script that names one keeps working after a rename.
    if (knowsProvider(wanted))
        return wanted;
    // Then a name: unambiguous, since no two providers share one ignoring case (UserEndpoints
    // checks every name against the others and the built-ins').
    QStringList known;
    for (const Llm::ProviderProfile &p : providerProfiles()) {
        if (p.displayName.compare(wanted, Qt::CaseInsensitive) == 0)
            return p.id;
        known << p.id;
    }
    return std::unexpected(tr("There is no provider \"%1\"; the providers are %2.")
                               .arg(wanted, known.join(QLatin1String(", "))));
}

bool AppSettings::removeEndpoint(const QString &id)
{
    if (!endpoints.remove(id))
        return false;
    providers.remove(id);
    if (providerId == id)
        providerId = QStringLiteral("local");
    return true;
}

Llm::ProviderProfile AppSettings::profile(const QString &id) const
{
    Llm::ProviderProfile p = baseProfile(id);
    if (p.id.isEmpty())
        p = Llm::builtinProfile(u"local");
    const ProviderOverride o = providers.value(p.id);
    if (o.baseUrl && !p.isLocalDemo)
        p.baseUrl = *o.baseUrl;
    if (o.model)
        p.model = *o.model;
    if (o.fastModel && !p.isLocalDemo)
        p.fastModel = *o.fastModel;
    // What the chosen models accept and cost (continuation, thinking, sampling, cache, prices),
    // before the user's own prices and options.
    p = Llm::ModelCatalog::applied(std::move(p));
    learned.applyTo(p); // what this base URL's models refused though the catalogue said nothing
    if (o.extraHeaders)
        p.extraHeaders = *o.extraHeaders;
    if (o.concurrencyLimit)
        p.concurrencyLimit = *o.concurrencyLimit;
    if (o.thinkingBudgetTokens && p.format == Llm::ApiFormat::AnthropicMessages)
        p.encodeOptions.thinkingBudgetTokens = *o.thinkingBudgetTokens;
    if (o.longCacheLifetime && p.format == Llm::ApiFormat::AnthropicMessages)
        p.encodeOptions.longCacheLifetime = *o.longCacheLifetime;
    p.allowInsecureHttp = o.allowInsecureHttp;
    for (PriceField field : PriceFields) {
        if (const auto &price = o.prices[size_t(indexOf(field))])
            setPriceOf(p.prices, field, *price);
    }
    // An hour's cache entry is written at 2 × the input price, five minutes' at 1.25 ×
    // (Anthropic's prompt caching prices), unless the user set the write price themselves.
    if (p.encodeOptions.longCacheLifetime && !o.prices[size_t(indexOf(PriceField::CacheWrite))])
        p.prices.cacheWrite = 2 * p.prices.input;
    // A fast model the built-in profile does not name, and the model catalogue does not price,
    // costs what nobody here knows: it is priced as the main model, prices the user can see and set.
    if (p.fastModel != baseProfile(p.id).fastModel
        && !Llm::ModelCatalog::find(Llm::ModelCatalog::familyProvider(p), p.fastModel).prices)
        p.fastPrices = p.prices;
    else if (p.encodeOptions.longCacheLifetime)
        p.fastPrices.cacheWrite = 2 * p.fastPrices.input;
    for (TimeoutField field : TimeoutFields) {
        if (const auto &seconds = o.timeouts[indexOf(field)])
            setTimeoutSecondsOf(p.timeouts, field, *seconds);
    }
    if (!p.isLocalDemo && !p.baseUrl.isEmpty() && !Llm::isLoopbackHost(p.baseUrl.host()))
        p.isCloud = true; // an Ollama or llama.cpp server elsewhere still receives the text
    return p;
}

bool AppSettings::needsPrefetchConsent(const Llm::ProviderProfile &profile)
{
    return profile.isCloud && !profile.isLocalDemo;
}

bool AppSettings::hasPrefetchConsent(const QString &id) const
{
    return providers.value(id).prefetchConsent.value_or(false);
}

bool AppSettings::hasConsentAnswer(const QString &id) const
{
    return providers.value(id).prefetchConsent.has_value();
}

Prefetch::Consent AppSettings::prefetchConsent(const QString &id) const
{
    if (!needsPrefetchConsent(profile(id)))
        return Prefetch::Consent::NotNeeded;
    if (!hasConsentAnswer(id))
        return Prefetch::Consent::NotAnswered;
    return hasPrefetchConsent(id) ? Prefetch::Consent::Given : Prefetch::Consent::Declined;
}

Prefetch::Settings AppSettings::effectivePrefetch(const QString &id) const
{
    Prefetch::Settings s = prefetch;
    if (needsPrefetchConsent(profile(id)) && !hasPrefetchConsent(id)) {
        // Every signal that sends what the user has not asked for yet.
        s.hover.enabled = false;
        s.debounce.enabled = false;
        s.trajectory.enabled = false;
        s.selection.enabled = false;
        s.keyboard.enabled = false;
        s.reading.enabled = false;
        s.habits.enabled = false;
    }
    return s;
}

namespace {

template <typename T>
void setOverride(AppSettings &settings, const QString &id, std::optional<T> ProviderOverride::*field,
                 std::optional<T> value, const T &builtinValue)
{
    if (!settings.knowsProvider(id))
        return;
    if (value && *value == builtinValue)
        value.reset();
    QMap<QString, ProviderOverride> &providers = settings.providers;
    ProviderOverride o = providers.value(id);
    o.*field = std::move(value);
    if (o.isEmpty())
        providers.remove(id);
    else
        providers.insert(id, o);
}

} // namespace

void AppSettings::setBaseUrl(const QString &id, const std::optional<QUrl> &url)
{
    const Llm::ProviderProfile builtin = baseProfile(id);
    setOverride(*this, id, &ProviderOverride::baseUrl, builtin.isLocalDemo ? std::nullopt : url, builtin.baseUrl);
}

void AppSettings::setModel(const QString &id, const std::optional<QString> &model)
{
    const Llm::ProviderProfile before = profile(id);
    setOverride(*this, id, &ProviderOverride::model, model, baseProfile(id).model);
    // Another model may take what this one refused: learned again if not.
    if (profile(id).model != before.model)
        learned.forget(before.baseUrl);
}

void AppSettings::learnRefusal(const QString &id, const QString &model, Llm::RefusedFeature feature)
{
    learned.learn(profile(id).baseUrl, model, feature);
}

void AppSettings::setFastModel(const QString &id, const std::optional<QString> &model)
{
    const Llm::ProviderProfile builtin = baseProfile(id);
    setOverride(*this, id, &ProviderOverride::fastModel, builtin.isLocalDemo ? std::nullopt : model, builtin.fastModel);
}

void AppSettings::setExtraHeaders(const QString &id, const std::optional<HeaderList> &headers)
{
    setOverride(*this, id, &ProviderOverride::extraHeaders, headers, baseProfile(id).extraHeaders);
}

void AppSettings::setConcurrencyLimit(const QString &id, const std::optional<int> &limit)
{
    setOverride(*this, id, &ProviderOverride::concurrencyLimit, limit, baseProfile(id).concurrencyLimit);
}

void AppSettings::setThinkingBudget(const QString &id, const std::optional<int> &budgetTokens)
{
    const Llm::ProviderProfile builtin = baseProfile(id);
    if (builtin.format != Llm::ApiFormat::AnthropicMessages || (budgetTokens && !isThinkingBudget(*budgetTokens)))
        return;
    setOverride(*this, id, &ProviderOverride::thinkingBudgetTokens, budgetTokens,
                builtin.encodeOptions.thinkingBudgetTokens);
}

void AppSettings::setLongCacheLifetime(const QString &id, const std::optional<bool> &on)
{
    const Llm::ProviderProfile builtin = baseProfile(id);
    if (builtin.format != Llm::ApiFormat::AnthropicMessages)
        return;
    setOverride(*this, id, &ProviderOverride::longCacheLifetime, on, builtin.encodeOptions.longCacheLifetime);
}

void AppSettings::setPrefetchConsent(const QString &id, bool consent)
{
    if (!knowsProvider(id))
        return;
    ProviderOverride o = providers.value(id);
    o.prefetchConsent = consent;
    if (o.isEmpty())
        providers.remove(id);
    else
        providers.insert(id, o);
}

void AppSettings::setAllowInsecureHttp(const QString &id, bool allow)
{
    if (!knowsProvider(id))
        return;
    ProviderOverride o = providers.value(id);
    o.allowInsecureHttp = allow;
    if (o.isEmpty())
        providers.remove(id);
    else
        providers.insert(id, o);
}

void AppSettings::setPrice(const QString &id, PriceField field, std::optional<double> perMillion)
{
    if (!knowsProvider(id))
        return;
    if (perMillion && (!isPrice(*perMillion) || *perMillion == priceOf(baseProfile(id).prices, field)))
        perMillion.reset();
    ProviderOverride o = providers.value(id);
    o.prices[size_t(indexOf(field))] = perMillion;
    if (o.isEmpty())
        providers.remove(id);
    else
        providers.insert(id, o);
}

void AppSettings::setPrices(const QString &id, const Llm::Prices &prices)
{
    for (PriceField field : PriceFields)
        setPrice(id, field, priceOf(prices, field));
}

QString AppSettings::formatPrice(double perMillion, const QString &currency)
{
    return tr("%1 per million tokens").arg(formatMoney(perMillion, currency));
}

QString AppSettings::priceFieldName(PriceField field)
{
    switch (field) {
    case PriceField::Input: return tr("input");
    case PriceField::CacheWrite: return tr("cache write");
    case PriceField::CacheRead: return tr("cache read");
    case PriceField::Output: return tr("output");
    }
    return {};
}

double priceOf(const Llm::Prices &prices, PriceField field)
{
    switch (field) {
    case PriceField::Input: return prices.input;
    case PriceField::CacheWrite: return prices.cacheWrite;
    case PriceField::CacheRead: return prices.cacheRead;
    case PriceField::Output: return prices.output;
    }
    return 0;
}

void setPriceOf(Llm::Prices &prices, PriceField field, double perMillion)
{
    switch (field) {
    case PriceField::Input: prices.input = perMillion; break;
    case PriceField::CacheWrite: prices.cacheWrite = perMillion; break;
    case PriceField::CacheRead: prices.cacheRead = perMillion; break;
    case PriceField::Output: prices.output = perMillion; break;
    }
}

std::optional<QUrl> AppSettings::parseBaseUrl(const QString &text)
{
    const QUrl url(text.trimmed(), QUrl::StrictMode);
    if (!url.isValid() || url.host().isEmpty()
        || (url.scheme() != QLatin1String("http") && url.scheme() != QLatin1String("https")))
        return std::nullopt;
    return url;
}

std::expected<HeaderList, QString> AppSettings::parseHeaders(const QString &text)
{
    // RFC 9110 token characters.
    static const QRegularExpression name(QStringLiteral("^[!#$%&'*+.^_`|~0-9A-Za-z-]+$"));
    HeaderList headers;
    const QStringList lines = text.split(QLatin1Char('\n'));
    for (qsizetype i = 0; i < lines.size(); ++i) {
        const QString line = lines.at(i).trimmed();
        if (line.isEmpty())
            continue;
        const qsizetype colon = line.indexOf(QLatin1Char(':'));
        const QString key = colon > 0 ? line.left(colon).trimmed() : QString();
        const QString value = colon > 0 ? line.mid(colon + 1).trimmed() : QString();
        if (key.isEmpty() || !name.match(key).hasMatch())
            return std::unexpected(tr("line %1 is not \"Name: value\".").arg(i + 1));
        for (QChar c : value) {
            if (c.unicode() < 0x20 && c != QLatin1Char('\t'))
                return std::unexpected(tr("line %1 contains a control character.").arg(i + 1));
        }
        // These carry keys, which belong in the keychain, or frame the request itself.
        for (const char *reserved : {"authorization", "x-api-key", "content-length", "transfer-encoding"}) {
            if (key.compare(QLatin1String(reserved), Qt::CaseInsensitive) == 0)
                return std::unexpected(tr("line %1 sets %2, which Headstart sets itself; API keys go in the key "
                                          "fields.")
                                           .arg(i + 1)
                                           .arg(key));
        }
        headers.append({key.toLatin1(), value.toUtf8()});
    }
    return headers;
}

QString AppSettings::formatHeaders(const HeaderList &headers)
{
    QStringList lines;
    for (const auto &[name, value] : headers)
        lines << QString::fromLatin1(name) + QStringLiteral(": ") + QString::fromUtf8(value);
    return lines.join(QLatin1Char('\n'));
}

void AppSettings::setTimeout(const QString &id, TimeoutField field, std::optional<int> seconds)
{
    if (!knowsProvider(id))
        return;
    if (seconds
        && (!isTimeout(field, *seconds) || *seconds == timeoutSecondsOf(baseProfile(id).timeouts, field)))
        seconds.reset();
    ProviderOverride o = providers.value(id);
    o.timeouts[indexOf(field)] = seconds;
    if (o.isEmpty())
        providers.remove(id);
    else
        providers.insert(id, o);
}

QString AppSettings::timeoutFieldName(TimeoutField field)
{
    switch (field) {
    case TimeoutField::Connect: return tr("connect");
    case TimeoutField::FirstByte: return tr("first byte");
    case TimeoutField::Idle: return tr("idle");
    }
    return {};
}

int timeoutSecondsOf(const Llm::Timeouts &timeouts, TimeoutField field)
{
    using std::chrono::duration_cast;
    using std::chrono::seconds;
    switch (field) {
    case TimeoutField::Connect: return static_cast<int>(duration_cast<seconds>(timeouts.connect).count());
    case TimeoutField::FirstByte: return static_cast<int>(duration_cast<seconds>(timeouts.firstByte).count());
    case TimeoutField::Idle: return static_cast<int>(duration_cast<seconds>(timeouts.idle).count());
    }
    return 0;
}

void setTimeoutSecondsOf(Llm::Timeouts &timeouts, TimeoutField field, int seconds)
{
    const std::chrono::milliseconds value = std::chrono::seconds(seconds);
    switch (field) {
    case TimeoutField::Connect: timeouts.connect = value; break;
    case TimeoutField::FirstByte: timeouts.firstByte = value; break;
    case TimeoutField::Idle: timeouts.idle = value; break;
    }
}

} // namespace Gui
