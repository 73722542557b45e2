#include "trajectory.h"

#include <QLineF>

#include <cmath>

namespace Prefetch {

namespace {

// ForesightJS's defaults (src/Manager/constants.ts): 8 positions, 120 ms ahead.
constexpr qsizetype LinearHistory = 8;
constexpr double LinearAheadMs = 120.0;
// Below this speed the pointer is taken to rest; a movement starts when it exceeds it.
constexpr double RestSpeed = 40.0; // px/s
// A movement too short to say where it goes: too little of the speed profile seen yet.
constexpr double MinTravelPx = 12.0;
constexpr double MinElapsedMs = 50.0;
// Only once this far into the movement (fraction of its duration) is the endpoint trusted: the
// very beginning of a movement is mostly reaction and acceleration, and noisy.
constexpr double MinProgress = 0.2;

double msBetween(qint64 a, qint64 b)
{
    return double(b - a) / 1e6;
}

// Distance covered, as a fraction of the whole, at fraction `tau` of a minimum-jerk movement.
double coveredFraction(double tau)
{
    return tau * tau * tau * (10.0 - 15.0 * tau + 6.0 * tau * tau);
}

// For a minimum-jerk movement at fraction tau: distance covered ÷ (current speed × time
// elapsed) = (10 − 15τ + 6τ²) / (30 (1 − τ)²), which grows from 1/3 at the start to infinity
// at the end. Solving it for tau tells how far along a movement is from what was seen of it.
double progressFromRatio(double ratio)
{
    if (ratio <= 1.0 / 3.0)
        return 0.0;
    double lo = 0.0;
    double hi = 0.999;
    for (int i = 0; i < 40; ++i) {
        const double mid = (lo + hi) / 2;
        const double f = (10.0 - 15.0 * mid + 6.0 * mid * mid) / (30.0 * (1.0 - mid) * (1.0 - mid));
        (f < ratio ? lo : hi) = mid;
    }
    return (lo + hi) / 2;
}

} // namespace

TrajectoryPredictor::TrajectoryPredictor(Model model, double slopPx)
    : m_model(model)
    , m_slop(slopPx)
{
}

void TrajectoryPredictor::setTargets(QList<Target> targets)
{
    m_targets = std::move(targets);
}

void TrajectoryPredictor::reset()
{
    m_samples.clear();
}

void TrajectoryPredictor::addSample(QPointF position, qint64 ns)
{
    if (!m_samples.isEmpty()) {
        const Sample last = m_samples.constLast();
        const double ms = msBetween(last.ns, ns);
        if (ms <= 0)
            return;
        const double speed = QLineF(last.position, position).length() / (ms / 1000.0);
        if (ms > RestGapMs) {
            // It rested in between (no samples while still): this movement began about a
            // frame before this sample, where the pointer rested.
            m_samples = {Sample{last.position, ns - 16'000'000}};
        } else if (speed < RestSpeed) {
            m_samples = {last}; // a stop before the next movement, or a slow drift
        }
    }
    m_samples.append({position, ns});
    // A movement lasts a second or two; older positions say nothing more.
    while (m_samples.size() > 240)
        m_samples.removeFirst();
}

int TrajectoryPredictor::targetAt(QPointF position) const
{
    for (const Target &t : m_targets) {
        if (t.rect.contains(position))
            return t.id;
    }
    return -1;
}

std::optional<TrajectoryPredictor::Prediction> TrajectoryPredictor::predict() const
{
    if (m_samples.size() < 2)
        return std::nullopt;
    return m_model == Model::Linear ? predictLinear() : predictKinematic();
}

int TrajectoryPredictor::targetHitBySegment(QPointF from, QPointF to) const
{
    // The first target the segment enters, by sampling it finely (targets are few and small).
    const QLineF line(from, to);
    const int steps = std::max(1, int(std::ceil(line.length() / 2.0)));
    for (int i = 0; i <= steps; ++i) {
        const QPointF p = line.pointAt(double(i) / steps);
        for (const Target &t : m_targets) {
            if (t.rect.adjusted(-m_slop, -m_slop, m_slop, m_slop).contains(p))
                return t.id;
        }
    }
    return -1;
}

std::optional<TrajectoryPredictor::Prediction> TrajectoryPredictor::predictLinear() const
{
    const qsizetype first = std::max<qsizetype>(0, m_samples.size() - LinearHistory);
    const Sample &a = m_samples.at(first);
    const Sample &b = m_samples.constLast();
    const double ms = msBetween(a.ns, b.ns);
    if (ms <= 0)
        return std::nullopt;
    const QPointF velocity = (b.position - a.position) / ms; // px per ms
    const QPointF ahead = b.position + velocity * LinearAheadMs;
    const int target = targetHitBySegment(b.position, ahead);
    if (target < 0)
        return std::nullopt;
    return Prediction{target, ahead, b.ns + qint64(LinearAheadMs * 1e6)};
}

std::optional<TrajectoryPredictor::Prediction> TrajectoryPredictor::predictKinematic() const
{
    const Sample &start = m_samples.constFirst();
    const Sample &now = m_samples.constLast();
    const double elapsedMs = msBetween(start.ns, now.ns);
    const QPointF travelled = now.position - start.position;
    const double distance = std::hypot(travelled.x(), travelled.y());
    if (elapsedMs < MinElapsedMs || distance < MinTravelPx)
        return std::nullopt;
    // The current speed over the last ~50 ms, which smooths a 60 Hz pointer's jitter.
    qsizetype back = m_samples.size() - 1;
    while (back > 0 && msBetween(m_samples.at(back).ns, now.ns) < 48)
        --back;
    const Sample &earlier = m_samples.at(back);
    const double windowMs = msBetween(earlier.ns, now.ns);
    if (windowMs <= 0)
        return std::nullopt;
    const double speed = QLineF(earlier.position, now.position).length() / windowMs; // px/ms
    if (speed <= 1e-6)
        return std::nullopt;
    const double tau = progressFromRatio(distance / (speed * elapsedMs));
    if (tau < MinProgress)
        return std::nullopt;
    const double total = distance / coveredFraction(tau);
    const QPointF endpoint = start.position + travelled * (total / distance);
    const qint64 arrival = start.ns + qint64(elapsedMs / tau * 1e6);
    const int target = targetHitBySegment(endpoint, endpoint); // the grown rectangle holding the endpoint
    if (target < 0)
        return std::nullopt;
    return Prediction{target, endpoint, arrival};
}

} // namespace Prefetch
