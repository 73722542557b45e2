#pragma once

namespace Gui {

// How the response cache (Prefetch::ResponseCache) answered a chat message: not at all; with the
// answer the same request got before; with a near-duplicate question's answer sure enough to be
// served; or with one shown as a draft until the live answer replaces it.
enum class CachedAnswer { None, Exact, Similar, Draft };

} // namespace Gui
