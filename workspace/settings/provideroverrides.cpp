#include "workspace/settings/provideroverrides.h"

#include "workspace/settings/money.h"
#include "workspace/settings/settingsvalues.h"

#include "llm/modelcatalog.h"

#include <QDate>
#include <QLocale>
#include <QMetaType>
#include <QRegularExpression>
#include <QSettings>
#include <QVariant>

#include <chrono>
#include <cmath>
#include <utility>

namespace Gui {

using namespace SettingsValues;

namespace {

// Inside providers/<id>, the group of one provider.
const QString ProvidersGroup = QStringLiteral("providers");
const QString BaseUrlKey = QStringLiteral("baseUrl");
const QString ModelKey = QStringLiteral("model");
const QString FastModelKey = QStringLiteral("fastModel");
const QString HeadersKey = QStringLiteral("extraHeaders");
const QString ConcurrencyKey = QStringLiteral("concurrencyLimit");
const QString ConsentKey = QStringLiteral("prefetchConsent");
const QString InsecureHttpKey = QStringLiteral("allowInsecureHttp");
const QString ThinkingKey = QStringLiteral("thinkingBudgetTokens");
const QString CacheHourKey = QStringLiteral("cacheForAnHour");
// By PriceField.
const QString PriceKeys[] = {QStringLiteral("prices/input"), QStringLiteral("prices/cacheWrite"),
                             QStringLiteral("prices/cacheRead"), QStringLiteral("prices/output")};
// By TimeoutField; whole seconds.
const QString TimeoutKeys[] = {QStringLiteral("timeouts/connectSeconds"), QStringLiteral("timeouts/firstByteSeconds"),
                               QStringLiteral("timeouts/idleSeconds")};

// What a value must be, one rule for a value the file holds and a value the dialog sets.
bool isTimeout(TimeoutField field, double seconds)
{
    return std::trunc(seconds) == seconds && seconds >= Limits::MinTimeoutSeconds[fieldIndex(field)]
           && seconds <= Limits::MaxTimeoutSeconds[fieldIndex(field)];
}

// 0 is off; anything else must be a budget Anthropic accepts.
bool isThinkingBudget(double tokens)
{
    return tokens == 0
           || (std::trunc(tokens) == tokens && tokens >= Limits::MinThinkingBudgetTokens
               && tokens <= Limits::MaxThinkingBudgetTokens);
}

bool isPrice(double perMillion)
{
    return std::isfinite(perMillion) && perMillion >= 0 && perMillion <= Limits::MaxPricePerMillion;
}

} // namespace

// ---- Setters -------------------------------------------------------------------------------------

void ProviderOverrides::put(const QString &id, const ProviderOverride &o)
{
    if (o.isEmpty())
        m_overrides.remove(id);
    else
        m_overrides.insert(id, o);
}

template <typename T>
void ProviderOverrides::set(const Llm::ProviderProfile &base, std::optional<T> ProviderOverride::*field,
                            std::optional<T> value, const T &builtinValue)
{
    if (base.id.isEmpty())
        return;
    if (value && *value == builtinValue)
        value.reset();
    ProviderOverride o = m_overrides.value(base.id);
    o.*field = std::move(value);
    put(base.id, o);
}

void ProviderOverrides::setBaseUrl(const Llm::ProviderProfile &base, const std::optional<QUrl> &url)
{
    set(base, &ProviderOverride::baseUrl, base.isLocalDemo ? std::nullopt : url, base.baseUrl);
}

void ProviderOverrides::setModel(const Llm::ProviderProfile &base, const std::optional<QString> &model)
{
    set(base, &ProviderOverride::model, model, base.model);
}

void ProviderOverrides::setFastModel(const Llm::ProviderProfile &base, const std::optional<QString> &model)
{
    set(base, &ProviderOverride::fastModel, base.isLocalDemo ? std::nullopt : model, base.fastModel);
}

void ProviderOverrides::setExtraHeaders(const Llm::ProviderProfile &base, const std::optional<HeaderList> &headers)
{
    set(base, &ProviderOverride::extraHeaders, headers, base.extraHeaders);
}

void ProviderOverrides::setConcurrencyLimit(const Llm::ProviderProfile &base, const std::optional<int> &limit)
{
    set(base, &ProviderOverride::concurrencyLimit, limit, base.concurrencyLimit);
}

void ProviderOverrides::setThinkingBudget(const Llm::ProviderProfile &base, const std::optional<int> &budgetTokens)
{
    if (base.format != Llm::ApiFormat::AnthropicMessages || (budgetTokens && !isThinkingBudget(*budgetTokens)))
        return;
    set(base, &ProviderOverride::thinkingBudgetTokens, budgetTokens, base.encodeOptions.thinkingBudgetTokens);
}

void ProviderOverrides::setLongCacheLifetime(const Llm::ProviderProfile &base, const std::optional<bool> &on)
{
    if (base.format != Llm::ApiFormat::AnthropicMessages)
        return;
    set(base, &ProviderOverride::longCacheLifetime, on, base.encodeOptions.longCacheLifetime);
}

void ProviderOverrides::setPrefetchConsent(const Llm::ProviderProfile &base, bool consent)
{
    if (base.id.isEmpty())
        return;
    ProviderOverride o = m_overrides.value(base.id);
    o.prefetchConsent = consent;
    put(base.id, o);
}

void ProviderOverrides::setAllowInsecureHttp(const Llm::ProviderProfile &base, bool allow)
{
    if (base.id.isEmpty())
        return;
    ProviderOverride o = m_overrides.value(base.id);
    o.allowInsecureHttp = allow;
    put(base.id, o);
}

void ProviderOverrides::setPrice(const Llm::ProviderProfile &base, PriceField field, std::optional<double> perMillion)
{
    if (base.id.isEmpty())
        return;
    if (perMillion && (!isPrice(*perMillion) || *perMillion == priceOf(base.prices, field)))
        perMillion.reset();
    ProviderOverride o = m_overrides.value(base.id);
    o.prices[fieldIndex(field)] = perMillion;
    put(base.id, o);
}

void ProviderOverrides::setTimeout(const Llm::ProviderProfile &base, TimeoutField field, std::optional<int> seconds)
{
    if (base.id.isEmpty())
        return;
    if (seconds && (!isTimeout(field, *seconds) || *seconds == timeoutSecondsOf(base.timeouts, field)))
        seconds.reset();
    ProviderOverride o = m_overrides.value(base.id);
    o.timeouts[fieldIndex(field)] = seconds;
    put(base.id, o);
}

// ---- The settings file ---------------------------------------------------------------------------

QStringList ProviderOverrides::storedIds(QSettings &settings)
{
    settings.beginGroup(ProvidersGroup);
    const QStringList ids = settings.childGroups();
    settings.endGroup();
    return ids;
}

void ProviderOverrides::load(QSettings &settings, const std::function<Llm::ProviderProfile(const QString &)> &baseOf,
                             const QStringList &droppedIds, QStringList &problems)
{
    for (const QString &id : storedIds(settings)) {
        const Llm::ProviderProfile base = baseOf(id);
        if (base.id.isEmpty()) {
            if (droppedIds.contains(id))
                continue; // its endpoint was dropped with a problem already
            problems << tr("The settings file has settings for an unknown provider \"%1\"; they were ignored.").arg(id);
            continue;
        }
        settings.beginGroup(ProvidersGroup + QLatin1Char('/') + id);
        loadProvider(settings, base, problems);
        settings.endGroup();
    }
}

void ProviderOverrides::loadProvider(QSettings &settings, const Llm::ProviderProfile &defaults, QStringList &problems)
{
    const QString provider = defaults.displayName;
    const QString defaultUrl = defaults.baseUrl.isEmpty() ? tr("none") : defaults.baseUrl.toString();

    // `model`, or what its provider names in its place once it has retired (past its
    // retirement date in the model catalogue): the saved name would fail at the provider.
    auto current = [&](const QString &model) {
        Llm::ProviderProfile family = defaults;
        if (const auto url = value(defaults.id).baseUrl)
            family.baseUrl = *url; // the catalogue tells providers apart by their host
        const Llm::ModelCapabilities known = Llm::ModelCatalog::find(Llm::ModelCatalog::familyProvider(family), model);
        if (!Llm::ModelCatalog::isRetired(known, QDate::currentDate()) || known.replacement.isEmpty())
            return model;
        problems << tr("%1 retired the model %2 on %3; Headstart uses %4, which %1 names in its place. "
                       "Choose another in Settings, Providers.")
                        .arg(provider, model,
                             QLocale().toString(QDate::fromString(known.retiresOn, Qt::ISODate), QLocale::ShortFormat),
                             known.replacement);
        return known.replacement;
    };

    if (settings.contains(BaseUrlKey)) {
        const QVariant raw = settings.value(BaseUrlKey);
        const QString text = raw.typeId() == QMetaType::QString ? raw.toString().trimmed() : QString();
        if (defaults.isLocalDemo) {
            problems << tr("Headstart chooses the address of %1 itself; the base URL in the settings file was "
                           "ignored.")
                            .arg(provider);
        } else if (text.isEmpty() && raw.typeId() == QMetaType::QString) {
            if (!defaults.baseUrl.isEmpty())
                problems
                    << tr("The base URL of %1 in the settings file was empty; using %2.").arg(provider, defaultUrl);
        } else if (const auto url = parseBaseUrl(text)) {
            setBaseUrl(defaults, url);
        } else {
            problems << tr("The base URL of %1 in the settings file (%2) is not an http:// or https:// address; "
                           "using %3.")
                            .arg(provider, quoted(raw), defaultUrl);
        }
    }

    if (settings.contains(ModelKey)) {
        const QVariant raw = settings.value(ModelKey);
        const QString model = raw.typeId() == QMetaType::QString ? raw.toString().trimmed() : QString();
        const QString defaultModel = defaults.model.isEmpty() ? tr("none") : defaults.model;
        if (model.isEmpty() && raw.typeId() == QMetaType::QString && defaults.model.isEmpty()) {
            // The custom provider has no default model: empty is its default.
        } else if (model.isEmpty() || model.size() > Limits::MaxModelLength) {
            problems << tr("The model of %1 in the settings file (%2) is not a model name; using %3.")
                            .arg(provider, quoted(raw), defaultModel);
        } else {
            setModel(defaults, current(model));
        }
    }

    if (settings.contains(FastModelKey)) {
        const QVariant raw = settings.value(FastModelKey);
        const QString model = raw.typeId() == QMetaType::QString ? raw.toString().trimmed() : QString();
        if (model.isEmpty() || model.size() > Limits::MaxModelLength) {
            problems << tr("The fast model of %1 in the settings file (%2) is not a model name; using %3.")
                            .arg(provider, quoted(raw), defaults.fastModel.isEmpty() ? tr("none") : defaults.fastModel);
        } else {
            setFastModel(defaults, current(model));
        }
    }

    if (settings.contains(HeadersKey)) {
        const QVariant raw = settings.value(HeadersKey);
        auto headers = raw.typeId() == QMetaType::QString
                           ? parseHeaders(raw.toString())
                           : std::expected<HeaderList, QString>(std::unexpected(tr("not text")));
        if (headers)
            setExtraHeaders(defaults, *headers);
        else
            problems
                << tr("The extra headers of %1 in the settings file were ignored: %2").arg(provider, headers.error());
    }

    if (settings.contains(ConcurrencyKey)) {
        const QVariant raw = settings.value(ConcurrencyKey);
        const auto number = parseNumber(raw);
        if (number && std::trunc(*number) == *number && *number >= Limits::MinConcurrency
            && *number <= Limits::MaxConcurrency) {
            setConcurrencyLimit(defaults, static_cast<int>(*number));
        } else {
            problems << tr("The concurrency limit of %1 in the settings file (%2) is not a whole number from %3 to "
                           "%4; using %5.")
                            .arg(provider, quoted(raw))
                            .arg(Limits::MinConcurrency)
                            .arg(Limits::MaxConcurrency)
                            .arg(defaults.concurrencyLimit);
        }
    }

    if (settings.contains(ThinkingKey)) {
        const QVariant raw = settings.value(ThinkingKey);
        const auto number = parseNumber(raw);
        if (defaults.format != Llm::ApiFormat::AnthropicMessages) {
            problems << tr("%1 has no extended thinking; the thinking budget in the settings file was ignored.")
                            .arg(provider);
        } else if (number && isThinkingBudget(*number)) {
            setThinkingBudget(defaults, static_cast<int>(*number));
        } else {
            problems << tr("The thinking budget of %1 in the settings file (%2) is not 0 (off) or a whole number of "
                           "tokens from %3 to %4; thinking stays off.")
                            .arg(provider, quoted(raw))
                            .arg(Limits::MinThinkingBudgetTokens)
                            .arg(Limits::MaxThinkingBudgetTokens);
        }
    }

    if (settings.contains(CacheHourKey)) {
        const QVariant raw = settings.value(CacheHourKey);
        const QString text = raw.toString().trimmed().toLower();
        const bool valid = text == QLatin1String("true") || text == QLatin1String("false");
        if (defaults.format != Llm::ApiFormat::AnthropicMessages) {
            problems << tr("%1 has no choice of cache lifetime; the setting in the settings file was ignored.")
                            .arg(provider);
        } else if (valid) {
            setLongCacheLifetime(defaults, text == QLatin1String("true"));
        } else {
            problems << tr("The cache lifetime of %1 in the settings file (%2) is not true (an hour) or false (five "
                           "minutes); it stays five minutes.")
                            .arg(provider, quoted(raw));
        }
    }

    if (settings.contains(ConsentKey)) {
        const QVariant raw = settings.value(ConsentKey);
        if (const auto consent = parseBool(raw))
            setPrefetchConsent(defaults, *consent);
        else
            problems << tr("The prefetch consent for %1 in the settings file was neither true nor false; hover and "
                           "debounce prefetch stay off for it.")
                            .arg(provider);
    }

    if (settings.contains(InsecureHttpKey)) {
        const QVariant raw = settings.value(InsecureHttpKey);
        if (const auto allow = parseBool(raw))
            setAllowInsecureHttp(defaults, *allow);
        else
            problems << tr("Whether %1 may use plain http:// was neither true nor false in the settings file; it "
                           "may not.")
                            .arg(provider);
    }

    for (TimeoutField field : TimeoutFields) {
        const QString &key = TimeoutKeys[fieldIndex(field)];
        if (!settings.contains(key))
            continue;
        const QVariant raw = settings.value(key);
        if (const auto number = parseNumber(raw); number && isTimeout(field, *number)) {
            setTimeout(defaults, field, static_cast<int>(*number));
        } else {
            problems << tr("The %1 timeout of %2 in the settings file (%3) is not a whole number of seconds from %4 "
                           "to %5; using %6 s.")
                            .arg(timeoutFieldName(field), provider, quoted(raw))
                            .arg(Limits::MinTimeoutSeconds[fieldIndex(field)])
                            .arg(Limits::MaxTimeoutSeconds[fieldIndex(field)])
                            .arg(timeoutSecondsOf(defaults.timeouts, field));
        }
    }

    for (PriceField field : PriceFields) {
        const QString &key = PriceKeys[fieldIndex(field)];
        if (!settings.contains(key))
            continue;
        const QVariant raw = settings.value(key);
        if (const auto number = parseNumber(raw); number && isPrice(*number)) {
            setPrice(defaults, field, *number);
        } else {
            problems << tr("The %1 price of %2 in the settings file (%3) is not a price per million tokens from 0 to "
                           "%4; using %5.")
                            .arg(priceFieldName(field), provider, quoted(raw),
                                 QLocale().toString(Limits::MaxPricePerMillion, 'f', 0),
                                 formatPrice(priceOf(defaults.prices, field), defaults.prices.currency));
        }
    }
}

void ProviderOverrides::save(QSettings &settings, const QStringList &knownIds) const
{
    for (const QString &id : storedIds(settings)) {
        if (!knownIds.contains(id))
            settings.remove(ProvidersGroup + QLatin1Char('/') + id);
    }
    for (const QString &id : knownIds) {
        const ProviderOverride o = value(id);
        settings.beginGroup(ProvidersGroup + QLatin1Char('/') + id);
        auto put = [&settings](const QString &key, bool present, const QVariant &value) {
            if (present)
                settings.setValue(key, value);
            else
                settings.remove(key);
        };
        put(BaseUrlKey, o.baseUrl.has_value(), o.baseUrl.value_or(QUrl()).toString());
        put(ModelKey, o.model.has_value(), o.model.value_or(QString()));
        put(FastModelKey, o.fastModel.has_value(), o.fastModel.value_or(QString()));
        put(HeadersKey, o.extraHeaders.has_value(), formatHeaders(o.extraHeaders.value_or(HeaderList())));
        put(ConcurrencyKey, o.concurrencyLimit.has_value(), o.concurrencyLimit.value_or(0));
        put(ThinkingKey, o.thinkingBudgetTokens.has_value(), o.thinkingBudgetTokens.value_or(0));
        put(CacheHourKey, o.longCacheLifetime.has_value(), o.longCacheLifetime.value_or(false));
        put(ConsentKey, o.prefetchConsent.has_value(), o.prefetchConsent.value_or(false));
        put(InsecureHttpKey, o.allowInsecureHttp, true);
        for (PriceField field : PriceFields) {
            const auto &price = o.prices[fieldIndex(field)];
            put(PriceKeys[fieldIndex(field)], price.has_value(), price.value_or(0));
        }
        for (TimeoutField field : TimeoutFields) {
            const auto &seconds = o.timeouts[fieldIndex(field)];
            put(TimeoutKeys[fieldIndex(field)], seconds.has_value(), seconds.value_or(0));
        }
        settings.endGroup();
    }
}

// ---- Values as users type and read them ----------------------------------------------------------

std::optional<QUrl> ProviderOverrides::parseBaseUrl(const QString &text)
{
    const QUrl url(text.trimmed(), QUrl::StrictMode);
    if (!url.isValid() || url.host().isEmpty()
        || (url.scheme() != QLatin1String("http") && url.scheme() != QLatin1String("https")))
        return std::nullopt;
    return url;
}

std::expected<HeaderList, QString> ProviderOverrides::parseHeaders(const QString &text)
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

QString ProviderOverrides::formatHeaders(const HeaderList &headers)
{
    QStringList lines;
    for (const auto &[name, value] : headers)
        lines << QString::fromLatin1(name) + QStringLiteral(": ") + QString::fromUtf8(value);
    return lines.join(QLatin1Char('\n'));
}

QString ProviderOverrides::formatPrice(double perMillion, const QString &currency)
{
    return tr("%1 per million tokens").arg(formatMoney(perMillion, currency));
}

QString ProviderOverrides::priceFieldName(PriceField field)
{
    switch (field) {
    case PriceField::Input: return tr("input");
    case PriceField::CacheWrite: return tr("cache write");
    case PriceField::CacheRead: return tr("cache read");
    case PriceField::Output: return tr("output");
    }
    return {};
}

QString ProviderOverrides::timeoutFieldName(TimeoutField field)
{
    switch (field) {
    case TimeoutField::Connect: return tr("connect");
    case TimeoutField::FirstByte: return tr("first byte");
    case TimeoutField::Idle: return tr("idle");
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
