#pragma once

#include <QtGlobal>

namespace Base {

// A memory figure of this process from Linux's /proc/self/status, in KiB: "VmRSS" (resident now)
// or "VmHWM" (the most it has been resident, since exec or since /proc/self/clear_refs was
// written 5). Unlike getrusage()'s ru_maxrss, VmHWM is this program's own: ru_maxrss also counts
// the image of the process that forked it, as it stood before exec. -1 where there is no such
// file or field (another system). Any thread.
qint64 processStatusKb(const char *field);

} // namespace Base
