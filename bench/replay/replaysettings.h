#pragma once

#include "replayer.h"

#include "localprovider/latencyprofile.h"
#include "prefetch/settings.h"

// The replayer's settings, kept out of replayer.cpp: what a mode and a variant turn on, and how
// compressing time changes the provider and the strategies' delays.
namespace Bench {

// The provider runs `speed` times faster: fixed delays shrink, rates grow, the cache lives
// shorter in proportion.
LocalProvider::LatencyProfile compress(LocalProvider::LatencyProfile p, double speed);

// The app's defaults (PREFETCH.md), with only this mode's strategies on, the variant's changes,
// and every delay and TTL compressed like the trace.
Prefetch::Settings settingsFor(Mode mode, double speed, const Variant &variant);

} // namespace Bench
