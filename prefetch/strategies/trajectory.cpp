#include "trajectory.h"

#include <QLineF>

#include <cmath>

namespace Prefetch {

namespace {

// ForesightJS's defaults (src/Manager/constants.ts): 8 positions, 120 ms ahead.
constexpr qsizetype LinearHistory = 8;
constexpr double LinearAheadMs = 120.0;
// Below this speed the pointer is taken to rest; a movement starts when it exceeds it.
constexpr double RestSpeed =
    10.0; // px/s: slower is a stop (or the first instants of a movement, which the start keeps)
// A movement too short to say where it goes: too little of the speed profile seen yet.
constexpr double MinTravelPx = 12.0;
constexpr double MinElapsedMs = 50.0;
// Only once this far into the movement (fraction of its duration) is the endpoint trusted: the
// very beginning of a movement is mostly reaction and acceleration, and noisy.
constexpr double MinProgress = 0.2;
// The uncertainty of the predicted end along the line of motion: this share of the distance
// still to go, and a few pixels more.
constexpr double MarginShare = 0.25;
constexpr double MarginPx = 8.0;

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
    // The speed over the last two frames, which smooths a 60 Hz pointer's jitter, is the
    // speed at the frame between them: distance and time are taken there too, or the lag of
    // the average would read as being further along.
    if (m_samples.size() < 3)
        return std::nullopt;
    const Sample &before = m_samples.at(m_samples.size() - 3);
    const Sample &middle = m_samples.at(m_samples.size() - 2);
    const double windowMs = msBetween(before.ns, now.ns);
    if (windowMs <= 0)
        return std::nullopt;
    const double speed = QLineF(before.position, now.position).length() / windowMs; // px/ms
    const QPointF covered = middle.position - start.position;
    const double distanceAtMiddle = std::hypot(covered.x(), covered.y());
    const double elapsedAtMiddle = msBetween(start.ns, middle.ns);
    if (speed <= 1e-6 || distanceAtMiddle <= 0 || elapsedAtMiddle <= 0)
        return std::nullopt;
    const double tau = progressFromRatio(distanceAtMiddle / (speed * elapsedAtMiddle));
    if (tau < MinProgress)
        return std::nullopt;
    const double total = distanceAtMiddle / coveredFraction(tau);
    const QPointF direction = travelled / distance;
    const QPointF endpoint = start.position + direction * total;
    const qint64 arrival = start.ns + qint64(elapsedAtMiddle / tau * 1e6);
    // How far the movement goes is less certain than where it heads, and more so early on (a
    // frame's error in where it began moves the estimate by several percent): the target is
    // the one nearest the predicted end among those on the line of motion within the
    // remaining distance's uncertainty of it.
    const double uncertainty = MarginShare * std::max(0.0, total - distance) + MarginPx;
    const QPointF from = start.position + direction * std::max(distance, total - uncertainty);
    const QPointF to = start.position + direction * (total + uncertainty);
    int best = -1;
    double bestDistance = 0;
    const QLineF line(from, to);
    const int steps = std::max(1, int(std::ceil(line.length() / 2.0)));
    for (int i = 0; i <= steps; ++i) {
        const QPointF p = line.pointAt(double(i) / steps);
        for (const Target &t : m_targets) {
            if (!t.rect.adjusted(-m_slop, -m_slop, m_slop, m_slop).contains(p))
                continue;
            const double d = QLineF(p, endpoint).length();
            if (best < 0 || d < bestDistance) {
                best = t.id;
                bestDistance = d;
            }
        }
    }
    if (best < 0)
        return std::nullopt;
    return Prediction{best, endpoint, arrival};
}

} // namespace Prefetch
