// Shared by the ledge-link tests: the configuration their closed-form scenes are built with.
#pragma once

#include "leapnav/core/config.hpp"

namespace leapnav::test {

/// The thesis grid (cell 0.25 m, radius 0.25 m, height 1.8 m) with a climb of 3 cells, jump-up
/// 6 cells and drop 8 cells.
inline BuildConfig ledge_config() {
  BuildConfig c = *named_config("thesis");
  c.agent.max_climb = 0.75F;
  c.agent.max_jump_up = 1.5F;
  c.agent.max_drop = 2.0F;
  return c;
}

}  // namespace leapnav::test
