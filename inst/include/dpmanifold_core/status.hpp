// The one failure protocol of the exact samplers (SPEC section 6). Before
// it looks at any data, an exact sampler computes a public lower bound on
// its acceptance and refuses (`refused`; `improper` for a law that is not
// normalisable) when the number of proposals that would certify a failure
// probability of kFailureProbability exceeds a public cap. Once it runs, a
// rejection loop runs until it accepts (no cap: a cap would make the
// release fail with a data-dependent probability, a delta), so a sampler
// that started returns its draw. `exhausted` remains for samplers outside
// that rule; the R side turns every outcome but `ok` into a classed error
// whose message names public quantities only. Proof:
// inst/proofs/exact-samplers.md.
#ifndef DPMANIFOLD_STATUS_HPP
#define DPMANIFOLD_STATUS_HPP

#include <stdexcept>

namespace dpmanifold {

// Failure probability certified for one exact draw.
constexpr double kFailureProbability = 1e-10;

enum class Status {
  ok,
  malformed, // the data hold something that is not a point of the manifold
  improper,  // the untruncated law is not normalisable at these public parameters
  refused,   // the public bound on proposals would exceed the cap (decided without data)
  exhausted, // the bound was reached (probability below the certified one)
  unresolved // sigma below what double precision resolves at the public radius (decided without data)
};

// The names the R side reads ("ok", "improper", "refused", "exhausted").
inline const char* status_name(Status s) {
  switch (s) {
    case Status::ok: return "ok";
    case Status::malformed: return "malformed";
    case Status::improper: return "improper";
    case Status::refused: return "refused";
    case Status::exhausted: return "exhausted";
    case Status::unresolved: return "unresolved";
  }
  return "unknown";
}

// For a sampler deep inside an algorithm that cannot return its status:
// thrown, and turned by the host into the same outcome (the R glue: an
// error of class "dpmanifold_sampler_status" with fields `status` and
// `max_attempts`).
class SamplerStopped : public std::runtime_error {
 public:
  SamplerStopped(Status s, double max_attempts)
      : std::runtime_error(status_name(s)), status(s), max_attempts(max_attempts) {}
  Status status;
  double max_attempts;
};

}  // namespace dpmanifold

#endif
