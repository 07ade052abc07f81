// Interrupt polling for the long loops of the core (samplers, rejection
// loops, Frechet mean and regression iterations, distance matrices).
//
// The headers stay free of R: a host installs a checker with
// set_interrupt_checker() (the R glue installs one that calls
// Rcpp::checkUserInterrupt(), which throws when the user pressed Ctrl-C or a
// setTimeLimit() expired). Loops call poll_interrupt() once per iteration;
// it reads a steady clock only every 64 calls and runs the checker at most
// every 20 ms, so the cost per iteration is a counter increment.
#ifndef DPMANIFOLD_INTERRUPT_HPP
#define DPMANIFOLD_INTERRUPT_HPP

#include <chrono>

namespace dpmanifold {

using InterruptChecker = void (*)();

namespace detail {
struct InterruptState {
  InterruptChecker checker = nullptr;
  unsigned counter = 0;
  std::chrono::steady_clock::time_point last = std::chrono::steady_clock::now();
};
inline InterruptState& interrupt_state() {
  static InterruptState s;
  return s;
}
}  // namespace detail

inline void set_interrupt_checker(InterruptChecker f) { detail::interrupt_state().checker = f; }

// Call once per iteration of any loop whose length is not bounded by a small
// constant. Throws whatever the installed checker throws.
inline void poll_interrupt() {
  detail::InterruptState& s = detail::interrupt_state();
  if (!s.checker || (++s.counter & 63u) != 0u) return;
  auto now = std::chrono::steady_clock::now();
  if (now - s.last < std::chrono::milliseconds(20)) return;
  s.last = now;
  s.checker();
}

}  // namespace dpmanifold

#endif
