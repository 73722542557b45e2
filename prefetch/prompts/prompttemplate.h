#pragma once

#include "llm/error.h"
#include "llm/llmtypes.h"
#include "llm/providerprofile.h"
#include "llm/requestencoder.h"

#include <QByteArray>
#include <QHash>
#include <QList>
#include <QString>
#include <QStringList>
#include <QStringView>
#include <QUrl>

#include "base/tokenestimate.h"

#include <expected>
#include <memory>
#include <optional>

namespace Prefetch {

// Placeholder name → the text it stands for.
using TemplateValues = QHash<QString, QString>;

// The token estimate every budget and threshold here uses (base/tokenestimate.h).
using Base::estimateTokens;

// Text with {name} placeholders, parsed once. A name is ASCII letters, digits and '_';
// "{{" and "}}" are literal braces, and a brace that opens no placeholder is kept as is.
// Values are inserted verbatim and never scanned themselves, so a document may hold any braces.
class TemplateText
{
public:
    TemplateText() = default;
    explicit TemplateText(const QString &text);

    const QString &source() const { return m_source; }
    QStringList placeholders() const; // in order of first use
    // The text with every placeholder replaced, or the name of the first one without a value.
    std::expected<QString, QString> fill(const TemplateValues &values) const;

private:
    struct Part {
        QString text; // literal text, or the placeholder's name
        bool isPlaceholder = false;
    };
    QString m_source;
    QList<Part> m_parts;
};

// One piece of a prompt. System text, tools and static messages form the static prefix; dynamic
// messages and the conversation history come after it, filled at render time.
struct PromptSegment {
    enum class Kind {
        System,  // static: joins the system prompt (several are joined by a blank line)
        Tools,   // static: tool definitions, sent verbatim
        Message, // static or dynamic: one message of `role` with `text` filled in
        History, // dynamic: the conversation so far, passed to render()
    };
    Kind kind = Kind::Message;
    bool isStatic = true;
    Llm::Role role = Llm::Role::User;
    TemplateText text;
    QList<Llm::ToolDefinition> tools;

    friend bool operator==(const PromptSegment &a, const PromptSegment &b)
    {
        return a.kind == b.kind && a.isStatic == b.isStatic && a.role == b.role && a.text.source() == b.text.source()
               && a.tools == b.tools;
    }
};

// Sampling parameters of one rendered request; they follow the dynamic part on the wire.
struct GenerationParams {
    int maxTokens = 1024;
    std::optional<double> temperature;
    std::optional<qint64> seed;
    int choiceCount = 1;
    bool stream = true;
};

// A request ready to send: `body` goes to ProviderRequest as StreamOptions::encodedBody, `request`
// describes it (budget estimates, logs, a fallback that encodes afresh).
struct RenderedRequest {
    Llm::ChatRequest request;
    QByteArray body;
    // requestFingerprint() of this request: the same body sent to another provider or endpoint
    // is another request.
    QByteArray fingerprint;
    qint64 estimatedPromptTokens = 0; // estimateTokens() of every text in the request
    // The static part `body` starts with (implicitly shared): a variant of the request (another
    // max_tokens, a continuation) is encoded after it without encoding the document again.
    Llm::EncodedPrefix prefix;
    // The same request for the profile's fast model, its max_tokens the opening's length (the
    // fast opening, Settings::Routing::fastOpening): where set, Prefetch::AnswerFetch asks the
    // fast model for the answer's first words and the request's own model continues from them.
    // Not part of the fingerprint: the answer is the same request's.
    std::shared_ptr<const RenderedRequest> opening;
};

// `rendered` with `maxTokens` and, when `continuation` is not empty, as the continuation of an
// answer that began so: only the part after the static prefix is encoded again (all of it for a
// request that has no prefix, such as one that failed to render).
std::expected<QByteArray, Llm::Error> encodeVariant(const Llm::ProviderProfile &profile,
                                                    const RenderedRequest &rendered, int maxTokens,
                                                    const QString &continuation = {});

class CompiledPrompt;

// estimateTokens() over every text of a request: system, tools, messages.
qint64 estimatePromptTokens(const Llm::ChatRequest &request);

// `request` encoded for `profile` in one pass, with its fingerprint and estimate: for requests
// built without a compiled template. CPU work proportional to the request.
std::expected<RenderedRequest, Llm::Error> renderRequest(const Llm::ProviderProfile &profile, Llm::ChatRequest request);

// What a request is, for takeover: the first 16 bytes of SHA-256(P, tail), where P is the
// SHA-256 of the provider id, '\0', the endpoint URL, '\0' and the encoded static prefix, and
// tail is the rest of the encoded body. Two fingerprints are equal exactly when the same bytes
// go to the same endpoint of the same provider. Empty when the request cannot be encoded.
QByteArray requestFingerprint(const Llm::ProviderProfile &profile, const Llm::ChatRequest &request);

// A prompt layout: ordered segments, the static ones first. A value type built once (at start-up
// or per wizard definition) and compiled once per document revision and provider. Pure; any
// thread.
class PromptTemplate
{
public:
    PromptTemplate &addSystem(const QString &text);
    PromptTemplate &addTools(const QList<Llm::ToolDefinition> &tools);
    PromptTemplate &addStaticMessage(Llm::Role role, const QString &text);
    PromptTemplate &addDynamicMessage(Llm::Role role, const QString &text);
    PromptTemplate &addHistory();

    const QList<PromptSegment> &segments() const { return m_segments; }

    // Fills and encodes the static part once for `profile` (its format, model and encode
    // options). CPU work proportional to the document: run it off the GUI thread for large ones.
    std::expected<CompiledPrompt, Llm::Error> compile(const Llm::ProviderProfile &profile,
                                                      const TemplateValues &staticValues) const;

    // The same request render() would produce, unencoded, for callers that let ProviderRequest
    // encode it. `history` goes where the History segment is.
    std::expected<Llm::ChatRequest, Llm::Error> request(const QString &model, const TemplateValues &staticValues,
                                                        const TemplateValues &dynamicValues,
                                                        const GenerationParams &params = {},
                                                        const QList<Llm::ChatMessage> &history = {}) const;

private:
    friend class CompiledPrompt;

    // The static part: model, system, tools and the static messages (all of them static).
    std::expected<Llm::ChatRequest, Llm::Error> staticRequest(const QString &model, const TemplateValues &values,
                                                              const QString &provider) const;

    QList<PromptSegment> m_segments;
};

// A template compiled for one provider and one set of static values (one document revision):
// the static prefix is encoded once here, and every render() only encodes the dynamic part
// after it, so a warm-up, a prefetch and the real request start with the same bytes. An
// immutable value, cheap to copy (the document and the prefix are implicitly shared); any thread.
class CompiledPrompt
{
public:
    CompiledPrompt() = default; // empty: render() refuses it

    bool isNull() const { return m_prefix.isNull(); }
    const Llm::EncodedPrefix &prefix() const { return m_prefix; }
    // SHA-256 of the provider id, '\0', the endpoint URL, '\0' and the prefix bytes, first 16
    // bytes. Equal fingerprints mean one provider-side cache entry: one warm-up serves both.
    QByteArray prefixFingerprint() const { return m_prefixFingerprint; }
    // estimateTokens() of the static texts. Below the provider's minCacheableTokens a warm-up
    // caches nothing.
    qint64 estimatedPrefixTokens() const { return m_prefixTokens; }
    // What it was compiled for: another target needs another compile.
    const Llm::ProviderTarget &target() const { return m_target; }
    // The static part as a request without dynamic messages.
    const Llm::ChatRequest &staticRequest() const { return m_static; }
    // Whether this was compiled for what `profile` sends now (else compile again).
    bool isFor(const Llm::ProviderProfile &profile) const { return !isNull() && m_target == profile.target(); }

    // Fills the dynamic segments from `values` (and `history`) and appends them and `params`
    // to the encoded prefix. A placeholder without a value is an InvalidRequest error naming it.
    std::expected<RenderedRequest, Llm::Error> render(const TemplateValues &values, const GenerationParams &params = {},
                                                      const QList<Llm::ChatMessage> &history = {}) const;
    // The same compiled prefix with the dynamic part of `other`, a template with the same static
    // segments (chat about a document and the document's actions share the system prompt and
    // the document): nothing is encoded again. An InvalidRequest error when they differ.
    std::expected<CompiledPrompt, Llm::Error> withDynamicPartOf(const PromptTemplate &other) const;
    // The same prompt, whose requests carry `key` as their ChatRequest::cacheKey (see
    // cacheKeyFor()). Nothing is encoded again; the key goes in each request's tail.
    CompiledPrompt withCacheKey(const QString &key) const;
    QString cacheKey() const { return m_cacheKey; }
    // The static part alone with max_tokens 1: writes the provider's prompt cache for this
    // prefix. Fails where the static part is no request on its own (Anthropic needs a message).
    std::expected<RenderedRequest, Llm::Error> warmupRequest() const;

private:
    friend class PromptTemplate;

    std::expected<RenderedRequest, Llm::Error> finish(Llm::ChatRequest request) const;

    Llm::ChatRequest m_static;
    QList<PromptSegment> m_staticSegments; // as the template had them, unfilled
    QList<PromptSegment> m_dynamic;
    Llm::EncodedPrefix m_prefix;
    Llm::ProviderTarget m_target;
    QByteArray m_prefixFingerprint;
    // SHA-256 of the provider id, the endpoint and the prefix: a body's fingerprint hashes it
    // with the tail only, not the document again.
    QByteArray m_prefixDigest;
    qint64 m_prefixTokens = 0;
    QString m_cacheKey;
};

// An opaque cache key for requests about one thing (a document's id, a conversation's): a
// digest, so that neither a path nor a title leaves the machine in it.
QString cacheKeyFor(QStringView subject);

} // namespace Prefetch
