/**
 * Starts yaml-language-server for the side-by-side comparison. It waits a fixed 200 ms before validating a
 * changed document and has no setting for it; `--validation-delay=<ms>` replaces that delay, so that both servers
 * can be measured without a debounce and with their defaults.
 */
const server = "yaml-language-server/out/server/src";
const arg = process.argv.find((a) => a.startsWith("--validation-delay="));
if (arg) {
  const ms = Number(arg.slice(arg.indexOf("=") + 1));
  const { SettingsState } = require(`${server}/yamlSettings.js`) as { SettingsState: { prototype: object } };
  // The constructor assigns the delay; an accessor on the prototype takes that assignment and keeps `ms`.
  Object.defineProperty(SettingsState.prototype, "validationDelayMs", {
    get: () => ms,
    set: () => undefined,
    configurable: true,
  });
}
process.env.YAML_LANGUAGE_SERVER_VERSION = (
  require("yaml-language-server/package.json") as { version: string }
).version;
require(`${server}/server.js`);
