#include "prompttemplate.h"

#include <QCryptographicHash>

namespace Prefetch {

namespace {

constexpr qsizetype FingerprintBytes = 16;

// SHA-256 of the provider id, the endpoint and the prefix bytes. Kept whole: a body's
// fingerprint hashes it with the tail, so rendering hashes the tail only, not the document.
QByteArray prefixDigest(const Llm::ProviderProfile &profile, const Llm::EncodedPrefix &prefix)
{
    QCryptographicHash hash(QCryptographicHash::Sha256);
    hash.addData(profile.id.toUtf8());
    hash.addData(QByteArrayView("\0", 1));
    hash.addData(profile.endpoint().toEncoded());
    hash.addData(QByteArrayView("\0", 1));
    hash.addData(prefix.bytes());
    return hash.result();
}

QByteArray bodyFingerprint(const QByteArray &digest, const Llm::EncodedPrefix &prefix, const QByteArray &body)
{
    QCryptographicHash hash(QCryptographicHash::Sha256);
    hash.addData(digest);
    hash.addData(QByteArrayView(body).sliced(prefix.bytes().size()));
    return hash.result().left(FingerprintBytes);
}

bool isNameChar(QChar c)
{
    return (c >= u'a' && c <= u'z') || (c >= u'A' && c <= u'Z') || (c >= u'0' && c <= u'9') || c == u'_';
}

std::unexpected<Llm::Error> invalid(const QString &provider, const QString &detail)
{
    return std::unexpected(Llm::Error(Llm::Error::Code::InvalidRequest, provider, detail));
}

std::unexpected<Llm::Error> missingValue(const QString &provider, const QString &name)
{
    return invalid(provider, QStringLiteral("The prompt template needs a value for {%1}.").arg(name));
}

qint64 estimateMessages(const Llm::ChatRequest &request, qsizetype from)
{
    qint64 tokens = 0;
    for (qsizetype i = from; i < request.messages.size(); ++i)
        tokens += estimateTokens(request.messages.at(i).content);
    return tokens;
}

// The dynamic segments of `segments` filled in, appended to `request`. Shared by
// PromptTemplate::request() and CompiledPrompt::render(), so both give the same messages.
std::optional<Llm::Error> appendDynamic(const QList<PromptSegment> &segments, Llm::ChatRequest &request,
                                        const TemplateValues &values, const QList<Llm::ChatMessage> &history,
                                        const QString &provider)
{
    bool historyPlaced = false;
    for (const PromptSegment &segment : segments) {
        if (segment.isStatic)
            continue;
        if (segment.kind == PromptSegment::Kind::History) {
            request.messages.append(history);
            historyPlaced = true;
            // The next turn sends this history again, unchanged, with one more turn after it.
            if (!history.isEmpty())
                request.cacheBreakpoint = request.messages.size() - 1;
            continue;
        }
        auto text = segment.text.fill(values);
        if (!text)
            return missingValue(provider, text.error()).error();
        request.messages.append({segment.role, std::move(*text)});
    }
    if (!history.isEmpty() && !historyPlaced)
        return invalid(provider, QStringLiteral("The prompt template has no place for a conversation history."))
            .error();
    return std::nullopt;
}

void applyParams(Llm::ChatRequest &request, const GenerationParams &params)
{
    request.maxTokens = params.maxTokens;
    request.temperature = params.temperature;
    request.seed = params.seed;
    request.choiceCount = params.choiceCount;
    request.stream = params.stream;
}

} // namespace

TemplateText::TemplateText(const QString &text)
    : m_source(text)
{
    QString literal;
    auto flush = [&] {
        if (!literal.isEmpty())
            m_parts.append({std::exchange(literal, {}), false});
    };
    for (qsizetype i = 0; i < text.size();) {
        const QChar c = text.at(i);
        const bool doubled = i + 1 < text.size() && text.at(i + 1) == c;
        if ((c == u'{' || c == u'}') && doubled) {
            literal.append(c);
            i += 2;
            continue;
        }
        if (c == u'{') {
            qsizetype end = i + 1;
            while (end < text.size() && isNameChar(text.at(end)))
                ++end;
            if (end > i + 1 && end < text.size() && text.at(end) == u'}') {
                flush();
                m_parts.append({text.mid(i + 1, end - i - 1), true});
                i = end + 1;
                continue;
            }
        }
        literal.append(c);
        ++i;
    }
    flush();
}

QStringList TemplateText::placeholders() const
{
    QStringList names;
    for (const Part &part : m_parts) {
        if (part.isPlaceholder && !names.contains(part.text))
            names.append(part.text);
    }
    return names;
}

std::expected<QString, QString> TemplateText::fill(const TemplateValues &values) const
{
    // A text that is one placeholder (a document, the user's message) shares the value's
    // buffer instead of copying megabytes.
    if (m_parts.size() == 1 && m_parts.first().isPlaceholder) {
        const auto it = values.constFind(m_parts.first().text);
        if (it == values.cend())
            return std::unexpected(m_parts.first().text);
        return *it;
    }
    qsizetype size = 0;
    for (const Part &part : m_parts) {
        if (!part.isPlaceholder) {
            size += part.text.size();
            continue;
        }
        const auto it = values.constFind(part.text);
        if (it == values.cend())
            return std::unexpected(part.text);
        size += it->size();
    }
    QString out;
    out.reserve(size);
    for (const Part &part : m_parts)
        out.append(part.isPlaceholder ? values.value(part.text) : part.text);
    return out;
}

PromptTemplate &PromptTemplate::addSystem(const QString &text)
{
    m_segments.append({PromptSegment::Kind::System, true, Llm::Role::System, TemplateText(text), {}});
    return *this;
}

PromptTemplate &PromptTemplate::addTools(const QList<Llm::ToolDefinition> &tools)
{
    m_segments.append({PromptSegment::Kind::Tools, true, Llm::Role::System, {}, tools});
    return *this;
}

PromptTemplate &PromptTemplate::addStaticMessage(Llm::Role role, const QString &text)
{
    m_segments.append({PromptSegment::Kind::Message, true, role, TemplateText(text), {}});
    return *this;
}

PromptTemplate &PromptTemplate::addDynamicMessage(Llm::Role role, const QString &text)
{
    m_segments.append({PromptSegment::Kind::Message, false, role, TemplateText(text), {}});
    return *this;
}

PromptTemplate &PromptTemplate::addHistory()
{
    m_segments.append({PromptSegment::Kind::History, false, Llm::Role::User, {}, {}});
    return *this;
}

std::expected<Llm::ChatRequest, Llm::Error>
PromptTemplate::staticRequest(const QString &model, const TemplateValues &values, const QString &provider) const
{
    Llm::ChatRequest request;
    request.model = model;
    QStringList system;
    bool afterDynamic = false;
    for (const PromptSegment &segment : m_segments) {
        if (!segment.isStatic || segment.kind == PromptSegment::Kind::History) {
            afterDynamic = true;
            continue;
        }
        // Everything after the first dynamic byte misses the provider's prefix cache.
        if (afterDynamic)
            return invalid(provider, QStringLiteral("The prompt template has a static part after a dynamic one."));
        if (segment.kind == PromptSegment::Kind::Tools) {
            request.tools.append(segment.tools);
            continue;
        }
        auto text = segment.text.fill(values);
        if (!text)
            return missingValue(provider, text.error());
        if (segment.kind == PromptSegment::Kind::System)
            system.append(std::move(*text));
        else
            request.messages.append({segment.role, std::move(*text)});
    }
    request.system = system.size() == 1 ? system.first() : system.join(QStringLiteral("\n\n"));
    request.staticMessageCount = request.messages.size();
    return request;
}

std::expected<Llm::ChatRequest, Llm::Error>
PromptTemplate::request(const QString &model, const TemplateValues &staticValues, const TemplateValues &dynamicValues,
                        const GenerationParams &params, const QList<Llm::ChatMessage> &history) const
{
    auto request = staticRequest(model, staticValues, {});
    if (!request)
        return request;
    if (auto error = appendDynamic(m_segments, *request, dynamicValues, history, {}))
        return std::unexpected(*error);
    applyParams(*request, params);
    return request;
}

std::expected<CompiledPrompt, Llm::Error> PromptTemplate::compile(const Llm::ProviderProfile &profile,
                                                                  const TemplateValues &staticValues) const
{
    auto request = staticRequest(profile.model, staticValues, profile.displayName);
    if (!request)
        return std::unexpected(request.error());
    auto prefix = Llm::encodePrefix(profile.format, *request, profile.encodeOptionsFor(request->model),
                                    profile.displayName);
    if (!prefix)
        return std::unexpected(prefix.error());

    CompiledPrompt compiled;
    compiled.m_prefix = std::move(*prefix);
    compiled.m_target = profile.target();
    for (const PromptSegment &segment : m_segments)
        (segment.isStatic ? compiled.m_staticSegments : compiled.m_dynamic).append(segment);

    compiled.m_prefixDigest = prefixDigest(profile, compiled.m_prefix);
    compiled.m_prefixFingerprint = compiled.m_prefixDigest.left(FingerprintBytes);

    compiled.m_prefixTokens = estimatePromptTokens(*request);
    compiled.m_static = std::move(*request);
    return compiled;
}

std::expected<CompiledPrompt, Llm::Error> CompiledPrompt::withDynamicPartOf(const PromptTemplate &other) const
{
    if (isNull())
        return invalid({}, QStringLiteral("The prompt template was not compiled."));
    CompiledPrompt rebound = *this;
    rebound.m_dynamic.clear();
    QList<PromptSegment> statics;
    for (const PromptSegment &segment : other.segments())
        (segment.isStatic ? statics : rebound.m_dynamic).append(segment);
    if (statics != m_staticSegments)
        return invalid({}, QStringLiteral("The prompt templates do not share their static part."));
    return rebound;
}

CompiledPrompt CompiledPrompt::withCacheKey(const QString &key) const
{
    CompiledPrompt keyed = *this;
    keyed.m_cacheKey = key;
    return keyed;
}

QString cacheKeyFor(QStringView subject)
{
    const QByteArray digest = QCryptographicHash::hash(subject.toUtf8(), QCryptographicHash::Sha256);
    return QStringLiteral("hs-") + QString::fromLatin1(digest.left(12).toHex());
}

std::expected<RenderedRequest, Llm::Error> CompiledPrompt::render(const TemplateValues &values,
                                                                  const GenerationParams &params,
                                                                  const QList<Llm::ChatMessage> &history) const
{
    if (isNull())
        return invalid({}, QStringLiteral("The prompt template was not compiled."));
    Llm::ChatRequest request = m_static;
    if (auto error = appendDynamic(m_dynamic, request, values, history, m_prefix.providerName()))
        return std::unexpected(*error);
    applyParams(request, params);
    return finish(std::move(request));
}

std::expected<RenderedRequest, Llm::Error> CompiledPrompt::warmupRequest() const
{
    if (isNull())
        return invalid({}, QStringLiteral("The prompt template was not compiled."));
    Llm::ChatRequest request = m_static;
    request.maxTokens = 1;
    return finish(std::move(request));
}

std::expected<RenderedRequest, Llm::Error> CompiledPrompt::finish(Llm::ChatRequest request) const
{
    request.cacheKey = m_cacheKey;
    auto body = Llm::encodeWithPrefix(m_prefix, request);
    if (!body)
        return std::unexpected(body.error());
    RenderedRequest rendered;
    rendered.fingerprint = bodyFingerprint(m_prefixDigest, m_prefix, *body);
    rendered.estimatedPromptTokens = m_prefixTokens + estimateMessages(request, request.staticMessageCount);
    rendered.prefix = m_prefix;
    rendered.body = std::move(*body);
    rendered.request = std::move(request);
    return rendered;
}

qint64 estimatePromptTokens(const Llm::ChatRequest &request)
{
    qint64 tokens = estimateTokens(request.system) + estimateMessages(request, 0);
    for (const Llm::ToolDefinition &tool : request.tools)
        tokens += estimateTokens(tool.name) + estimateTokens(tool.description) + (tool.parametersSchema.size() + 3) / 4;
    return tokens;
}

std::expected<RenderedRequest, Llm::Error> renderRequest(const Llm::ProviderProfile &profile, Llm::ChatRequest request)
{
    auto prefix = Llm::encodePrefix(profile.format, request, profile.encodeOptionsFor(request.model),
                                    profile.displayName);
    if (!prefix)
        return std::unexpected(prefix.error());
    auto body = Llm::encodeWithPrefix(*prefix, request);
    if (!body)
        return std::unexpected(body.error());
    RenderedRequest rendered;
    rendered.fingerprint = bodyFingerprint(prefixDigest(profile, *prefix), *prefix, *body);
    rendered.estimatedPromptTokens = estimatePromptTokens(request);
    rendered.prefix = std::move(*prefix);
    rendered.body = std::move(*body);
    rendered.request = std::move(request);
    return rendered;
}

std::expected<QByteArray, Llm::Error> encodeVariant(const Llm::ProviderProfile &profile,
                                                    const RenderedRequest &rendered, int maxTokens,
                                                    const QString &continuation)
{
    Llm::ChatRequest request = rendered.request;
    request.maxTokens = maxTokens;
    request.continuation = continuation;
    if (!rendered.prefix.isNull())
        return Llm::encodeWithPrefix(rendered.prefix, request);
    return Llm::encodeRequest(profile.format, request, profile.encodeOptionsFor(request.model), profile.displayName);
}

QByteArray requestFingerprint(const Llm::ProviderProfile &profile, const Llm::ChatRequest &request)
{
    auto rendered = renderRequest(profile, request);
    return rendered ? rendered->fingerprint : QByteArray();
}

} // namespace Prefetch
