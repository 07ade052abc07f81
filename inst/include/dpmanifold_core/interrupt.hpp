// Interrupt polling for the long loops of the core (samplers, rejection
// loops, Frechet mean and regression iterations, batch passes over data).
//
// The headers stay free of R: a host installs a checker with
// set_interrupt_checker(); the checker throws Interrupted when the user
// pressed Ctrl-C or a time limit expired (the R glue: src/glue.h), and the
// host turns that into its own error once the C++ frames are unwound.
//
// Polling is by work done, not by steps: poll_interrupt(cost) adds the cost
// of the work since the last call (in "work units", about a nanosecond of
// one core each: a sphere log map is ~30 units, an SPD(k) one ~30 k^3) and
// reads the steady clock once the work since the last reading passes
// kPollWork (or after 64 calls, for callers that do not state a cost); the
// checker runs when 20 ms have passed since it last ran. A loop whose steps
// cost O(n) therefore reads the clock every step, a loop of cheap steps
// once every ~2 ms of work, and the cost per call is an addition.
//
// Parallel passes (batch.hpp) suspend polling while worker threads run and
// poll on the calling thread between rounds of work: the checker never runs
// on a worker thread and never throws out of a parallel region.
#ifndef DPMANIFOLD_INTERRUPT_HPP
#define DPMANIFOLD_INTERRUPT_HPP

#include <chrono>

namespace dpmanifold {

// What a checker throws to stop the computation. Deliberately not a
// std::exception, so that no `catch (const std::exception&)` on the way
// out mistakes it for a failure of the algorithm.
struct Interrupted {};

using InterruptChecker = void (*)();

// Work between two readings of the clock (~2 ms of one core).
constexpr double kPollWork = 2e6;

namespace detail {
struct InterruptState {
  InterruptChecker checker = nullptr;
  double work = 0.0;
  unsigned calls = 0;
  int suspended = 0;  // > 0 while a parallel pass runs (batch.hpp)
  std::chrono::steady_clock::time_point last = std::chrono::steady_clock::now();
};
inline InterruptState& interrupt_state() {
  static InterruptState s;
  return s;
}
}  // namespace detail

inline void set_interrupt_checker(InterruptChecker f) { detail::interrupt_state().checker = f; }

// Call after each step of any loop whose length is not bounded by a small
// constant, with the cost of the step when it is not small (a pass over n
// points: n times the cost of one). Throws whatever the checker throws.
inline void poll_interrupt(double cost = 1.0) {
  detail::InterruptState& s = detail::interrupt_state();
  if (!s.checker || s.suspended > 0) return;
  s.work += cost;
  if (++s.calls < 64u && s.work < kPollWork) return;
  s.calls = 0;
  s.work = 0.0;
  const auto now = std::chrono::steady_clock::now();
  if (now - s.last < std::chrono::milliseconds(20)) return;
  s.last = now;
  s.checker();
}

// Polling is off (on every thread) while one of these lives; the parallel
// passes hold one around each parallel region.
class SuspendPolling {
 public:
  SuspendPolling() { ++detail::interrupt_state().suspended; }
  ~SuspendPolling() { --detail::interrupt_state().suspended; }
  SuspendPolling(const SuspendPolling&) = delete;
  SuspendPolling& operator=(const SuspendPolling&) = delete;
};

}  // namespace dpmanifold

#endif
