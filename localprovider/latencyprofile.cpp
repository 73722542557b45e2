#include "latencyprofile.h"

#include <cmath>
#include <limits>

namespace LocalProvider {

namespace {

constexpr double Unlimited = std::numeric_limits<double>::infinity();

// docs/localprovider.md gives each number of the hosted profiles its source, or says it is an
// assumption.
LatencyProfile hosted()
{
    LatencyProfile p;
    p.name = QStringLiteral("hosted");
    p.rttMs = 150;
    // With the round trip and ~50 ms of prefill, a short prompt's first token comes after
    // ~750 ms, as hosted chat APIs measure (PREFETCH.md: "800 ms TTFT").
    p.overheadMs = 550;
    // Slower than published prefill rates: a pessimistic provider for long documents.
    p.prefillTokensPerSec = 4000;
    p.decodeTokensPerSec = 40;
    p.slotCount = 64;
    p.cacheCapacityBlocks = 16384; // 1M tokens
    p.contextTokens = 128000;
    return p;
}

// A quick hosted API: ~300 ms to the first token on a short prompt.
LatencyProfile hostedFast()
{
    LatencyProfile p = hosted();
    p.name = QStringLiteral("hosted-fast");
    p.rttMs = 100;
    p.overheadMs = 200;
    p.prefillTokensPerSec = 20000;
    p.decodeTokensPerSec = 80;
    return p;
}

// A busy or distant hosted API: ~1.7 s to the first token on a short prompt.
LatencyProfile hostedSlow()
{
    LatencyProfile p = hosted();
    p.name = QStringLiteral("hosted-slow");
    p.rttMs = 200;
    p.overheadMs = 1500;
    p.prefillTokensPerSec = 10000;
    p.decodeTokensPerSec = 40;
    return p;
}

LatencyProfile localGpu()
{
    LatencyProfile p;
    p.name = QStringLiteral("local-gpu");
    p.rttMs = 2;
    p.prefillTokensPerSec = 20000;
    p.decodeTokensPerSec = 120;
    p.slotCount = 4;
    // A local server keeps its KV cache until memory runs out, not for a billing window.
    p.cacheTtlSec = 3600;
    p.cacheCapacityBlocks = 2048; // 128k tokens of KV memory
    p.contextTokens = 32768;
    return p;
}

LatencyProfile instant()
{
    LatencyProfile p;
    p.name = QStringLiteral("instant");
    p.prefillTokensPerSec = Unlimited;
    p.decodeTokensPerSec = Unlimited;
    p.slotCount = 0;
    return p;
}

std::optional<int> parseInt(QStringView value, int min, int max)
{
    bool ok = false;
    const int v = value.toInt(&ok);
    if (!ok || v < min || v > max)
        return std::nullopt;
    return v;
}

std::optional<double> parseRate(QStringView value)
{
    if (value == u"inf")
        return Unlimited;
    bool ok = false;
    const double v = value.toDouble(&ok);
    if (!ok || std::isnan(v) || v < 0)
        return std::nullopt;
    return v == 0 ? Unlimited : v;
}

} // namespace

std::optional<LatencyProfile> LatencyProfile::byName(QStringView name)
{
    if (name == u"hosted")
        return hosted();
    if (name == u"hosted-fast")
        return hostedFast();
    if (name == u"hosted-slow")
        return hostedSlow();
    if (name == u"hosted-long-doc") {
        LatencyProfile p = hosted();
        p.name = QStringLiteral("hosted-long-doc");
        return p;
    }
    if (name == u"local-gpu")
        return localGpu();
    if (name == u"instant")
        return instant();
    return std::nullopt;
}

QStringList LatencyProfile::names()
{
    return {QStringLiteral("hosted"),    QStringLiteral("hosted-fast"), QStringLiteral("hosted-slow"),
            QStringLiteral("hosted-long-doc"), QStringLiteral("local-gpu"), QStringLiteral("instant")};
}

LatencyProfile LatencyProfile::forSmallModel() const
{
    LatencyProfile p = *this;
    // hosted: 150 + 550 + ~50 ms of prefill = ~750 ms to a first token; small: 150 + 275 + ~25.
    p.overheadMs = overheadMs / 2;
    p.prefillTokensPerSec = prefillTokensPerSec * 2;
    p.decodeTokensPerSec = decodeTokensPerSec * 1.7;
    return p;
}

std::expected<LatencyProfile, QString> LatencyProfile::withOverrides(QStringView spec) const
{
    LatencyProfile p = *this;
    for (QStringView item : spec.split(u',', Qt::SkipEmptyParts)) {
        item = item.trimmed();
        const qsizetype eq = item.indexOf(u'=');
        if (eq <= 0)
            return std::unexpected(QStringLiteral("expected key=value, got \"%1\"").arg(item));
        const QStringView key = item.first(eq).trimmed();
        const QStringView value = item.sliced(eq + 1).trimmed();
        bool ok = true;
        if (key == u"rtt") {
            const auto v = parseInt(value, 0, 600000);
            ok = v.has_value();
            p.rttMs = v.value_or(0);
        } else if (key == u"overhead") {
            const auto v = parseInt(value, 0, 600000);
            ok = v.has_value();
            p.overheadMs = v.value_or(0);
        } else if (key == u"prefill" || key == u"decode") {
            const auto v = parseRate(value);
            ok = v.has_value();
            (key == u"prefill" ? p.prefillTokensPerSec : p.decodeTokensPerSec) = v.value_or(Unlimited);
        } else if (key == u"slots") {
            const auto v = parseInt(value, 0, 100000);
            ok = v.has_value();
            p.slotCount = v.value_or(0);
        } else if (key == u"context") {
            const auto v = parseInt(value, 1, 100000000);
            ok = v.has_value();
            p.contextTokens = v.value_or(1);
        } else if (key == u"ttl") {
            const auto v = parseInt(value, 0, 86400 * 30);
            ok = v.has_value();
            p.cacheTtlSec = v.value_or(0);
        } else if (key == u"think") {
            const auto v = parseInt(value, 0, 1000000);
            ok = v.has_value();
            p.thinkTokens = v.value_or(0);
        } else if (key == u"block") {
            const auto v = parseInt(value, 1, 4096);
            ok = v.has_value();
            p.cacheBlockTokens = v.value_or(64);
        } else {
            return std::unexpected(QStringLiteral("unknown key \"%1\"").arg(key));
        }
        if (!ok)
            return std::unexpected(QStringLiteral("bad value for \"%1\": \"%2\"").arg(key, value));
    }
    return p;
}

} // namespace LocalProvider
