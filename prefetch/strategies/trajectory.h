#pragma once

#include <QList>
#include <QPointF>
#include <QRectF>

#include <optional>

namespace Prefetch {

// Where the pointer is heading, from its recent motion: the target (an action button) its
// current movement is predicted to end on, before it gets there.
//
// Two models. `Linear` is ForesightJS's (spaansba/ForesightJS, the reference for web prefetch):
// the mean velocity over the last 8 positions, extrapolated 120 ms ahead, and the target whose
// rectangle (grown by the slop) that short segment crosses. `Kinematic` is ours: aimed pointer
// movements follow a minimum-jerk profile (Flash & Hogan 1985), whose speed is symmetric about
// the middle of the movement, so the distance covered, the current speed and the time since the
// movement began tell how far along it is and where it will end (the idea of Lank, Cheng and Ruiz,
// CHI 2007, "Endpoint prediction using motion kinematics"). It predicts from early in a
// movement, about as long before the arrival as the movement has lasted, where a short linear
// look-ahead sees the target only in its last 120 ms. A value type; any thread.
class TrajectoryPredictor
{
public:
    enum class Model { Linear, Kinematic };
    struct Target {
        int id = -1;
        QRectF rect;
    };
    struct Prediction {
        int target = -1;       // a Target::id
        QPointF endpoint;      // where the movement is predicted to end
        qint64 arrivalNs = -1; // when, monotonic ns
    };

    explicit TrajectoryPredictor(Model model = Model::Kinematic, double slopPx = 6.0);

    void setTargets(QList<Target> targets);
    // A pointer position at monotonic time `ns` (samples come while the pointer moves; a gap
    // of more than RestGapMs means it rested in between).
    void addSample(QPointF position, qint64 ns);
    // The pointer left the window or jumped: forget the movement.
    void reset();

    // The target the current movement is predicted to end on, if any.
    std::optional<Prediction> predict() const;
    // The target under the pointer now, or -1.
    int targetAt(QPointF position) const;

    Model model() const { return m_model; }

    static constexpr qint64 RestGapMs = 80;

private:
    struct Sample {
        QPointF position;
        qint64 ns = 0;
    };
    std::optional<Prediction> predictLinear() const;
    std::optional<Prediction> predictKinematic() const;
    int targetHitBySegment(QPointF from, QPointF to) const;

    Model m_model;
    double m_slop;
    QList<Target> m_targets;
    QList<Sample> m_samples; // the current movement, oldest first
};

} // namespace Prefetch
