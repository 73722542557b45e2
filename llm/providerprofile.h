#pragma once

#include "pricing.h"
#include "requestencoder.h"
#include "streamdecoder.h"

#include <QByteArray>
#include <QList>
#include <QPair>
#include <QString>
#include <QStringList>
#include <QUrl>

#include <chrono>
#include <optional>

namespace Llm {

// How long one request may wait at each stage before it fails as a timeout (Llm::ProviderRequest);
// per profile, because a hosted API, a gateway on another continent and a model thinking on a
// small GPU need different patience. 0 at a stage: no limit there.
struct Timeouts {
    std::chrono::milliseconds connect{15'000};
    // Request sent to the first event. Covers the prefill of a long uncached prompt, and a
    // reasoning model that sends nothing until it has thought (OpenAI's o-series through chat
    // completions): minutes at hosted providers, so five of them, not two.
    std::chrono::milliseconds firstByte{300'000};
    std::chrono::milliseconds idle{60'000}; // between two reads once the answer flows

    friend bool operator==(const Timeouts &, const Timeouts &) = default;
};

// What decides the bytes of a request and where they go: the provider, its chat endpoint, the
// wire format, the model and the encoder's options. Two profiles with equal targets send the
// same body to the same place for the same request, so a prompt compiled, a warm-up sent or a
// prefetch made for one serves the other. Keys, headers, limits and timeouts are not part of it.
struct ProviderTarget {
    QString providerId;
    QUrl endpoint;
    ApiFormat format = ApiFormat::OpenAiChat;
    QString model;
    EncodeOptions encodeOptions;

    friend bool operator==(const ProviderTarget &, const ProviderTarget &) = default;
};

// Everything needed to talk to one provider. Value type; the app keeps a list of them in
// settings (keys live in the keychain, not here, once the settings issue lands).
struct ProviderProfile {
    QString id;          // "local", "deepseek", "qwen", "openai", "anthropic", "ollama", "llamacpp", "custom"
    QString displayName; // shown to users
    ApiFormat format = ApiFormat::OpenAiChat;
    QUrl baseUrl; // up to and including the version segment, e.g. https://api.deepseek.com/v1
    QString model;
    QString apiKey;
    // More main keys, tried in turn when the provider refuses one with a 429 (Llm::KeyRing).
    QStringList moreApiKeys;
    QString prefetchApiKey; // optional: prefetches use it so they never eat the main key's rate limit
    QString apiKeyEnvVar;   // where the CLI looks for a key when none is given, e.g. DEEPSEEK_API_KEY
    QList<QPair<QByteArray, QByteArray>> extraHeaders;
    int concurrencyLimit = 8;
    int minCacheableTokens = 0; // below this a prompt-cache warm-up is pointless
    bool isLocalDemo = false;   // the embedded engine: offline, not a language model
    bool isCloud = true;        // text leaves the machine: prefetching unsent drafts needs consent
    // The hosted APIs refuse every request without a key: none is sent without one. A custom
    // endpoint, or Ollama on another machine, may take requests without any.
    bool requiresApiKey = false;
    EncodeOptions encodeOptions;
    // Where continuations go when that is not baseUrl (DeepSeek's prefix completion is a beta
    // feature at https://api.deepseek.com/beta); empty: baseUrl.
    QUrl continuationBaseUrl;
    // Plain http:// to a host that is not this machine sends the key and the text unencrypted:
    // refused unless the user allowed it for this profile (docs/transport.md, "Insecure HTTP").
    bool allowInsecureHttp = false;
    // What its default model costs (docs/providers.md, "Prices", gives each figure's source and
    // date); the user may change it in Settings. The local demo engine is priced like the hosted
    // model it imitates, so its figures mean something.
    Prices prices;
    // A smaller, quicker model of the same provider beside `model` (a Haiku beside a Sonnet,
    // qwen-turbo beside qwen-plus; the local provider's headstart-local-small): the draft
    // completeness classifier asks it, and free chat may send it small talk and simple
    // questions (docs/providers.md, "Fast model"). Empty: the provider has none we know of;
    // equal to `model`: the main model is already the quick one. Requests name it in their own
    // `model`, so nothing else of the profile changes for them.
    QString fastModel;
    Prices fastPrices; // what fastModel is billed; used only while it differs from `model`
    // How requests naming fastModel are encoded, where its family differs from the main
    // model's (Llm::ModelCatalog: a Haiku 5.5 thinks unless told not to beside a Sonnet 4.5
    // that needs no telling); unset: as the main model, without its thinking budget.
    std::optional<EncodeOptions> fastEncodeOptions;
    // Every request to the profile uses them: answers, prefetches, warm-ups and the connection
    // test. Not part of target(): a changed timeout sends the same bytes to the same place.
    Timeouts timeouts;

    // The encode options of a request naming `requestModel` (empty: the main model).
    EncodeOptions encodeOptionsFor(const QString &requestModel) const;

    // There is a fast model, and it is not the main one: routing to it can gain something.
    bool hasDistinctFastModel() const { return !fastModel.isEmpty() && fastModel != model; }
    // The model small side requests (the classifier's) ask: the fast model, else the main one.
    QString quickModel() const { return fastModel.isEmpty() ? model : fastModel; }
    // What a request naming `requestModel` is billed at: the fast model's prices for it, the
    // main model's for any other (an empty name is the main model).
    const Prices &pricesFor(const QString &requestModel) const
    {
        return hasDistinctFastModel() && requestModel == fastModel ? fastPrices : prices;
    }

    // `requestModel` (empty: the main model) thinks before it answers, so its first answer
    // token comes seconds after the request: Anthropic with extended thinking on, else known by
    // its name (docs/providers.md, "Reasoning models": deepseek-reasoner, R1, QwQ, "thinking"
    // variants, OpenAI's o-series and gpt-5, gpt-oss, headstart-local-reasoner). A name that
    // says nothing is taken for a model that answers at once.
    bool thinksFirst(const QString &requestModel = {}) const;

    // The endpoint for streaming chat: <baseUrl>/chat/completions or <baseUrl>/messages.
    QUrl endpoint() const;
    // Anthropic refuses a prefilled answer while the model thinks, and DeepSeek and Qwen document
    // their continuations in non-thinking mode only.
    bool canContinue() const
    {
        return encodeOptions.continuation != ContinuationStyle::None && !encodeOptions.thinks(format);
    }
    // How long the provider keeps a prompt cached after its last use, where that is fixed and
    // published (Anthropic: 5 minutes, or 1 hour with EncodeOptions::longCacheLifetime); zero
    // where the provider decides (OpenAI's, DeepSeek's and Qwen's automatic caches) or there is
    // no cache at all. A warm-up is renewed before it runs out.
    std::chrono::seconds cacheLifetime() const;
    // This profile as a continuation is sent with (its continuationBaseUrl, when set).
    ProviderProfile forContinuation() const;
    ProviderTarget target() const;
    bool needsApiKey() const { return requiresApiKey; }
};

// localhost, 127.0.0.0/8 or ::1, read literally from the host (never resolved: a DNS answer
// could say anything).
bool isLoopbackHost(const QString &host);
// True when `url` is plain http:// to a host that is not loopback.
bool isInsecureRemote(const QUrl &url);

// The built-in profiles with their defaults, in the order users see them. The first is the
// embedded local provider; its baseUrl is empty until the app knows the port.
QList<ProviderProfile> builtinProfiles();
// The built-in profile with this id, or an empty-id profile when there is none.
ProviderProfile builtinProfile(QStringView id);

} // namespace Llm
