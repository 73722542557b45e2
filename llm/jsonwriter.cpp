#include "jsonwriter.h"

#include <charconv>
#include <cmath>

namespace Llm {

namespace {

// Bytes that cannot appear raw inside a JSON string. Everything from 0x20 up, including
// UTF-8 lead and continuation bytes, is copied as is: JSON text is UTF-8, and \u-escaping
// non-ASCII would only make bodies larger.
inline bool needsEscape(unsigned char c)
{
    return c < 0x20 || c == '"' || c == '\\';
}

} // namespace

void JsonWriter::appendEscaped(QByteArray &out, QByteArrayView utf8)
{
    static constexpr char Hex[] = "0123456789abcdef";
    out.reserve(out.size() + utf8.size() + 2);
    out.append('"');
    const char *p = utf8.data();
    const char *const end = p + utf8.size();
    while (p < end) {
        const char *run = p;
        while (p < end && !needsEscape(static_cast<unsigned char>(*p)))
            ++p;
        if (p > run)
            out.append(run, p - run);
        if (p == end)
            break;
        const auto c = static_cast<unsigned char>(*p++);
        switch (c) {
        case '"': out.append("\\\"", 2); break;
        case '\\': out.append("\\\\", 2); break;
        case '\n': out.append("\\n", 2); break;
        case '\r': out.append("\\r", 2); break;
        case '\t': out.append("\\t", 2); break;
        case '\b': out.append("\\b", 2); break;
        case '\f': out.append("\\f", 2); break;
        default: {
            const char esc[6] = {'\\', 'u', '0', '0', Hex[c >> 4], Hex[c & 0xF]};
            out.append(esc, 6);
        }
        }
    }
    out.append('"');
}

void JsonWriter::beforeValue()
{
    if (m_afterKey) {
        m_afterKey = false;
        return;
    }
    if (m_levels.isEmpty())
        return;                          // the top-level value
    Q_ASSERT(!m_levels.last().isObject); // an object member needs key() first
    if (m_levels.last().hasElement)
        m_out.append(',');
    m_levels.last().hasElement = true;
}

JsonWriter &JsonWriter::open(char bracket, bool isObject)
{
    beforeValue();
    m_out.append(bracket);
    m_levels.append(Level{isObject, false});
    return *this;
}

JsonWriter &JsonWriter::close(char bracket, bool isObject)
{
    Q_ASSERT(!m_levels.isEmpty() && m_levels.last().isObject == isObject && !m_afterKey);
    Q_UNUSED(isObject);
    m_levels.removeLast();
    m_out.append(bracket);
    return *this;
}

JsonWriter &JsonWriter::beginObject()
{
    return open('{', true);
}
JsonWriter &JsonWriter::endObject()
{
    return close('}', true);
}
JsonWriter &JsonWriter::beginArray()
{
    return open('[', false);
}
JsonWriter &JsonWriter::endArray()
{
    return close(']', false);
}

JsonWriter &JsonWriter::key(QByteArrayView utf8Key)
{
    Q_ASSERT(!m_levels.isEmpty() && m_levels.last().isObject && !m_afterKey);
    if (m_levels.last().hasElement)
        m_out.append(',');
    m_levels.last().hasElement = true;
    appendEscaped(m_out, utf8Key);
    m_out.append(':');
    m_afterKey = true;
    return *this;
}

JsonWriter &JsonWriter::value(QStringView text)
{
    // toUtf8 turns an unpaired surrogate into U+FFFD, so the output is always valid UTF-8.
    return utf8Value(text.toUtf8());
}

JsonWriter &JsonWriter::utf8Value(QByteArrayView utf8)
{
    beforeValue();
    appendEscaped(m_out, utf8);
    return *this;
}

JsonWriter &JsonWriter::value(bool b)
{
    beforeValue();
    if (b)
        m_out.append("true", 4);
    else
        m_out.append("false", 5);
    return *this;
}

JsonWriter &JsonWriter::value(qint64 n)
{
    beforeValue();
    char buf[24];
    const auto result = std::to_chars(buf, buf + sizeof buf, n);
    m_out.append(buf, result.ptr - buf);
    return *this;
}

JsonWriter &JsonWriter::value(double d)
{
    if (!std::isfinite(d))
        return nullValue();
    beforeValue();
    // std::to_chars without a precision gives the shortest round-trip form, independent of
    // locale, so 0.7 is always "0.7" and never "0.69999999999999996".
    char buf[32];
    const auto result = std::to_chars(buf, buf + sizeof buf, d);
    m_out.append(buf, result.ptr - buf);
    return *this;
}

JsonWriter &JsonWriter::nullValue()
{
    beforeValue();
    m_out.append("null", 4);
    return *this;
}

JsonWriter &JsonWriter::rawValue(QByteArrayView json)
{
    beforeValue();
    m_out.append(json.data(), json.size());
    return *this;
}

} // namespace Llm
