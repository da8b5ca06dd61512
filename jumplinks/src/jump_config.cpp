// Validation of jump configurations and generator options, and the search range of §5.4.1.
#include "leapnav/jumplinks/jump_config.hpp"

#include <cmath>
#include <sstream>
#include <string>

namespace leapnav::jump {

namespace {

Error invalid(const std::string& what, double value, const char* rule) {
  return make_error(ErrorCode::InvalidArgument,
                    what + " = " + std::to_string(value) + " (must be " + rule + ")");
}

}  // namespace

Status validate(const JumpConfig& config) {
  if (!std::isfinite(config.height) || !(config.height > 0.0F))
    return invalid("jump height", config.height, "> 0");
  if (!std::isfinite(config.distance) || !(config.distance > 0.0F))
    return invalid("jump distance", config.distance, "> 0");
  if (!std::isfinite(config.max_fall) || !(config.max_fall >= 0.0F))
    return invalid("jump max_fall", config.max_fall, ">= 0");
  return {};
}

Status validate(const JumpLinkOptions& options) {
  if (options.jumps.empty())
    return make_error(ErrorCode::InvalidArgument, "jump links: no jump configuration given");
  if (options.jumps.size() > 0xFFFFU)
    return make_error(
        ErrorCode::InvalidArgument,
        "jump links: " + std::to_string(options.jumps.size()) + " configurations (at most 65535)");
  for (std::size_t i = 0; i < options.jumps.size(); ++i) {
    const Status status = validate(options.jumps[i]);
    if (!status.ok())
      return make_error(status.error().code,
                        "jump configuration " + std::to_string(i) + ": " + status.error().message);
  }
  if (options.step < 1) return invalid("jump links: step", options.step, ">= 1");
  if (!std::isfinite(options.epsilon) || !(options.epsilon > 0.0F))
    return invalid("jump links: epsilon", options.epsilon, "> 0");
  return {};
}

double search_range(const JumpConfig& config) {
  const double h = config.height;
  const double d = config.distance;
  return 0.5 * d * (1.0 + std::sqrt(static_cast<double>(config.max_fall) / h));
}

std::size_t warn_unreachable_configs(const JumpLinkOptions& options, const GridSpec& grid,
                                     BuildContext& ctx) {
  const double span = double{grid.cell_size} *
                      std::hypot(static_cast<double>(grid.width), static_cast<double>(grid.depth));
  std::size_t warned = 0;
  for (std::size_t i = 0; i < options.jumps.size(); ++i) {
    const JumpConfig& c = options.jumps[i];
    const double down = 0.5 * double{c.distance};
    if (!(down > span)) continue;
    std::ostringstream text;
    text << "jump configuration " << i << " (h " << c.height << ", d " << c.distance
         << ", max_fall " << c.max_fall << " m): its arc comes down only " << down
         << " m from a start, farther than the scene's widest span (" << span
         << " m): it gives no links";
    ctx.warn(text.str());
    ++warned;
  }
  return warned;
}

}  // namespace leapnav::jump
