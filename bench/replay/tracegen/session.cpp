#include "session.h"

namespace Bench::Gen {

namespace {

quint64 kindHash(const char *kind) // FNV-1a: kinds with the same seed differ
{
    quint64 h = 0xcbf29ce484222325ULL;
    for (const char *c = kind; *c; ++c)
        h = (h ^ quint64(uchar(*c))) * 0x100000001b3ULL;
    return h;
}

} // namespace

QByteArray jsonString(const QString &text)
{
    QByteArray out = "\"";
    for (const char c : text.toUtf8()) {
        switch (c) {
        case '"': out += "\\\""; break;
        case '\\': out += "\\\\"; break;
        case '\n': out += "\\n"; break;
        case '\t': out += "\\t"; break;
        case '\r': out += "\\r"; break;
        default:
            if (uchar(c) < 0x20)
                out += "\\u00" + QByteArray::number(uchar(c), 16).rightJustified(2, '0');
            else
                out += c;
        }
    }
    return out + '"';
}

Field num(const char *key, qint64 value)
{
    return {jsonString(QLatin1String(key)) + ':' + QByteArray::number(value)};
}

Field unsignedNum(const char *key, quint64 value)
{
    return {jsonString(QLatin1String(key)) + ':' + QByteArray::number(value)};
}

Field str(const char *key, const QString &value)
{
    return {jsonString(QLatin1String(key)) + ':' + jsonString(value)};
}

Field object(const char *key, std::initializer_list<Field> fields)
{
    QByteArray json = jsonString(QLatin1String(key)) + ":{";
    bool first = true;
    for (const Field &f : fields) {
        json += (first ? "" : ",") + f.json;
        first = false;
    }
    return {json + '}'};
}

Session::Session(const char *kind, quint64 seed, quint64 attempt, const char *description)
    : rng(seed ^ (kindHash(kind) * 0x2545f4914f6cdd1dULL) ^ (attempt * 0xd1b54a32d192ed03ULL))
{
    write("meta", {str("name", QLatin1String(kind)), unsignedNum("seed", seed),
                   str("generator", QStringLiteral("headstart-cli tracegen")),
                   str("description", QLatin1String(description))});
}

void Session::writeAt(qint64 at, const char *event, std::initializer_list<Field> fields)
{
    Q_ASSERT(at >= m_lastT);
    m_lastT = at;
    if (qstrcmp(event, "click") == 0 || qstrcmp(event, "send") == 0 || qstrcmp(event, "wizard_next") == 0)
        m_lastActivation = at;
    m_text += "{\"t\":" + QByteArray::number(at) + ",\"event\":" + jsonString(QLatin1String(event));
    for (const Field &f : fields)
        m_text += ',' + f.json;
    m_text += "}\n";
}

QByteArray Session::finish()
{
    t = std::max({t, m_lastT, m_lastActivation + AnswerRoomMs});
    write("end");
    return m_text;
}

} // namespace Bench::Gen
