#pragma once

#include "llm/providerprofile.h"

#include <QByteArray>
#include <QCoreApplication>
#include <QList>
#include <QMap>
#include <QPair>
#include <QString>
#include <QStringList>
#include <QUrl>

#include <algorithm>
#include <array>
#include <cstddef>
#include <expected>
#include <functional>
#include <optional>

class QSettings;

namespace Gui {

using HeaderList = QList<QPair<QByteArray, QByteArray>>;

// The four figures of a price table (Llm::Prices), each per million tokens.
enum class PriceField { Input, CacheWrite, CacheRead, Output };
inline constexpr PriceField PriceFields[] = {PriceField::Input, PriceField::CacheWrite, PriceField::CacheRead,
                                             PriceField::Output};
double priceOf(const Llm::Prices &prices, PriceField field);
void setPriceOf(Llm::Prices &prices, PriceField field, double perMillion);
inline constexpr size_t fieldIndex(PriceField field)
{
    return static_cast<size_t>(field);
}

// The three stages of Llm::Timeouts, each set in whole seconds.
enum class TimeoutField { Connect, FirstByte, Idle };
inline constexpr TimeoutField TimeoutFields[] = {TimeoutField::Connect, TimeoutField::FirstByte, TimeoutField::Idle};
int timeoutSecondsOf(const Llm::Timeouts &timeouts, TimeoutField field);
void setTimeoutSecondsOf(Llm::Timeouts &timeouts, TimeoutField field, int seconds);
inline constexpr size_t fieldIndex(TimeoutField field)
{
    return static_cast<size_t>(field);
}

// Limits shared by validation and the dialog's controls.
namespace Limits {
inline constexpr int MinConcurrency = 1;
inline constexpr int MaxConcurrency = 256;
// Anthropic's documented floor for a thinking budget, and a ceiling past every model's output
// limit (a larger figure is a typing slip).
inline constexpr int MinThinkingBudgetTokens = 1024;
inline constexpr int MaxThinkingBudgetTokens = 128'000;
inline constexpr qsizetype MaxModelLength = 200;
// Per million tokens. The dearest published prices are a few hundred dollars; a figure beyond
// this is a typing slip or a price per token.
inline constexpr double MaxPricePerMillion = 10'000;
// Timeouts in seconds. A connection takes a second at most unless something is wrong; a first
// event can take many minutes (a long prefill on a busy GPU, a model that thinks first), but
// beyond an hour the request has almost surely been lost.
inline constexpr int MinTimeoutSeconds[] = {1, 5, 5}; // by TimeoutField
inline constexpr int MaxTimeoutSeconds[] = {300, 3600, 3600};
} // namespace Limits

// What the user changed about one provider. An unset field takes the provider's own value, so a
// better default in a later release reaches everyone who never touched that field.
struct ProviderOverride {
    std::optional<QUrl> baseUrl;
    std::optional<QString> model;
    // The provider's quick model (Llm::ProviderProfile::fastModel). One the built-in profile
    // does not name is priced as the main model: its prices are not known.
    std::optional<QString> fastModel;
    std::optional<HeaderList> extraHeaders;
    std::optional<int> concurrencyLimit;
    // Anthropic extended thinking budget in tokens (Llm::EncodeOptions); 0 is off.
    std::optional<int> thinkingBudgetTokens;
    // Anthropic: prompt-cache entries live an hour instead of five minutes ("ttl":"1h").
    std::optional<bool> longCacheLifetime;
    // By PriceField: what the user pays where it is not the built-in price (another model, an
    // account billed otherwise). Each figure on its own, so a corrected default still reaches
    // the figures the user never touched.
    std::array<std::optional<double>, 4> prices{};
    // By TimeoutField, in seconds; each on its own like the prices.
    std::array<std::optional<int>, 3> timeouts{};
    // The user's answer to whether hover, debounce and the early signals may send this provider
    // text they have not sent yet (the document under a resting pointer, a draft during a typing
    // pause): true allowed, false "Not now"; none yet, and the main window asks once.
    std::optional<bool> prefetchConsent;
    // The user accepts plain http:// to a host that is not this machine (Llm::ProviderProfile).
    bool allowInsecureHttp = false;

    bool isEmpty() const
    {
        return !baseUrl && !model && !fastModel && !extraHeaders && !concurrencyLimit && !thinkingBudgetTokens
               && !longCacheLifetime && !prefetchConsent.has_value() && !allowInsecureHttp
               && std::all_of(prices.begin(), prices.end(), [](const auto &p) { return !p; })
               && std::all_of(timeouts.begin(), timeouts.end(), [](const auto &t) { return !t; });
    }
    friend bool operator==(const ProviderOverride &, const ProviderOverride &) = default;
};

// The user's changes to every provider (the built-ins and the user's endpoints), by id, and
// their part of the settings file: the group providers/<id>. Kept minimal: a value equal to the
// provider's own is no change, and a provider without changes has no entry.
//
// Which providers exist, and what each is before the user's changes, is AppSettings' to say: the
// setters take that base profile (AppSettings::baseProfile()), and one with an empty id (an
// unknown provider) changes nothing. A plain value; GUI thread for the translated problems.
class ProviderOverrides
{
    // The strings stay in AppSettings' translation context, where the catalogue has them.
    Q_DECLARE_TR_FUNCTIONS(Gui::AppSettings)

public:
    ProviderOverride value(const QString &id) const { return m_overrides.value(id); }
    bool contains(const QString &id) const { return m_overrides.contains(id); }
    bool isEmpty() const { return m_overrides.isEmpty(); }
    void remove(const QString &id) { m_overrides.remove(id); }

    // The local demo engine keeps its own address and fast model: those setters ignore it.
    void setBaseUrl(const Llm::ProviderProfile &base, const std::optional<QUrl> &url);
    void setModel(const Llm::ProviderProfile &base, const std::optional<QString> &model);
    void setFastModel(const Llm::ProviderProfile &base, const std::optional<QString> &model);
    void setExtraHeaders(const Llm::ProviderProfile &base, const std::optional<HeaderList> &headers);
    void setConcurrencyLimit(const Llm::ProviderProfile &base, const std::optional<int> &limit);
    // Anthropic-format providers only; 0 turns thinking off, and a budget outside the limits is
    // ignored.
    void setThinkingBudget(const Llm::ProviderProfile &base, const std::optional<int> &budgetTokens);
    // Anthropic-format providers only.
    void setLongCacheLifetime(const Llm::ProviderProfile &base, const std::optional<bool> &on);
    void setPrefetchConsent(const Llm::ProviderProfile &base, bool consent);
    void setAllowInsecureHttp(const Llm::ProviderProfile &base, bool allow);
    // A price that is negative, not finite or above Limits::MaxPricePerMillion is no price: the
    // figure goes back to the built-in one, as nullopt does.
    void setPrice(const Llm::ProviderProfile &base, PriceField field, std::optional<double> perMillion);
    // Outside Limits::Min/MaxTimeoutSeconds, or nullopt: the built-in timeout.
    void setTimeout(const Llm::ProviderProfile &base, TimeoutField field, std::optional<int> seconds);

    // The ids that have a group under providers/ in `settings`, known or not.
    static QStringList storedIds(QSettings &settings);
    // Reads the group of every provider `baseOf` knows (an empty-id profile: unknown), value by
    // value: a bad value is left at the provider's own with one user-readable problem, and a
    // group of an unknown provider is ignored with one, unless its id is among `droppedIds` (an
    // endpoint dropped with a problem already). A retired model gives way to the one its
    // provider names in its place, with a problem saying so.
    void load(QSettings &settings, const std::function<Llm::ProviderProfile(const QString &)> &baseOf,
              const QStringList &droppedIds, QStringList &problems);
    // Writes the group of each of `knownIds`, without the values that are not changed, and
    // removes the groups of every other id (a removed endpoint's; a provider this version does
    // not know would be reported at every start).
    void save(QSettings &settings, const QStringList &knownIds) const;

    // An http(s) URL with a host, or nothing.
    static std::optional<QUrl> parseBaseUrl(const QString &text);
    // "Name: value" per line, blank lines skipped; the error names the first bad line.
    static std::expected<HeaderList, QString> parseHeaders(const QString &text);
    static QString formatHeaders(const HeaderList &headers);
    // "$0.30 per million tokens", in the currency of `currency`.
    static QString formatPrice(double perMillion, const QString &currency);
    // "input", "cache write", "cache read", "output": for messages.
    static QString priceFieldName(PriceField field);
    // "connect", "first byte", "idle": for messages.
    static QString timeoutFieldName(TimeoutField field);

    friend bool operator==(const ProviderOverrides &, const ProviderOverrides &) = default;

private:
    template <typename T>
    void set(const Llm::ProviderProfile &base, std::optional<T> ProviderOverride::*field, std::optional<T> value,
             const T &builtinValue);
    // Stores `o` for `id`, or drops the entry when `o` changes nothing.
    void put(const QString &id, const ProviderOverride &o);
    void loadProvider(QSettings &settings, const Llm::ProviderProfile &base, QStringList &problems);

    QMap<QString, ProviderOverride> m_overrides;
};

} // namespace Gui
