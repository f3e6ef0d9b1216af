/** An invalid setting; its message is the one line the process prints before exiting 1. */
export class ConfigError extends Error {
  override name = "ConfigError";
}
