// Jump parameters (thesis Definition 4.2 / 4.5): jump height h, jump distance d and the largest
// survivable fall below the apex; several configurations may feed one link set. Options for the
// generator (sample step, Zhao-Saalfeld tolerance) and their validation.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "leapnav/core/context.hpp"
#include "leapnav/core/grid.hpp"
#include "leapnav/core/result.hpp"

namespace leapnav::jump {

/// One jump configuration. The arc over horizontal distance t is y(t) = (4h/d²)(d·t - t²).
struct JumpConfig {
  float height = 1.0F;    ///< apex above the start, h [units: m] [range: > 0]
  float distance = 2.5F;  ///< horizontal distance back at start height, d [units: m] [range: > 0]
  float max_fall = 2.5F;  ///< largest drop from the apex to the landing [units: m] [range: >= 0]
  friend bool operator==(const JumpConfig&, const JumpConfig&) = default;
};

/// The thesis's configurations (§8.1): C1 (1, 2.5, 2.5), C2 (3, 7.5, 7.5), C3 (5, 12.5, 12.5).
inline constexpr JumpConfig kJumpC1{1.0F, 2.5F, 2.5F};
inline constexpr JumpConfig kJumpC2{3.0F, 7.5F, 7.5F};
inline constexpr JumpConfig kJumpC3{5.0F, 12.5F, 12.5F};

/// Generator options.
struct JumpLinkOptions {
  std::vector<JumpConfig> jumps;  ///< at least one; links record the index of theirs
  int step = 1;           ///< sample columns whose grid x and z are divisible by this [range: >= 1]
  float epsilon = 0.25F;  ///< Zhao-Saalfeld tolerance for land segments [units: m] [range: > 0]
};

/// Checks one configuration; the message names the field and the value.
[[nodiscard]] Status validate(const JumpConfig& config);
/// Checks every configuration (naming its index), the step and epsilon, and that there are at most
/// 65535 configurations (links store the index in 16 bits).
[[nodiscard]] Status validate(const JumpLinkOptions& options);

/// The search range r = d/2 (1 + sqrt(max_fall / h)): the farthest horizontal distance at which
/// the arc is still no more than max_fall below its apex [units: m].
[[nodiscard]] double search_range(const JumpConfig& config);

/// Warns (ctx.warn, naming the configuration and both lengths) about each configuration that
/// can give no link on `grid`: a landing lies where the arc comes down, more than d/2 from its
/// start horizontally (the land search takes floors hit on the way down only, thesis §5.4), so
/// when d/2 exceeds the grid's xz diagonal no landing exists (`--jump 1000,5000,5000` on a 40 m
/// scene: 0 links, said instead of left silent). A sufficient test only: a configuration that
/// passes may still find nothing. Returns how many were warned about.
std::size_t warn_unreachable_configs(const JumpLinkOptions& options, const GridSpec& grid,
                                     BuildContext& ctx);

}  // namespace leapnav::jump
