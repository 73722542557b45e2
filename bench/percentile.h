#pragma once

#include <algorithm>
#include <cstddef>
#include <vector>

namespace Bench {

// The p-quantile (p in 0..1) of `v`: the sample at rank p·(n-1), rounded; 0 for no samples.
// The component benchmarks report their medians and p95s with it.
inline double percentile(std::vector<double> v, double p)
{
    if (v.empty())
        return 0;
    std::sort(v.begin(), v.end());
    return v[std::min(v.size() - 1, std::size_t(p * double(v.size() - 1) + 0.5))];
}

} // namespace Bench
