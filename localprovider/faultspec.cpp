#include "faultspec.h"

#include <optional>

namespace LocalProvider {

namespace {

std::optional<int> count(QStringView value, int max = 1000000)
{
    bool ok = false;
    const int v = value.toInt(&ok);
    if (!ok || v < 0 || v > max)
        return std::nullopt;
    return v;
}

} // namespace

std::expected<FaultSpec, QString> FaultSpec::parse(QStringView spec)
{
    FaultSpec f;
    for (QStringView item : spec.split(u',', Qt::SkipEmptyParts)) {
        item = item.trimmed();
        if (item.isEmpty())
            continue;
        if (item == u"context-too-long") {
            f.contextTooLong = true;
            continue;
        }
        const qsizetype eq = item.indexOf(u'=');
        if (eq <= 0)
            return std::unexpected(QStringLiteral("unknown fault \"%1\"").arg(item));
        const QStringView key = item.first(eq).trimmed();
        const QStringView value = item.sliced(eq + 1).trimmed();
        const auto bad = [&] {
            return std::unexpected(QStringLiteral("bad value for \"%1\": \"%2\"").arg(key, value));
        };
        if (key == u"status") {
            const auto v = count(value, 599);
            if (!v || *v < 400)
                return bad();
            f.status = *v;
        } else if (key == u"retry-after") {
            const auto v = count(value, 86400);
            if (!v)
                return bad();
            f.retryAfterSec = *v;
        } else if (key == u"drop-after" || key == u"malformed-at" || key == u"error-at") {
            const auto v = count(value);
            if (!v)
                return bad();
            (key == u"drop-after" ? f.dropAfter : key == u"malformed-at" ? f.malformedAt : f.errorAt) = *v;
        } else if (key == u"stall") {
            const qsizetype at = value.indexOf(u'@');
            const auto ms = count(at < 0 ? value : value.first(at), 600000);
            const auto n = at < 0 ? std::optional<int>(0) : count(value.sliced(at + 1));
            if (!ms || !n)
                return bad();
            f.stallMs = *ms;
            f.stallAt = *n;
        } else if (key == u"flood") {
            static const std::pair<const char16_t *, Flood> kinds[] = {{u"text", Flood::Text},
                                                                       {u"choices", Flood::Choices},
                                                                       {u"tools", Flood::Tools},
                                                                       {u"comments", Flood::Comments},
                                                                       {u"error", Flood::Error}};
            f.flood = Flood::None;
            for (const auto &[name, kind] : kinds) {
                if (value == QStringView(name))
                    f.flood = kind;
            }
            if (f.flood == Flood::None)
                return bad();
        } else if (key == u"refuse") {
            for (QStringView feature : value.split(u'+', Qt::SkipEmptyParts)) {
                if (feature == u"prefill")
                    f.refusePrefill = true;
                else if (feature == u"temperature")
                    f.refuseTemperature = true;
                else if (feature == u"thinking-budget")
                    f.refuseThinkingBudget = true;
                else if (feature == u"max-tokens")
                    f.refuseMaxTokens = true;
                else
                    return bad();
            }
        } else if (key == u"fail-first") {
            const qsizetype at = value.indexOf(u'@');
            const auto n = count(at < 0 ? value : value.first(at));
            const QStringView tag = at < 0 ? QStringView() : value.sliced(at + 1).trimmed();
            if (!n || (at >= 0 && (tag.isEmpty() || tag.size() > 64)))
                return bad();
            f.failFirst = *n;
            f.failFirstKey = tag.toString();
        } else {
            return std::unexpected(QStringLiteral("unknown fault \"%1\"").arg(key));
        }
    }
    return f;
}

FaultSpec FaultSpec::mergedWith(const FaultSpec &o) const
{
    FaultSpec f = *this;
    if (o.status)
        f.status = o.status;
    if (o.retryAfterSec >= 0)
        f.retryAfterSec = o.retryAfterSec;
    if (o.dropAfter >= 0)
        f.dropAfter = o.dropAfter;
    if (o.stallAt >= 0) {
        f.stallAt = o.stallAt;
        f.stallMs = o.stallMs;
    }
    if (o.malformedAt >= 0)
        f.malformedAt = o.malformedAt;
    if (o.errorAt >= 0)
        f.errorAt = o.errorAt;
    f.contextTooLong = f.contextTooLong || o.contextTooLong;
    if (o.flood != Flood::None)
        f.flood = o.flood;
    f.refusePrefill = f.refusePrefill || o.refusePrefill;
    f.refuseTemperature = f.refuseTemperature || o.refuseTemperature;
    f.refuseThinkingBudget = f.refuseThinkingBudget || o.refuseThinkingBudget;
    f.refuseMaxTokens = f.refuseMaxTokens || o.refuseMaxTokens;
    if (o.failFirst >= 0) {
        f.failFirst = o.failFirst;
        f.failFirstKey = o.failFirstKey;
    }
    return f;
}

bool FaultSpec::isEmpty() const
{
    return !status && retryAfterSec < 0 && dropAfter < 0 && stallAt < 0 && malformedAt < 0 && errorAt < 0
           && !contextTooLong && flood == Flood::None && !refusePrefill && !refuseTemperature && !refuseThinkingBudget
           && !refuseMaxTokens;
}

} // namespace LocalProvider
