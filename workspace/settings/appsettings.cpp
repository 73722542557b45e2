#include "workspace/settings/appsettings.h"

#include "workspace/settings/prefetchparameters.h"
#include "workspace/settings/settingsfile.h"

#include "llm/modelcatalog.h"

#include <utility>

namespace Gui {

bool operator==(const AppSettings &a, const AppSettings &b)
{
    return a.providerId == b.providerId && a.providers == b.providers && a.endpoints == b.endpoints
           && PrefetchParameters::same(a.prefetch, b.prefetch) && a.uiLanguage == b.uiLanguage
           && a.translateTarget == b.translateTarget && a.firstRun == b.firstRun && a.logDetail == b.logDetail
           && a.textSizePercent == b.textSizePercent && a.colorScheme == b.colorScheme && a.proxy == b.proxy
           && a.libraryFolders == b.libraryFolders && a.assistants == b.assistants && a.learned == b.learned;
}

QList<QPair<LogDetail, QString>> AppSettings::logDetails()
{
    return {{LogDetail::Normal, tr("Normal")},
            {LogDetail::Detailed, tr("Detailed (for bug reports)")},
            {LogDetail::WarningsOnly, tr("Warnings and errors only")}};
}

QList<QPair<ColorScheme, QString>> AppSettings::colorSchemes()
{
    return {{ColorScheme::System, tr("As the desktop")},
            {ColorScheme::Light, tr("Light")},
            {ColorScheme::Dark, tr("Dark")}};
}

QList<QPair<QString, QString>> AppSettings::uiLanguages()
{
    // Each language is named in itself, so it can be found whatever the current language is.
    return {{QString(), tr("System default")},
            {QStringLiteral("en"), QStringLiteral("English")},
            {QStringLiteral("zh_CN"), QStringLiteral(u"简体中文")}};
}

QStringList AppSettings::recentFiles(QSettings &settings)
{
    return SettingsFile::recentFiles(settings);
}

void AppSettings::addRecentFile(QSettings &settings, const QString &path)
{
    SettingsFile::addRecentFile(settings, path);
}

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
    return std::unexpected(
        tr("There is no provider \"%1\"; the providers are %2.").arg(wanted, known.join(QLatin1String(", "))));
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
        if (const auto &price = o.prices[fieldIndex(field)])
            setPriceOf(p.prices, field, *price);
    }
    // An hour's cache entry is written at 2 × the input price, five minutes' at 1.25 ×
    // (Anthropic's prompt caching prices), unless the user set the write price themselves.
    if (p.encodeOptions.longCacheLifetime && !o.prices[fieldIndex(PriceField::CacheWrite)])
        p.prices.cacheWrite = 2 * p.prices.input;
    // A fast model the built-in profile does not name, and the model catalogue does not price,
    // costs what nobody here knows: it is priced as the main model, prices the user can see and set.
    if (p.fastModel != baseProfile(p.id).fastModel
        && !Llm::ModelCatalog::find(Llm::ModelCatalog::familyProvider(p), p.fastModel).prices)
        p.fastPrices = p.prices;
    else if (p.encodeOptions.longCacheLifetime)
        p.fastPrices.cacheWrite = 2 * p.fastPrices.input;
    for (TimeoutField field : TimeoutFields) {
        if (const auto &seconds = o.timeouts[fieldIndex(field)])
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

void AppSettings::setBaseUrl(const QString &id, const std::optional<QUrl> &url)
{
    providers.setBaseUrl(baseProfile(id), url);
}

void AppSettings::setModel(const QString &id, const std::optional<QString> &model)
{
    const Llm::ProviderProfile before = profile(id);
    providers.setModel(baseProfile(id), model);
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
    providers.setFastModel(baseProfile(id), model);
}

void AppSettings::setExtraHeaders(const QString &id, const std::optional<HeaderList> &headers)
{
    providers.setExtraHeaders(baseProfile(id), headers);
}

void AppSettings::setConcurrencyLimit(const QString &id, const std::optional<int> &limit)
{
    providers.setConcurrencyLimit(baseProfile(id), limit);
}

void AppSettings::setThinkingBudget(const QString &id, const std::optional<int> &budgetTokens)
{
    providers.setThinkingBudget(baseProfile(id), budgetTokens);
}

void AppSettings::setLongCacheLifetime(const QString &id, const std::optional<bool> &on)
{
    providers.setLongCacheLifetime(baseProfile(id), on);
}

void AppSettings::setPrefetchConsent(const QString &id, bool consent)
{
    providers.setPrefetchConsent(baseProfile(id), consent);
}

void AppSettings::setAllowInsecureHttp(const QString &id, bool allow)
{
    providers.setAllowInsecureHttp(baseProfile(id), allow);
}

void AppSettings::setPrice(const QString &id, PriceField field, std::optional<double> perMillion)
{
    providers.setPrice(baseProfile(id), field, perMillion);
}

void AppSettings::setPrices(const QString &id, const Llm::Prices &prices)
{
    for (PriceField field : PriceFields)
        setPrice(id, field, priceOf(prices, field));
}

void AppSettings::setTimeout(const QString &id, TimeoutField field, std::optional<int> seconds)
{
    providers.setTimeout(baseProfile(id), field, seconds);
}

} // namespace Gui
