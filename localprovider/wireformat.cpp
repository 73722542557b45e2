#include "wireformat.h"

#include "anthropicformat.h"
#include "chatrequest.h"
#include "openaiformat.h"
#include "stablehash.h"

namespace LocalProvider {

WireFormat::~WireFormat() = default;

std::unique_ptr<WireFormat> WireFormat::create(Api api, const QString &model, quint64 serial, bool thinks)
{
    // Unique within a run and across runs of the same server; not meant to be unguessable.
    const QByteArray id =
        QByteArray::number(StableHash::mix(serial ^ StableHash::text(model)), 16).rightJustified(16, '0')
        + QByteArray::number(serial, 16).rightJustified(8, '0');
    if (api == Api::Anthropic)
        return std::make_unique<AnthropicFormat>(model, "msg_" + id, thinks);
    return std::make_unique<OpenAiFormat>(model, "chatcmpl-" + id);
}

QByteArray jsonQuoted(QStringView text)
{
    QString out;
    out.reserve(text.size() + 2);
    out += u'"';
    for (QChar c : text) {
        switch (c.unicode()) {
        case u'"': out += u"\\\""; break;
        case u'\\': out += u"\\\\"; break;
        case u'\n': out += u"\\n"; break;
        case u'\r': out += u"\\r"; break;
        case u'\t': out += u"\\t"; break;
        case u'\b': out += u"\\b"; break;
        case u'\f': out += u"\\f"; break;
        default:
            if (c.unicode() < 0x20)
                out += QStringLiteral("\\u%1").arg(static_cast<uint>(c.unicode()), 4, 16, QLatin1Char('0'));
            else
                out += c;
        }
    }
    out += u'"';
    return out.toUtf8();
}

} // namespace LocalProvider
