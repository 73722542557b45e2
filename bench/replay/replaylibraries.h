#pragma once

#include "trace.h"

#include <QString>

#include <expected>
#include <optional>

namespace Knowledge {
class Library;
}

namespace Bench {

// The libraries that traces open (`open_library`): generated (LibraryCorpus), written to a
// temporary folder and indexed once per process, then shared by every run of those traces (they
// only query them). Built and queried on the GUI thread; removed when the application ends.
namespace ReplayLibraries {

// Builds every library `trace` opens that is not built yet, blocking until each is indexed:
// call it before runs are started, so that the indexing does not play inside anyone's timing.
// The error says which library failed and why.
std::optional<QString> prepare(const Trace &trace);

// The library of `docs` notes from `seed`, once prepare() built it; nullptr before.
Knowledge::Library *find(int docs, quint64 seed);

} // namespace ReplayLibraries

} // namespace Bench
