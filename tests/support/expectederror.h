#pragma once

#include <QByteArray>
#include <QString>

#include <expected>

namespace TestSupport {

// The error of `result` for a test's failure message, or nothing when it holds a value.
// QVERIFY2 evaluates its message whether or not the check passes, so
// QVERIFY2(r, qPrintable(r.error())) reads the error of a successful result: undefined.
template <typename T>
QByteArray errorOf(const std::expected<T, QString> &result)
{
    return result ? QByteArray() : result.error().toLocal8Bit();
}

} // namespace TestSupport
