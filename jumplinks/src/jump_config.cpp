// Validation of jump configurations and generator options, and the search range of §5.4.1.
#include "leapnav/jumplinks/jump_config.hpp"

#include <cmath>
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

}  // namespace leapnav::jump
