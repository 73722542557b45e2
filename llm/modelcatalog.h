#pragma once

#include "pricing.h"
#include "requestencoder.h"

#include <QString>
#include <QStringView>

class QDate;

#include <chrono>
#include <optional>

namespace Llm {

struct ProviderProfile;

// What one family of models accepts, how its prompt cache behaves and what it costs, as its
// provider documents it. Data, not code: every entry of the catalogue (modelcatalog.cpp) names
// the page it was read on and when, and docs/providers.md ("Models and what each accepts")
// gives the same table with the quotes. A plain value.
struct ModelCapabilities {
    QString family;     // for messages and logs: "DeepSeek V4", "Claude 5", "GPT-6 (effort none)", …
    bool known = false; // false: the safe assumptions for a model the catalogue does not know

    // How an answer that began is continued; None: it cannot be, so no early (prefix) guess
    // runs and a strong signal's guess is the whole answer.
    ContinuationStyle continuation = ContinuationStyle::None;
    // How thinking is asked for and turned off (EncodeOptions::thinkingForm).
    ThinkingForm thinkingForm = ThinkingForm::None;
    bool thinksByDefault = false;   // with no thinking field the model thinks first
    bool thinkingAlwaysOn = false;  // and cannot be told not to
    bool acceptsTemperature = true; // sampling parameters; refused with a 400 where false
    bool useMaxCompletionTokens = false;

    // The prompt cache.
    int minCacheableTokens = 0;            // below it nothing is cached (and nothing refused)
    std::chrono::seconds cacheLifetime{0}; // after the last use; 0: the provider decides
    bool cacheBreakpoints = false;         // cached only at marked points (Anthropic)
    bool promptCacheKey = false;           // routed by `prompt_cache_key` (OpenAI)

    // Per million tokens, in the provider's currency; unset where no price could be read on
    // a page (the profile's own figures, or the user's, stay then).
    std::optional<Prices> prices;

    // The model is being or has been withdrawn: when, and what the provider names instead.
    // A retired model is never offered as a default; one past its date fails at the provider.
    QString deprecatedOn;    // yyyy-MM-dd; empty: not deprecated
    QString retiresOn;       // yyyy-MM-dd; empty: no date announced
    QString replacement;     // the provider's successor
    const char *source = ""; // the page the facts come from
};

// The families of the built-in providers' models, newest first within a provider. A user's
// own model name is matched to a family by its name (and the provider, for the names two
// providers could share); a name no family matches gets ModelCapabilities with known = false
// and the provider's safe assumptions: no continuation, thinking left to the model, prices
// unknown (zero, which Settings shows to be filled in). Thread-safe (immutable data).
class ModelCatalog
{
public:
    // The provider whose families apply to `profile`: its id for the built-in DeepSeek,
    // Anthropic, OpenAI and Qwen profiles, else the provider whose API host its base URL names
    // (a user endpoint at api.deepseek.com), else empty: a gateway or a self-hosted server,
    // whose models the catalogue does not know, even by name (a vLLM serving a DeepSeek model
    // continues answers its own way).
    static QString familyProvider(const ProviderProfile &profile);
    // `provider` as familyProvider() gives it; empty: not known.
    static ModelCapabilities find(QStringView provider, QStringView model);

    // The model is retired at `today` (past its retirement date).
    static bool isRetired(const ModelCapabilities &model, const QDate &today);

    // `profile` with its main model's continuation form, thinking form, sampling and cache
    // options, minimum cacheable size and prices, and its fast model's prices, from the
    // catalogue. Fields the model's family does not know stay as the profile had them.
    static ProviderProfile applied(ProviderProfile profile);
};

} // namespace Llm
