#include "pointer.h"

#include "session.h"

namespace Bench::Gen {

namespace {

constexpr std::array<const char *, 5> ActionNames = {"summarize", "continue", "rewrite", "translate", "explain"};

double distance(Point a, Point b)
{
    const double dx = b.x - a.x;
    const double dy = b.y - a.y;
    return std::sqrt(dx * dx + dy * dy);
}

// Flash & Hogan 1985: the minimum-jerk path from 0 to 1, s(τ) = 10τ³ − 15τ⁴ + 6τ⁵.
double minimumJerk(double tau)
{
    const double t3 = tau * tau * tau;
    return t3 * (10 + tau * (-15 + 6 * tau));
}

// A unit vector in a random direction, without sin/cos.
Point randomDirection(Random &rng)
{
    for (;;) {
        const double u = 2 * rng.uniform() - 1;
        const double v = 2 * rng.uniform() - 1;
        const double r2 = u * u + v * v;
        if (r2 > 0.01 && r2 <= 1) {
            const double r = std::sqrt(r2);
            return {u / r, v / r};
        }
    }
}

// The target's extent along the line from `from` through its centre (MacKenzie & Buxton 1992's
// W': a wide, low button is wide when approached along the row, low when approached from below).
double approachWidth(const Rect &target, Point from)
{
    const Point c = target.centre();
    const double d = distance(from, c);
    if (d < 1)
        return std::min(target.w, target.h);
    const double ux = std::abs(c.x - from.x) / d;
    const double uy = std::abs(c.y - from.y) / d;
    const double alongX = ux > 1e-9 ? target.w / ux : 1e9;
    const double alongY = uy > 1e-9 ? target.h / uy : 1e9;
    return std::min(alongX, alongY);
}

} // namespace

const PointerParams MouseUser{
    // Soukoreff & MacKenzie 2004 (IJHCS 61(6)), reviewing ISO 9241-9 studies: mouse throughput
    // of about 3.7–4.9 bits/s; PREFETCH.md: 4–5 bits/s.
    .throughputMin = 3.7,
    .throughputMax = 4.9,
    // Assumption: one movement's time varies by about ±20 % around the law's.
    .timeSigma = 0.2,
    .minMoveMs = 120,
    // Assumption: a minimum-jerk move peaks at 1.875 × its mean speed; Fitts's law with a wide
    // target (the chat input approached along its length) would otherwise flick the pointer at
    // 6,000 px/s and more.
    .maxPeakSpeed = 4000,
    // Meyer et al. 1988 give the form (SD ∝ mean velocity of the primary submovement), not a value
    // for a mouse. Assumption: k = 0.025 s puts the primary's endpoint within ±10 px (1 SD) of the
    // centre after a 400 px, 0.9 s approach, so about a quarter of the clicks on a 26 px high button
    // need a corrective submovement; across the movement the spread is half as large.
    .primarySpread = 0.025,
    .acrossRatio = 0.5,
    // Assumption: the correction starts 40–150 ms after the primary stops (a visual check).
    .correctionGap = {70, 0.4, 30, 200},
    // Assumption: a bow of a few percent of the path, either side.
    .bowSigma = 0.04,
    // Assumption: in one rest in four of a second or more the mouse moves by 1–4 px.
    .driftChance = 0.25,
    .driftTime = {150, 0.4, 60, 400},
    .driftPixels = {1, 4},
};

qint64 gridTime(qint64 k)
{
    return (k * 1000 + 30) / 60;
}

qint64 firstGridIndexAfter(qint64 t)
{
    qint64 k = std::max<qint64>(0, t * 60 / 1000 - 1);
    while (gridTime(k) <= t)
        ++k;
    return k;
}

Pointer::Pointer(Session &s, const Layout &layout, const PointerParams &params)
    : m_session(s)
    , m_layout(layout)
    , m_params(params)
    , m_throughput(s.rng.uniform(params.throughputMin, params.throughputMax))
{
}

void Pointer::place(Point p)
{
    m_position = {double(std::llround(p.x)), double(std::llround(p.y))};
    sample(gridTime(firstGridIndexAfter(m_session.t)), std::llround(p.x), std::llround(p.y));
    m_session.t = std::max(m_session.t, m_session.lastWritten());
}

double Pointer::fittsMs(double dist, double width) const
{
    return 1000 * portableLog2(dist / std::max(1.0, width) + 1) / m_throughput;
}

double Pointer::movementMs(double dist, double ms) const
{
    return std::max({double(m_params.minMoveMs), ms, 1000 * 1.875 * dist / m_params.maxPeakSpeed});
}

void Pointer::acquire(const Rect &target)
{
    Random &rng = m_session.rng;
    const Rect inside = target.shrunk(1);
    const Point aim = target.centre();
    const double dist = distance(m_position, aim);
    if (inside.contains(std::llround(m_position.x), std::llround(m_position.y)) && m_hovered >= 0)
        return; // already resting on it
    const double width = approachWidth(target, m_position);
    const double ms = movementMs(dist, fittsMs(dist, width) * rng.factor(m_params.timeSigma));
    const double velocity = dist / (ms / 1000); // px/s
    const double along = m_params.primarySpread * velocity;
    const double across = along * m_params.acrossRatio;
    const double ux = dist > 0 ? (aim.x - m_position.x) / dist : 1;
    const double uy = dist > 0 ? (aim.y - m_position.y) / dist : 0;
    // One draw per statement: the random numbers must come in the same order on every compiler.
    const double za = rng.normal();
    const double zc = rng.normal();
    const double bow = m_params.bowSigma * rng.normal();
    const Point end{aim.x + ux * za * along - uy * zc * across, aim.y + uy * za * along + ux * zc * across};
    glide(end, ms, bow);
    if (inside.contains(std::llround(m_position.x), std::llround(m_position.y)))
        return;
    // The primary submovement missed: look, then correct towards the centre, landing inside.
    m_session.t += rng.draw(m_params.correctionGap);
    const double spread = std::min(target.w, target.h) / 4.133 / 2; // well inside the effective width
    const double fx = rng.normal();
    const double fy = rng.normal();
    const Rect land = target.shrunk(std::min(3, (std::min(target.w, target.h) - 1) / 2));
    const Point final{std::clamp(aim.x + fx * spread, double(land.x), double(land.x + land.w - 1)),
                      std::clamp(aim.y + fy * spread, double(land.y), double(land.y + land.h - 1))};
    const double back = distance(m_position, final);
    const double correctionMs = movementMs(back, fittsMs(back, approachWidth(target, m_position))
                                                     * rng.factor(m_params.timeSigma));
    glide(final, correctionMs, 0);
}

void Pointer::moveTo(Point to, double width)
{
    Random &rng = m_session.rng;
    const double dist = distance(m_position, to);
    if (dist < 1)
        return;
    const double ms = movementMs(dist, fittsMs(dist, width) * rng.factor(m_params.timeSigma));
    const double bow = m_params.bowSigma * rng.normal();
    glide(to, ms, bow);
}

void Pointer::dragTo(Point to, qint64 durationMs)
{
    glide(to, double(std::max<qint64>(durationMs, m_params.minMoveMs)), 0);
}

void Pointer::rest(qint64 ms)
{
    Random &rng = m_session.rng;
    const qint64 end = m_session.t + ms;
    if (ms >= 1000 && rng.chance(m_params.driftChance)) {
        const qint64 driftMs = rng.draw(m_params.driftTime);
        m_session.t += qint64(std::llround(rng.uniform() * double(ms - driftMs)));
        const Point d = randomDirection(rng);
        const int pixels = rng.between(m_params.driftPixels);
        const Point to{std::round(m_position.x + d.x * pixels), std::round(m_position.y + d.y * pixels)};
        const Point mid{std::round((m_position.x + to.x) / 2), std::round((m_position.y + to.y) / 2)};
        // The drift keeps the pointer where it is: on its button, or off all of them.
        auto under = [&](Point p) { return m_layout.buttonAt(std::llround(p.x), std::llround(p.y)); };
        const bool stays = m_hovered >= 0 ? m_layout.buttons[size_t(m_hovered)].shrunk(1).contains(std::llround(to.x),
                                                                                                   std::llround(to.y))
                                          : under(to) < 0 && under(mid) < 0;
        if (stays && m_layout.window.contains(std::llround(to.x), std::llround(to.y)))
            glide(to, double(driftMs), 0);
    }
    m_session.t = std::max(m_session.t, end);
}

void Pointer::setBlocked(bool blocked)
{
    if (blocked && m_hovered >= 0) {
        m_session.write("hover_leave", {str("action", QLatin1String(ActionNames[size_t(m_hovered)]))});
        m_hovered = -1;
    }
    m_blocked = blocked;
}

void Pointer::glide(Point to, double durationMs, double bow)
{
    const Point from = m_position;
    const double dist = distance(from, to);
    if (dist < 0.5)
        return;
    const double nx = -(to.y - from.y) / dist;
    const double ny = (to.x - from.x) / dist;
    const qint64 t0 = std::max(m_session.t, m_session.lastWritten());
    for (qint64 k = firstGridIndexAfter(t0);; ++k) {
        const qint64 tk = gridTime(k);
        const double tau = double(tk - t0) / durationMs;
        const double s = tau >= 1 ? 1 : minimumJerk(tau);
        // The last pixel of a movement is not worth its slow tail: it snaps.
        const bool last = tau >= 1 || (1 - s) * dist < 1;
        const double sideways = last ? 0 : bow * dist * 4 * s * (1 - s);
        const Point p = last ? to
                             : Point{from.x + (to.x - from.x) * s + nx * sideways,
                                     from.y + (to.y - from.y) * s + ny * sideways};
        sample(tk, std::llround(p.x), std::llround(p.y));
        if (last) {
            m_session.t = std::max(m_session.t, tk);
            break;
        }
    }
    m_position = {double(m_lastX), double(m_lastY)};
}

void Pointer::sample(qint64 t, qint64 x, qint64 y)
{
    x = std::clamp<qint64>(x, 0, m_layout.window.w - 1);
    y = std::clamp<qint64>(y, 0, m_layout.window.h - 1);
    if (x == m_lastX && y == m_lastY)
        return; // no mouse move without a move
    m_lastX = x;
    m_lastY = y;
    m_session.writeAt(t, "pointer", {num("x", x), num("y", y)});
    const int under = m_blocked ? -1 : m_layout.buttonAt(x, y);
    if (under == m_hovered)
        return;
    if (m_hovered >= 0)
        m_session.writeAt(t, "hover_leave", {str("action", QLatin1String(ActionNames[size_t(m_hovered)]))});
    if (under >= 0) {
        m_session.writeAt(t, "hover_enter", {str("action", QLatin1String(ActionNames[size_t(under)]))});
        m_hoveredSince = t;
    }
    m_hovered = under;
}

} // namespace Bench::Gen
